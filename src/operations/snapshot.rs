//! Snapshot and accept: keep a copy of skill folders as they are now (accept makes that copy
//! the baseline diffs compare against), journalling every snapshot that was new.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::roots::Machine;
use crate::snapshot::{Snapshot, SnapshotError, Store, Taken};

use super::journal::{Change, Journal, JournalError, Operation, Was};

/// What snapshotting some folders did.
#[derive(Debug)]
pub struct Snapshots {
    /// Each folder asked for, in order, with what became of it.
    pub taken: Vec<(PathBuf, Result<Taken, SnapshotError>)>,
    /// The journal could not be told of the new snapshots.
    pub unjournalled: Option<JournalError>,
}

/// Snapshot each of `dirs`, several at once.
pub fn snapshot(machine: &Machine, dirs: Vec<PathBuf>) -> Snapshots {
    let store = Store::open(&machine.env);
    let taken: Vec<(PathBuf, Result<Taken, SnapshotError>)> = dirs
        .into_par_iter()
        .map(|dir| {
            let result = store.take(&dir);
            (dir, result)
        })
        .collect();
    let changes = taken
        .iter()
        .filter_map(|(dir, result)| match result {
            Ok(taken) if taken.fresh => Some(untouched(dir, taken)),
            _ => None,
        })
        .collect();
    let unjournalled = Journal::record(machine, Operation::Snapshot, changes);
    Snapshots {
        taken,
        unjournalled,
    }
}

/// What accepting a skill as it is did.
#[derive(Debug)]
pub struct Accepted {
    pub taken: Taken,
    pub unjournalled: Option<JournalError>,
}

/// Accept the skill folder `dir` as it is now as its new baseline.
///
/// # Errors
/// When the folder is not a skill, a file cannot be read, or the store cannot be written.
pub fn accept(machine: &Machine, dir: &Path) -> Result<Accepted, SnapshotError> {
    let taken = Store::open(&machine.env).accept(dir)?;
    let changes = if taken.fresh {
        vec![untouched(dir, &taken)]
    } else {
        Vec::new()
    };
    let unjournalled = Journal::record(machine, Operation::Accept, changes);
    Ok(Accepted {
        taken,
        unjournalled,
    })
}

/// What deleting a snapshot did.
#[derive(Debug)]
pub struct Deleted {
    pub snapshot: Snapshot,
    /// The bytes it took in the store (now held so `undo` can bring it back).
    pub bytes: u64,
    /// It was the latest of its skill: the one before it is now what diffs compare against.
    pub was_latest: bool,
    pub unjournalled: Option<JournalError>,
}

/// Delete the snapshot `id` (or the start of one) of the skill folder `dir`: held aside and
/// journalled, so `undo` brings it back.
///
/// # Errors
/// When no snapshot or several match, or the store cannot be written.
pub fn delete(machine: &Machine, dir: &Path, id: &str) -> Result<Deleted, SnapshotError> {
    let _ = (machine, dir, id);
    todo!("issue 14: delete a snapshot")
}

fn untouched(dir: &Path, taken: &Taken) -> Change {
    Change {
        dir: dir.to_path_buf(),
        was: Was::Untouched,
        snapshot: Some(taken.snapshot.id.clone()),
        link: None,
    }
}
