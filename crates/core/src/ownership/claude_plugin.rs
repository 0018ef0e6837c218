//! Claude Code's plugin manager (peer-tools.md §4.3): `installed_plugins.json` (version 2:
//! `plugins` maps `<plugin>@<marketplace>` to a list of installs; version 1: to one install),
//! `known_marketplaces.json`, the marketplace clones in `marketplaces/<name>` and the copies it
//! loads from `cache/<marketplace>/<plugin>/<version>`.
//!
//! Claude Code records no hash. What can be checked is the cache against the marketplace
//! clone's copy of the same skill, when the clone is at the revision the cache was copied from
//! (the same commit, or else the same version): then the clone is the untouched copy.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;

use super::{
    Attribution, FileProblem, Installer, Method, Owner, Subject, Upstream, Verdict, git, read_json,
    same_dir,
};
use crate::plugin::{self, Listed};
use crate::record::{Contents, portable_path};
use crate::roots::{Layout, Records, RootSet};
use crate::skill::read_manifest;

const INSTALLED_FILE: &str = "installed_plugins.json";
const KNOWN_FILE: &str = "known_marketplaces.json";

/// One install of a plugin, as either version of the file writes it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Install {
    install_path: Option<String>,
    version: Option<String>,
    git_commit_sha: Option<String>,
}

#[derive(Debug, Deserialize)]
struct InstalledFile {
    version: Option<serde_json::Value>,
    plugins: Option<BTreeMap<String, serde_json::Value>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
struct Known {
    #[serde(default)]
    source: serde_json::Value,
}

/// A marketplace clone and the plugins it lists.
#[derive(Debug)]
struct Clone {
    dir: PathBuf,
    head: Option<String>,
    listing: Vec<Listed>,
}

/// One plugins folder: `~/.claude/plugins` or wherever the environment moved it.
#[derive(Debug)]
struct PluginsDir {
    cache: PathBuf,
    marketplaces: PathBuf,
    installed_file: PathBuf,
    /// `None` when the file is missing or could not be read; `installed_problem` says which.
    installed: Option<BTreeMap<String, Vec<Install>>>,
    installed_problem: Option<FileProblem>,
    known_file: PathBuf,
    known: BTreeMap<String, Known>,
    clones: BTreeMap<String, Clone>,
}

/// Every Claude Code plugins folder of a run.
#[derive(Debug, Default)]
pub struct Plugins {
    dirs: Vec<PluginsDir>,
}

impl Plugins {
    /// The plugins folders holding the Claude Code plugin caches among `roots`.
    pub fn read(roots: &RootSet, problems: &mut Vec<FileProblem>) -> Self {
        let caches = roots.roots.iter().filter(|root| {
            root.uses
                .iter()
                .any(|u| matches!(u.rule.layout, Layout::Plugins(Records::ClaudeCode { .. })))
        });
        let mut dirs = Vec::new();
        for cache in caches {
            let Some(base) = cache.path.parent() else {
                continue;
            };
            let dir = PluginsDir::read(base, &cache.path, problems);
            if cache.path.is_dir() || dir.installed.is_some() {
                dirs.push(dir);
            }
        }
        Self { dirs }
    }

    /// Claude Code's record of a skill in its plugin cache or in a marketplace clone.
    pub fn attribute(&self, subject: &Subject<'_>) -> Option<Attribution> {
        self.dirs.iter().find_map(|dir| {
            let inside =
                |base: &Path| parts(subject.dir, base).or_else(|| parts(subject.real_dir, base));
            if let Some(parts) = inside(&dir.cache) {
                dir.cached(subject, &parts)
            } else {
                inside(&dir.marketplaces).and_then(|parts| dir.cloned(&parts))
            }
        })
    }
}

impl PluginsDir {
    fn read(base: &Path, cache: &Path, problems: &mut Vec<FileProblem>) -> Self {
        let installed_file = base.join(INSTALLED_FILE);
        let (installed, installed_problem) = match read_installed(&installed_file, problems) {
            Ok(Some(installed)) => (Some(installed), None),
            Ok(None) => {
                let missing = FileProblem::Missing {
                    path: installed_file.clone(),
                    why: "the plugin cache beside it holds plugins, which it should list",
                };
                let cache_used = std::fs::read_dir(cache).is_ok_and(|mut e| e.next().is_some());
                if cache_used {
                    problems.push(missing.clone());
                }
                (None, Some(missing))
            }
            Err(problem) => {
                problems.push(problem.clone());
                (None, Some(problem))
            }
        };
        let known_file = base.join(KNOWN_FILE);
        let known = read_json(&known_file)
            .unwrap_or_else(|problem| {
                problems.push(problem);
                None
            })
            .unwrap_or_default();
        let marketplaces = base.join("marketplaces");
        let mut clones = BTreeMap::new();
        for entry in std::fs::read_dir(&marketplaces)
            .into_iter()
            .flatten()
            .flatten()
        {
            let dir = entry.path();
            // A clone whose marketplace file is broken is already noted on its root.
            if let Ok(Some(listing)) = plugin::read_listing(&dir) {
                let name = entry.file_name().to_string_lossy().into_owned();
                let head = git::head_commit(&dir, problems);
                clones.insert(name, Clone { dir, head, listing });
            }
        }
        Self {
            cache: cache.to_path_buf(),
            marketplaces,
            installed_file,
            installed,
            installed_problem,
            known_file,
            known,
            clones,
        }
    }

