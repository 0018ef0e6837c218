//! `skilldeck disable` and `enable` against the real agents: after `disable X --agent A` the
//! agent no longer offers X (Claude Code and Codex leave it out of the model's listing; Gemini
//! CLI and Copilot list it as disabled), after `enable` it does again, X's digest never
//! changes, and skilldeck's listing agrees with the agent at each step. Each case starts from
//! a settings file with unrelated keys (and comments where the agent accepts them), so the
//! agent is also the judge that what skilldeck wrote still parses.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Agent, Check, Lab, here};

/// Whether `agent`, started in the project, offers the skill `name`: in the model's listing
/// (Claude Code, Codex), or listed as enabled (Gemini CLI, Copilot).
fn offers(lab: &Lab, agent: Agent, name: &str) -> bool {
    match agent {
        Agent::GeminiCli => {
            let output = lab.run(agent, &lab.project, &["skills", "list", "--all"]);
            let stdout = String::from_utf8_lossy(&output.stdout);
            let line = stdout
                .lines()
                .find(|line| line.starts_with(&format!("{name} [")))
                .unwrap_or_else(|| {
                    panic!(
                        "gemini lists no {name}:\n{stdout}\n{}",
                        String::from_utf8_lossy(&output.stderr)
                    )
                });
            line.contains("[Enabled]")
        }
        Agent::Copilot => {
            let output = lab.run(agent, &lab.project, &["skill", "list", "--json"]);
            let json: Value = serde_json::from_slice(&output.stdout).expect("copilot JSON");
            let skill = json
                .as_array()
                .into_iter()
                .flatten()
                .find(|skill| skill["name"] == name)
                .unwrap_or_else(|| panic!("copilot lists no {name}: {json}"));
            skill["enabled"] != false
        }
        // `debug skill` lists a denied skill too; what its model is offered leaves it out.
        Agent::OpenCode => super::opencode::ask_offered(lab, &lab.project)
            .iter()
            .any(|loaded| loaded.name == name),
        _ => lab
            .ask(agent, &lab.project)
            .iter()
            .any(|loaded| loaded.name == name),
    }
}

