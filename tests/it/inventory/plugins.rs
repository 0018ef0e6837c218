//! Plugin and extension skills as each agent's own records load them: every test builds one
//! agent's record layout in a throw-away home, as that agent's installer writes it (see the
//! probe findings the `crate::plugin` readers cite), and checks `skilldeck list --json` for
//! which agents load each skill and by what name. A plugin folder the records do not load is
//! still listed, with no agent.

use std::path::Path;

use serde_json::Value;

use crate::common::plugins::claude_plugin_installs;
use crate::common::{Machine, write_files, write_skill};

/// The agents that load the skill in `dir` (relative to the home), or `None` when the
/// listing does not hold it.
fn agents_at(list: &Value, home: &Path, dir: &str) -> Option<Vec<String>> {
    let dir = home.join(dir);
    list["skills"]
        .as_array()?
        .iter()
        .find(|skill| skill["dir"].as_str() == dir.to_str())
        .map(|skill| {
            skill["agents"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|a| a.as_str().map(str::to_owned))
                .collect()
        })
}

/// The name the listing gives the skill in `dir` (relative to the home).
fn name_at(list: &Value, home: &Path, dir: &str) -> Option<String> {
    let dir = home.join(dir);
    list["skills"]
        .as_array()?
        .iter()
        .find(|skill| skill["dir"].as_str() == dir.to_str())
        .and_then(|skill| skill["name"].as_str().map(str::to_owned))
}

/// Every problem the listing reports on the root at `path` (relative to the home).
fn root_problems(list: &Value, home: &Path, path: &str) -> String {
    let path = home.join(path);
    list["roots"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|root| root["path"].as_str() == path.to_str())
        .map(|root| root["problems"].to_string())
        .collect()
}

fn loads(list: &Value, home: &Path, dir: &str, agent: &str) -> bool {
    agents_at(list, home, dir)
        .unwrap_or_else(|| panic!("{dir} is not listed: {list:#}"))
        .iter()
        .any(|a| a == agent)
}

#[test]
fn codex_loads_only_the_enabled_plugins_active_version_and_its_deep_skills() {
    let machine = Machine::new();
    let home = &machine.home;
    let cache = ".codex/plugins/cache/m";
    for dir in [
        "alpha/1.2.3/skills/greet",
        "alpha/10.0.0/skills/greet",
        "alpha/10.0.0/skills/grp/deep",
        "beta/1.0.0/skills/other",
        "orphan/1.0.0/skills/lost",
    ] {
        write_skill(&home.join(cache).join(dir), &[]);
    }
    write_skill(&home.join(cache).join("alpha/10.0.0"), &[]);
    // Codex 0.171.0 loads a cached plugin only with a manifest (plugin::codex).
    for (version, name) in [
        ("alpha/1.2.3", "alpha"),
        ("alpha/10.0.0", "alpha"),
        ("beta/1.0.0", "beta"),
    ] {
        write_files(
            &home.join(cache).join(version),
            &[(
                ".codex-plugin/plugin.json",
                &format!("{{\"name\": \"{name}\"}}"),
            )],
        );
    }
    write_files(
        &home.join(".codex"),
        &[(
            "config.toml",
            "[marketplaces.m]\nsource_type = \"local\"\nsource = \"/gone\"\n\n\
             [plugins.\"alpha@m\"]\nenabled = true\n\n[plugins.\"beta@m\"]\nenabled = false\n",
        )],
    );
    let list = machine.list_json();
    assert_eq!(
        agents_at(&list, home, &format!("{cache}/alpha/10.0.0/skills/greet")),
        Some(vec!["codex".to_owned()])
    );
    assert!(loads(
        &list,
        home,
        &format!("{cache}/alpha/10.0.0/skills/grp/deep"),
        "codex"
    ));
    assert_eq!(
        name_at(
            &list,
            home,
            &format!("{cache}/alpha/10.0.0/skills/grp/deep")
        )
        .as_deref(),
        Some("alpha:deep")
    );
    for unloaded in [
        "alpha/1.2.3/skills/greet",
        "beta/1.0.0/skills/other",
        "orphan/1.0.0/skills/lost",
    ] {
        let dir = format!("{cache}/{unloaded}");
        assert_eq!(agents_at(&list, home, &dir), Some(vec![]), "{dir}");
    }
    // The version folder's own SKILL.md is no skill of the plugin.
    assert_eq!(
        agents_at(&list, home, &format!("{cache}/alpha/10.0.0")),
        None
    );
}

