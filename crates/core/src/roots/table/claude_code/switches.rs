//! The skills Claude Code's settings keep from the model: `skillOverrides` maps a skill's name
//! to `"on"`, `"name-only"`, `"user-invocable-only"` or `"off"`. Claude Code 2.1.332 merges its
//! settings sources key by key, each later one winning (`ws = ["userSettings",
//! "projectSettings", "localSettings", "flagSettings", "policySettings"]`, "Ordered low-to-high
//! priority"), and reads each skill's value from the merged map (`K(e)` reads
//! `Rt().skillOverrides`); `Tte(e)` is `"user-invocable-only" || "off"`, and a skill it holds
//! is left out of the model's listing (`rve`), while `"name-only"` keeps the entry without its
//! description (`q3n`: `- ${name}`). The files, from its settings loader (`N6`, `FQn`, `fo`):
//! - the user's `settings.json` (under `CLAUDE_CONFIG_DIR` when set);
//! - the start folder's `.claude/settings.json` only, no walk up (`projectConfigDir ?? cwd`);
//! - the start folder's `.claude/settings.local.json` when the start is below the repository
//!   root (the "legacy" cascade read first), then the repository root's, which wins;
//! - the managed `managed-settings.json` (`/etc/claude-code` on Linux), then each
//!   `managed-settings.d/*.json` in name order.
//!
//! A plugin's skills are out of its reach (`A$e`: a plugin skill's value comes from the synced
//! state only; anthropics/claude-code#76156). All of it is checked against the listing 2.1.332
//! sends its model (`agree::claude_code::claude_code_skill_overrides_*`).

use std::path::{Path, PathBuf};

use super::{CLAUDE_HOME, Environment, Place, Selector, SystemPath, TurnedOff};
use crate::roots::Project;

/// The folder of Claude Code's managed settings, below the system root.
pub(crate) const MANAGED: SystemPath = SystemPath {
    linux: "etc/claude-code",
    macos: "Library/Application Support/ClaudeCode",
    windows: "Program Files/ClaudeCode",
};

/// One `skillOverrides` value, weakest first (2.1.332's
/// `{on:0,"name-only":1,"user-invocable-only":2,off:3}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Override {
    On,
    NameOnly,
    UserInvocableOnly,
    Off,
}

impl Override {
    fn parse(value: &str) -> Option<Self> {
        match value {
            "on" => Some(Self::On),
            "name-only" => Some(Self::NameOnly),
            "user-invocable-only" => Some(Self::UserInvocableOnly),
            "off" => Some(Self::Off),
            _ => None,
        }
    }

    /// Whether the model is not offered the skill at all.
    pub(crate) fn keeps_from_model(self) -> bool {
        matches!(self, Self::UserInvocableOnly | Self::Off)
    }

    fn why(self) -> &'static str {
        match self {
            Self::Off => "skillOverrides in Claude Code's settings sets it \"off\"",
            _ => {
                "skillOverrides in Claude Code's settings sets it \"user-invocable-only\" (still /name)"
            }
        }
    }
}

/// The settings files Claude Code reads, the weakest first: the user's, the start folder's
/// shared `.claude/settings.json`, the local files (the start folder's when it is below the
/// repository root, then the root's) and the managed ones.
pub(crate) fn files(env: &Environment, project: &Project) -> Vec<PathBuf> {
    user_file(env, project)
        .into_iter()
        .chain(files_after_user(env, project))
        .collect()
}

/// The settings files Claude Code reads after the user's, the weakest first.
pub(crate) fn files_after_user(env: &Environment, project: &Project) -> Vec<PathBuf> {
    let mut files = vec![project_file(project)];
    let start_local = project.start().join(".claude/settings.local.json");
    if start_local != local_file(project) {
        files.push(start_local);
    }
    files.push(local_file(project));
    files.extend(managed_files(env));
    files
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

/// The repository root's `.claude/settings.local.json` (the start folder's outside any
/// repository): the one Claude Code's `/skills` menu writes (`FQn`'s `localSettings`,
/// `uW(cwd, canonicalGitRoot)`).
pub(crate) fn local_file(project: &Project) -> PathBuf {
    project.top().join(".claude/settings.local.json")
}

/// `managed-settings.json` in the managed folder, then `managed-settings.d/*.json` in name
/// order (`getDropInDir`: `managed-settings.d` beside it).
pub(crate) fn managed_files(env: &Environment) -> Vec<PathBuf> {
    let dir = Place::System(MANAGED)
        .resolve(env, &Project::locate(Path::new("/")))
        .into_iter()
        .next()
        .map(|located| located.path);
    let Some(dir) = dir else {
        return Vec::new();
    };
    let mut drop_ins: Vec<PathBuf> = std::fs::read_dir(dir.join("managed-settings.d"))
        .into_iter()
        .flatten()
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    drop_ins.sort();
    std::iter::once(dir.join("managed-settings.json"))
        .chain(drop_ins)
        .collect()
}

/// Whether `disableBundledSkills` is set true, which takes the bundled skills from the model as
/// `CLAUDE_CODE_DISABLE_BUNDLED_SKILLS` does (the 2.1.332 binary reads either).
pub(super) fn bundled_off(env: &Environment, project: &Project) -> bool {
    files(env, project).iter().any(|file| {
        settings(file).is_some_and(|s| s.get("disableBundledSkills") == Some(&true.into()))
    })
}

/// Every skill's `skillOverrides` value after the merge, the later file winning per name.
pub(crate) fn overrides(env: &Environment, project: &Project) -> Vec<(String, Override)> {
    let mut overrides: Vec<(String, Override)> = Vec::new();
    for file in files(env, project) {
        for (name, value) in read(&file) {
            let Some(value) = Override::parse(&value) else {
                continue;
            };
            overrides.retain(|(seen, _)| *seen != name);
            overrides.push((name, value));
        }
    }
    overrides
}

pub(super) fn turned_off(env: &Environment, project: &Project) -> Vec<TurnedOff> {
    overrides(env, project)
        .into_iter()
        .filter(|(_, value)| value.keeps_from_model())
        // `plugin:skill` names a plugin's skill, which no value reaches; a skill of its own
        // is named by its folder, which has no colon in practice.
        .filter(|(name, _)| !name.contains(':'))
        .map(|(name, value)| TurnedOff {
            selector: Selector::Name(name),
            why: value.why(),
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
