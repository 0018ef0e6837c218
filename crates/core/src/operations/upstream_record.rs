//! Every change an operation makes to skilldeck's upstream record (`record::upstream`: where
//! a skill folder it imported from git came from), made here and returned for the operation's
//! journal entry, so that `undo` puts the record back with the folder: an import undone
//! forgets where the skill came from, a removal undone remembers it again, a move takes it
//! along, an update undone names the commit before.

use std::io;
use std::path::Path;

use crate::record::upstream::{self, Upstream};
use crate::roots::Machine;

use super::journal::UpstreamChange;

/// Make `dir`'s record say `now` (`None`: forget it); the change made, or `None` when the
/// record already said so.
///
/// # Errors
/// When the data folder cannot be written.
pub fn set(
    machine: &Machine,
    dir: &Path,
    now: Option<&Upstream>,
) -> io::Result<Option<UpstreamChange>> {
    let data = machine.data_dir();
    let dir = upstream::key_dir(dir);
    let was = upstream::of(&data, &dir);
    if was.as_ref() == now {
        return Ok(None);
    }
    match now {
        Some(now) => upstream::write(&data, &dir, now)?,
        None => upstream::forget(&data, &dir)?,
    }
    Ok(Some(UpstreamChange {
        dir,
        was,
        now: now.cloned(),
    }))
}

/// Whether `change` is still what the record says: undo puts back only a record nobody
/// changed since.
pub fn holds(machine: &Machine, change: &UpstreamChange) -> bool {
    upstream::of(&machine.data_dir(), &change.dir) == change.now
}

/// Put back what the record said before `change`; the change that makes, for the undo's
/// entry.
///
/// # Errors
/// When the data folder cannot be written.
pub fn revert(machine: &Machine, change: &UpstreamChange) -> io::Result<Option<UpstreamChange>> {
    set(machine, &change.dir, change.was.as_ref())
}

/// What undoing `change` does to the record, in words, with `dir` as the front end shows it:
/// what `undo` is about to do.
pub fn undoing_in_words(change: &UpstreamChange, dir: &str) -> String {
    match &change.was {
        None => format!("where {dir} came from is forgotten"),
        Some(was) => format!("{dir} is recorded again as coming from {}", origin(was)),
    }
}

/// What an undo did to the record (a change of its own entry), in words.
pub fn undone_in_words(change: &UpstreamChange, dir: &str) -> String {
    match &change.now {
        None => format!("forgot where {dir} came from"),
        Some(now) => format!("recorded {dir} as coming from {} again", origin(now)),
    }
}

/// A recorded upstream in a sentence: the repository (a password hidden), its ref, the
/// commit as people read it.
fn origin(upstream: &Upstream) -> String {
    let commit = &upstream.commit[..upstream.commit.len().min(12)];
    format!(
        "{}, commit {commit}",
        crate::source::git::Spec::recorded(upstream).shown()
    )
}
