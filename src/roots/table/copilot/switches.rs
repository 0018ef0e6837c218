//! The skills Copilot CLI's settings turn off: `disabledSkills` in
//! `${COPILOT_HOME:-~/.copilot}/settings.json`, by name, every source alike. Its listing still
//! shows such a skill, `enabled: false` (`copilot skill disable` writes it; seen in
//! `copilot skill list --json`). A repository's `.github/copilot/settings.json` counts only in
//! a folder Copilot trusts, which is not modelled.

use std::path::PathBuf;

use super::{COPILOT_HOME, Environment, Selector, TurnedOff};
use crate::roots::Project;

const WHY: &str = "disabledSkills in Copilot's settings.json names it";

/// `${COPILOT_HOME:-~/.copilot}/settings.json`.
pub(crate) fn user_file(env: &Environment, project: &Project) -> Option<PathBuf> {
    COPILOT_HOME
        .resolve(env, project)
        .into_iter()
        .next()
        .map(|home| home.path.join("settings.json"))
}

/// The repository's `.github/copilot/settings.json`, whose `disabledSkills` adds names to the
/// user's (in a folder Copilot trusts).
pub(crate) fn repository_file(project: &Project) -> PathBuf {
    project.top().join(".github/copilot/settings.json")
}

pub(super) fn turned_off(env: &Environment, project: &Project) -> Vec<TurnedOff> {
    let Some(file) = user_file(env, project) else {
        return Vec::new();
    };
    // Copilot's settings files may hold comments, as its other JSON files do.
    let Some(settings) = crate::roots::settings::jsonc(&file) else {
        return Vec::new();
    };
    settings
        .get("disabledSkills")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_str)
        .map(|name| TurnedOff {
            selector: Selector::Name(name.to_owned()),
            why: WHY,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_in_disabled_skills_are_turned_off() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(
            tmp.path().join("settings.json"),
            r#"{"disabledSkills": ["quiet", 3]}"#,
        )
        .unwrap();
        let env = Environment::new("/nowhere").with_var("COPILOT_HOME", tmp.path());
        let off = turned_off(&env, &Project::locate(tmp.path()));
        assert_eq!(off.len(), 1);
        assert_eq!(off[0].selector, Selector::Name("quiet".into()));
        std::fs::write(tmp.path().join("settings.json"), "{ not json").unwrap();
        assert!(turned_off(&env, &Project::locate(tmp.path())).is_empty());
    }
}
