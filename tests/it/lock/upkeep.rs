//! A project's `skills-lock.json` kept current by `import`, `update`, `remove` and `move`:
//! each adds, refreshes or drops the entry of the skill it changed, keeps the rest of the
//! file as it was (other writers' fields included), and `undo` puts the lock back with the
//! folders. A project without a lock gets none.

use std::fs;
use std::path::Path;

use serde_json::Value;

use super::command::project;
use crate::common::git::commit;
use crate::common::{Machine, write_files, write_skill};

fn read(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The project of `command.rs`, locked, with a field of another writer in each entry; the
/// lock's text.
fn locked_project(machine: &Machine) -> String {
    project(machine);
    machine.run_expecting(&["lock"], 0);
    let path = machine.repo.join("skills-lock.json");
    let text = fs::read_to_string(&path).unwrap().replace(
        "\"computedHash\"",
        "\"installedBy\": \"someone\",\n      \"computedHash\"",
    );
    assert_eq!(text.matches("installedBy").count(), 2, "{text}");
    fs::write(&path, &text).unwrap();
    text
}

fn hash_of(dir: &Path) -> String {
    skilldeck::lock::computed_hash(dir).unwrap()
}

#[test]
fn an_import_adds_its_entry_keeping_other_fields_and_undo_puts_the_lock_back() {
    let machine = Machine::new();
    let before = locked_project(&machine);
    let path = machine.repo.join("skills-lock.json");
    let bundle = machine.root().join("bundle");
    write_skill(&bundle.join("fresh"), &[("ref.md", "r")]);
    let root = machine.repo.join(".agents/skills");
    let output = machine.import_to(&bundle, &root);
    assert!(
        stderr(&output).contains("skills-lock.json kept current: added fresh"),
        "{}",
        stderr(&output)
    );
    let lock = read(&path);
    let fresh = &lock["skills"]["fresh"];
    // No source skilldeck knows of: the project's own files, as `lock` locks them.
    assert_eq!(fresh["sourceType"], "local");
    assert_eq!(fresh["source"], "./.agents/skills");
    assert_eq!(fresh["skillPath"], "fresh/SKILL.md");
    assert_eq!(fresh["computedHash"], hash_of(&root.join("fresh")).as_str());
    // The entries it did not touch are as they were, another writer's fields included.
    let was = read_str(&before);
    for name in ["alpha", "team-notes"] {
        assert_eq!(lock["skills"][name], was["skills"][name], "{name}");
    }
    // The one rule: `lock` finds nothing to change, and the project verifies.
    let again = machine.run_expecting(&["lock"], 0);
    assert!(String::from_utf8_lossy(&again.stdout).contains("up to date"));
    machine.run_expecting(&["verify"], 0);
    // One undo takes the skill away and puts the lock back, byte for byte.
    machine.run_expecting(&["undo"], 0);
    assert!(!root.join("fresh").exists());
    assert_eq!(fs::read_to_string(&path).unwrap(), before);
}

fn read_str(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn a_removal_drops_the_entry_and_undo_brings_it_back() {
    let machine = Machine::new();
    let before = locked_project(&machine);
    let path = machine.repo.join("skills-lock.json");
    let output = machine.run_expecting(&["remove", "team-notes"], 0);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        stderr(&output)
    );
    assert!(said.contains("dropped team-notes"), "{said}");
    // The lock no longer lists it, so it is not named as a stale lock.
    assert!(!said.contains("still lists"), "{said}");
    let lock = read(&path);
    assert_eq!(lock["skills"].get("team-notes"), None, "{lock:#}");
    assert_eq!(
        lock["skills"]["alpha"],
        read_str(&before)["skills"]["alpha"]
    );
    machine.run_expecting(&["verify"], 0);
    machine.run_expecting(&["undo"], 0);
    assert!(
        machine
            .repo
            .join(".claude/skills/team-notes/SKILL.md")
            .is_file()
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), before);
    machine.run_expecting(&["verify"], 0);
}

#[test]
fn an_update_refreshes_the_hash_and_the_commit() {
    let machine = Machine::new();
    let before = locked_project(&machine);
    let path = machine.repo.join("skills-lock.json");
    let upstream = machine.root().join("upstream");
    write_files(
        &upstream.join("skills/alpha"),
        &[("scripts/run.sh", "echo alpha, better\n")],
    );
    let head = commit(&upstream, "better");
    machine.run_expecting(&["update", "alpha"], 0);
    let lock = read(&path);
    let alpha = &lock["skills"]["alpha"];
    assert_eq!(
        alpha["computedHash"],
        hash_of(&upstream.join("skills/alpha")).as_str()
    );
    assert_ne!(
        alpha["computedHash"],
        read_str(&before)["skills"]["alpha"]["computedHash"]
    );
    assert_eq!(alpha["commit"], head.as_str());
    // Refreshed in place: another writer's field stays.
    assert_eq!(alpha["installedBy"], "someone");
    machine.run_expecting(&["verify"], 0);
    machine.run_expecting(&["undo"], 0);
    assert_eq!(fs::read_to_string(&path).unwrap(), before);
}

