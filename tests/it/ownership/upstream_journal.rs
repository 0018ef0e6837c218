//! skilldeck's record of where a skill came from in a git repository goes with the folder, and
//! `undo` puts it back with it: an import undone forgets it (a later `update` asks for the
//! upstream), a removal undone remembers it, a move takes it to the new place (where `update`
//! finds it), an update undone names the commit before. Old journal lines, written before the
//! record was journalled, still read. Repositories are built here.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use skilldeck::record::upstream;

use crate::common::git::{commit, repository};
use crate::common::{Machine, write_files};

fn skill_md(body: &str) -> String {
    format!("---\nname: alpha\ndescription: The alpha skill, for tests.\n---\n{body}\n")
}

/// A repository with `skills/alpha`; its folder and commit.
fn upstream_repo(root: &Path) -> (PathBuf, String) {
    let dir = root.join("upstream");
    let first = repository(&dir, &[("skills/alpha/SKILL.md", &skill_md("first"))]);
    (dir, first)
}

/// `alpha` imported from `repo` into Claude Code's user skills folder; its folder.
fn imported(machine: &Machine, repo: &Path) -> PathBuf {
    let to = machine.home.join(".claude/skills");
    machine.import_to(repo, &to);
    to.join("alpha")
}

fn recorded(machine: &Machine, dir: &Path) -> Option<String> {
    upstream::of(&machine.env().data_dir(), dir).map(|u| u.commit)
}

fn update_json(machine: &Machine, code: i32) -> Value {
    machine.run_json(&["update", "alpha", "--json"], code)
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn an_import_from_git_undone_forgets_where_the_skill_came_from() {
    let machine = Machine::new();
    let (repo, first) = upstream_repo(&machine.root());
    let skill = imported(&machine, &repo);
    assert_eq!(recorded(&machine, &skill), Some(first));
    let undone = machine.run_expecting(&["undo"], 0);
    assert!(
        stdout(&undone).contains("forgot where"),
        "the undo says it: {}",
        stdout(&undone)
    );
    assert!(!skill.exists());
    assert_eq!(recorded(&machine, &skill), None);
    // Put back by hand (not from the repository): nothing says where it came from.
    write_files(&skill, &[("SKILL.md", &skill_md("first"))]);
    let json = update_json(&machine, 1);
    assert_eq!(json["refused"]["code"], "no_upstream", "{json:#}");
}

#[test]
fn a_removal_undone_remembers_where_the_skill_came_from() {
    let machine = Machine::new();
    let (repo, first) = upstream_repo(&machine.root());
    let skill = imported(&machine, &repo);
    machine.run_expecting(&["remove", "alpha"], 0);
    assert_eq!(
        recorded(&machine, &skill),
        None,
        "forgotten with the folder"
    );
    let listed = stdout(&machine.run_expecting(&["undo", "--list"], 0));
    assert!(
        listed.contains("where ~/.claude/skills/alpha came from"),
        "{listed}"
    );
    let undone = stdout(&machine.run_expecting(&["undo"], 0));
    assert!(undone.contains("as coming from"), "{undone}");
    assert!(skill.join("SKILL.md").is_file());
    assert_eq!(recorded(&machine, &skill), Some(first));
    let json = update_json(&machine, 0);
    assert_eq!(json["skills"][0]["status"], "up_to_date", "{json:#}");
}

#[test]
fn a_moved_skill_takes_its_record_and_updates_from_the_new_place() {
    let machine = Machine::new();
    let (repo, first) = upstream_repo(&machine.root());
    let skill = imported(&machine, &repo);
    machine.run_expecting(&["move", "alpha", "--scope", "project"], 0);
    let arrived = machine.repo.join(".claude/skills/alpha");
    assert!(arrived.join("SKILL.md").is_file());
    assert_eq!(recorded(&machine, &arrived), Some(first.clone()));
    assert_eq!(
        recorded(&machine, &skill),
        None,
        "not left at the old place"
    );

    let head = {
        write_files(&repo, &[("skills/alpha/SKILL.md", &skill_md("second"))]);
        commit(&repo, "second")
    };
    let json = update_json(&machine, 0);
    assert_eq!(json["skills"][0]["status"], "updated", "{json:#}");
    assert!(
        fs::read_to_string(arrived.join("SKILL.md"))
            .unwrap()
            .contains("second")
    );
    assert_eq!(recorded(&machine, &arrived), Some(head));

    // Undoing the update, then the move: the record goes back with the folder.
    machine.run_expecting(&["undo"], 0);
    assert_eq!(recorded(&machine, &arrived), Some(first.clone()));
    machine.run_expecting(&["undo"], 0);
    assert!(skill.join("SKILL.md").is_file());
    assert_eq!(recorded(&machine, &skill), Some(first));
    assert_eq!(recorded(&machine, &arrived), None);
}

#[test]
fn an_update_undone_records_the_commit_before_again() {
    let machine = Machine::new();
    let (repo, first) = upstream_repo(&machine.root());
    let skill = imported(&machine, &repo);
    write_files(&repo, &[("skills/alpha/SKILL.md", &skill_md("second"))]);
    let head = commit(&repo, "second");
    let json = update_json(&machine, 0);
    assert_eq!(json["skills"][0]["status"], "updated", "{json:#}");
    assert_eq!(recorded(&machine, &skill), Some(head));
    let undone = stdout(&machine.run_expecting(&["undo"], 0));
    assert!(undone.contains(&first[..12]), "{undone}");
    assert_eq!(recorded(&machine, &skill), Some(first.clone()));
    assert!(
        fs::read_to_string(skill.join("SKILL.md"))
            .unwrap()
            .contains("first")
    );
    // The next update finds upstream moved past the commit recorded again.
    let json = update_json(&machine, 0);
    assert_eq!(json["skills"][0]["status"], "updated", "{json:#}");
}

#[test]
fn a_record_changed_since_is_not_overwritten_by_an_undo() {
    let machine = Machine::new();
    let (repo, first) = upstream_repo(&machine.root());
    let skill = imported(&machine, &repo);
    let mut elsewhere = upstream::of(&machine.env().data_dir(), &skill).unwrap();
    elsewhere.commit = "f".repeat(40);
    upstream::write(&machine.env().data_dir(), &skill, &elsewhere).unwrap();
    let output = machine.run_expecting(&["undo"], 1);
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("recorded again since"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(skill.join("SKILL.md").is_file(), "nothing was undone");
    assert_ne!(recorded(&machine, &skill), Some(first));
}

#[test]
fn a_journal_line_from_before_the_record_was_journalled_still_reads() {
    let line = r#"{"at":"2026-11-30T10:00:00.000Z","operation":"import","changes":[{"dir":"/r/a","was":"absent","snapshot":"s1"}]}"#;
    let entry: skilldeck::operations::Entry = serde_json::from_str(line).unwrap();
    assert!(entry.upstream.is_empty());
    assert!(
        !serde_json::to_string(&entry).unwrap().contains("upstream"),
        "an entry with no record change writes no field for it"
    );
}
