//! Codex 0.171.0's plugin records (/work/probe/codex/FINDINGS.md, facts 30–35): a cached
//! plugin `$CODEX_HOME/plugins/cache/<marketplace>/<plugin>/<version>` loads only when
//! `$CODEX_HOME/config.toml` holds `[plugins."<plugin>@<marketplace>"] enabled = true` (the
//! marketplace entry is not needed), and then only its active version folder: `local` when
//! there is one, else the highest semantic version, else the last in string order
//! (`active_plugin_version` in codex-rs store.rs).
//!
//! The version folder must hold a manifest: `.codex-plugin/plugin.json`, else Claude Code's
//! `.claude-plugin/plugin.json`, the first that is a file being the only one asked (one that
//! is not JSON loads nothing, the other is not tried); without one the plugin loads nothing
//! (codex-rs/utils/plugins/src/plugin_namespace.rs `DISCOVERABLE_PLUGIN_MANIFEST_PATHS`; seen
//! in `codex debug prompt-input` 0.171.0, and asked by `agree::generate`, class
//! `codex-plugins`). Its skills are named `<manifest name>:<frontmatter name, else folder>`,
//! the version folder's name standing in for a name that is missing or blank
//! (`plugin_manifest_name`).
//!
//! Its skills roots are the manifest's `skills` (one relative path, or a list of them, each
//! a folder of skills or one skill's folder; a path through `..` or from `/` is dropped), or
//! `skills/` when the manifest gives no usable path (no field, another type, an empty list).
//! Each is walked as Codex walks every skills root: six folders deep, into skill folders too,
//! hidden folders skipped, its own `SKILL.md` counting; `<version>/SKILL.md` is not a skill.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{
    Descent, Listing, Naming, Plugin, RecordError, folder_name, inside, read_json, read_record,
    skills_below, subfolders,
};
use crate::skill::SKILL_FILE;

/// Codex's `MAX_SCAN_DEPTH`, which its plugin skills are walked with too.
const DESCENT: Descent = Descent {
    depth: 6,
    into_skills: true,
};

pub(super) fn listing(cache: &Path) -> Listing {
    let mut out = Listing::default();
    let config = cache
        .parent()
        .and_then(Path::parent)
        .map(|home| home.join("config.toml"));
    let enabled = match config.as_deref().map(enabled_plugins) {
        Some(Ok(enabled)) => enabled,
        Some(Err(note)) => {
            out.notes.push(note.to_string());
            BTreeSet::new()
        }
        None => BTreeSet::new(),
    };
    for marketplace in subfolders(cache) {
        for plugin_dir in subfolders(&marketplace) {
            let plugin = folder_name(&plugin_dir);
            let key = format!("{plugin}@{}", folder_name(&marketplace));
            let versions: Vec<String> = subfolders(&plugin_dir)
                .iter()
                .map(|v| folder_name(v))
                .collect();
            let active = active_version(&versions);
            for version in &versions {
                let dir = plugin_dir.join(version);
                let manifest = manifest(&dir);
                let (name, roots) = match &manifest {
                    Some(manifest) => (
                        manifest.name.clone().unwrap_or_else(|| version.clone()),
                        manifest.roots.clone(),
                    ),
                    None => (plugin.clone(), vec![dir.join("skills")]),
                };
                out.plugins.push(Plugin {
                    name,
                    skills: skills(&roots),
                    dir,
                    version: Some(version.clone()),
                    loaded: manifest.is_some()
                        && enabled.contains(&key)
                        && active == Some(version.as_str()),
                    naming: Naming::Qualified,
                    order: 0,
                    hydration: None,
                    entries: Vec::new(),
                });
            }
        }
    }
    out
}

/// What a version folder's manifest gives Codex: the plugin's name (`None` when missing or
/// blank) and its skills roots.
struct Manifest {
    name: Option<String>,
    roots: Vec<PathBuf>,
}

#[derive(Deserialize)]
struct ManifestFile {
    #[serde(default)]
    name: Option<serde_json::Value>,
    #[serde(default)]
    skills: serde_json::Value,
}

