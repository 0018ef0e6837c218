//! `skilldeck disable` and `enable` through the real binary: what each writes where, that a
//! skill already as asked is left alone, that every refusal leaves the settings, the roots and
//! the store byte for byte as they were, and that `list --json` reports `disabled_for`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{Machine, write_files, write_skill};

/// Every file below `dir` with its bytes: the whole machine, to show a refusal changed nothing.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_path_buf(), fs::read(e.path()).unwrap()))
        .collect()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn disabled_for(machine: &Machine, dir: &Path) -> serde_json::Value {
    let list = machine.list_json();
    list["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["dir"].as_str() == dir.to_str())
        .unwrap_or_else(|| panic!("{} not listed: {list:#}", dir.display()))["disabled_for"]
        .clone()
}

#[test]
fn disable_writes_claude_codes_user_settings_and_enable_takes_it_out() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/pdf");
    write_skill(&dir, &[]);
    let settings = machine.home.join(".claude/settings.json");
    let before = "{\n    \"model\": \"opus\",\n    \"env\": {\"A\": \"1\"}\n}\n";
    write_files(&machine.home.join(".claude"), &[("settings.json", before)]);
    let out = machine.run_expecting(&["disable", "pdf", "--agent", "claude-code"], 0);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("~/.claude/settings.json"), "{said}");
    assert!(said.contains("skilldeck undo"), "{said}");
    let text = fs::read_to_string(&settings).unwrap();
    assert_eq!(
        text,
        "{\n    \"model\": \"opus\",\n    \"env\": {\"A\": \"1\"},\n    \"skillOverrides\": {\n        \"pdf\": \"off\"\n    }\n}\n"
    );
    assert_eq!(
        disabled_for(&machine, &dir),
        serde_json::json!(["claude-code"])
    );
    // Again: already off, nothing written, no journal entry.
    let journal = machine.home.join(".local/share/skilldeck/journal.jsonl");
    let lines = fs::read_to_string(&journal).unwrap().lines().count();
    let out = machine.run_expecting(&["disable", "pdf", "--agent", "claude-code"], 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains("already off"));
    assert_eq!(fs::read_to_string(&journal).unwrap().lines().count(), lines);
    machine.run_expecting(&["enable", "pdf", "--agent", "claude-code"], 0);
    assert_eq!(fs::read_to_string(&settings).unwrap(), before);
    assert_eq!(disabled_for(&machine, &dir), serde_json::json!([]));
}

#[test]
fn the_project_scope_is_claude_codes_settings_local_json() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/pdf"), &[]);
    let out = machine.run_expecting(
        &[
            "disable",
            "pdf",
            "--agent",
            "claude-code",
            "--scope",
            "project",
            "--json",
        ],
        0,
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The repository root's, which Claude Code reads from any folder of it (and its `/skills`
    // menu writes), not the start folder's.
    let local = machine
        .start
        .parent()
        .unwrap()
        .join(".claude/settings.local.json");
    assert_eq!(json["operation"], "disable");
    assert_eq!(json["edited"], serde_json::json!([local]));
    assert!(json["undo"].as_str().unwrap().contains("skilldeck undo"));
    let value: serde_json::Value = serde_json::from_slice(&fs::read(&local).unwrap()).unwrap();
    assert_eq!(value, serde_json::json!({"skillOverrides": {"pdf": "off"}}));
}

#[test]
fn a_more_local_on_is_refused_before_anything_is_written() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/pdf"), &[]);
    write_files(
        &machine.start.join(".claude"),
        &[(
            "settings.local.json",
            r#"{"skillOverrides": {"pdf": "on"}}"#,
        )],
    );
    let before = tree(&machine.root());
    let out = machine.run_expecting(&["disable", "pdf", "--agent", "claude-code"], 1);
    assert!(
        stderr(&out).contains("settings.local.json"),
        "{}",
        stderr(&out)
    );
    assert_eq!(tree(&machine.root()), before);
}

