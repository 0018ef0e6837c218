//! Codex 0.171.0's skill budget: `codex debug prompt-input` shows the `<skills_instructions>`
//! block Codex builds under its budget, and `skilldeck context --agent codex --json` must say,
//! for every skill, exactly how many characters of its description the model is shown (all,
//! some, none) and which skills are left out. Each case states the context window it assumes:
//! `model_context_window` in `config.toml` (which Codex reads, `codex-rs/core/src/config`) or,
//! for the default case, the default model `gpt-6.2-sol`'s 500,000 tokens from the catalog
//! Codex 0.171.0 carries.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Agent, Lab, strings};

const ME: &[Agent] = &[Agent::Codex];

/// Per skill name: the description characters shown, or `None` when the skill is left out.
pub type Shown = BTreeMap<String, Option<usize>>;

/// What `skilldeck context --json --agent AGENT` says the model is shown, started in `cwd`.
pub fn claimed(lab: &Lab, cwd: &Path, agent: Agent) -> (Shown, Value) {
    let program = PathBuf::from(env!("CARGO_BIN_EXE_skilldeck"));
    let output = lab
        .command(&program, cwd)
        .args(["context", "--json", "--agent", agent.id()])
        .output()
        .expect("run skilldeck");
    assert!(
        output.status.success(),
        "skilldeck context failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).expect("context prints JSON");
    let listing = json["agents"][0].clone();
    let shown = listing["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .map(|skill| {
            let name = skill["name"].as_str().expect("name").to_owned();
            let chars = match skill["listed"].as_str() {
                Some("omitted") => None,
                _ => Some(skill["description_shown"].as_u64().expect("shown") as usize),
            };
            (name, chars)
        })
        .collect();
    (shown, listing)
}

/// What Codex shows its model: each skill line's description length; skills it left out are
/// missing, so every name skilldeck knows and Codex does not list is `None`.
fn asked(lab: &Lab, cwd: &Path, names: impl Iterator<Item = String>) -> Shown {
    let output = lab.run(Agent::Codex, cwd, &["debug", "prompt-input"]);
    assert!(
        output.status.success(),
        "codex debug prompt-input failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).expect("codex prints JSON");
    let mut texts = Vec::new();
    strings(&json, &mut texts);
    let text = texts
        .iter()
        .find(|t| t.contains("<skills_instructions>"))
        .expect("a skills block");
    let mut shown: Shown = names.map(|name| (name, None)).collect();
    for line in text.lines() {
        let Some(row) = line.strip_prefix("- ") else {
            continue;
        };
        let Some(at) = row.rfind(" (file: ") else {
            continue;
        };
        let Some((name, description)) = row[..at].split_once(':') else {
            continue;
        };
        let chars = description.strip_prefix(' ').unwrap_or("").chars().count();
        shown.insert(name.to_owned(), Some(chars));
    }
    shown
}

fn fixture(lab: &Lab) {
    let skills = lab.project.join(".agents/skills");
    for (name, length) in [("alpha", 300), ("beta", 12), ("gamma", 90), ("delta", 700)] {
        lab.file(
            &skills.join(name).join("SKILL.md"),
            &format!(
                "---\nname: {name}\ndescription: {}\n---\nbody\n",
                "x".repeat(length)
            ),
        );
    }
}

fn window(lab: &Lab, tokens: u64) {
    lab.file(
        &lab.home.join(".codex/config.toml"),
        &format!("model_context_window = {tokens}\n"),
    );
}

fn agree(lab: &Lab, expect: &str) {
    let (claimed, listing) = claimed(lab, &lab.project, Agent::Codex);
    let asked = asked(lab, &lab.project, claimed.keys().cloned());
    assert_eq!(
        claimed, asked,
        "skilldeck (left) and Codex (right) disagree on what the model is shown; skilldeck said {listing:#}"
    );
    let listed: Vec<&str> = listing["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["listed"].as_str())
        .collect();
    assert!(
        listed.contains(&expect),
        "the case should have a skill {expect}: {listed:?}"
    );
}

/// Model context 100,000 tokens (budget 2,000 tokens): everything fits.
#[test]
fn codex_listing_under_budget_is_full() {
    let Some(lab) = Lab::new() else { return };
    fixture(&lab);
    window(&lab, 100_000);
    lab.warm(ME);
    agree(&lab, "full");
}

/// Model context 12,000 tokens (budget 240 tokens): descriptions shortened, all skills kept.
#[test]
fn codex_listing_shortens_descriptions_over_budget() {
    let Some(lab) = Lab::new() else { return };
    fixture(&lab);
    window(&lab, 12_000);
    lab.warm(ME);
    agree(&lab, "shortened");
}

/// Model context 3,000 tokens (budget 60 tokens): no descriptions, and skills omitted.
#[test]
fn codex_listing_omits_skills_far_over_budget() {
    let Some(lab) = Lab::new() else { return };
    fixture(&lab);
    window(&lab, 3_000);
    lab.warm(ME);
    agree(&lab, "omitted");
}

/// No `model_context_window`: the default model gpt-6.2-sol, 500,000 tokens (budget 10,000
/// tokens, about 40,000 bytes), overrun by 30 skills of 1,400 characters.
#[test]
fn codex_listing_at_the_default_model_budget() {
    let Some(lab) = Lab::new() else { return };
    let skills = lab.project.join(".agents/skills");
    for i in 0..30 {
        lab.file(
            &skills.join(format!("s{i:02}")).join("SKILL.md"),
            &format!(
                "---\nname: s{i:02}\ndescription: {}\n---\nbody\n",
                "d".repeat(1_400)
            ),
        );
    }
    lab.warm(ME);
    agree(&lab, "shortened");
}

/// Model context 12,000 tokens with `delta` turned off (`[[skills.config]]` enabled = false):
/// it is out of the listing and the others share its room.
#[test]
fn codex_listing_leaves_a_skill_turned_off_out_of_the_budget() {
    let Some(lab) = Lab::new() else { return };
    fixture(&lab);
    let delta = lab.project.join(".agents/skills/delta/SKILL.md");
    lab.file(
        &lab.home.join(".codex/config.toml"),
        &format!(
            "model_context_window = 12000\n\n[[skills.config]]\npath = \"{}\"\nenabled = false\n",
            delta.display()
        ),
    );
    lab.warm(ME);
    let (claimed, _) = claimed(&lab, &lab.project, Agent::Codex);
    assert!(!claimed.contains_key("delta"), "{claimed:?}");
    agree(&lab, "shortened");
}
