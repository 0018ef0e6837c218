//! Drawing: the app's state onto a frame, one file per pane or overlay. Drawing reads the app
//! and writes only the view state (scroll offsets, pane areas, wrapped text).

mod changed;
mod confirm;
mod detail;
mod diff;
mod export;
mod footer;
mod header;
mod help;
mod import;
mod list;
mod message;
mod preview;
mod roots;
mod search;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Wrap};

use super::app::{App, Overlay, Screen, Viewport};
use super::msg::Pane;
use super::theme::Theme;
use super::view_state::ViewState;

/// The smallest terminal the app lays itself out in.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 15;

/// Draw the whole app.
pub fn draw(frame: &mut Frame, app: &App, view: &mut ViewState) {
    let area = frame.area();
    view.viewport = Viewport::default();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(frame, area, &app.theme);
        return;
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
        (Some(diff), _) => diff::draw(frame, body, app, diff, view),
        (None, Screen::Skills) => skills_screen(frame, body, app, view),
        (None, Screen::Roots) => roots::draw(frame, body, app, view),
        (None, Screen::Changed) => changed::draw(frame, body, app, view),
    }
    footer::draw_status(frame, status, app);
    footer::draw_hints(frame, bottom, app);
    if let Some(import) = &app.import {
        import::draw(frame, body, app, import, view);
    }
    match &app.overlay {
        Overlay::None => {}
        Overlay::Help => help::draw(frame, area, app, view),
        Overlay::Message(text) => message::draw(frame, area, text, &app.theme),
        Overlay::Confirm(question) => confirm::draw(frame, area, question, &app.theme),
        Overlay::Export(prompt) => export::draw(frame, area, prompt, &app.theme),
    }
}

fn skills_screen(frame: &mut Frame, area: Rect, app: &App, view: &mut ViewState) {
    // A wide terminal gives the list room for who installed each skill and the agents.
    let list = if area.width >= 110 { 50 } else { 40 };
    let [left, right] = Layout::horizontal([
        Constraint::Percentage(list),
        Constraint::Percentage(100 - list),
    ])
    .areas(area);
    let [top, bottom] =
        Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(right);
    view.areas.list = left;
    view.areas.detail = top;
    view.areas.preview = bottom;
    list::draw(frame, left, app, view);
    detail::draw(frame, top, app, view);
    preview::draw(frame, bottom, app, view);
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
    app.overlay == Overlay::None && app.import.is_none() && app.focus == pane
}

fn too_small(frame: &mut Frame, area: Rect, theme: &Theme) {
    let text = vec![
        Line::styled("The terminal is too small for skilldeck.", theme.title),
        Line::raw(format!(
            "It is {}×{}; skilldeck needs at least {MIN_WIDTH}×{MIN_HEIGHT}.",
            area.width, area.height
        )),
        Line::raw("Make the window larger, or press q to quit."),
    ];
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}