#[test]
fn refusals_leave_settings_roots_and_store_byte_identical() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/pdf"), &[]);
    write_skill(&machine.home.join(".agents/skills/tex"), &[]);
    write_skill(&machine.home.join(".cursor/skills/cur"), &[]);
    write_files(
        &machine.home.join(".gemini"),
        &[("settings.json", "{\n  \"skills\": {\"disabled\": [\"x\"]\n")],
    );
    write_skill(&machine.home.join(".gemini/skills/gem"), &[]);
    // Claude Code ignores a settings file with a comment, so a skill turned off there stays on.
    write_files(
        &machine.start.parent().unwrap().join(".claude"),
        &[(
            "settings.local.json",
            "{\n  // mine\n  \"model\": \"x\"\n}\n",
        )],
    );
    // A snapshot in the store, so the store is part of what must not change.
    machine.run_expecting(&["snapshot", "pdf"], 0);
    let before = tree(&machine.root());
    let cases: &[(&[&str], &str)] = &[
        (&["disable", "cur", "--agent", "cursor"], "no setting"),
        (
            &["disable", "tex", "--agent", "codex", "--scope", "project"],
            "#20210",
        ),
        (&["disable", "pdf", "--agent", "codex"], "does not load"),
        (
            &["disable", "gem", "--agent", "gemini-cli"],
            "Gemini CLI cannot read",
        ),
        (&["disable", "nothing-here", "--agent", "codex"], "no skill"),
        (
            &[
                "disable",
                "pdf",
                "--agent",
                "claude-code",
                "--scope",
                "project",
            ],
            "only as plain JSON",
        ),
    ];
    for (args, says) in cases {
        let out = machine.run_expecting(args, 1);
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert_eq!(tree(&machine.root()), before, "{args:?} changed something");
    }
}

#[test]
fn an_ambiguous_name_lists_the_candidates_and_exits_2() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/pdf"), &[]);
    write_skill(&machine.start.join(".claude/skills/pdf"), &[]);
    let out = machine.run_expecting(&["disable", "pdf", "--agent", "claude-code"], 2);
    let said = stderr(&out);
    assert!(
        said.contains(
            &machine
                .home
                .join(".claude/skills/pdf")
                .display()
                .to_string()
        ),
        "{said}"
    );
    assert!(
        said.contains(
            &machine
                .start
                .join(".claude/skills/pdf")
                .display()
                .to_string()
        ),
        "{said}"
    );
    // Its folder names one.
    let folder = machine.start.join(".claude/skills/pdf");
    machine.run_expecting(
        &[
            "disable",
            folder.to_str().unwrap(),
            "--agent",
            "claude-code",
        ],
        0,
    );
}

#[test]
fn codex_gets_a_path_entry_and_enable_overrules_a_name_entry() {
    let machine = Machine::new();
    let dir = machine.home.join(".agents/skills/tex");
    write_skill(&dir, &[]);
    let config = "# mine\nmodel = \"o3\"\n\n[[skills.config]]\nname = \"tex\"\nenabled = false\n";
    write_files(&machine.home.join(".codex"), &[("config.toml", config)]);
    assert!(disabled_for(&machine, &dir).to_string().contains("codex"));
    let out = machine.run_expecting(&["enable", "tex", "--agent", "codex"], 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains("restart"));
    let text = fs::read_to_string(machine.home.join(".codex/config.toml")).unwrap();
    assert!(text.starts_with(config), "{text}");
    assert!(text.ends_with("enabled = true\n"), "{text}");
}

#[test]
fn gemini_enable_takes_every_spelling_out_of_user_and_workspace() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".gemini/skills/gem"), &[]);
    write_files(
        &machine.home.join(".gemini"),
        &[(
            "settings.json",
            "{\n  // mine\n  \"skills\": {\"disabled\": [\"GEM\", \"other\"]}\n}\n",
        )],
    );
    write_files(
        &machine.start.join(".gemini"),
        &[("settings.json", r#"{"skills": {"disabled": ["gem"]}}"#)],
    );
    let out = machine.run_expecting(&["enable", "gem", "--agent", "gemini-cli"], 0);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("restart"), "{said}");
    assert_eq!(
        fs::read_to_string(machine.home.join(".gemini/settings.json")).unwrap(),
        "{\n  // mine\n  \"skills\": {\"disabled\": [\"other\"]}\n}\n"
    );
    // The list and the object it emptied go with the name: the file holds no switch left.
    assert_eq!(
        fs::read_to_string(machine.start.join(".gemini/settings.json")).unwrap(),
        "{}"
    );
}

