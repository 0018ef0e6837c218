//! `U` in the app, with the real workers, against repositories built here: a clean update is
//! confirmed with what it does to each file and writes what the command line's `update` writes
//! (the same files on disk, from the same fixture); conflicts open the conflict view, each file
//! settled as theirs, ours or both before anything is written, Esc writing nothing; a skill with
//! no recorded upstream, and a repository that cannot be fetched, are a sentence with nothing
//! written. The last check of the upstreams marks the skills upstream moved past, and `K` asks
//! again. Screens are snapshotted at the four sizes.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::common::app::{Screen, settings};
use crate::common::git::{commit, git, repository};
use crate::common::{Machine, snapshot, write_files};
use skilldeck::operations::outdated::{self, Outdated};
use skilldeck::operations::progress::Step;
use skilldeck::roots;
use skilldeck::tui::app::{Overlay, Setup};
use skilldeck::tui::keymap::Mode;

const SIZES: [(u16, u16); 4] = [(60, 15), (80, 24), (120, 40), (200, 50)];

const GUIDE: &str = "line one\nline two\nline three\nline four\nline five\nline six\n";

fn skill_md(body: &str) -> String {
    format!("---\nname: alpha\ndescription: The alpha skill, for tests.\n---\n{body}\n")
}

/// A machine with `alpha` imported into Claude Code's skills from a repository of it (its
/// SKILL.md, a guide and a binary logo); the repository's folder.
fn imported() -> (Machine, PathBuf) {
    let machine = Machine::new();
    let repo = machine.root().join("upstream");
    repository(
        &repo,
        &[
            ("skills/alpha/SKILL.md", &skill_md("first")),
            ("skills/alpha/guide.md", GUIDE),
            ("skills/alpha/notes.md", "notes\n"),
        ],
    );
    fs::write(repo.join("skills/alpha/logo.bin"), b"\0logo one").unwrap();
    commit(&repo, "logo");
    let to = skills(&machine);
    machine.import_to(&repo, &to);
    (machine, repo)
}

fn skills(machine: &Machine) -> PathBuf {
    machine.home.join(".claude/skills")
}

fn alpha(machine: &Machine) -> PathBuf {
    skills(machine).join("alpha")
}

/// Upstream changes the guide's first line and SKILL.md's body; a local edit changes the
/// guide's last line: a clean merge of both.
fn clean_change(machine: &Machine, repo: &Path) {
    write_files(
        repo,
        &[
            ("skills/alpha/SKILL.md", &skill_md("second")),
            (
                "skills/alpha/guide.md",
                &GUIDE.replace("line one", "line one, upstream"),
            ),
        ],
    );
    commit(repo, "second");
    fs::write(
        alpha(machine).join("guide.md"),
        GUIDE.replace("line six", "line six, mine"),
    )
    .unwrap();
}

/// Both sides change the guide's second line and the binary logo: two conflicts.
fn conflicting_change(machine: &Machine, repo: &Path) {
    write_files(
        repo,
        &[(
            "skills/alpha/guide.md",
            &GUIDE.replace("line two", "line two, upstream"),
        )],
    );
    fs::write(repo.join("skills/alpha/logo.bin"), b"\0logo theirs").unwrap();
    commit(repo, "conflicting");
    let here = alpha(machine);
    fs::write(
        here.join("guide.md"),
        GUIDE.replace("line two", "line two, mine"),
    )
    .unwrap();
    fs::write(here.join("logo.bin"), b"\0logo ours").unwrap();
}

fn open(machine: &Machine, size: (u16, u16)) -> Screen {
    let on = roots::Machine::new(machine.env(), &machine.start);
    let mut screen = Screen::open(on, Setup::default(), size);
    screen.press("/alpha\n");
    screen
}

fn snap(name: &str, size: (u16, u16), screen: &Screen) {
    let mut settings = settings();
    // The commits a moved upstream is said to go from and to, as `outdated` shortens them:
    // their ids hold the time they were made.
    settings.add_filter(r"\b[0-9a-f]{12}\b", "[short-id12]");
    settings.bind(|| {
        insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen.backend());
    });
}

