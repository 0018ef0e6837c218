//! The two bottom lines: the status line (the scan's progress gauge while it runs, else the
//! latest note) and the key hints, which come from the keymap table, less those the state on
//! screen does not offer (`tui::offers`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::LineGauge;

use crate::record::State;
use crate::text::width;
use crate::tui::app::{App, Scan};
use crate::tui::{keymap, theme};

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
        (None, Scan::Done) => frame.render_widget(summary(app, area.width), area),
        (None, _) => {}
    }
}

/// ` 13 skills: 4 intact, 1 modified, 8 unrecorded · 2 shadowed · 1 with problems`, or, where
/// that does not fit, the same counts by the list's markers: ` 13 skills: 4● 1▲ 8○ · 2◐ · 1!`.
fn summary(app: &App, width: u16) -> Line<'static> {
    let words = summary_in(app, Wording::Words);
    if words.width() <= usize::from(width) {
        words
    } else {
        summary_in(app, Wording::Markers)
    }
}

#[derive(Clone, Copy)]
enum Wording {
    Words,
    Markers,
}

fn summary_in(app: &App, wording: Wording) -> Line<'static> {
    let theme = &app.theme;
    let counts = app.deck.counts();
    let count = |n: usize, word: &str, marker: &str| match wording {
        Wording::Words => format!("{n} {word}"),
        Wording::Markers => format!("{n}{marker}"),
    };
    let separator = match wording {
        Wording::Words => ", ",
        Wording::Markers => " ",
    };
    let mut spans = vec![Span::styled(
        format!(" {}:", crate::text::human::count(counts.skills, "skill")),
        theme.dim,
    )];
    let mut first = true;
    for (state, n) in State::ALL.into_iter().zip(counts.states) {
        if n == 0 {
            continue;
        }
        spans.push(Span::styled(if first { " " } else { separator }, theme.dim));
        first = false;
        spans.push(Span::styled(
            count(n, &state.to_string(), theme::state_marker(state)),
            theme.state(state),
        ));
    }
    let others = [
        (
            counts.shadowed,
            "shadowed",
            theme::SHADOWED_MARKER,
            theme.dim,
        ),
        (
            counts.with_problems,
            "with problems",
            theme::PROBLEM_MARKER,
            theme.warning,
        ),
    ];
    for (n, word, marker, style) in others {
        if n > 0 {
            spans.push(Span::styled(
                format!(" · {}", count(n, word, marker)),
                style,
            ));
        }
    }
    Line::from(spans)
}

pub fn draw_hints(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let mut spans = vec![Span::raw(" ")];
    let mut used = 1;
    let mode = app.mode();
    let offered = |action| match app.views.diff() {
        Some(state) if mode == keymap::Mode::Diff => crate::tui::offers::diff(app, state, action),
        _ if mode == keymap::Mode::Conflicts => app
            .updating
            .as_ref()
            .and_then(|u| u.planned())
            .is_none_or(|planned| crate::tui::offers::conflicts(planned, action)),
        _ => true,
    };
    for (key, word) in keymap::hints_offered(mode, offered) {
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
