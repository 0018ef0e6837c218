//! A message box over everything, for a failure the person should read before going on; what
//! it covers (a prompt being typed into, a question) is still there when it closes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;
use crate::tui::theme::Theme;

use super::pane;
use crate::tui::geometry::popup;

pub fn draw(frame: &mut Frame, area: Rect, text: &str, theme: &Theme) {
    // As high as the sentence needs, wrapped inside the border, as the body allows.
    let room = usize::from(64u16.min(area.width).saturating_sub(2)).max(1);
    let rows = crate::text::width::wrap(text, room).len() + 2;
    let box_area = popup(area, 64, u16::try_from(rows + 4).unwrap_or(u16::MAX).max(9));
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
    super::clear_under_popup(frame, box_area);
    frame.render_widget(
        Paragraph::new(body).block(block).wrap(Wrap { trim: true }),
        box_area,
    );
}
