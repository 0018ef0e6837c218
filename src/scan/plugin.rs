//! Plugin folders: the manifest that names a plugin and may list its skills, and the
//! marketplace file that lists a marketplace's plugins (skill-format-and-roots.md §2.1, §2.2,
//! §2.5).

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::skill::SKILL_FILE;
use crate::untrusted::{Links, open_regular};

/// The manifests a plugin folder may hold, in the order they are asked.
pub const MANIFESTS: [&str; 4] = [
    ".claude-plugin/plugin.json",
    ".codex-plugin/plugin.json",
    "plugin.json",
    ".github/plugin/plugin.json",
];

/// The file that makes a folder a marketplace.
pub const MARKETPLACE_FILE: &str = ".claude-plugin/marketplace.json";

/// The largest manifest read; real ones are a few kilobytes.
const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;

/// One or several relative paths, as manifests write their `skills` field.
#[derive(Debug, Default, Deserialize)]
#[serde(untagged)]
enum Paths {
    #[default]
    None,
    One(String),
    Many(Vec<String>),
}

impl Paths {
    fn into_vec(self) -> Vec<String> {
        match self {
            Paths::None => Vec::new(),
            Paths::One(path) => vec![path],
            Paths::Many(paths) => paths,
        }
    }
}

#[derive(Debug, Default, Deserialize)]
struct ManifestFile {
    name: Option<String>,
    #[serde(default)]
    skills: Paths,
}

#[derive(Debug, Deserialize)]
struct MarketplaceFile {
    #[serde(default)]
    plugins: Vec<MarketplaceEntryFile>,
}

#[derive(Debug, Deserialize)]
struct MarketplaceEntryFile {
    name: String,
    /// A relative path inside the marketplace, or an object naming a remote source.
    #[serde(default)]
    source: serde_json::Value,
    #[serde(default)]
    skills: Paths,
}

/// What a plugin's manifest says, when it has one that reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    pub name: Option<String>,
    /// Extra skill paths, relative to the plugin folder.
    pub skills: Vec<String>,
}

/// Why a manifest or marketplace file could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} could not be read: {reason}", .path.display())]
pub struct ManifestProblem {
    pub path: PathBuf,
    pub reason: String,
}

/// Whether `dir` holds a Claude Code plugin manifest, which makes a folder below a skills root
/// a skills-directory plugin.
pub fn has_claude_manifest(dir: &Path) -> bool {
    dir.join(MANIFESTS[0]).is_file()
}

/// The first manifest `plugin_dir` holds.
pub fn read_manifest(plugin_dir: &Path) -> Result<Option<Manifest>, ManifestProblem> {
    let Some(path) = MANIFESTS
        .iter()
        .map(|m| plugin_dir.join(m))
        .find(|p| p.is_file())
    else {
        return Ok(None);
    };
    let file: ManifestFile = read_json(&path)?;
    Ok(Some(Manifest {
        name: file.name.filter(|name| !name.is_empty()),
        skills: file.skills.into_vec(),
    }))
}

/// A plugin a marketplace lists with a folder inside the marketplace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarketplaceEntry {
    pub name: String,
    pub dir: PathBuf,
    /// The skills the entry lists; empty means the plugin's own.
    pub skills: Vec<String>,
}

/// The plugins of the marketplace cloned at `marketplace_dir` whose source is a folder in it.
pub fn read_marketplace(
    marketplace_dir: &Path,
) -> Result<Option<Vec<MarketplaceEntry>>, ManifestProblem> {
    let path = marketplace_dir.join(MARKETPLACE_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    let file: MarketplaceFile = read_json(&path)?;
    let entries = local_plugins(file)
        .into_iter()
        .filter_map(|listed| {
            let dir = inside(marketplace_dir, &listed.source)?;
            Some(MarketplaceEntry {
                name: listed.name,
                dir,
                skills: listed.skills,
            })
        })
        .collect();
    Ok(Some(entries))
}

/// A plugin a marketplace file lists with a local source, as the file writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedPlugin {
    pub name: String,
    /// The plugin's folder, relative to the marketplace's.
    pub source: String,
    /// The skills the entry lists; empty means the plugin's own.
    pub skills: Vec<String>,
}

/// The local plugins of a marketplace file held in memory (a bundle being imported).
///
/// # Errors
/// The JSON error, as a sentence.
pub fn parse_marketplace(bytes: &[u8]) -> Result<Vec<ListedPlugin>, String> {
    let file: MarketplaceFile =
        serde_json::from_slice(bytes).map_err(|e| format!("invalid JSON: {e}"))?;
    Ok(local_plugins(file))
}

