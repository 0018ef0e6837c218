//! The two bottom lines: the status line (the scan's progress gauge while it runs, else the
//! latest note) and the key hints, which come from the keymap table.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::LineGauge;

use crate::record::State;
use crate::tui::app::{App, Scan};
use crate::tui::keymap;
use crate::tui::width;

pub fn draw_status(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    if let Scan::Running(progress) = app.scan {
        let ratio = if progress.total == 0 {
            0.0
        } else {
            progress.done as f64 / progress.total as f64
        };
        let label = if progress.total == 0 {
            " Looking for skills…".to_owned()
        } else {
            format!(" Reading skills {}/{}", progress.done, progress.total)
        };
        let gauge = LineGauge::default()
            .ratio(ratio.clamp(0.0, 1.0))
            .label(Span::styled(label, theme.title))
            .filled_style(theme.gauge)
            .unfilled_style(theme.dim);
        frame.render_widget(gauge, area);
        return;
    }
    match (&app.status, app.scan) {
        (Some(status), _) => {
            let style = if status.warning {
                theme.warning
            } else {
                theme.dim
            };
            frame.render_widget(Line::styled(format!(" {}", status.text), style), area);
        }
        (None, Scan::Done) => frame.render_widget(summary(app), area),
        (None, _) => {}
    }
}

/// ` 13 skills: 4 intact, 1 modified, 8 unrecorded · 2 shadowed · 1 with problems`
fn summary(app: &App) -> Line<'static> {
    let theme = &app.theme;
    let counts = app.deck.counts();
    let mut spans = vec![Span::styled(
        format!(" {} skills:", counts.skills),
        theme.dim,
    )];
    let mut first = true;
    for (state, n) in State::ALL.into_iter().zip(counts.states) {
        if n == 0 {
            continue;
        }
        let comma = if first { " " } else { ", " };
        first = false;
        spans.push(Span::styled(comma, theme.dim));
        spans.push(Span::styled(format!("{n} {state}"), theme.state(state)));
    }
    if counts.shadowed > 0 {
        spans.push(Span::styled(
            format!(" · {} shadowed", counts.shadowed),
            theme.dim,
        ));
    }
    if counts.with_problems > 0 {
        spans.push(Span::styled(
            format!(" · {} with problems", counts.with_problems),
            theme.warning,
        ));
    }
    Line::from(spans)
}

pub fn draw_hints(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let mut spans = vec![Span::raw(" ")];
    let mut used = 1;
    for (key, word) in keymap::hints(app.mode()) {
        let needed = width::of(&key) + 1 + width::of(word) + 2;
        if used + needed > usize::from(area.width) {
            break;
        }
        used += needed;
        spans.push(Span::styled(key, theme.key));
        spans.push(Span::styled(format!(" {word}  "), theme.dim));
    }
    frame.render_widget(Line::from(spans), area);
}
