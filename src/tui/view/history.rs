//! The history view: every snapshot of one skill, newest first — when it was taken (said
//! against the app's clock at this frame), why, its size and what changed since the one
//! before, the latest and damaged ones tagged — with the store's size in the title; below,
//! the selected snapshot in words and what the keys do with it.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::text::human::size;
use crate::text::width;
use crate::tui::app::App;
use crate::tui::geometry::{Laid, PaneGeometry, keep_in_view};
use crate::tui::history::{SnapshotRow, StoreSize, change_signs, change_text};
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;
use crate::tui::theme::{MARKED_MARKER, Theme};
use crate::tui::views::{History, Loading};

use super::pane;

/// Column widths: the mark, when, the tag, the size.
const MARK: usize = 2;
const WHEN: usize = 13;
const TAG: usize = 7;
const SIZE: usize = 9;
/// The narrowest the "since the one before" column is shown at; narrower, the lines below say it.
const CHANGE: usize = 14;
/// The lines below the table: the selected snapshot in words (three lines at 80 columns), then
/// what the keys do with it.
const ABOUT: u16 = 5;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, history: &History, laid: &mut Laid) {
    let theme = &app.theme;
    let [table, about] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(ABOUT)]).areas(area);
    let block = pane(title(history, theme), app.is_uncovered(), theme);
    let inner = block.inner(table);
    frame.render_widget(block, table);
    let [head, rows_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
    let rows = usize::from(rows_area.height);
    let mut geometry = PaneGeometry {
        area: table,
        rows: rows_area,
        page: rows,
        offset: app.panes.history.offset,
        max: 0,
    };
    let note = match &history.view {
        Loading::Waiting => Some(("Reading the history…".to_owned(), theme.dim)),
        Loading::Failed(why) => Some((why.clone(), theme.warning)),
        Loading::Ready(view) if view.rows.is_empty() => Some((
            format!(
                "No snapshot of {} yet: {} in the skill list takes one, and so does anything skilldeck does that replaces it.",
                history.name,
                keymap::key_for(Mode::Skills, Action::Snapshot)
            ),
            theme.dim,
        )),
        Loading::Ready(_) => None,
    };
    if let Some((text, style)) = note {
        laid.panes.history = Some(geometry);
        frame.render_widget(
            Paragraph::new(Line::styled(text, style)).wrap(Wrap { trim: true }),
            rows_area,
        );
        return;
    }
    let columns = Columns::of(usize::from(inner.width), history.rows());
    frame.render_widget(Line::styled(columns.head(), theme.dim), head);
    geometry.offset = keep_in_view(geometry.offset, history.selected, rows);
    laid.panes.history = Some(geometry);
    let shown = history
        .rows()
        .iter()
        .enumerate()
        .skip(geometry.offset)
        .take(rows);
    for (y, (i, row)) in (rows_area.y..).zip(shown) {
        let marked = history.marked.as_deref() == Some(row.id.as_str());
        let selected = i == history.selected;
        let line = columns.row(app, row, marked, selected, theme);
        let line = if selected {
            line.style(theme.selected)
        } else {
            line
        };
        frame.render_widget(line, Rect::new(rows_area.x, y, rows_area.width, 1));
    }
    if let Some(row) = history.selected() {
        frame.render_widget(
            Paragraph::new(about_lines(app, history, row)).wrap(Wrap { trim: true }),
            about,
        );
    }
}

/// ` History of code-review · 4 snapshots · store 48.2 KiB, 1.1 KiB held for undo `
fn title(history: &History, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::styled(
        format!(" History of {} ", history.name),
        theme.title,
    )];
    if let Loading::Ready(view) = &history.view {
        let count = crate::text::human::count(view.rows.len(), "snapshot");
        let style = if matches!(view.usage, StoreSize::Read(_)) {
            theme.label
        } else {
            theme.warning
        };
        spans.push(Span::styled(format!("· {count} "), theme.label));
        spans.push(Span::styled(format!("· {} ", view.usage_text()), style));
    }
    Line::from(spans)
}

/// How wide each column is at this width.
struct Columns {
    reason: usize,
    /// Zero when there is no room for it.
    change: usize,
}

