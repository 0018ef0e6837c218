//! The skills an import would replace, grouped by skill: each named, with where it is, why
//! it needs the person's word and its changed files under it, and beside them the diff of
//! what the replacement changes. `y` replaces those marked, a skill kept is left as it is
//! (the rest still installs), Esc writes nothing.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::text::width;
use crate::tui::app::App;
use crate::tui::diff::DiffView;
use crate::tui::geometry::Laid;
use crate::tui::import::{ConflictView, Import};
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;

pub fn draw(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    (conflicts, skipped): (&[ConflictView], &[bool]),
    diff: &DiffView,
    scroll: usize,
    laid: &mut Laid,
) {
    let theme = &app.theme;
    let columns = usize::from(area.width);
    let current = Import::conflict_at(conflicts, scroll);
    let kept = skipped.iter().filter(|s| **s).count();
    let title = match (conflicts.len(), kept) {
        (1, 0) => "1 skill is there already:".to_owned(),
        (1, _) => "1 skill is there already, kept as it is:".to_owned(),
        (n, 0) => format!("{n} skills are there already:"),
        (n, k) => format!("{n} skills are there already; {k} kept as they are:"),
    };
    let mut lines = Vec::new();
    let mut current_block = 0..0;
    for (i, conflict) in conflicts.iter().enumerate() {
        let start = lines.len();
        let kept = skipped.get(i).copied().unwrap_or(false);
        let mark = match (conflict.forcible, kept) {
            (false, _) => "[-]",
            (true, true) => "[ ]",
            (true, false) => "[x]",
        };
        let selected = current == Some(i);
        let quiet = if selected { Style::new() } else { theme.dim };
        // Its folder is the destination's, named in the diff's heading; here, why it asks.
        let detail = format!("  {}", conflict.why);
        let room = columns.saturating_sub(6 + width::of(&conflict.name));
        lines.push(
            Line::from(vec![
                Span::raw(if selected { "▸ " } else { "  " }),
                Span::styled(mark, theme.key),
                Span::raw(" "),
                Span::styled(conflict.name.clone(), theme.title),
                Span::styled(width::fit(&detail, room), quiet),
            ])
            .style(if selected {
                theme.selected
            } else {
                Style::new()
            }),
        );
        for file in diff.files.get(conflict.files.clone()).unwrap_or_default() {
            // The diff's file list names each file below its skill; here the skill is above.
            let path = file
                .path
                .strip_prefix(&format!("{}/", conflict.name))
                .unwrap_or(&file.path);
            lines.push(Line::from(vec![
                Span::raw("      "),
                Span::styled(format!("{} ", file.mark.letter()), theme.label),
                Span::raw(width::fit(path, columns.saturating_sub(24))),
                Span::styled(format!("  +{}", file.added), theme.added),
                Span::styled(format!(" −{}", file.removed), theme.removed),
            ]));
        }
        if selected {
            current_block = start..lines.len();
        }
    }
    let ask = format!(
        "{} replaces [x] (snapshotted first) · {} keeps the one shown · {} cancels",
        keymap::key_for(Mode::Replace, Action::Confirm),
        keymap::key_for(Mode::Replace, Action::ToggleSkill),
        keymap::key_for(Mode::Replace, Action::Back)
    );
    // The title and the keys stay; the skills between scroll to keep the one shown in view.
    let height = u16::try_from(lines.len() + 2)
        .unwrap_or(u16::MAX)
        .min((area.height / 2).max(4));
    let [top, list, keys, body] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(height.saturating_sub(2)),
        Constraint::Length(1),
        Constraint::Fill(1),
    ])
    .areas(area);
    frame.render_widget(Line::styled(title, theme.title), top);
    let rows = usize::from(list.height);
    let first = current_block
        .end
        .saturating_sub(rows)
        .min(current_block.start);
    let shown: Vec<Line> = lines.into_iter().skip(first).take(rows).collect();
    frame.render_widget(Paragraph::new(shown), list);
    frame.render_widget(
        Line::styled(width::fit(&ask, usize::from(keys.width)), theme.dim),
        keys,
    );
    if diff.is_empty() {
        return;
    }
    super::super::diff::body(frame, body, diff, scroll, theme, laid);
}
