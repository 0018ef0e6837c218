//! GitHub Copilot CLI's plugin manager (probe/copilot FINDINGS facts 26–30, 35), under
//! `${COPILOT_HOME:-~/.copilot}`:
//!
//! - `config.json` (JSON with `//` comments: Copilot starts it with two) lists
//!   `installedPlugins[]` {name, marketplace, version, enabled, cache_path, source_sha,
//!   installed_at, source}: plugins copied to `installed-plugins/<marketplace>/<plugin>`, or
//!   `installed-plugins/_direct/<folder>` for a direct install (`marketplace: ""`, `source`
//!   naming the path or URL).
//! - `settings.json` holds `extraKnownMarketplaces.<M>.source` ({source: "git", url} or
//!   {source: "directory", path}) and `enabledPlugins {"P@M": bool}`. A plugin of a directory
//!   marketplace is not copied: Copilot loads it in place from the marketplace's folder.
//!
//! Copilot records `source_sha`, a SHA-256 whose input it does not document and skilldeck has
//! not reproduced (it is no git object id), so a copied plugin is unverifiable; a plugin read
//! in place is its own source, with nothing to drift from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{
    Attribution, FileProblem, Installer, Owner, Subject, Upstream, Verdict, inside, lies_below,
    parts_below, read_file, same_dir,
};
use crate::roots::{Environment, Project};

const CONFIG_FILE: &str = "config.json";
const SETTINGS_FILE: &str = "settings.json";
/// The folder of direct installs inside `installed-plugins`.
const DIRECT: &str = "_direct";
/// The marketplace files of a directory marketplace, in the order Copilot asks.
const MARKETPLACE_FILES: [&str; 2] = [
    ".github/plugin/marketplace.json",
    ".claude-plugin/marketplace.json",
];

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ConfigFile {
    #[serde(default)]
    installed_plugins: Vec<Installed>,
}

#[derive(Clone, Debug, Default, Deserialize)]
struct Installed {
    name: Option<String>,
    marketplace: Option<String>,
    version: Option<String>,
    enabled: Option<bool>,
    cache_path: Option<String>,
    source_sha: Option<String>,
    #[serde(default)]
    source: serde_json::Value,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SettingsFile {
    #[serde(default)]
    extra_known_marketplaces: BTreeMap<String, Known>,
    #[serde(default)]
    enabled_plugins: BTreeMap<String, serde_json::Value>,
}

#[derive(Clone, Debug, Default, Deserialize)]
struct Known {
    #[serde(default)]
    source: serde_json::Value,
}

/// A plugin Copilot loads in place from a directory marketplace.
#[derive(Debug)]
struct Live {
    key: String,
    dir: PathBuf,
    marketplace_dir: PathBuf,
    version: Option<String>,
}

/// Copilot's plugin records of a run.
#[derive(Debug, Default)]
pub struct Plugins {
    installed_dir: PathBuf,
    config_file: PathBuf,
    settings_file: PathBuf,
    installed: Vec<Installed>,
    settings: SettingsFile,
    live: Vec<Live>,
    /// Why `config.json` could not be used; the copied plugins are then not attributed.
    broken_config: Option<FileProblem>,
}

impl Plugins {
    /// `config.json` and `settings.json` of `${COPILOT_HOME:-~/.copilot}`.
    pub fn read(env: &Environment, project: &Project, problems: &mut Vec<FileProblem>) -> Self {
        let home = crate::roots::homes::copilot(env, project);
        let mut plugins = Self {
            installed_dir: home.join("installed-plugins"),
            config_file: home.join(CONFIG_FILE),
            settings_file: home.join(SETTINGS_FILE),
            ..Self::default()
        };
        match read_jsonc::<ConfigFile>(&plugins.config_file) {
            Ok(config) => plugins.installed = config.unwrap_or_default().installed_plugins,
            Err(problem) => {
                problems.push(problem.clone());
                plugins.broken_config = Some(problem);
            }
        }
        match read_jsonc::<SettingsFile>(&plugins.settings_file) {
            Ok(settings) => plugins.settings = settings.unwrap_or_default(),
            Err(problem) => problems.push(problem),
        }
        plugins.live = plugins.live_plugins();
        plugins
    }