fn local_plugins(file: MarketplaceFile) -> Vec<ListedPlugin> {
    file.plugins
        .into_iter()
        .filter_map(|entry| {
            Some(ListedPlugin {
                source: entry.source.as_str()?.to_owned(),
                name: entry.name,
                skills: entry.skills.into_vec(),
            })
        })
        .collect()
}

/// The skill folders of a plugin: those `listed` (relative paths, each a skill or a folder of
/// skills) when there are any, else its `skills/` folder; and the plugin folder itself when it
/// holds a `SKILL.md`.
pub fn skill_dirs(plugin_dir: &Path, listed: &[String]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    if plugin_dir.join(SKILL_FILE).exists() {
        found.push(plugin_dir.to_path_buf());
    }
    let containers: Vec<PathBuf> = if listed.is_empty() {
        vec![plugin_dir.join("skills")]
    } else {
        listed
            .iter()
            .filter_map(|relative| inside(plugin_dir, relative))
            .collect()
    };
    for container in containers {
        if container.join(SKILL_FILE).exists() {
            found.push(container);
        } else {
            found.extend(children_with_skill_file(&container));
        }
    }
    found.sort();
    found.dedup();
    found
}

fn children_with_skill_file(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
        .map(|entry| entry.path())
        .filter(|path| path.join(SKILL_FILE).exists())
        .collect();
    found.sort();
    found
}

/// `base/relative` when `relative` stays inside `base` (no absolute path, no `..`).
fn inside(base: &Path, relative: &str) -> Option<PathBuf> {
    let mut path = base.to_path_buf();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            part if part.contains('\\') => return None,
            part => path.push(part),
        }
    }
    (!relative.starts_with('/')).then_some(path)
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, ManifestProblem> {
    let problem = |reason: String| ManifestProblem {
        path: path.to_path_buf(),
        reason,
    };
    let file = open_regular(path, Links::Follow).map_err(|e| problem(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_MANIFEST_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| problem(e.to_string()))?;
    if bytes.len() as u64 > MAX_MANIFEST_BYTES {
        return Err(problem(format!(
            "it is larger than {MAX_MANIFEST_BYTES} bytes"
        )));
    }
    serde_json::from_slice(&bytes).map_err(|e| problem(format!("invalid JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn skill(dir: &Path) {
        fs::create_dir_all(dir).unwrap();
        fs::write(dir.join(SKILL_FILE), "---\nname: x\n---\n").unwrap();
    }

    #[test]
    fn a_manifest_names_the_plugin_and_adds_skill_paths() {
        let tmp = tempfile::tempdir().unwrap();
        let plugin = tmp.path();
        fs::create_dir_all(plugin.join(".claude-plugin")).unwrap();
        fs::write(
            plugin.join(".claude-plugin/plugin.json"),
            r#"{"name": "tools", "skills": "./extra"}"#,
        )
        .unwrap();
        let manifest = read_manifest(plugin).unwrap().unwrap();
        assert_eq!(manifest.name.as_deref(), Some("tools"));
        assert_eq!(manifest.skills, ["./extra"]);
        skill(&plugin.join("extra/one"));
        skill(&plugin.join("skills/two"));
        assert_eq!(
            skill_dirs(plugin, &manifest.skills),
            [plugin.join("extra/one")]
        );
        assert_eq!(skill_dirs(plugin, &[]), [plugin.join("skills/two")]);
    }

    #[test]
    fn a_corrupt_manifest_is_a_problem_not_a_crash() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("plugin.json"), "{not json").unwrap();
        let problem = read_manifest(tmp.path()).unwrap_err();
        assert!(problem.to_string().contains("invalid JSON"), "{problem}");
    }

    #[test]
    fn a_marketplace_lists_its_local_plugins_only() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join(".claude-plugin")).unwrap();
        fs::write(
            tmp.path().join(MARKETPLACE_FILE),
            r#"{"name": "m", "plugins": [
                {"name": "docs", "source": "./", "skills": ["./skills/pdf"]},
                {"name": "remote", "source": {"source": "github", "repo": "a/b"}},
                {"name": "escape", "source": "../outside"}
            ]}"#,
        )
        .unwrap();
        let entries = read_marketplace(tmp.path()).unwrap().unwrap();
        assert_eq!(
            entries,
            [MarketplaceEntry {
                name: "docs".into(),
                dir: tmp.path().to_path_buf(),
                skills: vec!["./skills/pdf".into()],
            }]
        );
    }

    #[test]
    fn a_plugin_with_a_root_skill_file_is_one_skill() {
        let tmp = tempfile::tempdir().unwrap();
        skill(tmp.path());
        assert_eq!(skill_dirs(tmp.path(), &[]), [tmp.path().to_path_buf()]);
    }
}