impl Columns {
    fn of(columns: usize, rows: &[SnapshotRow]) -> Self {
        let fixed = MARK + WHEN + 1 + TAG + 1 + SIZE + 1;
        let rest = columns.saturating_sub(fixed);
        let longest = rows.iter().map(|r| width::of(r.reason)).max().unwrap_or(0);
        let reason = longest.max(3).min(rest);
        let change = rest.saturating_sub(reason + 1);
        if change >= CHANGE {
            Self { reason, change }
        } else {
            Self {
                reason: rest,
                change: 0,
            }
        }
    }

    fn head(&self) -> String {
        let mut head = format!(
            "{}{} {} {} {}",
            " ".repeat(MARK),
            width::pad("TAKEN", WHEN),
            width::pad("", TAG),
            width::pad("WHY", self.reason),
            pad_left("SIZE", SIZE),
        );
        if self.change > 0 {
            head.push(' ');
            head.push_str(&width::fit("SINCE THE ONE BEFORE", self.change));
        }
        head
    }

    fn row(
        &self,
        app: &App,
        row: &SnapshotRow,
        marked: bool,
        selected: bool,
        theme: &Theme,
    ) -> Line<'static> {
        let theme_tag = |tag: &str, style: Style| Span::styled(width::pad(tag, TAG), style);
        let tag = if row.damaged {
            theme_tag("damaged", theme.warning)
        } else if row.latest {
            theme_tag("latest", theme.label)
        } else {
            theme_tag("", Style::new())
        };
        let mark = if marked {
            Span::styled(width::pad(MARKED_MARKER, MARK), theme.key)
        } else {
            Span::raw(" ".repeat(MARK))
        };
        let mut spans = vec![
            mark,
            Span::raw(width::pad(&app.clock.since(row.taken_at), WHEN)),
            Span::raw(" "),
            tag,
            Span::raw(" "),
            Span::raw(width::pad(row.reason, self.reason)),
            Span::raw(" "),
            Span::raw(pad_left(&size(row.size), SIZE)),
        ];
        if self.change > 0 {
            spans.push(Span::raw(" "));
            // In words where they fit, else in signs: the line below has the words.
            let words = change_text(row);
            let text = if width::of(&words) <= self.change {
                words
            } else {
                change_signs(row)
            };
            // Dim text on the selection's grey would not be seen.
            let style = if selected { Style::new() } else { theme.dim };
            spans.push(Span::styled(width::fit(&text, self.change), style));
        }
        Line::from(spans)
    }
}

fn pad_left(text: &str, columns: usize) -> String {
    let text = width::fit(text, columns);
    format!(
        "{}{text}",
        " ".repeat(columns.saturating_sub(width::of(&text)))
    )
}

/// The selected snapshot in words, and what the keys do with it.
fn about_lines(app: &App, history: &History, row: &SnapshotRow) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let since = match (&row.since_previous, row.first) {
        (Some(_), _) => format!("since the one before: {}", change_text(row)),
        (None, _) => change_text(row),
    };
    let mut first = vec![
        Span::styled(format!("{}: ", row.id), theme.label),
        Span::raw(format!(
            "{} ({}), {}; {since}.",
            app.clock.since(row.taken_at),
            row.reason,
            size(row.size),
        )),
    ];
    if row.damaged {
        first.push(Span::styled(
            " Damaged in the store: it cannot be diffed or restored.",
            theme.warning,
        ));
    } else if row.latest {
        first.push(Span::styled(
            " The latest: what the changed screen compares against.",
            theme.dim,
        ));
    }
    let keys = match history.marked.as_deref() {
        Some(marked) if marked != row.id => format!(
            "{} diffs it with the marked {marked} · {} restores it · {} deletes it · {} undoes",
            keymap::key_for(Mode::History, Action::OpenDiff),
            keymap::key_for(Mode::History, Action::Restore),
            keymap::key_for(Mode::History, Action::Remove),
            keymap::key_for(Mode::History, Action::Undo),
        ),
        _ => format!(
            "{} diffs it against {} now · {} marks it · {} restores it · {} deletes it",
            keymap::key_for(Mode::History, Action::OpenDiff),
            history.shown_dir,
            keymap::key_for(Mode::History, Action::ToggleMark),
            keymap::key_for(Mode::History, Action::Restore),
            keymap::key_for(Mode::History, Action::Remove),
        ),
    };
    vec![Line::from(first), Line::styled(keys, theme.dim)]
}
