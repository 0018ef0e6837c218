//! `update`: the one function that changes the app, from a message to a new state and the
//! effects the runtime should carry out. It does no I/O, so every behaviour is a plain test.
//!
//! A key's action is handled by the layer on top ([`App::mode`], from [`App::layers`]): an
//! overlay, the import flow ([`import`]), the diff view and the changed screen ([`changed`]), a
//! skill's history ([`history`]), a skill's files, its editor and its path ([`viewer`]), or the
//! skill list and the roots ([`skills`]). The actions every screen shares are handled here.

mod budget;
mod changed;
mod history;
mod import;
mod live;
mod manage;
mod skills;
mod updating;
mod viewer;

use crate::scan::Progress;

use super::app::{App, ExportPrompt, Overlay, Preview, Scan, Screen, Status};
use super::failed::TaskError;
use super::history::Clock;
use super::keymap::Mode;
use super::line::{Edit, LineEdit};
use super::manage::Summary;
use super::msg::{Action, Effect, Msg, Pane, Told};
use super::views::Loading;
use crate::text::sanitize;

/// Apply `msg` to `app`; what comes back is for the runtime to do.
pub fn update(app: &mut App, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Started => start_scan(app),
        Msg::Action(action) => {
            // A key is the person doing something else: what the line said is done with, and
            // so is the result a scan under way was to show again when it ends.
            app.status = None;
            app.after_scan = None;
            let effects = act(app, action);
            if app.status.is_none() {
                app.status = app.notice.take();
            }
            effects
        }
        Msg::Select(index) => select(app, index),
        Msg::Focus(pane) => {
            app.focus = pane;
            Vec::new()
        }
        Msg::Scroll(pane, rows) => {
            if app.screen == Screen::Skills && app.mode() == Mode::Skills {
                app.focus = pane;
            }
            move_by(app, rows)
        }
        Msg::Resized => Vec::new(),
        Msg::Laid(laid) => {
            app.panes.take(&laid.panes);
            if let Some(wrapped) = laid.wrapped {
                app.wrapped = wrapped;
            }
            Vec::new()
        }
        Msg::ScanProgress(progress) => {
            if matches!(app.scan, Scan::Running(_)) {
                app.scan = Scan::Running(progress);
            }
            Vec::new()
        }
        Msg::ScanDone(deck) => {
            app.replace_deck(*deck);
            app.scan = Scan::Done;
            // The files may have changed since the preview was read.
            app.preview = Preview::Empty;
            // A task's result outlives the scan it asked for: it says what was just done.
            match app.after_scan.take() {
                Some(result) => app.status = Some(result),
                None => notify(app, &skills::scan_summary(app), false),
            }
            let mut effects = skills::follow_selection(app);
            // What was found may have changed the history open (a restore elsewhere, an undo).
            effects.extend(history::reread(app));
            effects.extend(live::next(app));
            // Every skill audited after the list is shown, never before it.
            let skills = app.deck.skills.iter().map(|s| s.dir.clone()).collect();
            effects.extend(audit(app, skills));
            effects
        }
        Msg::Changes(result) => {
            changed::found(app, result);
            Vec::new()
        }
        Msg::Compared { dir, change } => {
            changed::compared(app, vec![(dir, change)]);
            Vec::new()
        }
        Msg::Preview { dir, text } => {
            if app.preview == Preview::Loading(dir.clone()) {
                app.preview_version += 1;
                app.preview = match text {
                    Ok(lines) => Preview::Text { dir, lines },
                    Err(failed) => Preview::Failed {
                        dir,
                        reason: failed.to_string(),
                    },
                };
            }
            Vec::new()
        }
        Msg::FileRead { request, file } => {
            viewer::arrived(app, request, file);
            Vec::new()
        }
        Msg::Edited(result) => viewer::edited(app, result),
        Msg::Diff { request, diff } => {
            changed::diff_arrived(app, request, diff);
            Vec::new()
        }
        Msg::TaskDone { result, rescan } => task_done(app, result, rescan),
        Msg::ExportFailed { name, dir, to, why } => export_failed(app, name, dir, to, why),
        Msg::Listing { request, place } => {
            import::listed(app, request, place);
            Vec::new()
        }
        Msg::Import { session, event } => import::event(app, session, event),
        Msg::Batch { id, event } => manage::batch_event(app, id, event),
        Msg::Planned { request, to, plans } => manage::planned(app, request, to, plans),
        Msg::UndoNext(next) => manage::undo_next(app, next),
        Msg::History { request, history } => {
            history::arrived(app, request, history);
            Vec::new()
        }
        Msg::Usage(result) => budget::usage_arrived(app, result),
        Msg::Update { session, event } => updating::event(app, session, event),
        Msg::Upstreams(event) => updating::upstreams(app, event),
        Msg::Changed { dirs } => live::changed(app, dirs),
        Msg::Rescanned { dirs, result } => {
            let read = result.is_ok();
            let mut effects = live::rescanned(app, &dirs, result);
            if !read {
                return effects;
            }
            // The skills whose files changed are judged again.
            let changed = app
                .deck
                .skills
                .iter()
                .filter(|s| dirs.iter().any(|d| s.dir.starts_with(d)))
                .map(|s| s.dir.clone())
                .collect();
            effects.extend(audit(app, changed));
            effects
        }
        Msg::Audited { request, found } => {
            app.audits.answered(request, found);
            Vec::new()
        }
        Msg::Watched { told, polled } => live::watched(app, super::live::Watch { told, polled }),
        Msg::Tick(now) => {
            app.clock = Clock(now);
            Vec::new()
        }
        Msg::Failed(message) => {
            if matches!(app.scan, Scan::Running(_)) {
                app.scan = Scan::Done;
                app.changes.skills = Loading::Failed(message.clone());
            }
            if let Preview::Loading(dir) = &app.preview {
                app.preview = Preview::Failed {
                    dir: dir.clone(),
                    reason: message.clone(),
                };
            }
            app.messages.push(message);
            Vec::new()
        }
        Msg::Signal(signal) => {
            app.signal = Some(signal);
            quit(app)
        }
    }
}

