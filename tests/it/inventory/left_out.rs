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

/// Gemini CLI installed, and a project it does not trust holding `names` in `.agents/skills`.
fn untrusted_project(names: &[&str]) -> Machine {
    let machine = Machine::new();
    std::fs::create_dir_all(machine.home.join(".gemini")).unwrap();
    for name in names {
        // Gemini CLI's workspace is the folder it starts in.
        write_skill(&machine.start.join(".agents/skills").join(name), &[]);
    }
    machine
}

#[test]
fn a_note_many_skills_share_is_said_once_with_how_many_it_is_about() {
    let names = ["a1", "a2", "a3", "a4", "a5", "a6", "a7"];
    let machine = untrusted_project(&names);
    let output = machine.run_expecting(&["list"], 0);
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        text.matches("does not trust this folder").count(),
        1,
        "said once:\n{text}"
    );
    assert!(
        text.contains("Not loaded by gemini-cli, 7 skills (a1, a2, a3, a4, a5 and 2 more): Gemini CLI does not trust this folder"),
        "{text}"
    );
    // No skill keeps a detail block for that note alone.
    assert!(!text.contains("a1 ("), "{text}");
    // A note only one skill carries stays under that skill.
    let one = untrusted_project(&["solo"]);
    let text = String::from_utf8(one.run_expecting(&["list"], 0).stdout).unwrap();
    assert!(
        text.contains("  not loaded by gemini-cli: Gemini CLI does not trust this folder"),
        "{text}"
    );
    // A trusted folder: no note at all.
    let trusted = machine
        .command(&["list"])
        .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
        .output()
        .unwrap();
    let text = String::from_utf8(trusted.stdout).unwrap();
    assert!(!text.contains("does not trust"), "{text}");
}

#[test]
fn with_agent_only_that_agents_shadowing_and_notes_are_told() {
    let machine = Machine::new();
    let home = &machine.home;
    for agent in [".codex", ".copilot"] {
        std::fs::create_dir_all(home.join(agent)).unwrap();
    }
    // Copilot reads both folders and runs its own folder's `dup`; Codex reads only the first.
    write_skill(&home.join(".agents/skills/dup"), &[]);
    write_skill(&home.join(".copilot/skills/dup"), &[]);
    let all = String::from_utf8(machine.run_expecting(&["list"], 0).stdout).unwrap();
    assert!(all.contains("(shadowed)"), "{all}");
    let codex = String::from_utf8(
        machine
            .run_expecting(&["list", "--agent", "codex"], 0)
            .stdout,
    )
    .unwrap();
    assert!(!codex.contains("(shadowed)"), "{codex}");
    assert!(!codex.contains("shadowed for copilot"), "{codex}");
    assert!(codex.contains("0 shadowed"), "{codex}");
    let copilot = String::from_utf8(
        machine
            .run_expecting(&["list", "--agent", "copilot"], 0)
            .stdout,
    )
    .unwrap();
    assert!(copilot.contains("dup (shadowed)"), "{copilot}");
    assert!(copilot.contains("shadowed for copilot by"), "{copilot}");
}
