//! `update`: the one function that changes the app, from a message to a new state and the
//! effects the runtime should carry out. It does no I/O, so every behaviour is a plain test.

use crate::record::State;
use crate::roots::{AgentId, Source};
use crate::scan::Progress;

use super::app::{App, Overlay, Preview, Scan, Screen, Status};
use super::model::Sort;
use super::msg::{Action, Effect, Msg, Pane};

/// Apply `msg` to `app`; what comes back is for the runtime to do.
pub fn update(app: &mut App, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Started => start_scan(app),
        Msg::Action(action) => {
            app.status = None;
            act(app, action)
        }
        Msg::Select(index) => {
            match app.screen {
                Screen::Skills => {
                    app.focus = Pane::List;
                    app.selected = index.min(app.visible.len().saturating_sub(1));
                }
                Screen::Roots => {
                    app.root_selected = index.min(app.deck.roots.len().saturating_sub(1));
                }
            }
            follow_selection(app)
        }
        Msg::Focus(pane) => {
            app.focus = pane;
            Vec::new()
        }
        Msg::Scroll(pane, rows) => {
            if app.overlay == Overlay::Help {
                scroll_help(app, rows);
                return Vec::new();
            }
            if app.screen == Screen::Skills {
                app.focus = pane;
            }
            move_by(app, rows)
        }
        Msg::Resized => Vec::new(),
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
            app.status = Some(Status {
                text: scan_summary(app),
                warning: false,
            });
            follow_selection(app)
        }
        Msg::Preview { dir, text } => {
            if app.preview == Preview::Loading(dir.clone()) {
                app.preview_version += 1;
                app.preview = match text {
                    Ok(lines) => Preview::Text { dir, lines },
                    Err(reason) => Preview::Failed { dir, reason },
                };
            }
            Vec::new()
        }
        Msg::Failed(message) => {
            if matches!(app.scan, Scan::Running(_)) {
                app.scan = Scan::Done;
            }
            if let Preview::Loading(dir) = &app.preview {
                app.preview = Preview::Failed {
                    dir: dir.clone(),
                    reason: message.clone(),
                };
            }
            app.overlay = Overlay::Message(message);
            Vec::new()
        }
    }
}

fn act(app: &mut App, action: Action) -> Vec<Effect> {
    match action {
        Action::Quit => {
            app.running = false;
            Vec::new()
        }
        Action::Back => back(app),
        Action::Up => move_by(app, -1),
        Action::Down => move_by(app, 1),
        Action::PageUp => move_by(app, -page(app)),
        Action::PageDown => move_by(app, page(app)),
        Action::Top => move_by(app, i32::MIN),
        Action::Bottom => move_by(app, i32::MAX),
        Action::NextPane => {
            app.focus = match app.focus {
                Pane::List => Pane::Detail,
                Pane::Detail => Pane::Preview,
                Pane::Preview => Pane::List,
            };
            Vec::new()
        }
        Action::PreviousPane => {
            app.focus = match app.focus {
                Pane::List => Pane::Preview,
                Pane::Detail => Pane::List,
                Pane::Preview => Pane::Detail,
            };
            Vec::new()
        }
        Action::OpenPreview => {
            app.focus = Pane::Preview;
            Vec::new()
        }
        Action::StartSearch => {
            app.search.typing = true;
            app.search.before = app.search.query.clone();
            app.focus = Pane::List;
            Vec::new()
        }
        Action::Type(c) => {
            app.search.query.push(c);
            narrowed(app)
        }
        Action::Erase => {
            app.search.query.pop();
            narrowed(app)
        }
        Action::AcceptSearch => {
            app.search.typing = false;
            Vec::new()
        }
        Action::CycleSource => {
            app.filter.source = cycle(app.filter.source, &Source::ALL);
            narrowed(app)
        }
        Action::CycleAgent => {
            app.filter.agent = cycle(app.filter.agent, &AgentId::ALL);
            narrowed(app)
        }
        Action::CycleState => {
            app.filter.state = cycle(app.filter.state, &State::ALL);
            narrowed(app)
        }
        Action::ToggleDrifted => {
            app.filter.state = match app.filter.state {
                Some(State::Modified) => None,
                _ => Some(State::Modified),
            };
            narrowed(app)
        }
        Action::CycleSort => {
            app.sort = cycle(Some(app.sort), &Sort::ALL).unwrap_or_default();
            narrowed(app)
        }
        Action::ClearFilters => {
            app.filter = Default::default();
            app.search.query.clear();
            narrowed(app)
        }
        Action::ShowSkills => {
            app.screen = Screen::Skills;
            Vec::new()
        }
        Action::ShowRoots => {
            app.screen = Screen::Roots;
            Vec::new()
        }
        Action::ToggleHelp => {
            app.overlay = match app.overlay {
                Overlay::Help => Overlay::None,
                _ => Overlay::Help,
            };
            app.help_scroll = 0;
            Vec::new()
        }
        Action::Rescan => {
            if matches!(app.scan, Scan::Running(_)) {
                app.status = Some(Status {
                    text: "A scan is already running.".to_owned(),
                    warning: true,
                });
                return Vec::new();
            }
            start_scan(app)
        }
        Action::ToggleMouse => {
            app.mouse = !app.mouse;
            let text = if app.mouse {
                "Mouse on: the wheel scrolls, a click selects (hold Shift to select text)."
            } else {
                "Mouse off: the terminal selects text again."
            };
            app.status = Some(Status {
                text: text.to_owned(),
                warning: false,
            });
            vec![Effect::SetMouse(app.mouse)]
        }
    }
}

