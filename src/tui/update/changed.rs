//! The changed screen and the diff view: the skills that differ from their snapshots, the diff
//! of one, and what can be done about it (restore, after a question; accept; snapshot; export).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::{ask_export, note, rows_of, shared, start_task, step, warn};
use crate::text::human::ago;
use crate::text::sanitize;
use crate::tui::app::{App, Confirm, Overlay, Screen};
use crate::tui::changes::{ChangeView, SinceView};
use crate::tui::diff::{Against, DiffView, jump};
use crate::tui::failed::DiffError;
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::{Action, Changes, Effect};
use crate::tui::offers;
use crate::tui::views::{DiffState, Loading, View};
use crate::tui::workers::ChangesFailed;

/// The changed skills arrived.
pub(super) fn found(app: &mut App, result: Result<Changes, ChangesFailed>) {
    let keep = app.changes.selected().map(|c| c.dir.clone());
    match result {
        Ok(changes) => {
            app.changes.skills = Loading::Ready(changes.skills);
            app.changes.unreadable = changes.unreadable;
        }
        Err(failed) => app.changes.skills = Loading::Failed(failed.to_string()),
    }
    keep_selected(app, keep.as_deref());
}

/// Skills were compared again: the row of each is replaced, added or removed (the last word
/// on a folder standing). All in one pass and one sort, since a rescan compares thousands of
/// skills when thousands of folders are made, and a pass per skill was their product.
pub(super) fn compared(app: &mut App, compared: Vec<(PathBuf, Option<ChangeView>)>) {
    let Loading::Ready(skills) = &mut app.changes.skills else {
        return;
    };
    let keep = skills.get(app.changes.selected).map(|c| c.dir.clone());
    let last: HashMap<PathBuf, Option<ChangeView>> = compared.into_iter().collect();
    skills.retain(|c| !last.contains_key(&c.dir));
    skills.extend(last.into_values().flatten());
    skills.sort_by(|a, b| (&a.name, &a.dir).cmp(&(&b.name, &b.dir)));
    keep_selected(app, keep.as_deref());
}

fn keep_selected(app: &mut App, dir: Option<&Path>) {
    let shown = app.changes.shown();
    let at = dir.and_then(|dir| shown.iter().position(|c| c.dir == dir));
    app.changes.selected = at.unwrap_or(app.changes.selected.min(shown.len().saturating_sub(1)));
}

/// The changed screen's keys.
pub(super) fn act(app: &mut App, action: Action) -> Vec<Effect> {
    if let Some(effects) = shared(app, action) {
        return effects;
    }
    if let Some(rows) = rows_of(action, app.panes.changed.page) {
        return move_by(app, rows);
    }
    if action == Action::Back {
        app.screen = Screen::Skills;
        return Vec::new();
    }
    let Some(change) = app.changes.selected().cloned() else {
        if is_about_a_skill(action) {
            note(app, "No skill has changed since its snapshot.");
        }
        return Vec::new();
    };
    let gone = matches!(change.since, SinceView::Gone { .. });
    match action {
        Action::OpenDiff => open_diff(app, change.name, change.dir, change.pristine),
        Action::Restore => match change.since.snapshot() {
            Some(id) => ask_restore(
                app,
                &change.name,
                &change.dir,
                &change.shown_dir,
                id,
                age_of(&change.since),
            ),
            None => {
                warn(
                    app,
                    &format!(
                        "No snapshot of {} was taken, so there is none to restore.",
                        change.name
                    ),
                );
                Vec::new()
            }
        },
        Action::Accept | Action::Snapshot | Action::Export if gone => {
            refuse_gone(app, &change.name);
            Vec::new()
        }
        Action::Accept => ask_accept(app, &change.name, &change.dir, change.since.snapshot()),
        Action::Snapshot => start_task(
            app,
            Effect::TakeSnapshot {
                name: change.name,
                dir: change.dir,
            },
        ),
        Action::Export => ask_export(app, &change.name, &change.dir),
        _ => Vec::new(),
    }
}

fn is_about_a_skill(action: Action) -> bool {
    matches!(
        action,
        Action::OpenDiff | Action::Restore | Action::Accept | Action::Snapshot | Action::Export
    )
}

