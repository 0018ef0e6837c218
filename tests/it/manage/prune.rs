//! Deleting and pruning snapshots, and the undo of both (and of an accept): nothing is lost
//! until a later prune empties what was held, and that prune says so.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use skilldeck::operations::{self, Operation};
use skilldeck::roots;
use skilldeck::snapshot::{Reason, SnapshotError, Store};

use crate::common::{Machine, write_skill};

fn json(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap()
}

fn text(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn sandbox(machine: &Machine) -> roots::Machine {
    roots::Machine::sandbox(&machine.home, &machine.system, &machine.start)
}

fn store(machine: &Machine) -> Store {
    Store::open(&machine.env())
}

/// A skill with `versions` snapshots, each of different content, taken by hand.
fn skill_with(machine: &Machine, name: &str, versions: usize) -> PathBuf {
    let dir = machine.home.join(".claude/skills").join(name);
    write_skill(&dir, &[]);
    let dir = fs::canonicalize(&dir).unwrap();
    for version in 0..versions {
        fs::write(dir.join("v.md"), format!("version {version}\n")).unwrap();
        store(machine).take(&dir, Reason::Manual).unwrap();
    }
    dir
}

fn ids(machine: &Machine, dir: &Path) -> Vec<String> {
    store(machine)
        .history(dir)
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect()
}

/// Every file under `dir`, with its bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for entry in fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.insert(
                    path.strip_prefix(dir).unwrap().to_path_buf(),
                    fs::read(&path).unwrap(),
                );
            }
        }
    }
    files
}

#[test]
fn a_deleted_snapshot_comes_back_byte_for_byte_with_undo() {
    let machine = Machine::new();
    let dir = skill_with(&machine, "demo", 3);
    let all = ids(&machine, &dir);
    let middle = store(&machine).find(&dir, Some(&all[1])).unwrap();
    let before = tree(&middle.path);

    let output = machine.run_expecting(&["snapshots", "delete", &all[1], "--json"], 0);
    let done = json(&output);
    assert_eq!(done["deleted"]["id"], all[1].as_str());
    assert_eq!(done["was_latest"], false);
    assert!(done["deleted"]["size"].as_u64().unwrap() > 0);
    assert_eq!(ids(&machine, &dir), [all[0].clone(), all[2].clone()]);
    let usage = store(&machine).usage().unwrap();
    assert_eq!(usage.snapshots, 2);
    assert!(usage.held_bytes > 0);

    let output = machine.run_expecting(&["undo"], 0);
    assert!(
        text(&output).contains(&format!("put back snapshot {}", all[1])),
        "{}",
        text(&output)
    );
    assert!(
        text(&output).contains("Undid the snapshot delete made just now:"),
        "{}",
        text(&output)
    );
    assert_eq!(ids(&machine, &dir), all);
    assert_eq!(tree(&middle.path), before);
    assert_eq!(store(&machine).usage().unwrap().held_bytes, 0);
}

#[test]
fn deleting_the_latest_makes_the_one_before_it_the_baseline() {
    let machine = Machine::new();
    let dir = skill_with(&machine, "demo", 2);
    let all = ids(&machine, &dir);
    let output = machine.run_expecting(
        &["snapshots", "delete", &all[1][..22], "--skill", "demo"],
        0,
    );
    let said = text(&output);
    assert!(said.contains("It was the latest"), "{said}");
    assert!(said.contains(&all[0]), "{said}");
    assert_eq!(store(&machine).latest(&dir).unwrap().unwrap().id, all[0]);
    let log = operations::Journal::of(&sandbox(&machine))
        .read()
        .unwrap()
        .entries;
    assert_eq!(log.last().unwrap().operation, Operation::DeleteSnapshot);
}

#[test]
fn delete_refuses_an_unknown_or_shared_id_with_a_sentence() {
    let machine = Machine::new();
    skill_with(&machine, "one", 1);
    skill_with(&machine, "two", 1);
    let output = machine.run_expecting(&["snapshots", "delete", "nosuch"], 1);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("no snapshot has the id nosuch"), "{said}");
    // Every id starts with the year: both skills' snapshots match.
    let output = machine.run_expecting(&["snapshots", "delete", "20", "--json"], 1);
    assert_eq!(json(&output)["refused"]["code"], "ambiguous_id");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("--skill"), "{said}");
}

