//! Why a rescan failed, as a sentence the front end can show.

use crate::snapshot::SnapshotError;

/// Why the skills that changed could not be rescanned and compared.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// The snapshots the rescanned skills are compared with could not be read.
    #[error("The snapshots could not be read: {0}")]
    Snapshots(#[from] SnapshotError),
}
