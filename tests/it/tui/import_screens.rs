//! The import's preview and replacements on screen, with the real workers, at every size the
//! issue asks for: a large bundle's preview keeps the selected skill whole in view (its lint
//! problem too) and reaches its end (the last skill's files, the files left out) with `G`,
//! `End`, `PgDn` or `j` alone; the skills it would replace are named, each with its files, and
//! one can be kept as it is while the rest installs; a file where the skills folder should be
//! is refused at the destination, in one sentence naming it.

use std::fs;

use ratatui::crossterm::event::KeyCode;

use crate::common::app::{Screen, settings};
use crate::common::archive::{Tar, skill_md};
use crate::common::{Machine, write_files, write_skill};
use skilldeck::roots;
use skilldeck::tui::app::Setup;
use skilldeck::tui::import::{Import, Step};
use skilldeck::tui::keymap::Mode;

const SIZES: [(u16, u16); 4] = [(60, 15), (80, 24), (120, 40), (200, 50)];
const SKILLS: usize = 14;
const LINTED: &str = "skill-07";

fn name(i: usize) -> String {
    format!("skill-{i:02}")
}

/// `~/Downloads/big.tar`: fourteen skills of three files each, one with a lint problem, and
/// twenty files outside every skill.
fn machine_with_big_bundle() -> Machine {
    let machine = Machine::new();
    let mut tar = Tar::new();
    for i in 1..=SKILLS {
        let name = name(i);
        let manifest = if name == LINTED {
            "---\nname: seven\ndescription: The seventh skill, named otherwise.\n---\n".to_owned()
        } else {
            skill_md(&name)
        };
        tar = tar
            .dir(&format!("{name}/"))
            .file(&format!("{name}/SKILL.md"), manifest)
            .file(&format!("{name}/docs/guide.md"), "a guide\n")
            .executable(&format!("{name}/scripts/run.sh"), "#!/bin/sh\n");
    }
    for i in 1..=20 {
        tar = tar.file(&format!("extras/left-{i:02}.md"), "not a skill\n");
    }
    let downloads = machine.home.join("Downloads");
    fs::create_dir_all(&downloads).unwrap();
    fs::write(downloads.join("big.tar"), tar.end().bytes()).unwrap();
    machine
}

fn open(machine: &Machine, size: (u16, u16)) -> Screen {
    let on = roots::Machine::new(machine.env(), &machine.start);
    let mut screen = Screen::open(on, Setup::default(), size);
    screen.press("ibig\n");
    assert_eq!(screen.app().mode(), Mode::Bundle, "{}", screen.text());
    screen
}

fn snap(name: &str, size: (u16, u16), screen: &Screen) {
    settings().bind(|| {
        insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen.backend());
    });
}

/// The end of the preview is on screen: the last left-out file, and (where there is room for
/// more than the left-out list) the last skill's files.
fn end_shown(screen: &Screen, size: (u16, u16)) {
    let text = screen.text();
    assert!(text.contains("extras/left-20.md"), "{size:?}\n{text}");
    if size.1 >= 40 {
        assert!(text.contains("Left out, in no skill (20)"), "{text}");
        assert!(text.contains("skill-14"), "{text}");
    }
}

#[test]
fn the_preview_reaches_its_end_with_every_key_that_goes_down() {
    let machine = machine_with_big_bundle();
    for size in SIZES {
        let mut screen = open(&machine, size);
        screen.press("G");
        snap("import_preview_end", size, &screen);
        end_shown(&screen, size);

        // One line at a time, from the top.
        let mut screen = open(&machine, size);
        screen.press(&"j".repeat(80));
        end_shown(&screen, size);

        for code in [KeyCode::End, KeyCode::PageDown] {
            let mut screen = open(&machine, size);
            for _ in 0..if code == KeyCode::End { 1 } else { 30 } {
                screen.press_code(code);
            }
            end_shown(&screen, size);
        }

        // And back up: the first skill at the top again.
        screen.press("g");
        assert!(screen.text().contains("skill-01"), "{}", screen.text());
    }
}

