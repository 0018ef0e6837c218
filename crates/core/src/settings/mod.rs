//! The agents' own settings files, edited as the user would: in place, every byte not being
//! changed kept, atomically, the previous bytes kept for `undo`.
//!
//! [`json`] and [`toml`] are the format-preserving editors; `layout` puts back what they do
//! not keep (a byte-order mark, line endings, a missing final newline); `target` says where a
//! settings path leads and whether skilldeck may write there; `file` is the one way a
//! settings file is written (bounded read, edit, backup, temporary file swapped in, made again
//! on what another program wrote meanwhile); [`revert`] puts a journalled change back.

mod backup;
mod file;
pub mod json;
mod layout;
mod target;
pub mod toml;

use std::io;
use std::path::PathBuf;

pub use crate::roots::dialect;
pub use backup::BACKUPS_DIR;
pub(crate) use backup::sha256;
pub use file::edit_text;
pub(crate) use file::{Held, edit, read, resolve};

use serde::{Deserialize, Serialize};

use crate::roots::Machine;

/// What an agent's settings file held before an operation edited it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SettingsWas {
    /// There was no such file: the operation created it.
    Absent,
    /// Its bytes are kept in the settings backups under this id.
    Kept(String),
}

/// One settings file an operation edited.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsChange {
    pub file: PathBuf,
    pub was: SettingsWas,
    /// `sha256:` of the bytes the operation left in it: an undo puts the kept bytes back
    /// only while the file still holds these.
    pub after: String,
    /// The folder the write stayed in (the project, for a project's file), which an undo
    /// keeps to as well.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<PathBuf>,
}

/// Where a settings file stops being readable as its format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "skilldeck cannot edit {}: its editor stops at line {line}, column {column} ({reason}); the file is as it was",
    .file.display()
)]
pub struct Unparsable {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub reason: String,
}

/// Why a settings file was not edited; it is as it was.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    #[error("{} could not be read: {}", .file.display(), crate::fs::said(.source))]
    Read { file: PathBuf, source: io::Error },
    #[error(transparent)]
    Unparsable(Unparsable),
    #[error(
        "{agent} cannot read {}: it fails at line {line}, column {column} ({reason}), so no setting in it counts; skilldeck left it as it is",
        .file.display()
    )]
    AgentCannotRead {
        file: PathBuf,
        agent: &'static str,
        line: usize,
        column: usize,
        reason: String,
    },
    #[error(
        "{} holds {key} more than once, and {agent} reads only the last copy; skilldeck will not guess which one you meant to change, so it left the file as it is (remove the other copies)",
        .file.display()
    )]
    Duplicate {
        file: PathBuf,
        agent: &'static str,
        key: String,
    },
    #[error(
        "{agent} would not see skilldeck's change to {} ({what}), so skilldeck left it as it is",
        .file.display()
    )]
    Unseen {
        file: PathBuf,
        agent: &'static str,
        what: String,
    },
    #[error(
        "{} holds {key} as something other than {expected}; skilldeck leaves it for you to change",
        .file.display()
    )]
    Shape {
        file: PathBuf,
        key: String,
        expected: &'static str,
    },
    #[error("the previous bytes of {} could not be kept, so it was not changed: {}", .file.display(), crate::fs::said(.source))]
    Backup { file: PathBuf, source: io::Error },
    #[error("{} could not be written: {}", .file.display(), crate::fs::said(.source))]
    Write { file: PathBuf, source: io::Error },
    #[error(
        "{} changed while skilldeck was editing it; it was left as the other program wrote it",
        .file.display()
    )]
    ChangedSince { file: PathBuf },
    #[error(
        "{} kept changing while skilldeck was editing it; what another program wrote last is kept in {}, as the file may hold an earlier version",
        .file.display(),
        .kept.display()
    )]
    Contended { file: PathBuf, kept: PathBuf },
    #[error(
        "{} leads to {}, outside {}; skilldeck writes a project's settings only inside the project, and left both as they are",
        .file.display(),
        .target.display(),
        .scope.display()
    )]
    OutOfScope {
        file: PathBuf,
        target: PathBuf,
        scope: PathBuf,
    },
}

