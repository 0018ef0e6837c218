//! The help screen: every key of the keymap table by where it applies, and what the markers
//! mean. Drawn over the screen, scrollable.

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::operations::lock_state::LockState;
use crate::record::State;
use crate::text::width;
use crate::tui::app::App;
use crate::tui::geometry::{Laid, PaneGeometry, popup};
use crate::tui::keymap::{self, Mode};
use crate::tui::model::Presence;
use crate::tui::msg::Action;
use crate::tui::theme::{self, Theme};

use super::pane;

/// The width of the keys column.
const KEYS: usize = 16;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, laid: &mut Laid) {
    let theme = &app.theme;
    let box_area = popup(area, 84, area.height);
    // The text is laid out for the inside of the box: two columns of border less.
    let lines = lines(usize::from(box_area.width.saturating_sub(2)), theme);
    let rows = usize::from(box_area.height.saturating_sub(2));
    let max = lines.len().saturating_sub(rows);
    let first = app.help_scroll.min(max);
    laid.panes.help = Some(PaneGeometry {
        area: box_area,
        rows: box_area.inner(Margin::new(1, 1)),
        page: rows,
        offset: first,
        max,
    });
    let position = if max == 0 {
        String::new()
    } else {
        format!("{}-{} of {} ", first + 1, first + rows, lines.len())
    };
    let title = Line::from(vec![
        Span::styled(" Help: keys and markers ", theme.title),
        Span::styled(position, theme.dim),
    ]);
    let block = pane(title, true, theme);
    let scroll = u16::try_from(first).unwrap_or(u16::MAX);
    super::clear_under_popup(frame, box_area);
    frame.render_widget(
        Paragraph::new(lines).block(block).scroll((scroll, 0)),
        box_area,
    );
}

fn lines(columns: usize, theme: &Theme) -> Vec<Line<'static>> {
    let room = columns.saturating_sub(KEYS + 1).max(1);
    let mut out = Vec::new();
    let row = |out: &mut Vec<Line<'static>>, keys: String, keys_style, text: &str, style| {
        for (i, part) in width::wrap(text, room).into_iter().enumerate() {
            let left = if i == 0 { keys.clone() } else { String::new() };
            out.push(Line::from(vec![
                Span::styled(width::pad(&left, KEYS), keys_style),
                Span::raw(" "),
                Span::styled(part, style),
            ]));
        }
    };
    for (title, bindings) in keymap::help_sections() {
        out.push(Line::styled(title, theme.heading));
        for binding in bindings {
            let text = match binding.also_in() {
                Some(also) => format!("{} ({also})", binding.help),
                None => binding.help.to_owned(),
            };
            row(
                &mut out,
                binding.key_names(),
                theme.key,
                &text,
                ratatui::style::Style::new(),
            );
        }
        if title == Mode::Search.title() {
            row(
                &mut out,
                "letters".to_owned(),
                theme.key,
                "type into the search",
                ratatui::style::Style::new(),
            );
        }
        out.push(Line::raw(""));
    }
    out.push(Line::styled("Markers", theme.heading));
    for state in State::ALL {
        row(
            &mut out,
            format!("{} {state}", theme::state_marker(state)),
            theme.state(state),
            state_help(state),
            ratatui::style::Style::new(),
        );
    }
    let plain = ratatui::style::Style::new();
    row(
        &mut out,
        format!("{} changed", theme::CHANGED_MARKER),
        theme.changed,
        "changed since snapshot: the files differ from its latest snapshot (the changed screen); not the same as modified",
        plain,
    );
    row(
        &mut out,
        format!("{} gone", theme::GONE_MARKER),
        theme.warning,
        "its folder is gone; a snapshot of it is kept, which restore brings back (the changed screen)",
        plain,
    );
    row(
        &mut out,
        format!("{} problems", theme::PROBLEM_MARKER),
        theme.warning,
        "breaks the Agent Skills specification, or part of it could not be read",
        plain,
    );
    row(
        &mut out,
        format!("{} audit", theme::AUDIT_MARKER),
        theme.warning,
        "skilldeck audit finds something of medium or high severity in it (the detail lists it); in the problems' column",
        plain,
    );
    row(
        &mut out,
        format!("{} shadowed", theme::SHADOWED_MARKER),
        theme.dim,
        "an agent runs another copy of this name instead",
        plain,
    );
    row(
        &mut out,
        format!("{} marked", theme::MARKED_MARKER),
        theme.key,
        "marked: the actions apply to every marked skill",
        plain,
    );
    let moved = format!(
        "upstream moved past it, as the last check said ({} checks again, {} updates it); in the mark's column",
        keymap::key_for(Mode::Skills, Action::CheckUpstreams),
        keymap::key_for(Mode::Skills, Action::Update)
    );
    row(
        &mut out,
        format!("{} upstream", theme::UPSTREAM_MARKER),
        theme.changed,
        &moved,
        plain,
    );
    let cut = format!(
        "after a cost: an agent shortens or drops its description, past its budget ({} shows which)",
        keymap::key_for(Mode::Skills, Action::ShowBudget)
    );
    row(
        &mut out,
        format!("{} cut", theme::CUT_MARKER),
        theme.warning,
        &cut,
        plain,
    );
    for lock in [LockState::Locked, LockState::Differing, LockState::Unlocked] {
        let meaning = match lock {
            LockState::Locked => {
                "a project skill skills-lock.json holds with the hash of its files"
            }
            LockState::Differing => {
                "a project skill whose files differ from the hash skills-lock.json holds"
            }
            LockState::Unlocked => {
                "a project skill skills-lock.json does not name (skilldeck lock adds it)"
            }
        };
        row(
            &mut out,
            format!("{} {}", theme::lock_marker(lock), lock.word()),
            theme.lock(lock),
            meaning,
            plain,
        );
    }
    row(
        &mut out,
        format!("{} exists", theme::presence_marker(&Presence::Exists)),
        theme.intact,
        "a root that is on disk (roots screen)",
        plain,
    );
    row(
        &mut out,
        format!("{} built in", theme::presence_marker(&Presence::BuiltIn)),
        theme.label,
        "skills an agent ships inside itself, in no folder (roots screen)",
        plain,
    );
    row(
        &mut out,
        format!("{} missing", theme::presence_marker(&Presence::Missing)),
        theme.dim,
        "a root an agent would read, not on disk",
        plain,
    );
    out.push(Line::raw(""));
    out.push(Line::styled(
        format!(
            "Mouse is off so the terminal can select text; {} (or --mouse) turns it on.",
            keymap::key_for(Mode::Skills, Action::ToggleMouse)
        ),
        theme.dim,
    ));
    out
}

fn state_help(state: State) -> &'static str {
    match state {
        State::Intact => "an installer's record, and the files match its digest",
        State::Modified => {
            "an installer's record, and the files differ from it: not the same as changed since snapshot"
        }
        State::Unrecorded => "no installer's record: written by hand or by a tool that keeps none",
        State::Unreadable => "could not be read far enough to tell",
        State::Unverifiable => "an installer's record whose hash cannot be recomputed from disk",
    }
}
