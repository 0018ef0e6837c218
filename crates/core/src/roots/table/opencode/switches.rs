//! The skills OpenCode's permissions deny to its default agent. Its rules come from the merged
//! configuration (`config.rs`): `permission` (a string is a rule for everything), `tools`
//! (`false` is a `deny`), and `agent.<name>.permission` of the agent it starts with. Each key
//! of `permission` is a wildcard for the tool, so `"*"` and `"skill"` both speak of skills; a
//! string is a rule for every name, an object maps wildcard patterns of names to `allow`,
//! `ask` or `deny`. The last rule that matches a skill's name decides, and a denied skill is
//! left out of what the model is offered and refused when asked for, while
//! `opencode debug skill` still lists it (OpenCode 1.18.33, `Permission.evaluate`,
//! `Skill.available`, `Wildcard.match` in its bundle; seen in the prompt it sends).

use std::path::{Path, PathBuf};

use super::config::{self, Json, Layer, Object, Read};
use super::{Environment, Selector, TurnedOff};
use crate::roots::Project;
use crate::roots::agent::NamePattern;

const WHY: &str = "a permission rule in OpenCode's config denies it (permission.skill, or \
                   tools.skill set to false)";

/// The configuration files OpenCode reads, lowest precedence first, whether they exist or not:
/// the global ones (`${XDG_CONFIG_HOME:-~/.config}/opencode/{config.json,opencode.json,
/// opencode.jsonc}`, `$OPENCODE_CONFIG`), those of each project folder up the walk, farthest
/// first, then those of the `.opencode` folders, `~/.opencode` and `$OPENCODE_CONFIG_DIR`, and
/// the managed `/etc/opencode/opencode.json(c)`, which no user setting overrides.
pub(crate) fn config_files(env: &Environment, project: &Project) -> Vec<PathBuf> {
    config::layers(env, project)
        .into_iter()
        .flat_map(|layer| match layer {
            Layer::Files { files, .. } => files,
            Layer::Content => Vec::new(),
        })
        .collect()
}

pub(super) fn turned_off(env: &Environment, project: &Project) -> Vec<TurnedOff> {
    denied_patterns(env, project, &config::read)
        .into_iter()
        .map(|pattern| TurnedOff {
            selector: Selector::Pattern(pattern),
            why: WHY,
        })
        .collect()
}

/// Whether OpenCode would deny the skill `name` once each file of `planned` held its text:
/// how the settings writer checks an edit before it makes it, by the rules this reader applies.
pub(crate) fn would_deny(
    env: &Environment,
    project: &Project,
    name: &str,
    planned: &[(PathBuf, String)],
) -> bool {
    let read = |path: &Path| match planned.iter().find(|(file, _)| file == path) {
        Some((_, text)) if text.is_empty() => Read::Nothing,
        Some((_, text)) => config::parse(text, true).map_or(Read::Broken, Read::Parsed),
        None => config::read(path),
    };
    denied_patterns(env, project, &read)
        .iter()
        .any(|pattern| pattern.selects(name))
}

/// The patterns of names denied to the default agent, each file read by `read`.
fn denied_patterns(
    env: &Environment,
    project: &Project,
    read: &dyn Fn(&Path) -> Read,
) -> Vec<NamePattern> {
    let merged = merged(env, project, read);
    let Some(agent) = default_agent(&merged) else {
        return Vec::new();
    };
    let mut rules = vec![Rule {
        permission: "*".into(),
        pattern: "*".into(),
        deny: false,
    }];
    rules.extend(from_config(merged.get("permission"), env));
    let agent_permission = object(merged.get("agent"))
        .and_then(|agents| object(agents.get(&agent)))
        .and_then(|agent| agent.get("permission"));
    rules.extend(from_config(agent_permission, env));
    rules.retain(|rule| matches("skill", &rule.permission));
    denied(&rules)
}

