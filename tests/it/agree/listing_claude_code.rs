//! Claude Code 2.1.332's skill budget: the request it sends to a loopback sink holds the
//! listing the model gets ("The following skills are available for use with the Skill tool:"
//! then `- NAME: DESCRIPTION`, or `- NAME` once the description is dropped), and
//! `skilldeck context --agent claude-code --json` must say exactly which descriptions are
//! dropped. Bundled skills are turned off (`CLAUDE_CODE_DISABLE_BUNDLED_SKILLS=1`) so the
//! listing holds only the fixture and the one built-in that stays (`plugin-authoring`); each
//! case states its budget: `SLASH_COMMAND_TOOL_CHAR_BUDGET` in the environment or in the user
//! settings' `env`, or the default model's (claude-opus-5-5), 30,000 characters.

use std::path::Path;

use super::claude_code::command;
use super::listing_codex::{Shown, claimed};
use super::{Agent, Lab, Sink, strings};

const HEADER: &str = "The following skills are available for use with the Skill tool:\n\n";

/// The listing in the request Claude Code sends: per name, the description characters shown.
fn asked(lab: &Lab, cwd: &Path) -> Shown {
    let sink = Sink::start();
    let output = command(lab, cwd)
        .env(
            "ANTHROPIC_BASE_URL",
            format!("http://127.0.0.1:{}", sink.port),
        )
        .args([
            "-p",
            "hi",
            "--output-format",
            "stream-json",
            "--verbose",
            "--max-turns",
            "1",
        ])
        .output()
        .expect("run claude");
    let mut texts = Vec::new();
    for body in sink.bodies() {
        if let Ok(json) = serde_json::from_str(&body) {
            strings(&json, &mut texts);
        }
    }
    let text = texts
        .iter()
        .find_map(|t| t.find(HEADER).map(|at| &t[at + HEADER.len()..]))
        .unwrap_or_else(|| {
            panic!(
                "claude sent no skill listing:\n{}",
                String::from_utf8_lossy(&output.stderr)
            )
        });
    let text = text.split("\n\n").next().unwrap_or("");
    let mut shown = Shown::new();
    for entry in text.split("\n- ") {
        let entry = entry.strip_prefix("- ").unwrap_or(entry);
        let (head, description) = match entry.split_once(": ") {
            Some((head, description)) => (head, Some(description)),
            None => (entry, None),
        };
        // `NAME (FRONTMATTER-NAME)`: the skill is its folder's name.
        let name = match head.find(" (") {
            Some(at) if head.ends_with(')') => &head[..at],
            _ => head,
        };
        shown.insert(
            name.to_owned(),
            Some(description.map_or(0, |d| d.encode_utf16().count())),
        );
    }
    shown
}

fn lab() -> Option<Lab> {
    let mut lab = Lab::new()?;
    lab.set("CLAUDE_CODE_DISABLE_BUNDLED_SKILLS", "1");
    Some(lab)
}

fn skill(lab: &Lab, name: &str, description: &str) {
    lab.file(
        &lab.project
            .join(".claude/skills")
            .join(name)
            .join("SKILL.md"),
        &format!("---\nname: {name}\ndescription: {description}\n---\nbody\n"),
    );
}

/// Four skills whose entries take 109, 120, 109 and 109 characters, `beta` with a
/// `when_to_use` that Claude Code appends after ` - `.
fn four(lab: &Lab) {
    skill(lab, "alpha", &"A".repeat(100));
    lab.file(
        &lab.project.join(".claude/skills/beta/SKILL.md"),
        &format!(
            "---\nname: beta\ndescription: {}\nwhen_to_use: WHEN-BETA\n---\nbody\n",
            "B".repeat(100)
        ),
    );
    skill(lab, "gamma", &"C".repeat(100));
    skill(lab, "delta", &"D".repeat(100));
}

fn agree(lab: &Lab, dropped: &[&str]) {
    let named_only = agree_anyhow(lab);
    assert_eq!(named_only, dropped, "the case's own expectation");
}

