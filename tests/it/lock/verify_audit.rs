//! `skilldeck verify --fail-on SEVERITY`: the skills a lock names are audited too, each finding
//! at or above the severity a finding of the verification (its audit rule, file and line) in
//! every format, exiting 1; without the flag nothing is audited; a skill the lock does not name
//! is not audited (it is already a finding: unlocked); and nothing is written.

use std::fs;

use serde_json::Value;

use super::command::project;
use crate::common::{Machine, copy_corpus};

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The lock command's project, with a high-risk skill and a medium-risk one of the corpus
/// locked beside its own.
fn locked_risky_project() -> Machine {
    let machine = Machine::new();
    project(&machine);
    let skills = machine.repo.join(".claude/skills");
    copy_corpus("risky", "curl-pipe-sh", &skills.join("curl-pipe-sh"));
    copy_corpus(
        "risky",
        "git-credential-fill",
        &skills.join("git-credential-fill"),
    );
    machine.run_expecting(&["lock"], 0);
    machine
}

#[test]
fn the_locked_skills_findings_at_or_above_the_level_fail_verify_in_every_format() {
    let machine = locked_risky_project();
    let lock = fs::read(machine.repo.join("skills-lock.json")).unwrap();
    // Without --fail-on, verify is what it was: the lock holds, clean.
    machine.run_expecting(&["verify"], 0);

    let text = stdout(&machine.run_expecting(&["verify", "--fail-on", "high"], 1));
    assert!(
        text.contains(
            "remote-pipe-to-shell: curl-pipe-sh in .claude/skills/curl-pipe-sh: SKILL.md:13 remote-pipe-to-shell (high): "
        ),
        "{text}"
    );
    assert!(!text.contains("git-credential-fill in"), "{text}");
    assert!(text.contains("1 finding"), "{text}");

    let json = machine.run_json(&["verify", "--format", "json", "--fail-on", "medium"], 1);
    assert_eq!(json["clean"], false);
    let findings = json["findings"].as_array().unwrap();
    let of = |skill: &str| {
        findings
            .iter()
            .find(|f| f["skill"] == skill)
            .unwrap_or_else(|| panic!("{skill}: {json}"))
    };
    assert_eq!(of("curl-pipe-sh")["severity"], "high");
    assert_eq!(
        of("curl-pipe-sh")["file"],
        ".claude/skills/curl-pipe-sh/SKILL.md"
    );
    assert_eq!(of("curl-pipe-sh")["line"], 13);
    let medium = of("git-credential-fill");
    assert_eq!(medium["severity"], "medium");
    assert!(
        medium["file"]
            .as_str()
            .unwrap()
            .starts_with(".claude/skills/git-credential-fill/scripts/token.sh"),
        "{medium}"
    );

    let sarif: Value = machine.run_json(&["verify", "--format", "sarif", "--fail-on", "medium"], 1);
    let run = &sarif["runs"][0];
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    for result in run["results"].as_array().unwrap() {
        let id = result["ruleId"].as_str().unwrap();
        assert!(rules.contains(&id), "{id} is not among the driver's rules");
    }
    let levels: Vec<&str> = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["level"].as_str().unwrap())
        .collect();
    assert!(
        levels.contains(&"error") && levels.contains(&"warning"),
        "{levels:?}"
    );

    let github =
        stdout(&machine.run_expecting(&["verify", "--format", "github", "--fail-on", "medium"], 1));
    assert!(
        github.lines().any(|l| l.starts_with(
            "::error file=.claude/skills/curl-pipe-sh/SKILL.md,line=13,title=remote-pipe-to-shell::"
        )),
        "{github}"
    );
    assert!(
        github
            .lines()
            .any(|l| l.starts_with("::warning file=.claude/skills/git-credential-fill/")),
        "{github}"
    );

    // Read-only: the lock is as it was.
    assert_eq!(
        fs::read(machine.repo.join("skills-lock.json")).unwrap(),
        lock
    );
}

#[test]
fn a_skill_the_lock_does_not_name_is_unlocked_not_audited() {
    let machine = Machine::new();
    project(&machine);
    machine.run_expecting(&["lock"], 0);
    copy_corpus(
        "risky",
        "curl-pipe-sh",
        &machine.repo.join(".claude/skills/curl-pipe-sh"),
    );
    let text = stdout(&machine.run_expecting(&["verify", "--fail-on", "low"], 1));
    assert!(text.contains("skill-unlocked: curl-pipe-sh"), "{text}");
    assert!(!text.contains("remote-pipe-to-shell"), "{text}");
    // The locked skills hold nothing the audit finds even at low: one finding only.
    assert!(text.contains(", 1 finding"), "{text}");
}