#[test]
fn copilot_writes_disabled_skills_in_its_home() {
    let machine = Machine::new();
    let dir = machine.home.join(".copilot/skills/co");
    write_skill(&dir, &[]);
    machine.run_expecting(&["disable", "co", "--agent", "copilot"], 0);
    let value: serde_json::Value =
        serde_json::from_slice(&fs::read(machine.home.join(".copilot/settings.json")).unwrap())
            .unwrap();
    assert_eq!(value, serde_json::json!({"disabledSkills": ["co"]}));
    assert_eq!(disabled_for(&machine, &dir), serde_json::json!(["copilot"]));
}

#[test]
fn a_plugin_skill_needs_the_whole_plugin_said() {
    let machine = Machine::new();
    let home = &machine.home;
    let plugin = ".claude/plugins/cache/mkt/p1/1.0.0";
    write_skill(&home.join(plugin).join("skills/one"), &[]);
    write_skill(&home.join(plugin).join("skills/two"), &[]);
    crate::common::plugins::claude_plugin_installs(home, &[("p1@mkt", "user", plugin)]);
    write_files(
        &home.join(".claude"),
        &[("settings.json", r#"{"enabledPlugins": {"p1@mkt": true}}"#)],
    );
    let before = tree(&machine.root());
    let out = machine.run_expecting(&["disable", "p1:one", "--agent", "claude-code"], 1);
    let said = stderr(&out);
    assert!(said.contains("p1@mkt") && said.contains("p1:two"), "{said}");
    assert_eq!(tree(&machine.root()), before);
    let out = machine.run_expecting(
        &[
            "disable",
            "p1:one",
            "--agent",
            "claude-code",
            "--whole-plugin",
        ],
        0,
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("whole Claude Code plugin"));
    assert_eq!(
        fs::read_to_string(home.join(".claude/settings.json")).unwrap(),
        r#"{"enabledPlugins": {"p1@mkt": false}}"#
    );
    // Claude Code loads none of its skills now; the plugin can still be turned back on.
    machine.run_expecting(&["enable", "p1:one", "--agent", "claude-code"], 1);
    machine.run_expecting(
        &[
            "enable",
            "p1:one",
            "--agent",
            "claude-code",
            "--whole-plugin",
        ],
        0,
    );
    assert_eq!(
        fs::read_to_string(home.join(".claude/settings.json")).unwrap(),
        r#"{"enabledPlugins": {"p1@mkt": true}}"#
    );
}

#[test]
fn help_names_each_agents_file() {
    let machine = Machine::new();
    let out = machine.run_expecting(&["disable", "--help"], 0);
    let help = String::from_utf8_lossy(&out.stdout);
    for file in [
        "settings.local.json",
        "config.toml",
        ".gemini/settings.json",
        "disabledSkills",
    ] {
        assert!(help.contains(file), "{file}: {help}");
    }
}

#[test]
fn undo_puts_each_settings_file_back_byte_for_byte_and_refuses_after_a_later_edit() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".gemini/skills/gem"), &[]);
    write_skill(&machine.home.join(".claude/skills/pdf"), &[]);
    let gemini = machine.home.join(".gemini/settings.json");
    let gemini_before = "{\r\n\t// mine\r\n\t\"ui\": {\"theme\": \"dark\"}\r\n}\r\n";
    write_files(
        &machine.home.join(".gemini"),
        &[("settings.json", gemini_before)],
    );
    let claude = machine.home.join(".claude/settings.json");
    machine.run_expecting(&["disable", "gem", "--agent", "gemini-cli"], 0);
    assert_ne!(fs::read_to_string(&gemini).unwrap(), gemini_before);
    machine.run_expecting(&["disable", "pdf", "--agent", "claude-code"], 0);
    assert!(claude.exists(), "Claude Code's user settings were created");

    // The later disable first: the file it created goes again.
    machine.run_expecting(&["undo"], 0);
    assert!(!claude.exists(), "undo left the settings file it created");
    machine.run_expecting(&["undo"], 0);
    assert_eq!(fs::read_to_string(&gemini).unwrap(), gemini_before);
    assert_eq!(
        disabled_for(&machine, &machine.home.join(".gemini/skills/gem")),
        serde_json::json!([])
    );

    // Turned off again, then edited by hand: undo must not lose the hand edit.
    machine.run_expecting(&["disable", "gem", "--agent", "gemini-cli"], 0);
    let mut edited = fs::read_to_string(&gemini).unwrap();
    edited.push('\n');
    fs::write(&gemini, &edited).unwrap();
    let before = tree(&machine.root());
    let out = machine.run_expecting(&["undo"], 1);
    assert!(stderr(&out).contains("changed since"), "{}", stderr(&out));
    assert_eq!(
        tree(&machine.root()),
        before,
        "a refused undo changed something"
    );
}

