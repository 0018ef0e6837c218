//! The one way skilldeck writes an agent's settings file: read it (bounded), let an editor
//! change its text, keep the previous bytes, and put the new bytes in place atomically — a
//! temporary file in the same folder with the same mode, swapped with the old one — without
//! ever dropping what another program (the agent itself) wrote meanwhile.
//!
//! Another program may write the file at any moment, by rename or in place. The new file is
//! swapped in with an atomic exchange, so what was there comes out beside it instead of
//! vanishing: when that is not what the edit was made on, the other program wrote meanwhile,
//! and the edit is made again on what it wrote (a bounded number of times; then what it wrote
//! is put back and skilldeck refuses). The displaced copies are looked at once more before
//! they are removed, which catches a write that was still landing in the old file. What no
//! system call closes is a write landing in the old file after that last look.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::backup::{self, sha256};
use super::{EditError, Unparsable};
use super::{SettingsChange, SettingsWas, layout, target};
use crate::fs::{Links, read_bounded};
use crate::limits::SETTINGS_FILE_BYTES;
use crate::roots::Machine;

/// The mode a settings file skilldeck creates gets: only its owner reads it, as settings may
/// hold tokens.
const NEW_FILE_MODE: u32 = 0o600;

/// How many times an edit is made again on what another program wrote meanwhile.
const EDITS: usize = 8;

/// How many more times, after that, what the other program wrote is put back.
const PUT_BACKS: usize = 8;

/// What a settings file holds when it is read for an edit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Held {
    Absent,
    Bytes(Vec<u8>),
}

