//! Claude Code 2.1.332's plugin records (/work/probe/claude-code/FINDINGS.md, "Plugins"): a
//! folder `cache/<marketplace>/<plugin>/<version>` loads only when `installed_plugins.json`
//! beside the cache lists an install of it and `enabledPlugins["<plugin>@<marketplace>"]` is
//! true in Claude Code's settings merged key by key, the later file winning: the user's, the
//! start folder's `.claude/settings.json` (no walk up), the local files (the start folder's,
//! then the repository root's `.claude/settings.local.json`) and the managed ones — the same
//! files and order as `skillOverrides` (`switch_files::claude_code::files`). An install's
//! `scope` and `projectPath` do not limit where it loads: a project-scope install enabled in
//! the user's settings loads in any folder (`agree::claude_code::claude_code_enabled_plugins_*`,
//! `claude_code_plugin_installs_at_each_scope`). A plugin of a marketplace added from a local
//! folder (`known_marketplaces.json` source `directory`) is read from that folder, which
//! `claude plugin list --json` calls `readFromFolder`, not from its cache copy.
//!
//! Its skills: the plugin folder's own `SKILL.md` (named after its frontmatter name, else the
//! folder), `skills/<name>/SKILL.md`, or the paths its manifest or marketplace entry lists;
//! named `<plugin>:<folder>`. A seed directory (`CLAUDE_CODE_PLUGIN_SEED_DIR`) is a copy of a
//! plugins folder and is read the same way.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{Context, Listing, Naming, Plugin, folder_name, read_json_record, subfolders};
use crate::roots::Place;
use crate::roots::switch_files::claude_code as claude_code_files;
use crate::skill::SKILL_FILE;

/// One install, as either version of `installed_plugins.json` writes it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Install {
    install_path: Option<String>,
    version: Option<String>,
    scope: Option<String>,
    project_path: Option<String>,
}

impl Install {
    /// Whether 2.1.332 counts this install in a run started in `project` (its bundle's `kG`):
    /// a user or managed install anywhere (one without a scope is of the first version of
    /// the file, which had only user installs); a project or local one when its
    /// `projectPath` is the start folder or lies in the same git repository. A project
    /// install of another folder loads nothing here, whatever `enabledPlugins` says (seeds 24
    /// and 41 of class `claude-plugins`).
    fn applies(&self, project: &crate::roots::Project) -> bool {
        match self.scope.as_deref() {
            None | Some("user" | "managed") => true,
            Some(_) => self.project_path.as_deref().is_some_and(|path| {
                let path = Path::new(path);
                path == project.start()
                    || project.repository().is_some_and(|root| {
                        crate::roots::Project::locate(path).repository() == Some(root)
                    })
            }),
        }
    }
}

#[derive(Debug, Deserialize)]
struct InstalledFile {
    #[serde(default)]
    plugins: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Settings {
    #[serde(default, deserialize_with = "in_written_order")]
    enabled_plugins: Vec<(String, serde_json::Value)>,
}

/// A JSON object's entries in the order the file writes them: Claude Code lists its plugins'
/// skills in the order of `enabledPlugins`' keys, which a sorted map would lose.
fn in_written_order<'de, D>(deserializer: D) -> Result<Vec<(String, serde_json::Value)>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    struct Entries;
    impl<'de> serde::de::Visitor<'de> for Entries {
        type Value = Vec<(String, serde_json::Value)>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut entries = Vec::new();
            while let Some(entry) = map.next_entry()? {
                entries.push(entry);
            }
            Ok(entries)
        }
    }
    deserializer.deserialize_map(Entries)
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Known {
    #[serde(default)]
    source: serde_json::Value,
    install_location: Option<String>,
}

/// `enabledPlugins` merged over Claude Code's settings files, the later file winning per key
/// and each key keeping the place it was first written at, as JavaScript's objects merge: the
/// user's keys in their order, then the keys each later file adds. That is the order 2.1.332
/// lists the plugins' skills in (`agree::listing_claude_code::claude_code_places_plugin_skills_in_the_budget`:
/// neither `installed_plugins.json`'s order nor the catalog's moves them).
#[derive(Default)]
struct Enabled(Vec<(String, serde_json::Value)>);

