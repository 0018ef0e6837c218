//! The rule that nothing a user had is lost to an import: every skill an import is about to
//! update or replace is snapshotted first (synced, so it survives a crash during the swap), and
//! every skill it installs is snapshotted after, as the baseline later diffs compare against.
//! What it kept is remembered for the journal. Only the import operation installs, so the rule
//! is kept in one place.
//!
//! An import also writes ahead: once every replaced skill is kept and before the first folder
//! is swapped, the journal says what is about to change (see `journal::ahead`), so a crash in
//! the middle leaves an intent that the next `undo` settles, not an import undo knows nothing
//! of.

use std::io;
use std::path::{Path, PathBuf};

use crate::install::{Progress, Watch};
use crate::snapshot::losses::nothing_lost;
use crate::snapshot::{Reason, SnapshotError, Store};

use super::journal::ahead::Underway;
use super::journal::{Change, Entry, Journal, JournalError, Operation, Was};
use crate::roots::Machine;

/// An install watch that keeps snapshots around the install and passes everything else on.
pub struct Keeping<'a, W: Watch + ?Sized> {
    store: &'a Store,
    inner: &'a mut W,
    /// Why the snapshot of what is put in place is taken: an import's or a copy's baseline.
    baseline: Reason,
    /// The snapshot of what each replaced folder held.
    kept_before: Vec<(PathBuf, String)>,
    /// One change per skill put in place, in order.
    pub changes: Vec<Change>,
    /// Baselines that could not be taken: the skills are installed, only their first snapshot
    /// is missing, so these are reported rather than failing the import.
    pub missed_baselines: Vec<SnapshotError>,
    /// The journal to say ahead in, and as which operation.
    ahead: Option<(&'a Machine, Operation)>,
    /// The intent said, once the swaps are about to start.
    underway: Option<Underway>,
}

impl<'a, W: Watch + ?Sized> Keeping<'a, W> {
    pub fn new(store: &'a Store, inner: &'a mut W, baseline: Reason) -> Self {
        Self {
            store,
            inner,
            baseline,
            kept_before: Vec::new(),
            changes: Vec::new(),
            missed_baselines: Vec::new(),
            ahead: None,
            underway: None,
        }
    }

    /// Say in `machine`'s journal what is about to change before the first folder is swapped
    /// in, as `operation`; [`Keeping::done`] then journals what was done.
    pub fn write_ahead(mut self, machine: &'a Machine, operation: Operation) -> Self {
        self.ahead = Some((machine, operation));
        self
    }

    /// Journal the changes made (even none, after a failure) as the operation's record, which
    /// settles the intent said ahead; with no intent (nothing was about to change), `entry`
    /// is journalled when it changed anything. Nothing without [`Keeping::write_ahead`].
    pub fn done(&mut self, entry: Entry) -> Option<JournalError> {
        let (machine, _) = self.ahead?;
        match self.underway.take() {
            Some(underway) => underway.done(machine, entry),
            None => Journal::record_entry(machine, entry),
        }
    }
}

impl<W: Watch + ?Sized> Watch for Keeping<'_, W> {
    fn wrote(&mut self, progress: Progress<'_>) {
        self.inner.wrote(progress);
    }

    fn before_replace(&mut self, skill_dir: &Path) -> io::Result<()> {
        // Judged again under the root's lock: what a snapshot would not keep is never
        // replaced, even if it appeared since the plan.
        nothing_lost("replacing", skill_dir).map_err(io::Error::other)?;
        let taken = self
            .store
            .take_before_overwrite(skill_dir, Reason::BeforeImport)
            .map_err(io::Error::other)?;
        self.kept_before
            .push((skill_dir.to_path_buf(), taken.snapshot.id));
        self.inner.before_replace(skill_dir)
    }

    fn about_to_swap(&mut self, dirs: &[&Path]) -> io::Result<()> {
        let Some((machine, operation)) = self.ahead else {
            return Ok(());
        };
        // What each folder holds now is what undo must find to put it back: kept before
        // (replaced) or nothing (created). What each will hold is snapshotted once it does.
        let planned = dirs
            .iter()
            .map(|dir| Change {
                dir: dir.to_path_buf(),
                was: self
                    .kept_before
                    .iter()
                    .find(|(kept, _)| kept == dir)
                    .map_or(Was::Absent, |(_, id)| Was::Kept(id.clone())),
                snapshot: None,
                link: None,
            })
            .collect();
        let underway =
            Underway::begin(machine, Entry::now(operation, planned)).map_err(io::Error::other)?;
        self.underway = Some(underway);
        Ok(())
    }

    fn installed(&mut self, skill_dir: &Path) {
        let baseline = match self.store.take(skill_dir, self.baseline) {
            Ok(taken) => Some(taken.snapshot.id),
            Err(error) => {
                self.missed_baselines.push(error);
                None
            }
        };
        let was = self
            .kept_before
            .iter()
            .find(|(dir, _)| dir == skill_dir)
            .map_or(Was::Absent, |(_, id)| Was::Kept(id.clone()));
        self.changes.push(Change {
            dir: skill_dir.to_path_buf(),
            was,
            snapshot: baseline,
            link: None,
        });
        self.inner.installed(skill_dir);
    }

    fn carry_on(&mut self) -> bool {
        self.inner.carry_on()
    }
}
