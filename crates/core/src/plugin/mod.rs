//! Plugin folders: the manifest that names a plugin and may list its skills, the
//! marketplace file that lists a marketplace's plugins (skill-format-and-roots.md §2.1, §2.2,
//! §2.5), and each agent's own records of which plugins it loads.
//!
//! Discovery (`scan`) reads these layouts to find a plugin's skills, `ownership` reads them
//! to tell which marketplace a plugin came from, and `bundle` parses a marketplace file held
//! in memory; the reader sits below all three so that none of them depends on another for it.
//!
//! What an agent's plugin records mean lives in one file per agent here (`claude_code`,
//! `codex`, `copilot`, `gemini_cli`), not in the roots table: the table is data below this
//! module and names only whose records a plugin root follows ([`Records`]), and discovery asks
//! [`in_root`] without knowing any agent's files. Each file answers the same question, which
//! plugin folders below a root its agent loads and which skills each gives, so a change to
//! one agent's records touches one file.

mod claude_code;
mod codex;
mod copilot;
mod gemini_cli;

pub use claude_code::{Found as ClaudeCodeFound, skills_of as claude_code_skills};
pub use codex::active_version as codex_active_version;
pub use copilot::strip_comments as strip_json_comments;

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::fs::{Links, read_bounded};
use crate::limits::{PLUGIN_MANIFEST_BYTES, RECORD_FILE_BYTES};
use crate::roots::{Environment, Project, Records};
use crate::skill::SKILL_FILE;

/// The manifests a plugin folder may hold, in the order they are asked.
pub const MANIFESTS: [&str; 4] = [
    ".claude-plugin/plugin.json",
    ".codex-plugin/plugin.json",
    "plugin.json",
    ".github/plugin/plugin.json",
];

/// The file that makes a folder a marketplace.
pub const MARKETPLACE_FILE: &str = ".claude-plugin/marketplace.json";

/// Every file an agent reads as a marketplace's listing: Claude Code's, then the one Copilot
/// also reads, then Codex's (each agent's file here says which it asks).
pub const MARKETPLACE_FILES: [&str; 3] = [
    MARKETPLACE_FILE,
    ".github/plugin/marketplace.json",
    ".agents/plugins/marketplace.json",
];

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
    #[serde(default)]
    version: serde_json::Value,
}

#[derive(Debug, Deserialize)]
struct MarketplaceFile {
    #[serde(default)]
    plugins: Vec<MarketplaceEntryFile>,
    #[serde(default)]
    metadata: MarketplaceMetadata,
}

#[derive(Debug, Default, Deserialize)]
struct MarketplaceMetadata {
    /// The folder the plugins' relative sources start from (Claude Code's `pluginRoot`).
    #[serde(default, rename = "pluginRoot")]
    plugin_root: Option<String>,
}

#[derive(Debug, Deserialize)]
struct MarketplaceEntryFile {
    name: String,
    /// A relative path inside the marketplace, or an object naming a remote source.
    #[serde(default)]
    source: serde_json::Value,
    #[serde(default)]
    skills: Paths,
    #[serde(default)]
    version: serde_json::Value,
}

/// What a plugin's manifest says, when it has one that reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    pub name: Option<String>,
    /// Extra skill paths, relative to the plugin folder.
    pub skills: Vec<String>,
    /// The plugin's version, when the manifest gives one as text.
    pub version: Option<String>,
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

/// [`has_claude_manifest`] for the folder `name` in the opened folder `parent`, asked through
/// its handle.
pub fn has_claude_manifest_in(parent: &crate::fs::Folder, name: &std::ffi::OsStr) -> bool {
    parent
        .kind_below(
            &Path::new(name).join(MANIFESTS[0]),
            crate::fs::Links::Follow,
        )
        .is_ok_and(|kind| kind == crate::fs::EntryKind::File)
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
    Ok(Some(file.into()))
}

