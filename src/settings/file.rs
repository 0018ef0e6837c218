//! The one way skilldeck writes an agent's settings file: read it (bounded), let an editor
//! change its text, keep the previous bytes, and put the new text in place atomically — a
//! temporary file in the same folder with the same mode, renamed over the old one — unless
//! the file changed while skilldeck was editing it, in which case nothing is written.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::backup::{self, sha256};
use super::{EditError, Unparsable};
use super::{SettingsChange, SettingsWas};
use crate::fs::{Links, read_bounded};
use crate::limits::SETTINGS_FILE_BYTES;
use crate::roots::Machine;

/// The mode a settings file skilldeck creates gets: only its owner reads it, as settings may
/// hold tokens.
const NEW_FILE_MODE: u32 = 0o600;

/// What a settings file holds when it is read for an edit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Held {
    Absent,
    Bytes(Vec<u8>),
}

impl Held {
    /// The text an editor works on: empty for a missing file.
    pub(crate) fn text(&self, file: &Path) -> Result<&str, EditError> {
        match self {
            Held::Absent => Ok(""),
            Held::Bytes(bytes) => std::str::from_utf8(bytes).map_err(|error| {
                let before = &bytes[..error.valid_up_to()];
                let line = before.iter().filter(|b| **b == b'\n').count() + 1;
                let column = before.len()
                    - before
                        .iter()
                        .rposition(|b| *b == b'\n')
                        .map_or(0, |at| at + 1)
                    + 1;
                EditError::Unparsable(Unparsable {
                    file: file.to_path_buf(),
                    line,
                    column,
                    reason: "it is not UTF-8 text".into(),
                })
            }),
        }
    }
}

/// The file a settings path stands for: the file a link points to, so a settings file kept in
/// a dotfiles folder and linked into place stays a link.
pub(crate) fn resolve(path: &Path) -> PathBuf {
    crate::fs::canonical(path).unwrap_or_else(|_| path.to_path_buf())
}

/// What `file` holds now: its bytes, or that there is no such file.
pub(crate) fn read(file: &Path) -> Result<Held, EditError> {
    match read_bounded(file, Links::Follow, SETTINGS_FILE_BYTES) {
        Ok(bytes) => Ok(Held::Bytes(bytes)),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Held::Absent),
        Err(source) => Err(EditError::Read {
            file: file.to_path_buf(),
            source,
        }),
    }
}

/// Edit `path` with `edit`, which gets the file's text (empty when there is none) and gives
/// the new text, or `None` when nothing needs changing. The previous bytes are kept under the
/// data directory first; the change is returned for the journal, `None` when nothing changed.
///
/// # Errors
/// [`EditError`] says why not; the file is as it was.
pub(crate) fn edit(
    machine: &Machine,
    path: &Path,
    edit: impl FnOnce(&str) -> Result<Option<String>, EditError>,
) -> Result<Option<SettingsChange>, EditError> {
    let file = resolve(path);
    let held = read(&file)?;
    let Some(text) = edit(held.text(path)?)? else {
        return Ok(None);
    };
    if let Held::Bytes(bytes) = &held
        && bytes == text.as_bytes()
    {
        return Ok(None);
    }
    replace(machine, path, &file, &held, Some(text.as_bytes())).map(Some)
}

/// Put `new` in place of what `file` holds (`None`: remove the file), when it still holds
/// `held`; `held` is kept first. `path` is the file as the user knows it, for the journal.
pub(crate) fn replace(
    machine: &Machine,
    path: &Path,
    file: &Path,
    held: &Held,
    new: Option<&[u8]>,
) -> Result<SettingsChange, EditError> {
    let was = match held {
        Held::Absent => SettingsWas::Absent,
        Held::Bytes(bytes) => SettingsWas::Kept(backup::keep(machine, bytes).map_err(
            |source| EditError::Backup {
                file: path.to_path_buf(),
                source,
            },
        )?),
    };
    let after = sha256(new.unwrap_or_default());
    let failed = |source| EditError::Write {
        file: path.to_path_buf(),
        source,
    };
    match new {
        Some(bytes) => {
            let temp = write_beside(file, bytes).map_err(failed)?;
            // The last look before the rename: anything another program wrote since the read
            // wins, and this edit is dropped.
            if read(file)? != *held {
                let _ = fs::remove_file(&temp);
                return Err(EditError::ChangedSince {
                    file: path.to_path_buf(),
                });
            }
            fs::rename(&temp, file).map_err(|error| {
                let _ = fs::remove_file(&temp);
                failed(error)
            })?;
        }
        None => {
            if read(file)? != *held {
                return Err(EditError::ChangedSince {
                    file: path.to_path_buf(),
                });
            }
            fs::remove_file(file).map_err(failed)?;
        }
    }
    if let Some(dir) = file.parent() {
        let _ = crate::fs::sync_dir(dir);
    }
    Ok(SettingsChange {
        file: path.to_path_buf(),
        was,
        after,
    })
}

/// `bytes` in a new temporary file beside `file`, synced, with `file`'s mode (or a private one
/// when `file` is new); the folder is made when missing, as the agents' own `/skills` do.
fn write_beside(file: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
    let dir = file.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let mode = mode_of(file).unwrap_or(NEW_FILE_MODE);
    let name = file
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    for attempt in 0..100u32 {
        let temp = dir.join(format!(
            ".{name}.skilldeck-{}-{attempt}",
            std::process::id()
        ));
        let mut out = match crate::fs::create_new(&temp, mode) {
            Ok(out) => out,
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        };
        let written = crate::fs::set_mode(&out, mode)
            .and_then(|()| out.write_all(bytes))
            .and_then(|()| out.sync_all());
        if let Err(error) = written {
            let _ = fs::remove_file(&temp);
            return Err(error);
        }
        return Ok(temp);
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name for a temporary file beside it",
    ))
}

#[cfg(unix)]
fn mode_of(file: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(file)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn mode_of(_file: &Path) -> Option<u32> {
    None
}