/// Run skilldeck with the lab's home and environment, insisting that it succeeds.
fn skilldeck(lab: &Lab, args: &[&str]) -> String {
    let program = PathBuf::from(env!("CARGO_BIN_EXE_skilldeck"));
    let output = lab
        .command(&program, &lab.project)
        .args(args)
        .output()
        .expect("run skilldeck");
    assert!(
        output.status.success(),
        "skilldeck {args:?} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The skill at `dir` as skilldeck lists it.
fn listed(lab: &Lab, dir: &Path) -> Value {
    let json = lab.skilldeck_json(&lab.project);
    let want = dir.canonicalize().unwrap();
    json["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|skill| Path::new(skill["real_dir"].as_str().unwrap_or_default()) == want)
        .cloned()
        .unwrap_or_else(|| panic!("skilldeck does not list {}", dir.display()))
}

/// Disable `name` (at `dir`) for `agent`, then enable it, asking the agent and skilldeck at
/// each step; `settings` is the file the setting lands in, whose `keep` text must survive.
fn round_trip(lab: &Lab, test: &str, agent: Agent, dir: &Path, settings: &Path, keep: &[&str]) {
    let name = dir.file_name().unwrap().to_str().unwrap();
    let agents = [agent];
    let digest = listed(lab, dir)["digest"].clone();
    assert!(offers(lab, agent, name), "{name} is offered before");
    lab.check(Check::new(
        test,
        "switch (before)",
        &agents,
        &[&lab.project],
    ));

    let said = skilldeck(lab, &["disable", name, "--agent", agent.id()]);
    assert!(said.contains("skilldeck undo"), "{said}");
    let text = std::fs::read_to_string(settings).unwrap();
    for kept in keep {
        assert!(text.contains(kept), "{kept:?} went from:\n{text}");
    }
    assert!(
        !offers(lab, agent, name),
        "{name} still offered after disable:\n{text}"
    );
    let skill = listed(lab, dir);
    assert_eq!(skill["digest"], digest);
    assert!(
        skill["disabled_for"]
            .as_array()
            .is_some_and(|ids| ids.iter().any(|id| id == agent.id())),
        "skilldeck does not say {name} is disabled for {}: {skill}",
        agent.id()
    );
    lab.check(Check::new(
        test,
        "switch (disabled)",
        &agents,
        &[&lab.project],
    ));

    skilldeck(lab, &["enable", name, "--agent", agent.id()]);
    assert!(offers(lab, agent, name), "{name} not offered after enable");
    let skill = listed(lab, dir);
    assert_eq!(skill["digest"], digest);
    assert_eq!(skill["disabled_for"], Value::Array(Vec::new()));
    lab.check(Check::new(
        test,
        "switch (enabled again)",
        &agents,
        &[&lab.project],
    ));
}

#[test]
fn switch_claude_code_user_settings() {
    let Some(lab) = Lab::new() else { return };
    let dir = lab.home.join(".claude/skills/switched");
    lab.named(&dir);
    lab.named(&lab.home.join(".claude/skills/bystander"));
    let settings = lab.home.join(".claude/settings.json");
    lab.file(
        &settings,
        "{\n      \"skillOverrides\": {\"bystander\": \"on\"},\n      \"includeCoAuthoredBy\": false,\n      \"env\": {\"KEEP_ME\": \"1\"}\n}\n",
    );
    round_trip(
        &lab,
        here!(),
        Agent::ClaudeCode,
        &dir,
        &settings,
        &[
            "\"includeCoAuthoredBy\": false",
            "{\"KEEP_ME\": \"1\"}",
            "\"bystander\": \"on\"",
        ],
    );
}

#[test]
fn switch_codex_config_toml() {
    let Some(lab) = Lab::new() else { return };
    lab.warm(&[Agent::Codex]);
    let dir = lab.home.join(".agents/skills/switched");
    lab.named(&dir);
    lab.named(&lab.home.join(".agents/skills/bystander"));
    let settings = lab.home.join(".codex/config.toml");
    let mut text = std::fs::read_to_string(&settings).unwrap_or_default();
    text.push_str(
        "\n# the user's own notes\n[[skills.config]]\nname = \"bystander\" # stays on\nenabled = true\n",
    );
    lab.file(&settings, &text);
    round_trip(
        &lab,
        here!(),
        Agent::Codex,
        &dir,
        &settings,
        &["# the user's own notes", "name = \"bystander\" # stays on"],
    );
}

#[test]
fn switch_gemini_cli_user_settings_with_comments() {
    let Some(lab) = Lab::new() else { return };
    let dir = lab.home.join(".gemini/skills/switched");
    lab.named(&dir);
    lab.named(&lab.home.join(".gemini/skills/bystander"));
    let settings = lab.home.join(".gemini/settings.json");
    lab.file(
        &settings,
        // Comments, which Gemini CLI strips; not trailing commas, which it refuses.
        "{\n  // the user's own\n  \"ui\": {\"hideTips\": true},\n  \"skills\": {\n    /* none yet */\n    \"disabled\": []\n  }\n}\n",
    );
    round_trip(
        &lab,
        here!(),
        Agent::GeminiCli,
        &dir,
        &settings,
        &["// the user's own", "\"ui\": {\"hideTips\": true}"],
    );
}

#[test]
fn switch_copilot_user_settings() {
    let Some(lab) = Lab::new() else { return };
    lab.warm(&[Agent::Copilot]);
    let dir = lab.home.join(".copilot/skills/switched");
    lab.named(&dir);
    lab.named(&lab.home.join(".copilot/skills/bystander"));
    let settings = lab.home.join(".copilot/settings.json");
    let mut text = std::fs::read_to_string(&settings).unwrap_or_default();
    if text.trim().is_empty() {
        text = "{\n  \"theme\": \"dark\"\n}\n".into();
    }
    lab.file(&settings, &text);
    let keep: Vec<String> = text
        .lines()
        .filter(|l| l.contains(':'))
        .map(|l| l.trim().trim_end_matches(',').to_owned())
        .collect();
    let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
    round_trip(&lab, here!(), Agent::Copilot, &dir, &settings, &keep);
}

/// The config starts with `$schema`: OpenCode writes one into a config that lacks it on every
/// run, which would be a change made after skilldeck's (and so stop its undo).
#[test]
fn switch_opencode_global_config_with_comments() {
    let Some(lab) = Lab::new() else { return };
    let dir = lab.home.join(".config/opencode/skills/switched");
    lab.named(&dir);
    lab.named(&lab.home.join(".config/opencode/skills/bystander"));
    let settings = lab.home.join(".config/opencode/opencode.jsonc");
    lab.file(
        &settings,
        "{\n  // the user's own\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"permission\": {\"skill\": \"allow\", \"bash\": \"ask\"},\n}\n",
    );
    round_trip(
        &lab,
        here!(),
        Agent::OpenCode,
        &dir,
        &settings,
        &["// the user's own", "\"bash\": \"ask\""],
    );
}
