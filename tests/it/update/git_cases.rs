//! Each case of a three-way update, with the upstream a git repository the skill was imported
//! from (no `--from`): the repository is changed and committed, the installed copy edited, and
//! `skilldeck update` must merge, keep the edit, or stop with nothing written, as each case
//! needs. The same cases against folders are in `update.rs`; these prove the fetched upstream
//! takes the same path through the merge.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::git::{commit, git, repository};
use crate::common::{Machine, listed, snapshot, write_files};

const MANIFEST: &str = "---\nname: alpha\ndescription: The alpha skill, for tests.\n---\nbody\n";
const GUIDE: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";

/// A repository holding `skills/alpha` (SKILL.md, guide.md, notes.md), imported into Claude
/// Code's user skills: the repository and the installed folder.
fn imported(machine: &Machine) -> (PathBuf, PathBuf) {
    let repo = machine.root().join("upstream");
    repository(
        &repo,
        &[
            ("skills/alpha/SKILL.md", MANIFEST),
            ("skills/alpha/guide.md", GUIDE),
            ("skills/alpha/notes.md", "notes\n"),
        ],
    );
    let to = machine.home.join(".claude/skills");
    machine.import_to(&repo, &to);
    (repo, to.join("alpha"))
}

fn upstream_writes(repo: &Path, file: &str, text: &str) {
    write_files(repo, &[(&format!("skills/alpha/{file}"), text)]);
    commit(repo, &format!("change {file}"));
}

fn update(machine: &Machine, args: &[&str], code: i32) -> Value {
    let mut all = vec!["update", "alpha", "--json"];
    all.extend_from_slice(args);
    machine.run_json(&all, code)
}

fn summary_of<'j>(json: &'j Value, path: &str) -> &'j Value {
    json["skills"][0]["files"]
        .as_array()
        .and_then(|files| files.iter().find(|f| f["path"] == path))
        .map_or(&Value::Null, |file| &file["summary"])
}

fn read(dir: &Path, file: &str) -> String {
    fs::read_to_string(dir.join(file)).unwrap_or_default()
}

#[test]
fn an_upstream_change_with_no_local_edit_is_taken_and_reads_intact() {
    let machine = Machine::new();
    let (repo, skill) = imported(&machine);
    upstream_writes(
        &repo,
        "guide.md",
        "one\nTWO\nthree\nfour\nfive\nsix\nseven\n",
    );
    let json = update(&machine, &[], 0);
    assert_eq!(json["skills"][0]["status"], "updated", "{json:#}");
    assert_eq!(summary_of(&json, "guide.md"), "took_theirs", "{json:#}");
    assert!(read(&skill, "guide.md").contains("TWO"));
    let list = machine.list_json();
    let alpha = listed(&list, "alpha");
    assert_eq!(alpha["state"], "intact", "{alpha:#}");
}

#[test]
fn a_local_edit_and_an_upstream_change_in_another_file_are_both_kept() {
    let machine = Machine::new();
    let (repo, skill) = imported(&machine);
    fs::write(skill.join("notes.md"), "notes, mine\n").unwrap();
    upstream_writes(
        &repo,
        "guide.md",
        "one\ntwo\nthree, theirs\nfour\nfive\nsix\nseven\n",
    );
    let json = update(&machine, &[], 0);
    assert_eq!(summary_of(&json, "notes.md"), "kept_ours", "{json:#}");
    assert_eq!(summary_of(&json, "guide.md"), "took_theirs", "{json:#}");
    assert_eq!(read(&skill, "notes.md"), "notes, mine\n");
    assert!(read(&skill, "guide.md").contains("three, theirs"));
}

#[test]
fn edits_to_one_file_in_lines_apart_are_merged() {
    let machine = Machine::new();
    let (repo, skill) = imported(&machine);
    fs::write(
        skill.join("guide.md"),
        "one, mine\ntwo\nthree\nfour\nfive\nsix\nseven\n",
    )
    .unwrap();
    upstream_writes(
        &repo,
        "guide.md",
        "one\ntwo\nthree\nfour\nfive\nsix\nseven, theirs\n",
    );
    let json = update(&machine, &[], 0);
    assert_eq!(summary_of(&json, "guide.md"), "merged", "{json:#}");
    assert_eq!(
        read(&skill, "guide.md"),
        "one, mine\ntwo\nthree\nfour\nfive\nsix\nseven, theirs\n"
    );
}

