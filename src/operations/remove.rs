//! Remove: take a skill off the machine, snapshotted first so `undo` can bring it back. A link
//! is unlinked, never followed; a plugin's or an agent's built-in skill is not removed here.

use std::path::{Path, PathBuf};

use crate::roots::Machine;
use crate::scan::Skill;

use super::journal::JournalError;

/// What a removal did.
#[derive(Debug)]
pub struct Removed {
    /// Every path removed: the folder, and the links that reached it.
    pub removed: Vec<PathBuf>,
    /// The snapshot that keeps the folder's files, when a folder (not only a link) went.
    pub kept: Option<String>,
    /// A skills-CLI canonical copy no link uses any more, which the user may remove too.
    pub unused_canonical: Option<PathBuf>,
    /// Installers' lock files that still list the skill.
    pub stale_locks: Vec<PathBuf>,
    pub unjournalled: Option<JournalError>,
}

/// Why nothing was removed.
#[derive(Debug, thiserror::Error)]
pub enum RemoveError {
    #[error("removing skills is being built (issue 13)")]
    Unbuilt,
}

impl RemoveError {
    /// Whether skilldeck refused, rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        true
    }
}

/// Remove `skill`: its folder and every link that reaches it, or only the link `only` when
/// that is one of the paths it is reached by.
///
/// # Errors
/// [`RemoveError`] says why not; nothing was removed.
pub fn remove(
    machine: &Machine,
    skill: &Skill,
    only: Option<&Path>,
) -> Result<Removed, RemoveError> {
    let _ = (machine, skill, only);
    Err(RemoveError::Unbuilt)
}