/// skilldeck and Claude Code agree on the listing; the names listed without a description.
fn agree_anyhow(lab: &Lab) -> Vec<String> {
    let (claimed, listing) = claimed(lab, &lab.project, Agent::ClaudeCode);
    let asked = asked(lab, &lab.project);
    assert_eq!(
        claimed, asked,
        "skilldeck (left) and Claude Code (right) disagree on the listing; skilldeck said {listing:#}"
    );
    listing["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["listed"] == "name_only")
        .filter_map(|s| s["name"].as_str())
        .map(str::to_owned)
        .collect()
}

/// Budget 521 characters by the variable: over it by 205, `beta`'s description (the longer)
/// does not fit after `alpha`'s, `delta`'s still does, `gamma`'s no longer.
#[test]
fn claude_code_drops_the_descriptions_that_do_not_fit() {
    let Some(mut lab) = lab() else { return };
    four(&lab);
    lab.set("SLASH_COMMAND_TOOL_CHAR_BUDGET", "521");
    agree(&lab, &["beta", "gamma"]);
}

/// Budget 623 characters from the user settings' `env`, which Claude Code applies.
#[test]
fn claude_code_budget_from_the_settings_env() {
    let Some(lab) = lab() else { return };
    four(&lab);
    lab.file(
        &lab.home.join(".claude/settings.json"),
        "{\"env\": {\"SLASH_COMMAND_TOOL_CHAR_BUDGET\": \"623\"}}\n",
    );
    agree(&lab, &["delta", "gamma"]);
}

/// Budget 726 characters: exactly the whole listing, so nothing is dropped.
#[test]
fn claude_code_keeps_a_listing_that_just_fits() {
    let Some(mut lab) = lab() else { return };
    four(&lab);
    lab.set("SLASH_COMMAND_TOOL_CHAR_BUDGET", "726");
    agree(&lab, &[]);
}

/// The default model claude-opus-5-5's budget, 30,000 characters: twenty skills of 1,500
/// characters and `zz` of 1,060 take 30,000 with `s29`'s dropped; `zz`'s fits to the character.
#[test]
fn claude_code_default_budget() {
    let Some(lab) = lab() else { return };
    for i in 10..30 {
        skill(&lab, &format!("s{i}"), &"F".repeat(1_500));
    }
    skill(&lab, "zz", &"Z".repeat(1_060));
    agree(&lab, &["s29"]);
}

/// A skill turned off (`skillOverrides` "off" in the user settings) is not in the listing and
/// costs nothing: with `gamma` off, `beta`'s description fits in 521 and `delta`'s no longer.
#[test]
fn claude_code_leaves_a_skill_turned_off_out_of_the_budget() {
    let Some(mut lab) = lab() else { return };
    four(&lab);
    lab.file(
        &lab.home.join(".claude/settings.json"),
        "{\"skillOverrides\": {\"gamma\": \"off\"}}\n",
    );
    lab.set("SLASH_COMMAND_TOOL_CHAR_BUDGET", "521");
    agree(&lab, &["delta"]);
}

/// Claude Code's own counters (`skillUsage` in `~/.claude.json`) rank the skills whose
/// descriptions it keeps: the most used first, each use fading by half a week (never below a
/// tenth). `gamma` (5 uses today), then `delta` (2 today), then `alpha` (10 uses 70 days ago,
/// so 1), then `beta` (never): in 521 characters `gamma`'s and `delta`'s fit. Without the fading
/// `alpha` would come first and keep its description.
#[test]
fn claude_code_drops_the_least_used_descriptions_first() {
    let Some(mut lab) = lab() else { return };
    four(&lab);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let day = 86_400_000;
    lab.file(
        &lab.home.join(".claude.json"),
        &format!(
            "{{\"skillUsage\": {{\"gamma\": {{\"usageCount\": 5, \"lastUsedAt\": {now}}}, \
             \"delta\": {{\"usageCount\": 2, \"lastUsedAt\": {now}}}, \
             \"alpha\": {{\"usageCount\": 10, \"lastUsedAt\": {}}}}}}}\n",
            now - 70 * day
        ),
    );
    lab.set("SLASH_COMMAND_TOOL_CHAR_BUDGET", "521");
    agree(&lab, &["alpha", "beta"]);
}

/// Claude Code measures in JavaScript's UTF-16 units: 60 emoji take 120 of the budget, not 60.
/// `- emoji` and `- plain` by name, the one built-in and two newlines take 291; with 463, the
/// emoji's description (122 with its `: `) fits and `plain`'s (102) no longer does, where
/// counting characters would have kept both.
#[test]
fn claude_code_counts_an_emoji_twice() {
    let Some(mut lab) = lab() else { return };
    skill(&lab, "emoji", &"\u{1F600}".repeat(60));
    skill(&lab, "plain", &"P".repeat(100));
    lab.set("SLASH_COMMAND_TOOL_CHAR_BUDGET", "463");
    agree(&lab, &["plain"]);
}

/// A description past the 1,536-unit cap is cut to 1,535 and an ellipsis, in the listing and
/// in its cost.
#[test]
fn claude_code_cuts_a_long_description_at_the_cap() {
    let Some(lab) = lab() else { return };
    skill(&lab, "long", &"L".repeat(2_000));
    skill(&lab, "short", &"S".repeat(10));
    agree(&lab, &[]);
}

/// `skillListingMaxDescChars` in the user settings sets the cap: at 50, `long`'s description
/// is cut to 49 and an ellipsis.
#[test]
fn claude_code_takes_the_cap_from_the_settings() {
    let Some(lab) = lab() else { return };
    skill(&lab, "long", &"L".repeat(2_000));
    skill(&lab, "short", &"S".repeat(10));
    lab.file(
        &lab.home.join(".claude/settings.json"),
        "{\"skillListingMaxDescChars\": 50}\n",
    );
    let (claimed, _) = super::listing_codex::claimed(&lab, &lab.project, Agent::ClaudeCode);
    assert_eq!(
        claimed.get("long"),
        Some(&Some(50)),
        "the case's own expectation"
    );
    agree(&lab, &[]);
}

fn skill_in(lab: &Lab, root: &Path, folder: &str, name: &str, description: &str) {
    lab.file(
        &root.join(folder).join("SKILL.md"),
        &format!("---\nname: {name}\ndescription: {description}\n---\nbody\n"),
    );
}

/// Claude Code lists each folder's skills in `localeCompare` order, the user's before the
/// project's: with equal descriptions the first to come keep theirs. Byte order would put
/// `B-up` and the project's `Aa` first and `_x` before `a-x` before `a.x`.
#[test]
fn claude_code_keeps_descriptions_in_its_own_order() {
    let Some(mut lab) = lab() else { return };
    let user = lab.home.join(".claude/skills");
    let project = lab.project.join(".claude/skills");
    for name in ["B-up", "a.x", "a-x", "a_x", "a1", "_x", "zz"] {
        skill_in(&lab, &user, name, name, &"U".repeat(100));
    }
    for name in ["Aa", "ab"] {
        skill_in(&lab, &project, name, name, &"P".repeat(100));
    }
    // Names alone: 9 entries of 4 to 6 characters, the built-in's 275, the newlines; four
    // descriptions of 102 fit: `_x`, `a_x`, `a-x` and `a.x`'s.
    lab.set("SLASH_COMMAND_TOOL_CHAR_BUDGET", "779");
    agree(&lab, &["a1", "B-up", "zz", "Aa", "ab"]);
}

/// A folder whose frontmatter names it otherwise is listed as `FOLDER (NAME)`, and the longer
/// entry costs its description its place; a frontmatter name another skill's folder has, or
/// one with a space, is not shown.
#[test]
fn claude_code_counts_the_frontmatter_name_it_shows() {
    let Some(mut lab) = lab() else { return };
    let user = lab.home.join(".claude/skills");
    skill_in(
        &lab,
        &user,
        "a-first",
        "a-first-but-named-at-length",
        &"A".repeat(100),
    );
    skill_in(&lab, &user, "b-second", "c-third", &"B".repeat(100));
    skill_in(&lab, &user, "c-third", "c-third", &"C".repeat(100));
    skill_in(&lab, &user, "d-fourth", "has space", &"D".repeat(100));
    // By name: `- a-first (a-first-but-named-at-length)` 39, the others 10, 9 and 10, the
    // built-in 275 and 4 newlines, 347; each description adds 102. Counting `a-first` as 9
    // would keep `c-third`'s at 640 too.
    lab.set("SLASH_COMMAND_TOOL_CHAR_BUDGET", "640");
    agree(&lab, &["c-third", "d-fourth"]);
    lab.set("SLASH_COMMAND_TOOL_CHAR_BUDGET", "653");
    agree(&lab, &["d-fourth"]);
}

/// `skillOverrides` `name-only` (here in the local settings) lists `- NAME` whatever the
/// budget, at a fixed cost: with `alpha` by name only, `beta`'s description fits in 521 where
/// it did not (`claude_code_drops_the_descriptions_that_do_not_fit`), and `delta`'s no longer.
#[test]
fn claude_code_lists_a_name_only_skill_by_name() {
    let Some(mut lab) = lab() else { return };
    four(&lab);
    lab.file(
        &lab.project.join(".claude/settings.local.json"),
        "{\"skillOverrides\": {\"alpha\": \"name-only\"}}\n",
    );
    lab.set("SLASH_COMMAND_TOOL_CHAR_BUDGET", "521");
    agree(&lab, &["alpha", "delta", "gamma"]);
    lab.set("SLASH_COMMAND_TOOL_CHAR_BUDGET", "100000");
    agree(&lab, &["alpha"]);
}

/// Generated sets of skills of different sizes, names and description lengths, at their
/// boundary: the budget that keeps every description, one character less, and a third of it.
#[test]
fn claude_code_agrees_at_and_around_the_boundary() {
    for count in [5usize, 31, 150] {
        let Some(mut lab) = lab() else { return };
        let user = lab.home.join(".claude/skills");
        let project = lab.project.join(".claude/skills");
        let mut whole = 0;
        for i in 0..count {
            // Names that sort differently by bytes and by collation, lengths that vary.
            let name = match i % 4 {
                0 => format!("Skill-{i}"),
                1 => format!("skill_{i}"),
                2 => format!("s.{i}x"),
                _ => format!("S{i}"),
            };
            let length = 40 + (i * 37) % 300;
            let root = if i % 3 == 0 { &project } else { &user };
            skill_in(&lab, root, &name, &name, &"d".repeat(length));
            whole += 2 + name.len() + 2 + length + 1;
        }
        // The built-in `plugin-authoring` entry (275) and no newline after the last.
        let whole = whole + 275;
        for budget in [whole, whole - 1, whole / 3] {
            lab.set("SLASH_COMMAND_TOOL_CHAR_BUDGET", budget.to_string());
            let named_only = agree_anyhow(&lab);
            assert_eq!(
                named_only.is_empty(),
                budget == whole,
                "{count} skills at {budget}: {named_only:?}"
            );
        }
    }
}

/// Plugin skills in the budget: three plugins of one marketplace installed in an order that is
/// neither their names' nor their catalog's (`zp`, then `ap`, then `mp`), skills of different
/// lengths, a user and a project skill beside them; at budgets from all to a third. Where the
/// plugins' skills come in the listing decides which descriptions fit first.
#[test]
fn claude_code_places_plugin_skills_in_the_budget() {
    let Some(mut lab) = lab() else { return };
    let market = lab.root.join("mkt");
    lab.file(
        &market.join(".claude-plugin/marketplace.json"),
        r#"{"name":"mkt","owner":{"name":"agree"},"plugins":[
 {"name":"mp","source":"./plugins/mp","version":"1.0.0"},
 {"name":"zp","source":"./plugins/zp","version":"1.0.0"},
 {"name":"ap","source":"./plugins/ap","version":"1.0.0"}]}"#,
    );
    let mut whole = 275;
    let mut entry = |name: &str, length: usize| whole += 2 + name.len() + 2 + length + 1;
    for (plugin, skills) in [
        ("mp", &[("m-one", 120), ("b-two", 60)][..]),
        ("zp", &[("z-one", 90), ("a-two", 140)][..]),
        ("ap", &[("q-one", 70)][..]),
    ] {
        lab.file(
            &market.join(format!("plugins/{plugin}/.claude-plugin/plugin.json")),
            &format!(r#"{{"name":"{plugin}","version":"1.0.0"}}"#),
        );
        for (name, length) in skills {
            skill_in(
                &lab,
                &market.join(format!("plugins/{plugin}/skills")),
                name,
                name,
                &"p".repeat(*length),
            );
            entry(&format!("{plugin}:{name}"), *length);
        }
    }
    skill_in(
        &lab,
        &lab.home.join(".claude/skills"),
        "user-one",
        "user-one",
        &"u".repeat(80),
    );
    entry("user-one", 80);
    skill(&lab, "proj-one", &"j".repeat(110));
    entry("proj-one", 110);
    let m = market.to_string_lossy().into_owned();
    lab.agent(
        Agent::ClaudeCode,
        &lab.outside,
        &["plugin", "marketplace", "add", &m],
    );
    for plugin in ["zp@mkt", "ap@mkt", "mp@mkt"] {
        lab.agent(
            Agent::ClaudeCode,
            &lab.outside,
            &["plugin", "install", plugin],
        );
    }
    let budgets = [
        whole,
        whole - 1,
        whole - 100,
        whole * 2 / 3,
        whole / 2,
        whole / 3,
    ];
    let mut dropped_some = false;
    let mut at_each_budget = |lab: &mut Lab| {
        for budget in budgets {
            lab.set("SLASH_COMMAND_TOOL_CHAR_BUDGET", budget.to_string());
            let named_only = agree_anyhow(lab);
            assert_eq!(
                named_only.is_empty(),
                budget == whole,
                "{budget}: {named_only:?}"
            );
            dropped_some |= named_only.iter().any(|name| name.contains(':'));
        }
    };
    // As installed: `enabledPlugins` holds `zp`, `ap`, `mp` in that order.
    at_each_budget(&mut lab);
    // Merged over two files: the user's `mp`, `zp` first, then the `ap` the project's adds.
    let user = lab.home.join(".claude/settings.json");
    let text = std::fs::read_to_string(&user).expect("the installer's settings");
    let start = text.find("\"enabledPlugins\"").expect("enabledPlugins");
    let end = start + text[start..].find('}').expect("its end") + 1;
    let reordered = format!(
        "{}\"enabledPlugins\": {{\"mp@mkt\": true, \"zp@mkt\": true}}{}",
        &text[..start],
        &text[end..]
    );
    lab.file(&user, &reordered);
    lab.file(
        &lab.project.join(".claude/settings.json"),
        r#"{"enabledPlugins": {"ap@mkt": true, "mp@mkt": true}}"#,
    );
    at_each_budget(&mut lab);
    assert!(
        dropped_some,
        "no budget dropped a plugin skill's description"
    );
}
