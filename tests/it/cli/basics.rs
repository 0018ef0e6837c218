//! The command-line contract: exit codes, `check` saying which skill drifted and how, and
//! usage errors as one sentence.

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

#[test]
fn check_passes_when_every_recorded_skill_is_intact() {
    let machine = Machine::new();
    install(&machine, "kept");
    write_skill(&machine.home.join(".claude/skills/handmade"), &[]);
    let output = machine.run(&["check"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(stdout(&output), "1 recorded skill intact.\n");
}

#[test]
fn check_says_so_when_nothing_is_recorded() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/handmade"), &[]);
    let output = machine.run(&["check"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "No skill carries an installer's record (1 skill found).\n"
    );
}

#[test]
fn check_fails_naming_the_modified_skill_and_how() {
    let machine = Machine::new();
    install(&machine, "kept");
    let edited = install(&machine, "edited");
    fs::write(edited.join("references/a.md"), "changed\n").unwrap();
    let output = machine.run(&["check"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.contains("modified  edited  ~/.claude/skills/edited"),
        "{text}"
    );
    assert!(
        text.contains("installed by fixture-installer 1.0.0; its files digest to sha256:"),
        "{text}"
    );
    assert!(!text.contains("modified  kept"), "{text}");
    assert!(
        text.contains("1 of 2 recorded skills modified since installed."),
        "{text}"
    );

    let output = machine.run(&["check", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["recorded"], 2);
    assert_eq!(json["modified"][0]["name"], "edited");
    assert_eq!(json["modified"][0]["state"], "modified");
}

/// A record keeps one digest of every file, so check says which files changed only from a
/// copy that keeps them (a snapshot), and points to `diff`; with no copy it says how to keep one.
#[test]
fn check_names_the_changed_files_when_a_snapshot_keeps_them() {
    let machine = Machine::new();
    let edited = install(&machine, "edited");
    fs::write(edited.join("references/a.md"), "changed\n").unwrap();
    let text = stdout(&machine.run(&["check"]));
    assert!(
        text.contains("the record keeps no copy to say which files changed; `skilldeck snapshot edited` keeps one"),
        "{text}"
    );
    assert_eq!(machine.run(&["snapshot", "edited"]).status.code(), Some(0));
    fs::write(edited.join("references/a.md"), "changed again\n").unwrap();
    fs::write(edited.join("notes.md"), "new\n").unwrap();
    let text = stdout(&machine.run(&["check"]));
    assert!(
        text.contains("2 files changed since its snapshot ")
            && text.contains(": A notes.md, M references/a.md; `skilldeck diff edited` shows how"),
        "{text}"
    );
}

#[cfg(unix)]
#[test]
fn a_link_added_inside_a_recorded_skill_is_named_by_check() {
    let machine = Machine::new();
    let dir = install(&machine, "linked-inside");
    std::os::unix::fs::symlink("/etc/hostname", dir.join("host")).unwrap();
    let output = machine.run(&["check"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).contains("host is a symbolic link"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn usage_errors_exit_2_with_a_sentence() {
    let machine = Machine::new();
    let output = machine.run(&["list", "--project", "/nonexistent/dir"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "skilldeck: --project /nonexistent/dir: no such directory\n"
    );
    let output = machine.run(&["lsit"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unrecognized subcommand"));
}

#[test]
fn the_project_option_moves_the_project_roots() {
    let machine = Machine::new();
    let other = machine.root().join("other-project");
    write_skill(&other.join(".claude/skills/elsewhere"), &[]);
    let listing = machine.list_json();
    assert!(
        !listing["skills"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["name"] == "elsewhere")
    );
    let output = machine.run(&["list", "--json", "--project", other.to_str().unwrap()]);
    let listing: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let found = listing["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "elsewhere")
        .unwrap();
    assert_eq!(found["source"], "project");
}

#[test]
fn help_teaches_the_subcommands_and_exit_codes() {
    let machine = Machine::new();
    let output = machine.run(&["--help"]);
    assert!(output.status.success());
    let text = stdout(&output);
    for needle in [
        "list",
        "check",
        "--project",
        "Exit codes",
        "SKILLDECK_SYSTEM_ROOT",
    ] {
        assert!(
            text.contains(needle),
            "{needle} missing from --help:\n{text}"
        );
    }
}

/// Every command that takes a skill by name offers the closest names for a misspelt one, by
/// one rule: `disable` and `enable` as much as `remove`, `export` and `history`; a name close
/// to none is offered none.
#[test]
fn a_misspelt_skill_name_is_offered_the_closest_names_by_every_command() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/pdf"), &[]);
    write_skill(&machine.home.join(".claude/skills/brand-guidelines"), &[]);
    let commands: [&[&str]; 6] = [
        &["disable", "pdff", "--agent", "claude-code"],
        &["enable", "pdff", "--agent", "claude-code"],
        &["remove", "pdff"],
        &["export", "pdff"],
        &["snapshot", "pdff"],
        &["link", "pdff", "--agent", "codex"],
    ];
    for args in commands {
        let output = machine.run_expecting(args, 1);
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(said.contains("; did you mean pdf?"), "{args:?}: {said}");
    }
    let output =
        machine.run_expecting(&["disable", "brand-guideline", "--agent", "claude-code"], 1);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("did you mean brand-guidelines?"), "{said}");
    let output = machine.run_expecting(&["disable", "kubernetes", "--agent", "claude-code"], 1);
    assert!(!String::from_utf8_lossy(&output.stderr).contains("did you mean"));
}

/// An I/O failure reaches the user as words after the path ("not found", "permission
/// denied"), never the system's raw `(os error N)`.
#[test]
fn io_errors_are_said_in_words_not_os_error_codes() {
    let machine = Machine::new();
    let missing = machine.root().join("nowhere/at-all");
    let output = machine.run_expecting(
        &[
            "import",
            missing.to_str().unwrap(),
            "--to",
            machine.home.join(".claude/skills").to_str().unwrap(),
        ],
        1,
    );
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("could not be read: not found"), "{said}");
    assert!(!said.contains("os error"), "{said}");

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let dir = machine.home.join(".claude/skills/locked");
        write_skill(&dir, &[("notes.md", "private\n")]);
        fs::set_permissions(dir.join("notes.md"), fs::Permissions::from_mode(0o000)).unwrap();
        let output = machine.run_unprivileged(&["snapshot", dir.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(said.contains("permission denied"), "{said}");
        assert!(!said.contains("os error"), "{said}");
    }
}