impl Enabled {
    fn merge(&mut self, file: Vec<(String, serde_json::Value)>) {
        for (key, value) in file {
            match self.0.iter_mut().find(|(known, _)| *known == key) {
                Some(entry) => entry.1 = value,
                None => self.0.push((key, value)),
            }
        }
    }

    fn turns_on(&self, key: &str) -> bool {
        self.0
            .iter()
            .any(|(known, value)| known == key && value.as_bool() == Some(true))
    }

    /// Where `key` comes among the plugins Claude Code lists.
    fn place(&self, key: &str) -> usize {
        self.0
            .iter()
            .position(|(known, _)| known == key)
            .unwrap_or(self.0.len())
    }
}

pub(super) fn listing(cache: &Path, settings: Place, context: &Context<'_>) -> Listing {
    let mut out = Listing::default();
    let Some(base) = cache.parent() else {
        return out;
    };
    let mut read = |path: &Path| -> Settings {
        read_json_record(path)
            .unwrap_or_else(|note| {
                out.notes.push(note.to_string());
                None
            })
            .unwrap_or_default()
    };
    let user = settings
        .resolve(context.env, context.project)
        .into_iter()
        .next()
        .map(|located| located.path);
    let files = user.into_iter().chain(claude_code_files::files_after_user(
        context.env,
        context.project,
    ));
    let mut enabled = Enabled::default();
    for file in files {
        enabled.merge(read(&file).enabled_plugins);
    }
    let installed = read_installed(&base.join("installed_plugins.json"), &mut out.notes);
    let known: BTreeMap<String, Known> = read_json_record(&base.join("known_marketplaces.json"))
        .unwrap_or_else(|note| {
            out.notes.push(note.to_string());
            None
        })
        .unwrap_or_default();

    // Every version folder on disk, so that those no record loads are still listed.
    let mut on_disk: Vec<(String, String, PathBuf)> = Vec::new();
    for marketplace in subfolders(cache) {
        for plugin in subfolders(&marketplace) {
            for version in subfolders(&plugin) {
                on_disk.push((folder_name(&marketplace), folder_name(&plugin), version));
            }
        }
    }
    let mut loaded_dirs: Vec<PathBuf> = Vec::new();
    for (key, installs) in &installed {
        let Some((plugin, marketplace)) = key.rsplit_once('@') else {
            continue;
        };
        if !enabled.turns_on(key) {
            continue;
        }
        // Of the installs that count here, the first whose folder is there, else the first
        // (2.1.332 picks so): each names the same plugin, and it loads once.
        let applying: Vec<&Install> = installs
            .iter()
            .filter(|install| install.applies(context.project))
            .collect();
        let install = applying
            .iter()
            .find(|install| cached_dir(cache, marketplace, plugin, install).is_some())
            .or(applying.first());
        let Some(install) = install.copied() else {
            continue;
        };
        // 2.1.332 loads a plugin only from a marketplace it knows: one recorded in
        // `known_marketplaces.json` whose catalog lists the plugin ("its marketplace is not
        // known here", "Plugin P not found in marketplace M" in its debug log; classes
        // `claude-plugins` of `agree::generate`). A marketplace declared only under
        // `extraKnownMarketplaces` with a directory source is not read here.
        let Some(known) = known.get(marketplace) else {
            out.notes.push(format!(
                "plugin {key} is not loaded: its marketplace {marketplace} is not recorded in known_marketplaces.json"
            ));
            continue;
        };
        let order = enabled.place(key);
        if let Some((dir, listed)) = read_from_folder(known, plugin, &mut out.notes) {
            // The cache copy stays on disk, unread, and is listed below as such.
            out.plugins.push(Plugin {
                order,
                ..plugin_at(plugin, dir, install.version.clone(), &listed, true)
            });
            continue;
        }
        let Some(dir) = cached_dir(cache, marketplace, plugin, install) else {
            continue;
        };
        let Some(listed) = marketplace_listing(base, marketplace, plugin) else {
            out.notes.push(format!(
                "plugin {key} is not loaded: the catalog of its marketplace {marketplace} does not list it"
            ));
            continue;
        };
        let version = Some(folder_name(&dir));
        out.plugins.push(Plugin {
            order,
            ..plugin_at(plugin, dir.clone(), version, &listed, true)
        });
        loaded_dirs.push(dir);
    }
    for (marketplace, plugin, dir) in on_disk {
        if loaded_dirs.contains(&dir) {
            continue;
        }
        let listed = marketplace_listing(base, &marketplace, &plugin).unwrap_or_default();
        let version = Some(folder_name(&dir));
        out.plugins
            .push(plugin_at(&plugin, dir, version, &listed, false));
    }
    out
}

