//! One skill's history as people read it: every snapshot, oldest first, with its size and
//! what changed since the one before. The command line's `snapshots SKILL` and the app's
//! history view both show this.

use std::path::Path;

use super::{Snapshot, SnapshotError, Store};

/// One snapshot in a skill's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub snapshot: Snapshot,
    /// The bytes its copied files take.
    pub size: u64,
    /// What changed from the snapshot before it; `None` for the first, or when the two could
    /// not be compared (one is damaged).
    pub since_previous: Option<Summary>,
    /// The store was edited or damaged where it is kept: diff and restore refuse it.
    pub damaged: bool,
}

/// What changed between two snapshots, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub files_added: usize,
    pub files_removed: usize,
    pub files_modified: usize,
    pub lines_added: usize,
    pub lines_removed: usize,
}

/// The history of the skill folder at `dir`, oldest first.
///
/// # Errors
/// When the store cannot be read.
pub fn history(store: &Store, dir: &Path) -> Result<Vec<Step>, SnapshotError> {
    let _ = (store, dir);
    todo!("issue 14: history steps")
}