/// The manifest Codex reads in `dir`, `None` when there is none or it is not JSON.
fn manifest(dir: &Path) -> Option<Manifest> {
    let path = [".codex-plugin/plugin.json", ".claude-plugin/plugin.json"]
        .iter()
        .map(|manifest| dir.join(manifest))
        .find(|path| path.is_file())?;
    let file: ManifestFile = read_json(&path).ok()?;
    let name = file
        .name
        .as_ref()
        .and_then(serde_json::Value::as_str)
        .filter(|name| !name.trim().is_empty())
        .map(str::to_owned);
    let listed: Vec<&str> = match &file.skills {
        serde_json::Value::String(one) => vec![one.as_str()],
        serde_json::Value::Array(many) => many.iter().filter_map(|v| v.as_str()).collect(),
        _ => Vec::new(),
    };
    let mut roots: Vec<PathBuf> = listed
        .into_iter()
        .filter_map(|relative| inside(dir, relative))
        .collect();
    if roots.is_empty() {
        roots.push(dir.join("skills"));
    }
    Some(Manifest { name, roots })
}

/// The skill folders of a plugin's skills roots: below each, and each itself when it holds a
/// `SKILL.md` (a root's own `SKILL.md` counts in every Codex skills root).
fn skills(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for root in roots {
        if root.join(SKILL_FILE).is_file() {
            found.push(root.clone());
        }
        found.extend(skills_below(root, DESCENT));
    }
    found.dedup();
    found
}

/// The version folder Codex loads among `versions` (its ownership is judged by the same rule).
pub fn active_version(versions: &[String]) -> Option<&str> {
    if versions.iter().any(|v| v == "local") {
        return Some("local");
    }
    // A semantic version ranks above a folder name that is not one.
    versions
        .iter()
        .max_by(|a, b| {
            let (sa, sb) = (
                semver::Version::parse(a).ok(),
                semver::Version::parse(b).ok(),
            );
            match (sa, sb) {
                (Some(sa), Some(sb)) => sa.cmp(&sb),
                (Some(_), None) => std::cmp::Ordering::Greater,
                (None, Some(_)) => std::cmp::Ordering::Less,
                (None, None) => a.cmp(b),
            }
        })
        .map(String::as_str)
}

/// Why Codex's `config.toml` gave no plugins: then Codex itself starts with no plugins, so
/// none is loaded.
#[derive(Debug, thiserror::Error)]
enum ConfigError {
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("{} is not UTF-8 text, so no Codex plugin is counted as loaded", .0.display())]
    NotUtf8(PathBuf),
    #[error(
        "{} is not TOML Codex can read: {}, so no Codex plugin is counted as loaded",
        .path.display(),
        .source.message()
    )]
    NotToml {
        path: PathBuf,
        source: toml::de::Error,
    },
}