    /// The enabled plugins of directory marketplaces, where their marketplace files say.
    fn live_plugins(&self) -> Vec<Live> {
        let mut live = Vec::new();
        for (key, enabled) in &self.settings.enabled_plugins {
            let Some((plugin, marketplace)) = key.rsplit_once('@') else {
                continue;
            };
            let Some(source) = self.settings.extra_known_marketplaces.get(marketplace) else {
                continue;
            };
            let text = |k: &str| source.source.get(k).and_then(serde_json::Value::as_str);
            if enabled.as_bool() != Some(true) || text("source") != Some("directory") {
                continue;
            }
            let Some(marketplace_dir) = text("path").map(PathBuf::from) else {
                continue;
            };
            let listed = MARKETPLACE_FILES.iter().find_map(|file| {
                let bytes = read_file(&marketplace_dir.join(file)).ok().flatten()?;
                let listing = crate::plugin::parse_marketplace(&bytes).ok()?;
                listing.into_iter().find(|l| l.name == plugin)
            });
            let Some(listed) = listed else { continue };
            let Some(dir) = listed
                .local_source()
                .and_then(|s| inside(&marketplace_dir, s))
            else {
                continue;
            };
            let version = listed.version.clone().or_else(|| {
                crate::plugin::read_manifest(&dir)
                    .ok()
                    .flatten()
                    .and_then(|m| m.version)
            });
            live.push(Live {
                key: key.clone(),
                dir,
                marketplace_dir,
                version,
            });
        }
        live
    }

    /// Why the skill, among Copilot's installed plugins, has no record to be read.
    pub fn broken_for(&self, subject: &Subject<'_>) -> Option<&FileProblem> {
        self.broken_config
            .as_ref()
            .filter(|_| lies_below(subject, &self.installed_dir))
    }

    /// Copilot's record of a skill in `installed-plugins/…` or in a plugin it loads in place.
    pub fn attribute(&self, subject: &Subject<'_>) -> Option<Attribution> {
        if let Some(parts) = parts_below(subject, &self.installed_dir) {
            return self.copied(&parts);
        }
        let live = self
            .live
            .iter()
            .find(|live| lies_below(subject, &live.dir))?;
        let owner = Owner::new(Installer::CopilotPlugin, self.settings_file.clone()).with_upstream(
            Upstream {
                repository: Some(live.marketplace_dir.to_string_lossy().into_owned()),
                reference: live.version.clone(),
                ..Upstream::default()
            },
        );
        let verdict = Verdict::unverifiable(format!(
            "Copilot loads {} in place from its directory marketplace: the folder is its own source, and no hash of it is recorded",
            live.key
        ));
        Some(verdict.for_owner(owner))
    }

    /// A skill in `installed-plugins/<marketplace or _direct>/<folder>/…`.
    fn copied(&self, parts: &[String]) -> Option<Attribution> {
        if self.broken_config.is_some() {
            return None;
        }
        let [marketplace, folder, ..] = parts else {
            return None;
        };
        let plugin_dir = self.installed_dir.join(marketplace).join(folder);
        let install = self
            .installed
            .iter()
            .find(|i| same_dir(i.cache_path.as_deref(), &plugin_dir))
            .or_else(|| {
                (marketplace != DIRECT).then(|| {
                    self.installed.iter().find(|i| {
                        i.marketplace.as_deref() == Some(marketplace)
                            && i.name.as_deref() == Some(folder)
                    })
                })?
            });
        let mut owner = Owner::new(Installer::CopilotPlugin, self.config_file.clone());
        let Some(install) = install else {
            let verdict = Verdict::unverifiable(format!(
                "{} does not list the plugin in {}, so Copilot does not load it",
                self.config_file.display(),
                plugin_dir.display()
            ));
            return Some(verdict.for_owner(owner));
        };
        owner = owner
            .with_upstream(Upstream {
                repository: self.source_of(install),
                reference: install.version.clone(),
                ..Upstream::default()
            })
            .with_hash(install.source_sha.as_deref().unwrap_or(""));
        let name = install.name.as_deref().unwrap_or(folder);
        let verdict = if install.enabled == Some(false) {
            Verdict::unverifiable(format!(
                "{} has {name} disabled, so Copilot does not load it",
                self.config_file.display()
            ))
        } else {
            Verdict::unverifiable(
                "Copilot's source_sha hashes an input it does not document, which skilldeck cannot recompute",
            )
        };
        Some(verdict.for_owner(owner))
    }

