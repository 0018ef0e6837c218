//! A git repository typed in the app's import picker (a URL, or `OWNER/REPO`): the worker
//! fetches it with the user's git, the preview shows its skills like any bundle's, the install
//! records where each came from (so `outdated` and `update` know), and a repository that cannot
//! be fetched is a refusal on screen with nothing written. Repositories are built here; the
//! screens are snapshotted at the four sizes.

#![cfg(unix)]

use std::fs;

use crate::common::Machine;
use crate::common::app::{Screen, settings};
use crate::common::archive::skill_md;
use crate::common::git::repository;
use skilldeck::record::upstream;
use skilldeck::roots;
use skilldeck::tui::app::Setup;
use skilldeck::tui::import::Step;
use skilldeck::tui::keymap::Mode;

const SIZES: [(u16, u16); 4] = [(60, 15), (80, 24), (120, 40), (200, 50)];

fn snap(name: &str, size: (u16, u16), screen: &Screen) {
    settings().bind(|| {
        insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen.backend());
    });
}

/// A machine with Claude Code, and a repository of two skills below `skills/`; its URL.
fn machine_with_repository() -> (Machine, String) {
    let machine = Machine::new();
    fs::create_dir_all(machine.home.join(".claude")).unwrap();
    let repo = machine.root().join("upstream");
    repository(
        &repo,
        &[
            ("README.md", "two skills"),
            ("skills/alpha/SKILL.md", &skill_md("alpha")),
            ("skills/beta/SKILL.md", &skill_md("beta")),
        ],
    );
    (machine, format!("file://{}", repo.display()))
}

fn open(machine: &Machine, size: (u16, u16)) -> Screen {
    let on = roots::Machine::new(machine.env(), &machine.start);
    Screen::open(on, Setup::default(), size)
}

#[test]
fn a_repository_typed_in_the_picker_is_fetched_and_previewed() {
    let (machine, url) = machine_with_repository();
    for size in SIZES {
        let mut screen = open(&machine, size);
        screen.press("i").press(&url);
        let text = screen.text();
        if size.0 >= 120 {
            assert!(
                text.contains("fetches this repository with your git"),
                "{text}"
            );
        }
        snap("import_git_typed", size, &screen);
        screen.press("\n");
        assert_eq!(screen.app().mode(), Mode::Bundle, "{}", screen.text());
        let text = screen.text();
        assert!(
            text.contains("alpha") && text.contains("beta"),
            "{size:?}\n{text}"
        );
        snap("import_git_preview", size, &screen);
    }
}

#[test]
fn installing_from_a_repository_records_where_each_skill_came_from() {
    let (machine, url) = machine_with_repository();
    let mut screen = open(&machine, (120, 40));
    screen.press("i").press(&url).press("\n\n\n");
    let Some(Step::Done(done)) = screen.app().import.as_ref().map(|i| &i.step) else {
        panic!("not done: {}", screen.text());
    };
    let installed: Vec<&str> = done.skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(installed, ["alpha", "beta"]);
    let recorded = upstream::of(
        &machine.env().data_dir(),
        &machine.home.join(".claude/skills/alpha"),
    )
    .expect("the upstream is recorded");
    assert_eq!(recorded.repository, url);
    assert_eq!(recorded.path, "skills/alpha");
}

#[test]
fn a_repository_that_cannot_be_fetched_is_refused_on_screen_and_nothing_is_written() {
    let (machine, url) = machine_with_repository();
    let gone = format!("{url}-gone");
    for size in SIZES {
        let before = crate::common::snapshot(&machine.home);
        let mut screen = open(&machine, size);
        screen.press("i").press(&gone).press("\n");
        let refused = matches!(
            screen.app().import.as_ref().map(|i| &i.step),
            Some(Step::Refused(_))
        );
        assert!(refused, "{size:?}\n{}", screen.text());
        assert!(
            screen.text().contains("git could not fetch"),
            "{}",
            screen.text()
        );
        snap("import_git_refused", size, &screen);
        assert_eq!(crate::common::snapshot(&machine.home), before);
    }
}

/// The data folder's records of upstreams blocked by a file: the skills install, but where
/// they came from cannot be written down.
fn with_records_blocked(machine: &Machine) {
    let data = machine.env().data_dir();
    fs::create_dir_all(&data).unwrap();
    fs::write(data.join(upstream::FOLDER), "not a folder").unwrap();
}

#[test]
fn an_import_whose_upstream_cannot_be_recorded_says_so_on_screen_as_the_cli_does() {
    let (machine, url) = machine_with_repository();
    with_records_blocked(&machine);
    let mut screen = open(&machine, (200, 50));
    screen.press("i").press(&url).press("\n\n\n");
    let step = screen.app().import.as_ref().map(|i| i.step.clone());
    let Some(Step::Done(done)) = step else {
        panic!("the import did not end installed: {}", screen.text());
    };
    // Installed all the same: only the record is missing.
    assert_eq!(done.skills.len(), 2, "{done:?}");
    for name in ["alpha", "beta"] {
        assert!(
            done.warnings
                .iter()
                .any(|w| w.starts_with(&format!(
                    "{name}: where it came from could not be recorded in ~/"
                )) && w.ends_with("outdated and update will not know of it")),
            "{:?}",
            done.warnings
        );
    }
    let text = screen.text();
    assert!(
        text.contains("alpha: where it came from could not be recorded"),
        "{text}"
    );
    // The command line says the same of the same import.
    let (machine, url) = machine_with_repository();
    with_records_blocked(&machine);
    let output = machine.run_expecting(&["import", &url, "--agent", "claude-code"], 0);
    let said = String::from_utf8_lossy(&output.stderr);
    for name in ["alpha", "beta"] {
        assert!(
            said.contains(&format!(
                "skilldeck: warning: {name}: where it came from could not be recorded in"
            )),
            "{said}"
        );
    }
}
