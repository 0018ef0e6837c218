//! Codex 0.171.0's plugin records (/work/probe/codex/FINDINGS.md, facts 30–35): a cached
//! plugin `$CODEX_HOME/plugins/cache/<marketplace>/<plugin>/<version>` loads only when
//! `$CODEX_HOME/config.toml` holds `[plugins."<plugin>@<marketplace>"] enabled = true` (the
//! marketplace entry is not needed), and then only its active version folder: `local` when
//! there is one, else the highest semantic version, else the last in string order
//! (`active_plugin_version` in codex-rs store.rs).
//!
//! Its skills are `<version>/skills/**/SKILL.md`, six folders deep, into skill folders too,
//! hidden folders skipped, as Codex walks every skills root; `<version>/SKILL.md` is not one.
//! They are named `<plugin>:<frontmatter name, else folder>`.

use std::collections::BTreeSet;
use std::path::Path;

use super::{Descent, Listing, Naming, Plugin, folder_name, read_record, skills_below, subfolders};
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
            out.notes.push(note);
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
                out.plugins.push(Plugin {
                    name: plugin.clone(),
                    skills: skills(&dir),
                    dir,
                    version: Some(version.clone()),
                    loaded: enabled.contains(&key) && active == Some(version.as_str()),
                    naming: Naming::Qualified,
                    entries: Vec::new(),
                });
            }
        }
    }
    out
}

/// The skill folders of one version folder: below `skills/`, and `skills/` itself when it
/// holds a `SKILL.md` (a root's own `SKILL.md` counts in every Codex skills root).
fn skills(version_dir: &Path) -> Vec<std::path::PathBuf> {
    let container = version_dir.join("skills");
    let mut found = Vec::new();
    if container.join(SKILL_FILE).is_file() {
        found.push(container.clone());
    }
    found.extend(skills_below(&container, DESCENT));
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

/// The `<plugin>@<marketplace>` keys `config.toml` enables; none when it is missing.
///
/// # Errors
/// A sentence when the file cannot be read or is not TOML: then Codex itself starts with no
/// plugins, so none is loaded.
fn enabled_plugins(config: &Path) -> Result<BTreeSet<String>, String> {
    let Some(bytes) = read_record(config)? else {
        return Ok(BTreeSet::new());
    };
    let unusable = |why: String| {
        format!(
            "{} {why}, so no Codex plugin is counted as loaded",
            config.display()
        )
    };
    let text = String::from_utf8(bytes).map_err(|_| unusable("is not UTF-8 text".into()))?;
    let table: toml::Table = text.parse().map_err(|error: toml::de::Error| {
        unusable(format!("is not TOML Codex can read: {}", error.message()))
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
    use std::fs;

    fn skill(dir: &Path) {
        fs::create_dir_all(dir).unwrap();
        fs::write(dir.join("SKILL.md"), "---\nname: x\ndescription: d\n---\n").unwrap();
    }

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
