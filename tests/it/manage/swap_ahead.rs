//! `import` and `restore` write ahead as `remove` and `move` do: once every folder they replace
//! is kept and before the first is swapped, the journal says which folders are about to change.
//! A crash between two swaps, or after the last and before the record, leaves an intent the
//! next `undo` settles and reverts, never an operation undo knows nothing of (which would make
//! it revert the operation before). The crash states are made by stopping a real install
//! between its swaps, by laying a restore's out exactly, and by real kills.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use skilldeck::install::{Progress, Watch};
use skilldeck::operations::journal::ahead::Underway;
use skilldeck::operations::{Change, Entry, Operation, Was};
use skilldeck::snapshot::{Reason, Store};

use super::{kills, rich_skill, skills_tree, stdout};
use crate::common::{Machine, write_skill};

/// A machine where skilldeck installed `demo` (since edited by hand) into Claude Code's root,
/// after a first operation (a link) that an undo must not revert in the import's place; and a
/// bundle holding a new `demo` and a skill `fresh` the root does not have.
fn machine_and_bundle(base: &Path, files: usize) -> (Machine, PathBuf, PathBuf) {
    let machine = Machine::in_dir(base);
    let root = machine.home.join(".claude/skills");
    let first_bundle = machine.root().join("first/demo");
    write_skill(&first_bundle, &[("notes/old.md", "old\n")]);
    machine.run_expecting(
        &[
            "import",
            first_bundle.to_str().unwrap(),
            "--to",
            root.to_str().unwrap(),
        ],
        0,
    );
    fs::write(root.join("demo/notes/mine.md"), "my edit\n").unwrap();
    rich_skill(&machine.home.join(".claude/skills/first"));
    machine.run_expecting(&["link", "first", "--agent", "copilot"], 0);
    let bundle = machine.root().join("bundle");
    for name in ["demo", "fresh"] {
        let notes: Vec<(String, String)> = (0..files)
            .map(|i| {
                (
                    format!("notes/n{i}.md"),
                    format!("{name} note {i}\n").repeat(20),
                )
            })
            .collect();
        let notes: Vec<(&str, &str)> = notes
            .iter()
            .map(|(p, c)| (p.as_str(), c.as_str()))
            .collect();
        write_skill(&bundle.join(name), &notes);
    }
    (machine, root, bundle)
}

/// The skill folders and files, without the staging folders a killed writer leaves for the
/// next one to sweep (they are no skill, and not the user's).
fn tree(machine: &Machine) -> BTreeMap<String, String> {
    skills_tree(machine)
        .into_iter()
        .filter(|(path, _)| !path.contains(".skilldeck-"))
        .collect()
}

fn import_args<'a>(root: &'a Path, bundle: &'a Path) -> [&'a str; 5] {
    [
        "import",
        bundle.to_str().unwrap(),
        "--to",
        root.to_str().unwrap(),
        "--force",
    ]
}

/// A watch that stops the install, as a crash would, once `after` folders are in place.
struct CrashAfter {
    after: usize,
    swapped: usize,
}

