//! The skills Codex's own settings turn off: `[[skills.config]]` entries of
//! `$CODEX_HOME/config.toml` with `enabled = false`, by `name` (every skill listed by it) or by
//! `path` (one `SKILL.md`). Codex reads them from the user layer only, a project's
//! `.codex/config.toml` is ignored, a later entry for the same selector wins, and an entry with
//! two selectors or none is skipped (codex-rs/core-skills `config_rules.rs`; seen in
//! `codex debug prompt-input`).

use std::path::PathBuf;

use serde::Deserialize;

use super::{CODEX_HOME, Environment, Selector, TurnedOff};
use crate::roots::Project;

const WHY: &str = "[[skills.config]] in Codex's config.toml sets enabled = false";

#[derive(Default, Deserialize)]
struct Config {
    #[serde(default)]
    skills: Skills,
}

#[derive(Default, Deserialize)]
struct Skills {
    #[serde(default)]
    config: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    name: Option<String>,
    path: Option<PathBuf>,
    enabled: Option<bool>,
}

/// `$CODEX_HOME/config.toml`, the one layer whose `[[skills.config]]` Codex reads.
pub(crate) fn config_file(env: &Environment, project: &Project) -> Option<PathBuf> {
    CODEX_HOME
        .resolve(env, project)
        .into_iter()
        .next()
        .map(|home| home.path.join("config.toml"))
}

pub(super) fn turned_off(env: &Environment, project: &Project) -> Vec<TurnedOff> {
    let Some(file) = config_file(env, project) else {
        return Vec::new();
    };
    let Some(bytes) = crate::roots::settings::bytes(&file, crate::limits::SETTINGS_FILE_BYTES)
    else {
        return Vec::new();
    };
    let Ok(config) = toml::from_slice::<Config>(&bytes) else {
        return Vec::new();
    };
    settle(config.skills.config)
}

/// Each selector's last entry, in the order of those last entries, which Codex applies in
/// turn: one setting, so a later `path` entry turns on what an earlier `name` entry turned off
/// (`agree::codex_skills_config_name_and_path_entries_apply_in_order`).
fn settle(entries: Vec<Entry>) -> Vec<TurnedOff> {
    let mut last: Vec<(Selector, bool)> = Vec::new();
    for entry in entries {
        let selector = match (entry.name, entry.path) {
            (Some(name), None) => Selector::Name(name),
            (None, Some(path)) => Selector::File(path),
            _ => continue,
        };
        let Some(enabled) = entry.enabled else {
            continue;
        };
        last.retain(|(seen, _)| *seen != selector);
        last.push((selector, enabled));
    }
    if last.iter().all(|(_, enabled)| *enabled) {
        return Vec::new();
    }
    vec![TurnedOff {
        selector: Selector::LastOf(last),
        why: WHY,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Vec<TurnedOff> {
        settle(toml::from_str::<Config>(text).unwrap().skills.config)
    }

    #[test]
    fn a_later_entry_wins_and_an_entry_with_two_selectors_is_skipped() {
        let off = config(
            r#"
            [[skills.config]]
            name = "a"
            enabled = false
            [[skills.config]]
            name = "b"
            enabled = false
            [[skills.config]]
            name = "b"
            enabled = true
            [[skills.config]]
            name = "c"
            path = "/x/SKILL.md"
            enabled = false
            [[skills.config]]
            path = "/y/SKILL.md"
            enabled = false
            "#,
        );
        assert_eq!(
            off.into_iter().map(|t| t.selector).collect::<Vec<_>>(),
            [Selector::LastOf(vec![
                (Selector::Name("a".into()), false),
                (Selector::Name("b".into()), true),
                (Selector::File("/y/SKILL.md".into()), false),
            ])]
        );
    }

    #[test]
    fn the_config_under_codex_home_is_read() {
        let tmp = tempfile::tempdir().unwrap();
        let config_text = "[[skills.config]]\nname = \"gone\"\nenabled = false\n";
        std::fs::write(tmp.path().join("config.toml"), config_text).unwrap();
        let env = Environment::new("/nowhere").with_var("CODEX_HOME", tmp.path());
        let project = Project::locate(tmp.path());
        assert_eq!(
            turned_off(&env, &project)[0].selector,
            Selector::LastOf(vec![(Selector::Name("gone".into()), false)])
        );
        std::fs::write(tmp.path().join("config.toml"), "not [toml").unwrap();
        assert!(turned_off(&env, &project).is_empty());
    }
}
