//! Drawing: the app's state onto a frame, one file per pane or overlay. Drawing reads the app
//! and writes only the view state (scroll offsets, pane areas, wrapped text).

mod detail;
mod footer;
mod header;
mod help;
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
    match app.screen {
        Screen::Skills => skills_screen(frame, body, app, view),
        Screen::Roots => roots::draw(frame, body, app, view),
    }
    footer::draw_status(frame, status, app);
    footer::draw_hints(frame, bottom, app);
    match &app.overlay {
        Overlay::None => {}
        Overlay::Help => help::draw(frame, area, app, view),
        Overlay::Message(text) => message::draw(frame, area, text, &app.theme),
    }
}

fn skills_screen(frame: &mut Frame, area: Rect, app: &App, view: &mut ViewState) {
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(40), Constraint::Percentage(60)]).areas(area);
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

/// Whether `pane` of the skill screen has the keyboard.
fn has_focus(app: &App, pane: Pane) -> bool {
    app.overlay == Overlay::None && app.focus == pane
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

/// `bytes` for people: `812 B`, `1.2 KiB`, `3.4 MiB`.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// A time span for people: `just now`, `5 min ago`, `3 h ago`, `12 days ago`.
fn ago(span: std::time::Duration) -> String {
    let seconds = span.as_secs();
    match seconds {
        0..60 => "just now".to_owned(),
        60..3_600 => format!("{} min ago", seconds / 60),
        3_600..86_400 => format!("{} h ago", seconds / 3_600),
        86_400..172_800 => "yesterday".to_owned(),
        _ => format!("{} days ago", seconds / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn sizes_and_ages_read_for_people() {
        assert_eq!(size(812), "812 B");
        assert_eq!(size(1024), "1.0 KiB");
        assert_eq!(size(1_258_291), "1.2 MiB");
        assert_eq!(ago(Duration::from_secs(30)), "just now");
        assert_eq!(ago(Duration::from_secs(5 * 60 + 3)), "5 min ago");
        assert_eq!(ago(Duration::from_secs(2 * 3_600 + 10)), "2 h ago");
        assert_eq!(ago(Duration::from_secs(86_400 + 5)), "yesterday");
        assert_eq!(ago(Duration::from_secs(12 * 86_400)), "12 days ago");
    }
}