/// The plugin `plugin` with its skills, named by its manifest when it has one.
fn plugin_at(
    plugin: &str,
    dir: PathBuf,
    version: Option<String>,
    listed: &[String],
    loaded: bool,
) -> Plugin {
    let manifest = super::read_manifest(&dir)
        .ok()
        .flatten()
        .unwrap_or_default();
    let listed = if listed.is_empty() {
        &manifest.skills
    } else {
        listed
    };
    let found = skills_of(&dir, listed);
    // A manifest 2.1.332 refuses loads none of the plugin; its skills stay on disk, unloaded.
    let loaded = loaded && found.is_some();
    let found = found.unwrap_or_else(|| Found {
        skills: super::skill_dirs(&dir, &[]),
        entries: Vec::new(),
    });
    Plugin {
        name: manifest.name.unwrap_or_else(|| plugin.to_owned()),
        loaded,
        skills: found.skills,
        entries: found.entries,
        dir,
        version,
        naming: Naming::QualifiedByFolder,
        order: 0,
        hydration: None,
    }
}

/// The skill folders Claude Code reads in one plugin folder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Every skill folder, sorted.
    pub skills: Vec<PathBuf>,
    /// Those that are the plugin's own entries ([`Plugin::entries`]).
    pub entries: Vec<PathBuf>,
}

/// The skills Claude Code 2.1.332 reads in the plugin folder `dir` whose manifest lists the
/// skill paths `listed`: its own `SKILL.md` only when `./` is listed, or when nothing is
/// listed and it has no `skills/` folder (seed 16 of class `claude-plugins`; "skillsPath=none,
/// skillsPaths=1 paths" in its debug log), `skills/<name>/SKILL.md` whatever the manifest
/// says ("skillsPath=exists, skillsPaths=2 paths" in its debug log), and each listed path,
/// which is one skill when it holds a `SKILL.md` and a folder of skills otherwise; a path that
/// is not there is passed over. `None` when a listed path does not start with `./`: 2.1.332
/// refuses the manifest ("skills.0: Invalid string: must start with \"./\"") and loads none
/// of the plugin. (`agree::claude_code::claude_code_plugin_manifest_lists_skill_paths`, class
/// `claude-plugins` of `agree::generate`.)
pub fn skills_of(dir: &Path, listed: &[String]) -> Option<Found> {
    if listed.iter().any(|path| !path.starts_with("./")) {
        return None;
    }
    // `./` names the plugin folder, whose own SKILL.md is read anyway ("skillsPaths=0 paths").
    let mut paths: Vec<String> = listed
        .iter()
        .filter(|path| super::inside(dir, path).is_some_and(|at| at != dir))
        .cloned()
        .collect();
    paths.push("./skills".to_owned());
    let reads_own = listed
        .iter()
        .any(|path| super::inside(dir, path).is_some_and(|at| at == dir))
        || (listed.is_empty() && !dir.join("skills").is_dir());
    let mut skills = super::skill_dirs(dir, &paths);
    skills.retain(|skill| reads_own || skill != dir);
    let mut entries: Vec<PathBuf> = listed
        .iter()
        .filter_map(|path| super::inside(dir, path))
        .filter(|path| path.join(SKILL_FILE).exists())
        .collect();
    if reads_own && dir.join(SKILL_FILE).exists() {
        entries.push(dir.to_path_buf());
    }
    entries.retain(|entry| skills.contains(entry));
    Some(Found { skills, entries })
}

