//! A skill folder's `computedHash` as the skills CLI would record it for the same skill: its
//! folder hash (`ownership::skills_cli::computed_hash`, the one implementation of the CLI's
//! rule) over the files as the CLI would install them from upstream. The one thing skilldeck
//! adds to an installed skill is its record in the `SKILL.md` frontmatter
//! (`record::stamp`); the hash is taken over that file with the record taken back out
//! (`record::unstamp`, proved by stamping again), so a skill imported by skilldeck and the same
//! skill installed by the skills CLI hash alike.

use std::io;
use std::path::{Path, PathBuf};

use crate::fs::{Links, read_bounded};
use crate::limits::MANIFEST_BYTES;
use crate::ownership::skills_cli;
use crate::record::unstamp;
use crate::skill::SKILL_FILE;

/// Why a skill folder could not be hashed.
#[derive(Debug, thiserror::Error)]
#[error("the files of {} could not be hashed: {}", .dir.display(), crate::fs::said(.source))]
pub struct HashError {
    pub dir: PathBuf,
    pub source: io::Error,
}

/// The `computedHash` of the skill folder `dir`, and the paths it covers in the order hashed.
///
/// # Errors
/// [`HashError`] when a file cannot be read or a bound of the digest is passed.
pub fn computed_hash(dir: &Path) -> Result<String, HashError> {
    let failed = |source| HashError {
        dir: dir.to_path_buf(),
        source,
    };
    let manifest = upstream_manifest(dir).map_err(failed)?;
    skills_cli::computed_hash(dir, manifest.as_deref().map(str::as_bytes)).map_err(failed)
}

/// The `SKILL.md` of `dir` as it was before skilldeck's record was written into it; `None`
/// when it carries no record to take out (it is hashed as it is).
fn upstream_manifest(dir: &Path) -> io::Result<Option<String>> {
    let bytes = match read_bounded(&dir.join(SKILL_FILE), Links::Refuse, MANIFEST_BYTES) {
        Ok(bytes) => bytes,
        // The walk says what is wrong with a missing or linked SKILL.md, if anything.
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) if error.kind() == io::ErrorKind::FileTooLarge => return Err(error),
        Err(_) => return Ok(None),
    };
    Ok(std::str::from_utf8(&bytes).ok().and_then(unstamp))
}

#[cfg(test)]
mod tests;
