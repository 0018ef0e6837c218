//! `skilldeck list --agent A --source S --name GLOB`: filters a script combines, in the table
//! and in JSON alike, each a usage error (exit 2, the valid values listed) when it names
//! nothing skilldeck knows, and exit 1 when nothing passes them.

use crate::common::{Machine, write_skill};

/// Claude Code's user skills `alpha` and `pdf-tools`, a project skill `pdf-forms` (Claude
/// Code's), and `gamma` in `~/.agents/skills`, which Codex reads and Claude Code does not.
fn machine() -> Machine {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/alpha"), &[]);
    write_skill(&machine.home.join(".claude/skills/pdf-tools"), &[]);
    write_skill(&machine.repo.join(".claude/skills/pdf-forms"), &[]);
    write_skill(&machine.home.join(".agents/skills/gamma"), &[]);
    std::fs::create_dir_all(machine.home.join(".codex")).unwrap();
    machine
}

fn names(machine: &Machine, args: &[&str]) -> Vec<String> {
    let mut all = vec!["list", "--json"];
    all.extend_from_slice(args);
    let output = machine.run_expecting(&all, 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    json["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect()
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn each_filter_keeps_what_it_names() {
    let machine = machine();
    assert_eq!(
        names(&machine, &[]),
        ["alpha", "gamma", "pdf-forms", "pdf-tools"]
    );
    assert_eq!(names(&machine, &["--agent", "codex"]), ["gamma"]);
    assert_eq!(
        names(&machine, &["--agent", "claude-code"]),
        ["alpha", "pdf-forms", "pdf-tools"]
    );
    assert_eq!(names(&machine, &["--source", "project"]), ["pdf-forms"]);
    assert_eq!(
        names(&machine, &["--name", "pdf-*"]),
        ["pdf-forms", "pdf-tools"]
    );
    assert_eq!(
        names(&machine, &["--name", "?lpha"]),
        ["alpha"],
        "? is one character"
    );
    assert_eq!(
        names(&machine, &["--name", "{alpha,gamma}"]),
        ["alpha", "gamma"]
    );
}

#[test]
fn filters_combine_and_a_repeated_filter_passes_either_value() {
    let machine = machine();
    assert_eq!(
        names(
            &machine,
            &[
                "--agent",
                "claude-code",
                "--source",
                "user",
                "--name",
                "pdf*"
            ]
        ),
        ["pdf-tools"]
    );
    assert_eq!(
        names(&machine, &["--name", "alpha", "--name", "gamma"]),
        ["alpha", "gamma"]
    );
    assert_eq!(
        names(
            &machine,
            &[
                "--source", "project", "--source", "user", "--agent", "codex"
            ]
        ),
        ["gamma"]
    );
}

#[test]
fn the_table_shows_only_what_passes_and_counts_it_against_all() {
    let machine = machine();
    let output = machine.run_expecting(&["list", "--name", "pdf-*", "--source", "user"], 0);
    let text = stdout(&output);
    assert!(text.contains("pdf-tools"), "{text}");
    for hidden in ["alpha", "gamma", "pdf-forms"] {
        assert!(!text.contains(hidden), "{hidden} is shown: {text}");
    }
    assert!(text.contains("1 skill (of 4) in 1 root:"), "{text}");
}

#[test]
fn nothing_passing_the_filters_exits_1_and_says_so() {
    let machine = machine();
    let output = machine.run_expecting(&["list", "--name", "zeta*"], 1);
    assert_eq!(
        stdout(&output),
        "No skill matches these filters (of 4 found).\n"
    );
    let output = machine.run_expecting(&["list", "--name", "zeta*", "--json"], 1);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["skills"], serde_json::json!([]));
    assert!(
        !json["roots"].as_array().unwrap().is_empty(),
        "the roots are listed whatever the filters"
    );
}

#[test]
fn an_agent_asked_for_is_shown_though_not_installed_here() {
    let machine = machine();
    // Cline reads ~/.agents/skills but has no config folder on this machine.
    let output = machine.run_expecting(&["list", "--agent", "cline"], 0);
    let text = stdout(&output);
    assert!(text.contains("gamma"), "{text}");
    assert!(text.contains("cline"), "{text}");
    assert!(!text.contains("none installed"), "{text}");
    let output = machine.run_expecting(&["list", "--agent", "cline", "--json"], 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let agents = json["skills"][0]["agents"].as_array().unwrap();
    assert!(agents.contains(&serde_json::json!("cline")), "{json:#}");
    assert!(
        !json["installed_agents"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("cline")),
        "installed_agents stays the machine's"
    );
}

#[test]
fn an_unknown_agent_source_or_glob_is_a_usage_error_listing_the_valid_values() {
    let machine = machine();
    let output = machine.run_expecting(&["list", "--agent", "claude"], 2);
    let text = stderr(&output);
    assert!(text.contains("no agent \"claude\""), "{text}");
    assert!(text.contains("claude-code"), "{text}");
    let output = machine.run_expecting(&["list", "--source", "system"], 2);
    let text = stderr(&output);
    assert!(
        text.contains(
            "no source \"system\"; the sources are plugin, organization, user, project, builtin, unknown"
        ),
        "{text}"
    );
    let output = machine.run_expecting(&["list", "--name", "pdf-[", "--json"], 2);
    assert!(stderr(&output).contains("pdf-["), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
}

#[test]
fn the_help_teaches_with_examples() {
    let machine = machine();
    let text = stdout(&machine.run_expecting(&["list", "--help"], 0));
    assert!(text.contains("--agent <ID>"), "{text}");
    assert!(text.contains("--source <SOURCE>"), "{text}");
    assert!(text.contains("--name <GLOB>"), "{text}");
    assert!(
        text.contains("skilldeck list --agent claude-code --source user"),
        "{text}"
    );
}