    /// Where an installed plugin came from: its marketplace's source, or a direct install's.
    fn source_of(&self, install: &Installed) -> Option<String> {
        let source = match install.marketplace.as_deref() {
            Some(marketplace) if !marketplace.is_empty() => {
                let Some(known) = self.settings.extra_known_marketplaces.get(marketplace) else {
                    return Some(marketplace.to_owned());
                };
                &known.source
            }
            _ => &install.source,
        };
        ["url", "repo", "path"]
            .iter()
            .find_map(|key| source.get(key).and_then(serde_json::Value::as_str))
            .map(str::to_owned)
    }
}

/// A JSON file that may hold `//` and `/* */` comments: `None` when it does not exist.
fn read_jsonc<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Option<T>, FileProblem> {
    let Some(bytes) = read_file(path)? else {
        return Ok(None);
    };
    let problem = |reason: String| FileProblem::Unreadable {
        path: path.to_path_buf(),
        reason,
    };
    let text = std::str::from_utf8(&bytes).map_err(|_| problem("it is not UTF-8 text".into()))?;
    serde_json::from_str(&crate::plugin::strip_json_comments(text))
        .map(Some)
        .map_err(|error| problem(format!("it is not the JSON expected there: {error}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_go_and_strings_stay() {
        let text = "// User settings belong in settings.json.\n{\"a\": \"http://x//y\", /* b */ \"c\": \"\\\"//\"} // end";
        let value: serde_json::Value =
            serde_json::from_str(&crate::plugin::strip_json_comments(text)).unwrap();
        assert_eq!(value["a"], "http://x//y");
        assert_eq!(value["c"], "\"//");
        assert_eq!(
            crate::plugin::strip_json_comments("/* a\nb */1")
                .lines()
                .count(),
            2
        );
    }

    #[test]
    fn a_directory_marketplace_plugin_is_attributed_in_place() {
        let tmp = tempfile::tempdir().unwrap();
        let mkt = tmp.path().join("mkt");
        std::fs::create_dir_all(mkt.join(".github/plugin")).unwrap();
        std::fs::create_dir_all(mkt.join("plugins/pa/skills/sa")).unwrap();
        std::fs::write(
            mkt.join(".github/plugin/marketplace.json"),
            r#"{"name":"m","plugins":[{"name":"pa","source":"./plugins/pa","version":"1.2.3"}]}"#,
        )
        .unwrap();
        let settings = serde_json::json!({
            "extraKnownMarketplaces": {"m": {"source": {"source": "directory", "path": mkt}}},
            "enabledPlugins": {"pa@m": true}
        });
        std::fs::create_dir_all(tmp.path().join(".copilot")).unwrap();
        std::fs::write(
            tmp.path().join(".copilot/settings.json"),
            settings.to_string(),
        )
        .unwrap();
        let mut problems = Vec::new();
        let plugins = Plugins::read(
            &Environment::new(tmp.path()),
            &Project::locate(tmp.path()),
            &mut problems,
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(plugins.live.len(), 1);
        assert_eq!(plugins.live[0].dir, mkt.join("plugins/pa"));
        assert_eq!(plugins.live[0].version.as_deref(), Some("1.2.3"));
    }
}
