//! The history view's work, each on a thread of its own: a skill's history and the store's
//! size, a snapshot diffed against the files now or against another snapshot, and a snapshot
//! deleted. Each answers with one message: the result for the app, or a sentence saying why not.

use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;

use crate::operations;
use crate::roots::Machine;
use crate::snapshot::{Store, diff, history};

use super::tasks::{against_snapshot, diff_view, spawn_diff};
pub use crate::tui::failed::HistoryFailed;

use super::{guard, spawn};
use crate::text::human::size;
use crate::text::sanitize;
use crate::text::{Unsafe, human};
use crate::tui::diff::{Against, DiffView};
use crate::tui::failed::{DiffError, TaskError};
use crate::tui::history::HistoryView;
use crate::tui::manage::with_journal;
use crate::tui::msg::Msg;

/// Read the history of the skill at `dir`, with how much the store holds.
pub fn read(machine: &Machine, tx: Sender<Msg>, request: u64, dir: PathBuf) {
    let machine = machine.clone();
    spawn("skilldeck-history", tx, move |_| {
        let history = guard("Reading the history", || read_history(&machine, &dir))
            .unwrap_or_else(|stopped| Err(stopped.into()))
            .map(Box::new);
        Msg::History { request, history }
    });
}

/// The history of the skill at `dir`, as the app shows it.
pub fn read_history(machine: &Machine, dir: &Path) -> Result<HistoryView, HistoryFailed> {
    let store = Store::open(&machine.env);
    let steps = history::history(&store, dir).map_err(|source| HistoryFailed::Unreadable {
        shown: human::path(dir, machine.home(), Unsafe::Dropped),
        source,
    })?;
    // The store's size is for the title; the history shows without it.
    Ok(HistoryView::new(steps, store.usage()))
}

/// Diff the snapshot `old` of the skill `name` at `dir` against the snapshot `new`, or
/// against the files now when `new` is `None`.
pub fn diff(
    machine: &Machine,
    tx: Sender<Msg>,
    request: u64,
    name: String,
    dir: PathBuf,
    (old, new): (String, Option<String>),
) {
    let machine = machine.clone();
    spawn_diff(tx, request, move || {
        diff_snapshots(&machine, &name, &dir, &old, new.as_deref())
    });
}

/// The diff of two snapshots, or of one and the files now, as the app shows it.
pub fn diff_snapshots(
    machine: &Machine,
    name: &str,
    dir: &Path,
    old: &str,
    new: Option<&str>,
) -> Result<DiffView, DiffError> {
    let store = Store::open(&machine.env);
    let old = store.find(dir, Some(old))?;
    let (against, diff) = match new {
        None => (against_snapshot(&old), diff::diff(&old, dir)?),
        Some(new) => {
            let new = store.find(dir, Some(new))?;
            (
                Against::Between {
                    old: sanitize::line(&old.id),
                    new: sanitize::line(&new.id),
                },
                diff::between_snapshots(&old, &new, dir)?,
            )
        }
    };
    Ok(diff_view(machine, name, dir, against, &diff))
}

/// Delete the snapshot `id` of the skill `name` at `dir`; held aside, so undo brings it back.
pub fn delete(machine: &Machine, tx: Sender<Msg>, name: String, dir: PathBuf, id: String) {
    let machine = machine.clone();
    spawn("skilldeck-delete", tx, move |_| {
        let result = guard("The delete", || {
            operations::snapshot::delete(&machine, &dir, &id)
        });
        let (result, rescan) = match result {
            Err(stopped) => (Err(TaskError::Stopped(stopped)), false),
            Ok(Err(source)) => (Err(TaskError::Delete { id, name, source }), false),
            Ok(Ok(deleted)) => {
                let mut text = format!(
                    "Deleted snapshot {} of {name} ({}, {}); it is held at {} until the next prune, and {} brings it back.",
                    deleted.snapshot.id,
                    deleted.snapshot.info.reason.describe(),
                    size(deleted.bytes),
                    human::path(&deleted.held, machine.home(), Unsafe::Dropped),
                    crate::tui::keymap::key_for(
                        crate::tui::keymap::Mode::History,
                        crate::tui::msg::Action::Undo
                    )
                );
                if deleted.was_latest {
                    text.push_str(&match &deleted.latest_now {
                        Some(now) => {
                            format!(" It was the latest: diffs now compare against snapshot {now}.")
                        }
                        None => " It was the only one: the skill has no snapshot now.".to_owned(),
                    });
                }
                let text = with_journal(text, deleted.unjournalled.as_ref());
                (
                    Ok(sanitize::line(&text).into()),
                    // What the changed screen compares against moved back one.
                    deleted.was_latest,
                )
            }
        };
        Msg::TaskDone { result, rescan }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roots::Environment;

    #[test]
    fn a_history_that_cannot_be_read_is_one_display_safe_sentence() {
        use crate::tui::failed::Stopped;
        let failed = HistoryFailed::Unreadable {
            shown: "~/skills/a\u{1b}[2Jb".to_owned(),
            source: crate::snapshot::SnapshotError::Read {
                path: "/store/x\ny".into(),
                source: std::io::Error::other("denied\u{7}"),
            },
        };
        assert_eq!(
            failed.to_string(),
            "The history of ~/skills/ab could not be read: /store/x y could not be read: denied"
        );
        let stopped = HistoryFailed::from(Stopped {
            work: "Reading the history",
            panic: "boom".to_owned(),
        });
        assert_eq!(stopped.to_string(), "Reading the history stopped: boom");
    }

    #[test]
    fn a_snapshot_is_diffed_against_the_files_now_by_its_id() {
        let tmp = tempfile::tempdir().unwrap();
        let machine = Machine::new(Environment::new(tmp.path()), tmp.path());
        let dir = tmp.path().join(".claude/skills/notes");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), "---\nname: notes\n---\nfirst\n").unwrap();
        let store = Store::open(&machine.env);
        let taken = store
            .take(&dir, crate::snapshot::Reason::Manual)
            .unwrap()
            .snapshot;
        std::fs::write(dir.join("SKILL.md"), "---\nname: notes\n---\nsecond\n").unwrap();

        let view = diff_snapshots(&machine, "notes", &dir, &taken.id, None).unwrap();
        assert!(matches!(&view.against, Against::Snapshot { id, .. } if *id == taken.id));
        assert_eq!((view.added, view.removed), (1, 1));
        assert_eq!(view.files.len(), 1);

        // An id the store does not have is a sentence, not a panic.
        let unknown = diff_snapshots(&machine, "notes", &dir, "nope", None)
            .unwrap_err()
            .to_string();
        assert!(unknown.contains("nope"), "{unknown}");
    }
}
