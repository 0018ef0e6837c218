//! Codex 0.171.0: `codex debug prompt-input`, whose `<skills_instructions>` block is exactly
//! what the model is shown: a table of path prefixes (`rN` = path) and one line per skill
//! `- NAME: DESCRIPTION (file: rN/REL/SKILL.md)`. Codex has a second oracle (`app-server`
//! `skills/list`) that shows a linked skill by its target where this one shows the link path;
//! canonicalising both sides makes that disagreement moot here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::layout;
use super::{Agent, Check, Lab, Loaded, here, skill_file, strings};

const ME: &[Agent] = &[Agent::Codex];

pub fn ask(lab: &Lab, cwd: &Path) -> Vec<Loaded> {
    let output = lab.run(Agent::Codex, cwd, &["debug", "prompt-input"]);
    // A config.toml Codex refuses (not TOML, a wrong type, an unknown variant) or a CODEX_HOME
    // that names no folder stops it before any session: it prints `Error: FILE:LINE:COLUMN: …`,
    // `Error: Error parsing project config file …` or `Error: CODEX_HOME points to …` and exits
    // 1. It then loads no skill, which is what skilldeck must say.
    if refused_config(&output) {
        return Vec::new();
    }
    assert!(
        output.status.success(),
        "codex debug prompt-input failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).expect("codex prints JSON");
    let mut texts = Vec::new();
    strings(&json, &mut texts);
    let Some(text) = texts.iter().find(|t| t.contains("<skills_instructions>")) else {
        return Vec::new();
    };
    let start = text.find("<skills_instructions>").unwrap();
    let end = text.find("</skills_instructions>").unwrap_or(text.len());
    let block = &text[start..end];
    let mut roots: HashMap<&str, PathBuf> = HashMap::new();
    let mut out = Vec::new();
    for line in block.lines() {
        if let Some(rest) = line.strip_prefix("- `")
            && let Some((key, path)) = rest.split_once("` = `")
        {
            roots.insert(key, PathBuf::from(path.trim_end_matches('`')));
            continue;
        }
        let Some(row) = line.strip_prefix("- ") else {
            continue;
        };
        let Some(at) = row.rfind(" (file: ") else {
            continue;
        };
        let file = row[at + " (file: ".len()..].trim_end_matches(')');
        let Some((key, rel)) = file.split_once('/') else {
            continue;
        };
        let Some(root) = roots.get(key) else { continue };
        // `NAME: DESCRIPTION`, neither empty, and a name may hold `: ` too: each `: ` is a
        // place the name may end.
        let head = &row[..at];
        let mut names: Vec<String> = head
            .match_indices(": ")
            .map(|(end, _)| head[..end].to_owned())
            .collect();
        if names.is_empty() {
            names.push(head.to_owned());
        }
        let name = names.remove(0);
        let path = skill_file(&root.join(rel));
        out.push(Loaded {
            builtin: Agent::Codex.builtin_path(&path, lab),
            unsettled: false,
            other_names: names,
            skill_md: path,
            name,
        });
    }
    out
}

/// Codex stopped on a config file it refuses, before reading any skill.
pub fn refused_config(output: &std::process::Output) -> bool {
    let stderr = String::from_utf8_lossy(&output.stderr);
    output.status.code() == Some(1)
        && stderr.lines().any(|line| {
            line.starts_with("Error: ")
                && (line.contains("config.toml") || line.starts_with("Error: CODEX_HOME points to"))
        })
}

fn lab() -> Option<Lab> {
    let lab = Lab::new()?;
    lab.warm(ME);
    Some(lab)
}

#[test]
fn codex_roots_per_scope_from_root_subfolder_and_outside() {
    let Some(lab) = lab() else { return };
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "roots per scope",
        ME,
        &[&lab.project, &lab.sub, &lab.outside],
    ));
}

#[test]
fn codex_nested_skills_to_depth_six() {
    let Some(lab) = lab() else { return };
    layout::nested(&lab, &lab.home.join(".agents/skills"), "u");
    layout::nested(&lab, &lab.project.join(".agents/skills"), "p");
    layout::nested(&lab, &lab.project.join(".codex/skills"), "c");
    lab.check(Check::new(here!(), "nested skills", ME, &[&lab.project]));
}

