//! Prune: a retention policy for the snapshot store, so it does not grow without end.
//!
//! A snapshot is removed only when all of these hold: it is not among the last
//! [`Policy::keep`] of its skill, it is not the latest of its skill (what diffs compare
//! against), it is not a baseline the user accepted, and it is older than
//! [`Policy::older_than`]. Nothing is lost at once: removed snapshots are moved into a held
//! area of the data directory and journalled, so `undo` puts them back. What earlier
//! prunes, deletes and undone accepts held is emptied for good by the next prune, which says
//! how much that freed (their undo then refuses, saying so); a dry run only says what it
//! would do.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use crate::roots::Machine;
use crate::snapshot::{Snapshot, SnapshotError, Store};

use super::journal::{Entry, Journal, JournalError, Operation, StoreChange};
use super::snapshot::stamp;

/// What a prune keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// The last this many snapshots of each skill are kept.
    pub keep: usize,
    /// Snapshots younger than this are kept.
    pub older_than: Duration,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            keep: 5,
            older_than: Duration::from_secs(30 * 24 * 60 * 60),
        }
    }
}

/// What a prune did, or would do on a dry run.
#[derive(Debug, Default)]
pub struct Pruned {
    /// The snapshots removed from the store (held for undo), by skill, oldest first.
    pub removed: Vec<Snapshot>,
    /// The bytes they took.
    pub bytes: u64,
    /// The held area's folders of earlier deletes and prunes, emptied for good.
    pub emptied: Vec<PathBuf>,
    /// The bytes emptying them freed.
    pub emptied_bytes: u64,
    /// Snapshots whose record could not be read: never pruned, and named here.
    pub unreadable: Vec<SnapshotError>,
    pub dry_run: bool,
    pub unjournalled: Option<JournalError>,
}

/// Apply `policy` to every skill's snapshots, then empty what earlier prunes and deletes
/// held. With `dry_run`, nothing is written: the result says what would be.
///
/// # Errors
/// When the store or the held area cannot be read or written. Snapshots already held when
/// the failure came stay held, and journalled.
pub fn prune(machine: &Machine, policy: &Policy, dry_run: bool) -> Result<Pruned, SnapshotError> {
    let store = Store::open(&machine.env);
    let earlier = store.holds()?;
    let mut pruned = Pruned {
        dry_run,
        ..Pruned::default()
    };
    let now = SystemTime::now();
    for history in store.each_history()? {
        let mut loaded = Vec::new();
        for snapshot in history {
            match snapshot {
                Ok(snapshot) => loaded.push(snapshot),
                Err(error) => pruned.unreadable.push(error),
            }
        }
        pruned.removed.extend(removable(loaded, policy, now));
    }
    pruned.bytes = pruned.removed.iter().map(Snapshot::size).sum();
    pruned.emptied_bytes = earlier.iter().map(|(_, bytes)| bytes).sum();
    pruned.emptied = earlier.into_iter().map(|(hold, _)| hold).collect();
    if dry_run {
        return Ok(pruned);
    }
    if !pruned.removed.is_empty() {
        let mut entry = Entry::now(Operation::Prune, Vec::new());
        let hold = store.new_hold(&stamp(&entry.at))?;
        let mut failure = None;
        for snapshot in &pruned.removed {
            match store.hold(snapshot, &hold) {
                Ok(held) => entry.store.push(StoreChange::Held {
                    dir: snapshot.info.dir.clone(),
                    id: snapshot.id.clone(),
                    history: snapshot.history_name(),
                    held,
                }),
                Err(error) => {
                    failure = Some(error);
                    break;
                }
            }
        }
        // What was held is journalled even when a later one failed, so undo knows of it.
        pruned.unjournalled = Journal::record_entry(machine, entry);
        if let Some(error) = failure {
            return Err(error);
        }
    }
    for hold in &pruned.emptied {
        store.empty_hold(hold)?;
    }
    Ok(pruned)
}

/// The snapshots of one skill (oldest first) that `policy` removes.
fn removable(history: Vec<Snapshot>, policy: &Policy, now: SystemTime) -> Vec<Snapshot> {
    let kept_from = history.len().saturating_sub(policy.keep.max(1));
    history
        .into_iter()
        .take(kept_from)
        .filter(|snapshot| !snapshot.is_accepted())
        .filter(|snapshot| {
            now.duration_since(snapshot.info.taken_at)
                .is_ok_and(|age| age > policy.older_than)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{Info, Reason, content_digest};
    use std::path::Path;

    fn snapshot(id: &str, days_old: u64, reason: Reason, dir: &Path) -> Snapshot {
        Snapshot {
            id: id.to_owned(),
            path: PathBuf::from(id),
            info: Info {
                digest: content_digest(dir).unwrap(),
                truncated: false,
                skipped_links: 0,
                changed: false,
                dir: PathBuf::new(),
                taken_at: SystemTime::now() - Duration::from_secs(days_old * 86_400),
                reason,
                accepted: false,
            },
        }
    }

    fn ids(snapshots: &[Snapshot]) -> Vec<&str> {
        snapshots.iter().map(|s| s.id.as_str()).collect()
    }

    #[test]
    fn only_old_unaccepted_snapshots_before_the_last_n_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("SKILL.md"), "---\nname: a\n---\n").unwrap();
        let dir = tmp.path();
        let history = vec![
            snapshot("a", 90, Reason::Manual, dir),
            snapshot("b", 80, Reason::Accepted, dir),
            snapshot("c", 70, Reason::BeforeRemove, dir),
            snapshot("d", 3, Reason::Manual, dir),
            snapshot("e", 60, Reason::Manual, dir),
            snapshot("f", 50, Reason::Manual, dir),
        ];
        let policy = Policy {
            keep: 2,
            older_than: Duration::from_secs(30 * 86_400),
        };
        let removed = removable(history.clone(), &policy, SystemTime::now());
        // b is accepted, d is young, e and f are the last two.
        assert_eq!(ids(&removed), ["a", "c"]);
        let mut marked = history.clone();
        marked[0].info.accepted = true;
        assert_eq!(ids(&removable(marked, &policy, SystemTime::now())), ["c"]);
    }

    #[test]
    fn the_latest_is_kept_even_when_the_policy_keeps_none() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("SKILL.md"), "---\nname: a\n---\n").unwrap();
        let history = vec![
            snapshot("a", 90, Reason::Manual, tmp.path()),
            snapshot("b", 80, Reason::Manual, tmp.path()),
        ];
        let policy = Policy {
            keep: 0,
            older_than: Duration::ZERO,
        };
        assert_eq!(ids(&removable(history, &policy, SystemTime::now())), ["a"]);
    }
}