#[test]
fn prune_keeps_the_last_n_accepted_and_latest_and_a_dry_run_writes_nothing() {
    let machine = Machine::new();
    let dir = skill_with(&machine, "busy", 4);
    let mut all = ids(&machine, &dir);
    // The second is accepted (an accept that found the content already kept marks it).
    let accepted = {
        let mut s = store(&machine).find(&dir, Some(&all[1])).unwrap();
        s.mark_accepted().unwrap();
        s.id
    };
    let lone = skill_with(&machine, "lone", 1);

    // Young snapshots are kept whatever else.
    let output = machine.run_expecting(&["snapshots", "prune", "--keep", "1"], 0);
    assert!(
        text(&output).contains("No snapshot is due")
            && text(&output).contains("younger than 30 days are kept"),
        "{}",
        text(&output)
    );
    // Nothing was held, so nothing is said to be emptied.
    assert!(!text(&output).contains("Emptied"), "{}", text(&output));
    assert_eq!(ids(&machine, &dir).len(), 4);

    let before = tree(machine.root().as_path());
    let output = machine.run_expecting(
        &[
            "snapshots",
            "prune",
            "--keep",
            "2",
            "--older-than",
            "0s",
            "--dry-run",
            "--json",
        ],
        0,
    );
    let plan = json(&output);
    assert_eq!(plan["dry_run"], true);
    let would: Vec<&str> = plan["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(would, [all[0].as_str()]);
    assert!(plan["bytes"].as_u64().unwrap() > 0);
    assert_eq!(tree(machine.root().as_path()), before, "a dry run wrote");

    let output = machine.run_expecting(
        &["snapshots", "prune", "--keep", "2", "--older-than", "0s"],
        0,
    );
    assert!(
        text(&output).contains("Removed 1 snapshot"),
        "{}",
        text(&output)
    );
    all.remove(0);
    assert_eq!(ids(&machine, &dir), all);
    assert!(all.contains(&accepted));
    assert_eq!(ids(&machine, &lone).len(), 1, "the latest is kept");

    // With --keep 1, all but the accepted one and the latest go.
    let output = machine.run_expecting(
        &[
            "snapshots",
            "prune",
            "--keep",
            "1",
            "--older-than",
            "0s",
            "--json",
        ],
        0,
    );
    let done = json(&output);
    assert_eq!(done["removed"].as_array().unwrap().len(), 1);
    assert_eq!(ids(&machine, &dir), [accepted.clone(), all[2].clone()]);
    // ... and it emptied what the first prune held.
    assert_eq!(done["emptied_holds"], 1);
    assert!(done["emptied_bytes"].as_u64().unwrap() > 0);
}

#[test]
fn a_prune_is_undone_and_a_later_prune_empties_what_it_held() {
    let machine = Machine::new();
    let other = skill_with(&machine, "other", 0);
    machine.run_expecting(&["remove", "other"], 0);
    let dir = skill_with(&machine, "demo", 3);
    let all = ids(&machine, &dir);
    let prune = ["snapshots", "prune", "--keep", "1", "--older-than", "0s"];
    machine.run_expecting(&prune, 0);
    assert_eq!(ids(&machine, &dir), [all[2].clone()]);
    let listed = text(&machine.run_expecting(&["undo", "--list"], 0));
    assert!(listed.contains("prune"), "{listed}");
    machine.run_expecting(&["undo"], 0);
    assert_eq!(ids(&machine, &dir), all);

    // Pruned again, then a second prune empties the held copies: that prune cannot be
    // undone any more, so undo passes over it, saying why, to the remove before it.
    machine.run_expecting(&prune, 0);
    let output = machine.run_expecting(&["snapshots", "prune", "--dry-run"], 0);
    assert!(text(&output).contains("Would empty"), "{}", text(&output));
    let output = machine.run_expecting(&["snapshots", "prune"], 0);
    assert!(
        text(&output).contains("can no longer be undone"),
        "{}",
        text(&output)
    );
    assert_eq!(store(&machine).usage().unwrap().held_bytes, 0);
    let output = machine.run_expecting(&["undo"], 0);
    let said = text(&output);
    assert!(
        said.contains("Passed over the prune") && said.contains("a later prune emptied"),
        "{said}"
    );
    assert!(said.contains("Undid the remove"), "{said}");
    assert!(other.join("SKILL.md").is_file());
    assert_eq!(ids(&machine, &dir), [all[2].clone()]);
}

#[test]
fn undoing_an_accept_makes_the_baseline_before_it_the_latest_again() {
    let machine = Machine::new();
    let dir = skill_with(&machine, "demo", 1);
    let baseline = ids(&machine, &dir)[0].clone();
    fs::write(dir.join("v.md"), "edited\n").unwrap();
    let accepted = operations::snapshot::accept(&sandbox(&machine), &dir).unwrap();
    assert!(accepted.taken.fresh);
    assert_eq!(accepted.taken.snapshot.info.reason, Reason::Accepted);
    assert_eq!(
        store(&machine).latest(&dir).unwrap().unwrap().id,
        accepted.taken.snapshot.id
    );
    let next = operations::undo::next(&sandbox(&machine)).unwrap().unwrap();
    assert_eq!(next.operation, Operation::Accept);

    let output = machine.run_expecting(&["undo"], 0);
    assert!(text(&output).contains("held aside"), "{}", text(&output));
    assert_eq!(store(&machine).latest(&dir).unwrap().unwrap().id, baseline);
    // The folder itself is as the accept found it.
    assert_eq!(fs::read_to_string(dir.join("v.md")).unwrap(), "edited\n");
}

#[test]
fn an_accept_of_content_already_kept_marks_it_and_undo_takes_the_mark_away() {
    let machine = Machine::new();
    let dir = skill_with(&machine, "demo", 1);
    let accepted = operations::snapshot::accept(&sandbox(&machine), &dir).unwrap();
    assert!(!accepted.taken.fresh);
    let latest = store(&machine).latest(&dir).unwrap().unwrap();
    assert!(latest.info.accepted && latest.is_accepted());
    machine.run_expecting(&["undo"], 0);
    assert!(!store(&machine).latest(&dir).unwrap().unwrap().is_accepted());
}

#[test]
fn accepting_a_skill_that_is_gone_is_refused_with_a_sentence() {
    let machine = Machine::new();
    let dir = skill_with(&machine, "demo", 1);
    fs::remove_dir_all(&dir).unwrap();
    let error = operations::snapshot::accept(&sandbox(&machine), &dir).unwrap_err();
    assert!(matches!(error, SnapshotError::Gone(_)), "{error:?}");
    assert!(error.is_refusal());
    let said = error.to_string();
    assert!(
        said.contains("is gone; there is nothing to accept — restore a snapshot to bring it back"),
        "{said}"
    );
    // No longer a skill: its SKILL.md removed.
    let other = skill_with(&machine, "other", 1);
    fs::remove_file(other.join("SKILL.md")).unwrap();
    let error = operations::snapshot::accept(&sandbox(&machine), &other).unwrap_err();
    assert!(matches!(error, SnapshotError::Gone(_)), "{error:?}");
}

#[test]
fn a_snapshot_whose_record_is_broken_can_still_be_deleted_and_brought_back() {
    let machine = Machine::new();
    let dir = skill_with(&machine, "demo", 2);
    let all = ids(&machine, &dir);
    let broken = store(&machine).find(&dir, Some(&all[0])).unwrap();
    fs::write(broken.path.join("info.json"), "{ not json").unwrap();
    let output = machine.run_expecting(&["snapshots", "delete", &all[0], "--skill", "demo"], 0);
    assert!(text(&output).contains(&all[0]), "{}", text(&output));
    assert!(!broken.path.exists());
    assert_eq!(ids(&machine, &dir), [all[1].clone()]);
    machine.run_expecting(&["undo"], 0);
    assert_eq!(
        fs::read_to_string(broken.path.join("info.json")).unwrap(),
        "{ not json"
    );
}
