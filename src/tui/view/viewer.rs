//! The viewer of a skill's files: the list of them with their sizes, or one file read, wrapped
//! to the pane and scrollable; a binary file is said to be one, with its size, and a file
//! longer than the viewer reads says how much of it is shown.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::limits::VIEW_FILE_BYTES;
use crate::text::human::size;
use crate::text::width;
use crate::tui::app::App;
use crate::tui::geometry::{Laid, PaneGeometry};
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;
use crate::tui::viewer::{Body, Opened, Reading, Viewer};

use super::pane;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, viewer: &Viewer, laid: &mut Laid) {
    match &viewer.open {
        None => list(frame, area, app, viewer, laid),
        Some(opened) => file(frame, area, app, viewer, opened, laid),
    }
}

fn list(frame: &mut Frame, area: Rect, app: &App, viewer: &Viewer, laid: &mut Laid) {
    let theme = &app.theme;
    let title = Line::from(vec![
        Span::styled(format!(" Files of {} ", viewer.name), theme.title),
        Span::styled(format!("{} ", viewer.files.len()), theme.dim),
    ]);
    let block = pane(title, true, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let geometry = PaneGeometry::list(area, inner, app.panes.viewer.offset, viewer.selected);
    laid.panes.viewer = Some(geometry);
    let (rows, offset) = (geometry.page, geometry.offset);
    let columns = usize::from(inner.width);
    let name_room = columns.saturating_sub(3 + 11);
    let lines: Vec<Line> = viewer
        .files
        .iter()
        .enumerate()
        .skip(offset)
        .take(rows)
        .map(|(i, file)| {
            let selected = i == viewer.selected;
            Line::from(vec![
                Span::raw(if selected { " ▸ " } else { "   " }),
                Span::raw(width::pad(&width::fit(&file.shown, name_room), name_room)),
                Span::styled(format!("{:>10} ", size(file.size)), theme.dim),
            ])
            .style(if selected {
                theme.selected
            } else {
                Style::new()
            })
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

fn file(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    viewer: &Viewer,
    opened: &Opened,
    laid: &mut Laid,
) {
    let theme = &app.theme;
    let shown = viewer
        .files
        .get(opened.index)
        .map_or("", |f| f.shown.as_str());
    let inner_width = usize::from(area.width.saturating_sub(2));
    let rows = usize::from(area.height.saturating_sub(2));
    let edit = keymap::key_for(Mode::Reading, Action::OpenEditor);
    let (position, body): (String, Vec<Line>) = match &opened.text {
        Reading::Waiting => (String::new(), vec![Line::styled("Reading…", theme.dim)]),
        Reading::Failed(why) => (
            String::new(),
            vec![Line::styled(why.clone(), theme.warning)],
        ),
        Reading::Ready(text) => match &text.body {
            Body::Binary => (
                String::new(),
                vec![
                    Line::raw(format!(
                        "A binary file of {}: not shown as text.",
                        size(text.size)
                    )),
                    Line::styled(format!("{edit} opens it in your editor."), theme.dim),
                ],
            ),
            Body::Text { lines, cut } => {
                let mut all: Vec<(String, Style)> =
                    lines.iter().map(|l| (l.clone(), Style::new())).collect();
                if *cut {
                    all.push((
                        format!(
                            "… the first {} of {} are shown; {edit} opens the whole file in your editor.",
                            size(VIEW_FILE_BYTES),
                            size(text.size)
                        ),
                        theme.warning,
                    ));
                }
                let max = furthest(&all, inner_width, rows);
                let first = opened.scroll.min(max);
                let shown_rows = visible(&all[first..], inner_width, rows);
                let position = format!(
                    " {}-{} of {} ",
                    first + 1,
                    (first + shown_rows.len()).min(all.len()),
                    all.len()
                );
                laid.panes.viewer = Some(PaneGeometry {
                    area,
                    rows: area,
                    page: rows,
                    offset: first,
                    max,
                });
                (position, shown_rows)
            }
        },
    };
    if laid.panes.viewer.is_none() {
        laid.panes.viewer = Some(PaneGeometry {
            area,
            rows: area,
            page: rows,
            ..PaneGeometry::default()
        });
    }
    let title = Line::from(vec![
        Span::styled(format!(" {} ", viewer.name), theme.title),
        Span::styled(format!("{shown} "), theme.label),
    ]);
    // The position on the right, where a long path cannot push it off.
    let block = pane(title, true, theme).title(Line::styled(position, theme.dim).right_aligned());
    frame.render_widget(Paragraph::new(body).block(block), area);
}

/// The rows of `lines` from the first, each wrapped to `columns`, until `rows` are filled;
/// the source lines, not the rows, are what scrolling counts.
fn visible(lines: &[(String, Style)], columns: usize, rows: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for (text, style) in lines {
        for part in width::wrap(text, columns) {
            if out.len() == rows {
                return out;
            }
            out.push(Line::styled(part, *style));
        }
    }
    out
}

/// The furthest first line: the one from which the last line just shows. Only the lines at the
/// end are wrapped to find it.
fn furthest(lines: &[(String, Style)], columns: usize, rows: usize) -> usize {
    let mut used = 0;
    for (i, (text, _)) in lines.iter().enumerate().rev() {
        used += width::wrap(text, columns).len();
        if used > rows {
            return (i + 1).min(lines.len().saturating_sub(1));
        }
    }
    0
}
