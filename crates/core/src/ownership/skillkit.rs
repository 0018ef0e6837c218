//! SkillKit's records (peer-tools.md §4.4): `.skillkit.json` inside each skill folder it
//! installs, and `~/.skillkit/lock.json`, keyed `<source>:<name>`, naming each install's
//! folder. Both may carry a `checksum`: the first 16 hex digits of SHA-256 over `SKILL.md`
//! alone, computed on the installed copy, so it can be recomputed; the skill's other files are
//! in no record and cannot be checked.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;
use sha2::{Digest as _, Sha256};

use super::{
    Attribution, FileProblem, Installer, Method, Owner, Subject, Upstream, Verdict, read_json,
};
use crate::record::lower_hex;
use crate::roots::{Environment, Scope};
use crate::skill::read_manifest;

/// The file SkillKit writes into a skill it installs.
const METADATA_FILE: &str = ".skillkit.json";
/// The lock's version SkillKit writes.
const LOCK_VERSION: u64 = 1;

/// A record in either file; every field optional, as versions differ.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    source: Option<String>,
    subpath: Option<String>,
    checksum: Option<String>,
    path: Option<String>,
}

#[derive(Debug, Deserialize)]
struct LockFile {
    version: Option<serde_json::Value>,
    #[serde(default)]
    skills: BTreeMap<String, Entry>,
}

/// SkillKit's lock, its entries by the folder they installed.
#[derive(Debug, Default)]
pub struct Lock {
    path: PathBuf,
    by_dir: BTreeMap<PathBuf, Entry>,
    /// Why the lock, there, could not be read.
    broken: Option<FileProblem>,
}

impl Lock {
    /// `~/.skillkit/lock.json`, when there is one.
    pub fn read(env: &Environment, problems: &mut Vec<FileProblem>) -> Self {
        let path = env.home().join(".skillkit/lock.json");
        let file: LockFile = match read_json(&path) {
            Ok(Some(file)) => file,
            Ok(None) => return Self::default(),
            Err(problem) => {
                problems.push(problem.clone());
                return Self {
                    broken: Some(problem),
                    ..Self::default()
                };
            }
        };
        let version = file.version.as_ref().and_then(serde_json::Value::as_u64);
        if version != Some(LOCK_VERSION) {
            problems.push(FileProblem::Version {
                path: path.clone(),
                what: "a SkillKit lock",
                found: version.map_or_else(|| "(none)".to_owned(), |v| v.to_string()),
                consequence: "SkillKit writes version 1; its entries are read as version 1",
            });
        }
        let by_dir = file
            .skills
            .into_values()
            .filter_map(|entry| Some((PathBuf::from(entry.path.clone()?), entry)))
            .collect();
        Self {
            path,
            by_dir,
            broken: None,
        }
    }

    /// Why the lock that would have been looked in for `subject` could not be read: SkillKit
    /// installs into agents' folders of either scope, so any skill directly in a root may be
    /// one of its.
    pub fn broken_for(&self, subject: &Subject<'_>) -> Option<&FileProblem> {
        self.broken
            .as_ref()
            .filter(|_| subject.directly_in(Scope::User) || subject.directly_in(Scope::Project))
    }
}

/// SkillKit's record of `subject`: its own `.skillkit.json`, else a lock entry naming its
/// folder.
pub fn attribute(subject: &Subject<'_>, lock: &Lock) -> Option<Attribution> {
    let (owner, entry) = if subject.has_file(METADATA_FILE) {
        let path = subject.real_dir.join(METADATA_FILE);
        let owner = Owner::new(Installer::Skillkit, path.clone());
        match read_json::<Entry>(&path) {
            Ok(Some(entry)) => (owner, entry),
            Ok(None) => return None,
            Err(problem) => return Some(Attribution::unreadable_record(owner, problem)),
        }
    } else {
        let entry = lock
            .by_dir
            .get(subject.dir)
            .or_else(|| lock.by_dir.get(subject.real_dir))?;
        (
            Owner::new(Installer::Skillkit, lock.path.clone()),
            entry.clone(),
        )
    };
    let owner = owner
        .with_upstream(Upstream {
            repository: entry.source,
            path: entry.subpath,
            ..Upstream::default()
        })
        .with_hash(entry.checksum.as_deref().unwrap_or(""));
    let verdict = match entry.checksum.as_deref() {
        None | Some("") => Verdict::unverifiable("SkillKit recorded no checksum for it"),
        Some(recorded) => match read_manifest(subject.real_dir) {
            Ok(bytes) => {
                let now = lower_hex(&Sha256::digest(&bytes));
                Verdict::compare(Method::SkillkitChecksum, &now[..16], recorded).noting(
                    "SkillKit's checksum covers SKILL.md only; the skill's other files are in no record",
                )
            }
            Err(error) => Verdict::unreadable(error),
        },
    };
    Some(verdict.for_owner(owner))
}
