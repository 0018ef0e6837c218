//! `skilldeck verify`: a project against its lock, in every format, with its exit codes.

use std::fs;

use serde_json::Value;

use super::command::project;
use crate::common::{Machine, write_files, write_skill};

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_clean_project_passes_and_each_kind_of_drift_is_named_in_every_format() {
    let machine = Machine::new();
    project(&machine);
    machine.run_expecting(&["lock"], 0);
    let clean = machine.run_expecting(&["verify"], 0);
    assert!(
        stdout(&clean).contains("2 locked skills, 0 findings"),
        "{}",
        stdout(&clean)
    );
    assert_eq!(
        machine
            .run_expecting(&["verify", "--format", "github"], 0)
            .stdout,
        b""
    );

    // An edited file of the git skill (whose installed content a snapshot keeps), a local
    // skill gone, and a skill the lock does not name.
    write_files(
        &machine.repo.join(".agents/skills/alpha"),
        &[("scripts/run.sh", "rm -rf /\n")],
    );
    fs::remove_dir_all(machine.repo.join(".claude/skills/team-notes")).unwrap();
    write_skill(&machine.repo.join(".agents/skills/newbie"), &[]);

    let text = stdout(&machine.run_expecting(&["verify"], 1));
    assert!(
        text.contains("skill-differs: alpha in .agents/skills/alpha: scripts/run.sh differs"),
        "{text}"
    );
    assert!(
        text.contains("skill-missing: team-notes is in skills-lock.json"),
        "{text}"
    );
    assert!(
        text.contains("skill-unlocked: newbie in .agents/skills/newbie is not in skills-lock.json"),
        "{text}"
    );
    assert!(text.contains("3 findings"), "{text}");

    let json = machine.run_json(&["verify", "--format", "json"], 1);
    assert_eq!(json["clean"], false);
    let rules: Vec<&str> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["skill-differs", "skill-missing", "skill-unlocked"]);
    assert_eq!(json["findings"][0]["differing_file"], "scripts/run.sh");
    assert_eq!(
        json["findings"][0]["file"],
        ".agents/skills/alpha/scripts/run.sh"
    );
    assert_eq!(json["findings"][1]["file"], "skills-lock.json");
    assert!(
        json["findings"][1]["line"].as_u64().unwrap() > 1,
        "the entry's line"
    );

    let sarif: Value = machine.run_json(&["verify", "--format", "sarif"], 1);
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(
        sarif["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    let run = &sarif["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "skilldeck");
    let rule_ids: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    for result in run["results"].as_array().unwrap() {
        assert!(rule_ids.contains(&result["ruleId"].as_str().unwrap()));
        assert_eq!(result["level"], "error");
        assert!(!result["message"]["text"].as_str().unwrap().is_empty());
        let location = &result["locations"][0]["physicalLocation"];
        let uri = location["artifactLocation"]["uri"].as_str().unwrap();
        assert!(!uri.starts_with('/'), "relative to the repository: {uri}");
        assert!(location["region"]["startLine"].as_u64().unwrap() >= 1);
    }
    assert_eq!(run["results"].as_array().unwrap().len(), 3);

    let github = stdout(&machine.run_expecting(&["verify", "--format", "github"], 1));
    let lines: Vec<&str> = github.lines().collect();
    assert_eq!(lines.len(), 3, "{github}");
    assert!(
        lines[0].starts_with(
            "::error file=.agents/skills/alpha/scripts/run.sh,line=1,title=skill-differs::alpha in"
        ),
        "{github}"
    );
    assert!(
        lines[1].starts_with("::error file=skills-lock.json,line="),
        "{github}"
    );
    // Read-only: the lock is as it was.
    assert!(
        fs::read_to_string(machine.repo.join("skills-lock.json"))
            .unwrap()
            .contains("team-notes")
    );
}

#[test]
fn an_edit_without_a_kept_copy_is_still_caught_and_the_agents_are_named() {
    let machine = Machine::new();
    write_skill(&machine.repo.join(".claude/skills/solo"), &[("a.md", "a")]);
    machine.run_expecting(&["lock"], 0);
    write_files(&machine.repo.join(".claude/skills/solo"), &[("a.md", "b")]);
    let text = stdout(&machine.run_expecting(&["verify"], 1));
    assert!(
        text.contains("solo in .claude/skills/solo: its files do not hash"),
        "{text}"
    );
    assert!(text.contains("loaded by"), "{text}");
}

#[test]
fn no_lock_or_a_hostile_one_is_could_not_check() {
    let machine = Machine::new();
    write_skill(&machine.repo.join(".agents/skills/a"), &[]);
    let output = machine.run_expecting(&["verify"], 2);
    assert!(String::from_utf8_lossy(&output.stderr).contains("no skills-lock.json"));
    fs::write(
        machine.repo.join("skills-lock.json"),
        r#"{"version":1,"skills":{"a":{"source":"-oProxyCommand=x","sourceType":"git","computedHash":"00"}}}"#,
    )
    .unwrap();
    let output = machine.run_expecting(&["verify", "--format", "sarif"], 2);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("could not check") && stderr.contains("option"),
        "{stderr}"
    );
}

/// The same skill committed for two agents (`.agents/skills` for Codex, `.claude/skills` for
/// Claude Code) is one entry; each copy is verified; copies that differ cannot be locked.
#[test]
fn copies_of_one_skill_for_several_agents_are_one_entry_each_copy_verified() {
    let machine = Machine::new();
    for root in [".agents/skills", ".claude/skills"] {
        write_skill(&machine.repo.join(root).join("shared"), &[("a.md", "a")]);
    }
    machine.run_expecting(&["lock"], 0);
    let lock: Value =
        serde_json::from_slice(&fs::read(machine.repo.join("skills-lock.json")).unwrap()).unwrap();
    assert_eq!(lock["skills"].as_object().unwrap().len(), 1);
    machine.run_expecting(&["verify"], 0);
    write_files(
        &machine.repo.join(".claude/skills/shared"),
        &[("a.md", "b")],
    );
    let text = stdout(&machine.run_expecting(&["verify"], 1));
    assert!(
        text.contains("shared in .claude/skills/shared: its files do not hash"),
        "{text}"
    );
    assert!(!text.contains(".agents/skills/shared:"), "{text}");
    let before = fs::read(machine.repo.join("skills-lock.json")).unwrap();
    let refused = machine.run_expecting(&["lock"], 1);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("hold different files") && stderr.contains("nothing written"),
        "{stderr}"
    );
    assert_eq!(
        fs::read(machine.repo.join("skills-lock.json")).unwrap(),
        before
    );
}
