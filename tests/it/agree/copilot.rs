//! Copilot CLI 1.0.102: `copilot skill list --json`, an array of `{name, source, path,
//! enabled}` with `path` the skill's folder (a root itself when the root holds a SKILL.md).
//! It lists disabled skills too (`enabled: false`); losers of a name clash never appear.

use std::collections::BTreeSet;
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
            let name = skill["name"].as_str().unwrap_or_default();
            Loaded {
                // Compared with skilldeck's word on it (`Agent::marks_disabled`); its JSON
                // says nothing of a built-in's switch, so a built-in is compared by name.
                name: if skill["enabled"] == false && skill["source"] != "builtin" {
                    super::disabled(name)
                } else {
                    name.to_owned()
                },
                skill_md: skill_file(&dir),
                builtin: skill["source"] == "builtin",
                unsettled: false,
                other_names: Vec::new(),
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

/// The skills Copilot lists as disabled (`enabled: false`, built-ins left out), by name and
/// file, from `cwd`.
fn disabled_by_copilot(lab: &Lab, cwd: &Path) -> BTreeSet<String> {
    let output = lab.run(Agent::Copilot, cwd, &["skill", "list", "--json"]);
    let json: Value = serde_json::from_slice(&output.stdout).expect("copilot prints JSON");
    json.as_array()
        .into_iter()
        .flatten()
        .filter(|skill| skill["enabled"] == false && skill["source"] != "builtin")
        .map(|skill| {
            let dir = cwd.join(skill["path"].as_str().unwrap_or_default());
            format!(
                "{} @ {}",
                skill["name"].as_str().unwrap_or_default(),
                lab.short(&skill_file(&dir).to_string_lossy())
            )
        })
        .collect()
}

/// The skills skilldeck says are disabled for Copilot (`disabled_for`), from `cwd`.
fn disabled_by_skilldeck(lab: &Lab, cwd: &Path) -> BTreeSet<String> {
    let json = lab.skilldeck_json(cwd);
    json["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|skill| {
            skill["disabled_for"]
                .as_array()
                .is_some_and(|ids| ids.iter().any(|id| id == "copilot"))
        })
        .map(|skill| {
            let name = skill["loaded_as"]["copilot"]
                .as_str()
                .or_else(|| skill["name"].as_str())
                .unwrap_or_default();
            let dir = Path::new(skill["dir"].as_str().unwrap_or_default());
            format!("{name} @ {}", lab.short(&skill_file(dir).to_string_lossy()))
        })
        .collect()
}

/// The listing as `lab.check` compares it, and then which of its skills are disabled: from
/// each start folder Copilot and skilldeck must name the same ones, and the names the case
/// expects there (so that it cannot pass when neither side disables anything).
fn check_disabled(lab: &Lab, test: &str, class: &str, starts: &[(&Path, &[&str])]) {
    let cwds: Vec<&Path> = starts.iter().map(|(cwd, _)| *cwd).collect();
    lab.check(Check::new(test, class, ME, &cwds));
    for &(cwd, expected) in starts {
        let copilot = disabled_by_copilot(lab, cwd);
        let skilldeck = disabled_by_skilldeck(lab, cwd);
        assert_eq!(
            copilot,
            skilldeck,
            "case {test} ({class}) from {}: disabled per Copilot (left) and skilldeck (right)",
            lab.short(&cwd.to_string_lossy())
        );
        let names: BTreeSet<&str> = copilot
            .iter()
            .map(|key| key.split(" @ ").next().unwrap_or_default())
            .collect();
        assert_eq!(
            names,
            expected.iter().copied().collect(),
            "case {test} ({class}) from {}: Copilot disables other skills than the case expects",
            lab.short(&cwd.to_string_lossy())
        );
    }
}

