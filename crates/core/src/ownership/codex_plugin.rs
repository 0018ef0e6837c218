//! Codex's plugin manager (probe/codex FINDINGS facts 30–33). `codex plugin marketplace add`
//! records `[marketplaces.<M>] source_type = "local" | "git", source = "<dir or URL>"` in
//! `$CODEX_HOME/config.toml` (`~/.codex` when unset); `codex plugin add P@M` copies the plugin
//! to `$CODEX_HOME/plugins/cache/<M>/<P>/<version>` (the manifest's `version`, else `local`)
//! and records `[plugins."P@M"] enabled = true`.
//!
//! Codex loads a cached plugin only while that entry says `enabled = true`, and of several
//! version folders only one: `local` when there is one, else the highest version.
//!
//! Codex records no hash. What can be checked is the cache against the plugin in a local
//! marketplace (read in place, never copied) when both name the same version: then the
//! marketplace's folder is the untouched copy. A git marketplace's clone under `.tmp` is
//! refreshed by Codex at will, so it is not taken as the revision installed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{
    Attribution, FileProblem, Installer, Method, Owner, Subject, Upstream, Verdict, against_copy,
    inside, lies_below, parts_below, read_file,
};
use crate::roots::{Environment, Project};

const CONFIG_FILE: &str = "config.toml";
/// The version folder of a plugin whose manifest gives no version.
const LOCAL_VERSION: &str = "local";
/// The marketplace files Codex reads, in its order.
const MARKETPLACE_FILES: [&str; 2] = [
    ".agents/plugins/marketplace.json",
    ".claude-plugin/marketplace.json",
];

#[derive(Debug, Default, Deserialize)]
struct ConfigFile {
    #[serde(default)]
    marketplaces: BTreeMap<String, Marketplace>,
    #[serde(default)]
    plugins: BTreeMap<String, PluginEntry>,
}

#[derive(Clone, Debug, Default, Deserialize)]
struct Marketplace {
    source_type: Option<String>,
    source: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
struct PluginEntry {
    enabled: Option<bool>,
}

/// Codex's plugin records of a run.
#[derive(Debug, Default)]
pub struct Plugins {
    config_file: PathBuf,
    cache: PathBuf,
    config: ConfigFile,
    /// Why `config.toml` could not be used; its plugins' skills are then not attributed.
    broken: Option<FileProblem>,
}

impl Plugins {
    /// `$CODEX_HOME/config.toml` and the plugin cache beside it.
    pub fn read(env: &Environment, project: &Project, problems: &mut Vec<FileProblem>) -> Self {
        let home = crate::roots::homes::codex(env, project);
        let config_file = home.join(CONFIG_FILE);
        let cache = home.join("plugins/cache");
        let mut plugins = Self {
            config_file: config_file.clone(),
            cache,
            ..Self::default()
        };
        let problem = |reason: String| FileProblem::Unreadable {
            path: config_file.clone(),
            reason,
        };
        let parsed = match read_file(&config_file) {
            Ok(Some(bytes)) => String::from_utf8(bytes)
                .map_err(|_| problem("it is not UTF-8 text".to_owned()))
                .and_then(|text| {
                    toml::from_str::<ConfigFile>(&text).map_err(|error| {
                        problem(format!(
                            "it is not the TOML Codex writes: {}",
                            error.message()
                        ))
                    })
                }),
            Ok(None) => {
                let cache_used =
                    std::fs::read_dir(&plugins.cache).is_ok_and(|mut e| e.next().is_some());
                if cache_used {
                    let missing = FileProblem::Missing {
                        path: config_file.clone(),
                        why: "the Codex plugin cache holds plugins, which it should list",
                    };
                    problems.push(missing.clone());
                    plugins.broken = Some(missing);
                }
                return plugins;
            }
            Err(problem) => Err(problem),
        };
        match parsed {
            Ok(config) => plugins.config = config,
            Err(problem) => {
                problems.push(problem.clone());
                plugins.broken = Some(problem);
            }
        }
        plugins
    }

    /// Why the skill, in the Codex plugin cache, has no record to be read.
    pub fn broken_for(&self, subject: &Subject<'_>) -> Option<&FileProblem> {
        self.broken
            .as_ref()
            .filter(|_| lies_below(subject, &self.cache))
    }

    /// Codex's record of a skill in `plugins/cache/<M>/<P>/<version>/…`.
    pub fn attribute(&self, subject: &Subject<'_>) -> Option<Attribution> {
        if self.broken.is_some() {
            return None;
        }
        let parts = parts_below(subject, &self.cache)?;
        let [marketplace, plugin, version, rest @ ..] = parts.as_slice() else {
            return None;
        };
        let key = format!("{plugin}@{marketplace}");
        let source = self.config.marketplaces.get(marketplace);
        let owner =
            Owner::new(Installer::CodexPlugin, self.config_file.clone()).with_upstream(Upstream {
                repository: source.and_then(|m| m.source.clone()),
                reference: Some(version.clone()),
                ..Upstream::default()
            });
        let config = self.config_file.display();
        let verdict = match self.config.plugins.get(&key).map(|p| p.enabled) {
            None => Verdict::unverifiable(format!(
                "{config} does not list {key}, so Codex does not load it"
            )),
            Some(enabled) if enabled != Some(true) => Verdict::unverifiable(format!(
                "{config} has {key} disabled, so Codex does not load it"
            )),
            Some(_) => match self.active_version(marketplace, plugin) {
                Some(active) if active != *version => Verdict::unverifiable(format!(
                    "a version left behind: Codex loads {key} from version {active}"
                )),
                _ => self.against_marketplace(subject, source, plugin, version, rest),
            },
        };
        Some(verdict.for_owner(owner))
    }

