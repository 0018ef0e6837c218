//! Restore: put a skill folder back as one of its snapshots holds it, keeping what it
//! replaces as a snapshot of its own, and journal which one that is.
//!
//! A folder that is gone is brought back only inside a root of the machine: creating one
//! anywhere else (`/etc/cron.d/…`) is what a forged snapshot of a folder that never held a
//! skill would ask for.

use std::fs;
use std::path::Path;

use crate::roots::{Machine, RootSet};
use crate::snapshot::restore::{self as restoring, RestoreError, Restored};
use crate::snapshot::{Snapshot, Store};

use super::journal::{Change, Journal, JournalError, Operation, Was};

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
    // The snapshot's own checks first: they say what is wrong with a damaged one.
    snapshot.kept(dir)?;
    let target = &snapshot.info.dir;
    if fs::symlink_metadata(target).is_err() && !in_a_root(machine, target) {
        return Err(RestoreError::NotInARoot(target.clone()));
    }
    let restored = restoring::restore(&store, dir, &snapshot)?;
    let unjournalled = restored.as_ref().and_then(|done| {
        let was = done
            .replaced
            .as_ref()
            .map_or(Was::Absent, |kept| Was::Kept(kept.id.clone()));
        let change = Change {
            dir: dir.to_path_buf(),
            was,
            snapshot: Some(done.baseline.id.clone()),
            link: None,
        };
        Journal::record(machine, Operation::Restore, vec![change])
    });
    Ok(Restore {
        snapshot,
        restored,
        unjournalled,
    })
}

/// Whether `dir` lies inside one of the machine's roots, as they are named or resolved.
fn in_a_root(machine: &Machine, dir: &Path) -> bool {
    RootSet::resolve(&machine.env, &machine.project)
        .roots
        .iter()
        .any(|root| {
            dir.starts_with(&root.path)
                || root
                    .real_path
                    .as_ref()
                    .is_some_and(|real| dir.starts_with(real))
        })
}
