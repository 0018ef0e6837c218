//! Claude Code 2.1.332: `claude -p hi --output-format stream-json --verbose --max-turns 1`
//! against a loopback sink. The request body holds the model's skill listing (names only);
//! `--debug-to-stderr` names the roots it read ("Loading skills from: managed=…, user=…,
//! project=[…]") and the init line names each plugin's folder, which is how a name is turned
//! into the SKILL.md Claude Code read: the first root (managed, user, project nearest first)
//! holding `NAME/SKILL.md`, or for `PLUGIN:NAME` the plugin's `skills/NAME` or its root.
//! A name with no such file is one of its compiled-in skills.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::layout;
use super::{Agent, Check, Lab, Loaded, Sink, here, skill_file, strings};

const ME: &[Agent] = &[Agent::ClaudeCode];

/// The folder that stands in for `/etc/claude-code` (Claude Code's managed folder on Linux) in
/// a lab that has one: skilldeck finds it through `SKILLDECK_SYSTEM_ROOT`, Claude Code through
/// an overlay on `/etc` in a mount namespace of its own (`unshare`, so root only), which no
/// other process sees. `None`, said loudly, where namespaces cannot be made.
pub fn managed(lab: &mut Lab) -> Option<PathBuf> {
    let works = std::process::Command::new("unshare")
        .args(["-m", "--propagation", "private", "true"])
        .status()
        .is_ok_and(|status| status.success());
    if !works {
        crate::common::outside::say_skipped(
            "unshare -m does not work here (not root?): Claude Code's managed settings are not asked",
        );
        return None;
    }
    let system = lab.root.join("sys");
    let dir = system.join("etc/claude-code");
    std::fs::create_dir_all(&dir).expect("managed folder");
    std::fs::create_dir_all(lab.root.join("sys-work")).expect("overlay work folder");
    lab.set("SKILLDECK_SYSTEM_ROOT", &system);
    Some(dir)
}

/// `claude` started in `cwd`, under the lab's managed folder when it has one ([`managed`]).
pub fn command(lab: &Lab, cwd: &Path) -> std::process::Command {
    let program = Agent::ClaudeCode.program(&lab.prefix);
    let upper = lab.root.join("sys/etc");
    if !upper.join("claude-code").is_dir() {
        return lab.command(&program, cwd);
    }
    let mut command = lab.command(Path::new("unshare"), cwd);
    command.args([
        "-m".as_ref(),
        "--propagation".as_ref(),
        "private".as_ref(),
        "sh".as_ref(),
        "-c".as_ref(),
        std::ffi::OsStr::new(
            "mount -t overlay overlay -o \"lowerdir=/etc,upperdir=$1,workdir=$2\" /etc && shift 2 && exec \"$@\"",
        ),
        "sh".as_ref(),
        upper.as_os_str(),
        lab.root.join("sys-work").as_os_str(),
        program.as_os_str(),
    ]);
    command
}

pub fn ask(lab: &Lab, cwd: &Path) -> Vec<Loaded> {
    let sink = Sink::start();
    let mut command = command(lab, cwd);
    command
        .env(
            "ANTHROPIC_BASE_URL",
            format!("http://127.0.0.1:{}", sink.port),
        )
        .args([
            "-p",
            "hi",
            "--output-format",
            "stream-json",
            "--verbose",
            "--max-turns",
            "1",
            "--debug-to-stderr",
        ]);
    let output = command.output().expect("run claude");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let init: Value = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["subtype"] == "init")
        .unwrap_or_else(|| panic!("claude printed no init line:\n{stdout}\n{stderr}"));
    // Claude Code's `/etc` is the lab's overlay, seen here at its upper folder.
    let upper = lab.root.join("sys/etc");
    // A relative root (an empty `CLAUDE_CONFIG_DIR` makes `user=skills`) is read from the
    // start folder.
    let roots: Vec<PathBuf> = roots(&stderr)
        .into_iter()
        .map(|root| match root.strip_prefix("/etc") {
            Ok(rest) if upper.is_dir() => upper.join(rest),
            _ => cwd.join(root),
        })
        .collect();
    let plugins: Vec<(String, PathBuf)> = init["plugins"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            Some((
                p["name"].as_str()?.to_owned(),
                PathBuf::from(p["path"].as_str()?),
            ))
        })
        .collect();
    let listing = listing(&sink.bodies())
        .unwrap_or_else(|| panic!("claude sent no skill listing to the sink:\n{stderr}"));
    listing
        .into_iter()
        .map(|name| {
            let file = resolve(&name, &roots, &plugins);
            Loaded {
                builtin: file.is_none(),
                unsettled: false,
                other_names: Vec::new(),
                skill_md: file.map(|f| skill_file(&f)).unwrap_or_default(),
                name,
            }
        })
        .collect()
}

