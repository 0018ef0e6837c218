//! `remove` writes ahead: the journal says what is about to go before anything goes, so a
//! crash at any point leaves an undo that reverts the removal (as far as it got), never the
//! operation before it. The crash states are laid out exactly (an intent journalled, then
//! part of the removal done by hand, then no record), and also made by real kills.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};

use skilldeck::operations::journal::ahead::Underway;
use skilldeck::operations::{Change, Entry, Operation, Was};
use skilldeck::snapshot::{Reason, Store};

use super::{kills, rich_skill, skills_tree, stdout};
use crate::common::{Machine, symlink};

/// Claude Code's `demo`, linked into `.agents/skills` and Copilot's root, after a first
/// operation (a link) that an undo must not revert in its place.
fn machine_with_links() -> (Machine, PathBuf, Vec<PathBuf>) {
    machine_with_links_in(&std::env::temp_dir())
}

fn machine_with_links_in(base: &Path) -> (Machine, PathBuf, Vec<PathBuf>) {
    let machine = Machine::in_dir(base);
    let dir = machine.home.join(".claude/skills/demo");
    rich_skill(&dir);
    let links = vec![
        machine.home.join(".agents/skills/demo"),
        machine.home.join(".gemini/skills/demo"),
    ];
    for link in &links {
        symlink(&dir, link);
    }
    rich_skill(&machine.home.join(".claude/skills/first"));
    machine.run_expecting(&["link", "first", "--agent", "copilot"], 0);
    (machine, dir, links)
}

fn library(machine: &Machine) -> skilldeck::roots::Machine {
    skilldeck::roots::Machine::sandbox(&machine.home, &machine.system, &machine.start)
}

/// How far a stopped removal got.
#[derive(Clone, Copy, Debug)]
enum Stop {
    /// Its intent journalled, nothing done.
    BeforeAnything,
    /// The first link unlinked.
    OneLink,
    /// Every link unlinked, the folder still there.
    AllLinks,
    /// Links and folder gone, no record journalled.
    BeforeRecord,
}

/// Journal a removal's intent as `remove` does, do it up to `stop`, and stop there as a crash
/// would: the intent's lock is released with no record.
fn crash_during_remove(machine: &Machine, dir: &Path, links: &[PathBuf], stop: Stop) {
    let taken = Store::open(&machine.env())
        .take_before_overwrite(dir, Reason::BeforeRemove)
        .unwrap();
    let mut changes: Vec<Change> = links
        .iter()
        .map(|link| Change {
            dir: link.clone(),
            was: Was::Link(dir.to_path_buf()),
            snapshot: None,
            link: None,
        })
        .collect();
    changes.push(Change {
        dir: dir.to_path_buf(),
        was: Was::Kept(taken.snapshot.id.clone()),
        snapshot: None,
        link: None,
    });
    let underway =
        Underway::begin(&library(machine), Entry::now(Operation::Remove, changes)).unwrap();
    let unlinked = match stop {
        Stop::BeforeAnything => 0,
        Stop::OneLink => 1,
        Stop::AllLinks | Stop::BeforeRecord => links.len(),
    };
    for link in &links[..unlinked] {
        fs::remove_file(link).unwrap();
    }
    if matches!(stop, Stop::BeforeRecord) {
        fs::remove_dir_all(dir).unwrap();
    }
    drop(underway);
}

#[test]
fn a_removal_stopped_at_any_point_is_what_undo_reverts() {
    for stop in [
        Stop::BeforeAnything,
        Stop::OneLink,
        Stop::AllLinks,
        Stop::BeforeRecord,
    ] {
        let (machine, dir, links) = machine_with_links();
        let before = skills_tree(&machine);
        crash_during_remove(&machine, &dir, &links, stop);
        let output = machine.run_expecting(&["undo"], 0);
        let said = stdout(&output);
        assert!(said.contains("Recovered the remove"), "{stop:?}: {said}");
        match stop {
            // Nothing of the removal was done: the operation before it is the one undone.
            Stop::BeforeAnything => {
                assert!(said.contains("Undid the link"), "{stop:?}: {said}");
                assert!(fs::symlink_metadata(machine.home.join(".copilot/skills/first")).is_err());
            }
            _ => {
                assert!(said.contains("Undid the remove"), "{stop:?}: {said}");
                assert_eq!(skills_tree(&machine), before, "{stop:?}");
            }
        }
        // Settled once: a second undo does not recover it again.
        let again = machine.run(&["undo"]);
        assert!(
            !stdout(&again).contains("Recovered"),
            "{stop:?}: {}",
            stdout(&again)
        );
    }
}

