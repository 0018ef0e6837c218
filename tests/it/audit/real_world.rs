//! The real skill repositories of `shared/real-world` (other people's, never committed;
//! `$SKILLDECK_REAL_WORLD` names the folder) get no high finding: what they hold is what
//! skills written in good faith look like, so a high finding there is a rule to fix (or, if
//! it is real, something to report).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::Machine;

fn unpack(archive: &Path, into: &Path) {
    std::fs::create_dir_all(into).unwrap();
    let status = Command::new("tar")
        .arg("-xzf")
        .arg(archive)
        .arg("-C")
        .arg(into)
        .status()
        .unwrap();
    assert!(status.success(), "tar -xzf {}", archive.display());
}

#[test]
fn the_real_repositories_get_no_high_finding() {
    let mut archives = Vec::new();
    for name in ["anthropics-skills-main.tar.gz", "superpowers-main.tar.gz"] {
        let Some(archive) =
            crate::common::outside::real_world_archive(name, "auditing the real repositories")
        else {
            return;
        };
        archives.push(archive);
    }
    let machine = Machine::new();
    let mut folders = Vec::new();
    for (index, archive) in archives.iter().enumerate() {
        let into = machine.tmp.path().join(format!("r{index}"));
        unpack(archive, &into);
        for checkout in std::fs::read_dir(&into).unwrap() {
            folders.push(checkout.unwrap().path().join("skills"));
        }
    }
    let mut args = vec!["audit", "--format", "json"];
    args.extend(folders.iter().map(|f| f.to_str().unwrap()));
    let output = machine.run(&args);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let high: Vec<&Value> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "high")
        .collect();
    assert!(high.is_empty(), "{high:#?}");
    assert_eq!(output.status.code(), Some(0));
    // Every skill of both was read: anthropics/skills holds 17, superpowers 14.
    let stderr = String::from_utf8_lossy(&output.stderr);
    let audited: usize = stderr
        .lines()
        .last()
        .and_then(|line| line.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(audited >= 25, "{stderr}");
}