fn start_scan(app: &mut App) -> Vec<Effect> {
    app.scan = Scan::Running(Progress { done: 0, total: 0 });
    vec![Effect::StartScan]
}

fn back(app: &mut App) -> Vec<Effect> {
    if app.overlay != Overlay::None {
        app.overlay = Overlay::None;
    } else if app.search.typing {
        app.search.typing = false;
        app.search.query = std::mem::take(&mut app.search.before);
        return narrowed(app);
    } else if app.screen == Screen::Roots {
        app.screen = Screen::Skills;
    } else if app.focus != Pane::List {
        app.focus = Pane::List;
    } else {
        app.running = false;
    }
    Vec::new()
}

/// After the search, a filter or the sort changed.
fn narrowed(app: &mut App) -> Vec<Effect> {
    app.refresh();
    follow_selection(app)
}

fn page(app: &App) -> i32 {
    let rows = match (&app.overlay, app.screen, app.focus) {
        (Overlay::Help, _, _) => app.viewport.help_rows,
        (_, Screen::Roots, _) => app.viewport.roots_rows,
        (_, Screen::Skills, Pane::List) => app.viewport.list_rows,
        (_, Screen::Skills, Pane::Detail) => app.viewport.detail_rows,
        (_, Screen::Skills, Pane::Preview) => app.viewport.preview_rows,
    };
    i32::try_from(rows.saturating_sub(1).max(1)).unwrap_or(1)
}

/// Move the cursor, or scroll, in what has the keyboard, by `rows` (clamped at both ends).
fn move_by(app: &mut App, rows: i32) -> Vec<Effect> {
    if app.overlay == Overlay::Help {
        scroll_help(app, rows);
        return Vec::new();
    }
    match (app.screen, app.focus) {
        (Screen::Roots, _) => {
            app.root_selected = step(app.root_selected, rows, app.deck.roots.len());
            Vec::new()
        }
        (Screen::Skills, Pane::List) => {
            app.selected = step(app.selected, rows, app.visible.len());
            follow_selection(app)
        }
        (Screen::Skills, Pane::Detail) => {
            app.detail_scroll = step(app.detail_scroll, rows, app.viewport.detail_max + 1);
            Vec::new()
        }
        (Screen::Skills, Pane::Preview) => {
            app.preview_scroll = step(app.preview_scroll, rows, app.viewport.preview_max + 1);
            Vec::new()
        }
    }
}

fn scroll_help(app: &mut App, rows: i32) {
    app.help_scroll = step(app.help_scroll, rows, app.viewport.help_max + 1);
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

/// Make the preview follow the selected skill, asking for its `SKILL.md` when it changed.
fn follow_selection(app: &mut App) -> Vec<Effect> {
    let Some(dir) = app.selected_skill().map(|s| s.dir.clone()) else {
        app.preview = Preview::Empty;
        return Vec::new();
    };
    let showing = match &app.preview {
        Preview::Empty => None,
        Preview::Loading(d) | Preview::Text { dir: d, .. } | Preview::Failed { dir: d, .. } => {
            Some(d)
        }
    };
    if showing == Some(&dir) {
        return Vec::new();
    }
    app.detail_scroll = 0;
    app.preview_scroll = 0;
    app.preview = Preview::Loading(dir.clone());
    vec![Effect::ReadPreview(dir)]
}

/// The next of `all` after `current`, through "none" back to the first.
fn cycle<T: Copy + PartialEq>(current: Option<T>, all: &[T]) -> Option<T> {
    match current.and_then(|c| all.iter().position(|a| *a == c)) {
        None => all.first().copied(),
        Some(i) => all.get(i + 1).copied(),
    }
}

fn scan_summary(app: &App) -> String {
    let counts = app.deck.counts();
    let drifted = counts.in_state(State::Modified);
    let skills_word = if counts.skills == 1 {
        "skill"
    } else {
        "skills"
    };
    let roots_word = if counts.roots == 1 { "root" } else { "roots" };
    format!(
        "Found {} {skills_word} in {} {roots_word}; {drifted} drifted.",
        counts.skills, counts.roots
    )
}