#[test]
fn a_codex_config_that_does_not_parse_loads_no_plugin_and_says_so() {
    let machine = Machine::new();
    let home = &machine.home;
    let skill = ".codex/plugins/cache/m/alpha/local/skills/greet";
    write_skill(&home.join(skill), &[]);
    write_files(
        &home.join(".codex"),
        &[("config.toml", "[plugins.\"alpha@m\"\nenabled = ")],
    );
    let list = machine.list_json();
    assert_eq!(agents_at(&list, home, skill), Some(vec![]));
    let problems = root_problems(&list, home, ".codex/plugins/cache");
    assert!(
        problems.contains("is not TOML Codex can read"),
        "{problems}"
    );
}

#[test]
fn claude_code_loads_a_cached_plugin_only_when_installed_and_enabled() {
    let machine = Machine::new();
    let home = &machine.home;
    let cache = ".claude/plugins/cache/gmkt";
    for dir in [
        "p1/1.0.0/skills/s1",
        "p1/0.9.0/skills/s1",
        "off/1.0.0/skills/s2",
        "orphan/1.0.0/skills/s3",
        "proj/1.0.0/skills/sp",
    ] {
        write_skill(&home.join(cache).join(dir), &[]);
    }
    // A skill at the plugin's root, beside a `skills/` folder and with no `./` listed, is not
    // read (Claude Code 2.1.332, seed 16 of `agree::generate` class `claude-plugins`).
    write_files(
        &home.join(cache).join("p1/1.0.0"),
        &[(
            "SKILL.md",
            "---\nname: rootskill\ndescription: at the plugin root\n---\n",
        )],
    );
    claude_plugin_installs(
        home,
        &[
            ("p1@gmkt", "user", &format!("{cache}/p1/1.0.0")),
            ("off@gmkt", "user", &format!("{cache}/off/1.0.0")),
            ("proj@gmkt", "project", &format!("{cache}/proj/1.0.0")),
        ],
    );
    write_files(
        &home.join(".claude"),
        &[(
            "settings.json",
            r#"{"enabledPlugins":{"p1@gmkt":true,"off@gmkt":false,"orphan@gmkt":true,"proj@gmkt":true}}"#,
        )],
    );
    let list = machine.list_json();
    assert!(loads(
        &list,
        home,
        &format!("{cache}/p1/1.0.0/skills/s1"),
        "claude-code"
    ));
    assert_eq!(
        name_at(&list, home, &format!("{cache}/p1/1.0.0/skills/s1")).as_deref(),
        Some("p1:s1")
    );
    assert!(!loads(
        &list,
        home,
        &format!("{cache}/p1/1.0.0"),
        "claude-code"
    ));
    for unloaded in [
        "p1/0.9.0/skills/s1",
        "off/1.0.0/skills/s2",
        "orphan/1.0.0/skills/s3",
    ] {
        let dir = format!("{cache}/{unloaded}");
        assert!(!loads(&list, home, &dir, "claude-code"), "{dir}");
    }
    // A project install that names no project counts nowhere, though the user's settings
    // enable it (seeds 24 and 41 of `agree::generate` class `claude-plugins`).
    let project_skill = format!("{cache}/proj/1.0.0/skills/sp");
    assert!(!loads(&list, home, &project_skill, "claude-code"));
}