/// The configuration OpenCode ends with, the variables `OPENCODE_PERMISSION` and `tools`
/// folded into `permission` as it folds them.
fn merged(env: &Environment, project: &Project, read: &dyn Fn(&Path) -> Read) -> Object {
    let mut merged = Object::default();
    for layer in config::layers(env, project) {
        match layer {
            Layer::Files { files, all_or_none } => {
                let mut layer = Object::default();
                for file in files {
                    match read(&file) {
                        Read::Nothing => {}
                        Read::Parsed(parsed) => match decoded(parsed) {
                            Some(parsed) => layer = config::merge(layer, parsed),
                            None if all_or_none => {
                                layer = Object::default();
                                break;
                            }
                            None => {}
                        },
                        Read::Broken if all_or_none => {
                            layer = Object::default();
                            break;
                        }
                        Read::Broken => {}
                    }
                }
                merged = config::merge(merged, layer);
            }
            Layer::Content => {
                let parsed = env
                    .var("OPENCODE_CONFIG_CONTENT")
                    .and_then(|text| config::parse(&text.to_string_lossy(), true))
                    .and_then(decoded);
                if let Some(parsed) = parsed {
                    merged = config::merge(merged, parsed);
                }
            }
        }
    }
    let from_variable = env
        .var("OPENCODE_PERMISSION")
        .and_then(|text| config::parse(&text.to_string_lossy(), false));
    if let Some(permission) = from_variable {
        let base = object(merged.get("permission"))
            .cloned()
            .unwrap_or_default();
        merged.set(
            "permission".into(),
            Json::Object(config::merge(base, permission)),
        );
    }
    if let Some(tools) = object(merged.get("tools")) {
        let permission = object(merged.get("permission"))
            .cloned()
            .unwrap_or_default();
        let folded = config::merge(tools_as_permission(tools), permission);
        merged.set("permission".into(), Json::Object(folded));
    }
    merged
}

/// A file's configuration as OpenCode's schema decodes it, or `None` when the schema refuses
/// what this reader looks at: a `permission` string becomes `{"*": action}`, and an agent's
/// `tools` become permissions that its own `permission` entries replace.
fn decoded(mut file: Object) -> Option<Object> {
    if let Some(permission) = file.get("permission") {
        let permission = permission_config(permission)?;
        file.set("permission".into(), Json::Object(permission));
    }
    if let Some(tools) = file.get("tools") {
        booleans(tools)?;
    }
    if let Some(agents) = file.get("agent") {
        let mut decoded = Object::default();
        for (name, agent) in object(Some(agents))?.entries() {
            let mut agent = object(Some(agent))?.clone();
            let mut permission = match agent.get("tools") {
                Some(tools) => tools_as_permission(booleans(tools)?),
                None => Object::default(),
            };
            if let Some(own) = agent.get("permission") {
                for (key, value) in permission_config(own)?.entries() {
                    permission.set(key.to_owned(), value.clone());
                }
            }
            agent.set("permission".into(), Json::Object(permission));
            decoded.set(name.to_owned(), Json::Object(agent));
        }
        file.set("agent".into(), Json::Object(decoded));
    }
    if let Some(name) = file.get("default_agent") {
        matches!(name, Json::String(_)).then_some(())?;
    }
    Some(file)
}

/// `permission` as its schema takes it: an action, or an object of actions or of objects of
/// actions.
fn permission_config(value: &Json) -> Option<Object> {
    match value {
        Json::String(action) if is_action(action) => {
            Some(Object::from_entries([("*".to_owned(), value.clone())]))
        }
        Json::Object(rules) => {
            let valid = rules.entries().all(|(_, rule)| match rule {
                Json::String(action) => is_action(action),
                Json::Object(patterns) => patterns
                    .entries()
                    .all(|(_, action)| matches!(action, Json::String(a) if is_action(a))),
                _ => false,
            });
            valid.then(|| rules.clone())
        }
        _ => None,
    }
}

fn is_action(action: &str) -> bool {
    matches!(action, "allow" | "ask" | "deny")
}

fn booleans(value: &Json) -> Option<&Object> {
    let tools = object(Some(value))?;
    tools
        .entries()
        .all(|(_, on)| matches!(on, Json::Bool(_)))
        .then_some(tools)
}

/// `tools: {name: false}` as OpenCode reads it: `{name: "deny"}`, `write` and `patch` standing
/// for `edit`.
fn tools_as_permission(tools: &Object) -> Object {
    let mut permission = Object::default();
    for (tool, on) in tools.entries() {
        let action = if matches!(on, Json::Bool(true)) {
            "allow"
        } else {
            "deny"
        };
        let tool = if matches!(tool, "write" | "edit" | "patch") {
            "edit"
        } else {
            tool
        };
        permission.set(tool.to_owned(), Json::String(action.to_owned()));
    }
    permission
}

