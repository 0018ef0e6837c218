//! OpenCode 1.18.33: `opencode debug skill`, a JSON array of `{name, description?, location}`
//! (`location` the SKILL.md path, or `<built-in>`). It lists every loaded skill, those the
//! model is not shown (no description) included. Between same-name copies OpenCode picks one at
//! random (all copies are parsed concurrently and the last to finish wins), so cases with
//! duplicate names compare names only: which names it lists is stable, which copy is not.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::layout;
use super::{Agent, Check, Lab, Loaded, here, skill_file};

const ME: &[Agent] = &[Agent::OpenCode];

pub fn ask(lab: &Lab, cwd: &Path) -> Vec<Loaded> {
    let output = lab.run(Agent::OpenCode, cwd, &["debug", "skill"]);
    assert!(
        output.status.success(),
        "opencode debug skill failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).expect("opencode prints JSON");
    json.as_array()
        .into_iter()
        .flatten()
        .map(|skill| {
            let name = skill["name"].as_str().unwrap_or_default().to_owned();
            let location = skill["location"].as_str().unwrap_or_default();
            if location == "<built-in>" {
                Loaded {
                    name,
                    skill_md: PathBuf::new(),
                    builtin: true,
                    unsettled: false,
                }
            } else {
                Loaded {
                    name,
                    skill_md: skill_file(Path::new(location)),
                    builtin: false,
                    unsettled: false,
                }
            }
        })
        .collect()
}

fn lab() -> Option<Lab> {
    Lab::new()
}

#[test]
fn opencode_roots_per_scope_from_root_subfolder_and_outside() {
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
fn opencode_nested_skills_at_any_depth() {
    let Some(lab) = lab() else { return };
    layout::nested(&lab, &lab.home.join(".config/opencode/skills"), "u");
    layout::nested(&lab, &lab.project.join(".claude/skills"), "p");
    lab.check(Check::new(here!(), "nested skills", ME, &[&lab.project]));
}

#[test]
fn opencode_skill_md_straight_in_a_root_is_a_skill() {
    let Some(lab) = lab() else { return };
    layout::file_in_root(&lab, &lab.home.join(".config/opencode/skills"), "u");
    layout::file_in_root(&lab, &lab.project.join(".agents/skills"), "p");
    lab.check(Check::new(
        here!(),
        "SKILL.md in a root",
        ME,
        &[&lab.project],
    ));
}

/// Hidden folders are found below `.claude`/`.agents` roots, not below OpenCode's own.
#[test]
fn opencode_lower_case_ignored_hidden_found_only_in_claude_and_agents_roots() {
    let Some(lab) = lab() else { return };
    layout::spellings(&lab, &lab.home.join(".config/opencode/skills"), "u");
    layout::spellings(&lab, &lab.home.join(".claude/skills"), "c");
    layout::spellings(&lab, &lab.project.join(".agents/skills"), "p");
    lab.check(Check::new(
        here!(),
        "lower-case skill.md, hidden folders",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_names_from_frontmatter_only() {
    let Some(lab) = lab() else { return };
    layout::names(&lab, &lab.home.join(".config/opencode/skills"), "u");
    layout::names(&lab, &lab.project.join(".opencode/skills"), "p");
    lab.check(Check::new(here!(), "names", ME, &[&lab.project]));
}

/// One copy wins, at random: compare the names only.
#[test]
fn opencode_same_name_in_two_roots_one_listed() {
    let Some(lab) = lab() else { return };
    for root in [
        lab.home.join(".config/opencode/skills"),
        lab.home.join(".claude/skills"),
        lab.project.join(".opencode/skills"),
        lab.project.join(".agents/skills"),
    ] {
        lab.named(&root.join("dup"));
    }
    lab.check(Check::new(here!(), "same name in two roots", ME, &[&lab.project]).names_only());
}

#[test]
fn opencode_xdg_config_home_moves_its_global_root() {
    let Some(mut lab) = lab() else { return };
    let xdg = lab.root.join("xdg");
    lab.set("XDG_CONFIG_HOME", &xdg);
    lab.named(&xdg.join("opencode/skills/x-xdg"));
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env XDG_CONFIG_HOME",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_config_dir_adds_a_root() {
    let Some(mut lab) = lab() else { return };
    let dir = lab.root.join("oc-config");
    lab.set("OPENCODE_CONFIG_DIR", &dir);
    lab.named(&dir.join("skills/c-cfgdir-skills"));
    lab.named(&dir.join("skill/c-cfgdir-skill"));
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env OPENCODE_CONFIG_DIR",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_disable_external_skills() {
    let Some(mut lab) = lab() else { return };
    lab.set("OPENCODE_DISABLE_EXTERNAL_SKILLS", "1");
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env OPENCODE_DISABLE_EXTERNAL_SKILLS",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_disable_claude_code_skills() {
    let Some(mut lab) = lab() else { return };
    lab.set("OPENCODE_DISABLE_CLAUDE_CODE_SKILLS", "1");
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env OPENCODE_DISABLE_CLAUDE_CODE_SKILLS",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_disable_claude_code() {
    let Some(mut lab) = lab() else { return };
    lab.set("OPENCODE_DISABLE_CLAUDE_CODE", "1");
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env OPENCODE_DISABLE_CLAUDE_CODE",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_disable_project_config() {
    let Some(mut lab) = lab() else { return };
    lab.set("OPENCODE_DISABLE_PROJECT_CONFIG", "1");
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env OPENCODE_DISABLE_PROJECT_CONFIG",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_symlinked_skill_and_root_followed() {
    let Some(lab) = lab() else { return };
    lab.links(
        &lab.home.join(".config/opencode/skills"),
        &lab.home.join(".opencode/skills"),
    );
    lab.check(Check::new(here!(), "links", ME, &[&lab.project]));
}

/// `customize-opencode` is compiled in; a file skill of that name replaces it.
#[test]
fn opencode_builtins() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".claude/skills/mine"));
    lab.check(Check::new(here!(), "built-ins", ME, &[&lab.project]).builtins());
}

#[test]
fn opencode_file_skill_replaces_the_builtin() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".claude/skills/customize-opencode"));
    lab.check(Check::new(here!(), "built-ins (replaced)", ME, &[&lab.project]).builtins());
}
