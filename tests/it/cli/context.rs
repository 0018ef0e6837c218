//! `skilldeck context`: per agent the budget, what the listing uses and each skill's line
//! (`full`, `shortened`, `name_only`, `omitted`) with its cost, as text and JSON; a budget read
//! where the agent reads it, `--context` in place of the default model's window, skills turned
//! off left out, built-ins counted.

use serde_json::Value;

use crate::common::sessions::{DAY0, at, claude_line, write_log};
use crate::common::{Machine, write_files, write_skill};

fn skill(machine: &Machine, root: &str, name: &str, description: &str) {
    write_files(
        &machine.home.join(root).join(name),
        &[(
            "SKILL.md",
            &format!("---\nname: {name}\ndescription: {description}\n---\nbody\n"),
        )],
    );
}

fn context(machine: &Machine, args: &[&str], vars: &[(&str, &str)]) -> Value {
    let mut command = machine.command(&[&["context", "--json"], args].concat());
    for (name, value) in vars {
        command.env(name, value);
    }
    let output = command.output().expect("run skilldeck");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON")
}

fn listed<'a>(agent: &'a Value, name: &str) -> &'a Value {
    agent["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {agent:#}"))
}

#[test]
fn claude_code_at_its_default_budget_lists_everything_and_counts_its_built_ins() {
    let machine = Machine::new();
    skill(&machine, ".claude/skills", "alpha", &"a".repeat(100));
    let json = context(&machine, &["--agent", "claude-code"], &[]);
    let agent = &json["agents"][0];
    assert_eq!(agent["agent"], "claude-code");
    assert_eq!(agent["context_tokens"], 750_000);
    assert_eq!(agent["budget"]["limit"], 30_000);
    assert_eq!(agent["budget"]["unit"], "characters");
    let alpha = listed(agent, "alpha");
    assert_eq!(alpha["listed"], "full");
    assert_eq!(alpha["chars"], 2 + 5 + 2 + 100);
    let dataviz = listed(agent, "dataviz");
    assert_eq!(dataviz["dir"], Value::Null);
    assert_eq!(dataviz["description_known"], false);
    assert_eq!(dataviz["chars"], 1447);
    let skills = agent["skills"].as_array().unwrap();
    let sum: u64 = skills.iter().map(|s| s["chars"].as_u64().unwrap()).sum();
    assert_eq!(
        agent["used"].as_u64().unwrap(),
        sum + skills.len() as u64 - 1,
        "entries and the newlines between them"
    );
    assert_eq!(
        agent["estimated_tokens"].as_u64().unwrap(),
        agent["chars"].as_u64().unwrap().div_ceil(4)
    );
}

#[test]
fn claude_code_budget_from_the_variable_drops_descriptions_that_do_not_fit() {
    let machine = Machine::new();
    for name in ["alpha", "beta", "gamma"] {
        skill(&machine, ".claude/skills", name, &"d".repeat(100));
    }
    let vars = [
        ("CLAUDE_CODE_DISABLE_BUNDLED_SKILLS", "1"),
        ("SLASH_COMMAND_TOOL_CHAR_BUDGET", "510"),
    ];
    let json = context(&machine, &["--agent", "claude-code"], &vars);
    let agent = &json["agents"][0];
    assert_eq!(
        agent["budget"]["from"],
        "SLASH_COMMAND_TOOL_CHAR_BUDGET=510"
    );
    // plugin-authoring (275) + three names (7, 6, 7) + 3 newlines = 298; alpha's and beta's
    // descriptions (+102 each) fit in 510, gamma's no longer.
    assert_eq!(listed(agent, "alpha")["listed"], "full");
    assert_eq!(listed(agent, "beta")["listed"], "full");
    let gamma = listed(agent, "gamma");
    assert_eq!(gamma["listed"], "name_only");
    assert_eq!(gamma["chars"], 7);
    assert_eq!(agent["used"], 298 + 204);
}

