//! Snapshot, accept and delete: keep a copy of skill folders as they are now (accept makes
//! that copy the baseline diffs compare against), journalling every snapshot that was new;
//! delete one snapshot, held aside so `undo` can put it back.

use std::io::{self, BufReader, Read as _};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::fs::{Links, open_regular};
use crate::limits::{SESSION_SKILLS, TRANSCRIPT_BYTES};
use crate::roots::Machine;
use crate::snapshot::history;
use crate::snapshot::{Reason, Snapshot, SnapshotError, Store, Taken};
use crate::text::human;
use crate::usage::transcript;

use super::journal::{Change, Entry, Journal, JournalError, Operation, StoreChange, Was};

/// What snapshotting some folders did.
#[derive(Debug)]
pub struct Snapshots {
    /// Each folder asked for, in order, with what became of it.
    pub taken: Vec<(PathBuf, Result<Taken, SnapshotError>)>,
    /// The journal could not be told of the new snapshots.
    pub unjournalled: Option<JournalError>,
}

/// Snapshot each of `dirs` by hand ([`Reason::Manual`]), several at once.
pub fn snapshot(machine: &Machine, dirs: Vec<PathBuf>) -> Snapshots {
    snapshot_because(machine, dirs, Reason::Manual)
}

/// Snapshot each of `dirs` for `reason` (an agent's transcript named them, say).
pub fn snapshot_because(machine: &Machine, dirs: Vec<PathBuf>, reason: Reason) -> Snapshots {
    let store = Store::open(&machine.env);
    let taken: Vec<(PathBuf, Result<Taken, SnapshotError>)> = dirs
        .into_par_iter()
        .map(|dir| {
            let result = store.take(&dir, reason);
            (dir, result)
        })
        .collect();
    let changes = taken
        .iter()
        .filter_map(|(dir, result)| match result {
            Ok(taken) if taken.fresh => Some(untouched(dir, taken)),
            _ => None,
        })
        .collect();
    let unjournalled = Journal::record(machine, Operation::Snapshot, changes);
    Snapshots {
        taken,
        unjournalled,
    }
}

/// Whether a snapshot failed only because its folder is not a skill folder (any more): an
/// agent's bundled skill in a temporary folder that is gone, or a folder named that holds no
/// `SKILL.md`. Such a folder is passed over, not a failure.
pub fn not_a_skill(error: &SnapshotError) -> bool {
    match error {
        SnapshotError::NotSkill(_) => true,
        SnapshotError::Read { source, .. } => source.kind() == io::ErrorKind::NotFound,
        _ => false,
    }
}

/// Why the skill folders an agent session used could not be read from its transcript.
#[derive(Debug, thiserror::Error)]
pub enum FromTranscriptError {
    #[error("{}: no such file", .0.display())]
    Missing(PathBuf),
    #[error("{} could not be read: {}", .path.display(), crate::fs::said(.source))]
    Read { path: PathBuf, source: io::Error },
    #[error("{} could not be read: {source}", .path.display())]
    Transcript {
        path: PathBuf,
        source: transcript::TranscriptError,
    },
    #[error(
        "{} could not be read: it is larger than the {} skilldeck reads of a transcript",
        .0.display(),
        human::size(TRANSCRIPT_BYTES)
    )]
    TooLarge(PathBuf),
}

/// The skill folders an agent session used, as its transcript (a Claude Code JSONL transcript,
/// or OpenCode's output) names them: what a snapshot "from a transcript" takes. Only a
/// regular file is opened (a hook runs this unattended: a FIFO or a device named here must
/// not make it wait or act), and only so much of it is read.
///
/// # Errors
/// [`FromTranscriptError`] when the file is not there, cannot be read, or is too large.
pub fn named_by_transcript(file: &Path) -> Result<Vec<PathBuf>, FromTranscriptError> {
    let opened = open_regular(file, Links::Follow).map_err(|source| {
        if source.kind() == io::ErrorKind::NotFound {
            FromTranscriptError::Missing(file.to_path_buf())
        } else {
            FromTranscriptError::Read {
                path: file.to_path_buf(),
                source,
            }
        }
    })?;
    let mut reader = BufReader::new(opened.take(TRANSCRIPT_BYTES + 1));
    let found = transcript::skill_dirs(&mut reader, SESSION_SKILLS).map_err(|source| {
        FromTranscriptError::Transcript {
            path: file.to_path_buf(),
            source,
        }
    })?;
    if reader.into_inner().limit() == 0 {
        return Err(FromTranscriptError::TooLarge(file.to_path_buf()));
    }
    Ok(found)
}

/// What accepting a skill as it is did.
#[derive(Debug)]
pub struct Accepted {
    pub taken: Taken,
    pub unjournalled: Option<JournalError>,
}