fn act(app: &mut App, action: Action) -> Vec<Effect> {
    if action == Action::Quit {
        return quit(app);
    }
    match app.mode() {
        Mode::Message => message(app, action),
        Mode::Help => help(app, action),
        Mode::Confirm => confirm(app, action),
        Mode::Export => export_prompt(app, action),
        Mode::Pick => manage::pick_act(app, action),
        Mode::Summary => manage::summary_act(app, action),
        Mode::Working => manage::working_act(app, action),
        Mode::Conflicts => updating::act(app, action),
        mode if mode.is_import() => import::act(app, action),
        Mode::Diff => changed::diff_act(app, action),
        Mode::History => history::act(app, action),
        Mode::Copies => manage::copies_act(app, action),
        Mode::Budget => budget::act(app, action),
        Mode::Files | Mode::Reading => viewer::act(app, action),
        Mode::Skills if viewer::from_list(action) => viewer::list_act(app, action),
        Mode::Skills if budget::from_list(action) => budget::list_act(app, action),
        Mode::Skills if updating::from_list(action) => updating::list_act(app, action),
        // The managing actions of the skill list, on the marked skills or the one under the
        // cursor; the list's own actions otherwise.
        Mode::Skills => manage::act(app, action).unwrap_or_else(|| skills::act(app, action)),
        Mode::Changed => changed::act(app, action),
        // The skill list, its search line, and the roots.
        _ => skills::act(app, action),
    }
}

/// Leave the app; an import under way is told to stop before it puts anything in place.
fn quit(app: &mut App) -> Vec<Effect> {
    app.running = false;
    app.import
        .take()
        .map(|import| Effect::CancelImport {
            session: import.session,
        })
        .into_iter()
        .collect()
}

/// The actions every screen (and the diff view) shares; `None` for the others.
fn shared(app: &mut App, action: Action) -> Option<Vec<Effect>> {
    let effects = match action {
        Action::ToggleHelp => {
            app.overlay = Overlay::Help;
            app.help_scroll = 0;
            Vec::new()
        }
        Action::ShowSkills => show(app, Screen::Skills),
        Action::ShowRoots => show(app, Screen::Roots),
        Action::ShowChanged => show(app, Screen::Changed),
        Action::Rescan => rescan(app),
        Action::ToggleMouse => {
            app.mouse = !app.mouse;
            let text = if app.mouse {
                "Mouse on: the wheel scrolls, a click selects (hold Shift to select text)."
            } else {
                "Mouse off: the terminal selects text again."
            };
            note(app, text);
            vec![Effect::SetMouse(app.mouse)]
        }
        Action::Import => import::open(app),
        Action::Undo => manage::ask_undo(app),
        Action::ToggleAllAgents => toggle_all_agents(app),
        Action::OpenHistory => history::open(app),
        _ => return None,
    };
    Some(effects)
}