impl Watch for CrashAfter {
    fn wrote(&mut self, _progress: Progress<'_>) {}

    fn before_replace(&mut self, _skill_dir: &Path) -> io::Result<()> {
        Ok(())
    }

    fn installed(&mut self, _skill_dir: &Path) {
        self.swapped += 1;
        if self.swapped == self.after {
            panic!("crash after {} swaps", self.after);
        }
    }
}

#[test]
fn an_import_stopped_between_its_swaps_is_what_undo_reverts() {
    for after in [1, 2] {
        let (machine, root, bundle) = machine_and_bundle(&std::env::temp_dir(), 2);
        let before = tree(&machine);
        let library =
            skilldeck::roots::Machine::sandbox(&machine.home, &machine.system, &machine.start);
        let read = skilldeck::bundle::read(&bundle).unwrap();
        let chosen: Vec<_> = read.skills.iter().collect();
        let mut crash = CrashAfter { after, swapped: 0 };
        let stopped = catch_unwind(AssertUnwindSafe(|| {
            skilldeck::operations::import::install(&library, &root, &chosen, true, &mut crash)
        }));
        assert!(
            stopped.is_err(),
            "after {after}: the install was not stopped"
        );
        assert_ne!(tree(&machine), before, "after {after}: nothing was swapped");
        let output = machine.run_expecting(&["undo"], 0);
        let said = stdout(&output);
        assert!(
            said.contains("Recovered the import"),
            "after {after}: {said}"
        );
        assert!(said.contains("Undid the import"), "after {after}: {said}");
        assert_eq!(tree(&machine), before, "after {after}");
        assert_eq!(
            fs::read_to_string(root.join("demo/notes/mine.md")).unwrap(),
            "my edit\n",
            "after {after}"
        );
        // The link made before the import is still there: it was not undone in its place.
        assert!(machine.home.join(".copilot/skills/first").exists());
    }
}

#[test]
fn an_import_says_ahead_which_folders_it_is_about_to_change() {
    let (machine, root, bundle) = machine_and_bundle(&std::env::temp_dir(), 1);
    let journal_path = machine.home.join(".local/share/skilldeck/journal.jsonl");
    let lines_before = fs::read_to_string(&journal_path).unwrap().lines().count();
    machine.run_expecting(&import_args(&root, &bundle), 0);
    let journal = fs::read_to_string(&journal_path).unwrap();
    let lines: Vec<serde_json::Value> = journal
        .lines()
        .skip(lines_before)
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{journal}");
    let token = lines[0]["ahead"]["intent"].as_str().unwrap();
    assert_eq!(lines[1]["ahead"]["done"], token);
    let intent = &lines[0]["changes"];
    let was_of = |name: &str| {
        intent
            .as_array()
            .unwrap()
            .iter()
            .find(|change| change["dir"].as_str().unwrap().ends_with(name))
            .map(|change| change["was"].clone())
            .unwrap_or_else(|| panic!("{name} not in the intent: {intent}"))
    };
    // The replaced folder's snapshot is named before it is replaced; the new one was nothing.
    assert!(was_of("/demo")["kept"].is_string(), "{intent}");
    assert_eq!(was_of("/fresh"), "absent", "{intent}");
}

#[test]
fn an_import_killed_at_random_moments_is_always_undone_whole() {
    kills::Rounds {
        operation: "import",
        make: &|| {
            let (machine, root, bundle) = machine_and_bundle(&kills::base(), 150);
            let args = import_args(&root, &bundle).map(str::to_owned).to_vec();
            (machine, args)
        },
        tree: &tree,
        rounds: 20,
        seed: 0x1a2b_3c4d_5e6f,
    }
    .run();
}

/// A machine whose `demo` has two snapshots (as first written, then edited) and an edit since,
/// after a first operation (a link) an undo must not revert in the restore's place.
fn machine_to_restore(base: &Path, files: usize) -> (Machine, PathBuf, String) {
    let machine = Machine::in_dir(base);
    let dir = machine.home.join(".claude/skills/demo");
    rich_skill(&dir);
    for i in 0..files {
        fs::write(
            dir.join(format!("notes/n{i}.md")),
            format!("note {i}\n").repeat(20),
        )
        .unwrap();
    }
    let store = Store::open(&machine.env());
    let first = store.take(&dir, Reason::Manual).unwrap().snapshot.id;
    for i in 0..files {
        fs::write(dir.join(format!("notes/n{i}.md")), format!("edit {i}\n")).unwrap();
    }
    fs::write(dir.join("notes/mine.md"), "my edit\n").unwrap();
    rich_skill(&machine.home.join(".claude/skills/first"));
    machine.run_expecting(&["link", "first", "--agent", "copilot"], 0);
    (machine, dir, first)
}

#[test]
fn a_restore_stopped_after_its_swap_is_what_undo_reverts() {
    for swapped in [false, true] {
        let (machine, dir, first) = machine_to_restore(&std::env::temp_dir(), 2);
        let before = tree(&machine);
        // As `restore` does: what the folder holds is kept, the intent said, then the swap;
        // the crash comes before the record.
        let store = Store::open(&machine.env());
        let kept = store
            .take_before_overwrite(&dir, Reason::BeforeRestore)
            .unwrap();
        let intent = Entry::now(
            Operation::Restore,
            vec![Change {
                dir: dir.clone(),
                was: Was::Kept(kept.snapshot.id.clone()),
                snapshot: None,
                link: None,
            }],
        );
        let library =
            skilldeck::roots::Machine::sandbox(&machine.home, &machine.system, &machine.start);
        let underway = Underway::begin(&library, intent).unwrap();
        if swapped {
            fs::remove_dir_all(&dir).unwrap();
            let snapshot = store.find(&dir, Some(&first)).unwrap();
            for file in snapshot.read_kept(&dir).unwrap() {
                let path = dir.join(&file.rel);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, &file.bytes).unwrap();
            }
        }
        drop(underway);
        let output = machine.run_expecting(&["undo"], 0);
        let said = stdout(&output);
        assert!(
            said.contains("Recovered the restore"),
            "swapped {swapped}: {said}"
        );
        if swapped {
            assert!(said.contains("Undid the restore"), "{said}");
            assert_eq!(tree(&machine), before);
            assert_eq!(
                fs::read_to_string(dir.join("notes/mine.md")).unwrap(),
                "my edit\n"
            );
            assert!(machine.home.join(".copilot/skills/first").exists());
        } else {
            // Nothing of the restore was done: the operation before it is the one undone.
            assert!(said.contains("Undid the link"), "{said}");
            assert!(!machine.home.join(".copilot/skills/first").exists());
        }
    }
}

#[test]
fn a_restore_killed_at_random_moments_is_always_undone_whole() {
    kills::Rounds {
        operation: "restore",
        make: &|| {
            let (machine, _dir, first) = machine_to_restore(&kills::base(), 150);
            let args = ["restore", "demo", "--snapshot", &first].map(str::to_owned);
            (machine, args.to_vec())
        },
        tree: &tree,
        rounds: 16,
        seed: 0x0bad_cafe_f00d,
    }
    .run();
}
