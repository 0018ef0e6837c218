//! The managing commands on a throw-away machine: `remove`, `link`, `copy`, `move`, `undo`,
//! `export` and `prune` run as the real binary, and the journalled operations under them. Every refusal must leave the whole machine (roots, snapshot store,
//! journal) byte for byte as it was, and every undo must bring back exactly what was there:
//! both are checked against a picture of the whole temporary tree.

mod export_redaction;
mod journal_trust;
mod kills;
mod operations;
mod prune;
mod remove;
mod share;
mod swap_ahead;
mod undo;
mod write_ahead;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Output;

use crate::common::Machine;

/// Every path below `root`, with what it is: a folder with its mode, a file with its mode and
/// bytes, a link with its target.
pub fn tree(root: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for entry in walkdir::WalkDir::new(root).follow_links(false).min_depth(1) {
        let entry = entry.unwrap();
        let rel = entry
            .path()
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let meta = entry.path().symlink_metadata().unwrap();
        #[cfg(unix)]
        let mode = {
            use std::os::unix::fs::PermissionsExt;
            meta.permissions().mode() & 0o7777
        };
        // Elsewhere a file has no mode bits, only a read-only flag.
        #[cfg(not(unix))]
        let mode = if meta.permissions().readonly() {
            0o444
        } else {
            0o644
        };
        let what = if meta.file_type().is_symlink() {
            format!("link -> {}", fs::read_link(entry.path()).unwrap().display())
        } else if meta.is_dir() {
            format!("dir {mode:o}")
        } else {
            format!(
                "file {mode:o} {}",
                crate::common::hex(&<sha2::Sha256 as sha2::Digest>::digest(
                    fs::read(entry.path()).unwrap()
                ))
            )
        };
        out.insert(rel, what);
    }
    out
}

/// The tree below `root` without skilldeck's data folder (snapshots and journal) and without
/// empty folders (a skills folder an operation created stays, empty, after its undo), for
/// comparing skill folders before an operation and after its undo.
pub fn skills_tree(machine: &Machine) -> BTreeMap<String, String> {
    let all: BTreeMap<String, String> = tree(&machine.root())
        .into_iter()
        .filter(|(path, _)| !path.starts_with("home/.local"))
        .collect();
    let holds_something = |dir: &str| {
        all.iter()
            .any(|(other, what)| !what.starts_with("dir") && other.starts_with(&format!("{dir}/")))
    };
    all.iter()
        .filter(|(path, what)| !what.starts_with("dir") || holds_something(path))
        .map(|(path, what)| (path.clone(), what.clone()))
        .collect()
}

/// Run `args`, insist on `code`, and insist that nothing below the machine changed.
pub fn refused_changing_nothing(machine: &Machine, args: &[&str], code: i32) -> Output {
    let before = tree(&machine.root());
    let output = machine.run_expecting(args, code);
    assert_eq!(
        before,
        tree(&machine.root()),
        "{args:?} changed the machine although it was refused"
    );
    output
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The output parsed as JSON.
pub fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(output)))
}

/// The agents `list --json` says load the skill at `dir`; none when it is not listed.
pub fn agents_of(machine: &Machine, dir: &Path) -> Vec<String> {
    let output = machine.run_expecting(&["list", "--json", "--all-agents"], 0);
    let list = json(&output);
    list["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["dir"] == dir.to_str().unwrap())
        .flat_map(|s| s["agents"].as_array().unwrap().clone())
        .map(|a| a.as_str().unwrap().to_owned())
        .collect()
}

/// A skill with an executable script and a nested file, named after its folder.
pub fn rich_skill(dir: &Path) {
    crate::common::write_skill(
        dir,
        &[
            ("notes/a.md", "a note\n"),
            ("scripts/run.sh", "#!/bin/sh\necho hi\n"),
        ],
    );
    // Only Unix has an executable bit to keep.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(
            dir.join("scripts/run.sh"),
            fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
}
