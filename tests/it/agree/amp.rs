//! Amp 0.0.1790142911: `amp skill list --json` with a dummy key and an unroutable URL (nothing
//! is sent): `{"skills": [{name, baseDir ("file://…" or "builtin:///…"), source}]}`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::layout;
use super::{Agent, Check, Lab, Loaded, here, skill_file};

const ME: &[Agent] = &[Agent::Amp];

pub fn ask(lab: &Lab, cwd: &Path) -> Vec<Loaded> {
    let output = lab.run(Agent::Amp, cwd, &["skill", "list", "--json"]);
    assert!(
        output.status.success(),
        "amp skill list failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).expect("amp prints JSON");
    json["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|skill| {
            // A `name` that is not text in the frontmatter is listed as its YAML value (`12`,
            // `["ab"]`); Amp knows the skill by JavaScript's `String()` of it.
            let name = js_string(&skill["name"]);
            let base = skill["baseDir"].as_str().unwrap_or_default();
            match base.strip_prefix("file://") {
                Some(dir) if skill["source"] != "builtin" => Loaded {
                    name,
                    skill_md: skill_file(Path::new(&percent_decode(dir))),
                    builtin: false,
                    unsettled: false,
                    other_names: Vec::new(),
                },
                _ => Loaded {
                    name,
                    skill_md: PathBuf::new(),
                    builtin: true,
                    unsettled: false,
                    other_names: Vec::new(),
                },
            }
        })
        .collect()
}

/// What JavaScript's `String()` makes of a JSON value.
fn js_string(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        Value::Array(items) => items.iter().map(js_string).collect::<Vec<_>>().join(","),
        Value::Object(_) => "[object Object]".to_owned(),
        other => other.to_string(),
    }
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&text[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn lab() -> Option<Lab> {
    Lab::new()
}

#[test]
fn amp_roots_per_scope_from_root_subfolder_and_outside() {
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
fn amp_nested_skills_at_any_depth_and_inside_skills() {
    let Some(lab) = lab() else { return };
    layout::nested(&lab, &lab.home.join(".config/amp/skills"), "u");
    layout::nested(&lab, &lab.project.join(".agents/skills"), "p");
    lab.check(Check::new(here!(), "nested skills", ME, &[&lab.project]));
}

#[test]
fn amp_skill_md_straight_in_a_root_is_a_skill() {
    let Some(lab) = lab() else { return };
    layout::file_in_root(&lab, &lab.home.join(".config/amp/skills"), "u");
    layout::file_in_root(&lab, &lab.project.join(".agents/skills"), "p");
    lab.check(Check::new(
        here!(),
        "SKILL.md in a root",
        ME,
        &[&lab.project],
    ));
}

/// Amp takes a lower-case `skill.md`, and finds skills in hidden folders.
#[test]
fn amp_lower_case_skill_md_and_hidden_folders_loaded() {
    let Some(lab) = lab() else { return };
    layout::spellings(&lab, &lab.home.join(".config/amp/skills"), "u");
    layout::spellings(&lab, &lab.project.join(".agents/skills"), "p");
    lab.check(Check::new(
        here!(),
        "lower-case skill.md, hidden folders",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn amp_names_from_frontmatter_and_refuses_invalid_ones() {
    let Some(lab) = lab() else { return };
    layout::names(&lab, &lab.home.join(".config/amp/skills"), "u");
    layout::names(&lab, &lab.project.join(".agents/skills"), "p");
    lab.check(Check::new(here!(), "names", ME, &[&lab.project]));
}

/// `~/.config/agents` > `~/.agents` > `~/.config/amp` > workspace `.agents` (nearest first) >
/// workspace `.claude` > `~/.claude`.
#[test]
fn amp_same_name_user_agents_beats_workspace() {
    let Some(lab) = lab() else { return };
    for root in [
        lab.home.join(".config/amp/skills"),
        lab.sub.join(".agents/skills"),
        lab.project.join(".agents/skills"),
        lab.project.join(".claude/skills"),
        lab.home.join(".claude/skills"),
    ] {
        lab.named(&root.join("dup"));
    }
    for root in [
        lab.project.join(".agents/skills"),
        lab.sub.join(".agents/skills"),
        lab.project.join(".claude/skills"),
    ] {
        lab.named(&root.join("pdup"));
    }
    lab.check(Check::new(
        here!(),
        "same name in two roots",
        ME,
        &[&lab.sub],
    ));
}

/// `XDG_CONFIG_HOME` does not move Amp's skill roots.
#[test]
fn amp_xdg_config_home_moves_no_root() {
    let Some(mut lab) = lab() else { return };
    let xdg = lab.root.join("xdg");
    lab.set("XDG_CONFIG_HOME", &xdg);
    lab.named(&xdg.join("amp/skills/x-amp"));
    lab.named(&xdg.join("agents/skills/x-agents"));
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env XDG_CONFIG_HOME",
        ME,
        &[&lab.project],
    ));
}

/// Amp reads Claude Code's plugin cache (every version folder, a root SKILL.md too).
#[test]
fn amp_reads_claude_code_plugin_cache() {
    let Some(lab) = lab() else { return };
    let cache = lab.home.join(".claude/plugins/cache/mkt/plug");
    lab.named(&cache.join("2.0.0/skills/cc-skill"));
    lab.skill(&cache.join("2.0.0"), Some("plug-root"));
    lab.named(&cache.join("1.0.0/skills/cc-old"));
    lab.check(Check::new(
        here!(),
        "plugins (Claude Code cache)",
        ME,
        &[&lab.project],
    ));
}

// The links are Unix links.
#[cfg(unix)]
#[test]
fn amp_symlinked_skill_and_root_followed() {
    let Some(lab) = lab() else { return };
    lab.links(
        &lab.home.join(".config/amp/skills"),
        &lab.home.join(".config/agents/skills"),
    );
    lab.check(Check::new(here!(), "links", ME, &[&lab.project]));
}

#[test]
fn amp_builtins() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".config/amp/skills/mine"));
    lab.check(Check::new(here!(), "built-ins", ME, &[&lab.project]).builtins());
}

