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
            let name = skill["name"].as_str().unwrap_or_default().to_owned();
            let base = skill["baseDir"].as_str().unwrap_or_default();
            match base.strip_prefix("file://") {
                Some(dir) if skill["source"] != "builtin" => Loaded {
                    name,
                    skill_md: skill_file(Path::new(&percent_decode(dir))),
                    builtin: false,
                    unsettled: false,
                },
                _ => Loaded {
                    name,
                    skill_md: PathBuf::new(),
                    builtin: true,
                    unsettled: false,
                },
            }
        })
        .collect()
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