fn status(screen: &Screen) -> String {
    screen
        .app()
        .status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

#[test]
fn a_clean_update_is_confirmed_file_by_file_and_writes_what_the_command_line_does() {
    let (machine, repo) = imported();
    clean_change(&machine, &repo);
    for size in SIZES {
        let before = snapshot(&machine.home);
        let mut screen = open(&machine, size);
        screen.press("U");
        assert_eq!(screen.app().mode(), Mode::Confirm, "{}", screen.text());
        let Overlay::Confirm(question) = &screen.app().overlay else {
            panic!("no question: {}", screen.text());
        };
        let lines = question.lines.join("\n");
        assert!(lines.contains("SKILL.md  took theirs"), "{lines}");
        assert!(lines.contains("guide.md  merged"), "{lines}");
        snap("update_confirm", size, &screen);
        // No: nothing written.
        screen.press("n");
        assert!(screen.app().updating.is_none());
        assert_eq!(snapshot(&machine.home), before, "{size:?}");
    }
    // Yes, on one machine; the command line on another built the same way.
    let mut screen = open(&machine, (120, 40));
    screen.press("Uy");
    let said = status(&screen);
    assert!(said.contains("Updated alpha"), "{said}");
    assert!(said.contains("u puts it back"), "{said}");
    let guide = fs::read_to_string(alpha(&machine).join("guide.md")).unwrap();
    assert!(guide.contains("line one, upstream") && guide.contains("line six, mine"));

    let (other, other_repo) = imported();
    clean_change(&other, &other_repo);
    other.run_expecting(&["update", "alpha"], 0);
    assert_eq!(
        files_of(&alpha(&machine)),
        files_of(&alpha(&other)),
        "the app and the command line write the same files"
    );
    // And both record the commit each now matches: its repository's head.
    for (m, r) in [(&machine, &repo), (&other, &other_repo)] {
        let recorded = skilldeck::record::upstream::of(&m.env().data_dir(), &alpha(m)).unwrap();
        assert_eq!(recorded.commit, git(r, &["rev-parse", "HEAD"]));
    }
    // Nothing new upstream now: up to date.
    screen.press("U");
    assert!(
        status(&screen).contains("up to date with its upstream"),
        "{}",
        screen.text()
    );
}

/// Each file's bytes below `dir`, by path (the record's digest is the same for the same files).
fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    snapshot(dir)
        .into_iter()
        .map(|(path, (_, _, bytes))| (path, bytes))
        .collect()
}

#[test]
fn conflicts_are_settled_in_the_diff_and_esc_writes_nothing() {
    let (machine, repo) = imported();
    conflicting_change(&machine, &repo);
    let before = snapshot(&machine.home);
    for size in SIZES {
        let mut screen = open(&machine, size);
        screen.press("U");
        assert_eq!(screen.app().mode(), Mode::Conflicts, "{}", screen.text());
        // The logo (binary) cannot keep both: ours; the cursor goes on to the guide, unsettled,
        // its diff shown with the file keeping both would write.
        screen.press("jb");
        assert!(
            status(&screen).contains("cannot keep both"),
            "{}",
            status(&screen)
        );
        screen.press("o");
        let text = screen.text();
        if size.1 >= 24 {
            assert!(text.contains("[ ours ] logo.bin"), "{text}");
            assert!(text.contains("line two, mine"), "{text}");
        }
        snap("update_conflicts", size, &screen);
        // Not every file settled: y does not update.
        screen.press("y");
        assert_eq!(screen.app().mode(), Mode::Conflicts);
        screen.press("\x1b");
        assert!(screen.app().updating.is_none());
        assert_eq!(snapshot(&machine.home), before, "Esc writes nothing");
    }
    let mut screen = open(&machine, (120, 40));
    screen.press("Uj");
    // The guide's diff, with the file keeping both would write.
    screen.press("k");
    let text = screen.text();
    assert!(
        text.contains("line two, mine") && text.contains("line two, upstream"),
        "{text}"
    );
    assert!(text.contains("conflict markers"), "{text}");
    screen.press("bo");
    assert!(
        status(&screen).contains("Every file is settled"),
        "{}",
        status(&screen)
    );
    screen.press("y");
    let Overlay::Confirm(question) = &screen.app().overlay else {
        panic!("no question: {}", screen.text());
    };
    let lines = question.lines.join("\n");
    assert!(
        lines.contains("kept both") && lines.contains("kept ours"),
        "{lines}"
    );
    screen.press("y");
    assert!(
        status(&screen).contains("Updated alpha"),
        "{}",
        screen.text()
    );
    let guide = fs::read_to_string(alpha(&machine).join("guide.md")).unwrap();
    assert!(
        guide.contains("<<<<<<<") && guide.contains("line two, mine"),
        "{guide}"
    );
    assert_eq!(
        fs::read(alpha(&machine).join("logo.bin")).unwrap(),
        b"\0logo ours"
    );
}