    /// A skill in `cache/<marketplace>/<plugin>/<version>/<rest>`.
    fn cached(&self, subject: &Subject<'_>, parts: &[String]) -> Option<Attribution> {
        let [marketplace, plugin, version, rest @ ..] = parts else {
            return None;
        };
        let version_dir = self.cache.join(marketplace).join(plugin).join(version);
        let key = format!("{plugin}@{marketplace}");
        let clone = self.clones.get(marketplace);
        let listed = clone.and_then(|c| c.listing.iter().find(|l| l.name == *plugin));
        let installs = self.installed.as_ref().map(|i| i.get(&key));
        let install = installs.flatten().and_then(|all| {
            all.iter()
                .find(|i| same_dir(i.install_path.as_deref(), &version_dir))
        });
        let mut owner = Owner::new(Installer::ClaudePlugin, self.installed_file.clone());
        owner = owner.with_upstream(Upstream {
            commit: install.and_then(|i| i.git_commit_sha.clone()),
            path: listed
                .and_then(|l| l.dir.as_deref())
                .zip(clone)
                .and_then(|(dir, clone)| dir.strip_prefix(&clone.dir).ok())
                .map(|inside| portable_path(&inside.join(rest.join("/")))),
            ..self.source_of(marketplace, listed)
        });
        let verdict = match (installs, install) {
            (None, _) => Verdict::unverifiable(format!(
                "no install record to check it against: {}",
                self.installed_problem
                    .as_ref()
                    .map_or_else(String::new, ToString::to_string)
            )),
            (Some(None), _) => Verdict::unverifiable(format!(
                "{} does not list {key}",
                self.installed_file.display()
            )),
            (Some(Some(_)), None) => Verdict::unverifiable(format!(
                "{} lists {key} at another cache folder; this one is a version left behind",
                self.installed_file.display()
            )),
            (Some(Some(_)), Some(install)) => {
                self.against_clone(subject, install, version, clone, listed, rest)
            }
        };
        let mut attribution = verdict.for_owner(owner);
        if installs.is_none()
            && let Some(problem) = &self.installed_problem
        {
            attribution.problems.push(problem.clone());
        }
        Some(attribution)
    }

    /// The verdict from the marketplace clone's copy of the skill, when the clone is at the
    /// revision the cache was copied from.
    fn against_clone(
        &self,
        subject: &Subject<'_>,
        install: &Install,
        version: &str,
        clone: Option<&Clone>,
        listed: Option<&Listed>,
        rest: &[String],
    ) -> Verdict {
        let Some(clone) = clone else {
            return Verdict::unverifiable(
                "Claude Code keeps no clone of its marketplace to compare the cache with",
            );
        };
        let Some(plugin_dir) = listed.and_then(|l| l.dir.as_ref()) else {
            return Verdict::unverifiable(
                "the plugin comes from outside its marketplace, and Claude Code keeps no copy of it but the cache",
            );
        };
        match (install.git_commit_sha.as_deref(), clone.head.as_deref()) {
            (Some(installed), Some(head)) if !installed.eq_ignore_ascii_case(head) => {
                return Verdict::unverifiable(format!(
                    "the marketplace clone has moved to commit {head}; the cache was installed from {installed}"
                ));
            }
            (Some(_), Some(_)) => {}
            _ => {
                let cached = install.version.as_deref().unwrap_or(version);
                let offered = listed.and_then(|l| l.version.clone()).or_else(|| {
                    plugin::read_manifest(plugin_dir)
                        .ok()
                        .flatten()
                        .and_then(|m| m.version)
                });
                match offered {
                    Some(offered) if offered == cached => {}
                    Some(offered) => {
                        return Verdict::unverifiable(format!(
                            "the marketplace clone offers version {offered}; the cache holds {cached}"
                        ));
                    }
                    None => {
                        return Verdict::unverifiable(
                            "nothing says which revision of the marketplace the cache was copied from",
                        );
                    }
                }
            }
        }
        let pristine = rest
            .iter()
            .fold(plugin_dir.clone(), |dir, part| dir.join(part));
        let theirs = match read_manifest(&pristine) {
            Ok(manifest) => Contents::read(&pristine, &manifest).1,
            Err(_) => {
                return Verdict::unverifiable(format!(
                    "the marketplace clone holds no copy of it at {}",
                    pristine.display()
                ));
            }
        };
        let mut verdict = match (subject.digest, theirs) {
            (Some(ours), Ok(theirs)) => {
                Verdict::compare(Method::MarketplaceClone, ours.as_str(), theirs.as_str())
            }
            (None, _) | (_, Err(_)) => Verdict::unverifiable(
                "it or the clone's copy holds a link or an unreadable file, so the two cannot be compared",
            ),
        };
        verdict.pristine = Some(pristine);
        verdict
    }

