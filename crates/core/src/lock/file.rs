//! `skills-lock.json`, the skills CLI's project lock (locks-audit-and-agent-changes.md §2, read
//! from skills 1.7.4 `dist/cli.mjs`: `readLocalLock`, `writeLocalLock`, `projectLockEntry`),
//! read and written exactly as the CLI does:
//! - `{"version": 1, "skills": {NAME: ENTRY}}`, `JSON.stringify(_, null, 2)` and a newline;
//! - the skills sorted by `Object.keys(skills).sort()` (UTF-16 code units, not
//!   `localeCompare`), other top-level fields dropped, as the CLI drops them;
//! - an entry's fields in the order the CLI makes them (`source`, `sourceUrl`, `ref`,
//!   `sourceType`, `skillPath`, `computedHash`), every field of an entry read from disk kept
//!   where it was, unknown ones included: the CLI spreads entries it does not touch;
//! - a `local` source written relative to the lock's folder (`./x`, `../x`, `.`), as
//!   `getPortableLocalSource` writes it.
//!
//! A lock is untrusted input: it comes with a repository. Anything `sync` or `verify` would
//! turn into a path or a git argument is checked here, before any of it is used, and a lock
//! with one bad entry is refused whole, with a sentence naming the entry and the field.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use checks::check_entry;
pub use checks::{EntryProblem, check_name};

use super::json::{self, Json, Object};
use crate::fs::{Links, read_bounded};
use crate::limits::RECORD_FILE_BYTES;

/// The lock's file name, at a project's root.
pub const LOCK_FILE: &str = "skills-lock.json";

/// The only version the skills CLI writes and skilldeck knows.
pub const VERSION: u64 = 1;

/// The field skilldeck adds to an entry: the commit the skill's files were fetched at. The
/// CLI records only a branch or tag (`ref`), which moves; a commit pins the files. Named in
/// the CLI's own style, and kept by it: it spreads the entries it does not touch, so the field
/// survives the CLI's rewrites, and is dropped only from an entry the CLI installs again —
/// when the commit would no longer be true.
pub const COMMIT_FIELD: &str = "commit";

/// What `sourceType` a skill with no source skilldeck knows of is locked as: its files are
/// the project's own.
pub const LOCAL: &str = "local";

/// The fields of an entry the skills CLI and skilldeck write; any other is passed through.
const WRITTEN: [&str; 7] = [
    "source",
    "sourceUrl",
    "ref",
    "sourceType",
    "skillPath",
    "computedHash",
    COMMIT_FIELD,
];

/// A `skills-lock.json`: its skills by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkillsLock {
    pub skills: BTreeMap<String, Entry>,
}

/// One skill's entry, every field of it in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry(Object);

/// Where a locked skill comes from, as an entry records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Locked {
    /// `owner/repo`, a URL, or for a `local` source a path relative to the lock's folder.
    pub source: String,
    pub source_type: String,
    pub source_url: Option<String>,
    pub reference: Option<String>,
    /// The skill's `SKILL.md` in the source, `skills/x/SKILL.md`.
    pub skill_path: Option<String>,
    pub computed_hash: String,
    pub commit: Option<String>,
}

impl Entry {
    /// A new entry, its fields in the CLI's order and skilldeck's commit last.
    pub fn new(locked: &Locked) -> Self {
        let mut object = Object::default();
        let text = |s: &str| Json::String(s.to_owned());
        object.insert("source", text(&locked.source));
        if let Some(url) = &locked.source_url {
            object.insert("sourceUrl", text(url));
        }
        if let Some(reference) = &locked.reference {
            object.insert("ref", text(reference));
        }
        object.insert("sourceType", text(&locked.source_type));
        if let Some(path) = &locked.skill_path {
            object.insert("skillPath", text(path));
        }
        object.insert("computedHash", text(&locked.computed_hash));
        if let Some(commit) = &locked.commit {
            object.insert(COMMIT_FIELD, text(commit));
        }
        Self(object)
    }

    /// This entry with what `locked` records written over the fields the skills CLI and
    /// skilldeck write (a field `locked` has not is taken out), its other fields kept where
    /// they are.
    pub fn updated(&self, locked: &Locked) -> Entry {
        let fresh = Entry::new(locked);
        let mut object = Object::default();
        for (key, value) in self.0.iter() {
            if !WRITTEN.contains(&key) {
                object.insert(key, value.clone());
            } else if let Some(value) = fresh.0.get(key) {
                object.insert(key, value.clone());
            }
        }
        for (key, value) in fresh.0.iter() {
            if self.0.get(key).is_none() {
                object.insert(key, value.clone());
            }
        }
        Entry(object)
    }

