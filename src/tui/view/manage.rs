//! The managing overlays: the picker that asks which agent or scope (a choice that cannot be
//! taken shown with the sentence that says why), the progress of a batch, and its summary of
//! what was done, refused and failed.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::text::width;
use crate::tui::keymap::{self, Mode};
use crate::tui::manage::{Pick, Running, Summary};
use crate::tui::msg::Action;
use crate::tui::theme::Theme;

use super::pane;
use crate::tui::geometry::popup;

/// The widest the boxes are.
const COLUMNS: u16 = 76;

/// `text` wrapped to `room` columns, every line after `indent` spaces, so a long sentence
/// wraps under itself rather than back at the box's edge.
fn wrapped(text: &str, indent: usize, room: usize, style: Style) -> Vec<Line<'static>> {
    width::wrap(text, room.saturating_sub(indent).max(1))
        .into_iter()
        .map(|part| Line::styled(format!("{}{part}", " ".repeat(indent)), style))
        .collect()
}

/// The columns inside a box drawn over `area`.
fn room(area: Rect) -> usize {
    usize::from(COLUMNS.min(area.width).saturating_sub(2))
}

/// Rows for `lines` of text in a box `columns` wide, wrapped, with its border.
fn rows_for(lines: &[Line], columns: u16) -> u16 {
    let room = usize::from(columns.saturating_sub(2)).max(1);
    let rows: usize = lines.iter().map(|l| l.width().div_ceil(room).max(1)).sum();
    u16::try_from(rows + 2).unwrap_or(u16::MAX)
}

/// A box of `lines` over the middle of `area`, as high as they need and the screen allows.
fn boxed(
    frame: &mut Frame,
    area: Rect,
    title: Line<'static>,
    lines: Vec<Line<'static>>,
    theme: &Theme,
) {
    let columns = COLUMNS.min(area.width);
    let box_area = popup(area, columns, rows_for(&lines, columns));
    super::clear_under_popup(frame, box_area);
    frame.render_widget(
        Paragraph::new(lines)
            .block(pane(title, true, theme))
            .wrap(Wrap { trim: false }),
        box_area,
    );
}

pub fn draw_pick(frame: &mut Frame, area: Rect, pick: &Pick, theme: &Theme) {
    let room = room(area);
    let mut lines: Vec<Line<'static>> = pick
        .lines
        .iter()
        .flat_map(|l| wrapped(l, 0, room, Style::new()))
        .collect();
    lines.push(Line::raw(""));
    for (i, choice) in pick.choices.iter().enumerate() {
        let cursor = if i == pick.selected { "›" } else { " " };
        let line = Line::from(vec![
            Span::styled(format!("{cursor} "), theme.key),
            Span::styled(
                choice.label.clone(),
                if choice.refused.is_some() {
                    theme.dim
                } else {
                    Style::new()
                },
            ),
        ]);
        lines.push(if i == pick.selected {
            line.style(theme.selected)
        } else {
            line
        });
        // Why it cannot be chosen, under it: the sentence names what works instead.
        if let Some(why) = &choice.refused {
            lines.extend(wrapped(why, 4, room, theme.dim));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(keymap::key_for(Mode::Pick, Action::Choose), theme.key),
        Span::styled(" choose   ", theme.dim),
        Span::styled(keymap::key_for(Mode::Pick, Action::Back), theme.key),
        Span::styled(": leave it as it is", theme.dim),
    ]));
    boxed(
        frame,
        area,
        Line::styled(format!(" {} ", pick.title), theme.title),
        lines,
        theme,
    );
}

pub fn draw_progress(frame: &mut Frame, area: Rect, running: &Running, theme: &Theme) {
    let box_area = popup(area, 60, 6);
    let block = pane(
        Line::styled(format!(" {} ", running.doing), theme.title),
        true,
        theme,
    );
    let inner = block.inner(box_area);
    super::clear_under_popup(frame, box_area);
    frame.render_widget(block, box_area);
    let current = running.current.as_deref().unwrap_or("");
    let stop = if running.stopping {
        "stopping after this one…".to_owned()
    } else {
        format!(
            "{} stops after this one",
            keymap::key_for(Mode::Working, Action::Back)
        )
    };
    let rows = [
        Line::raw(format!(
            "{} of {}: {current}",
            (running.done + 1).min(running.total),
            running.total
        )),
        Line::raw(""),
        Line::styled(stop, theme.dim),
    ];
    let [text, gauge] = ratatui::layout::Layout::vertical([
        ratatui::layout::Constraint::Length(3),
        ratatui::layout::Constraint::Length(1),
    ])
    .areas(inner);
    frame.render_widget(Paragraph::new(rows.to_vec()), text);
    let ratio = if running.total == 0 {
        0.0
    } else {
        running.done as f64 / running.total as f64
    };
    super::gauge::draw(
        frame,
        gauge,
        ratio,
        &format!("{}/{}", running.done, running.total),
        theme.gauge,
    );
}

pub fn draw_summary(frame: &mut Frame, area: Rect, summary: &Summary, theme: &Theme) {
    let mut lines: Vec<Line<'static>> = Vec::new();
    let sections = [
        ("Done", &summary.done, theme.intact),
        ("Refused, nothing changed", &summary.refused, theme.warning),
        ("Failed", &summary.failed, theme.modified),
        ("Not started, stopped", &summary.stopped, theme.dim),
    ];
    for (heading, rows, style) in sections {
        if rows.is_empty() {
            continue;
        }
        lines.push(Line::styled(heading, theme.heading));
        for row in rows {
            lines.extend(wrapped(row, 2, room(area), style));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        format!(
            "{} closes this; {} undoes the last operation.",
            keymap::keys_for(Mode::Summary, Action::Back),
            keymap::key_for(Mode::Summary, Action::Undo)
        ),
        theme.dim,
    ));
    boxed(
        frame,
        area,
        Line::styled(format!(" {} ", summary.title), theme.title),
        lines,
        theme,
    );
}
