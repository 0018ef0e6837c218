//! A folder skilldeck moved is not gone: its history remembers where the skill went, so the
//! "changed" view does not list the old place as a skill that disappeared while the skill
//! lives on at the new one (where its baseline went with it, and its own history starts).
//!
//! The note is a dot file in the old folder's history (`.moved-to`, the new folder's path),
//! written after the move; taking a snapshot of the old folder again (a skill is there once
//! more) drops it. It is honoured only while the new folder holds a skill, so a skill moved
//! and then deleted there, or a move undone, is gone again where it was.

use std::fs;
use std::path::{Path, PathBuf};

use crate::fs::replace_file;

use super::store::MOVED_FILE;
use super::{Snapshot, SnapshotError, Store};

impl Store {
    /// Note that skilldeck moved the skill folder `from` (whose history this is) to `to`.
    ///
    /// # Errors
    /// When the note cannot be written; the move stands, and the old place reads as gone.
    pub fn note_moved(&self, from: &Path, to: &Path) -> Result<(), SnapshotError> {
        let history = self.history_of(from);
        if !history.is_dir() {
            return Ok(());
        }
        let path = history.join(MOVED_FILE);
        replace_file(&path, to.as_os_str().as_encoded_bytes())
            .map_err(|source| SnapshotError::write(path, source))
    }
}

/// Where the folder `latest` (the latest snapshot of a folder that is gone) was moved to by
/// skilldeck, while a skill is there.
pub fn moved_to(latest: &Snapshot) -> Option<PathBuf> {
    let note = latest.path.parent()?.join(MOVED_FILE);
    let bytes = fs::read(note).ok()?;
    // The store can be edited by whoever can write the home: only an absolute path that holds
    // a skill now is believed, and it only keeps a folder off the list of those gone.
    let to = PathBuf::from(String::from_utf8(bytes).ok()?);
    (to.is_absolute() && to.join("SKILL.md").is_file()).then_some(to)
}
