//! `disable` and `enable` read each settings file as its agent does, and never claim a change
//! the agent will not see: a key written twice on the path skilldeck edits is refused (the
//! agent reads the last copy, the editor would change the first), a file the agent cannot
//! parse is refused with a sentence saying so (and counts for nothing in the listing), and an
//! OpenCode skill whose name its wildcard matcher cannot spell literally is refused rather
//! than written as a pattern that turns other skills off. Each refusal leaves the whole
//! machine byte for byte as it was (nothing written, kept or journalled).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{Machine, write_files, write_skill};

fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_path_buf(), fs::read(e.path()).unwrap()))
        .collect()
}

/// Run `args`, insisting on a refusal that says `says` and changed nothing on the machine.
fn refused(machine: &Machine, args: &[&str], says: &str) {
    let before = tree(&machine.root());
    let out = machine.run_expecting(args, 1);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(says), "{args:?}: {stderr}");
    assert_eq!(tree(&machine.root()), before, "{args:?} changed something");
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

fn is_off(machine: &Machine, dir: &Path, agent: &str) -> bool {
    disabled_for(machine, dir)
        .as_array()
        .unwrap()
        .iter()
        .any(|id| id == agent)
}

/// A skill whose frontmatter name is `name`, quoted for YAML, in the folder `dir`.
fn named_skill(dir: &Path, name: &str) {
    let quoted = name.replace('\'', "''");
    write_files(
        dir,
        &[(
            "SKILL.md",
            &format!("---\nname: '{quoted}'\ndescription: The {name} skill.\n---\n# x\n"),
        )],
    );
}

#[test]
fn a_key_written_twice_on_the_edited_path_is_refused_for_every_agent() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".gemini/skills/gem"), &[]);
    write_skill(&machine.home.join(".copilot/skills/co"), &[]);
    write_skill(&machine.home.join(".claude/skills/pdf"), &[]);
    write_skill(&machine.home.join(".config/opencode/skills/oc"), &[]);
    let cases: &[(&str, &str, &str, &str)] = &[
        // The top-level object skilldeck walks into, twice.
        (
            ".gemini/settings.json",
            "{\"skills\": {\"disabled\": []},\n \"skills\": {\"disabled\": [\"other\"]}}\n",
            "gem",
            "gemini-cli",
        ),
        // The list itself, twice, in a nested object.
        (
            ".gemini/settings.json",
            "{\"skills\": {\"disabled\": [], \"disabled\": [\"other\"]}}",
            "gem",
            "gemini-cli",
        ),
        // The same key spelt with an escape is the same key to JSON.parse.
        (
            ".gemini/settings.json",
            "{\"skills\": {}, \"\\u0073kills\": {\"disabled\": []}}",
            "gem",
            "gemini-cli",
        ),
        (
            ".copilot/settings.json",
            "{\"disabledSkills\": [], // mine\n \"disabledSkills\": [\"x\"]}",
            "co",
            "copilot",
        ),
        (
            ".claude/settings.json",
            "{\"skillOverrides\": {}, \"skillOverrides\": {\"other\": \"off\"}}",
            "pdf",
            "claude-code",
        ),
        // The key skilldeck sets, twice: it would change the first, the agent reads the last.
        (
            ".claude/settings.json",
            "{\"skillOverrides\": {\"pdf\": \"on\", \"pdf\": \"name-only\"}}",
            "pdf",
            "claude-code",
        ),
        (
            ".config/opencode/opencode.json",
            "{\"permission\": {\"skill\": {\"a\": \"deny\"}}, \"permission\": {\"bash\": \"ask\"}}",
            "oc",
            "opencode",
        ),
        (
            ".config/opencode/opencode.json",
            "{\"permission\": {\"skill\": {\"oc\": \"allow\", \"oc\": \"ask\"}}}",
            "oc",
            "opencode",
        ),
    ];
    for (file, text, skill, agent) in cases {
        let path = machine.home.join(file);
        write_files(
            path.parent().unwrap(),
            &[(path.file_name().unwrap().to_str().unwrap(), text)],
        );
        refused(
            &machine,
            &["disable", skill, "--agent", agent],
            "more than once",
        );
        fs::remove_file(&path).unwrap();
    }
}

