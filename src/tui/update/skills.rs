//! The skill list (with its search line and filters) and the roots screen.

use crate::record::State;
use crate::roots::Source;

use super::{cycle, rows_of, shared, step};
use crate::tui::app::{App, By, Filter, Preview, Screen};
use crate::tui::keymap::{self, Mode};
use crate::tui::line::Edit;
use crate::tui::model::Sort;
use crate::tui::msg::{Action, Effect, Pane};

pub(super) fn act(app: &mut App, action: Action) -> Vec<Effect> {
    if let Some(effects) = shared(app, action) {
        return effects;
    }
    if let Some(rows) = rows_of(action, page_rows(app)) {
        return move_by(app, rows);
    }
    match action {
        Action::Back => back(app),
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
        Action::Zoom => {
            app.zoomed = !app.zoomed;
            Vec::new()
        }
        Action::OpenPreview => {
            app.focus = Pane::Preview;
            Vec::new()
        }
        Action::StartSearch => {
            app.search.typing = true;
            app.search.before = app.search.query.text().to_owned();
            app.focus = Pane::List;
            Vec::new()
        }
        Action::Type(c) => {
            app.search.query.insert(c);
            narrowed(app)
        }
        Action::Erase => edited(app, Edit::EraseBack),
        Action::Edit(edit) => edited(app, edit),
        Action::AcceptSearch => {
            app.search.typing = false;
            Vec::new()
        }
        Action::CycleSource | Action::CycleSourceBack => {
            let had: Vec<Source> = Source::ALL
                .into_iter()
                .filter(|s| app.deck.skills.iter().any(|k| k.source == *s))
                .collect();
            app.filter.source = cycle(app.filter.source.as_ref(), &had, forward(action));
            narrowed(app)
        }
        Action::CycleAgent | Action::CycleAgentBack => {
            let had: Vec<_> = app
                .shown_agents()
                .into_iter()
                .filter(|a| app.deck.skills.iter().any(|k| k.agents.contains(a)))
                .collect();
            app.filter.agent = cycle(app.filter.agent.as_ref(), &had, forward(action));
            narrowed(app)
        }
        Action::CycleState | Action::CycleStateBack => {
            let counts = app.deck.counts();
            let had: Vec<State> = State::ALL
                .into_iter()
                .filter(|s| counts.in_state(*s) > 0)
                .collect();
            app.filter.state = cycle(app.filter.state.as_ref(), &had, forward(action));
            narrowed(app)
        }
        Action::CycleInstaller | Action::CycleInstallerBack => {
            let mut had: Vec<By> = app
                .deck
                .installers()
                .iter()
                .cloned()
                .map(By::Installer)
                .collect();
            if app.deck.skills.iter().any(|k| k.owner.is_none()) {
                had.push(By::Nobody);
            }
            app.filter.installer = cycle(app.filter.installer.as_ref(), &had, forward(action));
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
            app.sort = cycle(Some(&app.sort), &Sort::ALL, true).unwrap_or_default();
            narrowed(app)
        }
        Action::ClearFilters => {
            app.filter = Default::default();
            app.search.query.clear();
            narrowed(app)
        }
        Action::OpenDiff | Action::Snapshot | Action::Export => {
            let Some(skill) = app.selected_skill() else {
                return Vec::new();
            };
            let (name, dir) = (skill.name.clone(), skill.dir.clone());
            let pristine = skill.owner.as_ref().and_then(|o| o.pristine.clone());
            match action {
                Action::OpenDiff => super::changed::open_diff(app, name, dir, pristine),
                Action::Snapshot => super::start_task(app, Effect::TakeSnapshot { name, dir }),
                _ => super::ask_export(app, &name, &dir),
            }
        }
        _ => Vec::new(),
    }
}

/// Esc steps back and never quits: out of the search line (putting back what it held), the
/// roots, a pane; then it clears the search, then the filters; with nothing left to clear it
/// says which key quits.
fn back(app: &mut App) -> Vec<Effect> {
    if app.search.typing {
        app.search.typing = false;
        let before = std::mem::take(&mut app.search.before);
        app.search.query.set(before);
        return narrowed(app);
    }
    if app.screen == Screen::Roots {
        app.screen = Screen::Skills;
    } else if app.zoomed {
        app.zoomed = false;
    } else if app.focus != Pane::List {
        app.focus = Pane::List;
    } else if !app.search.query.is_empty() {
        app.search.query.clear();
        super::note(app, "Search cleared.");
        return narrowed(app);
    } else if app.filter != Filter::default() {
        app.filter = Filter::default();
        super::note(app, "Filters cleared.");
        return narrowed(app);
    } else {
        let quit = keymap::key_for(Mode::Skills, Action::Quit);
        super::note(app, &format!("Nothing to clear; {quit} quits."));
    }
    Vec::new()
}

/// Whether a cycling action goes forward.
fn forward(action: Action) -> bool {
    !matches!(
        action,
        Action::CycleSourceBack
            | Action::CycleAgentBack
            | Action::CycleStateBack
            | Action::CycleInstallerBack
    )
}

/// An edit of the search line: the list narrows again only when the text changed.
fn edited(app: &mut App, edit: Edit) -> Vec<Effect> {
    if app.search.query.apply(edit) {
        narrowed(app)
    } else {
        Vec::new()
    }
}

/// After the search, a filter or the sort changed.
fn narrowed(app: &mut App) -> Vec<Effect> {
    app.refresh();
    follow_selection(app)
}

fn page_rows(app: &App) -> usize {
    match (app.screen, app.focus) {
        (Screen::Roots, _) => app.panes.roots.page,
        (_, Pane::List) => app.panes.list.page,
        (_, Pane::Detail) => app.panes.detail.page,
        (_, Pane::Preview) => app.panes.preview.page,
    }
}

/// Move the cursor, or scroll, in what has the keyboard, by `rows` (clamped at both ends).
pub(super) fn move_by(app: &mut App, rows: i32) -> Vec<Effect> {
    match (app.screen, app.focus) {
        (Screen::Roots, _) => {
            app.root_selected = step(app.root_selected, rows, app.shown_roots().len());
            Vec::new()
        }
        (_, Pane::List) => {
            app.selected = step(app.selected, rows, app.visible.len());
            follow_selection(app)
        }
        (_, Pane::Detail) => {
            app.detail_scroll = step(app.detail_scroll, rows, app.panes.detail.max + 1);
            Vec::new()
        }
        (_, Pane::Preview) => {
            app.preview_scroll = step(app.preview_scroll, rows, app.panes.preview.max + 1);
            Vec::new()
        }
    }
}

/// Make the preview follow the selected skill, asking for its `SKILL.md` when it changed.
pub(super) fn follow_selection(app: &mut App) -> Vec<Effect> {
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

pub(super) fn scan_summary(app: &App) -> String {
    let counts = app.deck.counts();
    // The product's word for a recorded skill whose files differ from its digest: modified.
    let modified = counts.in_state(State::Modified);
    let count = crate::text::human::count;
    format!(
        "Found {} in {}; {modified} modified.",
        count(counts.skills, "skill"),
        count(counts.roots, "root")
    )
}