/// The cache folder an install names: its `installPath`'s last folder (the version) below
/// `cache/<marketplace>/<plugin>`, so a seed directory copied from elsewhere, whose paths
/// still name the original, is read where it is.
fn cached_dir(cache: &Path, marketplace: &str, plugin: &str, install: &Install) -> Option<PathBuf> {
    let version = install
        .install_path
        .as_deref()
        .map(|path| folder_name(Path::new(path.trim_end_matches('/'))))
        .filter(|version| !version.is_empty())
        .or_else(|| install.version.clone())?;
    let dir = cache.join(marketplace).join(plugin).join(version);
    dir.is_dir().then_some(dir)
}

/// The folder a plugin of a local-folder marketplace is read from, and the skills its entry
/// lists.
fn read_from_folder(
    known: &Known,
    plugin: &str,
    notes: &mut Vec<String>,
) -> Option<(PathBuf, Vec<String>)> {
    let source = known.source.as_object()?;
    if source.get("source").and_then(serde_json::Value::as_str) != Some("directory") {
        return None;
    }
    let folder = source
        .get("path")
        .and_then(serde_json::Value::as_str)
        .or(known.install_location.as_deref())?;
    let listing = match super::read_listing(Path::new(folder)) {
        Ok(listing) => listing?,
        Err(problem) => {
            notes.push(problem.to_string());
            return None;
        }
    };
    let entry = listing.into_iter().find(|entry| entry.name == plugin)?;
    Some((entry.dir?, entry.skills))
}

/// The skills a cached plugin's marketplace clone (`marketplaces/<marketplace>` beside the
/// cache) lists for it (empty when it lists none); `None` when the clone does not list it.
fn marketplace_listing(base: &Path, marketplace: &str, plugin: &str) -> Option<Vec<String>> {
    let clone = base.join("marketplaces").join(marketplace);
    super::read_listing(&clone)
        .ok()
        .flatten()
        .and_then(|entries| entries.into_iter().find(|e| e.name == plugin))
        .map(|entry| entry.skills)
}