#[test]
fn an_undo_over_two_settings_files_reverts_neither_when_one_changed_since() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".gemini/skills/gem"), &[]);
    let user = machine.home.join(".gemini/settings.json");
    let workspace = machine.start.join(".gemini/settings.json");
    write_files(
        &machine.home.join(".gemini"),
        &[("settings.json", r#"{"skills": {"disabled": ["gem"]}}"#)],
    );
    write_files(
        &machine.start.join(".gemini"),
        &[("settings.json", r#"{"skills": {"disabled": ["gem"]}}"#)],
    );
    // One enable edits both files: one journal entry with two settings changes.
    machine.run_expecting(&["enable", "gem", "--agent", "gemini-cli"], 0);
    let mut edited = fs::read_to_string(&workspace).unwrap();
    edited.push(' ');
    fs::write(&workspace, &edited).unwrap();
    let before = tree(&machine.root());
    let out = machine.run_expecting(&["undo"], 1);
    assert!(stderr(&out).contains("changed since"), "{}", stderr(&out));
    assert_eq!(
        tree(&machine.root()),
        before,
        "a refused undo changed a file"
    );
    // Put back as enable left it, the undo reverts both.
    edited.pop();
    fs::write(&workspace, &edited).unwrap();
    machine.run_expecting(&["undo"], 0);
    for file in [&user, &workspace] {
        assert_eq!(
            fs::read_to_string(file).unwrap(),
            r#"{"skills": {"disabled": ["gem"]}}"#
        );
    }
}

/// `disable` then `enable` gives each agent's settings file back byte for byte: the entry,
/// and the lists and objects the disable made for it, go again; the user's comments, keys and
/// layout stay.
#[test]
fn disable_then_enable_leaves_each_agents_settings_file_as_it_was() {
    let cases: [(&str, &str, &str, &str); 5] = [
        (
            "claude-code",
            ".claude/skills/demo",
            ".claude/settings.json",
            "{\n  \"model\": \"x\",\n  \"env\": {}\n}\n",
        ),
        (
            "gemini-cli",
            ".gemini/skills/demo",
            ".gemini/settings.json",
            "{\n  // mine\n  \"ui\": {}\n}\n",
        ),
        (
            "copilot",
            ".copilot/skills/demo",
            ".copilot/settings.json",
            "{\n  \"model\": \"gpt\"\n}\n",
        ),
        (
            "codex",
            ".agents/skills/demo",
            ".codex/config.toml",
            "# mine\nmodel = \"o3\"\n",
        ),
        (
            "opencode",
            ".config/opencode/skills/demo",
            ".config/opencode/opencode.json",
            "{\n  // mine\n  \"theme\": \"dark\"\n}\n",
        ),
    ];
    for (agent, skill, settings, before) in cases {
        let machine = Machine::new();
        write_skill(&machine.home.join(skill), &[]);
        write_files(&machine.home, &[(settings, before)]);
        machine.run_expecting(&["disable", "demo", "--agent", agent], 0);
        let file = machine.home.join(settings);
        assert_ne!(fs::read_to_string(&file).unwrap(), before, "{agent}");
        machine.run_expecting(&["enable", "demo", "--agent", agent], 0);
        assert_eq!(fs::read_to_string(&file).unwrap(), before, "{agent}");
    }
}
