//! An update's conflicts, drawn over the screen: the conflicting files, each with why it
//! conflicts and the choice made for it (theirs, ours, both, or `?` while unsettled), and below
//! them the diff of the file under the cursor, here (ours, `−`) against upstream (theirs, `+`),
//! with the file as keeping both would write it where both sides changed the same lines. The
//! diff is the diff view's own rows.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::text::width;
use crate::tui::app::App;
use crate::tui::geometry::Laid;
use crate::tui::updating::{Planned, choice_word};

use super::pane;

pub fn draw(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    names: &str,
    planned: &Planned,
    laid: &mut Laid,
) {
    let theme = &app.theme;
    let title = Line::from(vec![
        Span::styled(format!(" Update {names} "), theme.title),
        Span::styled(
            format!(
                "· {} settled of {} ",
                planned.settled(),
                crate::text::human::count(planned.conflicts.len(), "conflict")
            ),
            theme.label,
        ),
    ]);
    let block = pane(title, true, theme);
    let inner = block.inner(area);
    super::clear_under_popup(frame, area);
    frame.render_widget(block, area);
    let listed = planned
        .conflicts
        .len()
        .min(usize::from(inner.height / 3).max(1));
    let [list, legend, rows] = Layout::vertical([
        Constraint::Length(u16::try_from(listed).unwrap_or(1)),
        Constraint::Length(1),
        Constraint::Fill(1),
    ])
    .areas(inner);
    conflict_list(frame, list, app, planned);
    let Some(conflict) = planned.selected() else {
        return;
    };
    let mut spans = vec![
        Span::styled("− ", theme.removed),
        Span::styled("here (ours)  ", theme.dim),
        Span::styled("+ ", theme.added),
        Span::styled("upstream (theirs)", theme.dim),
    ];
    if !conflict.both {
        spans.push(Span::styled(" · both cannot be kept", theme.warning));
    }
    frame.render_widget(Line::from(spans), legend);
    super::diff::rows_only(frame, rows, &conflict.diff, planned.scroll, theme, laid);
}

/// One line per conflicting file, `[theirs] guide.md  both sides changed the same lines`, the
/// one under the cursor kept in view.
fn conflict_list(frame: &mut Frame, area: Rect, app: &App, planned: &Planned) {
    let theme = &app.theme;
    let columns = usize::from(area.width);
    let rows = usize::from(area.height).max(1);
    let skip = planned.selected.saturating_sub(rows - 1);
    let several = planned.skills.len() > 1;
    let path_width = planned
        .conflicts
        .iter()
        .map(|c| width::of(&shown(planned, c.skill, &c.shown_path, several)))
        .max()
        .unwrap_or(0)
        .min(columns / 2);
    let lines: Vec<Line> = planned
        .conflicts
        .iter()
        .enumerate()
        .skip(skip)
        .take(rows)
        .map(|(i, conflict)| {
            let selected = i == planned.selected;
            let quiet = if selected { Style::new() } else { theme.dim };
            let (choice, style) = match conflict.choice {
                Some(choice) => (choice_word(choice), theme.key),
                None => ("?", theme.warning),
            };
            let path = shown(planned, conflict.skill, &conflict.shown_path, several);
            let room = columns.saturating_sub(10 + path_width + 2);
            Line::from(vec![
                Span::styled(format!("[{choice:^6}] "), style),
                Span::raw(width::pad(&width::fit_path(&path, path_width), path_width)),
                Span::raw("  "),
                Span::styled(width::fit(conflict.clash.describe(), room), quiet),
            ])
            .style(if selected {
                theme.selected
            } else {
                Style::new()
            })
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

/// The file's path, after its skill's name when the update is of several skills.
fn shown(planned: &Planned, skill: usize, path: &str, several: bool) -> String {
    match planned.skills.get(skill) {
        Some(skill) if several => format!("{}: {path}", skill.name),
        _ => path.to_owned(),
    }
}
