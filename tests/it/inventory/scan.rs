//! The whole inventory on one fixture machine that holds skills in every agent and scope:
//! `skilldeck list --json` must report, for every skill, its name, source, agents, record,
//! state, digest and shadowing.
//! The fixture holds linked skills and roots reached through links, made with Unix links, and
//! every test lists that one machine.
#![cfg(unix)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{
    Installer, Machine, oracle_digest, relative, symlink, write_files, write_skill,
};
use serde_json::Value;

/// What one skill must look like in the listing.
#[derive(Debug)]
struct Expect {
    name: &'static str,
    /// Relative to the machine's root folder.
    dir: &'static str,
    source: &'static str,
    agents: &'static [&'static str],
    state: &'static str,
    /// Directories (relative to the machine root) of the copies that win over this one.
    shadowed_by: &'static [&'static str],
}

const CLAUDE_HOME_READERS: &[&str] = &["claude-code", "opencode", "cursor", "goose"];
const SHARED_READERS: &[&str] = &[
    "codex",
    "opencode",
    "gemini-cli",
    "copilot",
    "cursor",
    "goose",
];

fn expectations() -> Vec<Expect> {
    let e = |name, dir, source, agents, state, shadowed_by| Expect {
        name,
        dir,
        source,
        agents,
        state,
        shadowed_by,
    };
    vec![
        // Plugins.
        // Claude Code's plugin manager put both there, and recorded no hash of either (the
        // cache is checked in tests/ownership.rs, with an installed_plugins.json). With no
        // install record and no enabledPlugins entry, Claude Code loads neither
        // (tests/it/inventory/plugins.rs has the plugins it does load).
        e(
            "superpowers:brainstorming",
            "home/.claude/plugins/cache/mkt/superpowers/1.2.0/skills/brainstorming",
            "plugin",
            &[],
            "unverifiable",
            &[],
        ),
        e(
            "superpowers:brainstorming",
            "home/.claude/plugins/marketplaces/mkt/plugins/superpowers/skills/brainstorming",
            "plugin",
            &[],
            "unverifiable",
            &[],
        ),
        e(
            "toolbox:lint",
            "home/.claude/skills/toolbox/skills/lint",
            "plugin",
            // OpenCode walks the folder deeper and knows no plugins: it loads the skill as a
            // plain one (agree::generate case claude-code-skills-dir-plugin).
            &["claude-code", "opencode"],
            "unrecorded",
            &[],
        ),
        e(
            "cx:cx-skill",
            "home/.codex/plugins/cache/mkt/cx/1.0.0/skills/cx-skill",
            "plugin",
            &["codex"],
            "unverifiable",
            &[],
        ),
        e(
            "cop-skill",
            "home/.copilot/installed-plugins/mkt/cop/skills/cop-skill",
            "plugin",
            &["copilot"],
            "unverifiable",
            &[],
        ),
        e(
            "gx",
            "home/.gemini/extensions/gext/skills/gx",
            "plugin",
            &["gemini-cli"],
            "unrecorded",
            &[],
        ),
        // Organization.
        e(
            "policy",
            "system/etc/claude-code/.claude/skills/policy",
            "organization",
            &["claude-code"],
            "unrecorded",
            &[],
        ),
        e(
            "admin-skill",
            "system/etc/codex/skills/admin-skill",
            "organization",
            &["codex"],
            "unrecorded",
            &[],
        ),
        // User, in several agents' roots.
        e(
            "shared-notes",
            "home/.agents/skills/shared-notes",
            "user",
            SHARED_READERS,
            "unrecorded",
            &[],
        ),
        e(
            "codex-only",
            "home/.codex/skills/codex-only",
            "user",
            &["codex", "cursor"],
            "unrecorded",
            &[],
        ),
        e(
            "gem",
            "home/.gemini/skills/gem",
            "user",
            &["gemini-cli"],
            "unrecorded",
            &[],
        ),
        e(
            "oc-skill",
            "home/.config/opencode/skills/oc-skill",
            "user",
            &["opencode"],
            "unrecorded",
            &[],
        ),
        e(
            "goose-skill",
            "home/.config/goose/skills/goose-skill",
            "user",
            &["goose"],
            "unrecorded",
            &[],
        ),
        e(
            "cop-user",
            "home/.copilot/skills/cop-user",
            "user",
            &["copilot"],
            "unrecorded",
            &[],
        ),
        e(
            "cur",
            "home/.cursor/skills/cur",
            "user",
            &["cursor"],
            "unrecorded",
            &[],
        ),
        e(
            "wind",
            "home/.codeium/windsurf/skills/wind",
            "user",
            &["windsurf"],
            "unrecorded",
            &[],
        ),
        e(
            "handmade",
            "home/.claude/skills/handmade",
            "user",
            CLAUDE_HOME_READERS,
            "unrecorded",
            &[],
        ),
        e(
            "Bad_Name",
            "home/.claude/skills/Bad_Name",
            "user",
            CLAUDE_HOME_READERS,
            "unrecorded",
            &[],
        ),
        e(
            "linked",
            "home/.claude/skills/linked",
            "user",
            CLAUDE_HOME_READERS,
            "unrecorded",
            &[],
        ),
        e(
            "dual",
            "home/.claude/skills/dual",
            "user",
            &["claude-code", "opencode", "gemini-cli", "cursor", "goose"],
            "unrecorded",
            &[],
        ),
        e(
            "pdf-intact",
            "home/.claude/skills/pdf-intact",
            "user",
            CLAUDE_HOME_READERS,
            "intact",
            &[],
        ),
        e(
            "pdf-edited",
            "home/.claude/skills/pdf-edited",
            "user",
            CLAUDE_HOME_READERS,
            "modified",
            &[],
        ),
        // A bundled skill inside a user root is the agent's own.
        e(
            "sys-skill",
            "home/.codex/skills/.system/sys-skill",
            "builtin",
            &["codex"],
            "unrecorded",
            &[],
        ),
        // Project skills at two levels, and the shadowed pair.
        e(
            "release",
            "home/.claude/skills/release",
            "user",
            CLAUDE_HOME_READERS,
            "unrecorded",
            &["work/repo/.claude/skills/release"],
        ),
        e(
            "release",
            "work/repo/.claude/skills/release",
            "project",
            &["claude-code", "opencode", "copilot"],
            "unrecorded",
            &["home/.claude/skills/release"],
        ),
        e(
            "deploy",
            "work/repo/app/.claude/skills/deploy",
            "project",
            &["claude-code", "opencode", "copilot", "cursor", "goose"],
            "unrecorded",
            &[],
        ),
        e(
            "repo-tool",
            "work/repo/.agents/skills/repo-tool",
            "project",
            &["codex", "opencode", "copilot"],
            "unrecorded",
            &[],
        ),
        e(
            "cx-proj",
            "work/repo/.codex/skills/cx-proj",
            "project",
            &["codex"],
            "unrecorded",
            &[],
        ),
        e(
            "gproj",
            "work/repo/app/.gemini/skills/gproj",
            "project",
            &[],
            "unrecorded",
            &[],
        ),
        e(
            "wproj",
            "work/repo/app/.windsurf/skills/wproj",
            "project",
            &["windsurf"],
            "unrecorded",
            &[],
        ),
    ]
}

