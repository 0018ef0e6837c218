//! Drawing: the app's state onto a frame, one file per pane or overlay. Drawing only reads the
//! app; what it laid out (each pane's area, page, offset and furthest scroll, and the preview
//! wrapped to its width) it hands back as a [`Laid`], which the runtime gives to `update`.

mod budget;
mod changed;
mod confirm;
mod copies;
mod detail;
mod diff;
mod export;
mod footer;
mod gauge;
mod header;
mod help;
mod history;
mod import;
mod list;
mod manage;
mod message;
mod preview;
mod roots;
mod search;
mod updating;
mod viewer;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Wrap};

use super::app::{App, Overlay, Screen};
use super::geometry::Laid;
use super::keymap;
use super::msg::{Action, Pane};
use super::theme::Theme;

/// The smallest terminal the app lays itself out in.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 15;

/// Draw the whole app; what comes back is where it put each pane.
pub fn draw(frame: &mut Frame, app: &App) -> Laid {
    let area = frame.area();
    let mut laid = Laid::default();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(frame, area, app);
        return laid;
    }
    let [top, body, status, bottom] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    header::draw(frame, top, app);
    match (&app.diff, app.screen) {
        (Some(diff), _) => diff::draw(frame, body, app, diff, &mut laid),
        (None, _) if app.history.is_some() => {
            if let Some(history) = &app.history {
                history::draw(frame, body, app, history, &mut laid);
            }
        }
        (None, _) if app.viewer.is_some() => {
            if let Some(viewer) = &app.viewer {
                viewer::draw(frame, body, app, viewer, &mut laid);
            }
        }
        (None, _) if app.copies.is_some() => {
            if let Some(copies) = &app.copies {
                copies::draw(frame, body, app, copies);
            }
        }
        (None, _) if app.budget.is_some() => {
            if let Some(view) = app.budget {
                budget::draw(frame, body, app, view, &mut laid);
            }
        }
        (None, Screen::Skills) => skills_screen(frame, body, app, &mut laid),
        (None, Screen::Roots) => roots::draw(frame, body, app, &mut laid),
        (None, Screen::Changed) => changed::draw(frame, body, app, &mut laid),
    }
    footer::draw_status(frame, status, app);
    footer::draw_hints(frame, bottom, app);
    if let Some(import) = &app.import {
        import::draw(frame, body, app, import, &mut laid);
    }
    if let Some(updating) = app.updating.as_ref().filter(|u| u.settling())
        && let Some(planned) = updating.planned()
    {
        updating::draw(frame, body, app, &updating.names, planned, &mut laid);
    }
    match &app.overlay {
        Overlay::None => {}
        Overlay::Help => help::draw(frame, area, app, &mut laid),
        Overlay::Confirm(question) => confirm::draw(frame, area, question, &app.theme),
        Overlay::Export(prompt) => export::draw(frame, area, prompt, &app.theme),
        Overlay::Pick(pick) => manage::draw_pick(frame, area, pick, &app.theme),
        Overlay::Summary(summary) => manage::draw_summary(frame, area, summary, &app.theme),
    }
    if let Some(running) = &app.batch {
        manage::draw_progress(frame, area, running, &app.theme);
    }
    // Messages are above everything, the overlay they arrived over included.
    if let Some(text) = app.messages.first() {
        message::draw(frame, area, text, &app.theme);
    }
    laid
}

fn skills_screen(frame: &mut Frame, area: Rect, app: &App, laid: &mut Laid) {
    // A wide terminal gives the list room for who installed each skill and the agents; a
    // narrow one gives it half too, as 40 % of 60 columns leaves too little of a name to tell
    // one from another.
    let list = if area.width >= 110 || area.width < 80 {
        50
    } else {
        40
    };
    let [left, right] = Layout::horizontal([
        Constraint::Percentage(list),
        Constraint::Percentage(100 - list),
    ])
    .areas(area);
    let [top, bottom] =
        Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(right);
    list::draw(frame, left, app, laid);
    detail::draw(frame, top, app, laid);
    preview::draw(frame, bottom, app, laid);
}

/// A bordered pane, its border bright when it has the keyboard.
fn pane<'a>(title: Line<'a>, focused: bool, theme: &Theme) -> Block<'a> {
    Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(if focused {
            theme.border_focused
        } else {
            theme.border
        })
        .title(title)
}

/// Whether `pane` of the screen shown has the keyboard.
fn has_focus(app: &App, pane: Pane) -> bool {
    app.is_uncovered() && app.import.is_none() && app.focus == pane
}

fn too_small(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let text = vec![
        Line::styled("The terminal is too small for skilldeck.", theme.title),
        Line::raw(format!(
            "It is {}×{}; skilldeck needs at least {MIN_WIDTH}×{MIN_HEIGHT}.",
            area.width, area.height
        )),
        Line::raw(format!(
            "Make the window larger, or press {} to quit.",
            keymap::key_for(app.mode(), Action::Quit)
        )),
    ];
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}
