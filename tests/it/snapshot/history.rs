//! Snapshots as history: why each was taken (recorded by every operation that takes one),
//! one skill's history with sizes and what changed, and `snapshots SKILL` as a user reads it.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use skilldeck::roots;
use skilldeck::snapshot::history::{self, Summary};
use skilldeck::snapshot::{Reason, SnapshotError, Store};

use crate::common::{Machine, write_skill};

fn json(machine: &Machine, args: &[&str]) -> Value {
    let output = machine.run_expecting(args, 0);
    serde_json::from_slice(&output.stdout).unwrap()
}

fn stdout(machine: &Machine, args: &[&str], code: i32) -> String {
    String::from_utf8_lossy(&machine.run_expecting(args, code).stdout).into_owned()
}

fn root(machine: &Machine) -> PathBuf {
    machine.home.join(".claude/skills")
}

fn sandbox(machine: &Machine) -> roots::Machine {
    roots::Machine::sandbox(&machine.home, &machine.system, &machine.start)
}

fn store(machine: &Machine) -> Store {
    Store::open(&machine.env())
}

/// The reasons of the snapshots of `dir`, oldest first, as `snapshots --json` gives them.
fn reasons(machine: &Machine, dir: &Path) -> Vec<String> {
    let real = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    json(machine, &["snapshots", "--json"])["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["dir"] == real.to_str().unwrap())
        .map(|s| s["reason"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn every_operation_records_why_it_took_its_snapshot() {
    let machine = Machine::new();
    let root = root(&machine);
    // By hand, then an import that replaces the skill.
    let dir = root.join("demo");
    write_skill(&dir, &[("notes.md", "mine\n")]);
    machine.run_expecting(&["snapshot", "demo"], 0);
    fs::write(dir.join("notes.md"), "mine, edited\n").unwrap();
    let bundle = machine.root().join("bundle/demo");
    write_skill(&bundle, &[("notes.md", "as shipped\n")]);
    let to = root.to_str().unwrap();
    machine.run_expecting(
        &["import", bundle.to_str().unwrap(), "--to", to, "--force"],
        0,
    );
    assert_eq!(
        reasons(&machine, &dir),
        ["manual", "before_import", "installed"]
    );

    // A restore keeps what it replaced (edited since the import) and what it put back.
    fs::write(dir.join("notes.md"), "edited after the import\n").unwrap();
    let first = store(&machine).history(&dir).unwrap()[0].id.clone();
    machine.run_expecting(&["restore", "demo", "--snapshot", &first], 0);
    assert_eq!(reasons(&machine, &dir)[3..], ["before_restore", "restored"]);

    // An accept of edited content.
    fs::write(dir.join("notes.md"), "accepted\n").unwrap();
    skilldeck::operations::snapshot::accept(&sandbox(&machine), &dir).unwrap();
    assert_eq!(reasons(&machine, &dir).last().unwrap(), "accepted");

    // A move: what left, and what arrived.
    let moved = root.join("moving");
    write_skill(&moved, &[("a.md", "a\n")]);
    fs::write(moved.join("a.md"), "changed before the move\n").unwrap();
    machine.run_expecting(&["move", "moving", "--scope", "project"], 0);
    assert_eq!(reasons(&machine, &moved), ["before_remove"]);
    let arrived = machine.repo.join(".claude/skills/moving");
    assert_eq!(reasons(&machine, &arrived), ["copied"]);

    // A remove.
    let gone = root.join("gone");
    write_skill(&gone, &[]);
    let real_gone = fs::canonicalize(&gone).unwrap();
    machine.run_expecting(&["remove", "gone"], 0);
    assert_eq!(reasons(&machine, &real_gone), ["before_remove"]);

    // From an agent's transcript.
    let used = root.join("used");
    write_skill(&used, &[]);
    let transcript = machine.root().join("session.jsonl");
    let line = serde_json::json!({"message": {"role": "user", "content": format!(
        "Base directory for this skill: {}\n\n# used", fs::canonicalize(&used).unwrap().display()
    )}});
    fs::write(&transcript, format!("{line}\n")).unwrap();
    machine.run_expecting(
        &[
            "snapshot",
            "--from-transcript",
            transcript.to_str().unwrap(),
        ],
        0,
    );
    assert_eq!(reasons(&machine, &used), ["transcript"]);
    let table = stdout(&machine, &["snapshots"], 0);
    assert!(table.contains("REASON"), "{table}");
    assert!(table.contains("from an agent's transcript"), "{table}");
}

#[test]
fn a_record_written_before_reasons_reads_as_unrecorded() {
    let machine = Machine::new();
    let dir = root(&machine).join("old");
    write_skill(&dir, &[]);
    let taken = store(&machine).take(&dir, Reason::Manual).unwrap().snapshot;
    let info = taken.path.join("info.json");
    let mut record: Value = serde_json::from_slice(&fs::read(&info).unwrap()).unwrap();
    assert_eq!(record["reason"], "manual");
    record.as_object_mut().unwrap().remove("reason");
    fs::write(&info, serde_json::to_vec(&record).unwrap()).unwrap();
    let again = store(&machine).latest(&dir).unwrap().unwrap();
    assert_eq!(again.info.reason, Reason::Unrecorded);
    assert_eq!(reasons(&machine, &dir), ["unrecorded"]);
}

#[test]
fn a_history_sizes_each_snapshot_and_counts_what_changed_since_the_one_before() {
    let machine = Machine::new();
    let dir = root(&machine).join("grows");
    write_skill(
        &dir,
        &[("a.md", "one\ntwo\nthree\n"), ("gone.md", "x\ny\n")],
    );
    let store = store(&machine);
    store.take(&dir, Reason::Manual).unwrap();
    fs::write(dir.join("a.md"), "one\n2\nthree\nfour\n").unwrap();
    fs::remove_file(dir.join("gone.md")).unwrap();
    fs::write(dir.join("new.md"), "n1\nn2\nn3\n").unwrap();
    fs::write(dir.join("blob.bin"), [0u8, 1, 2, 3]).unwrap();
    store.take(&dir, Reason::Manual).unwrap();

    let steps = history::history(&store, &dir).unwrap();
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0].since_previous, None);
    assert!(!steps[0].damaged && !steps[1].damaged);
    let bytes = |step: &history::Step| -> u64 { walk_sizes(&step.snapshot.files()) };
    assert_eq!(steps[0].size, bytes(&steps[0]));
    assert_eq!(steps[1].size, bytes(&steps[1]));
    assert!(steps[1].size > 0);
    assert_eq!(
        steps[1].since_previous,
        Some(Summary {
            files_added: 2,
            files_removed: 1,
            files_modified: 1,
            // new.md's three lines, a.md's `2` and `four`; the binary file counts no lines.
            lines_added: 5,
            // gone.md's two lines, a.md's `two`.
            lines_removed: 3,
        })
    );
}

fn walk_sizes(dir: &Path) -> u64 {
    let mut total = 0;
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let meta = entry.metadata().unwrap();
        total += if meta.is_dir() {
            walk_sizes(&entry.path())
        } else {
            meta.len()
        };
    }
    total
}

#[test]
fn a_damaged_snapshot_is_marked_in_its_history_not_an_error_for_all_of_it() {
    let machine = Machine::new();
    let dir = root(&machine).join("hurt");
    write_skill(&dir, &[("a.md", "1\n")]);
    let store = store(&machine);
    store.take(&dir, Reason::Manual).unwrap();
    fs::write(dir.join("a.md"), "2\n").unwrap();
    let middle = store.take(&dir, Reason::Manual).unwrap().snapshot;
    fs::write(dir.join("a.md"), "3\n").unwrap();
    let last = store.take(&dir, Reason::Manual).unwrap().snapshot;
    // One snapshot's files edited, another's record broken.
    fs::write(middle.files().join("a.md"), "tampered\n").unwrap();
    fs::write(last.path.join("info.json"), "{ not json").unwrap();
    assert!(matches!(
        store.history(&dir),
        Err(SnapshotError::Corrupt { .. })
    ));

    let steps = history::history(&store, &dir).unwrap();
    let damaged: Vec<bool> = steps.iter().map(|s| s.damaged).collect();
    assert_eq!(damaged, [false, true, true]);
    assert!(steps.iter().all(|s| s.since_previous.is_none()));
    assert_eq!(steps[2].snapshot.id, last.id);
    assert_eq!(steps[2].snapshot.info.taken_at, last.info.taken_at);

    let listing = json(&machine, &["snapshots", "hurt", "--json"]);
    let flags: Vec<bool> = listing["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["damaged"].as_bool().unwrap())
        .collect();
    assert_eq!(flags, [false, true, true]);
}

#[test]
fn snapshots_skill_shows_one_history_with_reasons_sizes_and_changes() {
    let machine = Machine::new();
    let dir = root(&machine).join("pdf");
    write_skill(&dir, &[("a.md", "one\n")]);
    write_skill(&root(&machine).join("other"), &[]);
    machine.run_expecting(&["snapshot"], 0);
    fs::write(dir.join("a.md"), "one\ntwo\n").unwrap();
    machine.run_expecting(&["snapshot", "pdf"], 0);

    let listing = json(&machine, &["snapshots", "pdf", "--json"]);
    assert_eq!(listing["skill"], "pdf");
    assert_eq!(
        listing["dir"],
        fs::canonicalize(&dir).unwrap().to_str().unwrap()
    );
    let steps = listing["snapshots"].as_array().unwrap();
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0]["reason"], "manual");
    assert_eq!(steps[0]["since_previous"], Value::Null);
    assert_eq!(steps[0]["latest"], false);
    assert_eq!(steps[1]["latest"], true);
    assert!(steps[1]["size"].as_u64().unwrap() > 0);
    assert!(steps[1]["taken_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(steps[1]["since_previous"]["files_modified"], 1);
    assert_eq!(steps[1]["since_previous"]["lines_added"], 1);
    assert_eq!(steps[1]["since_previous"]["lines_removed"], 0);

    let text = stdout(&machine, &["snapshots", "pdf"], 0);
    // When, said as the app and undo say it; the recorded stamp is for --json.
    let stamp = steps[1]["taken_at"].as_str().unwrap();
    assert!(!text.contains(&stamp[..10]), "{stamp} in:\n{text}");
    for needle in [
        "just now",
        "2 snapshots of pdf",
        "SINCE PREVIOUS",
        "taken by hand",
        "first",
        "+0 -0 ~1 files, +1 -0 lines",
        "latest",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
    assert!(!text.contains("other"), "{text}");

    let nothing = machine.run_expecting(&["snapshots", "nosuch"], 1);
    let said = String::from_utf8_lossy(&nothing.stderr);
    assert!(said.contains("no skill is named nosuch"), "{said}");
}

#[test]
fn a_skill_named_like_a_subcommand_is_reached_by_its_folder() {
    let machine = Machine::new();
    let dir = root(&machine).join("prune");
    write_skill(&dir, &[]);
    machine.run_expecting(&["snapshot", dir.to_str().unwrap()], 0);
    let listing = json(&machine, &["snapshots", dir.to_str().unwrap(), "--json"]);
    assert_eq!(listing["snapshots"].as_array().unwrap().len(), 1);
    let help = stdout(&machine, &["snapshots", "--help"], 0);
    assert!(help.contains("./prune"), "{help}");
}

#[test]
fn a_hostile_folder_name_is_escaped_in_a_history() {
    let machine = Machine::new();
    let name = "evil\u{1b}]0;owned\u{7}";
    let dir = root(&machine).join(name);
    write_skill(&dir, &[]);
    store(&machine).take(&dir, Reason::Manual).unwrap();
    let text = stdout(&machine, &["snapshots", dir.to_str().unwrap()], 0);
    assert!(!text.contains('\u{1b}'), "{text:?}");
    assert!(!text.contains('\u{7}'), "{text:?}");
    assert!(text.contains("evil"), "{text}");
}
