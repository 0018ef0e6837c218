//! Updating skills from their upstream: `U` reads the marked skills' (or the selected one's)
//! upstream on a worker and plans the merge; a clean plan is confirmed in one question (what
//! would go stale asked about again, on its own), a plan with conflicts opens the conflict view,
//! where each file is settled as theirs, ours or both before the update can be confirmed; Esc
//! stops it with nothing written. `K` asks the recorded upstreams whether they moved.

use super::{note, rows_of, shared, step, warn};
use crate::merge::Resolution;
use crate::text::sanitize;
use crate::tui::app::{App, Confirm, Overlay};
use crate::tui::diff::jump;
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::{Action, Effect, UpdateEvent, UpstreamsEvent};
use crate::tui::updating::{Planned, Said, UpdateStep, Updating, said};

/// `U` or `K` from the skill list.
pub(super) fn list_act(app: &mut App, action: Action) -> Vec<Effect> {
    match action {
        Action::Update => start(app),
        Action::CheckUpstreams => check(app),
        _ => Vec::new(),
    }
}

/// Whether the skill list hands `action` to this module.
pub(super) fn from_list(action: Action) -> bool {
    matches!(action, Action::Update | Action::CheckUpstreams)
}

fn start(app: &mut App) -> Vec<Effect> {
    if app.updating.is_some() {
        warn(app, "An update is already under way.");
        return Vec::new();
    }
    let skills = app.targets();
    if skills.is_empty() {
        warn(app, "No skill is selected to update.");
        return Vec::new();
    }
    let session = app.next_request();
    let names = crate::tui::manage::names(&skills);
    note(app, &format!("Reading the upstream of {names}…"));
    app.updating = Some(Updating {
        session,
        names,
        dirs: skills.iter().map(|s| s.dir.clone()).collect(),
        step: UpdateStep::Reading,
    });
    vec![Effect::ReadUpdate { session, skills }]
}

/// News from the update's worker; an older session's is dropped.
pub(super) fn event(app: &mut App, session: u64, event: UpdateEvent) -> Vec<Effect> {
    let Some(updating) = app.updating.as_mut().filter(|u| u.session == session) else {
        return Vec::new();
    };
    match event {
        UpdateEvent::Progress(text) => {
            if updating.waiting() {
                note(app, &text);
            }
            Vec::new()
        }
        UpdateEvent::Planned(planned) => {
            let conflicts = planned.conflicts.len();
            updating.step = UpdateStep::Planned(planned);
            if conflicts == 0 {
                let text = format!(
                    "The upstream of {} is read; nothing is written until you say yes.",
                    updating.names
                );
                note(app, &text);
                ask(app);
            } else {
                let text = format!(
                    "Conflicts in {}: settle each with {}, {} or {}, then {} updates.",
                    crate::text::human::count(conflicts, "file"),
                    keymap::key_for(Mode::Conflicts, Action::TakeTheirs),
                    keymap::key_for(Mode::Conflicts, Action::TakeOurs),
                    keymap::key_for(Mode::Conflicts, Action::TakeBoth),
                    keymap::key_for(Mode::Conflicts, Action::Confirm)
                );
                note(app, &text);
            }
            Vec::new()
        }
        UpdateEvent::Done(result) => {
            let applied = updating.step == UpdateStep::Applying;
            let dirs = std::mem::take(&mut updating.dirs);
            app.updating = None;
            let undo = keymap::key_for(Mode::Skills, Action::Undo);
            let result = match result.as_deref().map(|report| said(report, &undo)) {
                Ok(Said::Done(text)) => Ok(text),
                Ok(Said::Stopped(text)) => Err(text),
                Err(failure) => Err(sanitize::line(&failure.to_string())),
            };
            if result.is_ok() && applied {
                // What the last check said of them no longer holds.
                app.upstreams.forget(&dirs);
            }
            match result {
                Ok(text) if applied => super::task_over(app, Some(text.into()), true),
                Ok(text) => {
                    note(app, &text);
                    Vec::new()
                }
                Err(text) => {
                    super::ended_undone(app, text);
                    if applied {
                        super::task_over(app, None, true)
                    } else {
                        Vec::new()
                    }
                }
            }
        }
        UpdateEvent::Cancelled => {
            app.updating = None;
            Vec::new()
        }
    }
}

