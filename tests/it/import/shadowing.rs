//! An import whose copy changes which copy of a name an agent runs says so, on stderr and in
//! `--json`, on a dry run and on the install: the new copy wins over one there already, or
//! loses to it. The rule is the one the link, copy and move plans use.

use std::fs;

use crate::common::{Machine, write_skill};
use serde_json::Value;

fn bundle(machine: &Machine) -> String {
    let source = machine.root().join("bundle");
    write_skill(&source.join("demo"), &[("which.md", "imported\n")]);
    write_skill(&source.join("alone"), &[]);
    source.to_string_lossy().into_owned()
}

fn run(machine: &Machine, args: &[&str]) -> (Option<i32>, Value, String) {
    let output = machine.run(args);
    let json = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), json, stderr)
}

fn shadowing(json: &Value) -> Vec<(String, String, String, String)> {
    json["shadowing"]
        .as_array()
        .unwrap_or_else(|| panic!("{json}"))
        .iter()
        .map(|s| {
            let text = |key: &str| s[key].as_str().unwrap().to_owned();
            (text("skill"), text("agent"), text("winner"), text("loser"))
        })
        .collect()
}

#[test]
fn a_copy_that_loses_to_the_one_there_already_is_said_to() {
    let machine = Machine::new();
    let source = bundle(&machine);
    // Claude Code runs a personal copy over a project's of the same name.
    let personal = machine.home.join(".claude/skills/demo");
    write_skill(&personal, &[]);
    let project_copy = machine.repo.join(".claude/skills/demo");
    let args = [
        "import",
        source.as_str(),
        "--agent",
        "claude-code",
        "--scope",
        "project",
    ];

    let mut dry = args.to_vec();
    dry.push("--dry-run");
    let (code, _, stderr) = run(&machine, &dry);
    assert_eq!(code, Some(0), "{stderr}");
    let said = format!(
        "skilldeck: warning: demo: Claude Code would run {} instead of {}",
        personal.display(),
        project_copy.display()
    );
    assert!(stderr.contains(&said), "{stderr}");
    assert!(!stderr.contains("alone"), "{stderr}");
    dry.push("--json");
    let (_, json, _) = run(&machine, &dry);
    let want = (
        "demo".to_owned(),
        "claude-code".to_owned(),
        personal.display().to_string(),
        project_copy.display().to_string(),
    );
    assert_eq!(shadowing(&json), std::slice::from_ref(&want));

    let (code, _, stderr) = run(&machine, &args);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains(&said.replace("would run", "will run")),
        "{stderr}"
    );
    assert!(project_copy.join("which.md").is_file());

    // Again, as JSON: the copy it updates is no rival of its own, the personal one still is.
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let (code, json, _) = run(&machine, &json_args);
    assert_eq!(code, Some(0));
    assert_eq!(shadowing(&json), [want]);
}

#[test]
fn a_copy_that_wins_over_the_one_there_already_is_said_to_and_none_is_quiet() {
    let machine = Machine::new();
    let source = bundle(&machine);
    let project_copy = machine.repo.join(".claude/skills/demo");
    write_skill(&project_copy, &[]);
    fs::create_dir_all(machine.home.join(".claude")).unwrap();
    let personal = machine.home.join(".claude/skills/demo");
    let (code, json, stderr) = run(
        &machine,
        &[
            "import",
            source.as_str(),
            "--agent",
            "claude-code",
            "--json",
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        shadowing(&json),
        [(
            "demo".to_owned(),
            "claude-code".to_owned(),
            personal.display().to_string(),
            project_copy.display().to_string(),
        )]
    );
    assert!(
        stderr.contains(&format!(
            "demo: Claude Code will run {} instead of {}",
            personal.display(),
            project_copy.display()
        )),
        "{stderr}"
    );

    // Into a folder no agent reads: nothing shadows, and the other warning is given.
    let nowhere = machine.root().join("nowhere");
    let (code, json, stderr) = run(
        &machine,
        &[
            "import",
            source.as_str(),
            "--to",
            nowhere.to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(shadowing(&json).is_empty());
    assert!(!stderr.contains("warning"), "{stderr}");
    assert!(stderr.contains("no agent reads"), "{stderr}");
}