/// A plugin of a marketplace Claude Code does not know, one its marketplace's catalog does not
/// list, and one whose manifest lists a path without `./`: none loads, each is said
/// (`agree::generate` class `claude-plugins`, cases claude-code-plugin-*).
#[test]
fn claude_code_loads_no_plugin_it_cannot_place_or_whose_manifest_it_refuses() {
    let machine = Machine::new();
    let home = &machine.home;
    let cache = ".claude/plugins/cache";
    for dir in ["m/good/1.0.0", "m/bad/1.0.0", "unknown/lost/1.0.0"] {
        write_skill(&home.join(cache).join(dir).join("skills/s"), &[]);
    }
    write_files(
        &home.join(cache).join("m/bad/1.0.0"),
        &[(
            ".claude-plugin/plugin.json",
            r#"{"name":"bad","skills":["more"]}"#,
        )],
    );
    claude_plugin_installs(
        home,
        &[
            ("good@m", "user", &format!("{cache}/m/good/1.0.0")),
            ("bad@m", "user", &format!("{cache}/m/bad/1.0.0")),
        ],
    );
    // Installed and enabled, but neither `unknown` is known nor `m`'s catalog lists `gone`.
    let mut installed: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(home.join(".claude/plugins/installed_plugins.json")).unwrap(),
    )
    .unwrap();
    for (key, path) in [
        ("lost@unknown", "unknown/lost/1.0.0"),
        ("gone@m", "m/gone/1.0.0"),
    ] {
        write_skill(&home.join(cache).join(path).join("skills/s"), &[]);
        installed["plugins"][key] = serde_json::json!([{
            "scope": "user", "installPath": home.join(cache).join(path), "version": "1.0.0"}]);
    }
    write_files(
        &home.join(".claude/plugins"),
        &[("installed_plugins.json", &installed.to_string())],
    );
    write_files(
        &home.join(".claude"),
        &[(
            "settings.json",
            r#"{"enabledPlugins":{"good@m":true,"bad@m":true,"lost@unknown":true,"gone@m":true}}"#,
        )],
    );
    let list = machine.list_json();
    assert!(loads(
        &list,
        home,
        &format!("{cache}/m/good/1.0.0/skills/s"),
        "claude-code"
    ));
    for unloaded in ["m/bad/1.0.0", "unknown/lost/1.0.0", "m/gone/1.0.0"] {
        let dir = format!("{cache}/{unloaded}/skills/s");
        assert!(!loads(&list, home, &dir, "claude-code"), "{dir}");
    }
    let problems = root_problems(&list, home, cache);
    assert!(
        problems.contains("not recorded in known_marketplaces.json"),
        "{problems}"
    );
    assert!(problems.contains("does not list it"), "{problems}");
}

