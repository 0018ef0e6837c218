//! Why a worker's task did not do what the person asked: typed, each with the sentence they
//! read. A worker hands one back in its message and `update` makes it display-safe where it
//! keeps it (`text::sanitize`), so what an operation's error says of a path or a name from
//! disk never reaches the terminal raw.

use crate::operations::share::ShareError;
use crate::operations::undo::UndoError;
use crate::snapshot::SnapshotError;
use crate::snapshot::restore::RestoreError;

pub use crate::tui::failed::Stopped;

/// Why a diff could not be made.
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    #[error(transparent)]
    Stopped(#[from] Stopped),
    #[error(
        "No snapshot of {name} was taken, and its installer keeps no copy of it to compare with: {key} takes a snapshot now, and later changes can be diffed against it."
    )]
    NoBaseline {
        name: String,
        /// The key that takes a snapshot.
        key: String,
    },
    #[error("{0}")]
    Snapshot(#[from] SnapshotError),
}

/// Why a task (a snapshot, an accept, a restore, a snapshot's delete, an undo or the question
/// before one) did nothing.
#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    #[error(transparent)]
    Stopped(#[from] Stopped),
    #[error("{0}")]
    Snapshot(#[from] SnapshotError),
    #[error("{name} was not restored: {source}")]
    Restore { name: String, source: RestoreError },
    #[error("Snapshot {id} of {name} was not deleted: {source}")]
    Delete {
        id: String,
        name: String,
        source: SnapshotError,
    },
    /// The journal could not say what an undo would put back.
    #[error("Nothing can be undone: {0}")]
    UndoNext(UndoError),
    #[error("Nothing was undone: {0}")]
    Undo(UndoError),
}

/// Why one skill of a link, copy or move has no plan.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error(transparent)]
    Stopped(#[from] Stopped),
    /// The folder, as shown, holds no skill since the question was asked.
    #[error("no skill is at {0} any more")]
    Gone(String),
    #[error("{0}")]
    Share(#[from] ShareError),
}