#[test]
fn the_selected_skill_is_shown_whole_with_its_lint_problem() {
    let machine = machine_with_big_bundle();
    for size in SIZES {
        let mut screen = open(&machine, size);
        // Down to skill-07, the one with a lint problem.
        screen.press("jjjjjj");
        assert_eq!(screen.app().import.as_ref().unwrap().cursor, 6);
        snap("import_preview_selected", size, &screen);
        let text = screen.text();
        for shown in [
            LINTED,
            "docs/guide.md",
            "scripts/run.sh",
            // Cut to the width where it does not fit, never off the screen.
            "! directory name 'skill-07'",
        ] {
            assert!(text.contains(shown), "{size:?}: {shown}\n{text}");
        }
        // Back up past the top of the view: the skill above is shown whole too.
        screen.press("kkkkk");
        let text = screen.text();
        assert!(
            text.contains("skill-02") && text.contains("The skill-02 skill"),
            "{text}"
        );
    }
}

#[test]
fn all_and_none_take_and_leave_every_skill() {
    let machine = machine_with_big_bundle();
    let mut screen = open(&machine, (80, 24));
    screen.press("n");
    let import = screen.app().import.as_ref().unwrap();
    assert!(import.chosen.iter().all(|c| !c));
    // One of fourteen: none, then the one.
    screen.press("jjj ");
    assert_eq!(
        screen.app().import.as_ref().unwrap().chosen_names(),
        ["skill-04"]
    );
    screen.press("a");
    assert_eq!(
        screen.app().import.as_ref().unwrap().chosen_names().len(),
        SKILLS
    );
}

/// Four of the bundle's skills are in `~/.claude/skills` already, put there by hand.
fn with_four_there(machine: &Machine) {
    for i in 1..=4 {
        write_skill(&machine.home.join(".claude/skills").join(name(i)), &[]);
    }
}

#[test]
fn the_skills_there_already_are_named_each_with_its_files() {
    let machine = machine_with_big_bundle();
    with_four_there(&machine);
    for size in SIZES {
        let mut screen = open(&machine, size);
        screen.press("\n\n");
        assert_eq!(screen.app().mode(), Mode::Replace, "{}", screen.text());
        snap("import_replace_grouped", size, &screen);
        let Some(Step::Replace {
            conflicts, diff, ..
        }) = screen.app().import.as_ref().map(|i| &i.step)
        else {
            panic!("no replacements");
        };
        let names: Vec<&str> = conflicts.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["skill-01", "skill-02", "skill-03", "skill-04"]);
        for conflict in conflicts {
            // Its own files, named below it in the diff's list.
            let files: Vec<&str> = diff.files[conflict.files.clone()]
                .iter()
                .map(|f| f.path.as_str())
                .collect();
            assert!(
                files.contains(&format!("{}/SKILL.md", conflict.name).as_str()),
                "{files:?}"
            );
        }
        let text = screen.text();
        assert!(text.contains("4 skills are there already"), "{text}");
        assert!(text.contains("skill-01"), "{text}");
        if size.1 >= 24 {
            assert!(text.contains("skill-02"), "{text}");
        }
    }
}

/// The skill whose part of the replacements' diff is shown.
fn shown_conflict(screen: &Screen) -> Option<usize> {
    match screen.app().import.as_ref().map(|i| &i.step) {
        Some(Step::Replace {
            conflicts, scroll, ..
        }) => Import::conflict_at(conflicts, *scroll),
        _ => panic!("not at the replacements: {}", screen.text()),
    }
}

