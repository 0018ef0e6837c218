//! One skill's history as people read it: every snapshot, oldest first, with its size and
//! what changed since the one before. The command line's `snapshots SKILL` and the app's
//! history view both show this.

use std::path::Path;
use std::time::SystemTime;

use sha2::{Digest as _, Sha256};
use similar::{ChangeTag, TextDiff};

use crate::fs::{Links, read_bounded};

use super::walk::Entry;
use super::{COPY_BOUND, Info, Reason, Snapshot, SnapshotError, Store};

/// One snapshot in a skill's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub snapshot: Snapshot,
    /// The bytes its copied files take.
    pub size: u64,
    /// What changed from the snapshot before it; `None` for the first, or when the two could
    /// not be compared (one is damaged).
    pub since_previous: Option<Summary>,
    /// The store was edited or damaged where it is kept (its place, its record, a link, or
    /// files that no longer give its digest): diff and restore refuse it.
    pub damaged: bool,
}

/// What changed between two snapshots, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    pub files_added: usize,
    pub files_removed: usize,
    pub files_modified: usize,
    pub lines_added: usize,
    pub lines_removed: usize,
}

/// The most of one file whose lines are counted: past it a changed file counts as modified,
/// with no lines, so a history of dozens of snapshots stays cheap to read.
const COUNTED_BYTES: u64 = 256 << 10;

/// The history of the skill folder at `dir`, oldest first. A snapshot whose record cannot
/// be read, or that is damaged where it is kept, is listed with `damaged` (its record, when
/// unreadable, stood in for by what its id says) and is compared with neither neighbour.
///
/// # Errors
/// When the store cannot be read.
pub fn history(store: &Store, dir: &Path) -> Result<Vec<Step>, SnapshotError> {
    let mut steps: Vec<Step> = Vec::new();
    let mut previous: Option<Vec<File>> = None;
    for (id, loaded) in store.history_lenient(dir)? {
        let (snapshot, files) = match loaded {
            Ok(snapshot) => {
                let files = snapshot
                    .kept(dir)
                    .ok()
                    .and_then(|kept| files_of(&kept).ok())
                    .filter(|files| {
                        snapshot.info.truncated || digest_of(files) == snapshot.info.digest
                    });
                (snapshot, files)
            }
            Err(_) => (stand_in(store, dir, &id), None),
        };
        let since_previous = match (&previous, &files) {
            (Some(old), Some(new)) => Some(summary(old, new)),
            _ => None,
        };
        steps.push(Step {
            size: snapshot.size(),
            damaged: files.is_none(),
            since_previous,
            snapshot,
        });
        previous = files;
    }
    Ok(steps)
}

/// One kept file, as a history compares it.
struct File {
    rel: String,
    size: u64,
    executable: bool,
    hash: [u8; 32],
    /// Its text, when it is text and small enough to count lines of.
    text: Option<String>,
}

fn files_of(kept: &[Entry]) -> Result<Vec<File>, std::io::Error> {
    kept.iter()
        .map(|entry| {
            let bytes = read_bounded(&entry.source, Links::Refuse, COPY_BOUND)?;
            let text = (entry.size <= COUNTED_BYTES && !bytes.contains(&0))
                .then(|| String::from_utf8(bytes.clone()).ok())
                .flatten();
            Ok(File {
                rel: entry.rel.clone(),
                size: entry.size,
                executable: entry.executable,
                hash: Sha256::digest(&bytes).into(),
                text,
            })
        })
        .collect()
}

/// The digest the files give: a snapshot whose files do not give its own is damaged.
fn digest_of(files: &[File]) -> super::SnapshotDigest {
    let mut digest = super::digest::DigestBuilder::default();
    for file in files {
        digest.add(&file.rel, file.executable, &file.hash);
    }
    digest.finish()
}

