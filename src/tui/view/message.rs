//! A message box over everything, for a failure the person should read before going on; what
//! it covers (a prompt being typed into, a question) is still there when it closes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;
use crate::tui::theme::Theme;

use super::help::centered;
use super::pane;

pub fn draw(frame: &mut Frame, area: Rect, text: &str, theme: &Theme) {
    let box_area = centered(area, 64, 9);
    let block = pane(
        Line::styled(" Something went wrong ", theme.warning),
        true,
        theme,
    );
    let body = vec![
        Line::raw(text.to_owned()),
        Line::raw(""),
        Line::styled(
            format!(
                "{} closes this message.",
                keymap::keys_for(Mode::Message, Action::Back)
            ),
            theme.dim,
        ),
    ];
    frame.render_widget(Clear, box_area);
    frame.render_widget(
        Paragraph::new(body).block(block).wrap(Wrap { trim: true }),
        box_area,
    );
}
