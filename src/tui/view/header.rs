//! The top line: the app's name, the three screens with the one shown marked (the changed
//! screen with its count), and the banner that says what is being looked at.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::tui::app::{App, Loading, Screen};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let tab = |key: &'static str, name: String, screen: Screen| {
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
    spans.extend(tab("1", "Skills".to_owned(), Screen::Skills));
    spans.extend(tab("2", "Roots".to_owned(), Screen::Roots));
    let changed = match &app.changes.skills {
        Loading::Ready(skills) => format!("Changed {}", skills.len()),
        _ => "Changed".to_owned(),
    };
    spans.extend(tab("3", changed, Screen::Changed));
    if let Some(banner) = &app.banner {
        spans.push(Span::styled(format!(" {banner}"), theme.warning));
    }
    frame.render_widget(Line::from(spans), area);
}
