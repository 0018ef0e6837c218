//! The rule that nothing a user had is lost to an import: every skill an import is about to
//! update or replace is snapshotted first (synced, so it survives a crash during the swap), and
//! every skill it installs is snapshotted after, as the baseline later diffs compare against.
//! The command line and the terminal app both import through [`Keeping`], so the rule is kept
//! in one place.

use std::io;
use std::path::Path;

use crate::install::{Progress, Watch};

use super::{SnapshotError, Store};

/// An install watch that keeps snapshots around the install and passes everything else on.
pub struct Keeping<'a, W: Watch> {
    store: &'a Store,
    inner: W,
    /// Baselines that could not be taken: the skills are installed, only their first snapshot
    /// is missing, so these are reported rather than failing the import.
    pub missed_baselines: Vec<SnapshotError>,
}

impl<'a, W: Watch> Keeping<'a, W> {
    pub fn new(store: &'a Store, inner: W) -> Self {
        Self {
            store,
            inner,
            missed_baselines: Vec::new(),
        }
    }

    pub fn inner(&self) -> &W {
        &self.inner
    }
}

impl<W: Watch> Watch for Keeping<'_, W> {
    fn wrote(&mut self, progress: Progress<'_>) {
        self.inner.wrote(progress);
    }

    fn before_replace(&mut self, skill_dir: &Path) -> io::Result<()> {
        self.store
            .take_before_overwrite(skill_dir)
            .map_err(io::Error::other)?;
        self.inner.before_replace(skill_dir)
    }

    fn installed(&mut self, skill_dir: &Path) {
        if let Err(error) = self.store.take(skill_dir) {
            self.missed_baselines.push(error);
        }
        self.inner.installed(skill_dir);
    }

    fn carry_on(&mut self) -> bool {
        self.inner.carry_on()
    }
}
