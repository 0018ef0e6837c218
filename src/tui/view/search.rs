//! The search line at the foot of the skill list: the query, and its cursor while typing.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};

use crate::text::sanitize;
use crate::text::width;
use crate::tui::app::App;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    if area.height == 0 {
        return;
    }
    let theme = &app.theme;
    let line = &app.search.query;
    let room = usize::from(area.width).saturating_sub(1);
    // The window keeps the cursor in view; what was typed is shown as it will be matched,
    // but never raw: a pasted escape is text.
    let (first, _) = line.window(room);
    let typed: Vec<char> = line.text().chars().collect();
    let before: String = typed[first..line.cursor_chars()].iter().collect();
    let shown = sanitize::line(&typed[first..].iter().collect::<String>());
    let shown = width::fit(&shown, room);
    let style = if app.search.typing {
        theme.key
    } else {
        theme.warning
    };
    frame.render_widget(
        Line::from(vec![Span::styled("/", style), Span::raw(shown)]),
        area,
    );
    if app.search.typing {
        let cursor = width::of(&sanitize::line(&before));
        let x = area.x + u16::try_from(1 + cursor).unwrap_or(area.width);
        frame.set_cursor_position(Position::new(x.min(area.right().saturating_sub(1)), area.y));
    }
}