#[test]
fn claude_code_reads_a_local_folder_marketplaces_plugin_from_the_folder() {
    let machine = Machine::new();
    let home = &machine.home;
    let mkt = machine.root().join("mkt");
    write_files(
        &mkt,
        &[(
            ".claude-plugin/marketplace.json",
            r#"{"name":"mkt","plugins":[{"name":"p1","source":"./plugins/p1"}]}"#,
        )],
    );
    write_skill(&mkt.join("plugins/p1/skills/live"), &[]);
    let cached = ".claude/plugins/cache/mkt/p1/1.0.0/skills/live";
    write_skill(&home.join(cached), &[]);
    claude_plugin_installs(
        home,
        &[("p1@mkt", "user", ".claude/plugins/cache/mkt/p1/1.0.0")],
    );
    let known = serde_json::json!({"mkt": {
        "source": {"source": "directory", "path": mkt},
        "installLocation": mkt,
    }});
    write_files(
        &home.join(".claude/plugins"),
        &[("known_marketplaces.json", &known.to_string())],
    );
    write_files(
        &home.join(".claude"),
        &[("settings.json", r#"{"enabledPlugins":{"p1@mkt":true}}"#)],
    );
    let list = machine.list_json();
    let live = mkt.join("plugins/p1/skills/live");
    let live_skill = list["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["dir"].as_str() == live.to_str())
        .unwrap_or_else(|| panic!("the folder's copy is not listed: {list:#}"));
    assert_eq!(live_skill["name"], "p1:live");
    assert_eq!(live_skill["agents"], serde_json::json!(["claude-code"]));
    assert_eq!(live_skill["source"], "plugin");
    assert!(!loads(&list, home, cached, "claude-code"));
}

#[test]
fn gemini_cli_extensions_follow_their_manifest_link_and_enablement() {
    let machine = Machine::new();
    let home = &machine.home;
    let ext = ".gemini/extensions";
    let a = format!("{ext}/ext-a-folder");
    write_files(
        &home.join(&a),
        &[(
            "gemini-extension.json",
            r#"{"name":"ext-a","version":"1.2.3"}"#,
        )],
    );
    write_skill(&home.join(&a).join("skills/ext-skill"), &[]);
    write_skill(&home.join(&a).join("skills"), &[]);
    write_skill(&home.join(&a).join("skills/group/nested"), &[]);
    write_skill(&home.join(&a).join("skills/clash"), &[]);
    write_skill(&home.join(&a), &[]);
    // The user's own skill of the same name wins over the extension's.
    write_skill(&home.join(".gemini/skills/clash"), &[]);
    // A folder without a manifest, or with one that gives no version, is no extension.
    write_skill(&home.join(ext).join("no-manifest/skills/stray"), &[]);
    write_files(
        &home.join(ext).join("no-version"),
        &[("gemini-extension.json", r#"{"name":"no-version"}"#)],
    );
    write_skill(&home.join(ext).join("no-version/skills/unversioned"), &[]);
    // A linked extension is read from its source.
    let source = machine.root().join("src/ext-b");
    write_files(
        &source,
        &[(
            "gemini-extension.json",
            r#"{"name":"ext-b","version":"0.0.1"}"#,
        )],
    );
    write_skill(&source.join("skills/linked"), &[]);
    let record = serde_json::json!({"source": source, "type": "link"});
    write_files(
        &home.join(ext).join("ext-b"),
        &[(".gemini-extension-install.json", &record.to_string())],
    );
    // A disabled extension gives nothing for a start below the disabled path.
    write_files(
        &home.join(ext).join("ext-c"),
        &[(
            "gemini-extension.json",
            r#"{"name":"ext-c","version":"1.0.0"}"#,
        )],
    );
    write_skill(&home.join(ext).join("ext-c/skills/off"), &[]);
    let enablement = serde_json::json!({
        "ext-c": {"overrides": [format!("{}/*", machine.root().display()),
                                format!("!{}/*", machine.repo.display())]},
    });
    write_files(
        &home.join(ext),
        &[("extension-enablement.json", &enablement.to_string())],
    );

    let list = machine.list_json();
    let gemini = "gemini-cli";
    assert!(loads(&list, home, &format!("{a}/skills/ext-skill"), gemini));
    assert_eq!(
        name_at(&list, home, &format!("{a}/skills/ext-skill")).as_deref(),
        Some("ext-skill")
    );
    assert!(loads(&list, home, &format!("{a}/skills"), gemini));
    assert!(agents_at(&list, home, &format!("{a}/skills/group/nested")).is_none());
    assert!(agents_at(&list, home, &a).is_none());
    assert!(agents_at(&list, home, &format!("{ext}/no-manifest/skills/stray")).is_none());
    assert!(agents_at(&list, home, &format!("{ext}/no-version/skills/unversioned")).is_none());
    assert!(!loads(
        &list,
        home,
        &format!("{ext}/ext-c/skills/off"),
        gemini
    ));
    let linked = source.join("skills/linked");
    let linked = list["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["dir"].as_str() == linked.to_str())
        .unwrap_or_else(|| panic!("the linked source is not read: {list:#}"));
    assert_eq!(linked["agents"], serde_json::json!([gemini]));
    assert_eq!(linked["name"], "linked");
    let clash = list["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["dir"].as_str() == home.join(&a).join("skills/clash").to_str())
        .unwrap();
    assert_eq!(clash["name"], "clash");
    assert!(
        clash["shadowed_by"]
            .to_string()
            .contains(".gemini/skills/clash"),
        "{clash:#}"
    );
    let problems = root_problems(&list, home, ext);
    assert!(
        problems.contains("holds no gemini-extension.json"),
        "{problems}"
    );
    assert!(problems.contains("no-version"), "{problems}");
}

#[test]
fn copilot_loads_plugins_from_its_records_and_local_marketplaces_in_place() {
    let machine = Machine::new();
    let home = &machine.home;
    let installed = ".copilot/installed-plugins";
    write_skill(&home.join(installed).join("mymkt/pa/skills/grp/sb"), &[]);
    write_skill(&home.join(installed).join("mymkt/poff/skills/off"), &[]);
    write_skill(&home.join(installed).join("_direct/old/skills/gone"), &[]);
    write_skill(
        &home.join(installed).join("mymkt/pnodate/skills/undated"),
        &[],
    );
    let record = |name: &str, enabled: bool| {
        serde_json::json!({
            "name": name, "marketplace": "mymkt", "version": "1.0.0", "enabled": enabled,
            "cache_path": home.join(installed).join("mymkt").join(name),
            "installed_at": "2026-12-01T00:00:00.000Z",
        })
    };
    let config = format!(
        "// User settings belong in settings.json.\n{}",
        serde_json::json!({"installedPlugins": [record("pa", true), record("poff", false)]})
    );
    let mkt = machine.root().join("localmkt");
    write_files(
        &mkt,
        &[(
            ".github/plugin/marketplace.json",
            r#"{"name":"localmkt","plugins":[{"name":"live","source":"./plugins/live"},
                {"name":"notenabled","source":"./plugins/notenabled"}]}"#,
        )],
    );
    write_skill(&mkt.join("plugins/live/skills/sa"), &[]);
    write_skill(&mkt.join("plugins/notenabled/skills/sn"), &[]);
    let settings = serde_json::json!({
        "extraKnownMarketplaces": {"localmkt": {"source": {"source": "directory", "path": mkt}}},
        "enabledPlugins": {"live@localmkt": true, "pa@mymkt": true},
    });
    write_files(
        &home.join(".copilot"),
        &[
            ("config.json", &config),
            ("settings.json", &settings.to_string()),
        ],
    );
    let list = machine.list_json();
    let sb = format!("{installed}/mymkt/pa/skills/grp/sb");
    assert!(loads(&list, home, &sb, "copilot"));
    assert_eq!(name_at(&list, home, &sb).as_deref(), Some("sb"));
    assert!(!loads(
        &list,
        home,
        &format!("{installed}/mymkt/poff/skills/off"),
        "copilot"
    ));
    assert!(!loads(
        &list,
        home,
        &format!("{installed}/_direct/old/skills/gone"),
        "copilot"
    ));
    let live = mkt.join("plugins/live/skills/sa");
    let live = list["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["dir"].as_str() == live.to_str())
        .unwrap_or_else(|| panic!("the live plugin is not read: {list:#}"));
    assert_eq!(live["agents"], serde_json::json!(["copilot"]));
    assert_eq!(live["name"], "sa");
    assert_eq!(live["source"], "plugin");
    let not_enabled = mkt.join("plugins/notenabled/skills/sn");
    assert!(
        !list["skills"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["dir"].as_str() == not_enabled.to_str())
    );
    // One record Copilot cannot read (no installed_at) voids every record: neither it nor
    // `pa` loads (copilot skill list --json 1.0.102; FINDINGS #42).
    let voided = serde_json::json!({"installedPlugins": [
        record("pa", true),
        {"name": "pnodate", "marketplace": "mymkt", "enabled": true,
         "cache_path": home.join(installed).join("mymkt/pnodate")},
    ]})
    .to_string();
    write_files(&home.join(".copilot"), &[("config.json", &voided)]);
    let list = machine.list_json();
    let undated = format!("{installed}/mymkt/pnodate/skills/undated");
    assert!(!loads(&list, home, &undated, "copilot"));
    assert!(!loads(&list, home, &sb, "copilot"));
}
