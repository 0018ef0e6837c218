//! SkillPort's record (peer-tools.md §4.6): `origins.json` in the metadata folder of each
//! skills folder it manages (`~/.skillport/indexes/<slug>/meta/`), keyed by the skill's path
//! below that skills folder.
//!
//! Its `content_hash` is `sha256:` over, for each file sorted by its `/`-joined path, the path,
//! a zero byte, the file's git blob id in hex and a zero byte; any path with a part starting
//! with `.`, and `__pycache__`, is left out. SkillPort computes it on the installed copy, so it
//! can be recomputed.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest as _, Sha256};

use super::walk::{self, Entry, Kind};
use super::{
    Attribution, FileProblem, Installer, Method, Owner, Subject, Upstream, Verdict, git, read_json,
};
use crate::fs::Links;
use crate::record::lower_hex;
use crate::roots::Environment;

/// One skill's origin; every field optional, as SkillPort added them over versions.
#[derive(Clone, Debug, Default, Deserialize)]
struct Origin {
    source: Option<String>,
    #[serde(rename = "ref")]
    reference: Option<String>,
    path: Option<String>,
    commit_sha: Option<String>,
    content_hash: Option<String>,
    skills_dir: Option<String>,
}

/// Every origins file under SkillPort's home, its entries by the folder they describe.
#[derive(Debug, Default)]
pub struct Origins {
    by_dir: BTreeMap<PathBuf, (PathBuf, Origin)>,
}

impl Origins {
    /// `~/.skillport/indexes/*/meta/origins.json`.
    pub fn read(env: &Environment, problems: &mut Vec<FileProblem>) -> Self {
        let home = env.home().join(".skillport");
        let mut origins = Self::default();
        let Ok(indexes) = std::fs::read_dir(home.join("indexes")) else {
            return origins;
        };
        let mut files: Vec<PathBuf> = indexes
            .filter_map(Result::ok)
            .map(|index| index.path().join("meta/origins.json"))
            .collect();
        files.sort();
        for path in files {
            let entries: BTreeMap<String, serde_json::Value> = match read_json(&path) {
                Ok(Some(entries)) => entries,
                Ok(None) => continue,
                Err(problem) => {
                    problems.push(problem);
                    continue;
                }
            };
            for (id, value) in entries {
                let Ok(origin) = serde_json::from_value::<Origin>(value) else {
                    problems.push(FileProblem::Unreadable {
                        path: path.clone(),
                        reason: format!("its entry {id:?} is not an origin SkillPort writes"),
                    });
                    continue;
                };
                // Entries from before SkillPort recorded the folder belong to its default one.
                let skills_dir = origin
                    .skills_dir
                    .as_deref()
                    .map_or_else(|| home.join("skills"), PathBuf::from);
                let dir = id.split('/').fold(skills_dir, |dir, part| dir.join(part));
                origins.by_dir.insert(dir, (path.clone(), origin));
            }
        }
        origins
    }

    /// SkillPort's record of `subject`, when an origin names its folder.
    pub fn attribute(&self, subject: &Subject<'_>) -> Option<Attribution> {
        let (file, origin) = self
            .by_dir
            .get(subject.dir)
            .or_else(|| self.by_dir.get(subject.real_dir))?;
        let recorded = origin.content_hash.clone().unwrap_or_default();
        let owner = Owner::new(Installer::Skillport, file.clone())
            .with_upstream(Upstream {
                repository: origin.source.clone(),
                reference: origin.reference.clone(),
                path: origin.path.clone().filter(|p| !p.is_empty()),
                commit: origin.commit_sha.clone().filter(|c| !c.is_empty()),
            })
            .with_hash(&recorded);
        let verdict = if recorded.is_empty() {
            Verdict::unverifiable(
                "SkillPort has not recorded a content hash for it yet (it records one when it adds or updates a skill)",
            )
        } else {
            match walk::list(subject.real_dir).and_then(|entries| content_hash(&entries)) {
                Ok(now) => Verdict::compare(Method::SkillportContentHash, &now, &recorded),
                Err(error) => Verdict::failed(&error),
            }
        };
        Some(verdict.for_owner(owner))
    }
}

/// SkillPort's content hash of a listed folder.
fn content_hash(entries: &[Entry]) -> io::Result<String> {
    let mut files: Vec<&Entry> = entries
        .iter()
        .filter(|e| match e.kind {
            Kind::File { .. } => true,
            // Python's `is_file` follows a link.
            Kind::Link => e.full.is_file(),
            Kind::Dir | Kind::Other => false,
        })
        .filter(|e| {
            !e.parts()
                .any(|part| part.starts_with('.') || part == "__pycache__")
        })
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let mut hasher = Sha256::new();
    for file in files {
        let blob = git::blob_id(Path::new(&file.full), Links::Follow)?;
        hasher.update(file.path.as_bytes());
        hasher.update([0]);
        hasher.update(lower_hex(&blob).as_bytes());
        hasher.update([0]);
    }
    Ok(format!("sha256:{}", lower_hex(&hasher.finalize())))
}