#[test]
fn a_skill_kept_as_it_is_is_left_alone_and_the_rest_installs() {
    let machine = machine_with_big_bundle();
    with_four_there(&machine);
    let skills = machine.home.join(".claude/skills");
    let by_hand = |i: usize| fs::read_to_string(skills.join(name(i)).join("SKILL.md")).unwrap();
    let before = by_hand(1);
    let mut screen = open(&machine, (120, 40));
    // Keep skill-01 (the one shown first), then move to skill-03 by its files and keep it too.
    screen.press("\n\n ");
    for _ in 0..20 {
        if shown_conflict(&screen) == Some(2) {
            break;
        }
        screen.press("]");
    }
    screen.press(" ");
    let text = screen.text();
    assert!(text.contains("2 kept as they are"), "{text}");
    screen.press("y");
    let Some(Step::Done(done)) = screen.app().import.as_ref().map(|i| &i.step) else {
        panic!("not done: {}", screen.text());
    };
    let installed: Vec<&str> = done.skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(installed.len(), SKILLS - 2, "{installed:?}");
    assert!(!installed.contains(&"skill-01") && !installed.contains(&"skill-03"));
    assert_eq!(by_hand(1), before);
    assert!(!by_hand(3).contains("installed-by"));
    assert!(by_hand(2).contains("installed-by: \"skilldeck\""));
    assert!(by_hand(14).contains("installed-by: \"skilldeck\""));
}

#[test]
fn every_skill_kept_writes_nothing() {
    let machine = machine_with_big_bundle();
    with_four_there(&machine);
    let mut screen = open(&machine, (80, 24));
    // Only the four that are there taken, then each kept.
    screen.press("n j j j ");
    assert_eq!(
        screen.app().import.as_ref().unwrap().chosen_names().len(),
        4
    );
    screen.press("\n\n");
    assert_eq!(screen.app().mode(), Mode::Replace, "{}", screen.text());
    for keep in 0..4 {
        for _ in 0..20 {
            if shown_conflict(&screen) == Some(keep) {
                break;
            }
            screen.press("]");
        }
        assert_eq!(shown_conflict(&screen), Some(keep));
        screen.press(" ");
    }
    assert!(
        screen.text().contains("4 kept as they are"),
        "{}",
        screen.text()
    );
    screen.press("y");
    assert!(screen.app().import.is_none(), "{}", screen.text());
    assert!(!machine.home.join(".claude/skills/skill-05").exists());
}

#[test]
fn a_file_where_the_skills_folder_should_be_is_refused_at_the_destination() {
    for (in_the_way, shown) in [
        (".claude/skills", "~/.claude/skills is not a folder"),
        (".claude", "~/.claude is not a folder"),
    ] {
        let machine = machine_with_big_bundle();
        write_files(&machine.home, &[(in_the_way, "a file")]);
        for size in SIZES {
            let mut screen = open(&machine, size);
            screen.press("\n");
            // Claude Code's folder is the one chosen by default.
            let import = screen.app().import.as_ref().unwrap();
            let root = &import.destinations[import.destination].shown_root;
            assert_eq!(root, "~/.claude/skills");
            screen.press("\n");
            assert_eq!(screen.app().mode(), Mode::Destination, "{}", screen.text());
            let refused = screen.app().import.as_ref().unwrap().refused.clone();
            let refused = refused.unwrap_or_default();
            assert!(refused.starts_with(shown), "{refused}");
            assert!(!refused.contains("skill-0"), "{refused}");
            if in_the_way == ".claude/skills" {
                snap("import_destination_refused", size, &screen);
            }
            assert!(screen.text().contains(shown), "{}", screen.text());
            // Another destination clears it.
            screen.press("j");
            assert!(screen.app().import.as_ref().unwrap().refused.is_none());
        }
    }
}

