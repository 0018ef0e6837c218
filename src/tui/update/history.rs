//! The history view: one skill's snapshots, and what can be done with one — diff it against
//! the files now or against another (marked) snapshot, restore it, delete it — each asked
//! first where it changes anything, and the view read again after it did.

use std::path::PathBuf;

use super::{manage, note, rows_of, step, warn};
use crate::text::human::size;
use crate::tui::app::{App, Confirm, Overlay, Screen};
use crate::tui::history::{HistoryView, SnapshotRow};
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::{Action, Effect};
use crate::tui::views::{DiffState, History, Loading, View};
use crate::tui::workers::history::HistoryFailed;

/// Open the history of the skill the keys are on: the diff's, the changed screen's selected
/// one, or the list's. A diff open is closed: the history takes its place.
pub(super) fn open(app: &mut App) -> Vec<Effect> {
    let Some((name, dir, shown_dir)) = subject(app) else {
        note(app, "No skill is selected, so there is no history to show.");
        return Vec::new();
    };
    // Over the diff it was opened from, so Esc steps back to it, one level at a time.
    let request = app.next_request();
    app.views.open_history(History {
        request,
        name,
        dir: dir.clone(),
        shown_dir,
        view: Loading::Waiting,
        selected: 0,
        marked: None,
        diffed: None,
    });
    vec![Effect::ReadHistory { request, dir }]
}

/// The skill whose history `h` opens, by name, folder and folder as shown.
fn subject(app: &App) -> Option<(String, PathBuf, String)> {
    if let Some(diff) = app.views.diff() {
        let shown = match &diff.view {
            Loading::Ready(view) => view.shown_dir.clone(),
            _ => app
                .skill_at(&diff.dir)
                .map_or_else(|| diff.name.clone(), |s| s.shown_dir.clone()),
        };
        return Some((diff.name.clone(), diff.dir.clone(), shown));
    }
    if app.screen == Screen::Changed {
        return app
            .changes
            .selected()
            .map(|c| (c.name.clone(), c.dir.clone(), c.shown_dir.clone()));
    }
    app.selected_skill()
        .map(|s| (s.name.clone(), s.dir.clone(), s.shown_dir.clone()))
}

/// Read the open history again (after a task, or a scan, may have changed it), keeping the
/// selected snapshot selected.
pub(super) fn reread(app: &mut App) -> Vec<Effect> {
    let request = app.next_request();
    let Some(history) = app.views.history_mut() else {
        return Vec::new();
    };
    history.request = request;
    // The rows stay on screen until the new ones come: a refresh does not blank the view.
    if matches!(history.view, Loading::Failed(_)) {
        history.view = Loading::Waiting;
    }
    vec![Effect::ReadHistory {
        request,
        dir: history.dir.clone(),
    }]
}

/// A history arrived.
pub(super) fn arrived(
    app: &mut App,
    request: u64,
    result: Result<Box<HistoryView>, HistoryFailed>,
) {
    let Some(history) = app.views.history_mut() else {
        return;
    };
    if history.request != request {
        return;
    }
    let keep = history.selected().map(|r| r.id.clone());
    history.view = match result {
        Ok(view) => Loading::Ready(view),
        Err(failed) => Loading::Failed(failed.to_string()),
    };
    let rows = history.rows();
    let at = keep.and_then(|id| rows.iter().position(|r| r.id == id));
    history.selected = at.unwrap_or(history.selected.min(rows.len().saturating_sub(1)));
    // A marked snapshot deleted since is no longer marked.
    if let Some(marked) = &history.marked
        && history.row(marked).is_none()
    {
        history.marked = None;
    }
}

