//! Copilot CLI 1.0.102: `copilot skill list --json`, an array of `{name, source, path,
//! enabled}` with `path` the skill's folder (a root itself when the root holds a SKILL.md).
//! It lists disabled skills too (`enabled: false`); losers of a name clash never appear.

use std::path::Path;

use serde_json::Value;

use super::layout;
use super::{Agent, Check, Lab, Loaded, here, skill_file};

const ME: &[Agent] = &[Agent::Copilot];

pub fn ask(lab: &Lab, cwd: &Path) -> Vec<Loaded> {
    let output = lab.run(Agent::Copilot, cwd, &["skill", "list", "--json"]);
    assert!(
        output.status.success(),
        "copilot skill list failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).expect("copilot prints JSON");
    json.as_array()
        .into_iter()
        .flatten()
        .map(|skill| {
            let dir = Path::new(skill["path"].as_str().unwrap_or_default());
            let dir = if dir.is_relative() {
                cwd.join(dir)
            } else {
                dir.to_path_buf()
            };
            Loaded {
                name: skill["name"].as_str().unwrap_or_default().to_owned(),
                skill_md: skill_file(&dir),
                builtin: skill["source"] == "builtin",
                unsettled: false,
            }
        })
        .collect()
}

fn lab() -> Option<Lab> {
    let lab = Lab::new()?;
    lab.warm(ME);
    Some(lab)
}

#[test]
fn copilot_roots_per_scope_from_root_subfolder_and_outside() {
    let Some(lab) = lab() else { return };
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "roots per scope",
        ME,
        &[&lab.project, &lab.sub, &lab.outside],
    ));
}

/// Below HOME and in no repository the walk reaches `~/.github/skills`, `~/.agents/skills`.
#[test]
fn copilot_walks_up_to_home_outside_a_repository() {
    let Some(lab) = lab() else { return };
    layout::every_root(&lab);
    let below_home = lab.home.join("work/x");
    std::fs::create_dir_all(&below_home).unwrap();
    lab.check(Check::new(
        here!(),
        "roots per scope (below HOME, no repository)",
        ME,
        &[&below_home],
    ));
}

#[test]
fn copilot_nested_skills_at_any_depth_not_inside_a_skill() {
    let Some(lab) = lab() else { return };
    layout::nested(&lab, &lab.home.join(".copilot/skills"), "u");
    layout::nested(&lab, &lab.project.join(".github/skills"), "p");
    lab.check(Check::new(here!(), "nested skills", ME, &[&lab.project]));
}

