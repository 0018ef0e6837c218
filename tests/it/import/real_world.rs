//! The two real skill repositories in `shared/real-world` (never committed): every skill they
//! hold is imported, byte for byte, and listed intact; importing again is an update; an edited
//! skill is a destination conflict until `--force`. And agent-skill-installer itself reads the
//! record skilldeck writes as its own program's.
//!
//! The archives are other people's, read from the folder `$SKILLDECK_REAL_WORLD` names
//! (`common::outside`). Without it the tests say so and pass, except under `CI=true`, where
//! they fail.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::common::{Installer, Machine, oracle_digest, snapshot};
use agent_skill_installer::{Found, Skill};
use serde_json::Value;

fn real_world(name: &str) -> Option<PathBuf> {
    crate::common::outside::real_world_archive(name, &format!("importing {name}"))
}

/// Every regular file of the archive, read with the tar crate (not skilldeck's reader), by
/// path, with its executable bit.
fn members(archive: &Path) -> BTreeMap<String, (Vec<u8>, bool)> {
    let file = std::fs::File::open(archive).unwrap();
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut found = BTreeMap::new();
    for entry in tar.entries().unwrap() {
        let mut entry = entry.unwrap();
        if entry.header().entry_type() != tar::EntryType::Regular {
            continue;
        }
        let path = String::from_utf8(entry.path_bytes().into_owned()).unwrap();
        let executable = entry.header().mode().unwrap() & 0o100 != 0;
        let mut content = Vec::new();
        entry.read_to_end(&mut content).unwrap();
        found.insert(path, (content, executable));
    }
    found
}

