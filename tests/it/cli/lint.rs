//! `skilldeck lint [PATH]...`: the specification's lint the app shows, on any folder, for skill
//! authors and CI: one problem a line as `PATH: problem`, `--json` with every problem, exit 0
//! when clean, 1 on any problem, 2 for a path that is not a folder.

use std::fs;
use std::path::Path;

use crate::common::Machine;

fn write(dir: &Path, manifest: &str) {
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join("SKILL.md"), manifest).unwrap();
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `skills/good` clean, `skills/Bad_Name` breaking the name rules and with a field outside the
/// specification, `skills/bare` with no frontmatter, and `skills/notes` holding no SKILL.md.
fn machine() -> Machine {
    let machine = Machine::new();
    let skills = machine.start.join("skills");
    write(
        &skills.join("good"),
        "---\nname: good\ndescription: Does one thing well.\n---\nBody.\n",
    );
    write(
        &skills.join("Bad_Name"),
        "---\nname: Bad_Name\ndescription: x\nfoo: 1\n---\n",
    );
    write(&skills.join("bare"), "No frontmatter here.\n");
    fs::create_dir_all(skills.join("notes")).unwrap();
    fs::write(skills.join("notes/README.md"), "not a skill").unwrap();
    machine
}

#[test]
fn a_folder_of_skills_gets_one_problem_a_line_and_exit_1() {
    let machine = machine();
    let output = machine.run_expecting(&["lint", "skills"], 1);
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.contains(&"skills/Bad_Name: skill name 'Bad_Name' must be lowercase"),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("skills/Bad_Name: unexpected fields in frontmatter: foo")),
        "{text}"
    );
    assert!(
        lines.contains(&"skills/bare: SKILL.md must start with YAML frontmatter (---)"),
        "{text}"
    );
    assert!(
        lines.iter().all(|l| !l.starts_with("skills/good")),
        "{text}"
    );
    assert!(lines.iter().all(|l| !l.contains("notes")), "{text}");
    assert!(
        stderr(&output).contains("3 skills linted: 4 problems in 2 skills."),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_clean_skill_exits_0_by_path_or_as_the_current_folder() {
    let machine = machine();
    let output = machine.run_expecting(&["lint", "skills/good"], 0);
    assert_eq!(stdout(&output), "");
    assert!(stderr(&output).contains("1 skill linted: each follows the specification."));
    let output = machine
        .command(&["lint"])
        .current_dir(machine.start.join("skills/good"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn the_name_is_held_to_the_folders_name() {
    let machine = machine();
    write(
        &machine.start.join("renamed"),
        "---\nname: original\ndescription: Moved.\n---\n",
    );
    let output = machine.run_expecting(&["lint", "renamed"], 1);
    assert!(
        stdout(&output).starts_with("renamed: "),
        "{}",
        stdout(&output)
    );
    assert!(stdout(&output).contains("original"), "{}", stdout(&output));
}

#[test]
fn json_lists_every_skill_and_every_problem_with_its_path() {
    let machine = machine();
    let output = machine.run_expecting(&["lint", "skills", "--json"], 1);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let skills = json["skills"].as_array().unwrap();
    let paths: Vec<&str> = skills.iter().map(|s| s["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["skills/Bad_Name", "skills/bare", "skills/good"]);
    assert_eq!(skills[2]["problems"], serde_json::json!([]));
    assert_eq!(json["problems"].as_array().unwrap().len(), 4);
    assert_eq!(json["problems"][0]["path"], "skills/Bad_Name");
    let output = machine.run_expecting(&["lint", "skills/good", "--json"], 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["problems"], serde_json::json!([]));
}

#[test]
fn a_folder_holding_no_skill_is_a_problem_and_a_path_not_a_folder_a_usage_error() {
    let machine = machine();
    let output = machine.run_expecting(&["lint", "skills/notes"], 1);
    assert_eq!(
        stdout(&output),
        "skills/notes: holds no SKILL.md, and no folder in it does\n"
    );
    let output = machine.run_expecting(&["lint", "skills/good", "nowhere"], 2);
    assert_eq!(stdout(&output), "", "nothing is linted");
    assert!(stderr(&output).contains("nowhere: no such folder"));
    let output = machine.run_expecting(&["lint", "skills/good/SKILL.md"], 2);
    assert!(stderr(&output).contains("is not a folder"));
}

#[test]
fn text_from_the_skill_reaches_the_terminal_escaped() {
    let machine = machine();
    write(
        &machine.start.join("evil"),
        "---\nname: \"evil\\e]0;pwned\\a\"\ndescription: x\n---\n",
    );
    let output = machine.run_expecting(&["lint", "evil"], 1);
    assert!(!output.stdout.contains(&0x1b), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("evil\\u{1b}]0;pwned"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn the_help_teaches_with_examples_and_exit_codes() {
    let machine = Machine::new();
    let text = stdout(&machine.run_expecting(&["lint", "--help"], 0));
    assert!(text.contains("skilldeck lint skills --json"), "{text}");
    assert!(text.contains("Exit codes: 0"), "{text}");
}

/// At a project's root (no skill in the folder itself), `lint` lints the project's skills: every
/// agent's project skills folder up to the repository's top; `--project DIR` asks for them from
/// anywhere. A user's own skills are never among them, and a project with none says so.
#[test]
fn at_a_project_root_lint_lints_the_projects_skills() {
    let machine = Machine::new();
    write(
        &machine.repo.join(".claude/skills/tidy"),
        "---\nname: tidy\ndescription: Clean.\n---\n",
    );
    write(
        &machine.repo.join(".agents/skills/Messy"),
        "---\nname: Messy\ndescription: x\n---\n",
    );
    write(
        &machine.home.join(".claude/skills/Mine_Too"),
        "---\nname: Mine_Too\ndescription: x\n---\n",
    );
    // machine.start is the repository's `app` folder, which holds no skill itself.
    let output = machine.run_expecting(&["lint", "--json"], 1);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut linted: Vec<String> = json["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap().to_owned())
        .collect();
    linted.sort();
    assert_eq!(
        linted,
        [
            machine
                .repo
                .join(".agents/skills/Messy")
                .display()
                .to_string(),
            machine
                .repo
                .join(".claude/skills/tidy")
                .display()
                .to_string(),
        ],
        "{json:#}"
    );
    let other = tempfile::tempdir().unwrap();
    let mut command = machine.command(&["--project", machine.repo.to_str().unwrap(), "lint"]);
    let output = command.current_dir(other.path()).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("Messy"), "{}", stdout(&output));
    assert!(
        stderr(&output).contains("2 skills linted"),
        "{}",
        stderr(&output)
    );

    let empty = Machine::new();
    let output = empty.run_expecting(&["lint"], 1);
    assert!(
        stdout(&output).contains("nor does any agent's project skills folder"),
        "{}",
        stdout(&output)
    );
}