/// The history view's keys.
pub(super) fn act(app: &mut App, action: Action) -> Vec<Effect> {
    if let Some(rows) = rows_of(action, app.panes.history.page) {
        return move_by(app, rows);
    }
    match action {
        Action::Back => {
            app.views.close(View::History);
            Vec::new()
        }
        Action::ToggleHelp => {
            app.overlay = Overlay::Help;
            app.help_scroll = 0;
            Vec::new()
        }
        Action::Undo => manage::ask_undo(app),
        Action::ToggleMark | Action::OpenDiff | Action::Restore | Action::Remove => {
            on_snapshot(app, action)
        }
        _ => Vec::new(),
    }
}

pub(super) fn move_by(app: &mut App, rows: i32) -> Vec<Effect> {
    if let Some(history) = app.views.history_mut() {
        history.selected = step(history.selected, rows, history.rows().len());
    }
    Vec::new()
}

/// A click on a row of the history.
pub(super) fn select(app: &mut App, index: usize) -> Vec<Effect> {
    if let Some(history) = app.views.history_mut() {
        history.selected = index.min(history.rows().len().saturating_sub(1));
    }
    Vec::new()
}

/// Mark, diff, restore or delete the snapshot under the cursor.
fn on_snapshot(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(history) = app.views.history() else {
        return Vec::new();
    };
    let Some(row) = history.selected().cloned() else {
        let text = match &history.view {
            Loading::Waiting => "The history is still being read.".to_owned(),
            Loading::Failed(why) => why.clone(),
            Loading::Ready(_) => format!(
                "{} has no snapshot yet: {} in the skill list takes one.",
                history.name,
                keymap::key_for(Mode::Skills, Action::Snapshot)
            ),
        };
        warn(app, &text);
        return Vec::new();
    };
    let (name, dir, shown_dir) = (
        history.name.clone(),
        history.dir.clone(),
        history.shown_dir.clone(),
    );
    let marked = history.marked.clone();
    match action {
        Action::ToggleMark => {
            toggle_mark(app, &row);
            Vec::new()
        }
        Action::OpenDiff => match marked.filter(|m| *m != row.id) {
            Some(other) => diff_two(app, name, dir, &other, &row),
            None => diff_now(app, name, dir, &row),
        },
        Action::Restore => ask_restore(app, &name, dir, &shown_dir, &row),
        Action::Remove => ask_delete(app, &name, dir, &row),
        _ => Vec::new(),
    }
}

/// A damaged snapshot can be neither diffed nor restored: it is said so, not tried.
fn refuse_damaged(app: &mut App, row: &SnapshotRow, doing: &str) -> bool {
    if row.damaged {
        warn(
            app,
            &format!(
                "Snapshot {} was edited or damaged in the store, so it cannot be {doing}.",
                row.id
            ),
        );
    }
    row.damaged
}

fn toggle_mark(app: &mut App, row: &SnapshotRow) {
    let Some(history) = app.views.history_mut() else {
        return;
    };
    if history.marked.as_deref() == Some(row.id.as_str()) {
        history.marked = None;
        note(app, &format!("Snapshot {} unmarked.", row.id));
    } else {
        history.marked = Some(row.id.clone());
        note(
            app,
            &format!(
                "Snapshot {} marked: {} on another diffs the two.",
                row.id,
                keymap::key_for(Mode::History, Action::OpenDiff)
            ),
        );
    }
}

fn diff_now(app: &mut App, name: String, dir: PathBuf, row: &SnapshotRow) -> Vec<Effect> {
    if refuse_damaged(app, row, "diffed") {
        return Vec::new();
    }
    open_diff(app, name, dir, row.id.clone(), None)
}

/// Diff the marked snapshot and the one under the cursor, the older first.
fn diff_two(
    app: &mut App,
    name: String,
    dir: PathBuf,
    marked: &str,
    row: &SnapshotRow,
) -> Vec<Effect> {
    let Some(other) = app.views.history().and_then(|h| h.row(marked)).cloned() else {
        return diff_now(app, name, dir, row);
    };
    if refuse_damaged(app, &other, "diffed") || refuse_damaged(app, row, "diffed") {
        return Vec::new();
    }
    let (old, new) = if (other.taken_at, &other.id) <= (row.taken_at, &row.id) {
        (other, row.clone())
    } else {
        (row.clone(), other)
    };
    if let Some(history) = app.views.history_mut() {
        history.marked = None;
    }
    open_diff(app, name, dir, old.id, Some(new.id))
}