/// Accept the skill folder `dir` as it is now as its new baseline: journalled, so `undo`
/// makes the baseline before it the latest again (or takes the accepted mark away when the
/// latest already held the content).
///
/// # Errors
/// [`SnapshotError::Gone`] when the folder is gone or no longer a skill; when a file cannot
/// be read, or the store cannot be written.
pub fn accept(machine: &Machine, dir: &Path) -> Result<Accepted, SnapshotError> {
    let store = Store::open(&machine.env);
    let was_accepted = store
        .latest(dir)
        .ok()
        .flatten()
        .is_some_and(|latest| latest.is_accepted());
    let taken = store.accept(dir)?;
    let mut entry = Entry::now(Operation::Accept, Vec::new());
    let (dir, id) = (taken.snapshot.info.dir.clone(), taken.snapshot.id.clone());
    if taken.fresh {
        entry.changes.push(untouched(&dir, &taken));
        entry.store.push(StoreChange::Added { dir, id });
    } else if !was_accepted {
        entry.store.push(StoreChange::Marked { dir, id });
    }
    let unjournalled = Journal::record_entry(machine, entry);
    Ok(Accepted {
        taken,
        unjournalled,
    })
}

/// What deleting a snapshot did.
#[derive(Debug)]
pub struct Deleted {
    pub snapshot: Snapshot,
    /// The bytes it took in the store (now held so `undo` can bring it back).
    pub bytes: u64,
    /// It was the latest of its skill: the one before it is now what diffs compare against.
    pub was_latest: bool,
    /// The skill's latest snapshot now, once it is gone; `None` when it has none left.
    pub latest_now: Option<String>,
    /// Where it is held until a later prune empties the held area.
    pub held: PathBuf,
    pub unjournalled: Option<JournalError>,
}

/// Delete the snapshot `id` (or the start of one) of the skill folder `dir`: held aside and
/// journalled, so `undo` brings it back. A damaged snapshot can be deleted too, even one
/// whose record cannot be read.
///
/// # Errors
/// When no snapshot or several match, or the store cannot be written.
pub fn delete(machine: &Machine, dir: &Path, id: &str) -> Result<Deleted, SnapshotError> {
    let store = Store::open(&machine.env);
    let (snapshot, was_latest) = one_of(&store, dir, id)?;
    let bytes = snapshot.size();
    let mut entry = Entry::now(Operation::DeleteSnapshot, Vec::new());
    let hold = store.new_hold(&stamp(&entry.at))?;
    let held = store.hold(&snapshot, &hold)?;
    entry.store.push(StoreChange::Held {
        dir: snapshot.info.dir.clone(),
        id: snapshot.id.clone(),
        history: snapshot.history_name(),
        held: held.clone(),
    });
    let unjournalled = Journal::record_entry(machine, entry);
    let latest_now = store.latest(dir).ok().flatten().map(|latest| latest.id);
    Ok(Deleted {
        snapshot,
        bytes,
        was_latest,
        latest_now,
        held,
        unjournalled,
    })
}

/// The snapshot of `dir` whose id is `id` or starts with it, damaged or not, and whether it
/// is the latest.
fn one_of(store: &Store, dir: &Path, id: &str) -> Result<(Snapshot, bool), SnapshotError> {
    let unknown = || SnapshotError::UnknownId {
        id: id.to_owned(),
        dir: dir.to_path_buf(),
    };
    if id.is_empty() || id.starts_with('.') || id.contains(['/', '\\']) {
        return Err(unknown());
    }
    let mut listed = store.history_lenient(dir)?;
    let last = listed.len().saturating_sub(1);
    let at = match listed.iter().position(|(found, _)| found == id) {
        Some(exact) => exact,
        None => {
            let matching: Vec<usize> = (0..listed.len())
                .filter(|&at| listed[at].0.starts_with(id))
                .collect();
            match matching[..] {
                [one] => one,
                [] => return Err(unknown()),
                _ => {
                    return Err(SnapshotError::AmbiguousId {
                        id: id.to_owned(),
                        ids: matching.iter().map(|&at| listed[at].0.clone()).collect(),
                    });
                }
            }
        }
    };
    let (found, loaded) = listed.swap_remove(at);
    let snapshot = loaded.unwrap_or_else(|_| history::stand_in(store, dir, &found));
    Ok((snapshot, at == last))
}

/// A journal time (`2026-12-01T15:32:05.123Z`) as a folder name: `20261201-153205-123`.
pub(super) fn stamp(at: &str) -> String {
    at.chars()
        .filter_map(|c| match c {
            'T' | '.' => Some('-'),
            c if c.is_ascii_digit() => Some(c),
            _ => None,
        })
        .collect()
}

fn untouched(dir: &Path, taken: &Taken) -> Change {
    Change {
        dir: dir.to_path_buf(),
        was: Was::Untouched,
        snapshot: Some(taken.snapshot.id.clone()),
        link: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_time_becomes_a_plain_folder_name() {
        assert_eq!(stamp("2026-12-01T15:32:05.123Z"), "20261201-153205-123");
    }
}