#[test]
fn claude_code_budget_from_the_settings_env_and_a_skill_turned_off_is_left_out() {
    let machine = Machine::new();
    skill(&machine, ".claude/skills", "alpha", &"d".repeat(100));
    skill(&machine, ".claude/skills", "beta", &"d".repeat(100));
    write_files(
        &machine.home.join(".claude"),
        &[(
            "settings.json",
            r#"{"env": {"SLASH_COMMAND_TOOL_CHAR_BUDGET": "100"}, "skillOverrides": {"beta": "off"}}"#,
        )],
    );
    let json = context(&machine, &["--agent", "claude-code"], &[]);
    let agent = &json["agents"][0];
    assert_eq!(agent["budget"]["limit"], 100);
    assert_eq!(listed(agent, "alpha")["listed"], "name_only");
    assert!(
        !agent["skills"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["name"] == "beta"),
        "a skill turned off is not listed: {agent:#}"
    );
}

#[test]
fn codex_shortens_then_omits_and_context_overrides_the_window() {
    let machine = Machine::new();
    skill(&machine, ".agents/skills", "long", &"l".repeat(400));
    skill(&machine, ".agents/skills", "short", "s");
    write_files(
        &machine.home.join(".codex"),
        &[("config.toml", "model_context_window = 5000\n")],
    );
    let json = context(&machine, &["--agent", "codex"], &[]);
    let agent = &json["agents"][0];
    assert_eq!(agent["budget"]["limit"], 100);
    assert_eq!(agent["budget"]["unit"], "tokens");
    assert!(
        agent["model"]
            .as_str()
            .unwrap()
            .contains("model_context_window")
    );
    assert_eq!(listed(agent, "long")["listed"], "shortened");
    assert_eq!(listed(agent, "short")["listed"], "full");

    // 10 tokens: `- long: (file: r0/long/SKILL.md)` and its newline take 9, so `short` is
    // left out.
    let json = context(&machine, &["--agent", "codex", "--context", "500"], &[]);
    let agent = &json["agents"][0];
    assert_eq!(agent["budget"]["limit"], 10);
    assert_eq!(agent["context_tokens"], 500);
    assert_eq!(listed(agent, "long")["listed"], "name_only");
    assert_eq!(listed(agent, "short")["listed"], "omitted");
    assert_eq!(listed(agent, "short")["chars"], 0);
    assert_eq!(agent["used"], 9);
}

#[test]
fn codex_default_model_window_and_no_budget_for_gemini_cli_and_opencode() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".agents/skills/alpha"), &[]);
    std::fs::create_dir_all(machine.home.join(".codex")).unwrap();
    let json = context(
        &machine,
        &[
            "--agent",
            "codex",
            "--agent",
            "gemini-cli",
            "--agent",
            "opencode",
        ],
        &[],
    );
    let agents = json["agents"].as_array().unwrap();
    assert_eq!(agents[0]["context_tokens"], 500_000);
    assert_eq!(agents[0]["budget"]["limit"], 10_000);
    assert!(agents[0]["model"].as_str().unwrap().contains("gpt-6.2-sol"));
    for agent in &agents[1..] {
        assert_eq!(agent["budget"], Value::Null, "{agent:#}");
        assert!(
            agent["skills"]
                .as_array()
                .unwrap()
                .iter()
                .all(|s| s["listed"] == "full")
        );
    }
}

#[test]
fn the_text_says_budget_use_and_that_tokens_are_an_estimate() {
    let machine = Machine::new();
    skill(&machine, ".claude/skills", "alpha", "An alpha skill.");
    let output = machine.run_expecting(&["context", "--agent", "claude-code"], 0);
    let text = String::from_utf8_lossy(&output.stdout);
    let mut lines = text.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("claude-code (default model"),
        "{text}"
    );
    assert!(text.contains("of 30000 characters"), "{text}");
    assert!(text.contains("(an estimate)"), "{text}");
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("alpha"))
        .unwrap();
    assert_eq!(
        row.split_whitespace().take(3).collect::<Vec<_>>(),
        ["alpha", "full", "24"],
        "{row}"
    );
}

#[test]
fn an_agent_without_known_rules_is_refused_with_a_sentence() {
    let machine = Machine::new();
    let output = machine.run_expecting(&["context", "--agent", "amp"], 2);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--agent amp: skilldeck does not know how that agent lists its skills"),
        "{stderr}"
    );
    assert!(
        stderr.contains("claude-code, codex, gemini-cli, opencode"),
        "{stderr}"
    );
}

