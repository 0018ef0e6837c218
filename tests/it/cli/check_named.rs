//! `skilldeck check SKILL...`: only the skills named are checked, each name resolved as the
//! other commands resolve it (every copy of a name, or the skill whose folder it is, with
//! "did you mean" for a misspelt one), and the exit code is check's: 1 when one is modified.

use std::fs;

use crate::common::{Installer, Machine, write_skill};

fn install(machine: &Machine, name: &str) -> std::path::PathBuf {
    let skill = agent_skill_installer::Skill::new(name, "A recorded skill.", "# Body\n")
        .unwrap()
        .with_file("references/a.md", "a\n")
        .unwrap();
    Installer::for_claude(&machine.home, "fixture-installer", "1.0.0").install(&skill)
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `kept` intact, `edited` modified, `handmade` with no record.
fn machine() -> Machine {
    let machine = Machine::new();
    install(&machine, "kept");
    let edited = install(&machine, "edited");
    fs::write(edited.join("references/a.md"), "changed\n").unwrap();
    write_skill(&machine.home.join(".claude/skills/handmade"), &[]);
    machine
}

#[test]
fn an_intact_skill_named_passes_though_another_is_modified() {
    let machine = machine();
    let output = machine.run_expecting(&["check", "kept"], 0);
    assert_eq!(stdout(&output), "1 recorded skill intact.\n");
    let output = machine.run_expecting(&["check", "kept", "--json"], 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["recorded"], 1);
    assert_eq!(json["modified"], serde_json::json!([]));
    assert_eq!(json["unrecorded"], serde_json::json!([]));
}

#[test]
fn a_modified_skill_named_fails_the_check() {
    let machine = machine();
    let output = machine.run_expecting(&["check", "kept", "edited"], 1);
    let text = stdout(&output);
    assert!(text.contains("modified  edited"), "{text}");
    assert!(
        text.contains("1 of 2 recorded skills modified since installed."),
        "{text}"
    );
    // By its folder, too.
    let folder = machine.home.join(".claude/skills/edited");
    let output = machine.run_expecting(&["check", folder.to_str().unwrap(), "--json"], 1);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["recorded"], 1);
    assert_eq!(json["modified"][0]["name"], "edited");
}

#[test]
fn an_unrecorded_skill_named_is_said_to_have_no_record() {
    let machine = machine();
    let output = machine.run_expecting(&["check", "handmade"], 0);
    let text = stdout(&output);
    assert!(
        text.contains("unrecorded  handmade  ~/.claude/skills/handmade"),
        "{text}"
    );
    assert!(
        text.contains("no installer's record to check it against"),
        "{text}"
    );
    assert!(
        text.contains("No skill carries an installer's record (1 skill named)."),
        "{text}"
    );
    let output = machine.run_expecting(&["check", "handmade", "--json"], 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["unrecorded"][0]["name"], "handmade");
    // Unnamed, the check keeps its shape: no `unrecorded` list of every skill.
    let output = machine.run_expecting(&["check", "--json"], 1);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(json.get("unrecorded").is_none(), "{json:#}");
}

#[test]
fn a_misspelt_name_is_refused_with_the_closest_names_and_nothing_checked() {
    let machine = machine();
    let output = machine.run_expecting(&["check", "kept", "edite"], 1);
    assert_eq!(stdout(&output), "", "nothing is checked");
    assert!(
        stderr(&output).contains(
            "no skill is named edite, and no skill folder is at that path; did you mean edited?"
        ),
        "{}",
        stderr(&output)
    );
    let output = machine.run_expecting(&["check", "edite", "--json"], 1);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["refused"]["code"], "no_such_skill");
}

#[test]
fn every_copy_of_a_name_is_checked() {
    let machine = machine();
    // A project copy of `edited`, unrecorded, beside the user's modified one.
    write_skill(&machine.repo.join(".claude/skills/edited"), &[]);
    let output = machine.run_expecting(&["check", "edited", "--json"], 1);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["modified"].as_array().unwrap().len(), 1);
    assert_eq!(json["unrecorded"].as_array().unwrap().len(), 1);
}

#[test]
fn the_help_names_the_skills_argument_with_examples() {
    let machine = Machine::new();
    let text = stdout(&machine.run_expecting(&["check", "--help"], 0));
    assert!(text.contains("[SKILL]..."), "{text}");
    assert!(
        text.contains("skilldeck check pdf brand-guidelines"),
        "{text}"
    );
}