/// The `<plugin>@<marketplace>` keys `config.toml` enables; none when it is missing.
///
/// # Errors
/// [`ConfigError`] when the file cannot be read or is not TOML.
fn enabled_plugins(config: &Path) -> Result<BTreeSet<String>, ConfigError> {
    let Some(bytes) = read_record(config)? else {
        return Ok(BTreeSet::new());
    };
    let text = String::from_utf8(bytes).map_err(|_| ConfigError::NotUtf8(config.to_path_buf()))?;
    let table: toml::Table = text.parse().map_err(|source| ConfigError::NotToml {
        path: config.to_path_buf(),
        source,
    })?;
    let Some(plugins) = table.get("plugins").and_then(toml::Value::as_table) else {
        return Ok(BTreeSet::new());
    };
    Ok(plugins
        .iter()
        .filter(|(_, entry)| entry.get("enabled").and_then(toml::Value::as_bool) == Some(true))
        .map(|(key, _)| key.clone())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugin::tests::skill;
    use std::fs;

    #[test]
    fn local_wins_then_the_highest_semver_then_string_order() {
        let owned = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            active_version(&owned(&["1.2.3", "9.0.0", "10.0.0"])),
            Some("10.0.0")
        );
        assert_eq!(active_version(&owned(&["10.0.0", "local"])), Some("local"));
        assert_eq!(active_version(&owned(&["beta", "alpha"])), Some("beta"));
        assert_eq!(active_version(&[]), None);
    }

    #[test]
    fn only_the_enabled_plugins_active_version_loads_with_its_deep_skills_not_its_root() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = tmp.path().join("plugins/cache");
        skill(&cache.join("m/alpha/1.2.3/skills/greet"));
        skill(&cache.join("m/alpha/1.2.3/skills/grp/a/b/c/d/deep"));
        skill(&cache.join("m/alpha/1.2.3"));
        skill(&cache.join("m/alpha/1.0.0/skills/greet"));
        skill(&cache.join("m/beta/1.0.0/skills/b"));
        for version in ["m/alpha/1.2.3", "m/alpha/1.0.0", "m/beta/1.0.0"] {
            manifest(&cache.join(version), ".codex-plugin", r#"{"name":"alpha"}"#);
        }
        fs::write(
            tmp.path().join("config.toml"),
            "[plugins.\"alpha@m\"]\nenabled = true\n[plugins.\"beta@m\"]\nenabled = false\n",
        )
        .unwrap();
        let out = listing(&cache);
        let loaded: Vec<&Plugin> = out.plugins.iter().filter(|p| p.loaded).collect();
        assert_eq!(loaded.len(), 1, "{out:?}");
        assert_eq!(loaded[0].version.as_deref(), Some("1.2.3"));
        let v = cache.join("m/alpha/1.2.3");
        assert_eq!(
            loaded[0].skills,
            [v.join("skills/greet"), v.join("skills/grp/a/b/c/d/deep")]
        );
        assert_eq!(out.plugins.len(), 3);
    }

    fn manifest(dir: &Path, folder: &str, text: &str) {
        fs::create_dir_all(dir.join(folder)).unwrap();
        fs::write(dir.join(folder).join("plugin.json"), text).unwrap();
    }

    /// The loaded plugin's name and skill folders (relative to its version folder).
    fn loaded(cache: &Path) -> Vec<(String, Vec<String>)> {
        listing(cache)
            .plugins
            .into_iter()
            .filter(|p| p.loaded)
            .map(|p| {
                let rel = |s: &std::path::PathBuf| {
                    s.strip_prefix(&p.dir)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned()
                };
                (p.name.clone(), p.skills.iter().map(rel).collect())
            })
            .collect()
    }

    #[test]
    fn the_manifest_names_the_plugin_and_its_skills_roots() {
        // (manifest folder, manifest, skill folders, (name loaded, skill folders loaded))
        type Case = (
            &'static str,
            &'static str,
            &'static [&'static str],
            (&'static str, &'static [&'static str]),
        );
        let cases: &[Case] = &[
            ("", "", &["skills/a"], ("", &[])),
            (
                ".codex-plugin",
                r#"{"name":"n"}"#,
                &["skills/a"],
                ("n", &["skills/a"]),
            ),
            (
                ".codex-plugin",
                r#"{"name":" "}"#,
                &["skills/a"],
                ("1.0.0", &["skills/a"]),
            ),
            (".codex-plugin", "not json", &["skills/a"], ("", &[])),
            (
                ".claude-plugin",
                r#"{"name":"n","skills":["./c","./one"]}"#,
                &["c/a", "one", "skills/no"],
                ("n", &["c/a", "one"]),
            ),
            (
                ".codex-plugin",
                r#"{"name":"n","skills":"./c"}"#,
                &["c/x/y/a", "skills/no"],
                ("n", &["c/x/y/a"]),
            ),
            (
                ".codex-plugin",
                r#"{"name":"n","skills":[]}"#,
                &["skills/a"],
                ("n", &["skills/a"]),
            ),
            (
                ".codex-plugin",
                r#"{"name":"n","skills":3}"#,
                &["skills/a"],
                ("n", &["skills/a"]),
            ),
            (
                ".codex-plugin",
                r#"{"name":"n","skills":"../out"}"#,
                &["skills/a"],
                ("n", &["skills/a"]),
            ),
        ];
        for (folder, text, skills, (name, found)) in cases {
            let tmp = tempfile::tempdir().unwrap();
            let cache = tmp.path().join("plugins/cache");
            let dir = cache.join("m/p/1.0.0");
            for s in *skills {
                skill(&dir.join(s));
            }
            if !folder.is_empty() {
                manifest(&dir, folder, text);
            }
            fs::write(
                tmp.path().join("config.toml"),
                "[plugins.\"p@m\"]\nenabled = true\n",
            )
            .unwrap();
            let got = loaded(&cache);
            if name.is_empty() {
                assert!(got.is_empty(), "{text}: {got:?}");
            } else {
                let found: Vec<String> = found.iter().map(|s| (*s).to_owned()).collect();
                assert_eq!(got, [((*name).to_owned(), found)], "{text}");
            }
        }
    }

    #[test]
    fn a_config_that_does_not_parse_loads_no_plugin_and_says_why() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = tmp.path().join("plugins/cache");
        skill(&cache.join("m/alpha/local/skills/greet"));
        fs::write(
            tmp.path().join("config.toml"),
            "[plugins.\"alpha@m\"\nenabled = tru",
        )
        .unwrap();
        let out = listing(&cache);
        assert!(out.plugins.iter().all(|p| !p.loaded));
        assert!(
            out.notes[0].contains("is not TOML Codex can read"),
            "{:?}",
            out.notes
        );
    }
}
