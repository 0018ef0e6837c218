//! Why a worker's work failed, as the messages carry it to `update`: the core's error, or
//! the panic that stopped the worker; each says its sentence display-safe, as the app shows it.

use crate::bundle::Refusal;
use crate::operations::import::ImportError;
use crate::operations::peek::PeekError;
use crate::skill;
use crate::snapshot::SnapshotError;
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