fn object(value: Option<&Json>) -> Option<&Object> {
    match value? {
        Json::Object(object) => Some(object),
        _ => None,
    }
}

/// The agent OpenCode starts with: `default_agent`, else the first of its agents that is
/// neither a subagent nor hidden (`build`, unless the config disables it). `None` where
/// OpenCode refuses to start (the named agent is missing, a subagent or hidden).
fn default_agent(config: &Object) -> Option<String> {
    // (name, mode, hidden) of OpenCode's own agents, in its order.
    let mut agents: Vec<(String, String, bool)> = [
        ("build", "primary", false),
        ("plan", "primary", false),
        ("general", "subagent", false),
        ("explore", "subagent", false),
        ("compaction", "primary", true),
        ("title", "primary", true),
        ("summary", "primary", true),
    ]
    .into_iter()
    .map(|(name, mode, hidden)| (name.to_owned(), mode.to_owned(), hidden))
    .collect();
    for (name, settings) in object(config.get("agent"))
        .into_iter()
        .flat_map(Object::entries)
    {
        let Some(settings) = object(Some(settings)) else {
            continue;
        };
        if matches!(settings.get("disable"), Some(Json::Bool(true))) {
            agents.retain(|(known, ..)| known != name);
            continue;
        }
        let at = match agents.iter().position(|(known, ..)| known == name) {
            Some(at) => at,
            None => {
                agents.push((name.to_owned(), "all".to_owned(), false));
                agents.len() - 1
            }
        };
        if let Some(Json::String(mode)) = settings.get("mode") {
            agents[at].1.clone_from(mode);
        }
        if let Some(Json::Bool(hidden)) = settings.get("hidden") {
            agents[at].2 = *hidden;
        }
    }
    let startable = |(_, mode, hidden): &&(String, String, bool)| mode != "subagent" && !hidden;
    match config.get("default_agent") {
        Some(Json::String(name)) => agents
            .iter()
            .find(|(known, ..)| known == name)
            .filter(startable)
            .map(|(name, ..)| name.clone()),
        _ => agents.iter().find(startable).map(|(name, ..)| name.clone()),
    }
}

/// One permission rule: which tools (a wildcard), which names (a wildcard), and whether it
/// denies (`allow` and `ask` both leave a skill offered).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Rule {
    permission: String,
    pattern: String,
    deny: bool,
}

/// OpenCode's `Permission.fromConfig`: each key in order, a string one rule for every name, an
/// object one rule per pattern (`~/` and `$HOME` in a pattern standing for the home).
fn from_config(permission: Option<&Json>, env: &Environment) -> Vec<Rule> {
    let Some(permission) = object(permission) else {
        return Vec::new();
    };
    let mut rules = Vec::new();
    for (key, value) in permission.entries() {
        match value {
            Json::String(action) => rules.push(Rule {
                permission: key.to_owned(),
                pattern: "*".to_owned(),
                deny: action == "deny",
            }),
            Json::Object(patterns) => {
                rules.extend(patterns.entries().filter_map(|(pattern, action)| {
                    let Json::String(action) = action else {
                        return None;
                    };
                    Some(Rule {
                        permission: key.to_owned(),
                        pattern: expand_home(pattern, env),
                        deny: action == "deny",
                    })
                }));
            }
            _ => {}
        }
    }
    rules
}

fn expand_home(pattern: &str, env: &Environment) -> String {
    let home = env.home().to_string_lossy();
    if let Some(rest) = pattern.strip_prefix("~/") {
        format!("{home}/{rest}")
    } else if pattern == "~" {
        home.into_owned()
    } else if let Some(rest) = pattern.strip_prefix("$HOME") {
        format!("{home}{rest}")
    } else {
        pattern.to_owned()
    }
}

