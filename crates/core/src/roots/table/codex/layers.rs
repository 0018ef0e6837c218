//! The `config.toml` layers Codex 0.171.0 starts with, lowest first, and whether it starts at
//! all (codex-rs/config/src/loader/mod.rs `load_config_layers_state`, `project_trust_context`,
//! `load_project_layers`, `load_project_config_file`; every rule below was seen in
//! `codex debug prompt-input` 0.171.0 and is asked again by `agree::generate`, classes
//! `codex-bundled` and `codex-mistyped`):
//!
//! - the system file (beside the admin skills), then `$CODEX_HOME/config.toml`;
//! - then a `.codex/config.toml` in every folder from the project's top (by
//!   `project_root_markers`, [`super::markers`]) down to the start folder, the nearer winning,
//!   `$CODEX_HOME` itself skipped. Such a layer counts only when its folder is trusted: the
//!   first `[projects."<path>"] trust_level` (from the system and user layers) found for the
//!   folder itself, else for the project's top, else for the repository's (the nearest folder
//!   holding `.git`), and it must be `"trusted"`. A key is the path as Codex spells the folder
//!   (its canonical form), compared as text: a parent folder's entry or a trailing `/` does
//!   not match. An untrusted layer is ignored whatever it holds, even text that is not TOML.
//!
//! Codex refuses to start (`Error: <file>:<line>:<column>: …`, exit status 1, no session at
//! all) when a layer it reads is not TOML or gives a setting a value of the wrong type or an
//! unknown variant. skilldeck checks the settings it reads itself (`project_root_markers`,
//! `[skills]`, `[projects]`, `[plugins]`); a wrong type under any other of Codex's keys is not
//! seen here.

use std::path::{Path, PathBuf};

use toml::{Table, Value};

use super::markers::{MARKERS, SYSTEM_CONFIG};
use super::switches::config_file;
use super::{CODEX_HOME, Environment, Trust};
use crate::roots::{Project, Walk};

pub(in crate::roots) const STARTS: Trust = Trust {
    why: "Codex refuses to start: CODEX_HOME names no folder, or a config.toml it reads is not TOML or gives a setting a value of the wrong type (run codex to see which)",
    shown: "while Codex starts",
    check: |env, project| home_is_a_folder(env, project) && layers(env, project).is_ok(),
    variables: &["CODEX_HOME"],
};

/// `find_codex_home` (codex-rs/utils/home-dir): a `CODEX_HOME` that is set and not empty must
/// canonicalize to a folder, else Codex stops with "CODEX_HOME points to …, but that path does
/// not exist" (or "is not a directory") before it reads anything (0.171.0, agree::generate
/// class `env-homes`). Unset or empty, `~/.codex` need not exist.
fn home_is_a_folder(env: &Environment, project: &Project) -> bool {
    env.var("CODEX_HOME").is_none()
        || CODEX_HOME
            .resolve(env, project)
            .first()
            .is_some_and(|home| home.path.is_dir())
}

/// Why Codex does not start.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    pub file: PathBuf,
    pub why: String,
}

/// Every layer Codex reads, lowest first, or why it refuses to start.
pub(super) fn layers(env: &Environment, project: &Project) -> Result<Vec<Table>, Refusal> {
    let mut read = Vec::new();
    let base: Vec<PathBuf> = std::iter::once(SYSTEM_CONFIG.resolve(env))
        .chain(config_file(env, project))
        .collect();
    for file in &base {
        if let Some(table) = layer(file)? {
            read.push(table);
        }
    }
    let trust = trust_levels(&read);
    let codex_home = CODEX_HOME
        .resolve(env, project)
        .into_iter()
        .next()
        .map(|home| crate::fs::canonical(&home.path).unwrap_or(home.path));
    let dirs = project.levels(Walk::UpToMarkers(&MARKERS), env);
    let top = dirs.last().map(|(dir, _)| dir.clone());
    for (dir, _) in dirs.iter().rev() {
        let dot_codex = dir.join(".codex");
        if !dot_codex.is_dir() || codex_home.as_deref() == Some(dot_codex.as_path()) {
            continue;
        }
        let keys = [Some(dir.as_path()), top.as_deref(), project.repository()];
        let level = keys.into_iter().flatten().find_map(|key| {
            trust
                .iter()
                .find(|(path, _)| path.as_str() == key.to_string_lossy())
        });
        if level.is_some_and(|(_, trusted)| *trusted)
            && let Some(table) = layer(&dot_codex.join("config.toml"))?
        {
            read.push(table);
        }
    }
    Ok(read)
}

/// One file's table (`None` when it is missing), or why Codex refuses it. A first byte-order
/// mark is read past, as Codex does (`settings::layout`).
fn layer(file: &Path) -> Result<Option<Table>, Refusal> {
    let Some(bytes) = crate::roots::settings::bytes(file, crate::limits::SETTINGS_FILE_BYTES)
    else {
        return Ok(None);
    };
    let refuse = |why: String| Refusal {
        file: file.to_path_buf(),
        why,
    };
    let text = std::str::from_utf8(&bytes).map_err(|_| refuse("is not UTF-8 text".into()))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let table: Table = text
        .parse()
        .map_err(|error: toml::de::Error| refuse(format!("is not TOML: {}", error.message())))?;
    mistyped(&table).map_or(Ok(Some(table)), |why| Err(refuse(why)))
}

