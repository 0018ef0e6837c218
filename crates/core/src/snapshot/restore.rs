//! Putting a snapshot back where its skill lives.
//!
//! What the folder holds first becomes a snapshot, synced to disk; then the snapshot's files
//! are staged beside the skills folder and swapped in with one atomic exchange under the
//! root's lock ([`crate::install`]), so a crash leaves the old folder or the restored one. The
//! restored content is then snapshotted too, so it is the baseline diffs compare against.
//!
//! A restore replaces the whole folder, so it refuses when that would lose what a snapshot
//! cannot hold: links out of the skill, version-control data, FIFOs, or a folder over the copy
//! bound. It also refuses a truncated snapshot, which holds only `SKILL.md`.
//!
//! The folder restored is the one the user named, never one the snapshot's record names: the
//! two must be the same, and the snapshot must be kept in that folder's history. Its files are
//! read and checked against its digest before anything is staged, so an edited store can
//! neither aim a restore at another folder nor put back what the snapshot never held.

use std::fs;
use std::path::{Path, PathBuf};

use crate::install::{RootLock, SwapError};

use super::losses::{WouldLose, nothing_lost};
use super::{Reason, Snapshot, SnapshotError, Store};

/// Why a snapshot was not restored. The folder is as it was.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error(
        "snapshot {0} holds only SKILL.md (its skill was over the copy bound), so it cannot bring the skill back"
    )]
    Truncated(String),
    #[error(transparent)]
    WouldLose(#[from] WouldLose),
    #[error("{} has no parent folder to restore it into", .0.display())]
    NoParent(PathBuf),
    #[error(
        "{} is gone and lies in no root skilldeck knows, so it is not created there",
        .0.display()
    )]
    NotInARoot(PathBuf),
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    #[error(transparent)]
    Swap(#[from] SwapError),
    #[error("the restore could not say ahead what it was about to do, so nothing was changed: {0}")]
    NotAnnounced(std::io::Error),
}

impl RestoreError {
    /// Whether skilldeck refused, rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        match self {
            RestoreError::Truncated(_) | RestoreError::NotInARoot(_) => true,
            RestoreError::WouldLose(WouldLose::Unreadable(error)) => error.is_refusal(),
            RestoreError::WouldLose(_) => true,
            RestoreError::Snapshot(error) => error.is_refusal(),
            RestoreError::NoParent(_) | RestoreError::Swap(_) | RestoreError::NotAnnounced(_) => {
                false
            }
        }
    }
}

/// What a restore did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restored {
    /// The snapshot of what the folder held before; `None` when the folder was gone.
    pub replaced: Option<Snapshot>,
    /// The snapshot of the restored content, now the latest.
    pub baseline: Snapshot,
}

/// Restore `snapshot` into the folder at `named`, the one the user named, which must be the
/// folder it was taken from.
///
/// `None` when the folder already holds the snapshot's content: the folder is left alone, and
/// only its baseline snapshot is taken if a restore that stopped short never took it.
///
/// # Errors
/// [`RestoreError`] says why; whatever it is, the folder is as it was.
pub fn restore(
    store: &Store,
    named: &Path,
    snapshot: &Snapshot,
) -> Result<Option<Restored>, RestoreError> {
    restore_because(store, named, snapshot, Reason::BeforeRestore)
}

/// [`restore`], with what the folder held kept for `before` (an undo's restore keeps it as
/// [`Reason::BeforeUndo`]); the restored content is kept as [`Reason::Restored`].
///
/// # Errors
/// As [`restore`].
pub fn restore_because(
    store: &Store,
    named: &Path,
    snapshot: &Snapshot,
    before: Reason,
) -> Result<Option<Restored>, RestoreError> {
    restore_announced(store, named, snapshot, before, &mut |_| Ok(()))
}

/// [`restore_because`], telling `announce` what the folder holds (the id of the snapshot that
/// keeps it, or `None` when it is gone) once that is kept and before the folder is swapped:
/// the moment to say ahead what is about to change. An error from it stops the restore with
/// the folder as it was.
///
/// # Errors
/// As [`restore`], and [`RestoreError::NotAnnounced`].
pub fn restore_announced(
    store: &Store,
    named: &Path,
    snapshot: &Snapshot,
    before: Reason,
    announce: &mut dyn FnMut(Option<&str>) -> std::io::Result<()>,
) -> Result<Option<Restored>, RestoreError> {
    if snapshot.info.truncated {
        return Err(RestoreError::Truncated(snapshot.id.clone()));
    }
    // Read and checked whole first: a damaged snapshot is refused before anything is touched.
    let kept = snapshot.read_kept(named)?;
    let dir = &snapshot.info.dir;
    let (Some(root), Some(name)) = (dir.parent(), dir.file_name()) else {
        return Err(RestoreError::NoParent(dir.clone()));
    };
    let name = name.to_string_lossy().into_owned();
    let present = fs::symlink_metadata(dir).is_ok();
    if present {
        let listing = nothing_lost("restoring", dir).map_err(|loss| match loss {
            WouldLose::Unreadable(error) => RestoreError::Snapshot(error),
            loss => RestoreError::WouldLose(loss),
        })?;
        if super::digest::digest_listing(&listing)? == snapshot.info.digest {
            // Already restored, perhaps by a run killed after its swap: sweep what it left
            // beside the root, and keep the baseline it missed (no copy is made when the
            // latest snapshot already holds this content).
            drop(RootLock::acquire(root)?);
            store.take(dir, Reason::Restored)?;
            return Ok(None);
        }
    }
    let lock = RootLock::acquire(root)?;
    let staged = lock.stage(&name)?;
    for file in &kept {
        staged.write(Path::new(&file.rel), &file.bytes, file.executable)?;
    }
    let replaced = if present {
        // Taken last, just before the exchange, so it holds what is being replaced.
        let kept = store.take_before_overwrite(dir, before)?;
        announce(Some(&kept.snapshot.id)).map_err(RestoreError::NotAnnounced)?;
        lock.replace(staged, &name)?;
        Some(kept.snapshot)
    } else {
        announce(None).map_err(RestoreError::NotAnnounced)?;
        lock.put_new(staged, &name)?;
        None
    };
    drop(lock);
    let baseline = store.take(dir, Reason::Restored)?.snapshot;
    Ok(Some(Restored { replaced, baseline }))
}