#[test]
fn help_gives_an_example() {
    let machine = Machine::new();
    let output = machine.run_expecting(&["context", "--help"], 0);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("skilldeck context --agent codex --context 272000"),
        "{text}"
    );
    assert!(text.contains("--context <TOKENS>"), "{text}");
}

/// Claude Code's counters give each skill its uses and last use, in JSON and in the table; a
/// listing past its budget says what it cost and which rule kept which descriptions.
#[test]
fn uses_come_from_claude_codes_counters_and_a_cut_listing_says_so() {
    let machine = Machine::new();
    for name in ["alpha", "beta", "gamma"] {
        skill(&machine, ".claude/skills", name, &"d".repeat(100));
    }
    let at = 1_780_000_000_000_u64;
    std::fs::write(
        machine.home.join(".claude.json"),
        format!(
            "{{\"skillUsage\": {{\"gamma\": {{\"usageCount\": 7, \"lastUsedAt\": {at}}}, \
             \"beta\": {{\"usageCount\": 2, \"lastUsedAt\": {at}}}}}}}"
        ),
    )
    .unwrap();
    // Every built-in's entry (6,198), the three names and 15 newlines take 6,234 of 6,400,
    // which leaves room for one description of 102: the most used one, gamma's.
    let vars = [("SLASH_COMMAND_TOOL_CHAR_BUDGET", "6400")];
    let json = context(&machine, &["--agent", "claude-code"], &vars);
    let agent = &json["agents"][0];
    let gamma = listed(agent, "gamma");
    assert_eq!(gamma["uses"], 7);
    assert_eq!(gamma["last_used"], "2026-05-28T20:26:40Z");
    assert_eq!(gamma["listed"], "full");
    assert_eq!(listed(agent, "beta")["listed"], "name_only");
    assert_eq!(listed(agent, "beta")["uses"], 2);
    let alpha = listed(agent, "alpha");
    assert_eq!(
        (alpha["uses"].clone(), alpha["last_used"].clone()),
        (0.into(), Value::Null)
    );
    let output = machine
        .command(&["context", "--agent", "claude-code"])
        .env("SLASH_COMMAND_TOOL_CHAR_BUDGET", "6400")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("USES") && text.contains("LAST USED"),
        "{text}"
    );
    assert!(
        text.contains("Past the budget: 2 skills listed by name only (Claude Code keeps the most used skills' descriptions first, by its own counters)"),
        "{text}"
    );
}

/// Claude Code ranks its listing by its own counters (`skillUsage` in `~/.claude.json`), never
/// by its transcripts: a skill its transcripts alone show used keeps no place for it, and the
/// view says so beside the count instead of showing uses the ranking seems to ignore.
#[test]
fn uses_seen_only_in_claude_codes_transcripts_are_shown_apart_from_the_counters_it_ranks_by() {
    let machine = Machine::new();
    for name in ["alpha", "beta", "gamma"] {
        skill(&machine, ".claude/skills", name, &"d".repeat(100));
    }
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    write_files(
        &machine.home,
        &[(
            ".claude.json",
            &format!(
                r#"{{"skillUsage": {{"beta": {{"usageCount": 4, "lastUsedAt": {now_ms}}}}}}}"#
            ),
        )],
    );
    let gamma_dir = machine.home.join(".claude/skills/gamma");
    write_log(
        &machine.home.join(".claude/projects/p/s.jsonl"),
        &[
            claude_line(&gamma_dir, Some(at(DAY0))),
            claude_line(&gamma_dir, Some(at(DAY0 + 60))),
        ],
        at(DAY0 + 60),
    );
    let vars = [
        ("CLAUDE_CODE_DISABLE_BUNDLED_SKILLS", "1"),
        ("SLASH_COMMAND_TOOL_CHAR_BUDGET", "510"),
    ];
    let json = context(&machine, &["--agent", "claude-code"], &vars);
    let agent = &json["agents"][0];
    let beta = listed(agent, "beta");
    assert_eq!(
        (&beta["uses"], &beta["uses_from"]),
        (&4.into(), &"counter".into())
    );
    assert_eq!(beta["listed"], "full");
    let gamma = listed(agent, "gamma");
    assert_eq!(
        (&gamma["uses"], &gamma["uses_from"]),
        (&2.into(), &"sessions".into())
    );
    assert_eq!(gamma["listed"], "name_only", "ranked by the counters alone");
    assert_eq!(listed(agent, "alpha")["uses_from"], Value::Null);
    let mut command = machine.command(&["context", "--agent", "claude-code"]);
    for (name, value) in vars {
        command.env(name, value);
    }
    let text = String::from_utf8(command.output().unwrap().stdout).unwrap();
    let row = text.lines().find(|l| l.contains("gamma")).unwrap();
    assert!(row.contains("2 (logs)"), "{text}");
    let beta_row = text.lines().find(|l| l.contains("beta")).unwrap();
    assert!(!beta_row.contains("(logs)"), "{text}");
    assert!(
        text.contains("the uses of 1 skill marked (logs) are in its transcripts only"),
        "{text}"
    );
}