/// Ask to apply the plan, saying what it would do; a record that would go stale is asked
/// about again, on its own.
fn ask(app: &mut App) {
    let Some(updating) = &app.updating else {
        return;
    };
    let Some(planned) = updating.planned() else {
        return;
    };
    let session = updating.session;
    let mut lines = planned.lines();
    lines.push(String::new());
    lines.push(format!(
        "What each holds now is snapshotted first: {} puts it back.",
        keymap::key_for(Mode::Skills, Action::Undo)
    ));
    let settled = planned.choices();
    let stale = planned.stale();
    let then = (!stale.is_empty()).then(|| {
        let mut lines = stale;
        lines.push(String::new());
        lines.push("Update all the same? That record will no longer match the files.".to_owned());
        Box::new(Confirm {
            title: "Another installer's record would go stale".to_owned(),
            lines,
            yes: "update all the same".to_owned(),
            effect: Effect::ApplyUpdate {
                session,
                settled: settled.clone(),
                yes: true,
            },
            then: None,
        })
    });
    app.overlay = Overlay::Confirm(Confirm {
        title: format!("Update {} from upstream?", updating.names),
        lines,
        yes: "update".to_owned(),
        effect: Effect::ApplyUpdate {
            session,
            settled,
            yes: false,
        },
        then,
    });
}

/// The question to apply was answered no: back to the conflicts, their choices standing, or,
/// for a clean plan, the update stops.
pub(super) fn declined(app: &mut App) -> Vec<Effect> {
    app.overlay = Overlay::None;
    match &app.updating {
        Some(updating) if updating.settling() => {
            note(
                app,
                &format!(
                    "Nothing was written; the choices stand ({} stops the update).",
                    keymap::key_for(Mode::Conflicts, Action::Back)
                ),
            );
            Vec::new()
        }
        _ => stop(app),
    }
}

/// Stop the update with nothing written.
fn stop(app: &mut App) -> Vec<Effect> {
    let Some(updating) = app.updating.take() else {
        return Vec::new();
    };
    note(app, "The update stopped; nothing was written.");
    vec![Effect::CancelUpdate {
        session: updating.session,
    }]
}

/// The update is confirmed: what the status line says while it is written.
pub(super) fn applying(app: &mut App) -> String {
    match &mut app.updating {
        Some(updating) => {
            updating.step = UpdateStep::Applying;
            format!("Updating {}…", updating.names)
        }
        None => String::new(),
    }
}

/// A key in the conflict view.
pub(super) fn act(app: &mut App, action: Action) -> Vec<Effect> {
    if let Some(rows) = rows_of(action, 1) {
        if matches!(action, Action::PageUp | Action::PageDown) {
            let page = super::page(app.panes.diff.page);
            return scroll(app, if rows < 0 { -page } else { page });
        }
        return move_by(app, rows);
    }
    match action {
        Action::NextFile => move_by(app, 1),
        Action::PreviousFile => move_by(app, -1),
        Action::NextHunk | Action::PreviousHunk => {
            if let Some(planned) = planned(app)
                && let Some(conflict) = planned.selected()
                && let Some(row) = jump(
                    conflict.diff.hunks.iter().copied(),
                    planned.scroll,
                    action == Action::NextHunk,
                )
            {
                planned.scroll = row;
            }
            Vec::new()
        }
        Action::TakeTheirs => choose(app, Resolution::Theirs),
        Action::TakeOurs => choose(app, Resolution::Ours),
        Action::TakeBoth => choose(app, Resolution::Both),
        Action::Confirm => {
            let Some(planned) = planned(app) else {
                return Vec::new();
            };
            let left = planned.conflicts.len() - planned.settled();
            if left > 0 {
                let text = format!(
                    "{} not settled yet: {}, {} or {} settles the one under the cursor.",
                    crate::text::human::count(left, "file"),
                    keymap::key_for(Mode::Conflicts, Action::TakeTheirs),
                    keymap::key_for(Mode::Conflicts, Action::TakeOurs),
                    keymap::key_for(Mode::Conflicts, Action::TakeBoth)
                );
                warn(app, &text);
            } else {
                ask(app);
            }
            Vec::new()
        }
        Action::Back => stop(app),
        _ => shared(app, action).unwrap_or_default(),
    }
}

