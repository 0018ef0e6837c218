//! Each project skill against the project's lock, as `list --json` carries it: `locked`,
//! `differing` or `unlocked`, the words `verify` judges by; no `lock` field without a lock,
//! nor for a skill of another scope or of a folder below the top (another project's).

use crate::common::{Machine, listed, write_files, write_skill};

use super::command::project;

fn lock_of(listing: &serde_json::Value, name: &str) -> Option<String> {
    listed(listing, name)
        .get("lock")
        .map(|state| state.as_str().unwrap().to_owned())
}

#[test]
fn each_project_skill_is_locked_differing_or_unlocked() {
    let machine = Machine::new();
    project(&machine);
    write_skill(&machine.home.join(".claude/skills/personal"), &[]);
    let without = machine.list_json();
    for name in ["alpha", "team-notes", "nested", "personal"] {
        assert_eq!(lock_of(&without, name), None, "{name}: no lock yet");
    }

    machine.run_expecting(&["lock"], 0);
    let listing = machine.list_json();
    // skilldeck's record in alpha's SKILL.md does not count: locked as imported.
    assert_eq!(lock_of(&listing, "alpha").as_deref(), Some("locked"));
    assert_eq!(lock_of(&listing, "team-notes").as_deref(), Some("locked"));
    assert_eq!(lock_of(&listing, "personal"), None, "a user skill");
    assert_eq!(lock_of(&listing, "nested"), None, "another project's");

    write_files(
        &machine.repo.join(".claude/skills/team-notes"),
        &[("notes.md", "edited")],
    );
    write_skill(&machine.repo.join(".agents/skills/newbie"), &[]);
    let listing = machine.list_json();
    assert_eq!(
        lock_of(&listing, "team-notes").as_deref(),
        Some("differing")
    );
    assert_eq!(lock_of(&listing, "newbie").as_deref(), Some("unlocked"));
    assert_eq!(lock_of(&listing, "alpha").as_deref(), Some("locked"));
    // The same judgement as verify's.
    let verified = machine.run_json(&["verify", "--format", "json"], 1);
    let rules: Vec<&str> = verified["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["skill-differs", "skill-unlocked"]);
}

#[test]
fn a_lock_that_cannot_be_trusted_leaves_the_states_out_and_says_why() {
    let machine = Machine::new();
    project(&machine);
    std::fs::write(
        machine.repo.join("skills-lock.json"),
        r#"{"version":1,"skills":{"../x":{"source":"o/r","sourceType":"github","computedHash":"00"}}}"#,
    )
    .unwrap();
    let output = machine.run_expecting(&["list", "--json"], 0);
    let listing: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(lock_of(&listing, "alpha"), None);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("lock states are left out"), "{stderr}");
}
