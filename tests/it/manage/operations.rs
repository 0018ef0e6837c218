//! The operations both front ends share: each one that changes a root or the snapshot store
//! leaves a journal entry naming the snapshot that holds what was there before, whether the
//! command line or the app ran it; and export's one policy, never replacing a file unasked.

use std::fs;
use std::path::Path;

use skilldeck::operations::{self, Entry, Journal, Operation, Was};
use skilldeck::roots;
use skilldeck::snapshot::export::{ExportError, Unscanned};

use crate::common::app::demo;
use crate::common::{Machine, write_skill};

/// What the operations did: the intents some say ahead of acting have tests of their own.
fn journal(home: &Path, system: &Path, project: &Path) -> Vec<Entry> {
    let read = Journal::of(&roots::Machine::sandbox(home, system, project))
        .read()
        .unwrap();
    assert!(read.damaged.is_empty(), "{:?}", read.damaged);
    read.entries
        .into_iter()
        .filter(|entry| !entry.is_intent())
        .collect()
}

fn entries(machine: &Machine) -> Vec<Entry> {
    journal(&machine.home, &machine.system, &machine.start)
}

fn ok(output: &std::process::Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Whether the snapshot `id` of `skill` holds what its folder holds now, and the diff.
fn against_disk(machine: &Machine, skill: &str, id: &str) -> (bool, String) {
    let output = machine.run(&["diff", skill, "--snapshot", id]);
    let code = output.status.code();
    assert!(matches!(code, Some(0 | 1)), "{output:?}");
    (
        code == Some(0),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn command_line_imports_restores_and_snapshots_are_journalled_with_what_was_there() {
    let machine = Machine::new();
    let bundle = machine.root().join("bundle/demo");
    write_skill(&bundle, &[("notes.md", "as shipped\n")]);
    let root = machine.home.join(".claude/skills");
    let dir = root.join("demo");
    let (source, to) = (bundle.to_str().unwrap(), root.to_str().unwrap());

    ok(&machine.run(&["import", source, "--to", to]));
    let log = entries(&machine);
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0].operation, Operation::Import);
    assert_eq!(log[0].changes.len(), 1);
    assert_eq!(log[0].changes[0].dir, dir);
    assert_eq!(log[0].changes[0].was, Was::Absent);
    let baseline = log[0].changes[0].snapshot.clone().unwrap();
    assert!(against_disk(&machine, "demo", &baseline).0);

    // A forced replace of an edit: the journal names the snapshot that holds the edit.
    fs::write(dir.join("notes.md"), "my own edit\n").unwrap();
    ok(&machine.run(&["import", source, "--to", to, "--force"]));
    let log = entries(&machine);
    assert_eq!(log.len(), 2, "{log:?}");
    let Was::Kept(kept) = &log[1].changes[0].was else {
        panic!("{:?}", log[1]);
    };
    let (same, diff) = against_disk(&machine, "demo", kept);
    assert!(!same && diff.contains("-my own edit"), "{diff}");

    // Restoring the edit back: the journal keeps what the restore replaced.
    ok(&machine.run(&["restore", "demo", "--snapshot", kept]));
    assert_eq!(
        fs::read_to_string(dir.join("notes.md")).unwrap(),
        "my own edit\n"
    );
    let log = entries(&machine);
    assert_eq!(log.len(), 3, "{log:?}");
    assert_eq!(log[2].operation, Operation::Restore);
    let Was::Kept(replaced) = &log[2].changes[0].was else {
        panic!("{:?}", log[2]);
    };
    let (same, diff) = against_disk(&machine, "demo", replaced);
    assert!(!same && diff.contains("-as shipped"), "{diff}");

    // A snapshot that copies nothing new is not an operation on the store.
    ok(&machine.run(&["snapshot", "demo"]));
    assert_eq!(entries(&machine).len(), 3);
    fs::write(dir.join("notes.md"), "a third text\n").unwrap();
    ok(&machine.run(&["snapshot", "demo"]));
    let log = entries(&machine);
    assert_eq!(log.len(), 4, "{log:?}");
    assert_eq!(log[3].operation, Operation::Snapshot);
    assert_eq!(log[3].changes[0].was, Was::Untouched);
    let taken = log[3].changes[0].snapshot.as_deref().unwrap();
    assert!(against_disk(&machine, "demo", taken).0);
}

#[test]
fn a_refused_import_journals_nothing() {
    let machine = Machine::new();
    let bundle = machine.root().join("bundle/demo");
    write_skill(&bundle, &[]);
    let root = machine.home.join(".claude/skills");
    write_skill(&root.join("demo"), &[("mine.md", "hand-written\n")]);
    let output = machine.run(&[
        "import",
        bundle.to_str().unwrap(),
        "--to",
        root.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(entries(&machine).is_empty());
}

#[test]
fn the_apps_snapshot_restore_accept_and_import_are_journalled_too() {
    let (sandbox, mut screen) = demo((120, 40));
    let log = || journal(&sandbox.home(), &sandbox.system(), &sandbox.project());
    assert!(
        log().is_empty(),
        "the demo's own snapshots are not operations"
    );

    screen.press("/deploy\n").press("s");
    assert_eq!(log().last().unwrap().operation, Operation::Snapshot);

    screen.press("\u{1b}3\nRy\u{1b}");
    let restore = log().pop().unwrap();
    assert_eq!(restore.operation, Operation::Restore);
    assert!(
        matches!(restore.changes[0].was, Was::Kept(_)),
        "{restore:?}"
    );

    screen.press("j\nay\u{1b}");
    assert_eq!(log().last().unwrap().operation, Operation::Accept);

    screen.press("\u{1b}1iteam\n\n\ny");
    let import = log().pop().unwrap();
    assert_eq!(import.operation, Operation::Import);
    let names: Vec<String> = import
        .changes
        .iter()
        .map(|c| c.dir.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["changelog", "code-review", "shell-check"],
        "{import:?}"
    );
    assert!(
        import.changes.iter().any(|c| matches!(c.was, Was::Kept(_))),
        "the replaced code-review is kept: {import:?}"
    );
    assert_eq!(log().len(), 4, "{:?}", log());
}

#[test]
fn export_never_replaces_a_file_unless_told_to() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/demo"), &[]);
    let out = machine.start.join("demo.tar.gz");
    fs::write(&out, "someone's file\n").unwrap();
    let refused = machine.run(&["export", "demo", "-o", "demo.tar.gz"]);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("already a file") && stderr.contains("--force"),
        "{stderr}"
    );
    assert_eq!(fs::read_to_string(&out).unwrap(), "someone's file\n");

    ok(&machine.run(&["export", "demo", "-o", "demo.tar.gz", "--force"]));
    let bundle = skilldeck::bundle::read(&out).unwrap();
    assert_eq!(bundle.skills[0].name, "demo");
}

#[test]
fn the_export_operation_takes_the_path_as_typed_and_keeps_what_is_there() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/demo");
    write_skill(&dir, &[]);
    let on = roots::Machine::sandbox(&machine.home, &machine.system, &machine.start);

    let home_out = operations::export::export(
        &on,
        &dir,
        Path::new("~/demo.tar.gz"),
        false,
        Unscanned::LeaveOut,
    )
    .unwrap();
    assert_eq!(home_out.path, machine.home.join("demo.tar.gz"));
    let project_out = operations::export::export(
        &on,
        &dir,
        Path::new("demo.tar.gz"),
        false,
        Unscanned::LeaveOut,
    )
    .unwrap();
    assert_eq!(project_out.path, machine.start.join("demo.tar.gz"));

    let before = fs::read(&project_out.path).unwrap();
    fs::write(&project_out.path, "replaced by hand\n").unwrap();
    let again = operations::export::export(
        &on,
        &dir,
        Path::new("demo.tar.gz"),
        false,
        Unscanned::LeaveOut,
    );
    assert!(
        matches!(again, Err(ExportError::Exists(ref p)) if *p == project_out.path),
        "{again:?}"
    );
    assert_eq!(
        fs::read_to_string(&project_out.path).unwrap(),
        "replaced by hand\n"
    );
    operations::export::export(
        &on,
        &dir,
        Path::new("demo.tar.gz"),
        true,
        Unscanned::LeaveOut,
    )
    .unwrap();
    assert_eq!(
        fs::read(&project_out.path).unwrap(),
        before,
        "exports are reproducible"
    );
}
