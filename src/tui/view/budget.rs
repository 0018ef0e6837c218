//! The budget view: for each agent with a listing, a bar of what its listing of skills takes of
//! its budget (or the sentence that it has none and sends every description), where the budget
//! comes from, its size in tokens and how many descriptions it shortens, drops or leaves out;
//! below, the skills of the agent under the cursor, costliest first, each with its cost, how it
//! is listed and its last use, marked as in the list.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::listing::{Shown, Unit, grouped};
use crate::text::width;
use crate::tui::app::App;
use crate::tui::budget::{AgentBudget, BudgetView, shown_words};
use crate::tui::geometry::{Laid, PaneGeometry};
use crate::tui::theme;

use super::list::{cost_cell, last_used, pad_left};
use super::{gauge, pane};

/// The column of the agents' names, before their bars: the cursor, the longest name
/// (`Claude Code`), a space.
const AGENT: usize = 14;
/// The skills' columns after the name.
const COST: usize = 7;
const LISTED: usize = 10;
const LAST_USED: usize = 9;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, view: BudgetView, laid: &mut Laid) {
    let agents = &app.deck.budgets.agents;
    let Some(current) = agents.get(view.agent) else {
        return;
    };
    // The selected agent's two lines of detail, one on a short terminal.
    let detail_rows = if area.height >= 16 { 2 } else { 1 };
    let top_rows = u16::try_from(agents.len() + detail_rows + 2).unwrap_or(u16::MAX);
    let [top, bottom] =
        Layout::vertical([Constraint::Length(top_rows), Constraint::Fill(1)]).areas(area);
    draw_agents(frame, top, app, view, detail_rows);
    draw_skills(frame, bottom, app, current, view, laid);
}

fn draw_agents(frame: &mut Frame, area: Rect, app: &App, view: BudgetView, detail_rows: usize) {
    let theme = &app.theme;
    let block = pane(
        Line::styled(
            " Budget: what each agent's listing of skills costs ",
            theme.title,
        ),
        false,
        theme,
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let columns = usize::from(inner.width);
    for (i, agent) in app.deck.budgets.agents.iter().enumerate() {
        let Some(y) = inner.y.checked_add(u16::try_from(i).unwrap_or(u16::MAX)) else {
            break;
        };
        if y >= inner.bottom() {
            break;
        }
        let row = Rect::new(inner.x, y, inner.width, 1);
        let selected = i == view.agent;
        let cursor = if selected { "›" } else { " " };
        let name_style = if selected { theme.key } else { Style::new() };
        let name = format!("{cursor} {}", width::fit(&agent.name, AGENT - 3));
        frame.render_widget(Span::styled(name, name_style), row);
        let bar = Rect {
            x: row.x + u16::try_from(AGENT).unwrap_or(0),
            width: row.width.saturating_sub(u16::try_from(AGENT).unwrap_or(0)),
            ..row
        };
        match (agent.ratio(), &agent.budget) {
            (Some(ratio), Some(budget)) => {
                let label = format!(
                    "{}/{} {} {}",
                    grouped(agent.used as u64),
                    grouped(budget.limit as u64),
                    unit_word(budget.unit),
                    gauge::percent(agent.used, budget.limit)
                );
                let style = if ratio > 1.0 || agent.cuts() {
                    theme.warning
                } else {
                    theme.gauge
                };
                gauge::draw(frame, bar, ratio, &label, style);
            }
            _ => {
                let text = format!(
                    "no budget: sends every description ({} characters)",
                    grouped(agent.chars as u64)
                );
                let fitted = width::fit(&text, usize::from(bar.width));
                frame.render_widget(Span::styled(fitted, theme.dim), bar);
            }
        }
    }
    let Some(current) = app.deck.budgets.agents.get(view.agent) else {
        return;
    };
    let first = inner
        .y
        .saturating_add(u16::try_from(app.deck.budgets.agents.len()).unwrap_or(u16::MAX));
    if first < inner.bottom() {
        let lines: Vec<Line<'static>> = detail_lines(current, detail_rows)
            .into_iter()
            .map(|text| Line::styled(width::fit(&text, columns), theme.dim))
            .collect();
        let area = Rect::new(inner.x, first, inner.width, inner.bottom() - first);
        frame.render_widget(Paragraph::new(lines), area);
    }
}

/// What the selected agent's budget is and where it comes from, its size in tokens and what
/// it cuts: two lines, or one.
fn detail_lines(agent: &AgentBudget, rows: usize) -> Vec<String> {
    let from = match &agent.budget {
        Some(budget) => format!("budget: {} · {}", budget.from, agent.model),
        None => format!("every description, on every request · {}", agent.model),
    };
    let counts = format!(
        "~{} tokens · {} full, {} shortened, {} name only, {} omitted",
        grouped(agent.tokens as u64),
        agent.full,
        agent.shortened,
        agent.name_only,
        agent.omitted
    );
    if rows >= 2 {
        vec![format!("  {from}"), format!("  {counts}")]
    } else {
        vec![format!("  {counts} · {from}")]
    }
}

fn unit_word(unit: Unit) -> &'static str {
    match unit {
        Unit::Characters => "chars",
        Unit::Tokens => "tokens",
    }
}

