//! The search line at the foot of the skill list: the query, and the cursor while typing.

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
    // What was typed is shown as it will be matched, but never raw: a pasted escape is text.
    let query = sanitize::line(&app.search.query);
    let room = usize::from(area.width).saturating_sub(2);
    // Keep the end of a long query in view, where the typing happens.
    let shown: String = if width::of(&query) > room {
        let skip = query.chars().count().saturating_sub(room);
        query.chars().skip(skip).collect()
    } else {
        query
    };
    let style = if app.search.typing {
        theme.key
    } else {
        theme.warning
    };
    frame.render_widget(
        Line::from(vec![Span::styled("/", style), Span::raw(shown.clone())]),
        area,
    );
    if app.search.typing {
        let x = area.x + u16::try_from(1 + width::of(&shown)).unwrap_or(area.width);
        frame.set_cursor_position(Position::new(x.min(area.right().saturating_sub(1)), area.y));
    }
}