#[test]
fn a_move_out_of_the_project_drops_the_entry_and_one_back_adds_it() {
    let machine = Machine::new();
    locked_project(&machine);
    let path = machine.repo.join("skills-lock.json");
    let hash = read(&path)["skills"]["team-notes"]["computedHash"].clone();
    machine.run_expecting(&["move", "team-notes", "--scope", "user"], 0);
    assert!(machine.home.join(".claude/skills/team-notes").is_dir());
    assert_eq!(read(&path)["skills"].get("team-notes"), None);
    machine.run_expecting(&["verify"], 0);
    // Back into the project, into another agent's folder: locked again, same files.
    machine.run_expecting(
        &[
            "move",
            "team-notes",
            "--scope",
            "project",
            "--agent",
            "codex",
        ],
        0,
    );
    let lock = read(&path);
    assert_eq!(lock["skills"]["team-notes"]["computedHash"], hash);
    assert_eq!(lock["skills"]["team-notes"]["source"], "./.agents/skills");
    machine.run_expecting(&["verify"], 0);
}

#[test]
fn a_project_without_a_lock_gets_none_and_user_skills_leave_a_lock_alone() {
    let machine = Machine::new();
    project(&machine);
    let path = machine.repo.join("skills-lock.json");
    let bundle = machine.root().join("bundle");
    write_skill(&bundle.join("fresh"), &[]);
    machine.import_to(&bundle, machine.repo.join(".agents/skills"));
    machine.run_expecting(&["remove", "team-notes"], 0);
    assert!(!path.exists(), "no lock was asked for");

    machine.run_expecting(&["lock"], 0);
    let locked = fs::read(&path).unwrap();
    let other = machine.root().join("other");
    write_skill(&other.join("mine"), &[]);
    let output = machine.import_to(&other, machine.home.join(".claude/skills"));
    assert!(
        !stderr(&output).contains("skills-lock.json"),
        "{}",
        stderr(&output)
    );
    machine.run_expecting(&["remove", "mine"], 0);
    assert_eq!(fs::read(&path).unwrap(), locked);
}

#[test]
fn a_lock_that_cannot_be_trusted_is_left_as_it_is_and_said() {
    let machine = Machine::new();
    project(&machine);
    let path = machine.repo.join("skills-lock.json");
    let hostile = r#"{"version":1,"skills":{"x":{"source":"--upload-pack=evil","sourceType":"git","computedHash":"00"}}}"#;
    fs::write(&path, hostile).unwrap();
    let output = machine.run_expecting(&["remove", "team-notes"], 0);
    assert!(
        stderr(&output).contains("was not kept current"),
        "{}",
        stderr(&output)
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), hostile);
}

#[test]
fn a_name_the_project_still_holds_another_copy_of_keeps_its_entry() {
    let machine = Machine::new();
    project(&machine);
    // The team commits one skill for agents that read either folder.
    write_files(
        &machine.repo.join(".agents/skills/team-notes"),
        &[(
            "SKILL.md",
            &fs::read_to_string(machine.repo.join(".claude/skills/team-notes/SKILL.md")).unwrap(),
        )],
    );
    write_files(
        &machine.repo.join(".agents/skills/team-notes"),
        &[("notes.md", "n")],
    );
    machine.run_expecting(&["lock"], 0);
    let path = machine.repo.join("skills-lock.json");
    let before = fs::read_to_string(&path).unwrap();
    machine.run_expecting(
        &[
            "remove",
            machine
                .repo
                .join(".claude/skills/team-notes")
                .to_str()
                .unwrap(),
        ],
        0,
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), before);
    machine.run_expecting(&["verify"], 0);
    machine.run_expecting(&["remove", "team-notes"], 0);
    assert_eq!(read(&path)["skills"].get("team-notes"), None);
}

/// With `--json` each operation says what it did to the lock in its output (`lock`, the
/// shape docs/schema/common.schema.json gives as `lock_kept`), not only on standard error.
#[test]
fn the_json_of_each_operation_says_what_it_did_to_the_lock() {
    use crate::cli::json_schema::validated;
    let machine = Machine::new();
    locked_project(&machine);
    let lock_path = machine.repo.join("skills-lock.json");
    let bundle = machine.root().join("bundle");
    write_skill(&bundle.join("fresh"), &[("ref.md", "r")]);
    let root = machine.repo.join(".agents/skills");
    let (bundle, root) = (bundle.to_str().unwrap(), root.to_str().unwrap());
    let imported = validated(
        &machine,
        &["import", bundle, "--to", root, "--json"],
        0,
        "import",
    );
    assert_eq!(
        imported["lock"]["added"],
        serde_json::json!(["fresh"]),
        "{imported:#}"
    );
    assert_eq!(imported["lock"]["path"], lock_path.to_str().unwrap());
    let moved = validated(
        &machine,
        &["move", "team-notes", "--scope", "user", "--json"],
        0,
        "move",
    );
    assert_eq!(
        moved["lock"]["dropped"],
        serde_json::json!(["team-notes"]),
        "{moved:#}"
    );
    let removed = validated(&machine, &["remove", "fresh", "--json"], 0, "remove");
    assert_eq!(
        removed["removed"][0]["lock"]["dropped"],
        serde_json::json!(["fresh"]),
        "{removed:#}"
    );
    // A user skill changes nothing of the lock: no `lock` at all.
    let user = validated(&machine, &["remove", "team-notes", "--json"], 0, "remove");
    assert_eq!(user["removed"][0].get("lock"), None, "{user:#}");
}