#[test]
fn enabling_through_a_key_written_twice_is_refused() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".gemini/skills/gem"), &[]);
    write_skill(&machine.home.join(".claude/skills/pdf"), &[]);
    write_files(
        &machine.home.join(".gemini"),
        &[(
            "settings.json",
            "{\"skills\": {\"disabled\": [\"gem\"]}, \"skills\": {\"disabled\": [\"gem\"]}}",
        )],
    );
    refused(
        &machine,
        &["enable", "gem", "--agent", "gemini-cli"],
        "skills more than once",
    );
    write_files(
        &machine.home.join(".claude"),
        &[(
            "settings.json",
            "{\"skillOverrides\": {\"pdf\": \"off\", \"pdf\": \"off\"}}",
        )],
    );
    refused(
        &machine,
        &["enable", "pdf", "--agent", "claude-code"],
        "skillOverrides.pdf more than once",
    );
}

#[test]
fn a_copy_off_the_edited_path_does_not_stop_the_edit() {
    let machine = Machine::new();
    let dir = machine.home.join(".gemini/skills/gem");
    write_skill(&dir, &[]);
    let settings = machine.home.join(".gemini/settings.json");
    write_files(
        &machine.home.join(".gemini"),
        &[(
            "settings.json",
            "{\"theme\": \"a\", \"theme\": \"b\", \"skills\": {\"x\": 1, \"x\": 2}}",
        )],
    );
    machine.run_expecting(&["disable", "gem", "--agent", "gemini-cli"], 0);
    let text = fs::read_to_string(&settings).unwrap();
    assert!(
        text.starts_with("{\"theme\": \"a\", \"theme\": \"b\", \"skills\": {"),
        "{text}"
    );
    assert!(
        text.contains("\"x\": 1,") && text.contains("\"x\": 2,"),
        "{text}"
    );
    assert!(is_off(&machine, &dir, "gemini-cli"));
}

#[test]
fn the_listing_reads_the_last_copy_as_the_agents_do() {
    let machine = Machine::new();
    let gem = machine.home.join(".gemini/skills/gem");
    let pdf = machine.home.join(".claude/skills/pdf");
    let co = machine.home.join(".copilot/skills/co");
    write_skill(&gem, &[]);
    write_skill(&pdf, &[]);
    write_skill(&co, &[]);
    let write = |dir: &str, text: &str| {
        write_files(&machine.home.join(dir), &[("settings.json", text)]);
    };
    write(
        ".gemini",
        r#"{"skills": {"disabled": ["gem"]}, "skills": {"disabled": []}}"#,
    );
    write(
        ".claude",
        r#"{"skillOverrides": {"pdf": "off", "pdf": "on"}}"#,
    );
    write(
        ".copilot",
        r#"{"disabledSkills": ["co"], "disabledSkills": []}"#,
    );
    assert!(!is_off(&machine, &gem, "gemini-cli"));
    assert!(!is_off(&machine, &pdf, "claude-code"));
    assert!(!is_off(&machine, &co, "copilot"));
    write(
        ".gemini",
        r#"{"skills": {"disabled": []}, "skills": {"disabled": ["gem"]}}"#,
    );
    write(
        ".claude",
        r#"{"skillOverrides": {"pdf": "on", "pdf": "off"}}"#,
    );
    write(
        ".copilot",
        r#"{"disabledSkills": [], "disabledSkills": ["co"]}"#,
    );
    assert!(is_off(&machine, &gem, "gemini-cli"));
    assert!(is_off(&machine, &pdf, "claude-code"));
    assert!(is_off(&machine, &co, "copilot"));
}

/// What Gemini CLI 0.61.0 cannot read (strip-json-comments, then `JSON.parse`): skilldeck says
/// so instead of editing, and the names in such a file turn nothing off.
#[test]
fn a_gemini_file_gemini_cannot_read_is_refused_and_counts_for_nothing() {
    let machine = Machine::new();
    let dir = machine.home.join(".gemini/skills/gem");
    write_skill(&dir, &[]);
    write_skill(&machine.home.join(".gemini/skills/other"), &[]);
    let unreadable = [
        "{\"skills\": {\"disabled\": [\"other\", \"gem\",]}}",
        "{\"skills\": {\"disabled\": ['other', 'gem']}}",
        "{skills: {disabled: [\"other\", \"gem\"]}}",
        "\u{feff}{\"skills\": {\"disabled\": [\"other\", \"gem\"]}}",
        "{\"skills\": {\"disabled\": [\"other\", \"gem\"]}} // no\u{a0}break space\n",
        "{\"skills\": {\"disabled\": [\"other\", \"gem\"]}, \"n\": 0x10}",
        "{\"skills\": {\"disabled\": [\"other\", \"gem\"]}, \"n\": .5}",
    ];
    for text in unreadable {
        write_files(&machine.home.join(".gemini"), &[("settings.json", text)]);
        assert!(!is_off(&machine, &dir, "gemini-cli"), "{text:?}");
        refused(
            &machine,
            &["disable", "other", "--agent", "gemini-cli"],
            "Gemini CLI cannot read",
        );
    }
}

