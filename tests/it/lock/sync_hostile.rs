//! A hostile `skills-lock.json` (it comes with a repository anyone can send) is refused by
//! `sync` with a sentence, and nothing is written: names that climb out, absolute paths,
//! options where git takes a URL, remote helpers, unknown versions, and files past the import
//! bounds.

#![cfg(unix)]

use std::fs;

use serde_json::Value;

use crate::common::Machine;
use crate::common::git::repository;
use crate::common::http::GitServer;

use super::sync::skill_md;

const HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// A lock of one entry, `fields` its JSON members after the name.
fn lock_of(name: &str, fields: &str) -> String {
    format!("{{\"version\": 1, \"skills\": {{{name:?}: {{{fields}}}}}}}")
}

/// Sync `machine` and insist it is refused, writes nothing and says each of `words`.
fn refused(machine: &Machine, lock: &str, words: &[&str]) {
    let path = machine.repo.join("skills-lock.json");
    fs::write(&path, lock).unwrap();
    let output = machine.run_expecting(&["sync"], 1);
    let said = String::from_utf8_lossy(&output.stderr);
    for word in words {
        assert!(said.contains(word), "{lock}: {said} does not say {word:?}");
    }
    assert!(
        !machine.repo.join(".agents").exists(),
        "{lock}: wrote a skill"
    );
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        lock,
        "{lock}: rewrote the lock"
    );
    // The same refusal, in --json, as a refusal.
    let output = machine.run_expecting(&["sync", "--json"], 1);
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        value["refused"]["code"].is_string() || value["clean"] == false,
        "{lock}: {value:#}"
    );
}

#[test]
fn an_untrusted_lock_is_refused_whole_before_anything_is_fetched() {
    let machine = Machine::new();
    let marker = machine.root().join("pwned");
    let upload = format!("--upload-pack=touch {}", marker.display());
    let git = |source: &str| {
        format!(
            "\"source\": {source:?}, \"sourceType\": \"git\", \"sourceUrl\": {source:?}, \"computedHash\": \"{HASH}\""
        )
    };
    let cases: Vec<(String, Vec<&str>)> = vec![
        (
            lock_of("../../escape", &git("https://example.org/r.git")),
            vec!["untrusted_lock", "../../escape", "leads out"],
        ),
        (
            lock_of("x", &git(&upload)),
            vec!["\"x\"", "starts with '-'"],
        ),
        (
            lock_of(
                "x",
                &format!(
                    "\"source\": \"/etc\", \"sourceType\": \"local\", \"computedHash\": \"{HASH}\""
                ),
            ),
            vec!["absolute path"],
        ),
        (
            lock_of(
                "x",
                &format!(
                    "{}, \"skillPath\": \"../../../etc/SKILL.md\"",
                    git("https://example.org/r.git")
                ),
            ),
            vec!["climbs out"],
        ),
        (
            lock_of(
                "x",
                &format!(
                    "{}, \"commit\": \"HEAD~1\"",
                    git("https://example.org/r.git")
                ),
            ),
            vec!["not a full commit id"],
        ),
        (
            lock_of(
                "x",
                "\"source\": \"o/r\", \"sourceType\": \"github\", \"computedHash\": \"short\"",
            ),
            vec!["SHA-256"],
        ),
        (
            "{\"version\": 2, \"skills\": {}}".to_owned(),
            vec!["version 2"],
        ),
        ("[]".to_owned(), vec!["not a skills lock"]),
    ];
    for (lock, words) in &cases {
        refused(&machine, lock, words);
    }
    assert!(!marker.exists(), "git ran the option");
}

#[test]
fn a_remote_helper_or_a_source_of_another_kind_is_refused_by_name() {
    let machine = Machine::new();
    let marker = machine.root().join("pwned");
    let helper = format!("ext::sh -c touch% {}", marker.display());
    for (fields, words) in [
        (
            format!(
                "\"source\": {helper:?}, \"sourceType\": \"git\", \"sourceUrl\": {helper:?}, \"computedHash\": \"{HASH}\""
            ),
            vec!["x: its source", "is not a repository URL"],
        ),
        (
            format!(
                "\"source\": \"pkg\", \"sourceType\": \"node_modules\", \"computedHash\": \"{HASH}\""
            ),
            vec!["x: its source is of type \"node_modules\""],
        ),
    ] {
        refused(&machine, &lock_of("x", &fields), &words);
    }
    assert!(!marker.exists(), "git ran the helper");
}

#[test]
fn a_file_past_the_import_bounds_is_refused_from_the_listing() {
    let machine = Machine::new();
    let work = machine.root().join("upstream-work");
    let big = "x".repeat(17 * 1024 * 1024);
    let head = repository(
        &work,
        &[
            ("skills/big/SKILL.md", skill_md("big", "Big.").as_str()),
            ("skills/big/blob.txt", big.as_str()),
        ],
    );
    let server = GitServer::serve(&machine.root().join("served"));
    let url = server.publish(&work, "skills.git");
    let fields = format!(
        "\"source\": {url:?}, \"sourceType\": \"git\", \"sourceUrl\": {url:?}, \"skillPath\": \"skills/big/SKILL.md\", \"computedHash\": \"{HASH}\", \"commit\": \"{head}\""
    );
    refused(
        &machine,
        &lock_of("big", &fields),
        &["big: its files at commit", "blob.txt"],
    );
}

#[test]
fn a_skills_folder_linked_out_of_the_project_is_not_installed_into() {
    let machine = Machine::new();
    let outside = machine.root().join("outside");
    fs::create_dir_all(&outside).unwrap();
    // A cloned repository's own link decides where `.agents` leads.
    crate::common::symlink(&outside, &machine.repo.join(".agents"));
    let lock = lock_of(
        "x",
        &format!("\"source\": \"o/r\", \"sourceType\": \"github\", \"computedHash\": \"{HASH}\""),
    );
    fs::write(machine.repo.join("skills-lock.json"), &lock).unwrap();
    let output = machine.run_expecting(&["sync"], 1);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("outside_project") && said.contains("leads out of the project"),
        "{said}"
    );
    assert_eq!(fs::read_dir(&outside).unwrap().count(), 0);
}