/// Every agent, or only those installed here: the list, the detail, the roots and an import's
/// destinations follow. An agent filter on an agent no longer shown is dropped, and the root
/// under the cursor stays under it when it is still shown.
pub(super) fn toggle_all_agents(app: &mut App) -> Vec<Effect> {
    let root = app.shown_roots().get(app.root_selected).copied();
    app.all_agents = !app.all_agents;
    if app
        .filter
        .agent
        .is_some_and(|agent| !app.shows_agent(agent))
    {
        app.filter.agent = None;
    }
    let shown = app.shown_roots();
    app.root_selected = root
        .and_then(|root| shown.iter().position(|&i| i == root))
        .unwrap_or(0)
        .min(shown.len().saturating_sub(1));
    if let Some(import) = &mut app.import {
        import.show_destinations(app.all_agents, app.deck.installed.as_deref());
    }
    app.refresh();
    let text = if app.all_agents {
        "Every agent shown, installed here or not.".to_owned()
    } else {
        let installed = app.deck.installed.as_ref().map_or(0, Vec::len);
        format!("Only the {installed} agents installed here shown.")
    };
    note(app, &text);
    skills::follow_selection(app)
}

/// Audit the skills of the deck at `dirs` on a worker, but those already judged with the files
/// they hold now (by the scan's digest of them); nothing to ask for none.
fn audit(app: &mut App, dirs: Vec<std::path::PathBuf>) -> Vec<Effect> {
    let asked: Vec<&crate::tui::model::SkillView> = app
        .deck
        .skills
        .iter()
        .filter(|s| dirs.contains(&s.dir) && !app.audits.fresh(&s.dir, s.digest.as_deref()))
        .collect();
    if asked.is_empty() {
        return Vec::new();
    }
    let skills: Vec<(String, std::path::PathBuf)> = asked
        .iter()
        .map(|s| (s.name.clone(), s.dir.clone()))
        .collect();
    let digests: Vec<(std::path::PathBuf, Option<String>)> = asked
        .iter()
        .map(|s| (s.dir.clone(), s.digest.clone()))
        .collect();
    let request = app.next_request();
    app.audits.asked(request, digests);
    vec![Effect::Audit { request, skills }]
}

fn show(app: &mut App, screen: Screen) -> Vec<Effect> {
    app.screen = screen;
    app.search.typing = false;
    Vec::new()
}

fn rescan(app: &mut App) -> Vec<Effect> {
    if matches!(app.scan, Scan::Running(_)) {
        warn(app, "A scan is already running.");
        return Vec::new();
    }
    start_scan(app)
}

fn start_scan(app: &mut App) -> Vec<Effect> {
    app.scan = Scan::Running(Progress { done: 0, total: 0 });
    app.changes.skills = Loading::Waiting;
    vec![Effect::StartScan]
}

/// A message: closing it shows the next one, or gives the keyboard back to what is under it.
fn message(app: &mut App, action: Action) -> Vec<Effect> {
    if action == Action::Back && !app.messages.is_empty() {
        app.messages.remove(0);
    }
    Vec::new()
}

/// The help: Esc closes, the moves scroll it.
fn help(app: &mut App, action: Action) -> Vec<Effect> {
    match rows_of(action, app.panes.help.page) {
        Some(rows) => scroll_help(app, rows),
        None if action == Action::Back => app.overlay = Overlay::None,
        None => {}
    }
    Vec::new()
}

fn scroll_help(app: &mut App, rows: i32) {
    app.help_scroll = step(app.help_scroll, rows, app.panes.help.max + 1);
}

