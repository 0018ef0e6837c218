//! The skills Codex's own settings turn off: `[[skills.config]]` entries of
//! `$CODEX_HOME/config.toml` with `enabled = false`, by `name` (every skill listed by it) or by
//! `path` (one `SKILL.md`). Codex reads them from the user layer only, a project's
//! `.codex/config.toml` is ignored, a later entry for the same selector wins, and an entry with
//! two selectors or none is skipped (codex-rs/core-skills `config_rules.rs`; seen in
//! `codex debug prompt-input`).

use std::path::{Path, PathBuf};

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
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return Vec::new();
    };
    turned_off_in(text, &file, env.home()).unwrap_or_default()
}

/// What the `[[skills.config]]` entries of `text`, the config file `file`, turn off, read as
/// Codex reads them (past a first byte-order mark, which Codex reads past: see
/// `settings::layout`); `None` when Codex cannot read the file.
pub(crate) fn turned_off_in(text: &str, file: &Path, home: &Path) -> Option<Vec<TurnedOff>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let config = toml::from_str::<Config>(text).ok()?;
    let folder = file.parent().unwrap_or(Path::new("/"));
    let entries = config.skills.config.into_iter().map(|entry| Entry {
        name: entry.name,
        path: entry.path.map(|path| as_codex_reads(&path, home, folder)),
        enabled: entry.enabled,
    });
    Some(settle(entries))
}

/// Whether the entries of `text`, the config file `file`, leave the skill whose `SKILL.md` is
/// `skill_md`, listed as `name`, turned off for Codex: the same rule the listing applies.
pub(crate) fn turns_off(text: &str, file: &Path, home: &Path, skill_md: &Path, name: &str) -> bool {
    let skill_md = crate::fs::canonical(skill_md).unwrap_or_else(|_| skill_md.to_path_buf());
    let selects = |selector: &Selector| match selector {
        Selector::Name(listed) => listed == name,
        Selector::File(file) => *file == skill_md,
        _ => false,
    };
    turned_off_in(text, file, home)
        .into_iter()
        .flatten()
        .any(|off| match &off.selector {
            Selector::LastOf(entries) => entries
                .iter()
                .rfind(|(selector, _)| selects(selector))
                .is_some_and(|(_, on)| !on),
            other => selects(other),
        })
}

/// A `path` selector as Codex holds it: `~` is the home, a relative path is taken from the
/// config file's folder, and the result is canonicalised, links and `..` resolved, when it
/// exists (codex-rs/core-skills/src/config_rules.rs `skill_config_rule_selector`, the
/// absolute-path type of its config; seen in `codex debug prompt-input`, 0.171.0).
fn as_codex_reads(path: &Path, home: &Path, folder: &Path) -> PathBuf {
    let path = match path.strip_prefix("~") {
        Ok(rest) => home.join(rest),
        Err(_) => folder.join(path),
    };
    crate::fs::canonical(&path).unwrap_or(path)
}

/// Each selector's last entry, in the order of those last entries, which Codex applies in
/// turn: one setting, so a later `path` entry turns on what an earlier `name` entry turned off
/// (`agree::codex_skills_config_name_and_path_entries_apply_in_order`).
/// A name is trimmed and an empty one skipped, as Codex does; a path names a skill only when
/// it is a `SKILL.md` (Codex compares it with each skill's `SKILL.md`, so a folder's path
/// selects nothing).
fn settle(entries: impl IntoIterator<Item = Entry>) -> Vec<TurnedOff> {
    let mut last: Vec<(Selector, bool)> = Vec::new();
    for entry in entries {
        let selector = match (entry.name, entry.path) {
            (Some(name), None) if !name.trim().is_empty() => Selector::Name(name.trim().to_owned()),
            (None, Some(path)) if path.file_name() == Some("SKILL.md".as_ref()) => {
                Selector::File(path)
            }
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
    fn names_are_trimmed_and_paths_read_as_codex_reads_them() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().canonicalize().unwrap();
        let skill = home.join(".agents/skills/s");
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::write(skill.join("SKILL.md"), "x").unwrap();
        std::os::unix::fs::symlink(home.join(".agents/skills"), home.join("via")).unwrap();
        let folder = home.join(".codex");
        std::fs::create_dir_all(&folder).unwrap();
        let md = skill.join("SKILL.md");
        for (written, read) in [
            ("~/.agents/skills/s/SKILL.md", md.clone()),
            ("../.agents/skills/s/SKILL.md", md.clone()),
            ("../via/s/SKILL.md", md.clone()),
            ("/elsewhere/SKILL.md", PathBuf::from("/elsewhere/SKILL.md")),
        ] {
            assert_eq!(as_codex_reads(Path::new(written), &home, &folder), read);
        }
        let off = config(
            "[[skills.config]]\nname = \" a \"\nenabled = false\n\
             [[skills.config]]\nname = \" \"\nenabled = false\n\
             [[skills.config]]\npath = \"/x/s\"\nenabled = false\n",
        );
        assert_eq!(
            off.into_iter().map(|t| t.selector).collect::<Vec<_>>(),
            [Selector::LastOf(vec![(Selector::Name("a".into()), false)])]
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
