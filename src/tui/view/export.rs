//! The line where the archive a skill is exported to is typed: a name in the folder the app
//! works in to start with; a folder typed means into it.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::text::sanitize;
use crate::text::width;
use crate::tui::app::ExportPrompt;
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;
use crate::tui::theme::Theme;

use super::pane;
use crate::tui::geometry::popup;

pub fn draw(frame: &mut Frame, area: Rect, prompt: &ExportPrompt, theme: &Theme) {
    let box_area = popup(area, 76, 8);
    let block = pane(
        Line::styled(format!(" Export {} ", prompt.name), theme.title),
        true,
        theme,
    );
    let inner = block.inner(box_area);
    // What was typed is shown as it will be used, but never raw: a pasted escape is text.
    let room = usize::from(inner.width).saturating_sub(3);
    let (first, _) = prompt.text.window(room);
    let typed: Vec<char> = prompt.text.text().chars().collect();
    let before: String = typed[first..prompt.text.cursor_chars()].iter().collect();
    let shown = sanitize::line(&typed[first..].iter().collect::<String>());
    let cursor = width::of(&sanitize::line(&before));
    let what = if prompt.batch.is_empty() {
        "Secrets removed, at most 5 MiB: a .tar.gz file, or a folder to put it in:"
    } else {
        "A .tar.gz of each, named after it, secrets removed, into the folder:"
    };
    let body = vec![
        Line::styled(what, theme.dim),
        Line::from(vec![Span::styled("> ", theme.key), Span::raw(shown)]),
        Line::raw(""),
        Line::styled(
            format!(
                "{} exports (no file is ever replaced) · {} cancels · ~/ is your home folder",
                keymap::key_for(Mode::Export, Action::Choose),
                keymap::key_for(Mode::Export, Action::Back)
            ),
            theme.dim,
        ),
    ];
    super::clear_under_popup(frame, box_area);
    frame.render_widget(
        Paragraph::new(body).block(block).wrap(Wrap { trim: false }),
        box_area,
    );
    let x = inner.x + 2 + u16::try_from(cursor).unwrap_or(0);
    frame.set_cursor_position(Position::new(
        x.min(inner.right().saturating_sub(1)),
        inner.y + 1,
    ));
}
