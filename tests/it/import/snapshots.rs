//! An import never loses what a user had: the skill it replaces is snapshotted first, and every
//! skill it installs is snapshotted as the baseline that later diffs compare against.

use std::fs;

use crate::common::{Machine, write_skill};
use serde_json::Value;

fn snapshots(machine: &Machine) -> Vec<Value> {
    let output = machine.run(&["snapshots", "--json"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    json["snapshots"].as_array().unwrap().clone()
}

#[test]
fn an_import_keeps_a_baseline_and_a_forced_replace_keeps_the_edit_it_replaces() {
    let machine = Machine::new();
    let bundle = machine.root().join("bundle/demo");
    write_skill(&bundle, &[("notes.md", "as shipped\n")]);
    let root = machine.home.join(".claude/skills");
    let to = root.to_str().unwrap();
    let source = bundle.to_str().unwrap();

    let output = machine.run(&["import", source, "--to", to]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let taken = snapshots(&machine);
    assert_eq!(taken.len(), 1, "{taken:?}");
    assert_eq!(taken[0]["skill"], "demo");
    assert_eq!(taken[0]["changed"], false);

    fs::write(root.join("demo/notes.md"), "my own edit\n").unwrap();
    let refused = machine.run(&["import", source, "--to", to]);
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(
        snapshots(&machine).len(),
        1,
        "a refused import keeps nothing new"
    );

    let forced = machine.run(&["import", source, "--to", to, "--force"]);
    assert!(
        forced.status.success(),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );
    assert_eq!(
        fs::read_to_string(root.join("demo/notes.md")).unwrap(),
        "as shipped\n"
    );
    // The baseline, the edit kept before the replace, and the new baseline after it.
    let taken = snapshots(&machine);
    assert_eq!(taken.len(), 3, "{taken:?}");
    assert_eq!(taken[0]["digest"], taken[2]["digest"]);
    assert_eq!(taken[2]["latest"], true);
    // The snapshot of the edit differs from what is on disk now; the diff shows the edit.
    let edited = taken
        .iter()
        .find(|s| s["changed"] == true)
        .expect("one snapshot differs from the disk");
    let diff = machine.run(&["diff", "demo", "--snapshot", edited["id"].as_str().unwrap()]);
    let text = String::from_utf8_lossy(&diff.stdout);
    assert!(text.contains("-my own edit"), "{text}");
    assert!(text.contains("+as shipped"), "{text}");
}

/// Skills installed without their baseline snapshot are installed, and the exit says the work
/// did not end as it should: which skills, and why.
#[test]
fn an_install_whose_baseline_cannot_be_kept_says_what_was_installed_and_fails() {
    for json in [false, true] {
        let machine = Machine::new();
        let bundle = machine.root().join("bundle");
        write_skill(&bundle.join("one"), &[]);
        write_skill(&bundle.join("two"), &[]);
        // The snapshot store cannot be made: a file stands where it goes (the journal can).
        fs::create_dir_all(machine.home.join(".local/share/skilldeck")).unwrap();
        fs::write(
            machine.home.join(".local/share/skilldeck/snapshots"),
            "in the way",
        )
        .unwrap();
        let root = machine.home.join(".claude/skills");
        let mut args = vec![
            "import",
            bundle.to_str().unwrap(),
            "--to",
            root.to_str().unwrap(),
        ];
        if json {
            args.push("--json");
        }
        let output = machine.run(&args);
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(3), "{stdout}{stderr}");
        assert!(root.join("one/SKILL.md").is_file() && root.join("two/SKILL.md").is_file());
        assert!(stdout.contains("one") && stdout.contains("two"), "{stdout}");
        assert!(
            stderr.contains("2 baseline snapshots could not be kept"),
            "{stderr}"
        );
    }
}

/// An import that cannot say in the journal what it is about to do does nothing: undo would
/// not know of it.
#[test]
fn an_import_the_journal_cannot_hear_of_writes_nothing_and_says_so() {
    for json in [false, true] {
        let machine = Machine::new();
        let bundle = machine.root().join("bundle");
        write_skill(&bundle.join("one"), &[]);
        write_skill(&bundle.join("two"), &[]);
        // The data folder cannot be made: a file stands where it goes.
        fs::create_dir_all(machine.home.join(".local/share")).unwrap();
        fs::write(machine.home.join(".local/share/skilldeck"), "in the way").unwrap();
        let root = machine.home.join(".claude/skills");
        let mut args = vec![
            "import",
            bundle.to_str().unwrap(),
            "--to",
            root.to_str().unwrap(),
        ];
        if json {
            args.push("--json");
        }
        let output = machine.run(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_ne!(output.status.code(), Some(0), "{stderr}");
        assert!(!root.join("one").exists() && !root.join("two").exists());
        assert!(
            stderr.contains("journal") && stderr.contains("nothing was written"),
            "{stderr}"
        );
    }
}