/// A machine whose `demo` has enough files that removing it takes measurable time.
fn machine_for_kills() -> Machine {
    let (machine, _dir, _links) = machine_with_links_in(&kills::base());
    for i in 0..120 {
        fs::write(
            machine
                .home
                .join(format!(".claude/skills/demo/notes/n{i}.md")),
            format!("note {i}\n").repeat(20),
        )
        .unwrap();
    }
    machine
}

#[test]
fn a_removal_killed_at_random_moments_is_always_undone_whole() {
    kills::Rounds {
        operation: "remove",
        make: &|| (machine_for_kills(), vec!["remove".into(), "demo".into()]),
        tree: &skills_tree,
        rounds: 24,
        seed: 0x5eed_1234_abcd,
    }
    .run();
}

/// How far a stopped move between two roots got.
#[derive(Clone, Copy, Debug)]
enum MoveStop {
    /// Its intent journalled, nothing done.
    BeforeAnything,
    /// The copy arrived, the original is still there: two copies.
    TwoCopies,
    /// The copy arrived and the original is gone, no record journalled.
    BeforeRecord,
}

#[test]
fn a_move_stopped_at_any_point_is_what_undo_reverts() {
    for stop in [
        MoveStop::BeforeAnything,
        MoveStop::TwoCopies,
        MoveStop::BeforeRecord,
    ] {
        let machine = Machine::new();
        let from = machine.home.join(".claude/skills/solo");
        rich_skill(&from);
        rich_skill(&machine.home.join(".claude/skills/first"));
        machine.run_expecting(&["link", "first", "--agent", "copilot"], 0);
        let before = skills_tree(&machine);
        let to = machine.repo.join(".claude/skills/solo");
        let taken = Store::open(&machine.env())
            .take_before_overwrite(&from, Reason::BeforeRemove)
            .unwrap();
        let intent = Entry::now(
            Operation::Move,
            vec![
                Change {
                    dir: to.clone(),
                    was: Was::Absent,
                    snapshot: None,
                    link: None,
                },
                Change {
                    dir: from.clone(),
                    was: Was::Kept(taken.snapshot.id.clone()),
                    snapshot: None,
                    link: None,
                },
            ],
        );
        let underway = Underway::begin(&library(&machine), intent).unwrap();
        if !matches!(stop, MoveStop::BeforeAnything) {
            crate::common::copy_tree(&from, &to);
        }
        if matches!(stop, MoveStop::BeforeRecord) {
            fs::remove_dir_all(&from).unwrap();
        }
        drop(underway);
        let output = machine.run_expecting(&["undo"], 0);
        let said = stdout(&output);
        assert!(said.contains("Recovered the move"), "{stop:?}: {said}");
        match stop {
            MoveStop::BeforeAnything => assert!(said.contains("Undid the link"), "{said}"),
            _ => {
                assert!(said.contains("Undid the move"), "{stop:?}: {said}");
                assert_eq!(skills_tree(&machine), before, "{stop:?}");
            }
        }
    }
}

#[test]
fn a_move_writes_its_intent_before_it_moves() {
    let machine = Machine::new();
    rich_skill(&machine.home.join(".claude/skills/solo"));
    machine.run_expecting(&["move", "solo", "--scope", "project"], 0);
    let journal =
        fs::read_to_string(machine.home.join(".local/share/skilldeck/journal.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = journal
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{journal}");
    let token = lines[0]["ahead"]["intent"].as_str().unwrap();
    assert_eq!(lines[1]["ahead"]["done"], token);
    // The intent names where the folder goes and the snapshot that keeps it, before it goes.
    assert_eq!(
        lines[0]["changes"].as_array().unwrap().len(),
        2,
        "{journal}"
    );
    assert!(
        lines[0]["changes"][1]["was"]["kept"].is_string(),
        "{journal}"
    );
    let output = machine.run_expecting(&["undo"], 0);
    assert!(
        stdout(&output).contains("Undid the move"),
        "{}",
        stdout(&output)
    );
}
