//! The shared acceptance corpus (`tests/corpus`, copied from `shared/corpus`): `skilldeck
//! import --dry-run --json` gives every archive the outcome `expected.tsv` lists, and a real
//! import of every refused archive leaves the destination, and the whole machine, byte for byte
//! as it was.

use std::path::{Path, PathBuf};

use crate::common::{Machine, snapshot, write_skill};
use serde_json::Value;

/// One line of `expected.tsv`.
struct Expected {
    archive: PathBuf,
    accept: bool,
    /// The allowed codes of a refusal, or the files of skill `demo` (`*` = executable).
    words: Vec<String>,
}

fn corpus() -> Vec<Expected> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let table = std::fs::read_to_string(dir.join("expected.tsv")).unwrap();
    let expected: Vec<Expected> = table
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            Expected {
                archive: dir.join("archives").join(fields[0]),
                accept: fields[1] == "accept",
                words: fields[2].split(' ').map(str::to_owned).collect(),
            }
        })
        .collect();
    let archives = std::fs::read_dir(dir.join("archives")).unwrap().count();
    assert_eq!(
        expected.len(),
        archives,
        "every archive has an expected outcome"
    );
    expected
}

fn import(machine: &Machine, args: &[&str]) -> (Option<i32>, Value) {
    let output = machine.run(args);
    let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "{args:?} printed no JSON: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code(), json)
}

#[test]
fn every_archive_gets_its_expected_outcome() {
    let machine = Machine::new();
    for expected in corpus() {
        let name = expected
            .archive
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let archive = expected.archive.to_str().unwrap();
        let (code, json) = import(&machine, &["import", "--dry-run", "--json", archive]);
        if expected.accept {
            assert_eq!(code, Some(0), "{name}: {json}");
            let skills = json["skills"].as_array().unwrap();
            assert_eq!(skills.len(), 1, "{name}: {json}");
            assert_eq!(skills[0]["name"], "demo", "{name}");
            let mut files: Vec<String> = skills[0]["files"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    let star = if f["executable"] == true { "*" } else { "" };
                    format!("{}{star}", f["path"].as_str().unwrap())
                })
                .collect();
            files.sort();
            let mut wanted = expected.words.clone();
            wanted.sort();
            assert_eq!(files, wanted, "{name}");
        } else {
            assert_eq!(code, Some(1), "{name}: {json}");
            let refused = &json["refused"];
            let got = refused["code"].as_str().unwrap();
            assert!(
                expected.words.iter().any(|w| w == got),
                "{name}: refused with {got}, expected one of {:?}: {}",
                expected.words,
                refused["message"]
            );
            assert!(!refused["message"].as_str().unwrap().is_empty(), "{name}");
        }
    }
}

#[test]
fn a_refused_archive_writes_nothing_anywhere() {
    let machine = Machine::new();
    let claude = machine.home.join(".claude/skills");
    write_skill(&claude.join("demo"), &[("notes.md", "edited by hand")]);
    write_skill(&claude.join("other"), &[]);
    let elsewhere = machine.root().join("elsewhere");
    write_skill(&elsewhere.join("demo"), &[]);
    let before = snapshot(&machine.root());
    let mut refused = 0;
    for expected in corpus().into_iter().filter(|e| !e.accept) {
        let archive = expected.archive.to_str().unwrap();
        for destination in [
            vec!["--agent", "claude-code"],
            vec!["--to", elsewhere.to_str().unwrap(), "--force"],
        ] {
            let mut args = vec!["import", archive, "--json"];
            args.extend(destination);
            let (code, json) = import(&machine, &args);
            assert_eq!(code, Some(1), "{args:?}: {json}");
            assert!(json["refused"]["code"].is_string(), "{args:?}: {json}");
            assert_eq!(
                snapshot(&machine.root()),
                before,
                "{args:?} changed the machine"
            );
        }
        refused += 1;
    }
    assert_eq!(refused, 23);
}

#[test]
fn an_accepted_archive_installs_exactly_its_files() {
    let machine = Machine::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/archives");
    let archive = dir.join("Z01-skill-export.skill");
    let root = machine.root().join("skills");
    let (code, json) = import(
        &machine,
        &[
            "import",
            archive.to_str().unwrap(),
            "--to",
            root.to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(json["installed"][0]["action"], "installed");
    let installed = snapshot(&root.join("demo"));
    let listed: Vec<(&str, &str, u32)> = installed
        .iter()
        .map(|(path, (kind, mode, _))| (path.as_str(), kind.as_str(), mode & 0o7777))
        .collect();
    assert_eq!(
        listed,
        [
            ("SKILL.md", "file", 0o644),
            ("assets", "dir", 0o755),
            ("assets/logo.png", "file", 0o644),
            ("scripts", "dir", 0o755),
            ("scripts/run.sh", "file", 0o755),
        ]
    );
    // The PNG is byte for byte what the archive holds.
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&archive).unwrap()).unwrap();
    let mut original = Vec::new();
    std::io::Read::read_to_end(
        &mut zip.by_name("demo/assets/logo.png").unwrap(),
        &mut original,
    )
    .unwrap();
    assert_eq!(installed["assets/logo.png"].2, original);
}