/// Why a plugin manifest or marketplace file held in memory could not be read.
#[derive(Debug, thiserror::Error)]
#[error("invalid JSON: {0}")]
pub struct ManifestError(#[from] serde_json::Error);

/// What a plugin manifest held in memory says (a bundle being imported).
///
/// # Errors
/// [`ManifestError`] when it is not the JSON of a manifest.
pub fn parse_manifest(bytes: &[u8]) -> Result<Manifest, ManifestError> {
    let file: ManifestFile = serde_json::from_slice(bytes)?;
    Ok(file.into())
}

impl From<ManifestFile> for Manifest {
    fn from(file: ManifestFile) -> Self {
        Manifest {
            name: file.name.filter(|name| !name.is_empty()),
            skills: file.skills.into_vec(),
            version: file.version.as_str().map(str::to_owned),
        }
    }
}

/// A plugin as a marketplace lists it, wherever its source is.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    pub name: String,
    /// The plugin's folder inside the marketplace, when its source is a relative path there
    /// and the marketplace is a folder on disk.
    pub dir: Option<PathBuf>,
    /// The source as written: a relative path, or an object naming a remote source.
    pub source: serde_json::Value,
    /// The skills the entry lists; empty means the plugin's own.
    pub skills: Vec<String>,
    /// The version the marketplace gives the plugin, when it gives one as text.
    pub version: Option<String>,
}

impl Listed {
    /// The source when it is a path relative to the marketplace.
    pub fn local_source(&self) -> Option<&str> {
        self.source.as_str()
    }

    /// The plugin's folder relative to the marketplace in any agent's form: Claude Code's and
    /// Copilot's relative path, or Codex's `{"source": "local", "path": "./plugins/p"}`.
    pub fn local_path(&self) -> Option<&str> {
        self.local_source().or_else(|| {
            (self.source.get("source")?.as_str()? == "local")
                .then(|| self.source.get("path")?.as_str())
                .flatten()
        })
    }
}

/// Every plugin the marketplace cloned at `marketplace_dir` lists.
pub fn read_listing(marketplace_dir: &Path) -> Result<Option<Vec<Listed>>, ManifestProblem> {
    read_listing_at(marketplace_dir, MARKETPLACE_FILE)
}

/// Every plugin the marketplace at `marketplace_dir` lists in its file at `file` (Copilot also
/// reads `.github/plugin/marketplace.json`).
pub fn read_listing_at(
    marketplace_dir: &Path,
    file: &str,
) -> Result<Option<Vec<Listed>>, ManifestProblem> {
    let path = marketplace_dir.join(file);
    if !path.is_file() {
        return Ok(None);
    }
    let file: MarketplaceFile = read_json(&path)?;
    Ok(Some(listing(file, Some(marketplace_dir))))
}

/// Every plugin a marketplace file held in memory lists (a bundle being imported).
///
/// # Errors
/// [`ManifestError`] when it is not the JSON of a marketplace file.
pub fn parse_marketplace(bytes: &[u8]) -> Result<Vec<Listed>, ManifestError> {
    let file: MarketplaceFile = serde_json::from_slice(bytes)?;
    Ok(listing(file, None))
}

/// The folder a marketplace file held in memory says its plugins' sources start from, when it
/// names one (`metadata.pluginRoot`).
pub fn marketplace_plugin_root(bytes: &[u8]) -> Option<String> {
    serde_json::from_slice::<MarketplaceFile>(bytes)
        .ok()?
        .metadata
        .plugin_root
}