fn draw_skills(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    agent: &AgentBudget,
    view: BudgetView,
    laid: &mut Laid,
) {
    let theme = &app.theme;
    let mut title = vec![Span::styled(
        format!(
            " {}'s listing: {}, costliest first ",
            agent.name,
            crate::text::human::count(agent.entries.len(), "skill")
        ),
        theme.title,
    )];
    if !app.marked.is_empty() {
        title.push(Span::styled(
            format!("· {} marked ", app.marked.len()),
            theme.warning,
        ));
    }
    let block = pane(Line::from(title), true, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [head, rows_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
    let columns = usize::from(inner.width);
    // Mark, space, name, then the cost, how it is listed and the last use, as room allows.
    let fixed = 2 + 1 + COST + 1 + LISTED;
    let with_used = columns >= fixed + 12 + 1 + LAST_USED;
    let name = columns.saturating_sub(fixed + if with_used { 1 + LAST_USED } else { 0 });
    let mut head_text = format!(
        "  {} {} {}",
        width::pad("NAME", name),
        pad_left("COST", COST),
        width::pad("LISTED", LISTED)
    );
    if with_used {
        head_text.push(' ');
        head_text.push_str("LAST USED");
    }
    frame.render_widget(Line::styled(head_text, theme.dim), head);
    let geometry = PaneGeometry::list(area, rows_area, app.panes.budget.offset, view.selected);
    let (rows, offset) = (geometry.page, geometry.offset);
    laid.panes.budget = Some(PaneGeometry {
        max: agent.entries.len().saturating_sub(rows),
        ..geometry
    });
    if agent.entries.is_empty() {
        frame.render_widget(
            Line::styled(format!("  {} lists no skill.", agent.name), theme.dim),
            rows_area,
        );
        return;
    }
    for (y, (i, entry)) in (rows_area.y..rows_area.bottom())
        .zip(agent.entries.iter().enumerate().skip(offset).take(rows))
    {
        let selected = i == view.selected;
        let quiet = if selected { Style::new() } else { theme.dim };
        let marked = entry.dir.as_ref().is_some_and(|d| app.marked.contains(d));
        let mark = if marked {
            Span::styled(theme::MARKED_MARKER, theme.key)
        } else {
            Span::raw(" ")
        };
        let listed_style = match entry.shown {
            Shown::Full => quiet,
            _ => theme.warning,
        };
        let cost = cost_cell(Some(crate::tui::budget::Cost {
            chars: entry.chars,
            cut: false,
        }));
        let mut spans = vec![
            mark,
            Span::raw(" "),
            Span::raw(width::pad(&width::fit_middle(&entry.name, name), name)),
            Span::raw(" "),
            Span::raw(pad_left(&cost, COST)),
            Span::raw(" "),
            Span::styled(width::pad(shown_words(entry.shown), LISTED), listed_style),
        ];
        if with_used {
            let used = entry
                .dir
                .as_deref()
                .map_or_else(|| "built in".to_owned(), |dir| last_used(app, dir));
            spans.push(Span::raw(" "));
            spans.push(Span::styled(width::pad(&used, LAST_USED), quiet));
        }
        let style = if selected {
            theme.selected
        } else {
            Style::new()
        };
        frame.render_widget(
            Line::from(spans).style(style),
            Rect::new(rows_area.x, y, rows_area.width, 1),
        );
    }
}
