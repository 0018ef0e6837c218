//! A locked skill's files, fetched from its source and judged against the lock's
//! `computedHash` before anything is written: at the locked commit when the lock names one,
//! else by a bounded search of the ref's history for a commit whose folder hashes to it
//! (`source::git::history`). Each repository is fetched once per sync at each commit or ref,
//! with the import's own fetcher and bounds (`source::git`, `bundle::limits`).

use std::collections::HashMap;

use crate::bundle::{self, Bundle, BundledSkill};
use crate::lock::Locked;
use crate::ownership::skills_cli;
use crate::record::unstamp;
use crate::record::upstream::Upstream;
use crate::skill::SKILL_FILE;
use crate::source::git::{self, Fetched, ReadError, Spec, history};

use super::Mismatch;
use super::source::{self, Origin};

/// A locked skill's files as the lock has them, ready to install.
#[derive(Debug)]
pub struct Fetch {
    /// The skill, under the lock's name for it.
    pub skill: BundledSkill,
    /// The commit its files are from, for a git source.
    pub commit: Option<String>,
    /// Whether the lock named no commit and this one was found in the source's history.
    pub found: bool,
    /// skilldeck's record of where it came from, for a git source.
    pub upstream: Option<Upstream>,
}

/// The repositories fetched so far in one sync, each once per commit or ref.
#[derive(Default)]
pub struct Sources {
    at_commit: HashMap<(String, String), Result<Fetched, Mismatch>>,
    histories: HashMap<(String, Option<String>), Result<history::History, Mismatch>>,
}

impl Sources {
    /// `locked` (named `name` in the lock) fetched from `origin` and matched against its
    /// hash; `said` hears what git is doing, `stop` is asked between commits of a search.
    ///
    /// # Errors
    /// The [`Mismatch`] that says why the lock's content could not be had.
    pub fn fetch(
        &mut self,
        name: &str,
        locked: &Locked,
        origin: &Origin,
        said: &mut dyn FnMut(&str),
        stop: &dyn Fn() -> bool,
    ) -> Result<Fetch, Mismatch> {
        let want = locked.computed_hash.to_ascii_lowercase();
        let folder = source::folder(locked);
        match origin {
            Origin::Folder(dir) => {
                let bundle = bundle::read(dir).map_err(|refusal| Mismatch::Refused {
                    at: dir.display().to_string(),
                    refusal,
                })?;
                let skill = pick(bundle, name, folder.is_some()).ok_or_else(|| no_skill(name))?;
                let found = hash_of(&skill);
                if found != want {
                    return Err(Mismatch::HashDiffers {
                        at: dir.display().to_string(),
                        found,
                        locked: want,
                    });
                }
                Ok(Fetch {
                    skill: renamed(skill, name),
                    commit: None,
                    found: false,
                    upstream: None,
                })
            }
            Origin::Git(spec) => match &locked.commit {
                Some(commit) => self.at_commit(name, spec, commit, folder, &want, said),
                None => self.search(name, spec, folder, &want, said, stop),
            },
        }
    }

    fn at_commit(
        &mut self,
        name: &str,
        spec: &Spec,
        commit: &str,
        folder: Option<Vec<String>>,
        want: &str,
        said: &mut dyn FnMut(&str),
    ) -> Result<Fetch, Mismatch> {
        let commit = commit.to_ascii_lowercase();
        let at = Spec {
            reference: Some(commit.clone()),
            ..spec.clone()
        };
        let fetched = self
            .at_commit
            .entry((spec.url.clone(), commit.clone()))
            .or_insert_with(|| {
                git::fetch(&at, said).map_err(|e| Mismatch::Unreachable(e.to_string()))
            })
            .as_ref()
            .map_err(Clone::clone)?;
        let parts: Vec<&str> = folder.iter().flatten().map(String::as_str).collect();
        let bundle = fetched
            .read(&parts, &bundle::limits())
            .map_err(|error| read_error(error, &commit, &parts))?;
        let skill = pick(bundle, name, folder.is_some()).ok_or_else(|| no_skill(name))?;
        let found = hash_of(&skill);
        if found != want {
            return Err(Mismatch::HashDiffers {
                at: format!("commit {commit}"),
                found,
                locked: want.to_owned(),
            });
        }
        let upstream = upstream(spec, &commit, &skill, &parts);
        Ok(Fetch {
            skill: renamed(skill, name),
            commit: Some(commit),
            found: false,
            upstream: Some(upstream),
        })
    }