    /// A skill in `marketplaces/<marketplace>/<rest>`: the clone Claude Code installs from.
    fn cloned(&self, parts: &[String]) -> Option<Attribution> {
        let [marketplace, rest @ ..] = parts else {
            return None;
        };
        let clone = self.clones.get(marketplace);
        let owner =
            Owner::new(Installer::ClaudePlugin, self.known_file.clone()).with_upstream(Upstream {
                path: Some(rest.join("/")),
                commit: clone.and_then(|c| c.head.clone()),
                ..self.source_of(marketplace, None)
            });
        let verdict = Verdict::unverifiable(
            "a marketplace clone, the copy Claude Code installs plugins from; it records no hash of it",
        );
        Some(verdict.for_owner(owner))
    }

    /// The repository and ref a plugin comes from: its own remote source when the marketplace
    /// gives one, else the marketplace's.
    fn source_of(&self, marketplace: &str, listed: Option<&Listed>) -> Upstream {
        let remote = listed
            .map(|l| &l.source)
            .filter(|source| source.is_object())
            .or_else(|| self.known.get(marketplace).map(|k| &k.source));
        let text = |key: &str| {
            remote
                .and_then(|source| source.get(key))
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned)
        };
        Upstream {
            repository: text("repo")
                .or_else(|| text("url"))
                .or_else(|| text("path")),
            reference: text("ref"),
            ..Upstream::default()
        }
    }
}

/// `installed_plugins.json`, either version, as installs by plugin key.
fn read_installed(
    path: &Path,
    problems: &mut Vec<FileProblem>,
) -> Result<Option<BTreeMap<String, Vec<Install>>>, FileProblem> {
    let Some(file) = read_json::<InstalledFile>(path)? else {
        return Ok(None);
    };
    let unreadable = |reason: &str| FileProblem::Unreadable {
        path: path.to_path_buf(),
        reason: reason.to_owned(),
    };
    let version = file.version.as_ref().and_then(serde_json::Value::as_u64);
    let plugins = file
        .plugins
        .ok_or_else(|| unreadable("it has no \"plugins\" map"))?;
    if !matches!(version, Some(1 | 2)) {
        problems.push(FileProblem::Version {
            path: path.to_path_buf(),
            what: "Claude Code's plugin list",
            found: version.map_or_else(|| "(none)".to_owned(), |v| v.to_string()),
            consequence: "skilldeck knows versions 1 and 2, and reads it as those",
        });
    }
    let mut installed = BTreeMap::new();
    for (key, value) in plugins {
        // Version 2 lists every install of a plugin; version 1 gives the one.
        let installs = if value.is_array() {
            serde_json::from_value::<Vec<Install>>(value)
        } else {
            serde_json::from_value::<Install>(value).map(|install| vec![install])
        };
        let installs =
            installs.map_err(|_| unreadable(&format!("its entry {key:?} is not an install")))?;
        installed.insert(key, installs);
    }
    Ok(Some(installed))
}

/// The folder names of `path` below `base`, when it is inside.
fn parts(path: &Path, base: &Path) -> Option<Vec<String>> {
    let inside = path.strip_prefix(base).ok()?;
    Some(
        inside
            .components()
            .filter_map(|c| match c {
                Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect(),
    )
}