/// The names the last matching rule denies, as patterns: a name is denied when a `deny` rule
/// matches it and no later rule that allows or asks does (a later `deny` denies it anyway).
fn denied(rules: &[Rule]) -> Vec<NamePattern> {
    rules
        .iter()
        .enumerate()
        .filter(|(_, rule)| rule.deny)
        .filter_map(|(at, rule)| {
            let unless: Vec<String> = rules[at + 1..]
                .iter()
                .filter(|later| !later.deny)
                .map(|later| later.pattern.clone())
                .collect();
            (!unless.iter().any(|p| p == "*")).then(|| NamePattern {
                pattern: rule.pattern.clone(),
                unless,
                matches,
            })
        })
        .collect()
}

/// Whether a `permission.skill` rule whose pattern is `name` itself reaches the skill `name`
/// and no other, so that a rule for one skill can be written. OpenCode's `Wildcard.match` has
/// no escape: in the opencode 1.18.33 bundle (`bin/opencode` of opencode-linux-x64,
/// `function ql(e,o)`) the pattern is `o.replaceAll("\\","/")`, then
/// `.replace(/[.+^${}()|[\]\\]/g,"\\$&").replace(/\*/g,".*").replace(/\?/g,".")`, so `*` and
/// `?` are always wildcards; `\` and `/` match each other; and `Permission.fromConfig` first
/// expands a pattern `~`, `~/...` or `$HOME...` to the home folder.
pub(crate) fn literal_pattern(name: &str, env: &Environment) -> bool {
    !name.contains(['*', '?', '\\', '/']) && expand_home(name, env) == name
}

/// Whether a rule whose pattern is `pattern` reaches the skill `name` ([`matches`] after the
/// home expansion OpenCode makes first).
pub(crate) fn pattern_reaches(pattern: &str, name: &str, env: &Environment) -> bool {
    matches(name, &expand_home(pattern, env))
}

