//! The top line: the app's name, the three screens with the one shown marked (the changed
//! screen with its count), and the banner that says what is being looked at.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::tui::app::{App, Screen};
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;
use crate::tui::views::Loading;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    // Each tab is named with the key that shows it from the other screens.
    let tab = |key: String, name: String, screen: Screen| {
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
    spans.extend(tab(
        keymap::key_for(Mode::Roots, Action::ShowSkills),
        "Skills".to_owned(),
        Screen::Skills,
    ));
    spans.extend(tab(
        keymap::key_for(Mode::Skills, Action::ShowRoots),
        "Roots".to_owned(),
        Screen::Roots,
    ));
    let changed = match &app.changes.skills {
        Loading::Ready(skills) => format!("Changed {}", skills.len()),
        _ => "Changed".to_owned(),
    };
    spans.extend(tab(
        keymap::key_for(Mode::Skills, Action::ShowChanged),
        changed,
        Screen::Changed,
    ));
    if let Some(banner) = &app.banner {
        // Cut with a mark where it does not fit, so a cut banner does not read as whole.
        let used: usize = spans.iter().map(Span::width).sum::<usize>() + 1;
        let room = usize::from(area.width).saturating_sub(used);
        let banner = crate::text::width::fit(banner, room);
        spans.push(Span::styled(format!(" {banner}"), theme.warning));
    }
    frame.render_widget(Line::from(spans), area);
}