fn listing(file: MarketplaceFile, marketplace_dir: Option<&Path>) -> Vec<Listed> {
    file.plugins
        .into_iter()
        .map(|entry| Listed {
            dir: marketplace_dir
                .zip(entry.source.as_str())
                .and_then(|(base, relative)| inside(base, relative)),
            name: entry.name,
            skills: entry.skills.into_vec(),
            version: entry.version.as_str().map(str::to_owned),
            source: entry.source,
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
    visible_children(dir, |path| path.join(SKILL_FILE).exists())
}

/// `base/relative` when `relative` stays inside `base` (no `..`; a leading `/` is read as
/// `base`'s own top, as the plugin layouts that use this read it).
pub(crate) fn inside(base: &Path, relative: &str) -> Option<PathBuf> {
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

/// A JSON file of a plugin or marketplace, read within [`PLUGIN_MANIFEST_BYTES`].
///
/// # Errors
/// When it cannot be read, is too large, or is not the JSON `T` reads.
pub fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, ManifestProblem> {
    let problem = |reason: String| ManifestProblem {
        path: path.to_path_buf(),
        reason,
    };
    let bytes = read_bounded(path, Links::Follow, PLUGIN_MANIFEST_BYTES)
        .map_err(|e| problem(e.to_string()))?;
    serde_json::from_slice(&bytes).map_err(|e| problem(format!("invalid JSON: {e}")))
}

/// How an agent names a plugin's skill.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Naming {
    /// `<plugin>:<frontmatter name, else folder>` (Codex; marketplace clones, which load for
    /// no agent).
    #[default]
    Qualified,
    /// `<plugin>:<folder>`, and a skill that is an entry of the plugin itself (its own folder,
    /// or one skill's folder its manifest lists) `<plugin>:<frontmatter name, else folder>`
    /// (Claude Code 2.1.332: `"skills": ["./one"]` lists `p:<one's name>`, seed 1 of
    /// `agree::generate` class `claude-plugins`; in a folder of skills the folder is the
    /// identity).
    QualifiedByFolder,
    /// The skill's own name, as for a skill in a skills root (Copilot, Gemini CLI).
    Bare,
}

impl Naming {
    /// The name of a skill of `plugin` whose frontmatter declares `declared`, in `folder`,
    /// which is one of the plugin's own entries when `own_entry` ([`Plugin::entries`]).
    pub fn name(
        self,
        plugin: &str,
        declared: Option<&str>,
        folder: &str,
        own_entry: bool,
    ) -> String {
        let own = declared.unwrap_or(folder);
        match self {
            Naming::Qualified => format!("{plugin}:{own}"),
            Naming::QualifiedByFolder if own_entry => format!("{plugin}:{own}"),
            Naming::QualifiedByFolder => format!("{plugin}:{folder}"),
            Naming::Bare => own.to_owned(),
        }
    }
}

/// One plugin folder below a plugin root, as its agent's records tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plugin {
    pub name: String,
    /// The folder its skills are read from: below the root, or elsewhere when the agent reads
    /// the plugin in place (a local marketplace, a linked extension).
    pub dir: PathBuf,
    /// The version folder of a cached plugin, or the version its manifest gives.
    pub version: Option<String>,
    /// Whether the agent loads it; a folder its records do not enable is still on disk.
    pub loaded: bool,
    /// Its skill folders, by its agent's rules.
    pub skills: Vec<PathBuf>,
    pub naming: Naming,
    /// The skill folders that are entries of the plugin itself rather than members of a
    /// folder of skills: its own folder, or a path its manifest lists that holds a SKILL.md.
    /// Claude Code names these by their frontmatter ([`Naming::QualifiedByFolder`]).
    pub entries: Vec<PathBuf>,
    /// Its place among the plugins its agent lists skills of (Claude Code's `enabledPlugins`
    /// order); 0 for all where no agent is known to order them.
    pub order: usize,
    /// The `${key}` substitution its agent makes in its skills' names and descriptions
    /// (Gemini CLI's extensions); `None` where the agent makes none.
    pub hydration: Option<std::sync::Arc<crate::roots::Hydration>>,
}

/// Every plugin below one plugin root, and what was worth telling on the way.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    pub plugins: Vec<Plugin>,
    /// Sentences: records that could not be read, folders the agent skips.
    pub notes: Vec<String>,
}

/// What a plugin reader may need beyond the root: the home and variables (settings files),
/// and the folder the agent starts in (project settings, enablement by folder).
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    pub env: &'a Environment,
    pub project: &'a Project,
}

/// The plugins below `root`, by the records `records` names.
pub fn in_root(records: Records, root: &Path, context: &Context<'_>) -> Listing {
    match records {
        Records::ClaudeCode { settings } => claude_code::listing(root, settings, context),
        Records::Codex => codex::listing(root),
        Records::Copilot => copilot::listing(root, context),
        Records::GeminiCli => gemini_cli::listing(root, context),
    }
}

/// The most folders one plugin's skill walk may look into, as Codex bounds its walk of a
/// skills root.
const MAX_DIRS_PER_PLUGIN: usize = 2000;

/// How far below a skills folder a plugin's skills are looked for.
#[derive(Clone, Copy, Debug)]
struct Descent {
    /// Folders below the container: 1 is `<container>/<name>/SKILL.md`.
    depth: u8,
    /// Whether a skill's own folder is looked into for more skills.
    into_skills: bool,
}