    fn text(&self, key: &str) -> Option<&str> {
        match self.0.get(key) {
            Some(Json::String(s)) => Some(s),
            _ => None,
        }
    }

    /// What the entry records; its fields were checked when it was read or made.
    pub fn locked(&self) -> Locked {
        let owned = |key| self.text(key).map(str::to_owned);
        Locked {
            source: owned("source").unwrap_or_default(),
            source_type: owned("sourceType").unwrap_or_default(),
            source_url: owned("sourceUrl"),
            reference: owned("ref"),
            skill_path: owned("skillPath"),
            computed_hash: owned("computedHash").unwrap_or_default(),
            commit: owned(COMMIT_FIELD),
        }
    }

    /// The entry as the CLI writes it back: a `local` source made portable.
    fn written(&self) -> Json {
        let mut object = self.0.clone();
        if self.text("sourceType") == Some(LOCAL)
            && let Some(source) = self.text("source")
        {
            object.insert("source", Json::String(portable_local(source)));
        }
        Json::Object(object)
    }
}

/// Why a lock was not read; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("{} could not be read: {}", .path.display(), crate::fs::said(.source))]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not JSON: {reason}", .path.display())]
    NotJson { path: PathBuf, reason: String },
    #[error("{} is not a skills lock: {what}", .path.display())]
    Shape { path: PathBuf, what: String },
    #[error(
        "{} is a skills lock of version {found}; skilldeck knows only version {VERSION}, and refuses to guess what another version means",
        .path.display()
    )]
    Version { path: PathBuf, found: String },
    #[error("{}, skill {name:?}: {what}", .path.display())]
    Entry {
        path: PathBuf,
        name: String,
        what: EntryProblem,
    },
}

impl SkillsLock {
    /// The lock at `path`; `None` when there is none. Read to [`RECORD_FILE_BYTES`].
    ///
    /// # Errors
    /// [`LockError`] when it cannot be read or is not a lock skilldeck can trust.
    pub fn read(path: &Path) -> Result<Option<Self>, LockError> {
        match read_bounded(path, Links::Follow, RECORD_FILE_BYTES) {
            Ok(bytes) => Self::parse(&bytes, path).map(Some),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(LockError::Read {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// The lock `bytes` hold, read from `path` (named in every refusal).
    ///
    /// # Errors
    /// [`LockError`] naming the first thing wrong.
    pub fn parse(bytes: &[u8], path: &Path) -> Result<Self, LockError> {
        let shape = |what: &str| LockError::Shape {
            path: path.to_path_buf(),
            what: what.to_owned(),
        };
        let value: Json = serde_json::from_slice(bytes).map_err(|error| LockError::NotJson {
            path: path.to_path_buf(),
            reason: error.to_string(),
        })?;
        let Json::Object(top) = value else {
            return Err(shape("it is not a JSON object"));
        };
        match top.get("version") {
            Some(Json::Number(n)) if n.as_u64() == Some(VERSION) => {}
            Some(Json::Number(n)) => {
                return Err(LockError::Version {
                    path: path.to_path_buf(),
                    found: n.to_string(),
                });
            }
            _ => return Err(shape("it has no numeric \"version\"")),
        }
        let Some(Json::Object(skills)) = top.get("skills") else {
            return Err(shape("it has no \"skills\" object"));
        };
        let mut lock = SkillsLock::default();
        for (name, value) in skills.iter() {
            let refuse = |what: EntryProblem| LockError::Entry {
                path: path.to_path_buf(),
                name: name.to_owned(),
                what,
            };
            let Json::Object(fields) = value else {
                return Err(refuse(EntryProblem::NotAnObject));
            };
            check_entry(name, fields).map_err(refuse)?;
            lock.skills.insert(name.to_owned(), Entry(fields.clone()));
        }
        Ok(lock)
    }

    /// The file's text as the CLI writes it.
    pub fn render(&self) -> String {
        let mut names: Vec<&String> = self.skills.keys().collect();
        names.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        let mut skills = Object::default();
        for name in names {
            skills.insert(name.clone(), self.skills[name].written());
        }
        let mut top = Object::default();
        top.insert("version", Json::Number(VERSION.into()));
        top.insert("skills", Json::Object(skills));
        let mut text = json::stringify(&Json::Object(top));
        text.push('\n');
        text
    }
}

/// A relative local source as `getPortableLocalSource` writes it: `.` and `x/..` folded,
/// `./` before a path that does not climb.
fn portable_local(source: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in source.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|last| *last != "..") => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    let joined = parts.join("/");
    if joined.is_empty() {
        ".".to_owned()
    } else if joined == ".." || joined.starts_with("../") {
        joined
    } else {
        format!("./{joined}")
    }
}

mod checks;
#[cfg(test)]
mod tests;
