//! `apm.lock.yaml`, Microsoft APM's project lock, read for the per-file SHA-256 it records of
//! the skill files it deployed (locks-audit-and-agent-changes.md §3).
//!
//! Evidence, microsoft/apm at commit 3aa0365540e3d9ef4685740cea6a09094ff35377 (v0.28.0+2):
//! - `src/apm_cli/deps/lockfile.py` (`SUPPORTED_LOCKFILE_VERSIONS = {"1", "2"}`,
//!   `_validate_lockfile_container`): `lockfile_version` is the string `"1"` or `"2"`, a file
//!   without one is a legacy v1, any other version is refused ("fails closed"); the root is a
//!   mapping, `dependencies` a list of mappings, `local_deployed_file_hashes` a mapping, and a
//!   null one of them is empty.
//! - `docs/src/content/docs/reference/lockfile-spec.md`: each dependency's
//!   `deployed_file_hashes` and the project's own `local_deployed_file_hashes` map a
//!   project-relative path to its SHA-256; directory entries (trailing `/`) have none; unknown
//!   fields are added within a version and ignored by older readers.
//! - `src/apm_cli/utils/content_hash.py` (`compute_file_hash`, `_canonical_hash_bytes`): a
//!   file's hash is `sha256:<hex>` of its bytes, with `\r\n` made `\n` when the bytes are
//!   UTF-8 without a NUL (bare `\r` kept); binary bytes are hashed raw. Older locks and APM's
//!   own fixtures (`tests/integration/fixtures/.../minimal_skill/apm.lock.yaml`) write the
//!   bare hex, so both are read.
//! - `src/apm_cli/integration/targets.py` (`KNOWN_TARGETS`, `apply_legacy_skill_paths`): where
//!   skills are deployed — `.agents/skills` for copilot, cursor, opencode, gemini, codex,
//!   windsurf, antigravity, agent-skills, openclaw and hermes; `.claude/skills`,
//!   `.kiro/skills`, `.grok/skills`; and with `--legacy-skill-paths` each target's own root
//!   (`.github/skills`, `.cursor/skills`, `.opencode/skills`, `.gemini/skills`,
//!   `.codex/skills`, `.windsurf/skills`). Each skill is a folder `ROOT/skills/NAME/`.
//!
//! The lock comes with a repository and is read as untrusted: a path that is absolute, climbs
//! with `..`, holds a backslash or control characters, or a hash that is not a SHA-256,
//! refuses the whole lock with a sentence naming the entry.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::fs::{Links, read_bounded};
use crate::limits::APM_LOCK_BYTES;
use crate::record::lower_hex;

/// The lock's file name, at a project's root beside `apm.yml`.
pub const APM_LOCK_FILE: &str = "apm.lock.yaml";

/// The lockfile versions APM reads (`SUPPORTED_LOCKFILE_VERSIONS`).
pub const APM_VERSIONS: [&str; 2] = ["1", "2"];

/// The folders APM deploys skills below, each holding `skills/NAME/` (targets.py, above).
pub const SKILL_ROOTS: [&str; 10] = [
    ".agents",
    ".claude",
    ".github",
    ".cursor",
    ".kiro",
    ".opencode",
    ".gemini",
    ".grok",
    ".codex",
    ".windsurf",
];

/// What APM records of one deployed skill file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillFile {
    /// The skill's folder, relative to the project: `.agents/skills/NAME`.
    pub dir: String,
    /// The skill's name: its folder's name.
    pub name: String,
    /// The file below the skill's folder, `/`-separated.
    pub file: String,
    /// The recorded SHA-256, 64 lowercase hexadecimal digits.
    pub sha256: String,
}

/// An `apm.lock.yaml`: the skill files it records, by project-relative path. Files that are
/// not in a skill folder (instructions, agents, prompts, hooks) are not kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApmLock {
    pub files: BTreeMap<String, SkillFile>,
}

/// Why an `apm.lock.yaml` is not read.
#[derive(Debug, thiserror::Error)]
pub enum ApmLockError {
    #[error("{} could not be read: {}", .path.display(), crate::fs::said(.source))]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not an APM lock: {reason}", .path.display())]
    NotALock { path: PathBuf, reason: String },
    #[error(
        "{} is an APM lock of version {found:?}; skilldeck knows versions \"1\" and \"2\", and refuses to guess what another means",
        .path.display()
    )]
    Version { path: PathBuf, found: String },
    #[error("{}, {owner}: {what}", .path.display())]
    Entry {
        path: PathBuf,
        owner: String,
        what: ApmEntryProblem,
    },
}

/// What is wrong with one recorded file, as a clause after the entry's name.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApmEntryProblem {
    #[error("the path {0:?} is empty or absolute; a lock names paths relative to the project")]
    Absolute(String),
    #[error("the path {0:?} climbs out of the project with '..'")]
    Climbs(String),
    #[error("the path {0:?} holds a backslash, which APM never writes")]
    Backslash(String),
    #[error("the path {0:?} holds control characters")]
    Controls(String),
    #[error("the hash of {path:?}, {hash:?}, is not a SHA-256 (64 hexadecimal digits)")]
    NotAHash { path: String, hash: String },
}