/// `installed_plugins.json`, either version (2 lists every install, 1 gives one), by key.
fn read_installed(path: &Path, notes: &mut Vec<String>) -> BTreeMap<String, Vec<Install>> {
    let file: InstalledFile = match read_json_record(path) {
        Ok(Some(file)) => file,
        Ok(None) => return BTreeMap::new(),
        Err(note) => {
            notes.push(format!("{note}; no plugin of this cache is loaded"));
            return BTreeMap::new();
        }
    };
    let mut installed = BTreeMap::new();
    for (key, value) in file.plugins {
        let installs = if value.is_array() {
            serde_json::from_value::<Vec<Install>>(value)
        } else {
            serde_json::from_value::<Install>(value).map(|install| vec![install])
        };
        match installs {
            Ok(installs) => {
                installed.insert(key, installs);
            }
            Err(_) => notes.push(format!(
                "{}: its entry {key:?} is not an install, so that plugin is not loaded",
                path.display()
            )),
        }
    }
    installed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugin::tests::skill;
    use crate::roots::{Environment, Project};
    use std::fs;

    /// The listing of `cache` for a person whose home is `home`, working in `project`.
    fn listed(cache: &Path, home: &Path, project: &Path) -> Listing {
        let env = Environment::new(home);
        let project = Project::locate(project);
        listing(
            cache,
            Place::Home(".claude/settings.json"),
            &Context {
                env: &env,
                project: &project,
            },
        )
    }

    #[test]
    fn only_a_listed_and_enabled_install_loads_and_its_other_versions_stay_on_disk() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path();
        let plugins = home.join(".claude/plugins");
        let cache = plugins.join("cache");
        skill(&cache.join("m/p/1.0.0/skills/a"));
        skill(&cache.join("m/p/0.9.0/skills/a"));
        skill(&cache.join("m/off/1.0.0/skills/b"));
        skill(&cache.join("m/orphan/1.0.0/skills/c"));
        let v1 = cache.join("m/p/1.0.0");
        let off = cache.join("m/off/1.0.0");
        fs::write(
            plugins.join("installed_plugins.json"),
            format!(
                r#"{{"version":2,"plugins":{{"p@m":[{{"scope":"user","installPath":{}}}],
                "off@m":[{{"scope":"user","installPath":{}}}]}}}}"#,
                // Quoted as JSON, so a Windows path's backslashes stay backslashes.
                serde_json::to_string(&v1).unwrap(),
                serde_json::to_string(&off).unwrap()
            ),
        )
        .unwrap();
        fs::write(
            home.join(".claude/settings.json"),
            r#"{"enabledPlugins":{"p@m":true,"off@m":false}}"#,
        )
        .unwrap();
        fs::write(
            plugins.join("known_marketplaces.json"),
            r#"{"m":{"source":{"source":"github","repo":"a/m"}}}"#,
        )
        .unwrap();
        fs::create_dir_all(plugins.join("marketplaces/m/.claude-plugin")).unwrap();
        fs::write(
            plugins.join("marketplaces/m/.claude-plugin/marketplace.json"),
            r#"{"name":"m","plugins":[{"name":"p","source":"./p"},{"name":"off","source":"./off"}]}"#,
        )
        .unwrap();
        let out = listed(&cache, home, &home.join("work"));
        let loaded: Vec<&Path> = out
            .plugins
            .iter()
            .filter(|p| p.loaded)
            .map(|p| p.dir.as_path())
            .collect();
        assert_eq!(loaded, [v1.as_path()]);
        assert_eq!(out.plugins.len(), 4, "{out:?}");
        assert!(out.notes.is_empty(), "{:?}", out.notes);
    }

    /// `skills` paths add to `skills/`; one that holds a SKILL.md is an entry of the plugin,
    /// `./` is the plugin folder, a missing one is passed over, and one without `./` refuses
    /// the whole manifest.
    #[test]
    fn skill_paths_as_claude_code_reads_them() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        for skill_dir in ["skills/a", "extra/b", "one", "one/inner"] {
            skill(&dir.join(skill_dir));
        }
        let listed =
            |paths: &[&str]| -> Vec<String> { paths.iter().map(|p| (*p).to_owned()).collect() };
        let found = skills_of(dir, &listed(&["./extra", "./one", "./missing", "./"])).unwrap();
        assert_eq!(
            found.skills,
            [dir.join("extra/b"), dir.join("one"), dir.join("skills/a")]
        );
        assert_eq!(found.entries, [dir.join("one")]);
        let found = skills_of(dir, &[]).unwrap();
        assert_eq!(found.skills, [dir.join("skills/a")]);
        assert!(found.entries.is_empty());
        assert_eq!(skills_of(dir, &listed(&["./extra", "extra"])), None);
        // Its own SKILL.md: read when `./` is listed, or when nothing is and `skills/` is not
        // there.
        skill(dir);
        assert!(
            !skills_of(dir, &[])
                .unwrap()
                .skills
                .contains(&dir.to_path_buf())
        );
        let found = skills_of(dir, &listed(&["./"])).unwrap();
        assert!(found.skills.contains(&dir.to_path_buf()));
        assert!(found.entries.contains(&dir.to_path_buf()));
        fs::remove_dir_all(dir.join("skills")).unwrap();
        assert!(
            skills_of(dir, &[])
                .unwrap()
                .skills
                .contains(&dir.to_path_buf())
        );
        assert!(
            !skills_of(dir, &listed(&["./extra"]))
                .unwrap()
                .skills
                .contains(&dir.to_path_buf())
        );
    }

    #[test]
    fn a_corrupt_install_list_is_a_note_and_loads_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = tmp.path().join(".claude/plugins/cache");
        skill(&cache.join("m/p/1.0.0/skills/a"));
        fs::write(
            tmp.path().join(".claude/plugins/installed_plugins.json"),
            "{",
        )
        .unwrap();
        let out = listed(&cache, tmp.path(), tmp.path());
        assert!(out.plugins.iter().all(|p| !p.loaded));
        assert!(
            out.notes[0].contains("no plugin of this cache is loaded"),
            "{out:?}"
        );
    }
}
