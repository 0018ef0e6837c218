//! `[skills.bundled] enabled = false` in Codex's config: Codex then reads none of the system
//! skills it writes into `$CODEX_HOME/skills/.system` (it drops every root of the System scope,
//! codex-rs/core-skills/src/manager.rs `bundled_skills_enabled_from_stack` and
//! `skill_roots_for_config`; seen in `codex debug prompt-input`, 0.171.0, and by the generated
//! machines of `agree::generate`, class `codex-bundled`). The folder itself may stay.
//!
//! The layers are read as Codex merges them, the later winning: the system `config.toml`, then
//! `$CODEX_HOME/config.toml`. A project's `.codex/config.toml` counts only in a project the
//! user marked trusted (`[projects."<path>"] trust_level = "trusted"`), which skilldeck does
//! not model yet, so it is not read; an untrusted project's is ignored by Codex too (0.171.0).
//! A value that is not a boolean (or `bundled` that is not a table) stops Codex from starting
//! at all, so it turns nothing off here.

use std::path::PathBuf;

use super::markers::SYSTEM_CONFIG;
use super::switches::config_file;
use super::{Environment, Trust};
use crate::roots::Project;

pub(in crate::roots) const BUNDLED: Trust = Trust {
    why: "[skills.bundled] enabled = false in Codex's config.toml, so it reads none of its system skills",
    check: bundled_enabled,
    variables: &["CODEX_HOME"],
};

fn bundled_enabled(env: &Environment, project: &Project) -> bool {
    let files: Vec<PathBuf> = std::iter::once(SYSTEM_CONFIG.resolve(env))
        .chain(config_file(env, project))
        .collect();
    files
        .iter()
        .filter_map(|file| setting(&file_bytes(file)?))
        .next_back()
        .unwrap_or(true)
}

fn file_bytes(file: &std::path::Path) -> Option<Vec<u8>> {
    crate::roots::settings::bytes(file, crate::limits::SETTINGS_FILE_BYTES)
}

/// The file's `skills.bundled.enabled`, when it sets one.
fn setting(bytes: &[u8]) -> Option<bool> {
    let config: toml::Table = toml::from_slice(bytes).ok()?;
    config
        .get("skills")?
        .get("bundled")?
        .get("enabled")?
        .as_bool()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_boolean_enabled_under_skills_bundled_counts() {
        assert_eq!(setting(b"[skills.bundled]\nenabled = false\n"), Some(false));
        assert_eq!(setting(b"[skills.bundled]\nenabled = true\n"), Some(true));
        assert_eq!(setting(b"[skills.bundled]\n"), None);
        assert_eq!(setting(b"[skills.bundled]\nenabled = \"no\"\n"), None);
        assert_eq!(setting(b"[skills]\nbundled = false\n"), None);
        assert_eq!(setting(b"not [toml"), None);
    }

    #[test]
    fn the_user_config_turns_the_system_skills_off() {
        let tmp = tempfile::tempdir().unwrap();
        let env = Environment::new("/nowhere").with_var("CODEX_HOME", tmp.path());
        let project = Project::locate(tmp.path());
        assert!(bundled_enabled(&env, &project));
        std::fs::write(
            tmp.path().join("config.toml"),
            "[skills.bundled]\nenabled = false\n",
        )
        .unwrap();
        assert!(!bundled_enabled(&env, &project));
    }
}
