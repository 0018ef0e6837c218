//! `skilldeck roots`: the app's roots screen as text and JSON, from the same scan: every folder
//! an agent reads skills from, its scope, whether it is there, who reads it and how many
//! skills it holds, and each agent's built-in skills as a row of their own.

use crate::common::{Machine, write_skill};

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Claude Code installed with two user skills, Codex's config folder a file where its user
/// skills folder is expected, nothing else.
fn machine() -> Machine {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/alpha"), &[]);
    write_skill(&machine.home.join(".claude/skills/beta"), &[]);
    std::fs::create_dir_all(machine.home.join(".codex")).unwrap();
    std::fs::write(machine.home.join(".codex/skills"), "not a folder").unwrap();
    machine
}

fn row<'a>(text: &'a str, path: &str) -> &'a str {
    text.lines()
        .find(|line| line.ends_with(path))
        .unwrap_or_else(|| panic!("no row for {path}: {text}"))
}

#[test]
fn the_table_shows_each_root_with_its_state_scope_readers_and_skills() {
    let machine = machine();
    let text = stdout(&machine.run_expecting(&["roots"], 0));
    let header = text.lines().next().unwrap();
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        ["STATE", "SKILLS", "SCOPE", "AGENTS", "PATH"]
    );
    let user = row(&text, "~/.claude/skills");
    assert_eq!(
        user.split_whitespace().take(4).collect::<Vec<_>>(),
        ["exists", "2", "user", "claude-code"],
        "{user}"
    );
    let file = row(&text, "~/.codex/skills");
    assert!(file.starts_with("a file "), "{file}");
    let missing = row(&text, "~/.claude/plugins/cache");
    assert!(missing.starts_with("missing "), "{missing}");
    assert!(
        missing.contains(" - "),
        "a missing root counts no skills: {missing}"
    );
    let builtin = row(&text, "built into Claude Code");
    assert!(builtin.starts_with("built in "), "{builtin}");
    assert!(text.contains("roots searched, "), "{text}");
    assert!(text.contains("--all-agents shows them"), "{text}");
    // Windsurf is not installed and its folders are empty: not in the table.
    assert!(!text.contains("~/.codeium/windsurf/skills"), "{text}");
}

#[test]
fn every_agent_shows_every_root() {
    let machine = machine();
    let some = stdout(&machine.run_expecting(&["roots"], 0));
    let all = stdout(&machine.run_expecting(&["roots", "--all-agents"], 0));
    assert!(all.lines().count() > some.lines().count());
    assert!(all.contains("~/.codeium/windsurf/skills"), "{all}");
    assert!(!all.contains("--all-agents shows them"), "{all}");
}

#[test]
fn json_lists_every_root_with_lists_fields_and_the_screens() {
    let machine = machine();
    let output = machine.run_expecting(&["roots", "--json"], 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let roots = json["roots"].as_array().unwrap();
    // The same roots, in the same order, as `list --json` names.
    let listed = machine.list_json();
    let paths = |roots: &[serde_json::Value]| -> Vec<String> {
        roots
            .iter()
            .map(|r| r["path"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(paths(roots), paths(listed["roots"].as_array().unwrap()));
    let home = machine.home.to_str().unwrap();
    let user = roots
        .iter()
        .find(|r| r["path"] == format!("{home}/.claude/skills"))
        .unwrap();
    assert_eq!(user["state"], "exists");
    assert_eq!(user["exists"], true);
    assert_eq!(user["skills"], 2);
    assert_eq!(user["source"], "user");
    assert_eq!(user["label"], "Claude Code personal skills");
    assert!(
        user["agents"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("claude-code"))
    );
    let file = roots
        .iter()
        .find(|r| r["path"] == format!("{home}/.codex/skills"))
        .unwrap();
    assert_eq!(file["state"], "not_a_directory");
    let marketplaces = roots
        .iter()
        .find(|r| r["path"] == format!("{home}/.claude/plugins/marketplaces"))
        .unwrap();
    assert_eq!(marketplaces["agents"], serde_json::json!([]));
    assert_eq!(marketplaces["owners"], serde_json::json!(["claude-code"]));
    let claude = json["builtin"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["agent"] == "claude-code")
        .unwrap();
    assert!(!claude["skills"].as_array().unwrap().is_empty());
    assert_eq!(json["all_agents"], false);
    assert!(json["installed_agents"].as_array().unwrap().len() >= 2);
}

#[test]
fn the_help_teaches_with_examples() {
    let machine = Machine::new();
    let text = stdout(&machine.run_expecting(&["roots", "--help"], 0));
    assert!(text.contains("skilldeck roots --json"), "{text}");
    let top = stdout(&machine.run_expecting(&["--help"], 0));
    assert!(top.contains("roots"), "{top}");
}