fn age_of(since: &SinceView) -> Option<std::time::Duration> {
    match since {
        SinceView::Snapshot { age, .. } | SinceView::Gone { age, .. } => *age,
        SinceView::Installed { .. } => None,
    }
}

pub(super) fn move_by(app: &mut App, rows: i32) -> Vec<Effect> {
    app.changes.selected = step(app.changes.selected, rows, app.changes.shown().len());
    Vec::new()
}

/// Ask before accepting: the skill as it is now becomes what later changes are diffed against.
/// `baseline` is the snapshot it is diffed against now, if it has one.
fn ask_accept(app: &mut App, name: &str, dir: &Path, baseline: Option<&str>) -> Vec<Effect> {
    let undo = keymap::key_for(Mode::Changed, Action::Undo);
    let kept = match baseline {
        Some(id) => format!(
            "The snapshot it replaces as baseline, {id}, stays in its history; {undo} undoes."
        ),
        None => format!(
            "It has no snapshot yet: this takes its first, which later changes are diffed against; {undo} undoes."
        ),
    };
    app.overlay = Overlay::Confirm(Confirm {
        title: format!("Accept {name} as it is now as its baseline?"),
        lines: vec![kept],
        yes: "accept".to_owned(),
        then: None,
        effect: Effect::Accept {
            name: name.to_owned(),
            dir: dir.to_path_buf(),
        },
    });
    Vec::new()
}

/// Refuse an action on a skill whose folder is gone, with what can be done instead: the
/// changed screen knows it is gone.
fn refuse_gone(app: &mut App, name: &str) {
    warn(
        app,
        &format!(
            "{name} is gone; {} brings it back from its snapshot.",
            keymap::key_for(Mode::Changed, Action::Restore)
        ),
    );
}

/// Ask before restoring: a restore replaces the folder.
fn ask_restore(
    app: &mut App,
    name: &str,
    dir: &Path,
    shown_dir: &str,
    snapshot: &str,
    age: Option<std::time::Duration>,
) -> Vec<Effect> {
    let taken = age.map_or_else(String::new, |age| format!(", taken {}", ago(age)));
    app.overlay = Overlay::Confirm(Confirm {
        title: format!("Restore {name}?"),
        lines: vec![
            format!("{shown_dir} goes back to snapshot {snapshot}{taken}."),
            "What it holds now is kept as a snapshot first; the folder is swapped in one step."
                .to_owned(),
        ],
        yes: "restore".to_owned(),
        then: None,
        effect: Effect::Restore {
            name: name.to_owned(),
            dir: dir.to_path_buf(),
            snapshot: snapshot.to_owned(),
        },
    });
    Vec::new()
}

/// Open the diff of the skill `name` at `dir`.
pub(super) fn open_diff(
    app: &mut App,
    name: String,
    dir: PathBuf,
    pristine: Option<PathBuf>,
) -> Vec<Effect> {
    let request = app.next_request();
    app.views.open_diff(DiffState {
        request,
        name: name.clone(),
        dir: dir.clone(),
        pristine: pristine.clone(),
        view: Loading::Waiting,
        scroll: 0,
    });
    vec![Effect::ComputeDiff {
        request,
        name,
        dir,
        pristine,
    }]
}

/// Make the open diff again, after a task may have changed either side.
pub(super) fn refresh_diff(app: &mut App) -> Vec<Effect> {
    let request = app.next_request();
    let Some(diff) = app.views.diff_mut() else {
        return Vec::new();
    };
    diff.request = request;
    diff.view = Loading::Waiting;
    vec![Effect::ComputeDiff {
        request,
        name: diff.name.clone(),
        dir: diff.dir.clone(),
        pristine: diff.pristine.clone(),
    }]
}

pub(super) fn diff_arrived(app: &mut App, request: u64, diff: Result<Box<DiffView>, DiffError>) {
    let Some(state) = app.views.diff_mut() else {
        return;
    };
    if state.request != request {
        return;
    }
    state.view = match diff {
        Ok(view) => Loading::Ready(view),
        Err(why) => Loading::Failed(sanitize::line(&why.to_string())),
    };
}

