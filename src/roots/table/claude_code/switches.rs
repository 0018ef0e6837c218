//! The skills Claude Code's settings turn off: `skillOverrides` maps a skill's name to `"off"`
//! in the user's `settings.json` (under `CLAUDE_CONFIG_DIR` when set), or in the start folder's
//! `.claude/settings.json` and `.claude/settings.local.json`; the more local file wins. Plugin
//! skills are not covered, by design (anthropics/claude-code#76156). Seen in the listing Claude
//! Code 2.1.332 sends its model.

use std::path::{Path, PathBuf};

use super::{CLAUDE_HOME, Environment, Selector, TurnedOff};
use crate::roots::Project;

const WHY: &str = "skillOverrides in Claude Code's settings sets it \"off\"";

/// The settings files Claude Code reads, the more local last: the user's, the start folder's
/// shared `.claude/settings.json`, and its `.claude/settings.local.json`.
pub(crate) fn files(env: &Environment, project: &Project) -> Vec<PathBuf> {
    user_file(env, project)
        .into_iter()
        .chain([project_file(project), local_file(project)])
        .collect()
}

/// The user's `settings.json`, under `CLAUDE_CONFIG_DIR` when it is set.
pub(crate) fn user_file(env: &Environment, project: &Project) -> Option<PathBuf> {
    CLAUDE_HOME
        .resolve(env, project)
        .into_iter()
        .next()
        .map(|located| located.path.join("settings.json"))
}

/// The start folder's shared `.claude/settings.json`, often committed with the project.
pub(crate) fn project_file(project: &Project) -> PathBuf {
    project.start().join(".claude/settings.json")
}

/// The start folder's `.claude/settings.local.json`, the one Claude Code's `/skills` menu
/// writes.
pub(crate) fn local_file(project: &Project) -> PathBuf {
    project.start().join(".claude/settings.local.json")
}

/// Whether `disableBundledSkills` is set true, which takes the bundled skills from the model as
/// `CLAUDE_CODE_DISABLE_BUNDLED_SKILLS` does (the 2.1.332 binary reads either).
pub(super) fn bundled_off(env: &Environment, project: &Project) -> bool {
    files(env, project).iter().any(|file| {
        settings(file).is_some_and(|s| s.get("disableBundledSkills") == Some(&true.into()))
    })
}

pub(super) fn turned_off(env: &Environment, project: &Project) -> Vec<TurnedOff> {
    let mut overrides: Vec<(String, bool)> = Vec::new();
    for file in files(env, project) {
        for (name, value) in read(&file) {
            overrides.retain(|(seen, _)| *seen != name);
            overrides.push((name, value == "off"));
        }
    }
    overrides
        .into_iter()
        .filter(|(_, off)| *off)
        .map(|(name, _)| TurnedOff {
            selector: Selector::Name(name),
            why: WHY,
        })
        .collect()
}

/// One settings file as a JSON object; `None` when it is missing or does not parse.
fn settings(path: &Path) -> Option<serde_json::Map<String, serde_json::Value>> {
    match crate::roots::settings::json(path)? {
        serde_json::Value::Object(settings) => Some(settings),
        _ => None,
    }
}

/// The `skillOverrides` of one settings file; nothing when it is missing or does not parse.
fn read(path: &Path) -> Vec<(String, String)> {
    let Some(settings) = settings(path) else {
        return Vec::new();
    };
    let Some(serde_json::Value::Object(overrides)) = settings.get("skillOverrides") else {
        return Vec::new();
    };
    overrides
        .iter()
        .filter_map(|(name, value)| Some((name.clone(), value.as_str()?.to_owned())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_in_the_user_settings_and_back_on_in_the_project() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let start = tmp.path().join("proj");
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::create_dir_all(start.join(".claude")).unwrap();
        std::fs::write(
            home.join(".claude/settings.json"),
            r#"{"skillOverrides": {"a": "off", "b": "off", "c": "name-only"}}"#,
        )
        .unwrap();
        std::fs::write(
            start.join(".claude/settings.local.json"),
            r#"{"skillOverrides": {"b": "on"}}"#,
        )
        .unwrap();
        let off = turned_off(&Environment::new(&home), &Project::locate(&start));
        assert_eq!(
            off.into_iter().map(|t| t.selector).collect::<Vec<_>>(),
            [Selector::Name("a".into())]
        );
        assert!(!bundled_off(
            &Environment::new(&home),
            &Project::locate(&start)
        ));
        std::fs::write(
            start.join(".claude/settings.json"),
            r#"{"disableBundledSkills": true}"#,
        )
        .unwrap();
        assert!(bundled_off(
            &Environment::new(&home),
            &Project::locate(&start)
        ));
    }
}