fn planned(app: &mut App) -> Option<&mut Planned> {
    app.updating.as_mut()?.planned_mut()
}

/// Settle the conflict under the cursor, then go to the next one not settled.
fn choose(app: &mut App, choice: Resolution) -> Vec<Effect> {
    let Some(planned) = planned(app) else {
        return Vec::new();
    };
    let Some(conflict) = planned.conflicts.get_mut(planned.selected) else {
        return Vec::new();
    };
    if choice == Resolution::Both && !conflict.both {
        let text = format!(
            "{} cannot keep both sides: take theirs ({}) or ours ({}).",
            conflict.shown_path,
            keymap::key_for(Mode::Conflicts, Action::TakeTheirs),
            keymap::key_for(Mode::Conflicts, Action::TakeOurs)
        );
        warn(app, &text);
        return Vec::new();
    }
    conflict.choice = Some(choice);
    let at = planned.selected;
    let count = planned.conflicts.len();
    if let Some(next) = (1..count)
        .map(|n| (at + n) % count)
        .find(|&i| planned.conflicts[i].choice.is_none())
    {
        planned.selected = next;
        planned.scroll = 0;
    }
    let text = if planned.all_settled() {
        format!(
            "Every file is settled: {} updates.",
            keymap::key_for(Mode::Conflicts, Action::Confirm)
        )
    } else {
        format!(
            "{} of {} settled.",
            planned.settled(),
            crate::text::human::count(count, "conflict")
        )
    };
    note(app, &text);
    Vec::new()
}

/// Move the cursor among the conflicts by `rows`; the diff shown starts at its top.
pub(super) fn move_by(app: &mut App, rows: i32) -> Vec<Effect> {
    if let Some(planned) = planned(app) {
        let at = step(planned.selected, rows, planned.conflicts.len());
        if at != planned.selected {
            planned.selected = at;
            planned.scroll = 0;
        }
    }
    Vec::new()
}

/// Scroll the diff of the conflict under the cursor by `rows`, as far as it scrolls.
fn scroll(app: &mut App, rows: i32) -> Vec<Effect> {
    let max = app.panes.diff.max;
    if let Some(planned) = planned(app) {
        planned.scroll = step(planned.scroll.min(max), rows, max + 1);
    }
    Vec::new()
}

/// Ask the recorded upstreams where they are now.
fn check(app: &mut App) -> Vec<Effect> {
    if app.upstreams.checking {
        warn(app, "The upstreams are already being checked.");
        return Vec::new();
    }
    app.upstreams.checking = true;
    note(app, "Asking each recorded upstream where it is now…");
    vec![Effect::CheckUpstreams]
}

/// News of the upstreams: the last check's answers after a scan, or a check's.
pub(super) fn upstreams(app: &mut App, event: UpstreamsEvent) -> Vec<Effect> {
    match event {
        UpstreamsEvent::Kept(kept) => {
            // A check under way answers for itself.
            if let Some(kept) = kept
                && !app.upstreams.checking
            {
                app.upstreams = *kept;
            }
        }
        UpstreamsEvent::Progress(text) => {
            if app.upstreams.checking {
                note(app, &text);
            }
        }
        UpstreamsEvent::Checked(Ok(checked)) => {
            app.upstreams = *checked;
            let checked = app.upstreams.marks.len();
            let text = match (checked, app.upstreams.moved_count()) {
                (0, _) => "No skill has a recorded upstream to check: the skills imported from a git repository have one.".to_owned(),
                (_, 0) => format!(
                    "Every upstream checked ({}): none moved.",
                    crate::text::human::count(checked, "skill")
                ),
                (_, moved) => format!(
                    "Upstream moved for {} of {} checked: {} marks them, {} updates one.",
                    moved,
                    checked,
                    crate::tui::theme::UPSTREAM_MARKER,
                    keymap::key_for(Mode::Skills, Action::Update)
                ),
            };
            note(app, &text);
        }
        UpstreamsEvent::Checked(Err(stopped)) => {
            app.upstreams.checking = false;
            app.status = None;
            app.messages.push(sanitize::line(&stopped.to_string()));
        }
    }
    Vec::new()
}