/// A root holding a SKILL.md is itself the one skill; its other skills disappear.
#[test]
fn copilot_skill_md_straight_in_a_root_replaces_the_root() {
    let Some(lab) = lab() else { return };
    layout::file_in_root(&lab, &lab.home.join(".copilot/skills"), "u");
    layout::file_in_root(&lab, &lab.project.join(".github/skills"), "p");
    lab.check(Check::new(
        here!(),
        "SKILL.md in a root",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn copilot_lower_case_skill_md_and_hidden_folders_ignored() {
    let Some(lab) = lab() else { return };
    layout::spellings(&lab, &lab.home.join(".copilot/skills"), "u");
    layout::spellings(&lab, &lab.project.join(".github/skills"), "p");
    lab.check(Check::new(
        here!(),
        "lower-case skill.md, hidden folders",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn copilot_names_from_frontmatter_else_folder() {
    let Some(lab) = lab() else { return };
    layout::names(&lab, &lab.home.join(".copilot/skills"), "u");
    layout::names(&lab, &lab.project.join(".github/skills"), "p");
    lab.check(Check::new(here!(), "names", ME, &[&lab.project]));
}

/// `.github` (nearest to root) > `.agents` > `.claude` > `~/.copilot` > `~/.agents`.
#[test]
fn copilot_same_name_family_first_then_level() {
    let Some(lab) = lab() else { return };
    for root in [
        lab.project.join(".github/skills"),
        lab.sub.join(".agents/skills"),
        lab.project.join(".claude/skills"),
        lab.home.join(".copilot/skills"),
        lab.home.join(".agents/skills"),
    ] {
        lab.named(&root.join("dup"));
    }
    for root in [
        lab.sub.join(".claude/skills"),
        lab.home.join(".copilot/skills"),
        lab.home.join(".agents/skills"),
    ] {
        lab.named(&root.join("dup2"));
    }
    lab.check(Check::new(
        here!(),
        "same name in two roots",
        ME,
        &[&lab.sub],
    ));
}

#[test]
fn copilot_home_moves_personal_root_and_drops_dot_agents() {
    let Some(mut lab) = Lab::new() else { return };
    let ch = lab.root.join("copilot-home");
    lab.set("COPILOT_HOME", &ch);
    lab.warm(ME);
    lab.named(&ch.join("skills/ch-skill"));
    layout::every_root(&lab);
    lab.check(Check::new(here!(), "env COPILOT_HOME", ME, &[&lab.project]));
}

#[test]
fn copilot_skills_dirs_adds_comma_separated_roots() {
    let Some(mut lab) = lab() else { return };
    let (a, b) = (lab.root.join("custom-a"), lab.root.join("custom-b"));
    lab.set(
        "COPILOT_SKILLS_DIRS",
        format!("{}, {}", a.display(), b.display()),
    );
    lab.named(&a.join("ca"));
    lab.named(&b.join("grp/cb"));
    lab.named(&lab.home.join(".copilot/skills/u-copilot"));
    lab.check(Check::new(
        here!(),
        "env COPILOT_SKILLS_DIRS",
        ME,
        &[&lab.project],
    ));
}

// The links are Unix links.
#[cfg(unix)]
#[test]
fn copilot_symlinked_skill_and_root_followed() {
    let Some(lab) = lab() else { return };
    lab.links(
        &lab.home.join(".copilot/skills"),
        &lab.home.join(".agents/skills"),
    );
    lab.check(Check::new(here!(), "links", ME, &[&lab.project]));
}

/// A local-folder marketplace: the plugin is read live from the marketplace folder, nothing
/// is copied; `skills/` is walked, a root SKILL.md loads.
#[test]
fn copilot_plugins_from_a_local_marketplace() {
    let Some(lab) = lab() else { return };
    let market = lab.root.join("mkt");
    lab.file(
        &market.join(".github/plugin/marketplace.json"),
        r#"{ "name": "mymkt", "owner": {"name": "agree"}, "plugins": [
  {"name": "pa", "source": "./plugins/pa", "version": "1.2.3"},
  {"name": "proot", "source": "./plugins/proot", "version": "0.1.0"} ] }"#,
    );
    lab.file(
        &market.join("plugins/pa/plugin.json"),
        r#"{"name":"pa","version":"1.2.3"}"#,
    );
    lab.named(&market.join("plugins/pa/skills/sa"));
    lab.named(&market.join("plugins/pa/skills/grp/sb"));
    lab.file(
        &market.join("plugins/proot/plugin.json"),
        r#"{"name":"proot","version":"0.1.0"}"#,
    );
    lab.skill(&market.join("plugins/proot"), Some("rootskill"));
    let m = market.to_string_lossy().into_owned();
    lab.agent(
        Agent::Copilot,
        &lab.outside,
        &["plugin", "marketplace", "add", &m],
    );
    for plugin in ["pa@mymkt", "proot@mymkt"] {
        lab.agent(Agent::Copilot, &lab.outside, &["plugin", "install", plugin]);
    }
    lab.check(Check::new(here!(), "plugins", ME, &[&lab.project]));
}

/// `copilot skill disable` keeps the skill listed with `enabled: false`.
#[test]
fn copilot_disabled_skill_still_listed() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".copilot/skills/kept"));
    lab.named(&lab.home.join(".copilot/skills/turned-off"));
    lab.agent(
        Agent::Copilot,
        &lab.outside,
        &["skill", "disable", "turned-off"],
    );
    lab.check(Check::new(
        here!(),
        "hidden skills (disabled)",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn copilot_builtins() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".copilot/skills/mine"));
    lab.check(Check::new(here!(), "built-ins", ME, &[&lab.project]).builtins());
}

#[test]
fn copilot_personal_skill_beats_the_builtin() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".copilot/skills/github-pr-media"));
    lab.check(Check::new(here!(), "built-ins (overridden)", ME, &[&lab.project]).builtins());
}

