//! The diff view: a header saying what is compared with what, the changed files with their
//! +/- counts (the one on screen marked), and the diff, coloured, its changed words
//! highlighted, long lines wrapped. Only the rows on screen are laid out, so a diff of
//! thousands of lines draws as fast as one of ten. The import's replacement step draws its
//! diff with the same [`body`].

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::text::human::ago;
use crate::text::width;
use crate::tui::app::App;
use crate::tui::diff::{Against, DiffRow, DiffView, RowKind};
use crate::tui::geometry::{Laid, PaneGeometry};
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;
use crate::tui::theme::Theme;
use crate::tui::views::{DiffState, Loading};

use super::pane;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, state: &DiffState, laid: &mut Laid) {
    let theme = &app.theme;
    let back = || {
        Line::styled(
            format!("{} goes back.", keymap::key_for(Mode::Diff, Action::Back)),
            theme.dim,
        )
    };
    match &state.view {
        Loading::Waiting => {
            let block = pane(
                Line::styled(format!(" Diff of {} ", state.name), theme.title),
                true,
                theme,
            );
            let text = Paragraph::new(Line::styled("Making the diff…", theme.dim)).block(block);
            frame.render_widget(text, area);
        }
        Loading::Failed(why) => {
            let block = pane(
                Line::styled(format!(" Diff of {} ", state.name), theme.title),
                true,
                theme,
            );
            let text = vec![
                Line::styled(why.clone(), theme.warning),
                Line::raw(""),
                back(),
            ];
            frame.render_widget(
                Paragraph::new(text).block(block).wrap(Wrap { trim: true }),
                area,
            );
        }
        Loading::Ready(diff) => {
            let mut block = pane(title(diff, theme), true, theme);
            if !diff.is_empty() {
                // Where the keys are, said even when the diff ends before the hunk landed on
                // can be its top line.
                block = block.title_bottom(
                    Line::styled(format!(" {} ", diff.position(state.scroll)), theme.label)
                        .right_aligned(),
                );
            }
            let inner = block.inner(area);
            frame.render_widget(block, area);
            if diff.is_empty() {
                let same = match &diff.against {
                    Against::Between { old, new } => {
                        format!("Snapshots {old} and {new} hold the same: nothing changed.")
                    }
                    against => format!(
                        "{} holds what {} holds: nothing changed.",
                        diff.shown_dir,
                        against_text(against)
                    ),
                };
                let text = vec![Line::raw(same), Line::raw(""), back()];
                frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), inner);
                return;
            }
            body(frame, inner, diff, state.scroll, theme, laid);
        }
    }
}

/// ` code-review · snapshot 20261129-… (3 h ago) → now · +3 −1 `
fn title(diff: &DiffView, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!(" {} ", diff.name), theme.title),
        Span::styled(
            match &diff.against {
                Against::Between { .. } => format!("· {} ", against_text(&diff.against)),
                _ => format!("· {} → now ", against_text(&diff.against)),
            },
            theme.label,
        ),
        Span::styled("· ", theme.dim),
        Span::styled(format!("+{} ", diff.added), theme.added),
        Span::styled(format!("−{} ", diff.removed), theme.removed),
    ])
}

/// What the diff compares with, in words.
pub fn against_text(against: &Against) -> String {
    match against {
        Against::Snapshot { id, age } => match age {
            Some(age) => format!("snapshot {id} ({})", ago(*age)),
            None => format!("snapshot {id}"),
        },
        Against::Pristine(path) => format!("the installer's copy {path}"),
        Against::Import => "what the import writes".to_owned(),
        Against::Between { old, new } => format!("snapshot {old} → snapshot {new}"),
        Against::Upstream => "the new upstream".to_owned(),
    }
}

/// The changed files beside the diff itself, from `at` as far as the diff scrolls, the hunk and
/// the file `at` is in marked (`at` may be past the furthest the diff scrolls: a hunk jumped
/// to near its end). Says how many rows it showed and how far the diff can scroll.
pub fn body(
    frame: &mut Frame,
    area: Rect,
    diff: &DiffView,
    at: usize,
    theme: &Theme,
    laid: &mut Laid,
) {
    let files_width = (area.width / 4).clamp(18, 36);
    let [files, rows] = Layout::horizontal([Constraint::Length(files_width), Constraint::Fill(1)])
        .spacing(1)
        .areas(area);
    file_list(frame, files, diff, diff.file_at(at), theme);
    let geometry = rows_from(frame, rows, diff, at, theme);
    laid.panes.diff = Some(PaneGeometry { area, ..geometry });
}

/// The diff's rows alone, from `at` as far as the diff scrolls, the hunk `at` is in marked:
/// for a view that lists the files its own way (an update's conflicts). Says how many rows it
/// showed and how far the diff can scroll.
pub fn rows_only(
    frame: &mut Frame,
    area: Rect,
    diff: &DiffView,
    at: usize,
    theme: &Theme,
    laid: &mut Laid,
) {
    laid.panes.diff = Some(rows_from(frame, area, diff, at, theme));
}

fn rows_from(
    frame: &mut Frame,
    rows: Rect,
    diff: &DiffView,
    at: usize,
    theme: &Theme,
) -> PaneGeometry {
    let max = furthest(diff, rows);
    let first = at.min(max);
    let current = diff.hunk_at(at).map(|h| diff.hunks[h]);
    let shown = draw_rows(frame, rows, diff, first, current, theme);
    PaneGeometry {
        area: rows,
        rows,
        page: shown,
        offset: first,
        max,
    }
}