/// The roots from the debug line, in precedence order.
fn roots(stderr: &str) -> Vec<PathBuf> {
    let Some(line) = stderr.lines().find(|l| l.contains("Loading skills from: ")) else {
        return Vec::new();
    };
    let rest = &line[line.find("Loading skills from: ").unwrap() + "Loading skills from: ".len()..];
    let mut out = Vec::new();
    let take = |key: &str| -> Option<String> {
        let at = rest.find(key)? + key.len();
        let end = rest[at..].find(", ").map_or(rest.len(), |e| at + e);
        Some(rest[at..end].to_owned())
    };
    out.extend(take("managed=").map(PathBuf::from));
    out.extend(take("user=").map(PathBuf::from));
    if let Some(at) = rest.find("project=[") {
        let list = &rest[at + "project=[".len()..];
        let list = &list[..list.find(']').unwrap_or(list.len())];
        out.extend(
            list.split(", ")
                .filter(|s| !s.is_empty())
                .map(PathBuf::from),
        );
    }
    out
}

/// The names in "The following skills are available …" of the first body that has it.
fn listing(bodies: &[String]) -> Option<Vec<String>> {
    for body in bodies {
        let Ok(json) = serde_json::from_str::<Value>(body) else {
            continue;
        };
        let mut texts = Vec::new();
        strings(&json, &mut texts);
        let Some(text) = texts
            .iter()
            .find(|t| t.contains("The following skills are available"))
        else {
            continue;
        };
        let at = text.find("The following skills are available").unwrap();
        let block = text[at..].split("\n\n").nth(1).unwrap_or("");
        let mut names = Vec::new();
        for line in block.lines() {
            let Some(row) = line.strip_prefix("- ") else {
                continue;
            };
            // `- NAME`, `- NAME: DESC` or `- NAME (DISPLAY): DESC`; the name is the folder.
            let head = row.split(": ").next().unwrap_or(row);
            let name = match head.find(" (") {
                Some(at) if head.ends_with(')') => &head[..at],
                _ => head,
            };
            names.push(name.to_owned());
        }
        return Some(names);
    }
    None
}

fn resolve(name: &str, roots: &[PathBuf], plugins: &[(String, PathBuf)]) -> Option<PathBuf> {
    // A skill synced from claude.ai: `NAME` in one of the account folders below a root's
    // `synced` (the suite gives each a name of its own, so one folder holds it).
    if let Some(skill) = name.strip_prefix("anthropic-skills:") {
        return roots.iter().find_map(|root| {
            let accounts = std::fs::read_dir(root.join("synced")).ok()?;
            let mut found: Vec<PathBuf> = accounts
                .filter_map(|entry| Some(entry.ok()?.path().join(skill).join("SKILL.md")))
                .filter(|file| file.is_file())
                .collect();
            found.sort();
            found.into_iter().next()
        });
    }
    if let Some((plugin, skill)) = name.split_once(':') {
        for (p, path) in plugins {
            if p == plugin && path.is_dir() {
                let nested = path.join("skills").join(skill).join("SKILL.md");
                if nested.is_file() {
                    return Some(nested);
                }
                // A folder its manifest lists (`"skills": ["./extra"]`), a level or two down.
                if let Some(listed) = below(path, skill, 3) {
                    return Some(listed);
                }
                // A skill named by its frontmatter (one skill's folder its manifest lists, or
                // the plugin's own SKILL.md).
                if let Some(declaring) = declaring(path, skill, 3) {
                    return Some(declaring);
                }
                let root = path.join("SKILL.md");
                if root.is_file() {
                    return Some(root);
                }
            }
        }
    }
    roots
        .iter()
        .map(|root| root.join(name).join("SKILL.md"))
        .find(|file| file.is_file())
}

/// A `SKILL.md` in `dir` or at most `depth` folders below it whose frontmatter says
/// `name: NAME`, the shallowest first.
fn declaring(dir: &Path, name: &str, depth: usize) -> Option<PathBuf> {
    let file = dir.join("SKILL.md");
    let says = std::fs::read_to_string(&file).is_ok_and(|text| {
        text.lines()
            .any(|line| line.trim() == format!("name: {name}"))
    });
    if says {
        return Some(file);
    }
    if depth == 0 {
        return None;
    }
    let mut children: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.is_dir())
        .collect();
    children.sort();
    children
        .iter()
        .find_map(|child| declaring(child, name, depth - 1))
}

