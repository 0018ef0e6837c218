//! Folder sources: held to the archive rules, and live. A link, a FIFO, a file swapped for a
//! link while the folder is read, and an oversized file are refused (with nothing written and
//! without hanging); the same things outside every skill are only left out.

#![cfg(unix)]

use std::fs;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::common::{Machine, fifo, snapshot, write_files, write_skill};
use serde_json::Value;
use skilldeck::bundle::{self, limits};

/// Run the binary, failing the test if it has not finished within ten seconds.
fn run_briefly(machine: &Machine, args: &[&str]) -> (Option<i32>, Value) {
    let mut child = machine
        .command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(10) {
            child.kill().unwrap();
            panic!("{args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    let json = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.code(), json)
}

/// Import `source` for Claude Code and check it is refused with `code`, naming `member`, and
/// that nothing on the machine changed.
fn refused(machine: &Machine, source: &Path, code: &str, member: &str) {
    let before = snapshot(&machine.home);
    let (status, json) = run_briefly(
        machine,
        &[
            "import",
            source.to_str().unwrap(),
            "--agent",
            "claude-code",
            "--json",
        ],
    );
    assert_eq!(status, Some(1), "{json}");
    assert_eq!(json["refused"]["code"], code, "{json}");
    let message = json["refused"]["message"].as_str().unwrap();
    assert!(message.contains(member), "{message}");
    assert_eq!(snapshot(&machine.home), before);
}

#[test]
fn a_link_inside_a_skill_is_refused_and_never_followed() {
    let machine = Machine::new();
    let source = machine.root().join("bundle");
    write_skill(&source.join("demo"), &[]);
    fs::write(machine.root().join("secret"), "secret").unwrap();
    crate::common::symlink(
        &machine.root().join("secret"),
        &source.join("demo/notes.md"),
    );
    refused(
        &machine,
        &source,
        "unsupported_entry",
        "demo/notes.md is a symbolic link",
    );
}

#[test]
fn a_fifo_inside_a_skill_is_refused_without_waiting_for_a_writer() {
    let machine = Machine::new();
    let source = machine.root().join("bundle");
    write_skill(&source.join("demo"), &[]);
    fifo(&source.join("demo/pipe"));
    refused(
        &machine,
        &source,
        "unsupported_entry",
        "demo/pipe is a FIFO",
    );
}

#[test]
fn an_oversized_file_is_refused_before_it_is_read() {
    let machine = Machine::new();
    let source = machine.root().join("bundle");
    write_skill(&source.join("demo"), &[]);
    let big = fs::File::create(source.join("demo/big.bin")).unwrap();
    big.set_len(limits().file_bytes + 1).unwrap();
    refused(&machine, &source, "too_large", "demo/big.bin");
}

#[test]
fn a_folder_source_that_is_a_fifo_is_refused() {
    let machine = Machine::new();
    let source = machine.root().join("bundle.tar.gz");
    fifo(&source);
    refused(&machine, &source, "unsupported_source", "a FIFO");
}

#[test]
fn links_fifos_and_metadata_outside_every_skill_are_left_out_or_set_aside() {
    let machine = Machine::new();
    let source = machine.root().join("my-skills");
    write_skill(&source.join("demo"), &[("scripts/run.sh", "#!/bin/sh\n")]);
    write_files(&source, &[("README.md", "about"), (".git/HEAD", "ref")]);
    crate::common::symlink(Path::new("README.md"), &source.join("AGENTS.md"));
    fifo(&source.join("pipe"));
    write_files(
        &source,
        &[("demo/.DS_Store", "Finder"), ("demo/._SKILL.md", "x")],
    );
    let (status, json) = run_briefly(
        &machine,
        &["import", source.to_str().unwrap(), "--dry-run", "--json"],
    );
    assert_eq!(status, Some(0), "{json}");
    assert_eq!(
        json["left_out"],
        serde_json::json!(["AGENTS.md", "README.md", "pipe"])
    );
    assert_eq!(
        json["set_aside"],
        serde_json::json!([".git", "demo/.DS_Store", "demo/._SKILL.md"])
    );
    let files: Vec<&str> = json["skills"][0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["SKILL.md", "scripts/run.sh"]);
}

#[test]
fn a_folder_holding_skill_md_is_one_skill_named_after_it() {
    let machine = Machine::new();
    let source = machine.root().join("pdf-tools");
    write_skill(&source, &[("nested/SKILL.md", "part of it")]);
    // The folder names the skill, as it does for every skill folder, whatever the frontmatter
    // says; the preview shows the mismatch as a problem.
    write_files(
        &source,
        &[(
            "SKILL.md",
            "---\nname: pdf\ndescription: Reads PDFs.\n---\n",
        )],
    );
    let (_, preview) = run_briefly(
        &machine,
        &["import", source.to_str().unwrap(), "--dry-run", "--json"],
    );
    assert_eq!(preview["skills"][0]["name"], "pdf-tools");
    assert_eq!(
        preview["skills"][0]["problems"],
        serde_json::json!(["directory name 'pdf-tools' must match skill name 'pdf'"])
    );
    let (status, json) = run_briefly(
        &machine,
        &[
            "import",
            source.to_str().unwrap(),
            "--agent",
            "claude-code",
            "--json",
        ],
    );
    assert_eq!(status, Some(0), "{json}");
    assert_eq!(json["installed"][0]["name"], "pdf-tools");
    let listed = machine.list_json();
    let skill = listed["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "pdf-tools")
        .unwrap();
    assert_eq!(skill["state"], "intact");
    assert_eq!(skill["record"]["installed_by"], "skilldeck");
}

#[test]
fn a_file_swapped_for_a_link_while_the_folder_is_read_is_never_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let source = tmp.path().join("bundle");
    let spare = tmp.path().join("spare");
    fs::create_dir_all(source.join("demo")).unwrap();
    fs::create_dir_all(&spare).unwrap();
    fs::write(
        source.join("demo/SKILL.md"),
        crate::common::archive::skill_md("demo"),
    )
    .unwrap();
    fs::write(source.join("demo/a.md"), "regular").unwrap();
    fs::write(tmp.path().join("secret"), "secret").unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, source, spare, secret) = (
            Arc::clone(&stop),
            source.clone(),
            spare.clone(),
            tmp.path().join("secret"),
        );
        std::thread::spawn(move || {
            let target = source.join("demo/a.md");
            while !stop.load(Ordering::Relaxed) {
                std::os::unix::fs::symlink(&secret, spare.join("link")).unwrap();
                fs::rename(spare.join("link"), &target).unwrap();
                fs::write(spare.join("file"), "regular").unwrap();
                fs::rename(spare.join("file"), &target).unwrap();
            }
        })
    };
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..300 {
        match bundle::read(&source) {
            Ok(bundle) => {
                let file = bundle.skills[0]
                    .files
                    .iter()
                    .find(|f| f.path == "a.md")
                    .unwrap();
                assert_eq!(file.content, b"regular", "a link was followed");
                accepted += 1;
            }
            Err(refusal) => {
                assert_eq!(refusal.code(), "unsupported_entry", "{refusal}");
                assert!(refusal.to_string().contains("demo/a.md"), "{refusal}");
                refused += 1;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
    assert_eq!(accepted + refused, 300);
}