fn file_list(
    frame: &mut Frame,
    area: Rect,
    diff: &DiffView,
    current: Option<usize>,
    theme: &Theme,
) {
    let columns = usize::from(area.width);
    let mut lines = Vec::new();
    // Keep the current file in view when the list is longer than the pane.
    let skip = current
        .unwrap_or(0)
        .saturating_sub(usize::from(area.height).saturating_sub(1));
    for (i, file) in diff.files.iter().enumerate().skip(skip) {
        let counts = format!("+{} −{}", file.added, file.removed);
        let room = columns.saturating_sub(2 + width::of(&counts) + 1);
        let style = if Some(i) == current {
            theme.selected
        } else {
            Style::new()
        };
        lines.push(
            Line::from(vec![
                Span::styled(format!("{} ", file.mark.letter()), theme.label),
                Span::raw(width::pad(&width::fit_path(&file.path, room), room)),
                Span::raw(" "),
                Span::styled(format!("+{}", file.added), theme.added),
                Span::styled(format!(" −{}", file.removed), theme.removed),
            ])
            .style(style),
        );
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// Draw the rows from `first` down, wrapped to the width, the header of the `current` hunk (a
/// row) marked; how many rows were shown.
fn draw_rows(
    frame: &mut Frame,
    area: Rect,
    diff: &DiffView,
    first: usize,
    current: Option<usize>,
    theme: &Theme,
) -> usize {
    let columns = usize::from(area.width);
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut shown = 0;
    let first = first.min(diff.rows.len());
    for (n, row) in diff.rows[first..].iter().enumerate() {
        let mut wrapped = wrap(row, columns, theme);
        if Some(first + n) == current {
            wrapped = wrapped
                .into_iter()
                .map(|line| line.patch_style(theme.selected))
                .collect();
        }
        if lines.len() + wrapped.len() > usize::from(area.height) && shown > 0 {
            break;
        }
        lines.extend(wrapped);
        shown += 1;
        if lines.len() >= usize::from(area.height) {
            break;
        }
    }
    frame.render_widget(Paragraph::new(lines), area);
    shown
}

/// The first row from which the rest of the diff fills the area: the furthest it scrolls.
fn furthest(diff: &DiffView, area: Rect) -> usize {
    let columns = usize::from(area.width);
    let mut height = 0;
    let mut first = diff.rows.len();
    while first > 0 {
        let rows = height_of(&diff.rows[first - 1], columns);
        if height + rows > usize::from(area.height) {
            break;
        }
        height += rows;
        first -= 1;
    }
    first.min(diff.rows.len().saturating_sub(1))
}

/// How many screen lines a row takes at `columns`.
fn height_of(row: &DiffRow, columns: usize) -> usize {
    breaks(&characters(row), columns).len()
}

/// The characters of a row, each with its display width and whether it is a changed word's.
fn characters(row: &DiffRow) -> Vec<(char, usize, bool)> {
    let sign = row.kind.sign().map(|c| (c, 1, false));
    let text = row
        .parts
        .iter()
        .flat_map(|(text, changed)| text.chars().map(|c| (c, width::of_char(c), *changed)));
    sign.into_iter().chain(text).collect()
}

/// Where each screen line of a row starts, by character: a line breaks after the last space
/// that fits, or anywhere in a word longer than a line. Lines after the first are indented by
/// one column, under the sign.
fn breaks(chars: &[(char, usize, bool)], columns: usize) -> Vec<usize> {
    let columns = columns.max(2);
    let mut starts = vec![0];
    let mut used = 0;
    let mut after_space: Option<usize> = None;
    for (i, &(c, w, _)) in chars.iter().enumerate() {
        if used + w > columns {
            let line_start = starts.last().copied().unwrap_or(0);
            let at = match after_space {
                Some(at) if at > line_start + 1 && at <= i => at,
                _ => i,
            };
            starts.push(at);
            used = 1 + chars[at..i].iter().map(|&(_, w, _)| w).sum::<usize>();
            after_space = None;
        }
        used += w;
        if c == ' ' {
            after_space = Some(i + 1);
        }
    }
    starts
}

/// A row as screen lines of at most `columns`, in its colours.
fn wrap(row: &DiffRow, columns: usize, theme: &Theme) -> Vec<Line<'static>> {
    let (base, word) = styles(row.kind, theme);
    let chars = characters(row);
    let starts = breaks(&chars, columns);
    let mut lines = Vec::with_capacity(starts.len());
    for (n, &start) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(chars.len());
        let mut spans: Vec<Span<'static>> = Vec::new();
        if n > 0 {
            spans.push(Span::raw(" "));
        }
        let mut piece = String::new();
        let mut changed = false;
        for &(c, _, in_word) in &chars[start..end] {
            if in_word != changed && !piece.is_empty() {
                let style = if changed { word } else { base };
                spans.push(Span::styled(std::mem::take(&mut piece), style));
            }
            changed = in_word;
            piece.push(c);
        }
        if !piece.is_empty() {
            spans.push(Span::styled(piece, if changed { word } else { base }));
        }
        lines.push(Line::from(spans).style(base));
    }
    lines
}

/// The style of a row, and of its changed words.
fn styles(kind: RowKind, theme: &Theme) -> (Style, Style) {
    match kind {
        RowKind::Section => (theme.heading, theme.heading),
        RowKind::Note => (theme.warning, theme.warning),
        RowKind::File => (theme.title, theme.title),
        RowKind::Summary | RowKind::Hunk => (theme.label, theme.label),
        RowKind::Context => (Style::new(), Style::new()),
        RowKind::Removed => (theme.removed, theme.removed_word),
        RowKind::Added => (theme.added, theme.added_word),
        RowKind::NoNewline => (theme.dim, theme.dim),
    }
}
