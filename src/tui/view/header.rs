//! The top line: the app's name, the two screens with the one shown marked, and the banner
//! that says what is being looked at.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::tui::app::{App, Screen};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let tab = |key: &'static str, name: &'static str, screen: Screen| {
        let style = if app.screen == screen {
            theme.title.add_modifier(Modifier::REVERSED)
        } else {
            theme.dim
        };
        [
            Span::styled(format!(" {key} {name} "), style),
            Span::raw(" "),
        ]
    };
    let mut spans = vec![Span::styled(" skilldeck ", theme.title), Span::raw(" ")];
    spans.extend(tab("1", "Skills", Screen::Skills));
    spans.extend(tab("2", "Roots", Screen::Roots));
    if let Some(banner) = &app.banner {
        spans.push(Span::styled(format!(" {banner}"), theme.warning));
    }
    frame.render_widget(Line::from(spans), area);
}