/// OpenCode's `Wildcard.match(text, pattern)`: `*` is any run of characters, `?` any one, the
/// rest literal; `\` counts as `/` on both sides; a pattern ending in ` *` also matches without
/// that tail (`"git *"` matches `git`); the whole text must match, line breaks included.
pub(super) fn matches(text: &str, pattern: &str) -> bool {
    let mut expression = String::from("(?s)^");
    for c in pattern.replace('\\', "/").chars() {
        match c {
            '*' => expression.push_str(".*"),
            '?' => expression.push('.'),
            c => expression.push_str(&regex::escape(c.encode_utf8(&mut [0; 4]))),
        }
    }
    if let Some(head) = expression.strip_suffix(" .*") {
        expression = format!("{head}( .*)?");
    }
    expression.push('$');
    regex::Regex::new(&expression).is_ok_and(|re| re.is_match(&text.replace('\\', "/")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_as_opencode_matches_them() {
        assert!(matches("internal-x", "internal-*"));
        assert!(matches("internal-", "internal-*"));
        assert!(!matches("my-internal-x", "internal-*"));
        assert!(matches("ab", "a?"));
        assert!(!matches("abc", "a?"));
        assert!(matches("a.b", "a.b"));
        assert!(!matches("axb", "a.b"));
        assert!(matches("a+(b)[c]{d}|$^", "a+(b)[c]{d}|$^"));
        assert!(matches("git", "git *"));
        assert!(matches("git status", "git *"));
        assert!(!matches("gitx", "git *"));
        assert!(matches("a\\b", "a/b"));
        assert!(matches("line\nbreak", "line*"));
        assert!(!matches("Skill", "skill"));
        assert!(matches("skill", "*"));
        assert!(matches("", "*"));
    }

    #[test]
    fn only_a_name_the_matcher_reads_literally_gets_a_rule_of_its_own() {
        let env = Environment::new("/home/me");
        for name in [
            "p*", "*", "p?", "?", "git *", "a\\b", "a/b", "~", "~/x", "$HOME", "$HOME-x",
        ] {
            assert!(!literal_pattern(name, &env), "{name}");
        }
        for name in [
            "pdf", "p.d", "a+b", "(x)", "[y]", "{z}", "a|b", "^$", "~x", "x~", "HOME",
        ] {
            assert!(literal_pattern(name, &env), "{name}");
            assert!(pattern_reaches(name, name, &env), "{name}");
            for other in [format!("{name}x"), format!("x{name}"), name.to_uppercase()] {
                if other != name {
                    assert!(
                        !pattern_reaches(name, &other, &env),
                        "{name} reaches {other}"
                    );
                }
            }
        }
        assert!(pattern_reaches("p*", "pdf", &env));
        assert!(pattern_reaches("a\\b", "a/b", &env));
        assert!(pattern_reaches("~/x", "/home/me/x", &env));
        assert!(!pattern_reaches("~", "~", &env));
    }

    fn off(text: &str) -> Vec<TurnedOff> {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        std::fs::create_dir_all(home.join(".config/opencode")).unwrap();
        std::fs::write(home.join(".config/opencode/opencode.jsonc"), text).unwrap();
        let env = Environment::new(&home).with_var("SKILLDECK_SYSTEM_ROOT", tmp.path());
        turned_off(&env, &Project::locate(&home))
    }

    fn denies(text: &str, name: &str) -> bool {
        off(text).iter().any(|t| match &t.selector {
            Selector::Pattern(pattern) => pattern.selects(name),
            _ => false,
        })
    }

    #[test]
    fn the_last_matching_rule_decides() {
        let config =
            r#"{"permission": {"skill": {"*": "deny", "keep-*": "allow", "keep-not": "deny"}}}"#;
        assert!(denies(config, "other"));
        assert!(!denies(config, "keep-this"));
        assert!(denies(config, "keep-not"));
        let allow_last = r#"{"permission": {"skill": {"secret": "deny", "*": "allow"}}}"#;
        assert!(!denies(allow_last, "secret"));
        assert!(off(allow_last).is_empty());
    }

    #[test]
    fn ask_leaves_a_skill_offered() {
        let config = r#"{"permission": {"skill": {"*": "deny", "maybe": "ask"}}}"#;
        assert!(!denies(config, "maybe"));
        assert!(denies(config, "other"));
    }

    #[test]
    fn a_string_speaks_for_every_name_and_a_wildcard_key_for_every_tool() {
        assert!(denies(r#"{"permission": {"skill": "deny"}}"#, "any"));
        assert!(denies(r#"{"permission": "deny"}"#, "any"));
        assert!(denies(r#"{"permission": {"*": "deny"}}"#, "any"));
        assert!(denies(r#"{"permission": {"sk*": {"x": "deny"}}}"#, "x"));
        assert!(!denies(r#"{"permission": {"bash": "deny"}}"#, "any"));
        assert!(!denies(
            r#"{"permission": {"*": "deny", "skill": "allow"}}"#,
            "any"
        ));
    }

    #[test]
    fn tools_false_denies_unless_permission_says_otherwise() {
        assert!(denies(r#"{"tools": {"skill": false}}"#, "any"));
        assert!(!denies(r#"{"tools": {"skill": true}}"#, "any"));
        // `tools` come first, so a later `"*"` rule of `permission` wins over them.
        assert!(!denies(
            r#"{"tools": {"skill": false}, "permission": {"*": "allow"}}"#,
            "any"
        ));
    }

    #[test]
    fn the_default_agent_adds_its_own_rules() {
        let config = r#"{"agent": {"build": {"permission": {"skill": {"mine": "deny"}}},
                          "plan": {"permission": {"skill": {"theirs": "deny"}}}}}"#;
        assert!(denies(config, "mine"));
        assert!(!denies(config, "theirs"));
        let planning = r#"{"default_agent": "plan",
                           "agent": {"plan": {"permission": {"skill": {"theirs": "deny"}}}}}"#;
        assert!(denies(planning, "theirs"));
        let tools = r#"{"agent": {"build": {"tools": {"skill": false}}}}"#;
        assert!(denies(tools, "any"));
        let disabled =
            r#"{"agent": {"build": {"disable": true, "permission": {"skill": "deny"}}}}"#;
        assert!(!denies(disabled, "any"));
        let missing = r#"{"default_agent": "nobody", "permission": {"skill": "deny"}}"#;
        assert!(off(missing).is_empty());
    }

    #[test]
    fn comments_and_trailing_commas_are_read_and_a_broken_file_says_nothing() {
        let config = "// mine\n{\"permission\": {/* a */ \"skill\": {\"x\": \"deny\",},},}\n";
        assert!(denies(config, "x"));
        assert!(off("{\"permission\": {\"skill\": \"deny\"}").is_empty());
        assert!(off("{'permission': {'skill': 'deny'}}").is_empty());
        assert!(off(r#"{"permission": {"skill": "nope"}}"#).is_empty());
        assert!(off("").is_empty());
    }

    #[test]
    fn javascript_key_order_puts_index_keys_first() {
        // `"1"` is an array index: OpenCode sees it before `"*"`, so `"*"` is the last rule.
        let config = r#"{"permission": {"skill": {"*": "allow", "1": "deny"}}}"#;
        assert!(!denies(config, "1"));
    }

    #[test]
    fn the_project_file_comes_after_the_global_and_merges_into_it() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let project = tmp.path().join("work");
        std::fs::create_dir_all(home.join(".config/opencode")).unwrap();
        std::fs::create_dir_all(project.join(".git")).unwrap();
        std::fs::create_dir_all(project.join("sub")).unwrap();
        std::fs::write(
            home.join(".config/opencode/opencode.json"),
            r#"{"permission": {"skill": {"a": "deny", "b": "deny"}}}"#,
        )
        .unwrap();
        std::fs::write(
            project.join("opencode.json"),
            r#"{"permission": {"skill": {"a": "allow", "c": "deny"}}}"#,
        )
        .unwrap();
        let env = Environment::new(&home).with_var("SKILLDECK_SYSTEM_ROOT", tmp.path());
        let here = Project::locate(&project.join("sub"));
        let selects = |env: &Environment, name: &str| {
            turned_off(env, &here).iter().any(|t| match &t.selector {
                Selector::Pattern(pattern) => pattern.selects(name),
                _ => false,
            })
        };
        assert!(!selects(&env, "a"));
        assert!(selects(&env, "b"));
        assert!(selects(&env, "c"));
        let without = env.clone().with_var("OPENCODE_DISABLE_PROJECT_CONFIG", "1");
        assert!(selects(&without, "a"));
        assert!(!selects(&without, "c"));
        let content = env.clone().with_var(
            "OPENCODE_CONFIG_CONTENT",
            r#"{"permission": {"skill": {"b": "ask"}}}"#,
        );
        assert!(!selects(&content, "b"));
        let variable = env.with_var("OPENCODE_PERMISSION", r#"{"skill": {"c": "allow"}}"#);
        assert!(!selects(&variable, "c"));
    }

    #[test]
    fn one_broken_global_file_drops_all_three() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let global = home.join(".config/opencode");
        std::fs::create_dir_all(&global).unwrap();
        std::fs::write(
            global.join("config.json"),
            r#"{"permission": {"skill": "deny"}}"#,
        )
        .unwrap();
        std::fs::write(global.join("opencode.jsonc"), "{ broken").unwrap();
        let env = Environment::new(&home).with_var("SKILLDECK_SYSTEM_ROOT", tmp.path());
        assert!(turned_off(&env, &Project::locate(&home)).is_empty());
    }

    #[test]
    fn config_files_lowest_precedence_first() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let repo = tmp.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("sub")).unwrap();
        // The system folder below is Linux's (Windows keeps it in ProgramData).
        let env = Environment::new(&home)
            .with_platform(crate::roots::Platform::Xdg)
            .with_var("SKILLDECK_SYSTEM_ROOT", tmp.path())
            .with_var("OPENCODE_CONFIG", "custom.json")
            .with_var("OPENCODE_CONFIG_DIR", tmp.path().join("cfg"));
        let files = config_files(&env, &Project::locate(&repo.join("sub")));
        let global = home.join(".config/opencode");
        assert_eq!(
            files,
            [
                global.join("config.json"),
                global.join("opencode.json"),
                global.join("opencode.jsonc"),
                repo.join("sub/custom.json"),
                repo.join("opencode.json"),
                repo.join("opencode.jsonc"),
                repo.join("sub/opencode.json"),
                repo.join("sub/opencode.jsonc"),
                repo.join("sub/.opencode/opencode.json"),
                repo.join("sub/.opencode/opencode.jsonc"),
                repo.join(".opencode/opencode.json"),
                repo.join(".opencode/opencode.jsonc"),
                home.join(".opencode/opencode.json"),
                home.join(".opencode/opencode.jsonc"),
                tmp.path().join("cfg/opencode.json"),
                tmp.path().join("cfg/opencode.jsonc"),
                tmp.path().join("etc/opencode/opencode.json"),
                tmp.path().join("etc/opencode/opencode.jsonc"),
            ]
        );
    }
}
