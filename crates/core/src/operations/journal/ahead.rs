//! Write-ahead: an operation that destroys (a removal) journals what it is about to do before
//! it does anything, and its record once it is over, the two paired by a token. A crash
//! between them leaves an intent with no record; the next `undo` recovers it first: it looks
//! at what the operation had done when it stopped, journals exactly that as the record, and
//! so undoes that operation, not the one before it.
//!
//! While the operation runs it holds a lock on a file named after its token, so recovery in
//! another skilldeck never takes a running operation for a crashed one; a crash releases
//! the lock with the process.

use std::fs::{self, File};
use std::io;
use std::path::PathBuf;

use crate::record::lower_hex;
use crate::roots::Machine;

use super::{Ahead, Entry, Journal, JournalError, Was};
use crate::snapshot::{Reason, Store, content_digest};

/// An operation under way: its intent is journalled and its lock held.
#[derive(Debug)]
pub struct Underway {
    token: String,
    lock: Option<(File, PathBuf)>,
}

impl Underway {
    /// Journal `intent` (what the operation is about to do) before it does anything.
    ///
    /// # Errors
    /// When the journal or the lock cannot be written: the operation must not start then.
    pub fn begin(machine: &Machine, mut intent: Entry) -> Result<Self, JournalError> {
        let journal = Journal::of(machine);
        let failed = |source| JournalError::Write {
            path: journal.path().to_path_buf(),
            source,
        };
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| failed(io::Error::other(e)))?;
        let token = lower_hex(&bytes);
        super::private_dir(&journal.dir()).map_err(failed)?;
        let path = lock_path(machine, &token);
        let file = crate::fs::create_new(&path, 0o600).map_err(failed)?;
        file.lock().map_err(failed)?;
        intent.ahead = Some(Ahead::Intent(token.clone()));
        let underway = Self {
            token,
            lock: Some((file, path)),
        };
        journal.append(&intent)?;
        Ok(underway)
    }

    /// Journal `entry` as what the operation did (even nothing), which settles its intent.
    pub fn done(mut self, machine: &Machine, mut entry: Entry) -> Option<JournalError> {
        entry.ahead = Some(Ahead::Done(self.token.clone()));
        let failed = Journal::of(machine).append(&entry).err();
        // Unsettled, the lock file stays for recovery to find.
        if failed.is_none()
            && let Some((file, path)) = self.lock.take()
        {
            let _ = fs::remove_file(path);
            drop(file);
        }
        failed
    }
}

fn lock_path(machine: &Machine, token: &str) -> PathBuf {
    machine.data_dir().join(format!("ahead-{token}.lock"))
}

/// The intents no record settles whose operation is not running: what crashes stopped.
///
/// # Errors
/// When the journal cannot be read.
pub fn stopped(machine: &Machine) -> Result<Vec<Entry>, JournalError> {
    let entries = Journal::of(machine).read()?.entries;
    let done: Vec<&String> = entries
        .iter()
        .filter_map(|e| match &e.ahead {
            Some(Ahead::Done(token)) => Some(token),
            _ => None,
        })
        .collect();
    Ok(entries
        .iter()
        .filter(|e| match &e.ahead {
            Some(Ahead::Intent(token)) => !done.contains(&token) && !running(machine, token),
            _ => false,
        })
        .cloned()
        .collect())
}

/// Whether the operation of `token` still holds its lock.
fn running(machine: &Machine, token: &str) -> bool {
    let Ok(file) = File::open(lock_path(machine, token)) else {
        return false;
    };
    matches!(file.try_lock(), Err(fs::TryLockError::WouldBlock))
}

/// Settle the stopped `intent` with `found`, what its operation had done.
///
/// # Errors
/// When the journal cannot be written; the intent stays for the next recovery.
pub fn settle(machine: &Machine, intent: &Entry, found: Entry) -> Result<Entry, JournalError> {
    let Some(Ahead::Intent(token)) = &intent.ahead else {
        return Ok(found);
    };
    let underway = Underway {
        token: token.clone(),
        lock: None,
    };
    let mut settled = found.clone();
    settled.ahead = Some(Ahead::Done(token.clone()));
    if let Some(error) = underway.done(machine, found) {
        return Err(error);
    }
    let _ = fs::remove_file(lock_path(machine, token));
    Ok(settled)
}

/// What an operation that swaps whole folders in (an import, a restore) had done when it
/// stopped, from its intent and the disk. Each folder is put in place by one rename, so each
/// is either as it was or as the operation wrote it: one created is there now, one replaced no
/// longer holds what was kept of it. Those are the changes, each with a snapshot (kept for
/// `reason`) of what it holds now, which undo checks before it acts.
pub fn swapped_in(store: &Store, intent: &Entry, reason: Reason) -> Entry {
    let mut found = intent.clone();
    found.ahead = None;
    found.changes.retain_mut(|change| {
        let is_folder = fs::symlink_metadata(&change.dir).is_ok_and(|meta| meta.is_dir());
        let swapped = match &change.was {
            Was::Absent => is_folder,
            Was::Kept(id) => {
                is_folder
                    && store.find(&change.dir, Some(id)).is_ok_and(|kept| {
                        content_digest(&change.dir).is_ok_and(|now| now != kept.info.digest)
                    })
            }
            Was::Untouched | Was::Link(_) => false,
        };
        if swapped {
            change.snapshot = store
                .take(&change.dir, reason)
                .ok()
                .map(|taken| taken.snapshot.id);
        }
        swapped
    });
    found
}
