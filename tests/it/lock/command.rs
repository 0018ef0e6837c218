//! `skilldeck lock`: the project's skills into `skills-lock.json`, undone by `undo`.

use std::fs;
use std::path::Path;

use serde_json::Value;
use skilldeck::lock::SkillsLock;

use crate::common::git::repository;
use crate::common::{Machine, write_files, write_skill};

fn read(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

/// A project with a skill imported from git, one committed by the team under
/// `.claude/skills`, and one in a folder below the top (another project's).
pub fn project(machine: &Machine) -> String {
    let upstream = machine.root().join("upstream");
    let head = repository(
        &upstream,
        &[
            (
                "skills/alpha/SKILL.md",
                "---\nname: alpha\ndescription: Alpha.\nmetadata:\n  author: \"team\"\n---\n# Alpha\n",
            ),
            ("skills/alpha/scripts/run.sh", "echo alpha\n"),
        ],
    );
    let to = machine.repo.join(".agents/skills");
    machine.run_expecting(
        &[
            "import",
            upstream.to_str().unwrap(),
            "--to",
            to.to_str().unwrap(),
        ],
        0,
    );
    write_skill(
        &machine.repo.join(".claude/skills/team-notes"),
        &[("notes.md", "n")],
    );
    write_skill(&machine.start.join(".claude/skills/nested"), &[]);
    head
}

#[test]
fn the_projects_skills_are_locked_as_the_skills_cli_would_lock_them() {
    let machine = Machine::new();
    let head = project(&machine);
    let output = machine.run_expecting(&["lock"], 0);
    let path = machine.repo.join("skills-lock.json");
    let text = fs::read_to_string(&path).unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).contains("wrote"));
    let lock = read(&path);
    let skills = lock["skills"].as_object().unwrap();
    assert_eq!(
        skills.keys().collect::<Vec<_>>(),
        ["alpha", "team-notes"],
        "{text}"
    );
    let alpha = &lock["skills"]["alpha"];
    assert_eq!(alpha["source"], "../../upstream");
    assert_eq!(alpha["sourceType"], "local");
    assert_eq!(alpha["skillPath"], "skills/alpha/SKILL.md");
    assert_eq!(alpha["commit"], head.as_str());
    // The hash of the upstream folder as it is: skilldeck's record in the installed SKILL.md
    // does not count.
    let upstream = skilldeck::ownership::skills_cli::computed_hash(
        &machine.root().join("upstream/skills/alpha"),
        None,
    )
    .unwrap();
    assert_eq!(alpha["computedHash"], upstream.as_str());
    let installed = fs::read_to_string(machine.repo.join(".agents/skills/alpha/SKILL.md")).unwrap();
    assert!(installed.contains("installed-by"), "{installed}");
    let notes = &lock["skills"]["team-notes"];
    assert_eq!(notes["source"], "./.claude/skills");
    assert_eq!(notes["skillPath"], "team-notes/SKILL.md");
    assert_eq!(notes.get("commit"), None);
    // What skilldeck wrote reads back identical.
    let parsed = SkillsLock::parse(text.as_bytes(), &path).unwrap();
    assert_eq!(parsed.render(), text);
    // Again: nothing to change.
    let again = machine.run_expecting(&["lock"], 0);
    assert!(String::from_utf8_lossy(&again.stdout).contains("up to date"));
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn a_relock_keeps_other_fields_and_undo_puts_the_previous_lock_back() {
    let machine = Machine::new();
    project(&machine);
    machine.run_expecting(&["lock"], 0);
    let path = machine.repo.join("skills-lock.json");
    // Another writer's field in one entry, kept where it is by a rewrite.
    let with_via = fs::read_to_string(&path).unwrap().replace(
        "\"sourceType\": \"local\",\n      \"skillPath\": \"team-notes",
        "\"sourceType\": \"local\",\n      \"via\": \"sync\",\n      \"skillPath\": \"team-notes",
    );
    assert!(with_via.contains("\"via\""));
    fs::write(&path, &with_via).unwrap();
    write_files(
        &machine.repo.join(".claude/skills/team-notes"),
        &[("notes.md", "edited")],
    );
    machine.run_expecting(&["lock"], 0);
    let relocked = fs::read_to_string(&path).unwrap();
    assert!(
        relocked.contains("\"via\": \"sync\",\n      \"skillPath\": \"team-notes"),
        "{relocked}"
    );
    assert_ne!(
        read(&path)["skills"]["team-notes"]["computedHash"],
        read_str(&with_via)["skills"]["team-notes"]["computedHash"]
    );
    machine.run_expecting(&["undo"], 0);
    assert_eq!(fs::read_to_string(&path).unwrap(), with_via);
    // The first lock is not undone over the field written by hand since: said, and kept.
    let refused = machine.run_expecting(&["undo"], 1);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("changed since"));
    assert_eq!(fs::read_to_string(&path).unwrap(), with_via);
}

fn read_str(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn a_hostile_lock_is_refused_and_left_as_it_is() {
    let machine = Machine::new();
    project(&machine);
    let path = machine.repo.join("skills-lock.json");
    let hostile = r#"{"version":1,"skills":{"../../x":{"source":"o/r","sourceType":"github","computedHash":"00"}}}"#;
    fs::write(&path, hostile).unwrap();
    let output = machine.run_expecting(&["lock"], 1);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("skills-lock.json") && stderr.contains("../../x"),
        "{stderr}"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), hostile);
    fs::write(&path, r#"{"version":7,"skills":{}}"#).unwrap();
    let output = machine.run_expecting(&["lock"], 1);
    assert!(String::from_utf8_lossy(&output.stderr).contains("version 7"));
}
