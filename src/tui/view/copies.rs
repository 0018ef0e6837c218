//! The copies of one name: every folder holding a skill of that name, where it is from, and for
//! each agent shown whether it runs that copy or another one (and which), so shadowing can be
//! resolved on the copy under the cursor.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::app::App;
use crate::tui::keymap::{self, Mode};
use crate::tui::manage::Copies;
use crate::tui::model::SkillView;
use crate::tui::msg::Action;
use crate::tui::theme;

use super::detail::off_for;
use super::pane;

/// The width of the labels under each copy.
const LABEL: usize = 12;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, copies: &Copies) {
    let theme = &app.theme;
    let rows = app.copy_rows();
    let block = pane(
        Line::styled(
            format!(" Copies of {}: {} ", copies.name, rows.len()),
            theme.title,
        ),
        true,
        theme,
    );
    let mut lines = vec![
        Line::styled(
            "Each agent runs one copy of a name (Codex runs them all); the others are shadowed.",
            theme.dim,
        ),
        Line::styled(
            format!(
                "On the copy under the cursor: {} removes it, {} turns it off for one agent, {} moves it.",
                keymap::key_for(Mode::Copies, Action::Remove),
                keymap::key_for(Mode::Copies, Action::Disable),
                keymap::key_for(Mode::Copies, Action::MoveTo)
            ),
            theme.dim,
        ),
        Line::raw(""),
    ];
    let mut cursor_line = 0;
    for (position, &index) in rows.iter().enumerate() {
        let skill = &app.deck.skills[index];
        let selected = position == copies.selected;
        if selected {
            cursor_line = lines.len();
        }
        lines.extend(copy_lines(app, skill, selected));
        lines.push(Line::raw(""));
    }
    let inner = block.inner(area);
    // Keep the copy under the cursor on screen.
    let scroll = cursor_line.saturating_sub(usize::from(inner.height) / 2);
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0)),
        area,
    );
}

fn copy_lines(app: &App, skill: &SkillView, selected: bool) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let head_style = if selected {
        theme.selected
    } else {
        ratatui::style::Style::new()
    };
    let cursor = if selected { "› " } else { "  " };
    let mut lines = vec![
        Line::from(vec![
            Span::styled(cursor, theme.key),
            Span::styled(
                theme::state_marker(skill.state).to_owned(),
                theme.state(skill.state),
            ),
            Span::raw(" "),
            Span::raw(skill.shown_dir.clone()),
            Span::raw("  "),
            Span::styled(skill.source.to_string(), theme.source(skill.source)),
        ])
        .style(head_style),
    ];
    let field = |label: &str, text: String, style| {
        Line::from(vec![
            Span::styled(format!("    {label:<LABEL$}"), theme.label),
            Span::styled(text, style),
        ])
    };
    let shown = |agents: Vec<&str>| agents.join(", ");
    let runs: Vec<&str> = skill
        .verdicts
        .iter()
        .filter(|v| v.winner.is_none() && app.shows_agent(v.agent))
        .map(|v| v.agent.id())
        .collect();
    if runs.is_empty() {
        lines.push(field("runs for", "no agent shown".to_owned(), theme.dim));
    } else {
        lines.push(field("runs for", shown(runs), theme.intact));
    }
    for verdict in skill.verdicts.iter().filter(|v| app.shows_agent(v.agent)) {
        if let Some(winner) = &verdict.winner {
            lines.push(field(
                "loses for",
                format!("{}: it runs {winner}", verdict.agent.id()),
                theme.warning,
            ));
        }
    }
    let off = off_for(skill, app);
    if !off.is_empty() {
        lines.push(field("turned off", shown(off), theme.warning));
    }
    if let Some(owner) = &skill.owner {
        lines.push(field("installer", owner.installer.clone(), theme.dim));
    }
    lines
}
