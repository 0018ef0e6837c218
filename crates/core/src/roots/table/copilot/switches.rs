//! The skills Copilot CLI 1.0.102's settings turn off: `disabledSkills`, by exact name (case
//! and spaces kept), every source alike, built-ins too. Its listing still shows such a skill,
//! `enabled: false` (`copilot skill disable` writes it; seen in `copilot skill list --json`).
//!
//! In its `cli-main.js` (unpacked to `~/.cache/copilot/pkg/linux-x64/1.0.102/`), `skill list`
//! disables the union of the user's names (`e0e`: `userSettingsLoad(...).disabledSkills`) and
//! the repository's (`loadRepositoryDisabledSkills`: only inside a git repository, only in a
//! folder it trusts, [`super::trust`], from the repository root's
//! `.github/copilot/settings.json` merged with `settings.local.json`: the names of both, and
//! a file that cannot be loaded leaves the other's). What the listing showed besides: the
//! user's file is read in Copilot's own dialect, the repository's as plain JSON (both at
//! `roots::dialect::Syntax`); a file with a key of the wrong type counts for nothing
//! (`roots::settings::copilot_types_hold`).

use std::path::{Path, PathBuf};

use super::{COPILOT_HOME, Environment, Selector, TurnedOff};
use crate::roots::Project;

const WHY_USER: &str = "disabledSkills in Copilot's settings.json names it";
const WHY_REPOSITORY: &str =
    "disabledSkills in the repository's .github/copilot/settings.json names it";
const WHY_LOCAL: &str =
    "disabledSkills in the repository's .github/copilot/settings.local.json names it";

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

/// The repository's `.github/copilot/settings.local.json`, read as `settings.json` is.
pub(crate) fn local_file(project: &Project) -> PathBuf {
    project.top().join(".github/copilot/settings.local.json")
}

pub(super) fn turned_off(env: &Environment, project: &Project) -> Vec<TurnedOff> {
    let mut off = Vec::new();
    if let Some(file) = user_file(env, project) {
        let settings = crate::roots::settings::copilot_user(&file);
        off.extend(names(settings.as_ref(), WHY_USER));
    }
    if project.repository().is_some() && super::trust::trusts(env, project) {
        for (file, why) in [
            (repository_file(project), WHY_REPOSITORY),
            (local_file(project), WHY_LOCAL),
        ] {
            off.extend(names(strict(&file).as_ref(), why));
        }
    }
    off
}

/// A repository settings file, which Copilot parses as plain JSON.
fn strict(file: &Path) -> Option<serde_json::Value> {
    crate::roots::settings::copilot_repository(file)
}

/// The names of `disabledSkills`, or none when it holds anything but strings.
fn names(settings: Option<&serde_json::Value>, why: &'static str) -> Vec<TurnedOff> {
    let Some(list) = settings
        .and_then(|s| s.get("disabledSkills"))
        .and_then(serde_json::Value::as_array)
    else {
        return Vec::new();
    };
    list.iter()
        .map(|name| name.as_str())
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default()
        .into_iter()
        .map(|name| TurnedOff {
            selector: Selector::Name(name.to_owned()),
            why,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git_project(root: &Path) -> Project {
        std::fs::create_dir_all(root.join(".git")).unwrap();
        Project::locate(root)
    }

    #[test]
    fn the_names_in_disabled_skills_are_turned_off_unless_one_is_no_string() {
        let tmp = tempfile::tempdir().unwrap();
        let settings = tmp.path().join("settings.json");
        std::fs::write(&settings, "{ // mine\n \"disabledSkills\": [\"quiet\"], }").unwrap();
        let env = Environment::new("/nowhere").with_var("COPILOT_HOME", tmp.path());
        let off = turned_off(&env, &Project::locate(tmp.path()));
        assert_eq!(off.len(), 1);
        assert_eq!(off[0].selector, Selector::Name("quiet".into()));
        std::fs::write(&settings, r#"{"disabledSkills": ["quiet", 3]}"#).unwrap();
        assert!(turned_off(&env, &Project::locate(tmp.path())).is_empty());
        std::fs::write(&settings, "{ not json").unwrap();
        assert!(turned_off(&env, &Project::locate(tmp.path())).is_empty());
    }

    #[test]
    fn the_repository_files_count_only_when_trusted_and_only_as_plain_json() {
        let tmp = tempfile::tempdir().unwrap();
        let project = git_project(tmp.path());
        let dir = tmp.path().join(".github/copilot");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("settings.json"), r#"{"disabledSkills": ["a"]}"#).unwrap();
        std::fs::write(
            dir.join("settings.local.json"),
            r#"{"disabledSkills": ["b"]}"#,
        )
        .unwrap();
        let env = Environment::new(tmp.path().join("home"));
        assert!(turned_off(&env, &project).is_empty());
        let env = env.with_var(super::super::trust::ALLOW_ALL, "true");
        let names: Vec<_> = turned_off(&env, &project)
            .into_iter()
            .map(|off| off.selector)
            .collect();
        assert_eq!(
            names,
            [Selector::Name("a".into()), Selector::Name("b".into())]
        );
        std::fs::write(
            dir.join("settings.local.json"),
            "{ // c\n\"disabledSkills\": [\"b\"]}",
        )
        .unwrap();
        assert_eq!(turned_off(&env, &project).len(), 1);
    }

    #[test]
    fn outside_a_repository_no_repository_file_counts() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(".github/copilot");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("settings.json"), r#"{"disabledSkills": ["a"]}"#).unwrap();
        let env = Environment::new(tmp.path().join("home"))
            .with_var(super::super::trust::ALLOW_ALL, "true");
        assert!(turned_off(&env, &Project::locate(tmp.path())).is_empty());
    }
}