    fn search(
        &mut self,
        name: &str,
        spec: &Spec,
        folder: Option<Vec<String>>,
        want: &str,
        said: &mut dyn FnMut(&str),
        stop: &dyn Fn() -> bool,
    ) -> Result<Fetch, Mismatch> {
        let depth = crate::limits::HISTORY_COMMITS;
        let history = self
            .histories
            .entry((spec.url.clone(), spec.reference.clone()))
            .or_insert_with(|| {
                history::fetch(spec, depth, said).map_err(|e| Mismatch::Unreachable(e.to_string()))
            })
            .as_ref()
            .map_err(Clone::clone)?;
        let limits = bundle::limits();
        // With no skillPath, the skill is found by name at the ref, and its folder there is
        // the one searched.
        let parts: Vec<String> = match folder {
            Some(parts) => parts,
            None => {
                let bundle = history
                    .read(history.tip(), &[], &limits)
                    .map_err(|error| read_error(error, history.tip(), &[]))?;
                let skill = pick(bundle, name, false).ok_or_else(|| no_skill(name))?;
                skill
                    .origin
                    .split('/')
                    .filter(|p| !p.is_empty())
                    .map(str::to_owned)
                    .collect()
            }
        };
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        let changes = history
            .changes(&parts)
            .map_err(|e| Mismatch::Unreachable(e.to_string()))?;
        said(&format!(
            "looking for {name}'s locked content among {} commits that changed {}",
            changes.len(),
            shown_folder(&parts)
        ));
        for commit in &changes {
            if stop() {
                return Err(Mismatch::Cancelled);
            }
            // A commit where the folder is gone, or holds what an import refuses, is not it.
            let Ok(bundle) = history.read(commit, &parts, &limits) else {
                continue;
            };
            let Some(skill) = pick(bundle, name, true) else {
                continue;
            };
            if hash_of(&skill) == want {
                let upstream = upstream(spec, commit, &skill, &parts);
                return Ok(Fetch {
                    skill: renamed(skill, name),
                    commit: Some(commit.clone()),
                    found: true,
                    upstream: Some(upstream),
                });
            }
        }
        Err(Mismatch::NotFound {
            examined: depth,
            repository: spec.shown(),
            folder: shown_folder(&parts),
            locked: want.to_owned(),
        })
    }
}

fn shown_folder(parts: &[&str]) -> String {
    if parts.is_empty() {
        "its top folder".to_owned()
    } else {
        parts.join("/")
    }
}

fn no_skill(name: &str) -> Mismatch {
    Mismatch::NoSkill {
        name: name.to_owned(),
    }
}

fn read_error(error: ReadError, commit: &str, parts: &[&str]) -> Mismatch {
    match error {
        ReadError::Git(error) => Mismatch::Unreachable(error.to_string()),
        ReadError::NoSuchFolder(_) => Mismatch::NoSuchFolder {
            folder: shown_folder(parts),
            commit: commit.to_owned(),
        },
        ReadError::Refused(refusal) => Mismatch::Refused {
            at: format!("commit {commit}"),
            refusal,
        },
    }
}

/// The skill a bundle read at the skill's own folder is (`by_folder`), or the one of the
/// bundle named `name`, by its folder or its declared name.
fn pick(bundle: Bundle, name: &str, by_folder: bool) -> Option<BundledSkill> {
    bundle.skills.into_iter().find(|skill| {
        if by_folder {
            skill.origin.is_empty()
        } else {
            skill.name == name || skill.declared.name.as_deref() == Some(name)
        }
    })
}

/// The skill under the lock's name: where the skills CLI installs it (`.agents/skills/NAME`).
fn renamed(mut skill: BundledSkill, name: &str) -> BundledSkill {
    name.clone_into(&mut skill.name);
    skill
}

/// The `computedHash` of a skill held in memory, its `SKILL.md` without a skilldeck record
/// (as `lock::computed_hash` takes it on disk).
pub fn hash_of(skill: &BundledSkill) -> String {
    let manifest = unstamp(skill.manifest());
    skills_cli::hash_of_files(
        skill
            .files
            .iter()
            .map(|file| match (&manifest, file.path.as_str()) {
                (Some(text), SKILL_FILE) => (file.path.as_str(), text.as_bytes()),
                _ => (file.path.as_str(), file.content.as_slice()),
            })
            .collect(),
    )
}

fn upstream(spec: &Spec, commit: &str, skill: &BundledSkill, parts: &[&str]) -> Upstream {
    let base = parts.join("/");
    let path = match (base.as_str(), skill.origin.as_str()) {
        ("", origin) => origin.to_owned(),
        (base, "") => base.to_owned(),
        (base, origin) => format!("{base}/{origin}"),
    };
    Upstream {
        repository: spec.repository.clone(),
        reference: spec.reference.clone(),
        commit: commit.to_owned(),
        path,
    }
}