#[test]
fn the_result_says_which_copy_an_agent_will_run_instead() {
    for size in SIZES {
        let machine = machine_with_big_bundle();
        // A project copy of skill-01: Claude Code will run the personal one imported over it.
        write_skill(&machine.repo.join(".claude/skills").join(name(1)), &[]);
        fs::create_dir_all(machine.home.join(".claude")).unwrap();
        let machine_copy = roots::Machine::new(machine.env(), &machine.start);
        let mut screen = Screen::open(machine_copy, Setup::default(), size);
        screen.press("ibig\n\n\n");
        let Some(Step::Done(done)) = screen.app().import.as_ref().map(|i| &i.step) else {
            panic!("not done: {}", screen.text());
        };
        let said: Vec<&String> = done
            .warnings
            .iter()
            .filter(|w| w.contains("Claude Code will run"))
            .collect();
        assert_eq!(said.len(), 1, "{:?}", done.warnings);
        assert!(
            said[0].starts_with(
                "skill-01: Claude Code will run ~/.claude/skills/skill-01 instead of "
            ),
            "{}",
            said[0]
        );
        snap("import_result_shadowing", size, &screen);
        assert!(
            screen.text().contains("Claude Code will run"),
            "{}",
            screen.text()
        );
        // Once installed, the next import into the same place says it again (the project copy
        // still loses), and every skill is unchanged.
        screen.press("\n");
        screen.press("ibig\n\n\n");
        let Some(Step::Done(done)) = screen.app().import.as_ref().map(|i| &i.step) else {
            panic!("not done: {}", screen.text());
        };
        assert!(
            done.skills
                .iter()
                .all(|s| s.action == skilldeck::install::Action::Unchanged)
        );
        assert!(screen.text().contains("unchanged"), "{}", screen.text());
    }
}

/// The destination step says, for the folder under the cursor, which copy an agent would run
/// once the chosen skills are there, before anything is installed.
#[test]
fn the_destination_says_which_copy_an_agent_would_run_before_installing() {
    for size in SIZES {
        let machine = machine_with_big_bundle();
        write_skill(&machine.repo.join(".claude/skills").join(name(1)), &[]);
        fs::create_dir_all(machine.home.join(".claude")).unwrap();
        let machine_copy = roots::Machine::new(machine.env(), &machine.start);
        let mut screen = Screen::open(machine_copy, Setup::default(), size);
        screen.press("ibig\n\n");
        let Some(import) = screen.app().import.as_ref() else {
            panic!("no import: {}", screen.text());
        };
        assert!(
            matches!(import.step, Step::Destination),
            "{}",
            screen.text()
        );
        snap("import_destination_shadowing", size, &screen);
        // The sentence wraps inside the box: read it without the borders.
        let text = screen.text().replace(['\n', '│', '"'], " ");
        let squeezed: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            squeezed.contains("skill-01: Claude Code would run ~/.claude/skills/skill-01"),
            "{text}"
        );
        // Nothing is installed yet.
        assert!(!machine.home.join(".claude/skills").join(name(1)).exists());
    }
    // With no other copy of any of its names, nothing is said.
    let machine = machine_with_big_bundle();
    fs::create_dir_all(machine.home.join(".claude")).unwrap();
    let mut screen = open(&machine, (120, 40));
    screen.press("\n");
    assert!(!screen.text().contains("would run"), "{}", screen.text());
}

#[test]
fn a_destination_no_agent_installed_here_reads_is_said_to_be() {
    // No agent's config folder exists: every folder is offered, and none is read by an agent
    // installed here.
    let machine = machine_with_big_bundle();
    let mut screen = open(&machine, (120, 40));
    screen.press("\n");
    let text = screen.text();
    assert!(
        text.contains("No agent installed here reads ~/.claude/skills, so none would load"),
        "{text}"
    );
    // With Claude Code installed, its folder is read: nothing to say.
    fs::create_dir_all(machine.home.join(".claude")).unwrap();
    let mut screen = open(&machine, (120, 40));
    screen.press("\n");
    assert!(
        !screen.text().contains("No agent installed here"),
        "{}",
        screen.text()
    );
}