    /// The version folder Codex loads of a plugin: `local`, else the highest version.
    fn active_version(&self, marketplace: &str, plugin: &str) -> Option<String> {
        let dir = self.cache.join(marketplace).join(plugin);
        let versions: Vec<String> = std::fs::read_dir(dir)
            .ok()?
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        crate::plugin::codex_active_version(&versions).map(str::to_owned)
    }

    /// The verdict from a local marketplace's copy of the plugin, when it is at the version
    /// cached.
    fn against_marketplace(
        &self,
        subject: &Subject<'_>,
        source: Option<&Marketplace>,
        plugin: &str,
        version: &str,
        rest: &[String],
    ) -> Verdict {
        let Some(source) = source else {
            return Verdict::unverifiable(
                "Codex records no hash, and its marketplace is no longer recorded to compare with",
            );
        };
        let Some(dir) = source
            .source
            .as_deref()
            .filter(|_| source.source_type.as_deref() == Some("local"))
            .map(Path::new)
        else {
            return Verdict::unverifiable(
                "Codex records no hash, and keeps no copy of a git marketplace at the revision installed",
            );
        };
        let Some(plugin_dir) = plugin_in(dir, plugin) else {
            return Verdict::unverifiable(format!(
                "Codex records no hash, and the marketplace at {} no longer lists {plugin} in a folder of its own",
                dir.display()
            ));
        };
        let offered = crate::plugin::read_manifest(&plugin_dir)
            .ok()
            .flatten()
            .and_then(|m| m.version);
        if version == LOCAL_VERSION || offered.as_deref() != Some(version) {
            return Verdict::unverifiable(format!(
                "Codex records no hash, and the marketplace's copy is at version {}; nothing says the cache was copied from it as it is",
                offered.as_deref().unwrap_or(LOCAL_VERSION)
            ));
        }
        let pristine = rest.iter().fold(plugin_dir, |dir, part| dir.join(part));
        against_copy(
            subject,
            pristine,
            Method::MarketplaceClone,
            "the marketplace",
        )
    }
}

/// The folder of `plugin` in the local marketplace at `dir`, from its marketplace file.
fn plugin_in(dir: &Path, plugin: &str) -> Option<PathBuf> {
    MARKETPLACE_FILES.iter().find_map(|file| {
        let bytes = read_file(&dir.join(file)).ok().flatten()?;
        let listing = crate::plugin::parse_marketplace(&bytes).ok()?;
        let listed = listing.into_iter().find(|l| l.name == plugin)?;
        // Codex writes `{"source": "local", "path": "./plugins/p"}`; Claude's form is the path.
        let relative = listed.local_source().or_else(|| {
            (listed.source.get("source")?.as_str()? == "local")
                .then(|| listed.source.get("path")?.as_str())?
        })?;
        inside(dir, relative)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_that_is_not_toml_is_a_problem_naming_it() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join(".codex");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(home.join(CONFIG_FILE), "[plugins.\"a@b\"\nenabled = ").unwrap();
        let mut problems = Vec::new();
        let plugins = Plugins::read(
            &Environment::new(tmp.path()),
            &Project::locate(tmp.path()),
            &mut problems,
        );
        assert!(plugins.broken.is_some());
        let sentence = problems[0].to_string();
        assert!(
            sentence.contains("config.toml could not be read"),
            "{sentence}"
        );
        assert!(sentence.contains("TOML"), "{sentence}");
    }

    #[test]
    fn codex_home_moves_the_records_and_local_wins_over_versions() {
        let tmp = tempfile::tempdir().unwrap();
        let env = Environment::new(tmp.path()).with_var("CODEX_HOME", tmp.path().join("ch"));
        let cache = tmp.path().join("ch/plugins/cache/m/p");
        for version in ["1.2.3", "10.0.0", "9.0.0"] {
            std::fs::create_dir_all(cache.join(version)).unwrap();
        }
        let mut problems = Vec::new();
        let plugins = Plugins::read(&env, &Project::locate(tmp.path()), &mut problems);
        assert_eq!(plugins.config_file, tmp.path().join("ch/config.toml"));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(plugins.active_version("m", "p").as_deref(), Some("10.0.0"));
        std::fs::create_dir_all(cache.join("local")).unwrap();
        assert_eq!(plugins.active_version("m", "p").as_deref(), Some("local"));
    }
}