/// An installed agent whose listing skilldeck cannot tell (Copilot CLI) is named, with why,
/// rather than left out of the view silently.
#[test]
fn an_installed_agent_whose_listing_is_not_known_is_named_not_left_out() {
    let machine = Machine::new();
    for dir in [".copilot", ".codex"] {
        std::fs::create_dir_all(machine.home.join(dir)).unwrap();
    }
    skill(&machine, ".agents/skills", "alpha", "a skill");
    let json = context(&machine, &[], &[]);
    assert_eq!(json["not_known"], serde_json::json!(["copilot"]));
    let agents: Vec<&str> = json["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["agent"].as_str().unwrap())
        .collect();
    assert_eq!(agents, ["codex"]);
    let text = String::from_utf8(machine.run_expecting(&["context"], 0).stdout).unwrap();
    assert!(
        text.contains("Not shown: copilot (skilldeck does not know how it lists its skills to the model, or what budget holds them)."),
        "{text}"
    );
    // Only known agents installed: nothing to name.
    let known = Machine::new();
    std::fs::create_dir_all(known.home.join(".codex")).unwrap();
    assert_eq!(
        context(&known, &[], &[])["not_known"],
        serde_json::json!([])
    );
    let text = String::from_utf8(known.run_expecting(&["context"], 0).stdout).unwrap();
    assert!(!text.contains("Not shown"), "{text}");
}

/// A skill Codex reads through a link in its own root, to a folder another agent's root holds:
/// the row names the path Codex reads, with the folder it leads to beside it.
#[cfg(unix)]
#[test]
fn a_row_names_where_the_agent_reads_a_linked_skill_and_what_it_links_to() {
    let machine = Machine::new();
    std::fs::create_dir_all(machine.home.join(".codex")).unwrap();
    skill(&machine, ".claude/skills", "foo", "a skill");
    skill(&machine, ".claude/skills", "plain", "a skill");
    std::fs::create_dir_all(machine.home.join(".agents/skills")).unwrap();
    for name in ["foo", "plain"] {
        std::os::unix::fs::symlink(
            machine.home.join(".claude/skills").join(name),
            machine.home.join(".agents/skills").join(name),
        )
        .unwrap();
    }
    let json = context(
        &machine,
        &["--agent", "codex", "--agent", "claude-code"],
        &[],
    );
    let codex = json["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == "codex")
        .unwrap();
    let foo = listed(codex, "foo");
    let home = machine.home.to_str().unwrap();
    assert_eq!(foo["read_at"], format!("{home}/.agents/skills/foo"));
    assert_eq!(foo["dir"], format!("{home}/.claude/skills/foo"));
    // Claude Code reads the folder itself.
    let claude = json["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == "claude-code")
        .unwrap();
    assert_eq!(listed(claude, "foo")["read_at"], Value::Null);
    let text = String::from_utf8(
        machine
            .run_expecting(&["context", "--agent", "codex"], 0)
            .stdout,
    )
    .unwrap();
    assert!(
        text.contains("~/.agents/skills/foo (a link to ~/.claude/skills/foo)"),
        "{text}"
    );
    assert!(
        text.contains("~/.agents/skills/plain (a link to ~/.claude/skills/plain)"),
        "{text}"
    );
}