/// `[projects."<path>"] trust_level` of the layers read so far, the later layer's winning;
/// `true` for `"trusted"`.
fn trust_levels(layers: &[Table]) -> Vec<(String, bool)> {
    let mut levels: Vec<(String, bool)> = Vec::new();
    for table in layers {
        let Some(projects) = table.get("projects").and_then(Value::as_table) else {
            continue;
        };
        for (path, entry) in projects {
            let Some(level) = entry.get("trust_level").and_then(Value::as_str) else {
                continue;
            };
            levels.retain(|(seen, _)| seen != path);
            levels.push((path.clone(), level == "trusted"));
        }
    }
    levels
}

/// The first setting skilldeck reads that has a type Codex refuses, as a sentence.
fn mistyped(table: &Table) -> Option<String> {
    let strings = |value: &Value| {
        value
            .as_array()
            .is_some_and(|items| items.iter().all(Value::is_str))
    };
    if table
        .get("project_root_markers")
        .is_some_and(|v| !strings(v))
    {
        return Some("project_root_markers is not a list of strings".into());
    }
    if let Some(skills) = table.get("skills") {
        let Some(skills) = skills.as_table() else {
            return Some("skills is not a table".into());
        };
        if let Some(bundled) = skills.get("bundled") {
            let enabled = bundled.as_table().map(|t| t.get("enabled"));
            match enabled {
                None => return Some("skills.bundled is not a table".into()),
                Some(Some(value)) if !value.is_bool() => {
                    return Some("skills.bundled.enabled is not true or false".into());
                }
                Some(_) => {}
            }
        }
        if let Some(entries) = skills.get("config") {
            let fine = |entry: &Value| {
                entry.as_table().is_some_and(|entry| {
                    entry.get("enabled").is_some_and(Value::is_bool)
                        && entry.get("name").is_none_or(Value::is_str)
                        && entry.get("path").is_none_or(Value::is_str)
                })
            };
            if !entries.as_array().is_some_and(|all| all.iter().all(fine)) {
                return Some(
                    "a [[skills.config]] entry lacks enabled = true or false, or names a name or path that is not text".into(),
                );
            }
        }
    }
    let tables_whose = |key: &str, field: &str, fine: fn(&Value) -> bool| {
        table.get(key).is_some_and(|all| {
            !all.as_table().is_some_and(|all| {
                all.values().all(|entry| {
                    entry
                        .as_table()
                        .is_some_and(|entry| entry.get(field).is_none_or(fine))
                })
            })
        })
    };
    if tables_whose("projects", "trust_level", |v| {
        matches!(v.as_str(), Some("trusted" | "untrusted"))
    }) {
        return Some(
            "a [projects.\"<path>\"] entry is not a table, or its trust_level is not \"trusted\" or \"untrusted\"".into(),
        );
    }
    if tables_whose("plugins", "enabled", Value::is_bool) {
        return Some(
            "a [plugins.\"<plugin>@<marketplace>\"] entry is not a table, or its enabled is not true or false".into(),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(text: &str) -> Option<String> {
        mistyped(&text.parse::<Table>().unwrap())
    }

    #[test]
    fn the_settings_codex_types_refuse_a_wrong_type() {
        assert_eq!(why("project_root_markers = []\n[skills.bundled]\n"), None);
        assert!(why("project_root_markers = \"x\"").is_some());
        assert!(why("project_root_markers = [1]").is_some());
        assert!(why("[skills]\nbundled = false").is_some());
        assert!(why("[skills.bundled]\nenabled = \"no\"").is_some());
        assert!(why("[[skills.config]]\nname = \"x\"").is_some());
        assert!(why("[[skills.config]]\nname = 3\nenabled = false").is_some());
        assert!(why("[projects.\"/p\"]\ntrust_level = \"Trusted\"").is_some());
        assert!(why("[projects]\nx = 1").is_some());
        assert_eq!(why("[projects.\"/p\"]\ntrust_level = \"untrusted\""), None);
        assert!(why("[plugins.\"a@b\"]\nenabled = \"yes\"").is_some());
        assert_eq!(why("[plugins.\"a@b\"]\n"), None);
        assert_eq!(why("unknown_key = 1"), None);
    }

    #[test]
    fn a_project_layer_counts_only_in_a_trusted_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let base = crate::fs::canonical(tmp.path()).unwrap();
        let (home, repo) = (base.join("home"), base.join("repo"));
        let sub = repo.join("sub");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join(".codex")).unwrap();
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir_all(home.join(".codex")).unwrap();
        std::fs::write(repo.join(".codex/config.toml"), "not [toml").unwrap();
        let env = Environment::new(&home).with_var("SKILLDECK_SYSTEM_ROOT", base.join("sys"));
        let user = home.join(".codex/config.toml");
        let count = |start: &Path| layers(&env, &Project::locate(start)).map(|l| l.len());
        // Untrusted, or trusted only through a parent: ignored, even though it is not TOML.
        assert_eq!(count(&sub), Ok(0));
        let trust = |key: &Path, level: &str| {
            let key = key.to_string_lossy();
            std::fs::write(
                &user,
                format!("[projects.\"{key}\"]\ntrust_level = \"{level}\"\n"),
            )
            .unwrap();
        };
        trust(&base, "trusted");
        assert_eq!(count(&sub), Ok(1));
        trust(&repo, "untrusted");
        assert_eq!(count(&sub), Ok(1));
        // Trusted from the subfolder too: the project's top decides for the top's layer.
        trust(&repo, "trusted");
        assert!(count(&sub).is_err());
        std::fs::write(repo.join(".codex/config.toml"), "[skills.bundled]\n").unwrap();
        assert_eq!(count(&sub), Ok(2));
        trust(&sub, "trusted");
        assert_eq!(count(&sub), Ok(1));
    }
}