/// The diff view's keys.
pub(super) fn diff_act(app: &mut App, action: Action) -> Vec<Effect> {
    if action == Action::Back {
        app.views.close(View::Diff);
        return Vec::new();
    }
    if let Some(effects) = shared(app, action) {
        return effects;
    }
    if let Some(rows) = rows_of(action, app.panes.diff.page) {
        return scroll_diff(app, rows);
    }
    let Some(state) = app.views.diff() else {
        return Vec::new();
    };
    if !offers::diff(app, state, action) {
        refuse_in_diff(app, action);
        return Vec::new();
    }
    let Loading::Ready(view) = &state.view else {
        return on_diffed_skill(app, action);
    };
    let at = state.scroll;
    let target = match action {
        Action::NextHunk => jump(view.hunks.iter().copied(), at, true),
        Action::PreviousHunk => jump(view.hunks.iter().copied(), at, false),
        Action::NextFile => jump(view.files.iter().map(|f| f.row), at, true),
        Action::PreviousFile => jump(view.files.iter().map(|f| f.row), at, false),
        _ => return on_diffed_skill(app, action),
    };
    match target {
        Some(row) => set_scroll(app, row),
        None => note(app, "No more that way."),
    }
    Vec::new()
}

/// Say why a key the diff does not offer now does nothing ([`offers::diff`]: the footer
/// leaves it out).
fn refuse_in_diff(app: &mut App, action: Action) {
    let Some(state) = app.views.diff() else {
        return;
    };
    let name = state.name.clone();
    let waiting = state.view == Loading::Waiting;
    let pristine =
        matches!(&state.view, Loading::Ready(v) if matches!(v.against, Against::Pristine(_)));
    let between =
        matches!(&state.view, Loading::Ready(v) if matches!(v.against, Against::Between { .. }));
    match action {
        _ if waiting => note(app, "The diff is still being made."),
        Action::Restore if between => warn(
            app,
            "This diff is between two snapshots; restore one of them from the history.",
        ),
        Action::Restore if pristine => warn(
            app,
            "Only a snapshot can be restored; this diff is against the installer's own copy.",
        ),
        Action::Restore => warn(
            app,
            &format!("This diff of {name} is against no snapshot, so there is none to restore."),
        ),
        Action::Accept | Action::Snapshot | Action::Export => refuse_gone(app, &name),
        _ => note(app, "No more that way."),
    }
}

/// Snapshot, accept, restore or export the skill the diff is of (offered: [`offers::diff`]).
fn on_diffed_skill(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(state) = app.views.diff() else {
        return Vec::new();
    };
    let (name, dir) = (state.name.clone(), state.dir.clone());
    // The snapshot the diff is against, when it is against one.
    let baseline = match &state.view {
        Loading::Ready(view) => match &view.against {
            Against::Snapshot { id, age } => Some((id.clone(), *age, view.shown_dir.clone())),
            Against::Pristine(_)
            | Against::Import
            | Against::Between { .. }
            | Against::Upstream => None,
        },
        _ => None,
    };
    match action {
        Action::Accept => ask_accept(app, &name, &dir, baseline.as_ref().map(|b| b.0.as_str())),
        Action::Snapshot => start_task(app, Effect::TakeSnapshot { name, dir }),
        Action::Export => ask_export(app, &name, &dir),
        Action::Restore => match &baseline {
            Some((id, age, shown_dir)) => ask_restore(app, &name, &dir, shown_dir, id, *age),
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

pub(super) fn scroll_diff(app: &mut App, rows: i32) -> Vec<Effect> {
    let max = app.panes.diff.max;
    if let Some(diff) = app.views.diff_mut() {
        diff.scroll = step(diff.scroll.min(max), rows, max + 1);
    }
    Vec::new()
}

/// Put the keys at `row`, a hunk or a file jumped to: kept as it is, even past the furthest
/// the diff scrolls, so the view marks the last hunk and file once they are reached
/// ([`crate::tui::diff::jump`]).
fn set_scroll(app: &mut App, row: usize) {
    if let Some(diff) = app.views.diff_mut() {
        diff.scroll = row;
    }
}