#[test]
fn a_skill_with_no_upstream_or_an_upstream_that_cannot_be_fetched_is_a_sentence() {
    let machine = Machine::new();
    let folder = machine.root().join("plain/alpha");
    write_files(&folder, &[("SKILL.md", &skill_md("plain"))]);
    machine.import_to(&folder, skills(&machine));
    let mut screen = open(&machine, (80, 24));
    screen.press("U");
    let message = screen.app().messages.join("\n");
    assert!(
        message.contains("did not import it from a git repository") && message.contains("--from"),
        "{message}"
    );

    let (machine, repo) = imported();
    clean_change(&machine, &repo);
    fs::rename(&repo, machine.root().join("gone")).unwrap();
    let before = snapshot(&machine.home);
    let mut screen = open(&machine, (80, 24));
    screen.press("U");
    let message = screen.app().messages.join("\n");
    assert!(message.contains("nothing was written"), "{message}");
    assert!(screen.app().updating.is_none());
    assert_eq!(snapshot(&machine.home), before);
}

/// The answers of a check made three hours ago, as `outdated` keeps them: upstream moved.
fn checked_three_hours_ago(machine: &Machine) {
    let on = roots::Machine::new(machine.env(), &machine.start);
    let inventory = skilldeck::scan::scan(&on.env, &on.project, &|_| {});
    let mut answers = outdated::check(&on, &inventory, &mut |_: Step<'_>| {});
    assert_eq!(answers.skills.len(), 1, "{answers:?}");
    answers.checked_at = SystemTime::now() - Duration::from_secs(3 * 3600 + 60);
    fs::write(
        on.data_dir().join("outdated.json"),
        serde_json::to_vec(&answers).unwrap(),
    )
    .unwrap();
    assert_eq!(
        outdated::last(&on).map(|o: Outdated| o.skills.len()),
        Some(1)
    );
}

#[test]
fn the_last_check_marks_the_skills_upstream_moved_past_and_k_checks_again() {
    let (machine, repo) = imported();
    clean_change(&machine, &repo);
    checked_three_hours_ago(&machine);
    for size in SIZES {
        let screen = open(&machine, size);
        let text = screen.text();
        assert!(text.contains("↑▲"), "{size:?}\n{text}");
        if size.1 >= 40 {
            assert!(text.contains("upstream moved"), "{size:?}\n{text}");
            assert!(text.contains("3 h ago"), "{size:?}\n{text}");
        }
        snap("update_outdated_marker", size, &screen);
    }
    // After the update the skill is no longer marked; K asks again, and upstream has not moved.
    let mut screen = open(&machine, (120, 40));
    screen.press("Uy");
    assert!(!screen.text().contains("↑▲"), "{}", screen.text());
    screen.press("K");
    let text = screen.text();
    assert!(
        status(&screen).contains("none moved"),
        "{}",
        status(&screen)
    );
    assert!(
        text.contains("up to date with upstream, checked just now"),
        "{text}"
    );
    // Upstream moves again: K marks it.
    write_files(&repo, &[("skills/alpha/notes.md", "notes, later\n")]);
    commit(&repo, "later");
    screen.press("K");
    assert!(screen.text().contains("↑"), "{}", screen.text());
    assert!(
        status(&screen).contains("Upstream moved for 1 of 1"),
        "{}",
        status(&screen)
    );
}
