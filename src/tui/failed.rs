//! Why a worker's work failed, as the messages carry it to `update`: the core's error, or
//! the panic that stopped the worker. Most say their sentence display-safe, as the app shows
//! it; a task's errors (`DiffError`, `TaskError`, `PlanError`) are made display-safe where
//! `update` keeps them (`text::sanitize`), so what an operation's error says of a path or a
//! name from disk never reaches the terminal raw.

use crate::bundle::Refusal;
use crate::operations::import::ImportError;
use crate::operations::peek::PeekError;
use crate::operations::share::ShareError;
use crate::operations::undo::UndoError;
use crate::skill;
use crate::snapshot::SnapshotError;
use crate::snapshot::restore::RestoreError;
use crate::text::sanitize;

/// What a worker was doing when it panicked, and the panic's message, display-safe.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{work} stopped: {panic}")]
pub struct Stopped {
    /// The work, as the start of a sentence: "Reading the history".
    pub work: &'static str,
    /// What the panic said, display-safe.
    pub panic: String,
}

/// Why the skills could not be compared with their snapshots.
#[derive(Debug, thiserror::Error)]
pub enum ChangesFailed {
    #[error("{}", sanitize::line(&format!("The snapshots could not be read: {}", .0)))]
    Unreadable(#[from] SnapshotError),
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// Why a skill's `SKILL.md` cannot be shown in the preview.
#[derive(Debug, thiserror::Error)]
pub enum PreviewFailed {
    #[error("{}", sanitize::line(&.0.to_string()))]
    Unreadable(#[from] skill::ManifestError),
    /// The preview pane says so in its own words: its title names the file already.
    #[error("Reading it failed: {}", .0.panic)]
    Stopped(Stopped),
}

/// Why a file of a skill cannot be shown in the viewer.
#[derive(Debug, thiserror::Error)]
pub enum ReadFailed {
    #[error("{}", sanitize::line(&.0.to_string()))]
    Unreadable(#[from] PeekError),
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// Why a skill's history could not be read.
#[derive(Debug, thiserror::Error)]
pub enum HistoryFailed {
    /// `shown` is the skill's folder as the person sees it (`~/…`).
    #[error("{}", sanitize::line(&format!("The history of {shown} could not be read: {source}")))]
    Unreadable {
        shown: String,
        source: SnapshotError,
    },
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// Why a folder could not be listed in the import's picker.
#[derive(Debug, thiserror::Error)]
pub enum ListingFailed {
    /// `shown` is the folder as the person sees it (`~/…`).
    #[error("{}", sanitize::line(&format!("{shown} cannot be listed: {source}")))]
    Unlistable {
        shown: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// Why an import put nothing more in place: the skills chosen were refused, the install
/// failed, or the worker stopped.
#[derive(Debug, thiserror::Error)]
pub enum ImportFailed {
    #[error("{}", sanitize::line(&.0.to_string()))]
    Refused(#[from] Refusal),
    #[error("{}", sanitize::line(&.0.to_string()))]
    Failed(#[from] ImportError),
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

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
