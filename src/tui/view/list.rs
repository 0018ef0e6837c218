//! The skill list: one row per skill shown, with its state marker, problem and shadowed
//! markers, name, source badge and agents. Only the rows on screen are built, so a list of
//! twenty thousand costs what a list of forty does.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use crate::record::State;
use crate::tui::app::{App, Filter, Scan};
use crate::tui::model::SkillView;
use crate::tui::model::Sort;
use crate::tui::msg::Pane;
use crate::tui::theme::{self, Theme};
use crate::tui::view_state::{ViewState, keep_in_view};
use crate::tui::width;

use super::{has_focus, pane, search};

/// Columns before the name: space, state marker, space, problem marker, shadowed marker, space.
const MARKS: usize = 6;
const BADGE: usize = 7;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, view: &mut ViewState) {
    let theme = &app.theme;
    let focused = has_focus(app, Pane::List);
    let block = pane(title(app), focused, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);

    let searching = app.search.typing || !app.search.query.is_empty();
    let [head, rows_area, search_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(u16::from(searching)),
    ])
    .areas(inner);
    let columns = Columns::for_width(usize::from(inner.width));
    frame.render_widget(columns.head(theme), head);
    search::draw(frame, search_area, app);

    let rows = usize::from(rows_area.height);
    view.viewport.list_rows = rows;
    view.areas.list_rows = rows_area;
    if app.visible.is_empty() {
        let note = match app.scan {
            Scan::Running(_) | Scan::NotStarted => "Reading skills…",
            Scan::Done if app.deck.skills.is_empty() => {
                "No skills found in any root (2 shows them)."
            }
            Scan::Done => "No skill matches (c clears the search and filters).",
        };
        let note = ratatui::widgets::Paragraph::new(Line::styled(note, theme.dim))
            .wrap(ratatui::widgets::Wrap { trim: true })
            .block(
                ratatui::widgets::Block::new().padding(ratatui::widgets::Padding::horizontal(1)),
            );
        frame.render_widget(note, rows_area);
        return;
    }
    view.list_offset = keep_in_view(view.list_offset, app.selected, rows);
    let shown = app
        .visible
        .iter()
        .enumerate()
        .skip(view.list_offset)
        .take(rows);
    for (y, (position, &index)) in (rows_area.y..).zip(shown) {
        let selected = position == app.selected;
        let style = match (selected, focused) {
            (false, _) => ratatui::style::Style::new(),
            (true, true) => theme.selected,
            (true, false) => theme.selected_idle,
        };
        let line = columns
            .row(&app.deck.skills[index], theme, selected)
            .style(style);
        frame.render_widget(line, Rect::new(rows_area.x, y, rows_area.width, 1));
    }
}

/// ` Skills 3/12 · drifted · sort: state `
fn title(app: &App) -> Line<'static> {
    let theme = &app.theme;
    let mut spans = vec![Span::styled(
        format!(" Skills {}/{} ", app.visible.len(), app.deck.skills.len()),
        theme.title,
    )];
    let Filter {
        source,
        agent,
        state,
    } = app.filter;
    let mut notes: Vec<String> = Vec::new();
    match state {
        Some(State::Modified) => notes.push("drifted".to_owned()),
        Some(state) => notes.push(format!("state: {state}")),
        None => {}
    }
    if let Some(source) = source {
        notes.push(format!("source: {source}"));
    }
    if let Some(agent) = agent {
        notes.push(format!("agent: {agent}"));
    }
    if app.sort != Sort::Name {
        notes.push(format!("sort: {}", app.sort.label()));
    }
    for note in notes {
        spans.push(Span::styled(format!("· {note} "), theme.warning));
    }
    Line::from(spans)
}

/// How wide each column is at one pane width.
struct Columns {
    name: usize,
    agents: usize,
}

impl Columns {
    fn for_width(total: usize) -> Self {
        let fixed = MARKS + 1 + BADGE;
        let agents = if total >= 40 {
            ((total - fixed) * 2 / 5).min(40)
        } else {
            0
        };
        let name = total.saturating_sub(fixed + agents + usize::from(agents > 0));
        Self { name, agents }
    }

    fn head(&self, theme: &Theme) -> Line<'static> {
        let mut text = format!(
            "{}{} {}",
            " ".repeat(MARKS),
            width::pad("NAME", self.name),
            width::pad("SOURCE", BADGE)
        );
        if self.agents > 0 {
            text.push(' ');
            text.push_str("AGENTS");
        }
        Line::styled(text, theme.dim)
    }

    fn row(&self, skill: &SkillView, theme: &Theme, selected: bool) -> Line<'static> {
        // Dim text would vanish on the selected row's background.
        let quiet = if selected {
            ratatui::style::Style::new()
        } else {
            theme.dim
        };
        let problem = if skill.problems.is_empty() {
            " "
        } else {
            theme::PROBLEM_MARKER
        };
        let shadowed = if skill.is_shadowed() {
            theme::SHADOWED_MARKER
        } else {
            " "
        };
        let mut spans = vec![
            Span::raw(" "),
            Span::styled(theme::state_marker(skill.state), theme.state(skill.state)),
            Span::raw(" "),
            Span::styled(problem, theme.warning),
            Span::styled(shadowed, quiet),
            Span::raw(" "),
            Span::raw(width::pad(&skill.name, self.name)),
            Span::raw(" "),
            Span::styled(
                theme::source_badge(skill.source),
                theme.source(skill.source),
            ),
        ];
        if self.agents > 0 {
            let ids: Vec<&str> = skill.agents.iter().map(|a| a.id()).collect();
            let agents = if ids.is_empty() {
                "-".to_owned()
            } else {
                ids.join(",")
            };
            spans.push(Span::raw(" "));
            spans.push(Span::styled(width::fit(&agents, self.agents), quiet));
        }
        Line::from(spans)
    }
}