/// A question: yes carries out what it asked about.
fn confirm(app: &mut App, action: Action) -> Vec<Effect> {
    let Overlay::Confirm(question) = &app.overlay else {
        return Vec::new();
    };
    match action {
        Action::Confirm => {
            if let Some(next) = &question.then {
                app.overlay = Overlay::Confirm((**next).clone());
                return Vec::new();
            }
            let effect = question.effect.clone();
            app.overlay = Overlay::None;
            start_task(app, effect)
        }
        Action::Back if matches!(question.effect, Effect::ApplyUpdate { .. }) => {
            updating::declined(app)
        }
        Action::Back => {
            app.overlay = Overlay::None;
            note(app, "Nothing was changed.");
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// Ask where to export the skill `name` at `dir`: the archive the command line would write
/// without `-o`, in the folder the app works in, which the person can change.
fn ask_export(app: &mut App, name: &str, dir: &std::path::Path) -> Vec<Effect> {
    let text = proposed_export(app, dir);
    app.overlay = Overlay::Export(ExportPrompt {
        name: name.to_owned(),
        dir: dir.to_path_buf(),
        text: LineEdit::new(text),
        batch: Vec::new(),
    });
    Vec::new()
}

/// The archive the export prompt offers for the skill folder `dir`: the core's
/// [`offered_name`](crate::operations::export::offered_name), with the version the scan read,
/// in the folder the app works in. Kept as it is, it is numbered when the name is taken (a
/// second export).
fn proposed_export(app: &App, dir: &std::path::Path) -> String {
    let version = app.skill_at(dir).and_then(|skill| skill.version.as_deref());
    let file = crate::operations::export::offered_name(dir, version);
    if app.work_dir.is_empty() {
        file
    } else {
        format!("{}/{file}", app.work_dir.trim_end_matches('/'))
    }
}

/// An export that did not happen: the sentence why, over the prompt opened again with what
/// was typed, so it can be corrected rather than typed again.
fn export_failed(
    app: &mut App,
    name: String,
    dir: std::path::PathBuf,
    to: String,
    why: String,
) -> Vec<Effect> {
    app.tasks = app.tasks.saturating_sub(1);
    app.status = None;
    app.messages.push(why);
    if app.overlay == Overlay::None {
        app.overlay = Overlay::Export(ExportPrompt {
            name,
            dir,
            text: LineEdit::new(to),
            batch: Vec::new(),
        });
    }
    Vec::new()
}

fn export_prompt(app: &mut App, action: Action) -> Vec<Effect> {
    let Overlay::Export(prompt) = &mut app.overlay else {
        return Vec::new();
    };
    match action {
        Action::Type(c) => prompt.text.insert(c),
        Action::Erase => {
            prompt.text.apply(Edit::EraseBack);
        }
        Action::Edit(edit) => {
            prompt.text.apply(edit);
        }
        Action::Choose if prompt.text.text().trim().is_empty() => {
            warn(app, "Type the path of the archive to write.");
        }
        Action::Choose if !prompt.batch.is_empty() => {
            let skills = std::mem::take(&mut prompt.batch);
            let folder = prompt.text.text().trim().to_owned();
            app.overlay = Overlay::None;
            return manage::export_to(app, skills, folder);
        }
        Action::Choose => {
            let to = prompt.text.text().trim().to_owned();
            let name = prompt.name.clone();
            let dir = prompt.dir.clone();
            let numbered = to == proposed_export(app, &dir);
            let effect = Effect::Export {
                name,
                dir,
                to,
                numbered,
            };
            app.overlay = Overlay::None;
            return start_task(app, effect);
        }
        Action::Back => {
            app.overlay = Overlay::None;
            note(app, "Nothing was exported.");
        }
        _ => {}
    }
    Vec::new()
}

/// Hand a task to a worker, saying it is under way.
fn start_task(app: &mut App, effect: Effect) -> Vec<Effect> {
    let doing = match &effect {
        Effect::TakeSnapshot { name, .. } => format!("Snapshotting {name}…"),
        Effect::Accept { name, .. } => format!("Keeping {name} as it is now…"),
        Effect::Restore { name, .. } => format!("Restoring {name}…"),
        Effect::DeleteSnapshot { name, snapshot, .. } => {
            format!("Deleting snapshot {snapshot} of {name}…")
        }
        Effect::Export { name, .. } => format!("Exporting {name}…"),
        Effect::Undo => "Undoing…".to_owned(),
        Effect::ApplyUpdate { .. } => updating::applying(app),
        Effect::Run(batch) => {
            manage::start(app, batch);
            return vec![effect];
        }
        _ => String::new(),
    };
    if !doing.is_empty() {
        note(app, &doing);
    }
    app.tasks += 1;
    vec![effect]
}

fn task_done(app: &mut App, result: Result<Told, TaskError>, rescan: bool) -> Vec<Effect> {
    let told = result
        .map_err(|error| ended_undone(app, sanitize::line(&error.to_string())))
        .ok();
    task_over(app, told, rescan)
}

/// A task did nothing: the "…ing" note said it was under way; the message (display-safe) says
/// how it ended.
fn ended_undone(app: &mut App, sentence: String) {
    app.status = None;
    app.messages.push(sentence);
}

/// A task is over: what it did, or `None` when it did nothing (already said by
/// [`ended_undone`]).
fn task_over(app: &mut App, told: Option<Told>, rescan: bool) -> Vec<Effect> {
    app.tasks = app.tasks.saturating_sub(1);
    if let Some(told) = told {
        note(app, &told.note);
        // What the status line cannot hold is shown whole, unless the person is in the
        // middle of another question, which it must not take away.
        if !told.more.is_empty() && matches!(app.overlay, Overlay::None | Overlay::Summary(_)) {
            let mut done = vec![told.note];
            done.extend(told.more);
            app.overlay = Overlay::Summary(Summary {
                title: told.title,
                done,
                ..Summary::default()
            });
        }
    }
    let mut effects = if history::owns_diff(app) {
        history::refresh_diff(app)
    } else {
        changed::refresh_diff(app)
    };
    effects.extend(history::reread(app));
    if rescan && !matches!(app.scan, Scan::Running(_)) {
        // The list keeps its note: the scan's own summary would hide what was just done.
        let note = app.status.clone();
        effects.extend(start_scan(app));
        app.status.clone_from(&note);
        app.after_scan = note;
    }
    effects
}

/// A click on a row of what is shown.
fn select(app: &mut App, index: usize) -> Vec<Effect> {
    match app.mode() {
        Mode::Skills | Mode::Search => {
            app.focus = Pane::List;
            app.selected = index.min(app.visible.len().saturating_sub(1));
            skills::follow_selection(app)
        }
        Mode::Roots => {
            app.root_selected = index.min(app.shown_roots().len().saturating_sub(1));
            Vec::new()
        }
        Mode::Changed => {
            app.changes.selected = index.min(app.changes.shown().len().saturating_sub(1));
            Vec::new()
        }
        Mode::History => history::select(app, index),
        _ => Vec::new(),
    }
}

/// The wheel: move what has the keyboard by `rows`.
fn move_by(app: &mut App, rows: i32) -> Vec<Effect> {
    match app.mode() {
        // Nothing under a message, a question or a batch moves while it is up.
        Mode::Message | Mode::Confirm | Mode::Export | Mode::Working | Mode::Summary => Vec::new(),
        Mode::Pick | Mode::Copies => manage::move_by(app, rows),
        Mode::Budget => budget::move_by(app, rows),
        Mode::Conflicts => updating::move_by(app, rows),
        Mode::Help => {
            scroll_help(app, rows);
            Vec::new()
        }
        mode if mode.is_import() => import::move_by(app, rows),
        Mode::Diff => changed::scroll_diff(app, rows),
        Mode::History => history::move_by(app, rows),
        Mode::Files | Mode::Reading => viewer::move_by(app, rows),
        Mode::Changed => changed::move_by(app, rows),
        _ => skills::move_by(app, rows),
    }
}

/// A note in the status line: the answer to what the person did, kept until they do something
/// else.
fn note(app: &mut App, text: &str) {
    app.status = Some(Status {
        text: text.to_owned(),
        warning: false,
        notice: false,
    });
}

/// A warning in the status line, kept as a note is.
fn warn(app: &mut App, text: &str) {
    app.status = Some(Status {
        text: text.to_owned(),
        warning: true,
        notice: false,
    });
}

/// A notice the app gives on its own (a scan's summary, the uses read): on the status line when
/// the line is free (empty, or holding another notice); while it holds an answer, the notice
/// waits for the next key to free it, the newest one replacing any older one waiting.
fn notify(app: &mut App, text: &str, warning: bool) {
    let notice = Status {
        text: text.to_owned(),
        warning,
        notice: true,
    };
    if app.status.as_ref().is_none_or(|status| status.notice) {
        app.status = Some(notice);
        app.notice = None;
    } else {
        app.notice = Some(notice);
    }
}

/// Rows a page moves: those shown, less one, at least one.
fn page(rows: usize) -> i32 {
    i32::try_from(rows.saturating_sub(1).max(1)).unwrap_or(1)
}

/// `at` moved by `rows` within `0..len`.
fn step(at: usize, rows: i32, len: usize) -> usize {
    let last = len.saturating_sub(1);
    let moved = if rows < 0 {
        at.saturating_sub(rows.unsigned_abs() as usize)
    } else {
        at.saturating_add(rows as usize)
    };
    moved.min(last)
}

/// The move an action asks for, in rows; `None` for an action that is not a move.
fn rows_of(action: Action, page_rows: usize) -> Option<i32> {
    Some(match action {
        Action::Up => -1,
        Action::Down => 1,
        Action::PageUp => -page(page_rows),
        Action::PageDown => page(page_rows),
        Action::Top => i32::MIN,
        Action::Bottom => i32::MAX,
        _ => return None,
    })
}

/// The next of `all` after `current` (the one before it, going back), through "none" round
/// to the first (the last).
fn cycle<T: Clone + PartialEq>(current: Option<&T>, all: &[T], forward: bool) -> Option<T> {
    let at = current.and_then(|c| all.iter().position(|a| a == c));
    match (at, forward) {
        (None, true) => all.first().cloned(),
        (None, false) => all.last().cloned(),
        (Some(i), true) => all.get(i + 1).cloned(),
        (Some(i), false) => i.checked_sub(1).and_then(|i| all.get(i)).cloned(),
    }
}