fn import(machine: &Machine, args: &[&str]) -> (Option<i32>, Value) {
    let output = machine.run(args);
    let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!("{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    });
    (output.status.code(), json)
}

fn actions(json: &Value) -> Vec<String> {
    let mut actions: Vec<String> = json["installed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["action"].as_str().unwrap().to_owned())
        .collect();
    actions.dedup();
    actions
}

fn check_repository(archive_name: &str, skills_dir: &str) {
    let Some(archive) = real_world(archive_name) else {
        return;
    };
    let machine = Machine::new();
    let archive_arg = archive.to_str().unwrap();
    let held = members(&archive);
    // Every skill the repository holds: each `<skills_dir>/<name>/SKILL.md`.
    let mut expected: Vec<String> = held
        .keys()
        .filter_map(|path| {
            let rest = path.strip_prefix(skills_dir)?;
            let (name, file) = rest.split_once('/')?;
            (file == "SKILL.md").then(|| name.to_owned())
        })
        .collect();
    expected.sort();
    assert!(expected.len() >= 10, "{expected:?}");

    let import_args = ["import", archive_arg, "--agent", "claude-code", "--json"];
    let (code, json) = import(&machine, &import_args);
    assert_eq!(code, Some(0), "{json}");
    let mut names: Vec<String> = json["installed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    assert_eq!(names, expected);
    assert_eq!(actions(&json), ["installed"]);

    // Every file byte for byte, modes 0644 or 0755 from the owner's execute bit, and a
    // record whose digest an independent implementation reproduces.
    let root = machine.home.join(".claude/skills");
    for name in &expected {
        let dir = root.join(name);
        let on_disk = snapshot(&dir);
        let prefix = format!("{skills_dir}{name}/");
        let from_archive: BTreeMap<&str, &(Vec<u8>, bool)> = held
            .iter()
            .filter_map(|(path, file)| Some((path.strip_prefix(&prefix)?, file)))
            .collect();
        let files: Vec<&String> = on_disk
            .iter()
            .filter(|(_, (kind, _, _))| kind == "file")
            .map(|(path, _)| path)
            .collect();
        assert_eq!(files.len(), from_archive.len(), "{name}");
        for (path, (content, executable)) in &from_archive {
            let (_, mode, installed) = &on_disk[*path];
            assert_eq!(
                mode & 0o7777,
                if *executable { 0o755 } else { 0o644 },
                "{name}/{path}"
            );
            if *path != "SKILL.md" {
                assert!(installed == content, "{name}/{path} differs");
            }
        }
        let manifest = std::fs::read(dir.join("SKILL.md")).unwrap();
        let record = skilldeck::record::parse(&manifest).unwrap();
        assert_eq!(record.content_digest, oracle_digest(&dir), "{name}");
    }

    let listed = machine.list_json();
    for name in &expected {
        let skill = listed["skills"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name.as_str())
            .unwrap_or_else(|| panic!("{name} not listed"));
        assert_eq!(skill["state"], "intact", "{name}");
        assert_eq!(skill["record"]["installed_by"], "skilldeck", "{name}");
    }

    // Again: unchanged, not a conflict.
    let (code, json) = import(&machine, &import_args);
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(actions(&json), ["unchanged"]);

    // Edit one: a conflict, and nothing changes, until --force.
    let edited = root.join(&expected[0]).join("SKILL.md");
    let text = std::fs::read_to_string(&edited).unwrap();
    std::fs::write(&edited, text + "\nA line of my own.\n").unwrap();
    let before = snapshot(&machine.root());
    let (code, json) = import(&machine, &import_args);
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(json["refused"]["code"], "destination_conflict");
    assert!(
        json["refused"]["message"]
            .as_str()
            .unwrap()
            .contains(&expected[0])
    );
    assert_eq!(snapshot(&machine.root()), before);

    let mut forced = import_args.to_vec();
    forced.push("--force");
    let (code, json) = import(&machine, &forced);
    assert_eq!(code, Some(0), "{json}");
    let replaced: Vec<&Value> = json["installed"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["action"] == "replaced")
        .collect();
    assert_eq!(replaced.len(), 1);
    assert_eq!(replaced[0]["name"], expected[0].as_str());
    let listed = machine.list_json();
    let states: Vec<&Value> = listed["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["state"])
        .collect();
    assert!(states.iter().all(|s| *s == "intact"), "{states:?}");
}

#[test]
fn anthropics_skills_imports_whole() {
    check_repository("anthropics-skills-main.tar.gz", "skills-main/skills/");
}

#[test]
fn superpowers_imports_whole() {
    check_repository("superpowers-main.tar.gz", "superpowers-main/skills/");
}

#[test]
fn agent_skill_installer_reads_skilldecks_record_as_its_own() {
    let machine = Machine::new();
    let source = machine.root().join("demo");
    crate::common::write_files(
        &source,
        &[
            (
                "SKILL.md",
                "---\nname: demo\ndescription: A demo.\nmetadata:\n  author: Jane \"JJ\" Doe\n  tags: a, b\n---\n# Demo\n",
            ),
            ("references/cli.md", "# CLI\n"),
        ],
    );
    let output = machine.run(&["import", source.to_str().unwrap(), "--agent", "claude-code"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let installer = Installer::for_claude(&machine.home, "skilldeck", "0.1.0");
    let skill = Skill::new("demo", "A demo.", "# Demo\n").unwrap();
    let version = semver::Version::new(0, 1, 0);
    assert_eq!(
        installer.found(&skill),
        Found::Ours {
            version: version.clone(),
            unmodified: true
        }
    );
    let installed = machine.home.join(".claude/skills/demo/SKILL.md");
    let text = std::fs::read_to_string(&installed).unwrap();
    assert!(
        text.contains("  author: \"Jane \\\"JJ\\\" Doe\"\n  tags: \"a, b\"\n"),
        "{text}"
    );
    std::fs::write(&installed, text.replace("# Demo", "# Demo, edited")).unwrap();
    assert_eq!(
        installer.found(&skill),
        Found::Ours {
            version,
            unmodified: false
        }
    );
    // Another program's installer sees someone else's skill.
    let other = Installer::for_claude(&machine.home, "other", "1.0.0");
    assert_eq!(
        other.found(&skill),
        Found::Foreign("was installed by skilldeck".to_owned())
    );
}