/// `disabledSkills` in the user's settings.json: the exact name (case and spaces kept), for
/// every source: project, personal, custom folders, built-ins.
#[test]
fn copilot_user_disabled_skills_by_exact_name_from_every_source() {
    let Some(mut lab) = lab() else { return };
    let custom = lab.root.join("custom");
    lab.set("COPILOT_SKILLS_DIRS", &custom);
    let personal = lab.home.join(".copilot/skills");
    for name in ["u-a", "Up-Case", "u-b", "kept"] {
        lab.named(&personal.join(name));
    }
    lab.named(&personal.join("grp/u-grp"));
    lab.named(&lab.project.join(".github/skills/p-a"));
    lab.named(&lab.project.join(".agents/skills/p-b"));
    lab.named(&custom.join("c-a"));
    let settings = lab.home.join(".copilot/settings.json");
    let names = r#""U-A", "up-case", "u-b ", "u-grp", "p-a", "p-b", "c-a", "github-pr-media""#;
    lab.file(&settings, &format!(r#"{{"disabledSkills": [{names}, 7]}}"#));
    check_disabled(
        &lab,
        here!(),
        "disabledSkills (user, a number spoils the list)",
        &[(&lab.project, &[])],
    );
    lab.file(
        &settings,
        &format!("{{\n  // comments are allowed\n  \"disabledSkills\": [{names}],\n}}"),
    );
    check_disabled(
        &lab,
        here!(),
        "disabledSkills (user)",
        &[
            (&lab.project, &["u-grp", "p-a", "p-b", "c-a"]),
            (&lab.sub, &["u-grp", "p-a", "p-b", "c-a"]),
            (&lab.outside, &["u-grp", "c-a"]),
        ],
    );
}

/// A repository's `.github/copilot/settings.json` and `settings.local.json` add their
/// `disabledSkills` to the user's, for every source, but only in a folder Copilot trusts:
/// `COPILOT_ALLOW_ALL=true`, or a `trusted_folders` (else `trustedFolders`) entry in
/// `$COPILOT_HOME/config.json` that is the start folder or holds it.
#[test]
fn copilot_repository_disabled_skills_only_in_a_trusted_folder() {
    let Some(mut lab) = lab() else { return };
    for name in ["p-a", "p-b", "p-c", "kept"] {
        lab.named(&lab.project.join(".github/skills").join(name));
    }
    lab.named(&lab.home.join(".copilot/skills/u-a"));
    let settings = lab.project.join(".github/copilot");
    lab.file(
        &settings.join("settings.json"),
        r#"{"disabledSkills": ["p-a", "u-a"]}"#,
    );
    lab.file(
        &settings.join("settings.local.json"),
        r#"{"disabledSkills": ["p-b"]}"#,
    );
    lab.file(
        &lab.home.join(".copilot/settings.json"),
        r#"{"disabledSkills": ["p-c"]}"#,
    );
    let everything: &[&str] = &["p-a", "p-b", "p-c", "u-a"];
    let user_only: &[&str] = &["p-c"];
    let config = lab.home.join(".copilot/config.json");
    let trust = |lab: &Lab, json: String, class: &str, starts: &[(&Path, &[&str])]| {
        lab.file(&config, &json);
        check_disabled(lab, here!(), class, starts);
    };
    let (project, sub) = (lab.project.display(), lab.sub.display());
    check_disabled(
        &lab,
        here!(),
        "repository disabledSkills (untrusted)",
        &[(&lab.project, user_only), (&lab.sub, user_only)],
    );
    trust(
        &lab,
        format!(r#"{{"trusted_folders": ["{project}"]}}"#),
        "repository disabledSkills (trusted_folders)",
        &[(&lab.project, everything), (&lab.sub, everything)],
    );
    trust(
        &lab,
        format!(
            "{{ // parent, with a slash\n \"trustedFolders\": [\"{}/\"], }}",
            lab.root.display()
        ),
        "repository disabledSkills (a trusted parent)",
        &[(&lab.project, everything), (&lab.outside, &[])],
    );
    trust(
        &lab,
        format!(r#"{{"trustedFolders": ["{sub}"]}}"#),
        "repository disabledSkills (only the subfolder trusted)",
        &[(&lab.project, user_only), (&lab.sub, everything)],
    );
    trust(
        &lab,
        format!(r#"{{"trustedFolders": ["{project}"], "trusted_folders": []}}"#),
        "repository disabledSkills (trusted_folders wins)",
        &[(&lab.project, user_only)],
    );
    trust(
        &lab,
        format!(r#"{{"trustedFolders": ["{project}", 3]}}"#),
        "repository disabledSkills (a list with a number trusts nothing)",
        &[(&lab.project, user_only)],
    );
    trust(
        &lab,
        format!(r#"{{"trustedFolders": ["{}0"]}}"#, project),
        "repository disabledSkills (a name that only begins alike)",
        &[(&lab.project, user_only)],
    );
    trust(
        &lab,
        r#"{"trustedFolders": ["~/../work/proj"]}"#.to_owned(),
        "repository disabledSkills (~ is not expanded)",
        &[(&lab.project, user_only)],
    );
    #[cfg(unix)]
    {
        let link = lab.root.join("proj-link");
        crate::common::symlink(&lab.project, &link);
        trust(
            &lab,
            format!(r#"{{"trustedFolders": ["{}"]}}"#, link.display()),
            "repository disabledSkills (a trusted link to the project)",
            &[(&lab.project, everything)],
        );
    }
    // The repository's files are plain JSON: a comment loses the local file.
    lab.file(
        &settings.join("settings.local.json"),
        "{ // not checked in\n \"disabledSkills\": [\"p-b\"] }",
    );
    check_disabled(
        &lab,
        here!(),
        "repository disabledSkills (a comment in settings.local.json)",
        &[(&lab.project, &["p-a", "p-c", "u-a"])],
    );
    lab.file(
        &settings.join("settings.local.json"),
        r#"{"disabledSkills": ["p-b"]}"#,
    );
    trust(
        &lab,
        "{}".to_owned(),
        "repository disabledSkills (no trust)",
        &[(&lab.project, user_only)],
    );
    lab.set("COPILOT_ALLOW_ALL", "true");
    check_disabled(
        &lab,
        here!(),
        "repository disabledSkills (COPILOT_ALLOW_ALL=true)",
        &[(&lab.project, everything), (&lab.sub, everything)],
    );
    lab.set("COPILOT_ALLOW_ALL", "1");
    check_disabled(
        &lab,
        here!(),
        "repository disabledSkills (COPILOT_ALLOW_ALL=1 is not true)",
        &[(&lab.project, user_only)],
    );
}

/// The trust list is in `$COPILOT_HOME/config.json` when COPILOT_HOME is set; `~/.copilot`'s
/// then counts for nothing.
#[test]
fn copilot_home_holds_the_trusted_folders() {
    let Some(mut lab) = Lab::new() else { return };
    let home = lab.root.join("copilot-home");
    lab.set("COPILOT_HOME", &home);
    lab.warm(ME);
    lab.named(&lab.project.join(".github/skills/p-a"));
    lab.file(
        &lab.project.join(".github/copilot/settings.json"),
        r#"{"disabledSkills": ["p-a"]}"#,
    );
    let trusted = format!(r#"{{"trustedFolders": ["{}"]}}"#, lab.project.display());
    lab.file(&lab.home.join(".copilot/config.json"), &trusted);
    check_disabled(
        &lab,
        here!(),
        "COPILOT_HOME (trust in ~/.copilot)",
        &[(&lab.project, &[])],
    );
    lab.file(&home.join("config.json"), &trusted);
    check_disabled(
        &lab,
        here!(),
        "COPILOT_HOME (trust in COPILOT_HOME)",
        &[(&lab.project, &["p-a"])],
    );
}

/// Run skilldeck from `cwd` with the lab's home and environment, insisting that it succeeds.
fn skilldeck(lab: &Lab, cwd: &Path, args: &[&str]) -> String {
    let program = std::path::PathBuf::from(env!("CARGO_BIN_EXE_skilldeck"));
    let output = lab
        .command(&program, cwd)
        .args(args)
        .output()
        .expect("run skilldeck");
    assert!(
        output.status.success(),
        "skilldeck {args:?} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What `skilldeck disable NAME --agent copilot --scope project` writes, skilldeck reads back
/// (from the project root and a subfolder) as Copilot does: off in a trusted folder, on in
/// an untrusted one; `enable` takes it out of the repository's files again, the local one too.
#[test]
fn copilot_skilldeck_disable_at_project_scope_reads_back() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.project.join(".github/skills/p-a"));
    lab.named(&lab.project.join(".github/skills/p-b"));
    lab.named(&lab.home.join(".copilot/skills/u-a"));
    lab.file(
        &lab.project.join(".github/copilot/settings.local.json"),
        r#"{"disabledSkills": ["p-b"]}"#,
    );
    let both: &[(&Path, &[&str])] = &[
        (&lab.project, &["p-a", "p-b", "u-a"]),
        (&lab.sub, &["p-a", "p-b", "u-a"]),
    ];
    for name in ["p-a", "u-a"] {
        skilldeck(
            &lab,
            &lab.sub,
            &["disable", name, "--agent", "copilot", "--scope", "project"],
        );
    }
    let written =
        std::fs::read_to_string(lab.project.join(".github/copilot/settings.json")).unwrap();
    assert!(
        written.contains("p-a") && written.contains("u-a"),
        "{written}"
    );
    check_disabled(
        &lab,
        here!(),
        "skilldeck disable --scope project (untrusted)",
        &[(&lab.project, &[]), (&lab.sub, &[])],
    );
    lab.file(
        &lab.home.join(".copilot/config.json"),
        &format!(r#"{{"trusted_folders": ["{}"]}}"#, lab.project.display()),
    );
    check_disabled(
        &lab,
        here!(),
        "skilldeck disable --scope project (trusted)",
        both,
    );
    skilldeck(&lab, &lab.project, &["enable", "p-b", "--agent", "copilot"]);
    check_disabled(
        &lab,
        here!(),
        "skilldeck enable (the local file too)",
        &[(&lab.project, &["p-a", "u-a"]), (&lab.sub, &["p-a", "u-a"])],
    );
}

/// A name (frontmatter, else folder) must start with an ASCII letter or digit and hold only
/// ASCII letters, digits, `-`, `_`, `.`, `:` and spaces; each run of spaces is listed as one
/// `-`, case is kept; a `name` or `description` that is no string is refused; a linked skill
/// folder is read.
#[test]
fn copilot_skill_names_kept_dashed_or_refused() {
    let Some(lab) = lab() else { return };
    let root = lab.home.join(".copilot/skills");
    let write = |folder: &str, name_line: &str| {
        lab.file(
            &root.join(folder).join("SKILL.md"),
            &format!("---\n{name_line}description: d\n---\nbody\n"),
        );
    };
    write("f-space", "name: My Skill\n");
    write("f-spaces", "name: \"a  b c\"\n");
    write("f-upper", "name: UPPER\n");
    write("f-colon", "name: ns:tool\n");
    write("f-marks", "name: a_b.c\n");
    write("f-digit", "name: 9lives\n");
    write("f-nonascii", "name: café-ü\n");
    write("f-emoji", "name: rocket🚀\n");
    write("f-slash", "name: a/b\n");
    write("f-dots", "name: ..\n");
    write("f-lead", "name: \"-lead\"\n");
    write("f-empty", "name: \"\"\n");
    write("Folder Space", "");
    write("Földer", "");
    write("f-fine", "name: Fine\n");
    // Two names that are one once dashed: the first folder in the walk wins.
    write("f-clash-a", "name: Two-Words\n");
    write("f-clash-b", "name: Two Words\n");
    lab.named(&lab.project.join(".github/skills/Proj Skill"));
    write("f-number", "name: 123\n");
    lab.file(
        &root.join("f-list-description/SKILL.md"),
        "---\nname: f-list-description\ndescription: [a, b]\n---\n",
    );
    #[cfg(unix)]
    {
        lab.skill(&lab.root.join("elsewhere/real"), Some("linked"));
        crate::common::symlink(&lab.root.join("elsewhere/real"), &root.join("via-link"));
    }
    lab.check(Check::new(
        here!(),
        "names (kept, dashed, refused)",
        ME,
        &[&lab.project],
    ));
}

/// `skillDirectories` in the user's settings.json: absolute, relative to the start folder,
/// `~` and `$HOME` as written (so missing), a link, a missing folder, one skill itself; the
/// earlier entry wins a clash, COPILOT_SKILLS_DIRS and the personal root beat them all, and a
/// number in the list loses the whole list.
#[test]
fn copilot_skill_directories_in_settings() {
    let Some(mut lab) = lab() else { return };
    let root = lab.root.clone();
    let dir = |name: &str| root.join(name);
    let (abs, first, second, env_dir) = (dir("abs"), dir("sd1"), dir("sd2"), dir("env"));
    lab.named(&abs.join("s-abs"));
    lab.named(&lab.project.join("rel/s-rel"));
    lab.named(&lab.sub.join("rel/s-sub-rel"));
    lab.named(&lab.home.join("tilde/s-tilde"));
    lab.named(&dir("target/s-link"));
    lab.skill(&dir("one"), Some("one-skill"));
    for root in [&first, &second, &env_dir] {
        lab.named(&root.join("dup"));
    }
    lab.named(&first.join("mine"));
    lab.named(&lab.home.join(".copilot/skills/mine"));
    lab.named(&second.join("two"));
    #[cfg(unix)]
    crate::common::symlink(&dir("target"), &dir("link"));
    lab.set("COPILOT_SKILLS_DIRS", &env_dir);
    let entries = [
        abs.display().to_string(),
        "rel".to_owned(),
        "~/tilde".to_owned(),
        "$HOME/tilde".to_owned(),
        dir("link").display().to_string(),
        dir("missing").display().to_string(),
        dir("one").display().to_string(),
        second.display().to_string(),
        first.display().to_string(),
    ];
    let list = serde_json::to_string(&entries).unwrap();
    let settings = lab.home.join(".copilot/settings.json");
    lab.file(
        &settings,
        &format!("{{ // mine\n \"skillDirectories\": {list}, }}"),
    );
    lab.check(Check::new(
        here!(),
        "skillDirectories",
        ME,
        &[&lab.project, &lab.sub, &lab.outside],
    ));
    let spoiled = format!("[{}, 5]", serde_json::to_string(&entries[0]).unwrap());
    lab.file(&settings, &format!(r#"{{"skillDirectories": {spoiled}}}"#));
    lab.check(Check::new(
        here!(),
        "skillDirectories (a number loses the list)",
        ME,
        &[&lab.project],
    ));
}

/// A settings key written twice: which copy Copilot 1.0.102 reads in the user's file is what
/// skilldeck's listing reads (the copy `disable` refuses to guess past).
#[test]
fn copilot_disabled_skills_written_twice() {
    let Some(lab) = lab() else { return };
    for name in ["u-first", "u-second"] {
        lab.named(&lab.home.join(".copilot/skills").join(name));
    }
    let settings = lab.home.join(".copilot/settings.json");
    lab.file(
        &settings,
        r#"{"disabledSkills": ["u-first"], "disabledSkills": ["u-second"]}"#,
    );
    check_disabled(
        &lab,
        here!(),
        "disabledSkills twice (user), the last wins",
        &[(&lab.project, &["u-second"])],
    );
}

/// The user's settings.json starting with a byte-order mark: whether Copilot still reads it,
/// as skilldeck's listing and `disable` must.
#[test]
fn copilot_user_settings_with_a_byte_order_mark() {
    let Some(lab) = lab() else { return };
    for name in ["u-first", "u-second"] {
        lab.named(&lab.home.join(".copilot/skills").join(name));
    }
    let settings = lab.home.join(".copilot/settings.json");
    lab.file(&settings, "\u{feff}{\"disabledSkills\": [\"u-first\"]}");
    check_disabled(
        &lab,
        here!(),
        "a byte-order mark before the user's settings",
        &[(&lab.project, &["u-first"])],
    );
}

/// `skilldeck disable NAME --agent copilot --scope project` writes the repository's
/// `.github/copilot/settings.json`: in a folder Copilot trusts (`trusted_folders` in
/// `~/.copilot/config.json`) Copilot lists the skill as disabled and skilldeck says so too;
/// once the folder is no longer trusted both say it is on; `enable` takes it out.
#[test]
fn copilot_skill_disabled_by_skilldeck_at_project_scope() {
    let Some(lab) = lab() else { return };
    let dir = lab.project.join(".agents/skills/switched");
    lab.named(&dir);
    lab.named(&lab.project.join(".github/skills/bystander"));
    let config = lab.home.join(".copilot/config.json");
    let trusted = serde_json::json!({ "trusted_folders": [lab.project] }).to_string();
    lab.file(&config, &trusted);
    let skilldeck = |args: &[&str]| {
        let program = std::path::PathBuf::from(env!("CARGO_BIN_EXE_skilldeck"));
        let output = lab
            .command(&program, &lab.project)
            .args(args)
            .output()
            .expect("run skilldeck");
        assert!(
            output.status.success(),
            "skilldeck {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    skilldeck(&[
        "disable", "switched", "--agent", "copilot", "--scope", "project",
    ]);
    let written = std::fs::read_to_string(lab.project.join(".github/copilot/settings.json"))
        .expect("the repository's settings.json is written");
    assert!(written.contains("switched"), "{written}");
    let class = "disabled by skilldeck at project scope";
    check_disabled(
        &lab,
        here!(),
        class,
        &[(&lab.project, &["switched"]), (&lab.sub, &["switched"])],
    );
    // No longer trusted: Copilot reads no repository file, and skilldeck agrees.
    lab.file(&config, "{\"trusted_folders\": []}\n");
    check_disabled(&lab, here!(), class, &[(&lab.project, &[])]);
    lab.file(&config, &trusted);
    skilldeck(&["enable", "switched", "--agent", "copilot"]);
    check_disabled(&lab, here!(), class, &[(&lab.project, &[])]);
}

/// Copilot's user settings loader passes over a top-level key spelt loosely (a bare or
/// single-quoted name, a single-quoted string in its value) and reads the rest of the file
/// (FINDINGS #38): each spelling below, asked in turn, for `disabledSkills`,
/// `skillDirectories` and `ignoredSkillsLocations`.
#[test]
fn copilot_user_settings_pass_over_loose_keys() {
    let Some(lab) = lab() else { return };
    for name in ["u-first", "u-second"] {
        lab.named(&lab.home.join(".copilot/skills").join(name));
    }
    let extra = lab.root.join("extra");
    lab.named(&extra.join("x-one"));
    let user_skills = lab.home.join(".copilot/skills");
    let (extra, user_skills) = (extra.display(), user_skills.display());
    let settings = lab.home.join(".copilot/settings.json");
    let spellings: [(String, &[&str]); 5] = [
        (
            r#"{x: 1, "disabledSkills": ["u-first"]}"#.to_owned(),
            &["u-first"],
        ),
        (r#"{disabledSkills: ["u-first"]}"#.to_owned(), &[]),
        (
            r#"{"disabledSkills": ["u-second"], 'x': 'y'}"#.to_owned(),
            &["u-second"],
        ),
        (
            format!(r#"{{"disabledSkills": ['u-first'], "skillDirectories": ["{extra}"]}}"#),
            &[],
        ),
        (
            format!(
                r#"{{$x: [1], "ignoredSkillsLocations": ["{user_skills}"], "disabledSkills": ["x-one"], "skillDirectories": ["{extra}"]}}"#
            ),
            &["x-one"],
        ),
    ];
    for (text, disabled) in &spellings {
        lab.file(&settings, text);
        check_disabled(&lab, here!(), text, &[(&lab.project, disabled)]);
    }
}

/// Copilot's user settings loader reads numbers jsonc-parser refuses (`01`, `1.`, `1e`, `0x`)
/// and refuses others (`1.e5`, `1..2`, `0b1`): a file holding one is read or ignored as a
/// whole, which shows in whether its `disabledSkills` turns the skill off.
#[test]
fn copilot_user_settings_numbers_as_copilot_reads_them() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".copilot/skills/u-first"));
    let settings = lab.home.join(".copilot/settings.json");
    for (number, read) in [
        ("01", true),
        ("[1., -007]", true),
        ("{\"y\": [1e, 2e-, 0x]}", true),
        ("1.e5", false),
        ("[1..2]", false),
        ("0b1", false),
    ] {
        let text = format!("{{\"disabledSkills\": [\"u-first\"], \"x\": {number}}}");
        lab.file(&settings, &text);
        let disabled: &[&str] = if read { &["u-first"] } else { &[] };
        check_disabled(&lab, here!(), &text, &[(&lab.project, disabled)]);
    }
}
