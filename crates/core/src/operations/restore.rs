//! Restore: put a skill folder back as one of its snapshots holds it, keeping what it
//! replaces as a snapshot of its own, and journal which one that is.
//!
//! A folder that is gone is brought back only inside a root of the machine: creating one
//! anywhere else (`/etc/cron.d/…`) is what a forged snapshot of a folder that never held a
//! skill would ask for.

use std::fs;
use std::io;
use std::path::Path;

use crate::roots::{Machine, RootSet};
use crate::snapshot::restore::{self as restoring, RestoreError, Restored};
use crate::snapshot::{Reason, Snapshot, Store};

use super::journal::ahead::{self, Underway};
use super::journal::{Change, Entry, JournalError, Operation, Was};

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
    // Written ahead: once what the folder holds is kept and before it is swapped, the
    // journal says what is about to change, so a crash leaves an intent undo settles.
    let mut underway = None;
    let mut intent = None;
    let mut announce = |kept: Option<&str>| {
        let said = Entry::now(Operation::Restore, vec![change(dir, kept, None)]);
        underway = Some(Underway::begin(machine, said.clone()).map_err(io::Error::other)?);
        intent = Some(said);
        Ok(())
    };
    let restored =
        restoring::restore_announced(&store, dir, &snapshot, Reason::BeforeRestore, &mut announce);
    // What was done is journalled even when a later step failed (the disk says how far it
    // got), which settles the intent.
    let done = match (&restored, &intent) {
        (Ok(Some(done)), _) => {
            let kept = done.replaced.as_ref().map(|kept| kept.id.as_str());
            Entry::now(
                Operation::Restore,
                vec![change(dir, kept, Some(&done.baseline.id))],
            )
        }
        (Err(_), Some(intent)) => ahead::swapped_in(&store, intent, Reason::Restored),
        _ => Entry::now(Operation::Restore, Vec::new()),
    };
    let unjournalled = underway.and_then(|underway| underway.done(machine, done));
    let restored = restored?;
    Ok(Restore {
        snapshot,
        restored,
        unjournalled,
    })
}

/// The change a restore of `dir` makes: what it held was kept in `kept` (or it was gone), and
/// it holds `after` once restored.
fn change(dir: &Path, kept: Option<&str>, after: Option<&str>) -> Change {
    Change {
        dir: dir.to_path_buf(),
        was: kept.map_or(Was::Absent, |id| Was::Kept(id.to_owned())),
        snapshot: after.map(str::to_owned),
        link: None,
    }
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
