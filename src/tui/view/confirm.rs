//! A yes-or-no question over the screen, asked before something that replaces what a person has.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::app::Confirm;
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;
use crate::tui::theme::Theme;

use super::pane;
use crate::tui::geometry::popup;

pub fn draw(frame: &mut Frame, area: Rect, question: &Confirm, theme: &Theme) {
    // As high as the question needs (a plan lists every skill), as the screen allows.
    let room = usize::from(72u16.min(area.width).saturating_sub(2)).max(1);
    let rows: usize = question
        .lines
        .iter()
        .map(|l| crate::text::width::of(l).div_ceil(room).max(1))
        .sum();
    let height = u16::try_from(rows + 4).unwrap_or(u16::MAX).max(10);
    let box_area = popup(area, 72, height);
    let block = pane(
        Line::styled(format!(" {} ", question.title), theme.title),
        true,
        theme,
    );
    let mut body: Vec<Line> = question
        .lines
        .iter()
        .map(|l| Line::raw(l.clone()))
        .collect();
    body.push(Line::raw(""));
    body.push(Line::from(vec![
        Span::styled(keymap::key_for(Mode::Confirm, Action::Confirm), theme.key),
        Span::styled(format!(" {}   ", question.yes), theme.dim),
        Span::styled(keymap::keys_for(Mode::Confirm, Action::Back), theme.key),
        Span::styled(": leave it as it is", theme.dim),
    ]));
    super::clear_under_popup(frame, box_area);
    frame.render_widget(
        Paragraph::new(body).block(block).wrap(Wrap { trim: true }),
        box_area,
    );
}