impl Held {
    /// All of the file as text (empty for a missing file), its byte-order mark included: what
    /// an editor works on, for each reads past a mark only where its agent does (the write
    /// keeps it).
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

/// What an edit makes of what the file holds.
#[derive(Clone, Debug)]
pub(crate) enum Want {
    /// Leave it as it is.
    Keep,
    Put(Vec<u8>),
    Remove,
}

/// The file a settings path stands for, to read it: where its links lead.
pub(crate) fn resolve(path: &Path) -> PathBuf {
    target::real(path).unwrap_or_else(|_| path.to_path_buf())
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
/// the new text, or `None` when nothing needs changing; it is called again on what another
/// program wrote meanwhile. The file's layout (byte-order mark, line endings, final newline)
/// is kept. The previous bytes are kept under the data directory first; the change is
/// returned for the journal, `None` when nothing changed.
///
/// # Errors
/// [`EditError`] says why not; the file is as it was, or as the other program wrote it.
pub(crate) fn edit(
    machine: &Machine,
    path: &Path,
    edit: impl Fn(&str) -> Result<Option<String>, EditError>,
) -> Result<Option<SettingsChange>, EditError> {
    let within = target::scope_of(machine, path);
    let file = target::target(path, within.as_deref())?;
    settle(machine, path, &file, within, &|held: &Held| {
        Ok(edit_text(path, held_bytes(held), &edit)?.map_or(Want::Keep, Want::Put))
    })
}

/// What `edit` makes of a settings file `path` holding `bytes` (empty: none), with the
/// file's layout kept — the half of [`edit`] that does not touch the disk. `None` when the
/// bytes stay as they are.
///
/// # Errors
/// [`EditError::Unparsable`] when the bytes are not UTF-8, or the editor's own error.
pub fn edit_text(
    path: &Path,
    bytes: &[u8],
    edit: impl Fn(&str) -> Result<Option<String>, EditError>,
) -> Result<Option<Vec<u8>>, EditError> {
    let held = Held::Bytes(bytes.to_vec());
    let Some(text) = edit(held.text(path)?)? else {
        return Ok(None);
    };
    let new = layout::restore(held.text(path)?, &text).into_bytes();
    Ok((new != bytes).then_some(new))
}

/// Give `file` (where `path`, as the user knows it, leads) what `step` makes of what it
/// holds, made again on what another program writes meanwhile; what it held is kept first.
///
/// # Errors
/// The step's own error (the file then holds what the other program last wrote), or
/// [`EditError`] when the file cannot be read or written.
pub(crate) fn settle(
    machine: &Machine,
    path: &Path,
    file: &Path,
    within: Option<PathBuf>,
    step: &dyn Fn(&Held) -> Result<Want, EditError>,
) -> Result<Option<SettingsChange>, EditError> {
    let failed = |source| EditError::Write {
        file: path.to_path_buf(),
        source,
    };
    // `base`: what the other program wrote last, which the edit is made on; `at_file`: what
    // the file holds, as far as skilldeck knows (its own earlier write, once one displaced
    // another program's).
    let mut base = read(file)?;
    let mut at_file = base.clone();
    let mut aside = Aside::default();
    for attempt in 0..EDITS + PUT_BACKS {
        let verdict = if attempt < EDITS {
            step(&base)
        } else {
            Err(EditError::ChangedSince {
                file: path.to_path_buf(),
            })
        };
        let put = match &verdict {
            Ok(Want::Put(bytes)) => Held::Bytes(bytes.clone()),
            Ok(Want::Remove) => Held::Absent,
            // What the other program wrote goes back (already there unless skilldeck's
            // earlier write displaced it).
            Ok(Want::Keep) | Err(_) => base.clone(),
        };
        let kept = if put == base {
            None
        } else {
            Some(keep(machine, path, &base)?)
        };
        let outcome = if put == at_file {
            match read(file)? {
                now if now == at_file => Swap::Placed,
                now => Swap::Refused(now),
            }
        } else {
            swap(file, &at_file, &put, &mut aside).map_err(failed)?
        };
        let outcome = match outcome {
            Swap::Placed => aside
                .written()
                .map_err(failed)?
                .map_or(Swap::Placed, Swap::Displaced),
            other => other,
        };
        let theirs = match outcome {
            Swap::Placed => {
                aside.clear();
                if let Some(dir) = file.parent() {
                    let _ = crate::fs::sync_dir(dir);
                }
                verdict?;
                return Ok(kept.map(|was| SettingsChange {
                    file: path.to_path_buf(),
                    was,
                    after: sha256(held_bytes(&put)),
                    within,
                }));
            }
            Swap::Displaced(theirs) => {
                at_file = put;
                theirs
            }
            Swap::Refused(theirs) => {
                aside.seen_newer();
                at_file = theirs.clone();
                theirs
            }
        };
        if let Some(SettingsWas::Kept(id)) = kept {
            backup::discard(machine, &id);
        }
        base = theirs;
    }
    aside.clear();
    if at_file == base {
        return Err(EditError::ChangedSince {
            file: path.to_path_buf(),
        });
    }
    // The file holds an earlier write than the other program's last: that one is kept beside
    // it, for the user to see.
    let kept = write_beside(file, held_bytes(&base)).map_err(failed)?;
    Err(EditError::Contended {
        file: path.to_path_buf(),
        kept,
    })
}

/// What a swap found at the file.
enum Swap {
    /// What skilldeck expected was there, and the new bytes are in its place.
    Placed,
    /// Something else was there: the new bytes are in its place, and this is what it held.
    Displaced(Held),
    /// Something else is there, and nothing was written: this is what it holds.
    Refused(Held),
}

/// Put `put` at `file` in one step, when it holds `at_file`; what comes out is kept in
/// `aside` until the edit is settled.
fn swap(file: &Path, at_file: &Held, put: &Held, aside: &mut Aside) -> io::Result<Swap> {
    let look = |file: &Path| read(file).map_err(into_io);
    match put {
        Held::Bytes(bytes) => {
            let temp = write_beside(file, bytes)?;
            // A last look first: most writes meanwhile are seen here, before anything moves.
            let now = look(file).inspect_err(|_| drop(fs::remove_file(&temp)))?;
            if now != *at_file {
                let _ = fs::remove_file(&temp);
                return Ok(Swap::Refused(now));
            }
            let swapped = match at_file {
                Held::Absent => crate::fs::rename_no_replace(&temp, file),
                Held::Bytes(_) => crate::fs::exchange(&temp, file),
            };
            match swapped {
                Ok(()) if *at_file == Held::Absent => Ok(Swap::Placed),
                Ok(()) => aside.look_at(temp, at_file),
                // Made, or removed, meanwhile: nothing moved.
                Err(error)
                    if matches!(
                        error.kind(),
                        io::ErrorKind::AlreadyExists | io::ErrorKind::NotFound
                    ) =>
                {
                    let _ = fs::remove_file(&temp);
                    Ok(Swap::Refused(look(file)?))
                }
                Err(error) => {
                    let _ = fs::remove_file(&temp);
                    Err(error)
                }
            }
        }
        Held::Absent => {
            // Moved aside in one step, then looked at: removing by name could remove a file
            // another program had just put there.
            let temp = free_name_beside(file)?;
            match crate::fs::rename_no_replace(file, &temp) {
                Ok(()) => aside.look_at(temp, at_file),
                Err(error) if error.kind() == io::ErrorKind::NotFound => {
                    Ok(Swap::Refused(Held::Absent))
                }
                Err(error) => Err(error),
            }
        }
    }
}

/// The copies a swap moved out of the file, with what each held when it was moved: removed
/// once the edit is settled, and looked at again first, since a program writing in place may
/// have opened the old file before the swap and still be writing into it.
///
/// A write that lands in a copy late is the other program's latest only while nothing it
/// wrote has been seen at the file since the copy was moved: a program writes one thing
/// after another, so what it put at the file after opening the old one is the newer (the
/// copy's write was already done by then). A copy is no longer watched once that is seen.
#[derive(Default)]
struct Aside {
    copies: Vec<Copy>,
}

struct Copy {
    path: PathBuf,
    held: Held,
    watched: bool,
}

impl Aside {
    /// Keep the copy at `temp`, and say whether it held what was expected at the file.
    fn look_at(&mut self, temp: PathBuf, expected: &Held) -> io::Result<Swap> {
        let held = read(&temp).map_err(into_io)?;
        let theirs = held != *expected;
        if theirs {
            self.seen_newer();
        }
        self.copies.push(Copy {
            path: temp,
            held: held.clone(),
            watched: true,
        });
        Ok(if theirs {
            Swap::Displaced(held)
        } else {
            Swap::Placed
        })
    }

    /// Another program's write was seen at the file: it is newer than any write still
    /// landing in a copy.
    fn seen_newer(&mut self) {
        for copy in &mut self.copies {
            copy.watched = false;
        }
    }

    /// What a watched copy holds now when it is not what it held when it was moved: a write
    /// that landed in the old file after the swap, the other program's latest.
    fn written(&mut self) -> io::Result<Option<Held>> {
        let mut late = None;
        for (at, copy) in self.copies.iter_mut().enumerate() {
            if !copy.watched {
                continue;
            }
            let now = read(&copy.path).map_err(into_io)?;
            if now != copy.held {
                copy.held = now.clone();
                late = Some((at, now));
            }
        }
        let Some((at, now)) = late else {
            return Ok(None);
        };
        for (other, copy) in self.copies.iter_mut().enumerate() {
            copy.watched &= other == at;
        }
        Ok(Some(now))
    }

    fn clear(&mut self) {
        for copy in self.copies.drain(..) {
            let _ = fs::remove_file(copy.path);
        }
    }
}

fn into_io(error: EditError) -> io::Error {
    match error {
        EditError::Read { source, .. } => source,
        other => io::Error::other(other.to_string()),
    }
}

fn held_bytes(held: &Held) -> &[u8] {
    match held {
        Held::Absent => &[],
        Held::Bytes(bytes) => bytes,
    }
}

/// Keep what the file holds before it is changed, for `undo`.
fn keep(machine: &Machine, path: &Path, held: &Held) -> Result<SettingsWas, EditError> {
    match held {
        Held::Absent => Ok(SettingsWas::Absent),
        Held::Bytes(bytes) => {
            backup::keep(machine, bytes)
                .map(SettingsWas::Kept)
                .map_err(|source| EditError::Backup {
                    file: path.to_path_buf(),
                    source,
                })
        }
    }
}

/// The name of a temporary file beside `file`, its `attempt`th.
fn beside(file: &Path, attempt: u32) -> PathBuf {
    let dir = file.parent().unwrap_or(Path::new("."));
    let name = file
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    dir.join(format!(
        ".{name}.skilldeck-{}-{attempt}",
        std::process::id()
    ))
}

/// A name beside `file` that nothing has.
fn free_name_beside(file: &Path) -> io::Result<PathBuf> {
    (0..1000u32)
        .map(|attempt| beside(file, attempt))
        .find(|temp| temp.symlink_metadata().is_err())
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                "no free name for a temporary file beside it",
            )
        })
}

/// `bytes` in a new temporary file beside `file`, synced, with `file`'s mode (or a private one
/// when `file` is new); the folder is made when missing, as the agents' own `/skills` do.
fn write_beside(file: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
    let dir = file.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let mode = mode_of(file).unwrap_or(NEW_FILE_MODE);
    for attempt in 0..1000u32 {
        let temp = beside(file, attempt);
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