/// The skill folders below `container` (not the container itself), breadth first, skipping
/// hidden folders, within `descent`, sorted.
fn skills_below(container: &Path, descent: Descent) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut level = vec![container.to_path_buf()];
    let mut budget = MAX_DIRS_PER_PLUGIN;
    for _ in 0..descent.depth {
        let mut next = Vec::new();
        for dir in &level {
            for child in subfolders(dir) {
                if budget == 0 {
                    break;
                }
                budget -= 1;
                let is_skill = child.join(SKILL_FILE).exists();
                if is_skill {
                    found.push(child.clone());
                }
                if !is_skill || descent.into_skills {
                    next.push(child);
                }
            }
        }
        level = next;
    }
    found.sort();
    found
}

/// The folders directly in `dir` whose names do not start with a dot, links followed, sorted.
fn subfolders(dir: &Path) -> Vec<PathBuf> {
    visible_children(dir, Path::is_dir)
}

/// The entries directly in `dir` whose names do not start with a dot and that `keep` takes,
/// sorted; none when `dir` cannot be listed.
fn visible_children(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
        .map(|entry| entry.path())
        .filter(|path| keep(path))
        .collect();
    found.sort();
    found
}

fn folder_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Why a record file an agent writes could not be used; the sentence names the file, and
/// becomes a note of the listing.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("{} could not be read: {}", .path.display(), crate::fs::said(.source))]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not the JSON expected there: {source}", .path.display())]
    NotJson {
        path: PathBuf,
        source: serde_json::Error,
    },
}

/// A record file an agent writes (settings, configuration, install lists), read within
/// [`RECORD_FILE_BYTES`]; `None` when there is none.
///
/// # Errors
/// [`RecordError::Unreadable`] when it is there but cannot be read.
fn read_record(path: &Path) -> Result<Option<Vec<u8>>, RecordError> {
    match read_bounded(path, Links::Follow, RECORD_FILE_BYTES) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(RecordError::Unreadable {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// A JSON record file; `None` when there is none.
///
/// # Errors
/// [`RecordError`] when it cannot be read, or is not the JSON expected.
fn read_json_record<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Option<T>, RecordError> {
    let Some(bytes) = read_record(path)? else {
        return Ok(None);
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|source| RecordError::NotJson {
            path: path.to_path_buf(),
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A skill at `dir`, for the tests of every agent's plugins.
    pub(super) fn skill(dir: &Path) {
        fs::create_dir_all(dir).unwrap();
        fs::write(dir.join(SKILL_FILE), "---\nname: x\ndescription: d\n---\n").unwrap();
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
    fn a_marketplace_gives_a_folder_only_to_its_local_plugins() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join(".claude-plugin")).unwrap();
        let text = r#"{"name": "m", "plugins": [
                {"name": "docs", "source": "./", "skills": ["./skills/pdf"], "version": "1.0.0"},
                {"name": "remote", "source": {"source": "github", "repo": "a/b"}},
                {"name": "escape", "source": "../outside"}
            ]}"#;
        fs::write(tmp.path().join(MARKETPLACE_FILE), text).unwrap();
        let listed = read_listing(tmp.path()).unwrap().unwrap();
        let dirs: Vec<(&str, Option<&Path>)> = listed
            .iter()
            .map(|l| (l.name.as_str(), l.dir.as_deref()))
            .collect();
        assert_eq!(
            dirs,
            [
                ("docs", Some(tmp.path())),
                ("remote", None),
                ("escape", None)
            ]
        );
        assert_eq!(listed[0].skills, ["./skills/pdf"]);
        assert_eq!(listed[0].version.as_deref(), Some("1.0.0"));
        // From memory, no folder is known, but the relative source is.
        let parsed = parse_marketplace(text.as_bytes()).unwrap();
        assert_eq!(parsed[0].dir, None);
        assert_eq!(parsed[0].local_source(), Some("./"));
        assert_eq!(parsed[1].local_source(), None);
    }

    #[test]
    fn a_plugin_with_a_root_skill_file_is_one_skill() {
        let tmp = tempfile::tempdir().unwrap();
        skill(tmp.path());
        assert_eq!(skill_dirs(tmp.path(), &[]), [tmp.path().to_path_buf()]);
    }
}