/// The fields read; every other is APM's and ignored, as older APM clients ignore them.
#[derive(Deserialize)]
struct Raw {
    lockfile_version: Option<String>,
    dependencies: Option<Vec<RawDependency>>,
    local_deployed_file_hashes: Option<BTreeMap<String, String>>,
}

#[derive(Deserialize)]
struct RawDependency {
    repo_url: Option<String>,
    deployed_file_hashes: Option<BTreeMap<String, String>>,
}

impl ApmLock {
    /// The lock at `path`; `None` when there is none. Read to [`APM_LOCK_BYTES`].
    ///
    /// # Errors
    /// [`ApmLockError`] when it cannot be read or is not a lock skilldeck can trust.
    pub fn read(path: &Path) -> Result<Option<Self>, ApmLockError> {
        match read_bounded(path, Links::Follow, APM_LOCK_BYTES) {
            Ok(bytes) => Self::parse(&bytes, path).map(Some),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(ApmLockError::Read {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// The lock `bytes` hold, read from `path` (named in every refusal).
    ///
    /// # Errors
    /// [`ApmLockError`] naming the first thing wrong.
    pub fn parse(bytes: &[u8], path: &Path) -> Result<Self, ApmLockError> {
        let not_a_lock = |reason: String| ApmLockError::NotALock {
            path: path.to_path_buf(),
            reason,
        };
        let text = std::str::from_utf8(bytes)
            .map_err(|_| not_a_lock("it is not UTF-8 text".to_owned()))?;
        let raw: Raw =
            serde_saphyr::from_str(text).map_err(|error| not_a_lock(error.to_string()))?;
        if let Some(found) = raw.lockfile_version
            && !APM_VERSIONS.contains(&found.as_str())
        {
            return Err(ApmLockError::Version {
                path: path.to_path_buf(),
                found,
            });
        }
        let mut lock = ApmLock::default();
        let mut add = |owner: &str, hashes: BTreeMap<String, String>| {
            for (file, hash) in hashes {
                let entry = |what| ApmLockError::Entry {
                    path: path.to_path_buf(),
                    owner: owner.to_owned(),
                    what,
                };
                check_path(&file).map_err(entry)?;
                let sha256 = sha256_of(&hash).ok_or_else(|| {
                    entry(ApmEntryProblem::NotAHash {
                        path: file.clone(),
                        hash: hash.clone(),
                    })
                })?;
                if let Some(skill) = skill_file(&file, sha256) {
                    lock.files.insert(file, skill);
                }
            }
            Ok(())
        };
        for (index, dependency) in raw.dependencies.unwrap_or_default().into_iter().enumerate() {
            let owner = dependency.repo_url.map_or_else(
                || format!("dependency {}", index + 1),
                |url| format!("dependency {url:?}"),
            );
            add(&owner, dependency.deployed_file_hashes.unwrap_or_default())?;
        }
        add(
            "the project's own files",
            raw.local_deployed_file_hashes.unwrap_or_default(),
        )?;
        Ok(lock)
    }
}

/// A recorded path: relative to the project, `/`-separated, never leading out of it.
fn check_path(path: &str) -> Result<(), ApmEntryProblem> {
    let owned = || path.to_owned();
    if path.is_empty()
        || path.starts_with('/')
        || path.starts_with('~')
        || path.as_bytes().get(1) == Some(&b':')
    {
        return Err(ApmEntryProblem::Absolute(owned()));
    }
    if path.contains('\\') {
        return Err(ApmEntryProblem::Backslash(owned()));
    }
    if path.chars().any(char::is_control) {
        return Err(ApmEntryProblem::Controls(owned()));
    }
    if path.split('/').any(|part| part == "..") {
        return Err(ApmEntryProblem::Climbs(owned()));
    }
    Ok(())
}

/// The 64 lowercase hex digits of a recorded hash, `sha256:HEX` or the bare `HEX`.
fn sha256_of(hash: &str) -> Option<String> {
    let hex = hash.strip_prefix("sha256:").unwrap_or(hash);
    (hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| hex.to_ascii_lowercase())
}

/// The skill a recorded path is a file of: `ROOT/skills/NAME/FILE` with ROOT one of
/// [`SKILL_ROOTS`]; `None` for any other path.
fn skill_file(path: &str, sha256: String) -> Option<SkillFile> {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let [root, "skills", name, rest @ ..] = parts.as_slice() else {
        return None;
    };
    if !SKILL_ROOTS.contains(root) || rest.is_empty() {
        return None;
    }
    Some(SkillFile {
        dir: format!("{root}/skills/{name}"),
        name: (*name).to_owned(),
        file: rest.join("/"),
        sha256,
    })
}

/// A file's hash as APM records it (`compute_file_hash`): SHA-256 over its bytes, with each
/// `\r\n` made `\n` when they are UTF-8 text without a NUL, so a Windows checkout hashes the
/// same; any other bytes are hashed as they are.
pub fn apm_file_hash(bytes: &[u8]) -> String {
    let text = (!bytes.contains(&0))
        .then(|| std::str::from_utf8(bytes).ok())
        .flatten();
    let digest = match text {
        Some(text) => Sha256::digest(text.replace("\r\n", "\n").as_bytes()),
        None => Sha256::digest(bytes),
    };
    lower_hex(&digest)
}

#[cfg(test)]
mod tests;
