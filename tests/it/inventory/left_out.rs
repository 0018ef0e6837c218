//! What an agent leaves out though it reads the folder — a skill it drops, one it keeps from
//! its model, one its settings turn off, copies it picks between — and the skills it ships
//! built in: said on the command line, in the JSON and in the app's detail.

use serde_json::Value;

use crate::common::{Machine, listed, write_skill};
use skilldeck::roots;
use skilldeck::tui::app::Setup;
use skilldeck::tui::headless::Headless;

fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Codex and Amp installed; a skill without frontmatter, one Codex's policy file keeps from its
/// model, one its config turns off, and two same-name copies OpenCode picks between.
fn machine() -> Machine {
    let machine = Machine::new();
    let home = &machine.home;
    std::fs::create_dir_all(home.join(".config/amp")).unwrap();
    std::fs::create_dir_all(home.join(".config/opencode")).unwrap();
    write(
        &home.join(".agents/skills/bare/SKILL.md"),
        "no frontmatter here\n",
    );
    write_skill(
        &home.join(".agents/skills/quiet"),
        &[(
            "agents/openai.yaml",
            "policy:\n  allow_implicit_invocation: false\n",
        )],
    );
    write_skill(&home.join(".agents/skills/switched"), &[]);
    write(
        &home.join(".codex/config.toml"),
        "[[skills.config]]\nname = \"switched\"\nenabled = false\n",
    );
    // Gemini CLI matches its names whatever their case.
    write(
        &home.join(".gemini/settings.json"),
        r#"{"skills": {"disabled": ["SWITCHED"]}}"#,
    );
    write(
        &home.join(".copilot/settings.json"),
        r#"{"disabledSkills": ["switched"]}"#,
    );
    write_skill(&home.join(".config/opencode/skills/twice"), &[]);
    write_skill(&home.join(".claude/skills/twice"), &[]);
    machine
}

fn effects(skill: &Value, agent: &str) -> Vec<String> {
    skill["left_out"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["agent"] == agent)
        .map(|l| l["effect"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn each_way_an_agent_leaves_a_skill_out_is_in_the_json() {
    let machine = machine();
    let output = machine.run_expecting(&["list", "--json"], 0);
    let listing: Value = serde_json::from_slice(&output.stdout).unwrap();
    let bare = listed(&listing, "bare");
    assert_eq!(effects(bare, "codex"), ["dropped"]);
    assert_eq!(effects(bare, "amp"), ["dropped"]);
    assert!(
        !bare["agents"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "codex")
    );
    let quiet = listed(&listing, "quiet");
    assert_eq!(effects(quiet, "codex"), ["from-model"]);
    assert!(
        quiet["agents"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "codex")
    );
    let switched = listed(&listing, "switched");
    for agent in ["codex", "gemini-cli", "copilot"] {
        assert_eq!(effects(switched, agent), ["disabled"], "{agent}");
    }
    let twice: Vec<&Value> = listing["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["name"] == "twice")
        .collect();
    assert_eq!(twice.len(), 2);
    for copy in twice {
        assert_eq!(copy["unsettled_for"], serde_json::json!(["opencode"]));
    }
    let amp_builtins = listing["builtin"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["agent"] == "amp")
        .count();
    assert_eq!(amp_builtins, 13);
}

#[test]
fn the_table_says_who_leaves_what_out_and_counts_the_built_ins() {
    let machine = machine();
    let output = machine.run_expecting(&["list"], 0);
    let text = String::from_utf8(output.stdout).unwrap();
    for line in [
        "not loaded by codex: its SKILL.md has no frontmatter it can read",
        "kept from the model by codex: agents/openai.yaml sets policy.allow_implicit_invocation: false",
        "turned off for codex: [[skills.config]] in Codex's config.toml sets enabled = false",
        "opencode loads one copy of this name, not always the same",
        "Built into the agents, in no folder: claude-code 13, opencode 1, gemini-cli 2, copilot 2, amp 13",
    ] {
        assert!(text.contains(line), "{line:?} in\n{text}");
    }
}

#[test]
fn the_detail_pane_says_it_too() {
    let machine = machine();
    let on = roots::Machine::sandbox(&machine.home, &machine.system, &machine.start);
    let mut screen = Headless::open(on, Setup::default(), (140, 40)).unwrap();
    // The list is sorted by name: bare comes first.
    let text = screen.text();
    assert!(text.contains("Left out"), "{text}");
    assert!(text.contains("codex does not load it"), "{text}");
    screen.press("j").unwrap();
    let text = screen.text();
    assert!(text.contains("codex keeps it from its model"), "{text}");
}
