//! `[skills.bundled] enabled = false` in Codex's config: Codex then reads none of the system
//! skills it writes into `$CODEX_HOME/skills/.system` (it drops every root of the System scope,
//! codex-rs/core-skills/src/manager.rs `bundled_skills_enabled_from_stack` and
//! `skill_roots_for_config`; seen in `codex debug prompt-input`, 0.171.0, and by the generated
//! machines of `agree::generate`, class `codex-bundled`). The folder itself may stay.
//!
//! Unlike `[[skills.config]]`, it is read from the effective config: every layer Codex reads
//! ([`super::layers`]), the later winning, a trusted project's `.codex/config.toml` included
//! (`config_layer_stack.effective_config()`; seen in `codex debug prompt-input` 0.171.0: a
//! trusted project's `enabled = false` hides them, an untrusted one's does not). A value that
//! is not a boolean stops Codex from starting at all ([`super::layers::STARTS`]), so it turns
//! nothing off here.

use super::layers::layers;
use super::{Environment, Trust};
use crate::roots::Project;

pub(in crate::roots) const BUNDLED: Trust = Trust {
    why: "[skills.bundled] enabled = false in Codex's config.toml, so it reads none of its system skills",
    shown: "while `[skills.bundled]` leaves them on",
    check: bundled_enabled,
    variables: &["CODEX_HOME"],
};

fn bundled_enabled(env: &Environment, project: &Project) -> bool {
    layers(env, project)
        .unwrap_or_default()
        .iter()
        .filter_map(setting)
        .next_back()
        .unwrap_or(true)
}

/// The layer's `skills.bundled.enabled`, when it sets one.
fn setting(config: &toml::Table) -> Option<bool> {
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
        let setting = |text: &str| setting(&text.parse().unwrap());
        assert_eq!(setting("[skills.bundled]\nenabled = false\n"), Some(false));
        assert_eq!(setting("[skills.bundled]\nenabled = true\n"), Some(true));
        assert_eq!(setting("[skills.bundled]\n"), None);
        assert_eq!(setting("[skills.bundled]\nenabled = \"no\"\n"), None);
        assert_eq!(setting("[skills]\nbundled = false\n"), None);
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
