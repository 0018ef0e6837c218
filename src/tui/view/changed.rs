//! The changed screen: every skill whose files differ from its latest snapshot (or, with no
//! snapshot, from its installer's record), what it differs from and when that was taken;
//! below, what the selected one's diff compares it with and what can be done.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::text::human::ago;
use crate::text::width;
use crate::tui::app::App;
use crate::tui::changes::{ChangeView, SinceView};
use crate::tui::geometry::{Laid, PaneGeometry, keep_in_view};
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::{Action, Pane};
use crate::tui::theme::{self, Theme};
use crate::tui::views::Loading;

use super::{has_focus, pane};

/// The width of the "since" column.
const SINCE: usize = 29;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, laid: &mut Laid) {
    let theme = &app.theme;
    let [table, about] = Layout::vertical([Constraint::Fill(1), Constraint::Length(6)]).areas(area);
    let changes = &app.changes;
    let modified = changes
        .shown()
        .iter()
        .filter(|c| matches!(c.since, SinceView::Installed { .. }))
        .count();
    let mut title = vec![Span::styled(
        format!(
            " Changed since their snapshots: {} ",
            changes.shown().len() - modified
        ),
        theme.title,
    )];
    if modified > 0 {
        title.push(Span::styled(
            format!("· {modified} modified, never snapshotted "),
            theme.label,
        ));
    }
    if changes.unreadable > 0 {
        title.push(Span::styled(
            format!("· {} could not be compared ", changes.unreadable),
            theme.warning,
        ));
    }
    let block = pane(Line::from(title), has_focus(app, Pane::List), theme);
    let inner = block.inner(table);
    frame.render_widget(block, table);
    let [head, rows_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
    let columns = usize::from(inner.width);
    let name = (columns.saturating_sub(4 + SINCE) / 3).clamp(18, 28);
    let folder = columns.saturating_sub(4 + name + 1 + SINCE + 1);
    frame.render_widget(
        Line::styled(
            format!(
                "    {} {} FOLDER",
                width::pad("NAME", name),
                width::pad("DIFFERS FROM", SINCE)
            ),
            theme.dim,
        ),
        head,
    );
    let rows = usize::from(rows_area.height);
    let mut geometry = PaneGeometry {
        area: table,
        rows: rows_area,
        page: rows,
        offset: app.panes.changed.offset,
        max: 0,
    };
    let note = match &changes.skills {
        Loading::Waiting => Some((
            "Comparing the skills with their snapshots…".to_owned(),
            theme.dim,
        )),
        Loading::Failed(why) => Some((why.clone(), theme.warning)),
        Loading::Ready(skills) if skills.is_empty() => Some((
            format!(
                "No skill changed since its snapshot. {} in the skill list snapshots a skill; {} compares again.",
                keymap::key_for(Mode::Skills, Action::Snapshot),
                keymap::key_for(Mode::Changed, Action::Rescan)
            ),
            theme.dim,
        )),
        Loading::Ready(_) => None,
    };
    if let Some((text, style)) = note {
        laid.panes.changed = Some(geometry);
        frame.render_widget(
            Paragraph::new(Line::styled(text, style)).wrap(Wrap { trim: true }),
            rows_area,
        );
        about_none(frame, about, theme);
        return;
    }
    geometry.offset = keep_in_view(geometry.offset, changes.selected, rows);
    laid.panes.changed = Some(geometry);
    let shown = changes
        .shown()
        .iter()
        .enumerate()
        .skip(geometry.offset)
        .take(rows);
    for (y, (i, change)) in (rows_area.y..).zip(shown) {
        let selected = i == changes.selected;
        let style = if selected {
            theme.selected
        } else {
            Style::new()
        };
        let line = row(change, name, folder, theme, selected).style(style);
        frame.render_widget(line, Rect::new(rows_area.x, y, rows_area.width, 1));
    }
    match changes.selected() {
        Some(change) => about_change(frame, about, change, theme),
        None => about_none(frame, about, theme),
    }
}

/// `±` changed since its snapshot, `▲` modified (never snapshotted, it differs from its
/// installer's record: the list's state), `✗` gone.
fn marker(since: &SinceView, theme: &Theme) -> (&'static str, Style) {
    match since {
        SinceView::Gone { .. } => (theme::GONE_MARKER, theme.warning),
        SinceView::Snapshot { .. } => (theme::CHANGED_MARKER, theme.changed),
        SinceView::Installed { .. } => (
            theme::state_marker(crate::record::State::Modified),
            theme.modified,
        ),
    }
}

fn since_text(since: &SinceView) -> String {
    let when = |age: &Option<std::time::Duration>| {
        age.map_or_else(String::new, |a| format!(" ({})", ago(a)))
    };
    match since {
        SinceView::Snapshot { age, .. } => format!("its snapshot{}", when(age)),
        SinceView::Gone { age, .. } => format!("gone; snapshot{}", when(age)),
        SinceView::Installed { installer } => match installer {
            Some(installer) => format!("as {installer} installed it"),
            None => "as installed".to_owned(),
        },
    }
}

fn row(
    change: &ChangeView,
    name: usize,
    folder: usize,
    theme: &Theme,
    selected: bool,
) -> Line<'static> {
    let quiet = if selected { Style::new() } else { theme.dim };
    let (mark, mark_style) = marker(&change.since, theme);
    Line::from(vec![
        Span::raw(" "),
        Span::styled(mark, mark_style),
        Span::raw("  "),
        Span::raw(width::pad(&change.name, name)),
        Span::raw(" "),
        Span::raw(width::pad(&since_text(&change.since), SINCE)),
        Span::raw(" "),
        Span::styled(width::fit(&change.shown_dir, folder), quiet),
    ])
}

fn about_change(frame: &mut Frame, area: Rect, change: &ChangeView, theme: &Theme) {
    let block = pane(
        Line::styled(format!(" {} ", change.name), theme.title),
        false,
        theme,
    );
    let against = match (&change.since, &change.pristine) {
        (SinceView::Snapshot { id, .. } | SinceView::Gone { id, .. }, _) => format!(
            "Diffed against snapshot {id}: {} puts it back, {} keeps what is there now.",
            keymap::key_for(Mode::Changed, Action::Restore),
            keymap::key_for(Mode::Changed, Action::Accept)
        ),
        (SinceView::Installed { .. }, Some(_)) => format!(
            "No snapshot yet: diffed against the untouched copy its installer keeps; {} takes the first snapshot.",
            keymap::key_for(Mode::Changed, Action::Accept)
        ),
        (SinceView::Installed { .. }, None) => format!(
            "No snapshot yet, and its installer keeps no copy to diff against; {} takes the first snapshot.",
            keymap::key_for(Mode::Changed, Action::Accept)
        ),
    };
    let lines = vec![
        Line::raw(change.shown_dir.clone()),
        Line::styled(against, theme.dim),
    ];
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

fn about_none(frame: &mut Frame, area: Rect, theme: &Theme) {
    let block = pane(Line::styled(" Snapshots ", theme.title), false, theme);
    let text = Line::styled(
        "A snapshot keeps what a skill holds; skilldeck takes one before it replaces or restores a skill, and at import.",
        theme.dim,
    );
    frame.render_widget(
        Paragraph::new(text).block(block).wrap(Wrap { trim: true }),
        area,
    );
}