impl EditError {
    /// Whether skilldeck refused (the file does not parse, holds an unexpected shape, changed
    /// meanwhile, or leads out of its project), rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            EditError::Unparsable(_)
                | EditError::AgentCannotRead { .. }
                | EditError::Duplicate { .. }
                | EditError::Unseen { .. }
                | EditError::Shape { .. }
                | EditError::ChangedSince { .. }
                | EditError::Contended { .. }
                | EditError::OutOfScope { .. }
        )
    }
}

/// Why a settings file was not put back; it is as it was.
#[derive(Debug, thiserror::Error)]
pub enum RevertError {
    #[error(
        "{} changed since skilldeck edited it; it was left as it is now",
        .file.display()
    )]
    ChangedSince { file: PathBuf },
    #[error("the kept copy of {} ({id}) could not be read: {}", .file.display(), crate::fs::said(.source))]
    Missing {
        file: PathBuf,
        id: String,
        source: io::Error,
    },
    #[error(transparent)]
    Edit(EditError),
}

impl RevertError {
    /// Whether skilldeck refused (the file changed since), rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        match self {
            RevertError::ChangedSince { .. } => true,
            RevertError::Missing { .. } => false,
            RevertError::Edit(error) => error.is_refusal(),
        }
    }
}

/// Put the file `change` edited back as it was before, when it still holds what the change
/// left in it; what it holds now is kept first. The change the revert made is returned, for
/// the undo's own journal entry.
///
/// # Errors
/// [`RevertError`] says why not; the file is as it was.
pub fn revert(machine: &Machine, change: &SettingsChange) -> Result<SettingsChange, RevertError> {
    let file = where_(change)?;
    let want = match &change.was {
        SettingsWas::Absent => file::Want::Remove,
        SettingsWas::Kept(id) => {
            file::Want::Put(
                backup::kept(machine, id).map_err(|source| RevertError::Missing {
                    file: change.file.clone(),
                    id: id.clone(),
                    source,
                })?,
            )
        }
    };
    let done = file::settle(
        machine,
        &change.file,
        &file,
        change.within.clone(),
        &|held| {
            if holds(held) == change.after {
                Ok(want.clone())
            } else {
                Err(EditError::ChangedSince {
                    file: change.file.clone(),
                })
            }
        },
    )
    .map_err(|error| match error {
        EditError::ChangedSince { file } => RevertError::ChangedSince { file },
        other => RevertError::Edit(other),
    })?;
    // Nothing to write: the change left the bytes it found.
    Ok(done.unwrap_or_else(|| SettingsChange {
        file: change.file.clone(),
        was: change.was.clone(),
        after: change.after.clone(),
        within: change.within.clone(),
    }))
}

/// Whether the file `change` edited still holds what the change left in it, as [`revert`]
/// requires: what an undo asks of every file before it changes any.
///
/// # Errors
/// [`RevertError::ChangedSince`] when it does not, or the read's own error.
pub fn check_revert(change: &SettingsChange) -> Result<(), RevertError> {
    let held = read(&where_(change)?).map_err(RevertError::Edit)?;
    if holds(&held) == change.after {
        Ok(())
    } else {
        Err(RevertError::ChangedSince {
            file: change.file.clone(),
        })
    }
}

/// The file `change` edited, where its path leads now, inside the folder the change stayed in.
fn where_(change: &SettingsChange) -> Result<PathBuf, RevertError> {
    target::target(&change.file, change.within.as_deref()).map_err(RevertError::Edit)
}

/// The `sha256:` a file holding `held` has; a missing file hashes as empty, which is what a
/// change that removed a file records.
fn holds(held: &Held) -> String {
    match held {
        Held::Absent => sha256(b""),
        Held::Bytes(bytes) => sha256(bytes),
    }
}

#[cfg(test)]
mod tests;