/// `DIR/…/NAME/SKILL.md` at most `depth` folders below `dir`, the shallowest first.
fn below(dir: &Path, name: &str, depth: usize) -> Option<PathBuf> {
    let file = dir.join(name).join("SKILL.md");
    if file.is_file() {
        return Some(file);
    }
    if depth == 0 {
        return None;
    }
    let mut children: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.is_dir())
        .collect();
    children.sort();
    children
        .iter()
        .find_map(|child| below(child, name, depth - 1))
}

fn lab() -> Option<Lab> {
    Lab::new()
}

#[test]
fn claude_code_roots_per_scope_from_root_subfolder_and_outside() {
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
fn claude_code_reads_one_level_only_not_nested_skills() {
    let Some(lab) = lab() else { return };
    layout::nested(&lab, &lab.home.join(".claude/skills"), "u");
    layout::nested(&lab, &lab.project.join(".claude/skills"), "p");
    lab.check(Check::new(here!(), "nested skills", ME, &[&lab.project]));
}

#[test]
fn claude_code_skill_md_straight_in_a_root_is_not_a_skill() {
    let Some(lab) = lab() else { return };
    layout::file_in_root(&lab, &lab.home.join(".claude/skills"), "u");
    layout::file_in_root(&lab, &lab.project.join(".claude/skills"), "p");
    lab.check(Check::new(
        here!(),
        "SKILL.md in a root",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn claude_code_lower_case_skill_md_ignored_hidden_folders_loaded() {
    let Some(lab) = lab() else { return };
    layout::spellings(&lab, &lab.home.join(".claude/skills"), "u");
    layout::spellings(&lab, &lab.project.join(".claude/skills"), "p");
    lab.check(Check::new(
        here!(),
        "lower-case skill.md, hidden folders",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn claude_code_names_by_folder_not_frontmatter() {
    let Some(lab) = lab() else { return };
    layout::names(&lab, &lab.home.join(".claude/skills"), "u");
    layout::names(&lab, &lab.project.join(".claude/skills"), "p");
    lab.check(Check::new(here!(), "names", ME, &[&lab.project]));
}

#[test]
fn claude_code_same_name_user_beats_project_nearer_project_beats_root() {
    let Some(lab) = lab() else { return };
    for dir in [
        lab.home.join(".claude/skills/dup"),
        lab.project.join(".claude/skills/dup"),
        lab.sub.join(".claude/skills/dup"),
        lab.project.join(".claude/skills/pdup"),
        lab.sub.join(".claude/skills/pdup"),
    ] {
        lab.named(&dir);
    }
    lab.check(Check::new(
        here!(),
        "same name in two roots",
        ME,
        &[&lab.project, &lab.sub],
    ));
}

#[test]
fn claude_code_config_dir_moves_the_user_root() {
    let Some(mut lab) = lab() else { return };
    let config = lab.root.join("claude-config");
    lab.set("CLAUDE_CONFIG_DIR", &config);
    lab.named(&config.join("skills/c-config"));
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env CLAUDE_CONFIG_DIR",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn claude_code_disable_policy_skills_env_is_harmless_without_managed_root() {
    let Some(mut lab) = lab() else { return };
    lab.set("CLAUDE_CODE_DISABLE_POLICY_SKILLS", "1");
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env CLAUDE_CODE_DISABLE_POLICY_SKILLS",
        ME,
        &[&lab.project],
    ));
}

// The links are Unix links.
#[cfg(unix)]
#[test]
fn claude_code_symlinked_skill_and_root_followed() {
    let Some(lab) = lab() else { return };
    lab.links(
        &lab.home.join(".claude/skills"),
        &lab.project.join(".claude/skills"),
    );
    lab.check(Check::new(here!(), "links", ME, &[&lab.project]));
}

/// A local-folder marketplace, installed with Claude Code's own installer: one plugin with
/// `skills/`, one with a `SKILL.md` at its root, and one installed for the project only (it
/// loads only from the folder whose settings enable it).
fn local_marketplace(lab: &Lab) {
    let market = lab.root.join("mkt");
    lab.file(
        &market.join(".claude-plugin/marketplace.json"),
        r#"{"name":"mkt","owner":{"name":"agree"},"plugins":[
 {"name":"p1","source":"./plugins/p1","version":"1.0.0"},
 {"name":"proot","source":"./plugins/proot","version":"2.0.0"},
 {"name":"pproj","source":"./plugins/pproj","version":"0.1.0"}]}"#,
    );
    lab.file(
        &market.join("plugins/p1/.claude-plugin/plugin.json"),
        r#"{"name":"p1","version":"1.0.0"}"#,
    );
    lab.named(&market.join("plugins/p1/skills/s1"));
    lab.skill(&market.join("plugins/p1/skills/s2"), Some("s2-fm"));
    lab.file(
        &market.join("plugins/proot/.claude-plugin/plugin.json"),
        r#"{"name":"proot","version":"2.0.0","skills":["./"]}"#,
    );
    lab.skill(&market.join("plugins/proot"), Some("rootskill"));
    lab.file(
        &market.join("plugins/pproj/.claude-plugin/plugin.json"),
        r#"{"name":"pproj","version":"0.1.0"}"#,
    );
    lab.named(&market.join("plugins/pproj/skills/sp"));
    let m = market.to_string_lossy().into_owned();
    lab.agent(
        Agent::ClaudeCode,
        &lab.outside,
        &["plugin", "marketplace", "add", &m],
    );
    for plugin in ["p1@mkt", "proot@mkt"] {
        lab.agent(
            Agent::ClaudeCode,
            &lab.outside,
            &["plugin", "install", plugin],
        );
    }
    lab.agent(
        Agent::ClaudeCode,
        &lab.project,
        &["plugin", "install", "pproj@mkt", "--scope", "project"],
    );
}

#[test]
fn claude_code_plugins_from_a_local_marketplace() {
    let Some(lab) = lab() else { return };
    local_marketplace(&lab);
    lab.check(Check::new(
        here!(),
        "plugins",
        ME,
        &[&lab.project, &lab.sub, &lab.outside],
    ));
}

/// `CLAUDE_CODE_PLUGIN_CACHE_DIR` replaces the whole `plugins/` folder (records and cache).
#[test]
fn claude_code_plugin_cache_dir_moves_the_plugin_records() {
    let Some(mut lab) = lab() else { return };
    let cache = lab.root.join("plugin-cache");
    lab.set("CLAUDE_CODE_PLUGIN_CACHE_DIR", &cache);
    local_marketplace(&lab);
    lab.check(Check::new(
        here!(),
        "plugins, env CLAUDE_CODE_PLUGIN_CACHE_DIR",
        ME,
        &[&lab.project],
    ));
}

/// A skills-directory plugin: `~/.claude/skills/X/.claude-plugin/plugin.json`.
#[test]
fn claude_code_skills_dir_plugin_named_by_manifest() {
    let Some(lab) = lab() else { return };
    let dir = lab.home.join(".claude/skills/sdp");
    lab.file(
        &dir.join(".claude-plugin/plugin.json"),
        r#"{"name":"sdp-manifest","version":"0.0.1"}"#,
    );
    lab.named(&dir.join("skills/inner"));
    lab.skill(&dir, Some("sdp-self"));
    lab.check(Check::new(
        here!(),
        "plugins (skills-dir)",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn claude_code_hidden_by_skill_overrides_off() {
    let Some(lab) = lab() else { return };
    let root = lab.home.join(".claude/skills");
    for name in ["visible", "turned-off", "nameonly"] {
        lab.named(&root.join(name));
    }
    lab.file(
        &lab.home.join(".claude/settings.json"),
        r#"{"skillOverrides":{"turned-off":"off","nameonly":"name-only"}}"#,
    );
    lab.check(Check::new(here!(), "hidden skills", ME, &[&lab.project]));
}

#[test]
fn claude_code_builtins() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".claude/skills/mine"));
    lab.check(Check::new(here!(), "built-ins", ME, &[&lab.project]).builtins());
}

#[test]
fn claude_code_disable_bundled_skills_drops_builtins() {
    let Some(mut lab) = lab() else { return };
    lab.set("CLAUDE_CODE_DISABLE_BUNDLED_SKILLS", "1");
    lab.named(&lab.home.join(".claude/skills/mine"));
    lab.check(
        Check::new(
            here!(),
            "built-ins, env CLAUDE_CODE_DISABLE_BUNDLED_SKILLS",
            ME,
            &[&lab.project],
        )
        .builtins(),
    );
}

/// The setting does what the variable does; from the project's settings too.
#[test]
fn claude_code_disable_bundled_skills_setting_drops_builtins() {
    let Some(lab) = lab() else { return };
    lab.file(
        &lab.project.join(".claude/settings.json"),
        r#"{"disableBundledSkills": true}"#,
    );
    lab.named(&lab.home.join(".claude/skills/mine"));
    lab.check(
        Check::new(
            here!(),
            "built-ins, setting disableBundledSkills",
            ME,
            &[&lab.project],
        )
        .builtins(),
    );
}

#[test]
fn claude_code_xdg_config_home_moves_nothing() {
    let Some(mut lab) = lab() else { return };
    let xdg = lab.root.join("xdg");
    lab.set("XDG_CONFIG_HOME", &xdg);
    lab.named(&xdg.join("claude/skills/x-claude"));
    lab.named(&lab.home.join(".claude/skills/u-claude"));
    lab.check(Check::new(
        here!(),
        "env XDG_CONFIG_HOME",
        ME,
        &[&lab.project],
    ));
}

/// Whether Claude Code reads a settings file with comments and a trailing comma decides
/// whether skilldeck may write `skillOverrides` into one.
#[test]
fn claude_code_settings_with_comments() {
    let Some(lab) = lab() else { return };
    let root = lab.home.join(".claude/skills");
    for name in ["visible", "turned-off"] {
        lab.named(&root.join(name));
    }
    lab.file(
        &lab.home.join(".claude/settings.json"),
        "{\n  // the user's own\n  \"skillOverrides\": {\"turned-off\": \"off\"},\n}\n",
    );
    lab.check(Check::new(
        here!(),
        "settings with comments",
        ME,
        &[&lab.project],
    ));
}

/// Each `skillOverrides` value, written in each of the three settings files: `off` and
/// `user-invocable-only` keep the skill from the model, `on` and `name-only` leave it listed
/// (`name-only` without its description, which `listing_claude_code` checks).
#[test]
fn claude_code_skill_overrides_each_value_in_each_settings_file() {
    let Some(lab) = lab() else { return };
    let values = ["on", "name-only", "user-invocable-only", "off"];
    let files = [
        ("u", lab.home.join(".claude/settings.json")),
        ("p", lab.project.join(".claude/settings.json")),
        ("l", lab.project.join(".claude/settings.local.json")),
    ];
    for (tag, file) in &files {
        let mut map = serde_json::Map::new();
        for value in values {
            let name = format!("{tag}-{value}");
            lab.named(&lab.home.join(".claude/skills").join(&name));
            map.insert(name, value.into());
        }
        lab.file(
            file,
            &serde_json::json!({ "skillOverrides": map }).to_string(),
        );
    }
    lab.check(Check::new(
        here!(),
        "skillOverrides values per file",
        ME,
        &[&lab.project, &lab.sub, &lab.outside],
    ));
}

/// Two settings files that disagree on one skill: which one wins, for each pair.
#[test]
fn claude_code_skill_overrides_the_more_local_file_wins() {
    let Some(lab) = lab() else { return };
    let user = lab.home.join(".claude/settings.json");
    let project = lab.project.join(".claude/settings.json");
    let local = lab.project.join(".claude/settings.local.json");
    // (skill, [user's value, project's value, local's value])
    type Case<'a> = (&'a str, [Option<&'a str>; 3]);
    let cases: &[Case<'_>] = &[
        ("user-off-project-on", [Some("off"), Some("on"), None]),
        ("user-on-project-off", [Some("on"), Some("off"), None]),
        ("project-off-local-on", [None, Some("off"), Some("on")]),
        ("project-on-local-off", [None, Some("on"), Some("off")]),
        ("user-off-local-on", [Some("off"), None, Some("on")]),
        (
            "user-on-local-uio",
            [Some("on"), None, Some("user-invocable-only")],
        ),
        (
            "user-uio-project-name-only",
            [Some("user-invocable-only"), Some("name-only"), None],
        ),
    ];
    let mut maps = [
        serde_json::Map::new(),
        serde_json::Map::new(),
        serde_json::Map::new(),
    ];
    for (name, values) in cases {
        lab.named(&lab.home.join(".claude/skills").join(name));
        for (map, value) in maps.iter_mut().zip(values) {
            if let Some(value) = value {
                map.insert((*name).to_owned(), (*value).into());
            }
        }
    }
    for (file, map) in [&user, &project, &local].into_iter().zip(maps) {
        lab.file(
            file,
            &serde_json::json!({ "skillOverrides": map }).to_string(),
        );
    }
    lab.check(Check::new(
        here!(),
        "skillOverrides, two files disagree",
        ME,
        &[&lab.project, &lab.sub],
    ));
}

/// Settings files in a subfolder: started there, does Claude Code read the subfolder's
/// `.claude/settings*.json`, the repository root's, or both?
#[test]
fn claude_code_skill_overrides_from_a_subfolder() {
    let Some(lab) = lab() else { return };
    for name in [
        "root-off",
        "root-local-off",
        "sub-off",
        "sub-local-off",
        "root-off-sub-on",
    ] {
        lab.named(&lab.home.join(".claude/skills").join(name));
    }
    lab.file(
        &lab.project.join(".claude/settings.json"),
        r#"{"skillOverrides":{"root-off":"off","root-off-sub-on":"off"}}"#,
    );
    lab.file(
        &lab.project.join(".claude/settings.local.json"),
        r#"{"skillOverrides":{"root-local-off":"off"}}"#,
    );
    lab.file(
        &lab.sub.join(".claude/settings.json"),
        r#"{"skillOverrides":{"sub-off":"off","root-off-sub-on":"on"}}"#,
    );
    lab.file(
        &lab.sub.join(".claude/settings.local.json"),
        r#"{"skillOverrides":{"sub-local-off":"off"}}"#,
    );
    lab.check(Check::new(
        here!(),
        "skillOverrides from a subfolder",
        ME,
        &[&lab.project, &lab.sub],
    ));
}

/// Managed settings (`/etc/claude-code/managed-settings.json`, then `managed-settings.d/*.json`)
/// come last and win: `off` there beats `on` in every other file; a drop-in beats the main
/// file; a managed `on` does not bring back what it does not name. Its skills folder
/// (`/etc/claude-code/.claude/skills`) is read too.
#[test]
fn claude_code_skill_overrides_in_managed_settings_win() {
    let Some(mut lab) = lab() else { return };
    let Some(managed) = managed(&mut lab) else {
        return;
    };
    for name in [
        "m-off",
        "m-on-user-off",
        "dropin-off",
        "dropin-on",
        "untouched",
    ] {
        lab.named(&lab.home.join(".claude/skills").join(name));
    }
    lab.named(&managed.join(".claude/skills/managed-skill"));
    lab.file(
        &lab.home.join(".claude/settings.json"),
        r#"{"skillOverrides":{"m-off":"on","m-on-user-off":"off"}}"#,
    );
    lab.file(
        &lab.project.join(".claude/settings.local.json"),
        r#"{"skillOverrides":{"m-off":"on","dropin-off":"on"}}"#,
    );
    lab.file(
        &managed.join("managed-settings.json"),
        r#"{"skillOverrides":{"m-off":"off","m-on-user-off":"on","dropin-off":"on","dropin-on":"off"}}"#,
    );
    lab.file(
        &managed.join("managed-settings.d/10-more.json"),
        r#"{"skillOverrides":{"dropin-off":"off","dropin-on":"on"}}"#,
    );
    lab.check(Check::new(
        here!(),
        "skillOverrides in managed settings",
        ME,
        &[&lab.project, &lab.outside],
    ));
}

/// A local-folder marketplace `mkt` with three plugins, each with one skill `s-<plugin>`,
/// installed by Claude Code's own installer at the user scope (`pu`, from outside any project)
/// and at the project and local scopes (`pp`, `pl`, from the project root).
fn scoped_marketplace(lab: &Lab) {
    let market = lab.root.join("mkt");
    let plugins = ["pu", "pp", "pl"];
    let entries: Vec<String> = plugins
        .iter()
        .map(|p| format!(r#"{{"name":"{p}","source":"./plugins/{p}","version":"1.0.0"}}"#))
        .collect();
    lab.file(
        &market.join(".claude-plugin/marketplace.json"),
        &format!(
            r#"{{"name":"mkt","owner":{{"name":"agree"}},"plugins":[{}]}}"#,
            entries.join(",")
        ),
    );
    for p in plugins {
        lab.file(
            &market.join(format!("plugins/{p}/.claude-plugin/plugin.json")),
            &format!(r#"{{"name":"{p}","version":"1.0.0"}}"#),
        );
        lab.named(&market.join(format!("plugins/{p}/skills/s-{p}")));
    }
    let m = market.to_string_lossy().into_owned();
    lab.agent(
        Agent::ClaudeCode,
        &lab.outside,
        &["plugin", "marketplace", "add", &m],
    );
    lab.agent(
        Agent::ClaudeCode,
        &lab.outside,
        &["plugin", "install", "pu@mkt"],
    );
    for (plugin, scope) in [("pp@mkt", "project"), ("pl@mkt", "local")] {
        lab.agent(
            Agent::ClaudeCode,
            &lab.project,
            &["plugin", "install", plugin, "--scope", scope],
        );
    }
    // Something of the lab's own in every start folder, so no run lists nothing.
    lab.named(&lab.home.join(".claude/skills/mine"));
}

/// Set `enabledPlugins[key]` in a settings file, keeping what the installer wrote there.
fn enable(lab: &Lab, file: &Path, key: &str, on: bool) {
    let mut settings: Value = std::fs::read_to_string(file)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_else(|| serde_json::json!({}));
    settings["enabledPlugins"][key] = on.into();
    lab.file(file, &settings.to_string());
}

/// As installed: a user install loads everywhere, a project or local one in its project (from
/// its subfolder too), not outside.
#[test]
fn claude_code_plugin_installs_at_each_scope() {
    let Some(lab) = lab() else { return };
    scoped_marketplace(&lab);
    lab.check(Check::new(
        here!(),
        "plugin installs per scope",
        ME,
        &[&lab.project, &lab.sub, &lab.outside],
    ));
}

/// Two settings files that disagree on a plugin: the user's turns `pp` off and `pl` on, the
/// project's turns `pu` off, the local one turns `pu` back on and `pl` off.
#[test]
fn claude_code_enabled_plugins_when_files_disagree() {
    let Some(lab) = lab() else { return };
    scoped_marketplace(&lab);
    let user = lab.home.join(".claude/settings.json");
    let project = lab.project.join(".claude/settings.json");
    let local = lab.project.join(".claude/settings.local.json");
    enable(&lab, &user, "pp@mkt", false);
    enable(&lab, &user, "pl@mkt", true);
    enable(&lab, &project, "pu@mkt", false);
    enable(&lab, &local, "pl@mkt", false);
    lab.check(Check::new(
        here!(),
        "enabledPlugins, files disagree",
        ME,
        &[&lab.project, &lab.sub, &lab.outside],
    ));
    enable(&lab, &local, "pu@mkt", true);
    enable(&lab, &project, "pp@mkt", false);
    enable(&lab, &local, "pp@mkt", true);
    lab.check(Check::new(
        here!(),
        "enabledPlugins, the local file turns back on",
        ME,
        &[&lab.project, &lab.sub],
    ));
}

/// A subfolder's own `.claude/settings.json` and `settings.local.json`, read when started there.
#[test]
fn claude_code_enabled_plugins_in_a_subfolder() {
    let Some(lab) = lab() else { return };
    scoped_marketplace(&lab);
    enable(
        &lab,
        &lab.sub.join(".claude/settings.json"),
        "pu@mkt",
        false,
    );
    enable(
        &lab,
        &lab.sub.join(".claude/settings.local.json"),
        "pp@mkt",
        false,
    );
    lab.check(Check::new(
        here!(),
        "enabledPlugins in a subfolder",
        ME,
        &[&lab.project, &lab.sub],
    ));
}

/// Managed settings turn a plugin off over the user's `true`, and one on that the user's
/// settings turn off.
#[test]
fn claude_code_enabled_plugins_in_managed_settings() {
    let Some(mut lab) = lab() else { return };
    let Some(managed) = managed(&mut lab) else {
        return;
    };
    scoped_marketplace(&lab);
    enable(
        &lab,
        &lab.home.join(".claude/settings.json"),
        "pl@mkt",
        false,
    );
    let file = managed.join("managed-settings.json");
    enable(&lab, &file, "pu@mkt", false);
    enable(&lab, &file, "pl@mkt", true);
    lab.check(Check::new(
        here!(),
        "enabledPlugins in managed settings",
        ME,
        &[&lab.project, &lab.outside],
    ));
}

/// `plugin.json` that lists skill paths (`"skills": [...]`): a folder holding skills and a path
/// that is not there; the plugin's `skills/` is read as well; names come from the folder.
/// `skillOverrides` does not reach a plugin's skills by either name.
#[test]
fn claude_code_plugin_manifest_lists_skill_paths() {
    let Some(lab) = lab() else { return };
    let market = lab.root.join("mkt");
    lab.file(
        &market.join(".claude-plugin/marketplace.json"),
        r#"{"name":"mkt","owner":{"name":"agree"},"plugins":[
 {"name":"pm","source":"./plugins/pm","version":"1.0.0"}]}"#,
    );
    let plugin = market.join("plugins/pm");
    lab.file(
        &plugin.join(".claude-plugin/plugin.json"),
        r#"{"name":"pm","version":"1.0.0","skills":["./extra","./missing"]}"#,
    );
    lab.named(&plugin.join("skills/std"));
    lab.named(&plugin.join("extra/ex1"));
    lab.skill(&plugin.join("extra/ex2"), Some("ex2-frontmatter"));
    lab.named(&lab.home.join(".claude/skills/mine"));
    lab.file(
        &lab.home.join(".claude/settings.json"),
        r#"{"skillOverrides":{"pm:ex1":"off","std":"off"}}"#,
    );
    let m = market.to_string_lossy().into_owned();
    lab.agent(
        Agent::ClaudeCode,
        &lab.outside,
        &["plugin", "marketplace", "add", &m],
    );
    lab.agent(
        Agent::ClaudeCode,
        &lab.outside,
        &["plugin", "install", "pm@mkt"],
    );
    lab.check(Check::new(
        here!(),
        "plugin.json skill paths",
        ME,
        &[&lab.project],
    ));
}

/// A key written twice in Claude Code 2.1.332's settings: it reads the last copy, of the
/// `skillOverrides` object and of one skill's entry, as skilldeck's listing does.
#[test]
fn claude_code_skill_overrides_written_twice() {
    let Some(lab) = lab() else { return };
    let root = lab.home.join(".claude/skills");
    for name in ["first", "second"] {
        lab.named(&root.join(name));
    }
    let settings = lab.home.join(".claude/settings.json");
    for (text, class) in [
        (
            r#"{"skillOverrides": {"first": "off"}, "skillOverrides": {"second": "off"}}"#,
            "skillOverrides twice, the last wins",
        ),
        (
            r#"{"skillOverrides": {"first": "off", "first": "on", "second": "on", "second": "off"}}"#,
            "one skill's entry twice, the last wins",
        ),
    ] {
        lab.file(&settings, text);
        lab.check(Check::new(here!(), class, ME, &[&lab.project]));
    }
}

/// A settings file that starts with a byte-order mark: whether Claude Code still reads it,
/// as skilldeck's listing and `disable` must.
#[test]
fn claude_code_settings_with_a_byte_order_mark() {
    let Some(lab) = lab() else { return };
    let root = lab.home.join(".claude/skills");
    for name in ["first", "second"] {
        lab.named(&root.join(name));
    }
    let settings = lab.home.join(".claude/settings.json");
    for (text, class) in [
        (
            "\u{feff}{\"skillOverrides\": {\"first\": \"off\"}}",
            "a byte-order mark before the settings",
        ),
        (
            "\u{feff}{\r\n  \"skillOverrides\": {\r\n    \"second\": \"off\"\r\n  }\r\n}",
            "a byte-order mark and CRLF line endings",
        ),
    ] {
        lab.file(&settings, text);
        lab.check(Check::new(here!(), class, ME, &[&lab.project]));
    }
}

/// Signed out, `CLAUDE_CODE_SYNC_SKILLS` turns claude.ai's sync on: Claude Code loads the
/// marked folder of the organization in `oauthAccount` (or `CLAUDE_CODE_ORGANIZATION_UUID`)
/// and of `CLAUDE_CODE_ACCOUNT_UUID`, else `unbound`; never the account `oauthAccount` names,
/// an unmarked folder or a skill right below `synced` (2.1.332, roots::table::claude_code::
/// synced). The signed-in cases are the generator's (class `claude-synced`).
#[test]
fn claude_code_synced_skills_signed_out_with_the_sync_switch() {
    let Some(mut lab) = lab() else { return };
    let org = "0f8c3a52-1111-4222-8333-444455556666";
    let other = "7d2e9f10-aaaa-4bbb-8ccc-ddddeeeeffff";
    let account = "9a7b1c2d-5555-4666-8777-888899990000";
    let synced = lab.home.join(".claude/skills/synced");
    lab.file(
        &lab.home.join(".claude.json"),
        &format!(
            r#"{{"oauthAccount": {{"organizationUuid": "{org}", "accountUuid": "{account}"}}}}"#
        ),
    );
    for (bucket, tag) in [
        (format!("{org}_unbound"), "org-unbound"),
        (format!("{org}_{account}"), "org-account"),
        (format!("{other}_unbound"), "other-unbound"),
        (format!("{other}_{account}"), "other-account"),
    ] {
        lab.named(&synced.join(&bucket).join(format!("synced-{tag}")));
        lab.file(&synced.join(format!(".bucket-{bucket}")), "");
    }
    lab.named(&synced.join("synced-direct"));
    lab.named(&lab.home.join(".claude/skills/personal"));
    lab.set("CLAUDE_CODE_SYNC_SKILLS", "1");
    lab.check(Check::new(here!(), "synced, unbound", ME, &[&lab.project]));
    lab.set("CLAUDE_CODE_ACCOUNT_UUID", account);
    lab.check(Check::new(
        here!(),
        "synced, account variable",
        ME,
        &[&lab.project],
    ));
    lab.set("CLAUDE_CODE_ORGANIZATION_UUID", other);
    lab.check(Check::new(
        here!(),
        "synced, organization variable",
        ME,
        &[&lab.project],
    ));
    lab.unset("CLAUDE_CODE_SYNC_SKILLS");
    lab.check(Check::new(here!(), "synced, sync off", ME, &[&lab.project]));
}
