//! Restore: put a skill folder back as one of its snapshots holds it, keeping what it
//! replaces as a snapshot of its own, and journal which one that is.

use std::path::Path;

use crate::roots::Machine;
use crate::snapshot::restore::{self as restoring, RestoreError, Restored};
use crate::snapshot::{Snapshot, Store};

use super::journal::{Change, Entry, Journal, JournalError, Operation, Was};

/// What a restore did.
#[derive(Debug)]
pub struct Restore {
    /// The snapshot put back.
    pub snapshot: Snapshot,
    /// `None` when the folder already held it and was left alone.
    pub restored: Option<Restored>,
    /// The journal could not be told, so `undo` will not know of this restore.
    pub unjournalled: Option<JournalError>,
}

/// Restore the skill folder `dir` to its snapshot `id` (or the start of one), else to its
/// latest.
///
/// # Errors
/// [`RestoreError`] says why not; the folder is as it was.
pub fn restore(machine: &Machine, dir: &Path, id: Option<&str>) -> Result<Restore, RestoreError> {
    let store = Store::open(&machine.env);
    let snapshot = store.find(dir, id)?;
    let restored = restoring::restore(&store, &snapshot)?;
    let unjournalled = restored.as_ref().and_then(|done| {
        let was = done
            .replaced
            .as_ref()
            .map_or(Was::Absent, |kept| Was::Kept(kept.id.clone()));
        let change = Change {
            dir: dir.to_path_buf(),
            was,
            snapshot: Some(done.baseline.id.clone()),
        };
        Journal::of(machine)
            .append(&Entry::now(Operation::Restore, vec![change]))
            .err()
    });
    Ok(Restore {
        snapshot,
        restored,
        unjournalled,
    })
}
