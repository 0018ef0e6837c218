//! Snapshots: what a skill was, what changed since, and the way back.
//!
//! A snapshot is a kept copy of a skill folder's files with its digest (seed 003, reference
//! `skill-format-and-roots.md` §3). The [`Store`] keeps them under the data directory and never
//! replaces one: a later snapshot that finds different content marks the earlier one changed
//! and is kept beside it. Around the store:
//!
//! - [`walk`] decides which files a snapshot holds (links, version control, special files);
//! - [`diff`] compares a snapshot with the folder on disk, as a model both the command line and
//!   the terminal app draw;
//! - [`changes`] says which skills changed and what each is diffed against (the app's
//!   "changed" view);
//! - [`restore`] puts a snapshot back, atomically, after snapshotting what it replaces;
//! - [`export`] packs a skill into a reproducible archive with its secrets [`redact`]ed.
//!
//! Skilldeck snapshots a skill before it overwrites, updates or restores it with
//! [`Store::take_before_overwrite`], and at import with [`Store::take`] as the baseline; the
//! import operation does both (`operations::import`). Every caller says why ([`Reason`]);
//! [`history`] reads one skill's snapshots back as the steps people browse.

pub mod changes;
pub mod diff;
mod digest;
pub mod export;
pub mod history;
pub mod losses;
pub mod moved;
pub mod reason;
pub mod redact;
pub mod restore;
mod store;
pub mod walk;

use std::io;
use std::path::PathBuf;

pub use digest::{SnapshotDigest, content_digest};
pub use reason::Reason;
pub use store::{Comparison, Damage, Info, Kept, Snapshot, Store, StoreUsage, Taken};

/// The copy bound: a folder whose files add up to more keeps only its `SKILL.md` in a
/// snapshot, and is marked truncated.
pub const COPY_BOUND: u64 = 50 << 20;

/// Why a snapshot could not be taken or read.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("{} is not a skill: it holds no SKILL.md file", .0.display())]
    NotSkill(PathBuf),
    #[error("{} could not be read: {}", .path.display(), crate::fs::said(.source))]
    Read { path: PathBuf, source: io::Error },
    #[error("{} could not be written: {}", .path.display(), crate::fs::said(.source))]
    Write { path: PathBuf, source: io::Error },
    #[error("{} kept changing while it was copied; try again", .0.display())]
    Changed(PathBuf),
    #[error("the snapshot {} is damaged: {reason}", .path.display())]
    Corrupt { path: PathBuf, reason: String },
    #[error("there is no snapshot of {} yet; take one with `skilldeck snapshot`", .0.display())]
    NoSnapshot(PathBuf),
    #[error("no snapshot of {} has the id {id}; `skilldeck snapshots` lists them", .dir.display())]
    UnknownId { id: String, dir: PathBuf },
    #[error("{id} starts the ids of several snapshots ({}); give more of it", .ids.join(", "))]
    AmbiguousId { id: String, ids: Vec<String> },
    #[error("snapshot {id} is damaged: {damage}; skilldeck will not use it")]
    Damaged { id: String, damage: Damage },
    #[error(
        "{} is gone; there is nothing to accept — restore a snapshot to bring it back",
        .0.display()
    )]
    Gone(PathBuf),
    #[error(
        "the held copy of snapshot {0} is gone (a later prune emptied it), so it cannot be put back"
    )]
    HeldGone(String),
    #[error("snapshot {0} is in the store already, so there is nothing to put back")]
    AlreadyBack(String),
    #[error("no snapshot has the id {0}; `skilldeck snapshots` lists them")]
    NoSuchId(String),
    #[error("{id} is the id of snapshots of several skills ({}); name the skill with --skill", .dirs.join(", "))]
    IdOfSeveral { id: String, dirs: Vec<String> },
}

impl SnapshotError {
    fn read(path: PathBuf, source: io::Error) -> Self {
        Self::Read { path, source }
    }

    fn write(path: PathBuf, source: io::Error) -> Self {
        Self::Write { path, source }
    }

    /// Whether the error is about what was asked for, rather than a failure to read or write.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            SnapshotError::NotSkill(_)
                | SnapshotError::NoSnapshot(_)
                | SnapshotError::UnknownId { .. }
                | SnapshotError::AmbiguousId { .. }
                | SnapshotError::Damaged { .. }
                | SnapshotError::Gone(_)
                | SnapshotError::HeldGone(_)
                | SnapshotError::AlreadyBack(_)
                | SnapshotError::NoSuchId(_)
                | SnapshotError::IdOfSeveral { .. }
        )
    }
}