fn open_diff(
    app: &mut App,
    name: String,
    dir: PathBuf,
    old: String,
    new: Option<String>,
) -> Vec<Effect> {
    let request = app.next_request();
    let effect = Effect::DiffSnapshots {
        request,
        name: name.clone(),
        dir: dir.clone(),
        old,
        new,
    };
    app.views.open_diff(DiffState {
        request,
        name,
        dir,
        pristine: None,
        view: Loading::Waiting,
        scroll: 0,
    });
    if let Some(history) = app.views.history_mut() {
        history.diffed = Some((request, effect.clone()));
    }
    vec![effect]
}

/// Whether the diff open is one this history opened.
pub(super) fn owns_diff(app: &App) -> bool {
    match (
        app.views.diff(),
        app.views.history().and_then(|h| h.diffed.as_ref()),
    ) {
        (Some(diff), Some((request, _))) => diff.request == *request,
        _ => false,
    }
}

/// Make the diff this history opened again, after a task may have changed either side.
pub(super) fn refresh_diff(app: &mut App) -> Vec<Effect> {
    let request = app.next_request();
    let (Some(diff), Some(history)) = app.views.diff_and_history_mut() else {
        return Vec::new();
    };
    let Some((
        _,
        Effect::DiffSnapshots {
            name,
            dir,
            old,
            new,
            ..
        },
    )) = history.diffed.take()
    else {
        return Vec::new();
    };
    let effect = Effect::DiffSnapshots {
        request,
        name,
        dir,
        old,
        new,
    };
    diff.request = request;
    diff.view = Loading::Waiting;
    history.diffed = Some((request, effect.clone()));
    vec![effect]
}

/// Ask before restoring: a restore replaces the folder.
fn ask_restore(
    app: &mut App,
    name: &str,
    dir: PathBuf,
    shown_dir: &str,
    row: &SnapshotRow,
) -> Vec<Effect> {
    if refuse_damaged(app, row, "restored") {
        return Vec::new();
    }
    let taken = app.clock.since(row.taken_at);
    app.overlay = Overlay::Confirm(Confirm {
        title: format!("Restore {name} to snapshot {}?", row.id),
        lines: vec![
            format!(
                "{shown_dir} goes back to snapshot {}, taken {taken} ({}).",
                row.id, row.reason
            ),
            format!(
                "What it holds now is snapshotted first, so {} brings it back; the folder is swapped in one step.",
                keymap::key_for(Mode::History, Action::Undo)
            ),
        ],
        yes: "restore".to_owned(),
        then: None,
        effect: Effect::Restore {
            name: name.to_owned(),
            dir,
            snapshot: row.id.clone(),
        },
    });
    Vec::new()
}

/// Ask before deleting a snapshot.
fn ask_delete(app: &mut App, name: &str, dir: PathBuf, row: &SnapshotRow) -> Vec<Effect> {
    let mut lines = vec![format!(
        "Taken {} ({}), {}.",
        app.clock.since(row.taken_at),
        row.reason,
        size(row.size)
    )];
    if row.latest {
        lines.push(
            "It is the latest: diffs and the changed screen then compare against the one before it."
                .to_owned(),
        );
    }
    lines.push(format!(
        "It is held aside, not erased: {} brings it back.",
        keymap::key_for(Mode::History, Action::Undo)
    ));
    app.overlay = Overlay::Confirm(Confirm {
        title: format!("Delete snapshot {} of {name}?", row.id),
        lines,
        yes: "delete".to_owned(),
        then: None,
        effect: Effect::DeleteSnapshot {
            name: name.to_owned(),
            dir,
            snapshot: row.id.clone(),
        },
    });
    Vec::new()
}