#[test]
fn overlapping_edits_stop_with_nothing_written_until_a_side_is_taken() {
    let machine = Machine::new();
    let (repo, skill) = imported(&machine);
    fs::write(
        skill.join("guide.md"),
        "one\ntwo\nthree, mine\nfour\nfive\nsix\nseven\n",
    )
    .unwrap();
    upstream_writes(
        &repo,
        "guide.md",
        "one\ntwo\nthree, theirs\nfour\nfive\nsix\nseven\n",
    );
    let before = snapshot(&machine.home);
    let json = update(&machine, &[], 1);
    assert_eq!(json["skills"][0]["status"], "conflict", "{json:#}");
    assert_eq!(json["refused"]["code"], "conflict", "{json:#}");
    assert_eq!(
        json["skills"][0]["files"][1]["conflict"], "overlapping",
        "{json:#}"
    );
    assert_eq!(snapshot(&machine.home), before, "nothing is written");
    update(&machine, &["--take", "ours"], 0);
    assert!(read(&skill, "guide.md").contains("three, mine"));
}

#[test]
fn an_upstream_deletion_of_a_locally_edited_file_is_a_conflict() {
    let machine = Machine::new();
    let (repo, skill) = imported(&machine);
    fs::write(skill.join("notes.md"), "notes, mine\n").unwrap();
    git(&repo, &["rm", "--quiet", "skills/alpha/notes.md"]);
    commit(&repo, "drop the notes");
    let before = snapshot(&machine.home);
    let json = update(&machine, &[], 1);
    let notes = json["skills"][0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "notes.md")
        .cloned()
        .unwrap_or_default();
    assert_eq!(notes["conflict"], "deleted_upstream", "{json:#}");
    assert_eq!(snapshot(&machine.home), before, "nothing is written");
    update(&machine, &["--take", "theirs"], 0);
    assert!(
        !skill.join("notes.md").exists(),
        "upstream's deletion is taken"
    );
}

/// The refusal of an update that stopped, after checking nothing on the machine changed.
fn stopped(machine: &Machine, args: &[&str]) -> Value {
    let before = snapshot(&machine.home);
    let json = update(machine, args, 1);
    assert_eq!(
        snapshot(&machine.home),
        before,
        "nothing is written: {json:#}"
    );
    assert_eq!(json["refused"]["code"], "conflict", "{json:#}");
    json
}

fn conflicts_of(json: &Value) -> Vec<(String, String)> {
    json["skills"][0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| !f["conflict"].is_null())
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_owned(),
                f["conflict"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn upstream_turning_a_folder_into_a_file_stops_with_a_sentence_until_a_side_is_taken() {
    let machine = Machine::new();
    let (repo, skill) = imported(&machine);
    write_files(&repo, &[("skills/alpha/refs/a.md", "a\n")]);
    commit(&repo, "a folder");
    update(&machine, &[], 0);
    // Here a file is added in the folder; upstream makes the folder a file.
    fs::write(skill.join("refs/mine.md"), "mine\n").unwrap();
    git(&repo, &["rm", "--quiet", "-r", "skills/alpha/refs"]);
    write_files(&repo, &[("skills/alpha/refs", "now a file\n")]);
    commit(&repo, "the folder is a file");
    let json = stopped(&machine, &[]);
    assert_eq!(
        conflicts_of(&json),
        [
            ("refs".to_owned(), "file_and_folder".to_owned()),
            ("refs/mine.md".to_owned(), "file_and_folder".to_owned())
        ],
        "{json:#}"
    );
    let message = json["refused"]["message"].as_str().unwrap();
    assert!(
        message.contains(&skill.display().to_string())
            && message.contains("a file on one side and a folder on the other"),
        "{message}"
    );
    update(&machine, &["--take", "theirs"], 0);
    assert_eq!(read(&skill, "refs"), "now a file\n");
}

#[test]
fn upstream_turning_an_edited_file_into_a_folder_stops_with_a_sentence_until_a_side_is_taken() {
    let machine = Machine::new();
    let (repo, skill) = imported(&machine);
    fs::write(skill.join("notes.md"), "notes, mine\n").unwrap();
    git(&repo, &["rm", "--quiet", "skills/alpha/notes.md"]);
    write_files(&repo, &[("skills/alpha/notes.md/part.md", "part\n")]);
    commit(&repo, "the file is a folder");
    let json = stopped(&machine, &[]);
    assert_eq!(
        conflicts_of(&json),
        [
            ("notes.md".to_owned(), "deleted_upstream".to_owned()),
            ("notes.md/part.md".to_owned(), "file_and_folder".to_owned())
        ],
        "{json:#}"
    );
    // A sentence naming the skill, never a failed write naming a staging folder.
    let message = json["refused"]["message"].as_str().unwrap();
    assert!(message.contains(&skill.display().to_string()), "{message}");
    assert!(!message.contains("staging"), "{message}");
    // The edit kept, the folder refused: what used to fail writing both.
    update(&machine, &["--take", "ours"], 0);
    assert_eq!(read(&skill, "notes.md"), "notes, mine\n");
}