#[test]
fn codex_skill_md_straight_in_a_root_is_a_skill() {
    let Some(lab) = lab() else { return };
    layout::file_in_root(&lab, &lab.home.join(".agents/skills"), "u");
    layout::file_in_root(&lab, &lab.project.join(".codex/skills"), "p");
    lab.check(Check::new(
        here!(),
        "SKILL.md in a root",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn codex_lower_case_skill_md_and_hidden_folders_ignored() {
    let Some(lab) = lab() else { return };
    layout::spellings(&lab, &lab.home.join(".agents/skills"), "u");
    layout::spellings(&lab, &lab.project.join(".agents/skills"), "p");
    lab.check(Check::new(
        here!(),
        "lower-case skill.md, hidden folders",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn codex_names_from_frontmatter_and_drops_skills_without_description() {
    let Some(lab) = lab() else { return };
    layout::names(&lab, &lab.home.join(".agents/skills"), "u");
    layout::names(&lab, &lab.project.join(".agents/skills"), "p");
    lab.check(Check::new(here!(), "names", ME, &[&lab.project]));
}

/// Codex keeps every copy of a name (deterministic over repeated runs).
#[test]
fn codex_same_name_in_every_root_keeps_all_copies() {
    let Some(lab) = lab() else { return };
    for root in [
        lab.home.join(".agents/skills"),
        lab.home.join(".codex/skills"),
        lab.project.join(".agents/skills"),
        lab.project.join(".codex/skills"),
        lab.sub.join(".agents/skills"),
    ] {
        lab.named(&root.join("dup"));
    }
    lab.check(Check::new(
        here!(),
        "same name in two roots",
        ME,
        &[&lab.project, &lab.sub],
    ));
}

#[test]
fn codex_home_moves_its_root_and_keeps_dot_agents() {
    let Some(mut lab) = Lab::new() else { return };
    let codex_home = lab.root.join("codex-home");
    std::fs::create_dir_all(&codex_home).unwrap();
    lab.set("CODEX_HOME", &codex_home);
    lab.warm(ME);
    lab.named(&codex_home.join("skills/ch-skill"));
    layout::every_root(&lab);
    lab.check(Check::new(here!(), "env CODEX_HOME", ME, &[&lab.project]));
}

#[test]
fn codex_xdg_config_home_moves_nothing() {
    let Some(mut lab) = lab() else { return };
    let xdg = lab.root.join("xdg");
    lab.set("XDG_CONFIG_HOME", &xdg);
    lab.named(&xdg.join("codex/skills/x-codex"));
    lab.named(&xdg.join("agents/skills/x-agents"));
    lab.named(&lab.home.join(".agents/skills/u-agents"));
    lab.check(Check::new(
        here!(),
        "env XDG_CONFIG_HOME",
        ME,
        &[&lab.project],
    ));
}

// The links are Unix links.
#[cfg(unix)]
#[test]
fn codex_symlinked_skill_and_root_followed() {
    let Some(lab) = lab() else { return };
    lab.links(
        &lab.home.join(".agents/skills"),
        &lab.project.join(".agents/skills"),
    );
    lab.check(Check::new(here!(), "links", ME, &[&lab.project]));
}

/// `agents/openai.yaml` policies: implicit invocation off hides a skill from the model; a
/// product list without Codex drops it; `[[skills.config]] enabled = false` hides it.
#[test]
fn codex_hidden_by_openai_yaml_policy_and_skills_config() {
    let Some(lab) = lab() else { return };
    let root = lab.home.join(".agents/skills");
    for name in ["shown", "implicit-off", "chatgpt-only", "config-off"] {
        lab.named(&root.join(name));
    }
    lab.file(
        &root.join("implicit-off/agents/openai.yaml"),
        "policy:\n  allow_implicit_invocation: false\n",
    );
    lab.file(
        &root.join("chatgpt-only/agents/openai.yaml"),
        "policy:\n  products: [chatgpt]\n",
    );
    let config = lab.home.join(".codex/config.toml");
    let mut toml = std::fs::read_to_string(&config).unwrap_or_default();
    toml.push_str("\n[[skills.config]]\nname = \"config-off\"\nenabled = false\n");
    lab.file(&config, &toml);
    lab.check(Check::new(here!(), "hidden skills", ME, &[&lab.project]));
}

/// A plugin folder's manifest prefixes the skills below it, in plain roots too.
#[test]
fn codex_manifest_below_a_root_namespaces_its_skills() {
    let Some(lab) = lab() else { return };
    let dir = lab.home.join(".agents/skills/mypl");
    lab.file(
        &dir.join(".codex-plugin/plugin.json"),
        r#"{"name":"manifestname"}"#,
    );
    lab.named(&dir.join("skills/x"));
    lab.named(&dir.join("y"));
    lab.check(Check::new(
        here!(),
        "names (plugin manifest in a root)",
        ME,
        &[&lab.project],
    ));
}

/// `codex plugin marketplace add <dir>` and `codex plugin add`: skills below `skills/` to any
/// depth, none from the plugin root; a second, disabled plugin does not load.
#[test]
fn codex_plugins_from_a_local_marketplace() {
    let Some(lab) = lab() else { return };
    let market = lab.root.join("mkt");
    lab.file(
        &market.join(".agents/plugins/marketplace.json"),
        r#"{"name":"localmkt","plugins":[{"name":"alpha","source":{"source":"local","path":"./plugins/alpha"}},{"name":"rootskill","source":{"source":"local","path":"./plugins/rootskill"}},{"name":"off","source":{"source":"local","path":"./plugins/off"}}]}"#,
    );
    lab.file(
        &market.join("plugins/alpha/.codex-plugin/plugin.json"),
        r#"{"name":"alpha","version":"1.2.3"}"#,
    );
    lab.named(&market.join("plugins/alpha/skills/greet"));
    lab.named(&market.join("plugins/alpha/skills/grp/alpha-deep"));
    lab.file(
        &market.join("plugins/rootskill/.codex-plugin/plugin.json"),
        r#"{"name":"rootskill"}"#,
    );
    lab.named(&market.join("plugins/rootskill/rooted"));
    lab.skill(&market.join("plugins/rootskill"), Some("at-root"));
    lab.file(
        &market.join("plugins/off/.codex-plugin/plugin.json"),
        r#"{"name":"off","version":"1.0.0"}"#,
    );
    lab.named(&market.join("plugins/off/skills/off-skill"));
    let m = market.to_string_lossy().into_owned();
    lab.agent(
        Agent::Codex,
        &lab.outside,
        &["plugin", "marketplace", "add", &m],
    );
    for plugin in ["alpha@localmkt", "rootskill@localmkt", "off@localmkt"] {
        lab.agent(Agent::Codex, &lab.outside, &["plugin", "add", plugin]);
    }
    let config = lab.home.join(".codex/config.toml");
    let toml = std::fs::read_to_string(&config).expect("codex wrote its config");
    let toml = toml.replace(
        "[plugins.\"off@localmkt\"]\nenabled = true",
        "[plugins.\"off@localmkt\"]\nenabled = false",
    );
    lab.file(&config, &toml);
    lab.check(Check::new(
        here!(),
        "plugins",
        ME,
        &[&lab.project, &lab.outside],
    ));
}

/// The `.system` skills Codex writes at first start; two are implicit-off (not shown).
#[test]
fn codex_builtins_system_skills() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".agents/skills/mine"));
    lab.check(Check::new(here!(), "built-ins", ME, &[&lab.project]).builtins());
}

/// `[[skills.config]]` selectors of both kinds for one skill: entries apply in order, so a
/// later `path` entry turns on what an earlier `name` entry turned off, and a later `name`
/// entry turns off what an earlier `path` entry turned on (how `enable` undoes a name entry).
#[test]
fn codex_skills_config_name_and_path_entries_apply_in_order() {
    let Some(lab) = lab() else { return };
    let root = lab.home.join(".agents/skills");
    for name in ["back-on", "off-again", "name-off"] {
        lab.named(&root.join(name));
    }
    let md = |name: &str| root.join(name).join("SKILL.md").display().to_string();
    let config = lab.home.join(".codex/config.toml");
    let mut toml = std::fs::read_to_string(&config).unwrap_or_default();
    toml.push_str(&format!(
        "\n[[skills.config]]\nname = \"back-on\"\nenabled = false\n\
         [[skills.config]]\npath = \"{}\"\nenabled = true\n\
         [[skills.config]]\npath = \"{}\"\nenabled = true\n\
         [[skills.config]]\nname = \"off-again\"\nenabled = false\n\
         [[skills.config]]\nname = \"name-off\"\nenabled = false\n",
        md("back-on"),
        md("off-again"),
    ));
    lab.file(&config, &toml);
    lab.check(Check::new(
        here!(),
        "skills.config in order",
        ME,
        &[&lab.project],
    ));
}

/// A lab with skills in every root and in `sub/deep`, and `config` added to Codex's user
/// `config.toml`.
fn markers_lab(config: &str) -> Option<(Lab, std::path::PathBuf)> {
    let lab = lab()?;
    layout::every_root(&lab);
    let deep = lab.sub.join("deep");
    lab.named(&deep.join(".agents/skills/d-agents"));
    lab.named(&deep.join(".codex/skills/d-codex"));
    let file = lab.home.join(".codex/config.toml");
    let mut toml = std::fs::read_to_string(&file).unwrap_or_default();
    toml.insert_str(0, &format!("{config}\n"));
    lab.file(&file, &toml);
    Some((lab, deep))
}

/// A marker file in the subfolder makes it the top: from below it, the project's own roots
/// are not read; from the project root, the subfolder's are not either.
#[test]
fn codex_project_root_markers_a_file_moves_the_top() {
    let Some((lab, deep)) = markers_lab("project_root_markers = [\"marker-file\"]") else {
        return;
    };
    lab.file(&lab.sub.join("marker-file"), "");
    lab.check(Check::new(
        here!(),
        "project_root_markers (a file)",
        ME,
        &[&deep, &lab.sub, &lab.project],
    ));
}

/// A marker folder above the repository: Codex walks past `.git` up to it.
#[test]
fn codex_project_root_markers_a_folder_above_the_repository() {
    let Some((lab, deep)) = markers_lab("project_root_markers = [\"marker-dir\", \"x/y\"]") else {
        return;
    };
    std::fs::create_dir_all(lab.project.parent().unwrap().join("marker-dir")).unwrap();
    lab.check(Check::new(
        here!(),
        "project_root_markers (a folder, above .git)",
        ME,
        &[&deep, &lab.project, &lab.outside],
    ));
}

/// An empty list, or markers found nowhere: the start folder alone is the project.
#[test]
fn codex_project_root_markers_empty_or_found_nowhere_keep_the_start() {
    for config in [
        "project_root_markers = []",
        "project_root_markers = [\"nothing-here\"]",
    ] {
        let Some((lab, deep)) = markers_lab(config) else {
            return;
        };
        lab.check(Check::new(
            here!(),
            "project_root_markers (empty, found nowhere)",
            ME,
            &[&deep, &lab.sub, &lab.project],
        ));
    }
}

/// A project's own `.codex/config.toml` does not set the markers (its skills still load).
#[test]
fn codex_project_root_markers_in_a_project_config_are_ignored() {
    let Some((lab, deep)) = markers_lab("") else {
        return;
    };
    lab.file(
        &deep.join(".codex/config.toml"),
        "project_root_markers = []\n",
    );
    lab.file(
        &lab.sub.join(".codex/config.toml"),
        "project_root_markers = [\"nothing-here\"]\n",
    );
    lab.check(Check::new(
        here!(),
        "project_root_markers (project config)",
        ME,
        &[&deep, &lab.sub],
    ));
}