/// What changed from `old` to `new`, both sorted by path.
fn summary<'a>(old: &'a [File], new: &'a [File]) -> Summary {
    let mut summary = Summary::default();
    let lines = |text: &Option<String>| text.as_deref().map_or(0, |t| t.lines().count());
    // Both sorted by path, so each file is found by bisection: a skill of thousands of files
    // over dozens of snapshots stays cheap.
    let find = |files: &'a [File], rel: &str| {
        files
            .binary_search_by(|f| f.rel.as_str().cmp(rel))
            .ok()
            .map(|at| &files[at])
    };
    for file in new {
        match find(old, &file.rel) {
            None => {
                summary.files_added += 1;
                summary.lines_added += lines(&file.text);
            }
            Some(was) if was.size != file.size || was.hash != file.hash => {
                summary.files_modified += 1;
                if let (Some(before), Some(after)) = (&was.text, &file.text) {
                    for change in TextDiff::from_lines(before, after).iter_all_changes() {
                        match change.tag() {
                            ChangeTag::Insert => summary.lines_added += 1,
                            ChangeTag::Delete => summary.lines_removed += 1,
                            ChangeTag::Equal => {}
                        }
                    }
                }
            }
            Some(_) => {}
        }
    }
    for file in old {
        if find(new, &file.rel).is_none() {
            summary.files_removed += 1;
            summary.lines_removed += lines(&file.text);
        }
    }
    summary
}

/// A snapshot whose record cannot be read, as its id and place say: its time from the id,
/// no reason, the digest of nothing.
pub(crate) fn stand_in(store: &Store, dir: &Path, id: &str) -> Snapshot {
    let real = crate::fs::canonical(dir).unwrap_or_else(|_| dir.to_path_buf());
    let taken_at = id
        .get(..19)
        .and_then(|stamp| {
            let t = format!(
                "{}-{}-{}T{}:{}:{}.{}Z",
                stamp.get(0..4)?,
                stamp.get(4..6)?,
                stamp.get(6..8)?,
                stamp.get(9..11)?,
                stamp.get(11..13)?,
                stamp.get(13..15)?,
                stamp.get(16..19)?
            );
            humantime::parse_rfc3339(&t).ok()
        })
        .unwrap_or(SystemTime::UNIX_EPOCH);
    Snapshot {
        id: id.to_owned(),
        path: store.snapshot_path(&real, id),
        info: Info {
            digest: super::digest::DigestBuilder::default().finish(),
            truncated: false,
            skipped_links: 0,
            changed: false,
            dir: real,
            taken_at,
            reason: Reason::Unrecorded,
            accepted: false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(rel: &str, text: &str) -> File {
        File {
            rel: rel.to_owned(),
            size: text.len() as u64,
            executable: false,
            hash: Sha256::digest(text.as_bytes()).into(),
            text: Some(text.to_owned()),
        }
    }

    #[test]
    fn the_same_files_summarise_as_nothing_and_a_mode_or_byte_change_as_modified() {
        let old = [file("a.md", "1\n2\n"), file("b.md", "b\n")];
        assert_eq!(summary(&old, &old), Summary::default());
        let new = [file("a.md", "1\n3\n"), file("c.md", "c\n")];
        assert_eq!(
            summary(&old, &new),
            Summary {
                files_added: 1,
                files_removed: 1,
                files_modified: 1,
                lines_added: 2,
                lines_removed: 2,
            }
        );
    }

    #[test]
    fn a_snapshot_with_an_unreadable_record_keeps_the_time_its_id_gives() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::at(tmp.path().join("store"));
        let stand_in = stand_in(&store, tmp.path(), "20261201-153205-123-ab12cd");
        assert_eq!(
            humantime::format_rfc3339_millis(stand_in.info.taken_at).to_string(),
            "2026-12-01T15:32:05.123Z"
        );
        assert_eq!(stand_in.info.reason, Reason::Unrecorded);
        let odd = super::stand_in(&store, tmp.path(), "odd");
        assert_eq!(odd.info.taken_at, SystemTime::UNIX_EPOCH);
    }
}