#[test]
fn amp_user_skill_shadows_the_builtin() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".config/amp/skills/gmail"));
    lab.check(Check::new(here!(), "built-ins (overridden)", ME, &[&lab.project]).builtins());
}

/// `node_modules` and `.git` folders, which Amp never enters (at any depth, in every root; the
/// names exactly: `Node_Modules` and `.node_modules` are entered).
#[test]
fn amp_skips_node_modules_and_git_folders() {
    let Some(lab) = lab() else { return };
    for (root, tag) in [
        (lab.home.join(".config/amp/skills"), "u"),
        (lab.project.join(".agents/skills"), "p"),
        (lab.home.join(".claude/skills"), "c"),
    ] {
        lab.named(&root.join(format!("node_modules/{tag}-nm")));
        lab.named(&root.join(format!("node_modules/pkg/skills/{tag}-nm-pkg")));
        lab.named(&root.join(format!("grp/node_modules/{tag}-nm-grp")));
        lab.named(&root.join(format!(".git/{tag}-git")));
        lab.named(&root.join(format!("grp/.git/{tag}-git-grp")));
        lab.named(&root.join(format!("Node_Modules/{tag}-nm-upper")));
        lab.named(&root.join(format!(".node_modules/{tag}-nm-dot")));
        lab.named(&root.join(format!("vendor/{tag}-vendor")));
        lab.named(&root.join(format!("{tag}-plain")));
    }
    lab.check(Check::new(
        here!(),
        "node_modules and .git folders",
        ME,
        &[&lab.project],
    ));
}

/// Hidden folders: a hidden group, a hidden folder on the way, and a skill whose own folder is
/// hidden (kept when its frontmatter names it validly; `.NAME` as a name is refused).
#[test]
fn amp_hidden_groups_and_hidden_skill_folders_loaded() {
    let Some(lab) = lab() else { return };
    for (root, tag) in [
        (lab.home.join(".config/amp/skills"), "u"),
        (lab.project.join(".agents/skills"), "p"),
        (lab.project.join(".claude/skills"), "c"),
    ] {
        lab.named(&root.join(format!(".group/{tag}-in-group")));
        lab.named(&root.join(format!("a/.b/{tag}-mid-hidden")));
        lab.skill(
            &root.join(format!(".{tag}-hidden-folder")),
            Some(&format!("{tag}-hidden-folder")),
        );
        lab.named(&root.join(format!(".{tag}-dot-name")));
    }
    lab.check(Check::new(here!(), "hidden folders", ME, &[&lab.project]));
}

/// Five folders deep in every kind of root, not six.
#[test]
fn amp_depth_five_in_every_root() {
    let Some(lab) = lab() else { return };
    layout::nested(&lab, &lab.home.join(".config/agents/skills"), "a");
    layout::nested(&lab, &lab.home.join(".claude/skills"), "c");
    layout::nested(&lab, &lab.project.join(".claude/skills"), "pc");
    lab.check(Check::new(here!(), "nested skills", ME, &[&lab.project]));
}