fn build(machine: &Machine) {
    let home = &machine.home;
    let repo = &machine.repo;
    // A Claude plugin in the cache, and its marketplace clone.
    let cached = home.join(".claude/plugins/cache/mkt/superpowers/1.2.0");
    write_files(
        &cached,
        &[(".claude-plugin/plugin.json", r#"{"name": "superpowers"}"#)],
    );
    write_skill(
        &cached.join("skills/brainstorming"),
        &[("scripts/go.sh", "echo\n")],
    );
    let clone = home.join(".claude/plugins/marketplaces/mkt");
    write_files(
        &clone,
        &[(
            ".claude-plugin/marketplace.json",
            r#"{"name": "mkt", "plugins": [{"name": "superpowers", "source": "./plugins/superpowers"}]}"#,
        )],
    );
    write_skill(&clone.join("plugins/superpowers/skills/brainstorming"), &[]);
    // A skills-directory plugin in Claude Code's personal root.
    let toolbox = home.join(".claude/skills/toolbox");
    write_files(
        &toolbox,
        &[(".claude-plugin/plugin.json", r#"{"name": "toolbox"}"#)],
    );
    write_skill(&toolbox.join("skills/lint"), &[]);
    // Other agents' plugins.
    let codex_plugin = home.join(".codex/plugins/cache/mkt/cx/1.0.0");
    write_files(
        &codex_plugin,
        &[(".codex-plugin/plugin.json", r#"{"name": "cx"}"#)],
    );
    write_skill(&codex_plugin.join("skills/cx-skill"), &[]);
    // Each agent loads its plugins by its own records (tests/it/inventory/plugins.rs has each rule).
    write_files(
        &home.join(".codex"),
        &[("config.toml", "[plugins.\"cx@mkt\"]\nenabled = true\n")],
    );
    write_skill(
        &home.join(".copilot/installed-plugins/mkt/cop/skills/cop-skill"),
        &[],
    );
    let copilot_record = format!(
        r#"{{"installedPlugins": [{{"name": "cop", "marketplace": "mkt", "enabled": true, "cache_path": "{}", "installed_at": "2026-11-01T00:00:00Z"}}]}}"#,
        home.join(".copilot/installed-plugins/mkt/cop").display()
    );
    write_files(
        &home.join(".copilot"),
        &[("config.json", copilot_record.as_str())],
    );
    write_skill(&home.join(".gemini/extensions/gext/skills/gx"), &[]);
    write_files(
        &home.join(".gemini/extensions/gext"),
        &[(
            "gemini-extension.json",
            r#"{"name": "gext", "version": "1.0.0"}"#,
        )],
    );
    // Organization.
    write_skill(
        &machine.system.join("etc/claude-code/.claude/skills/policy"),
        &[],
    );
    write_skill(&machine.system.join("etc/codex/skills/admin-skill"), &[]);
    // User roots.
    write_skill(
        &home.join(".agents/skills/shared-notes"),
        &[("notes/a.md", "a")],
    );
    write_skill(&home.join(".codex/skills/codex-only"), &[]);
    write_skill(&home.join(".codex/skills/.system/sys-skill"), &[]);
    write_skill(&home.join(".gemini/skills/gem"), &[]);
    write_skill(&home.join(".config/opencode/skills/oc-skill"), &[]);
    write_skill(&home.join(".config/goose/skills/goose-skill"), &[]);
    write_skill(&home.join(".copilot/skills/cop-user"), &[]);
    write_skill(&home.join(".cursor/skills/cur"), &[]);
    write_skill(&home.join(".codeium/windsurf/skills/wind"), &[]);
    write_skill(
        &home.join(".claude/skills/handmade"),
        &[("LICENSE", "MIT\n")],
    );
    write_skill(&home.join(".claude/skills/Bad_Name"), &[]);
    write_skill(&home.join(".claude/skills/release"), &[]);
    // A symlinked skill, and one skill reached through two roots.
    let elsewhere = machine.root().join("elsewhere/linked");
    write_skill(&elsewhere, &[]);
    symlink(&elsewhere, &home.join(".claude/skills/linked"));
    write_skill(&home.join(".claude/skills/dual"), &[]);
    symlink(
        &home.join(".claude/skills/dual"),
        &home.join(".gemini/skills/dual"),
    );
    // Installed by agent-skill-installer: one left alone, one edited since.
    let installer = Installer::for_claude(home, "fixture-installer", "1.0.0");
    for name in ["pdf-intact", "pdf-edited"] {
        let skill = agent_skill_installer::Skill::new(name, "Reads PDFs.", "# PDF\n")
            .unwrap()
            .with_file("references/forms.md", "# Forms\n")
            .unwrap();
        installer.install(&skill);
    }
    fs::write(
        home.join(".claude/skills/pdf-edited/references/forms.md"),
        "# Forms, edited\n",
    )
    .unwrap();
    // Project skills at two levels of the repository.
    write_skill(&repo.join(".claude/skills/release"), &[]);
    write_skill(&repo.join("app/.claude/skills/deploy"), &[]);
    write_skill(&repo.join(".agents/skills/repo-tool"), &[]);
    write_skill(&repo.join(".codex/skills/cx-proj"), &[]);
    write_skill(&repo.join("app/.gemini/skills/gproj"), &[]);
    write_skill(&repo.join("app/.windsurf/skills/wproj"), &[]);
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn every_skill_in_every_agent_and_scope_is_listed_as_expected() {
    let machine = Machine::new();
    build(&machine);
    let root = machine.root();
    let listing = machine.list_json();
    let skills = listing["skills"].as_array().unwrap();
    let mut listed: BTreeMap<(String, String), &Value> = BTreeMap::new();
    for skill in skills {
        let dir = relative(Path::new(skill["dir"].as_str().unwrap()), &root);
        let name = skill["name"].as_str().unwrap().to_owned();
        assert!(
            listed.insert((name, dir), skill).is_none(),
            "listed twice: {skill}"
        );
    }
    let expected = expectations();
    for want in &expected {
        let key = (want.name.to_owned(), want.dir.to_owned());
        let got = listed
            .get(&key)
            .unwrap_or_else(|| panic!("{want:?} is not listed; listed: {:?}", listed.keys()));
        assert_eq!(got["source"], want.source, "source of {want:?}");
        assert_eq!(strings(&got["agents"]), want.agents, "agents of {want:?}");
        assert_eq!(got["state"], want.state, "state of {want:?}");
        let shadowed: Vec<String> = strings(&got["shadowed_by"])
            .iter()
            .map(|p| relative(Path::new(p), &root))
            .collect();
        assert_eq!(shadowed, want.shadowed_by, "shadowing of {want:?}");
        let real = PathBuf::from(got["real_dir"].as_str().unwrap());
        assert_eq!(got["digest"], oracle_digest(&real), "digest of {want:?}");
        match want.state {
            "intact" | "modified" => {
                let record = &got["record"];
                assert_eq!(record["installed_by"], "fixture-installer");
                assert_eq!(record["installed_version"], "1.0.0");
                let recorded = record["content_digest"].as_str().unwrap();
                assert_eq!(
                    recorded == got["digest"],
                    want.state == "intact",
                    "{want:?}"
                );
            }
            // Plugin managers record no hash this listing can check their copies against.
            "unverifiable" => {
                let installer = got["record"]["installer"].as_str().unwrap_or_default();
                let by_dir = [
                    ("/.claude/", "claude-plugin"),
                    ("/.codex/", "codex-plugin"),
                    ("/.copilot/", "copilot-plugin"),
                    ("/.gemini/", "gemini-extension"),
                ];
                let (_, expected) = by_dir
                    .iter()
                    .find(|(dir, _)| got["dir"].as_str().unwrap().contains(dir))
                    .unwrap_or_else(|| panic!("{want:?} is no plugin"));
                assert_eq!(installer, *expected, "installer of {want:?}");
            }
            _ => assert!(got["record"].is_null(), "record of {want:?}"),
        }
    }
    assert_eq!(
        skills.len(),
        expected.len(),
        "unexpected skills: {listed:#?}"
    );
}

#[test]
fn links_and_second_roots_are_reported() {
    let machine = Machine::new();
    build(&machine);
    let root = machine.root();
    let listing = machine.list_json();
    let find = |name: &str| {
        listing["skills"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()
            .clone()
    };
    let linked = find("linked");
    assert_eq!(linked["is_link"], true);
    assert_eq!(
        relative(Path::new(linked["real_dir"].as_str().unwrap()), &root),
        "elsewhere/linked"
    );
    let dual = find("dual");
    assert_eq!(dual["is_link"], true);
    let reached: Vec<String> = strings(&dual["reached_by"])
        .iter()
        .map(|p| relative(Path::new(p), &root))
        .collect();
    assert_eq!(
        reached,
        ["home/.claude/skills/dual", "home/.gemini/skills/dual"]
    );
    let shadowing = &find("release")["shadowing"];
    let agents: Vec<&str> = shadowing
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["agent"].as_str().unwrap())
        .collect();
    // The home copy comes first; Amp reads a project's `.claude/skills` before the home's
    // (its own listing), while Claude Code runs the personal copy over the project's.
    assert_eq!(agents, ["amp"], "{shadowing}");
    let project_copy = listing["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "release" && s["source"] == "project")
        .unwrap();
    let losers: Vec<&str> = project_copy["shadowing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["agent"].as_str().unwrap())
        .collect();
    assert_eq!(losers, ["claude-code"], "{project_copy}");
    // OpenCode keeps whichever copy it finishes reading last: neither is shadowed for it.
    assert_eq!(
        project_copy["unsettled_for"],
        serde_json::json!(["opencode"])
    );
}

#[test]
fn lint_problems_are_listed_without_hiding_the_skill() {
    let machine = Machine::new();
    build(&machine);
    let listing = machine.list_json();
    let bad = listing["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Bad_Name")
        .unwrap();
    let problems = strings(&bad["problems"]);
    assert!(
        problems.iter().any(|p| p.contains("must be lowercase")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("invalid characters")),
        "{problems:?}"
    );
    let clean = listing["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "handmade")
        .unwrap();
    assert_eq!(strings(&clean["problems"]), Vec::<String>::new());
}

#[test]
fn roots_report_their_agents_existence_and_counts() {
    let machine = Machine::new();
    build(&machine);
    let root = machine.root();
    let listing = machine.list_json();
    let roots: BTreeMap<String, &Value> = listing["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (relative(Path::new(r["path"].as_str().unwrap()), &root), r))
        .collect();
    let claude = roots["home/.claude/skills"];
    assert_eq!(claude["source"], "user");
    assert_eq!(claude["exists"], true);
    // The roots name every agent that reads them, Amp too, which this machine lacks; the skills
    // name only the installed ones (CLAUDE_HOME_READERS).
    assert_eq!(
        strings(&claude["agents"]),
        ["claude-code", "opencode", "amp", "cursor", "goose"]
    );
    // handmade, Bad_Name, release, linked, dual, pdf-intact, pdf-edited, toolbox:lint
    assert_eq!(claude["skills"], 8);
    let labels = strings(&claude["labels"]);
    let mut unique = labels.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(labels.len(), unique.len(), "{labels:?}");
    assert_eq!(labels[0], "Claude Code personal skills");
    let missing = roots["home/.opencode/skills"];
    assert_eq!(missing["exists"], false);
    assert_eq!(missing["skills"], 0);
    let project = roots["work/repo/.claude/skills"];
    assert_eq!(project["source"], "project");
}

#[test]
fn the_table_names_each_skill_and_summarises() {
    let machine = Machine::new();
    build(&machine);
    let output = machine.run(&["list"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("NAME "), "{text}");
    assert!(text.contains("~/.claude/skills/pdf-edited"), "{text}");
    assert!(text.contains("release (shadowed)"), "{text}");
    assert!(
        text.contains("shadowed for claude-code by ~/.claude/skills/release"),
        "{text}"
    );
    let expected_total = expectations().len();
    assert!(
        text.contains(&format!("{expected_total} skills in ")),
        "{text}"
    );
    assert!(text.contains("1 intact, 1 modified"), "{text}");
}