#[test]
fn copilot_xdg_config_home_moves_nothing() {
    let Some(mut lab) = lab() else { return };
    let xdg = lab.root.join("xdg");
    lab.set("XDG_CONFIG_HOME", &xdg);
    lab.named(&xdg.join("copilot/skills/x-copilot"));
    lab.named(&xdg.join("agents/skills/x-agents"));
    lab.named(&lab.home.join(".copilot/skills/u-copilot"));
    lab.check(Check::new(
        here!(),
        "env XDG_CONFIG_HOME",
        ME,
        &[&lab.project],
    ));
}

/// A SKILL.md needs a closed `---` block at its very top; an empty one is enough. A name over
/// 64 characters is refused.
#[test]
fn copilot_frontmatter_required_but_may_be_empty() {
    let Some(lab) = lab() else { return };
    let root = lab.home.join(".copilot/skills");
    for (folder, text) in [
        ("empty-block", "---\n---\nBody paragraph.\n".to_owned()),
        ("only-description", "---\ndescription: d\n---\n".to_owned()),
        (
            "blank-line-first",
            "\n---\nname: blank-line-first\n---\n".to_owned(),
        ),
        ("never-closed", "---\nname: never-closed\n".to_owned()),
        ("empty-file", String::new()),
        ("name-64", format!("---\nname: {}\n---\n", "b".repeat(64))),
        ("name-65", format!("---\nname: {}\n---\n", "a".repeat(65))),
        // anthropics/skills' claude-api has a description of 1,068 characters.
        (
            "description-1024",
            format!("---\ndescription: {}\n---\n", "d".repeat(1024)),
        ),
        (
            "description-1025",
            format!("---\ndescription: {}\n---\n", "e".repeat(1025)),
        ),
    ] {
        lab.file(&root.join(folder).join("SKILL.md"), &text);
    }
    lab.check(Check::new(here!(), "frontmatter", ME, &[&lab.project]));
}

/// `:` and `;` do not split, `~` is not expanded, an entry may be one skill, a relative entry
/// is from the start folder, and the earlier entry wins a clash.
#[test]
fn copilot_skills_dirs_entries_as_written() {
    let Some(mut lab) = lab() else { return };
    let dir = |name: &str| lab.root.join(name);
    let (a, b, single, c1, c2) = (
        dir("custom-a"),
        dir("custom-b"),
        dir("single"),
        dir("c1"),
        dir("c2"),
    );
    let value = format!(
        " {} ,{},,{}, rel, ~/tilde,{}:{};{}",
        a.display(),
        b.display(),
        single.display(),
        c1.display(),
        c2.display(),
        c2.display()
    );
    lab.set("COPILOT_SKILLS_DIRS", value);
    lab.skill(&a.join("dup"), Some("dup"));
    lab.skill(&b.join("dup"), Some("dup"));
    lab.named(&b.join("grp/deep"));
    lab.skill(&single, Some("single"));
    lab.named(&lab.project.join("rel/relative"));
    lab.named(&lab.home.join("tilde/tilded"));
    lab.named(&c1.join("colon1"));
    lab.named(&c2.join("colon2"));
    lab.check(Check::new(
        here!(),
        "env COPILOT_SKILLS_DIRS (entries)",
        ME,
        &[&lab.project],
    ));
}

/// `~/.claude/skills` stays unread from the home itself and when the home is the repository.
#[test]
fn copilot_never_reads_home_claude_skills() {
    let Some(lab) = lab() else { return };
    layout::every_root(&lab);
    let below_home = lab.home.join("work/x");
    lab.named(&lab.home.join("work/.claude/skills/w-claude"));
    std::fs::create_dir_all(&below_home).unwrap();
    lab.check(Check::new(here!(), "home .claude/skills", ME, &[&lab.home]));
    let init = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(&lab.home)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &lab.home)
        .status()
        .expect("git init");
    assert!(init.success());
    lab.check(Check::new(
        here!(),
        "home .claude/skills (home is the repository)",
        ME,
        &[&lab.home, &below_home],
    ));
}