#[test]
fn what_gemini_reads_is_still_edited() {
    let machine = Machine::new();
    let dir = machine.home.join(".gemini/skills/gem");
    write_skill(&dir, &[]);
    let settings = machine.home.join(".gemini/settings.json");
    for text in [
        "// mine\n{\"a\": \"// not a comment\", /* b */ \"skills\": {}}\n",
        "{\"a\": 1}\n/* left open",
    ] {
        write_files(&machine.home.join(".gemini"), &[("settings.json", text)]);
        let out = machine.run(&["disable", "gem", "--agent", "gemini-cli"]);
        let said = String::from_utf8_lossy(&out.stderr);
        if text.contains("left open") {
            // Gemini reads it; skilldeck's editor cannot, and says so without editing.
            assert_eq!(out.status.code(), Some(1), "{said}");
            assert_eq!(fs::read_to_string(&settings).unwrap(), text);
            continue;
        }
        assert!(out.status.success(), "{said}");
        assert!(
            fs::read_to_string(&settings)
                .unwrap()
                .starts_with("// mine\n")
        );
        assert!(is_off(&machine, &dir, "gemini-cli"), "{text:?}");
        machine.run_expecting(&["enable", "gem", "--agent", "gemini-cli"], 0);
    }
}

/// OpenCode 1.18.33's `Wildcard.match` reads `*` and `?` as wildcards with no escape, `\` as
/// `/`, and expands `~` and `$HOME` first: no rule can name such a skill alone.
#[test]
fn an_opencode_name_its_matcher_cannot_spell_is_refused_naming_what_it_would_reach() {
    let machine = Machine::new();
    let root = machine.home.join(".config/opencode/skills");
    for name in ["p*", "pdf", "p?", "px", "a\\b", "a-b", "~", "$HOME-x"] {
        named_skill(&root.join(name.replace('\\', "_")), name);
    }
    let config = machine.home.join(".config/opencode/opencode.json");
    write_files(
        config.parent().unwrap(),
        &[("opencode.json", "{\"theme\": \"x\"}\n")],
    );
    let cases: &[(&str, &str)] = &[
        ("p*", "would also turn off p?, pdf, px"),
        ("p?", "would also turn off p*, px"),
        ("a\\b", "\"a\\\\b\""),
        ("~", "would not reach"),
        ("$HOME-x", "would not reach"),
    ];
    for (name, says) in cases {
        // Named by its folder: skilldeck's own name for it is the folder's.
        let dir = root.join(name.replace('\\', "_"));
        refused(
            &machine,
            &["disable", dir.to_str().unwrap(), "--agent", "opencode"],
            says,
        );
    }
    for name in ["pdf", "p*", "px", "p?"] {
        assert!(
            !is_off(&machine, &root.join(name), "opencode"),
            "{name} turned off"
        );
    }
}

#[test]
fn an_opencode_name_with_other_regex_characters_turns_off_only_itself() {
    let machine = Machine::new();
    let root = machine.home.join(".config/opencode/skills");
    let names = ["p.d+f(x)[y]{z}|^$", "pxd+f(x)[y]{z}|^$", "pdf"];
    for name in names {
        named_skill(&root.join(name), name);
    }
    machine.run_expecting(&["disable", names[0], "--agent", "opencode"], 0);
    assert!(is_off(&machine, &root.join(names[0]), "opencode"));
    assert!(!is_off(&machine, &root.join(names[1]), "opencode"));
    assert!(!is_off(&machine, &root.join(names[2]), "opencode"));
    machine.run_expecting(&["enable", names[0], "--agent", "opencode"], 0);
    assert!(!is_off(&machine, &root.join(names[0]), "opencode"));
}

#[test]
fn enabling_an_opencode_name_its_matcher_cannot_spell_is_refused() {
    let machine = Machine::new();
    let root = machine.home.join(".config/opencode/skills");
    for name in ["p*", "pdf"] {
        named_skill(&root.join(name), name);
    }
    // The user's own rule: every skill starting with p off.
    write_files(
        &machine.home.join(".config/opencode"),
        &[(
            "opencode.json",
            r#"{"permission": {"skill": {"p*": "deny"}}}"#,
        )],
    );
    assert!(is_off(&machine, &root.join("pdf"), "opencode"));
    refused(
        &machine,
        &["enable", "p*", "--agent", "opencode"],
        "would also turn on pdf",
    );
}
