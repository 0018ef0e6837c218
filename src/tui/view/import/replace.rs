//! The skills an import would replace, each with the diff of what the replacement changes,
//! shown before anything is written; `y` replaces them, Esc writes nothing.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::app::App;
use crate::tui::diff::DiffView;
use crate::tui::geometry::Laid;
use crate::tui::import::ConflictView;
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;

pub fn draw(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    conflicts: &[ConflictView],
    diff: &DiffView,
    scroll: usize,
    laid: &mut Laid,
) {
    let theme = &app.theme;
    let forcible = conflicts.iter().all(|c| c.forcible);
    let mut lines = vec![Line::styled(
        if conflicts.len() == 1 {
            "1 skill is there already:".to_owned()
        } else {
            format!("{} skills are there already:", conflicts.len())
        },
        theme.title,
    )];
    for conflict in conflicts {
        lines.push(Line::from(vec![
            Span::styled(format!("  {} ", conflict.name), theme.warning),
            Span::raw(format!("{} {}", conflict.shown_dir, conflict.why)),
        ]));
    }
    let ask = if forcible {
        format!(
            "{} replaces them (what each holds now is snapshotted first); {} writes nothing.",
            keymap::key_for(Mode::Replace, Action::Confirm),
            keymap::key_for(Mode::Replace, Action::Back)
        )
    } else {
        format!(
            "Something that is not a skill folder is in the way: move it away first. {} writes nothing.",
            keymap::key_for(Mode::Replace, Action::Back)
        )
    };
    lines.push(Line::styled(ask, theme.dim));
    let height = u16::try_from(lines.len() + 1)
        .unwrap_or(u16::MAX)
        .min(area.height / 2);
    let [top, body] =
        Layout::vertical([Constraint::Length(height), Constraint::Fill(1)]).areas(area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), top);
    if diff.is_empty() {
        return;
    }
    super::super::diff::body(frame, body, diff, scroll, theme, laid);
}
