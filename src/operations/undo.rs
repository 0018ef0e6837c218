//! Undo: revert the latest journalled operation not yet undone, from what the journal kept
//! (skill folders from their snapshots, settings files from their backups). What changed
//! since that operation is never overwritten: the undo refuses instead.

use crate::roots::Machine;

use super::journal::{Entry, JournalError};

/// One journal entry, as `undo --list` shows it.
#[derive(Debug)]
pub struct Listed {
    pub entry: Entry,
    /// A later undo already reverted it.
    pub undone: bool,
}

/// What an undo did.
#[derive(Debug)]
pub struct Undone {
    /// The entry reverted.
    pub reverted: Entry,
    /// The entry the undo itself journalled.
    pub entry: Entry,
    pub unjournalled: Option<JournalError>,
}

/// Why nothing was undone; everything is as it was.
#[derive(Debug, thiserror::Error)]
pub enum UndoError {
    #[error("undo is being built (issue 13)")]
    Unbuilt,
}

impl UndoError {
    /// Whether skilldeck refused, rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        true
    }
}

/// The journal, oldest first, each entry marked when it was undone.
///
/// # Errors
/// When the journal cannot be read.
pub fn list(machine: &Machine) -> Result<Vec<Listed>, UndoError> {
    let _ = machine;
    Err(UndoError::Unbuilt)
}

/// The entry `undo` would revert now, for a question before doing it.
///
/// # Errors
/// When the journal cannot be read.
pub fn next(machine: &Machine) -> Result<Option<Entry>, UndoError> {
    let _ = machine;
    Err(UndoError::Unbuilt)
}

/// Revert the latest operation not yet undone.
///
/// # Errors
/// [`UndoError`] says why not; nothing was changed.
pub fn undo(machine: &Machine) -> Result<Undone, UndoError> {
    let _ = machine;
    Err(UndoError::Unbuilt)
}
