//! The skill list: one row per skill shown, with its state marker, the changed-since-snapshot,
//! problem and shadowed markers, name, source badge and agents. Only the rows on screen are built, so a list of
//! twenty thousand costs what a list of forty does.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use crate::record::State;
use crate::roots::AgentId;
use crate::text::{sanitize, width};
use crate::tui::app::{App, By, Filter, Scan};
use crate::tui::changes::changed_since_snapshot;
use crate::tui::geometry::{Laid, PaneGeometry, keep_in_view};
use crate::tui::keymap::{self, Mode};
use crate::tui::model::SkillView;
use crate::tui::model::Sort;
use crate::tui::msg::{Action, Pane};
use crate::tui::theme::{self, Theme};

use super::{has_focus, pane, search};

/// Columns before the name: mark, state marker, changed-since-snapshot marker, problem marker,
/// shadowed marker, space.
const MARKS: usize = 6;
const BADGE: usize = 7;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, laid: &mut Laid) {
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
    let mut geometry = PaneGeometry {
        area,
        rows: rows_area,
        page: rows,
        offset: app.panes.list.offset,
        max: 0,
    };
    if app.visible.is_empty() {
        laid.panes.list = Some(geometry);
        let note = match app.scan {
            Scan::Running(_) | Scan::NotStarted => "Reading skills…".to_owned(),
            Scan::Done if app.deck.skills.is_empty() => format!(
                "No skills found in any root ({} shows them).",
                keymap::key_for(Mode::Skills, Action::ShowRoots)
            ),
            Scan::Done => format!(
                "No skill matches ({} clears the search and filters).",
                keymap::key_for(Mode::Skills, Action::ClearFilters)
            ),
        };
        let note = ratatui::widgets::Paragraph::new(Line::styled(note, theme.dim))
            .wrap(ratatui::widgets::Wrap { trim: true })
            .block(
                ratatui::widgets::Block::new().padding(ratatui::widgets::Padding::horizontal(1)),
            );
        frame.render_widget(note, rows_area);
        return;
    }
    geometry.offset = keep_in_view(geometry.offset, app.selected, rows);
    laid.panes.list = Some(geometry);
    let shown = app
        .visible
        .iter()
        .enumerate()
        .skip(geometry.offset)
        .take(rows);
    for (y, (position, &index)) in (rows_area.y..).zip(shown) {
        let selected = position == app.selected;
        let style = match (selected, focused) {
            (false, _) => ratatui::style::Style::new(),
            (true, true) => theme.selected,
            (true, false) => theme.selected_idle,
        };
        let skill = &app.deck.skills[index];
        let shown = Shown {
            agents: app.shown_of(&skill.agents),
            shadowed: skill
                .verdicts
                .iter()
                .any(|v| v.winner.is_some() && app.shows_agent(v.agent)),
            marked: app.marked.contains(&skill.dir),
            changed: changed_since_snapshot(app.changes.shown(), &skill.dir),
        };
        let line = columns.row(skill, &shown, theme, selected).style(style);
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
        installer,
        disabled,
    } = &app.filter;
    let mut notes: Vec<String> = Vec::new();
    if !app.search.query.is_empty() {
        // Typed text, shown but never raw.
        let query = sanitize::line(app.search.query.text());
        notes.push(format!("\u{201c}{}\u{201d}", width::fit(&query, 24)));
    }
    match state {
        Some(State::Modified) => notes.push("modified".to_owned()),
        Some(state) => notes.push(format!("state: {state}")),
        None => {}
    }
    if let Some(source) = source {
        notes.push(format!("source: {source}"));
    }
    if let Some(agent) = agent {
        notes.push(format!("agent: {agent}"));
    }
    if app.all_agents {
        notes.push("every agent".to_owned());
    }
    match installer {
        Some(By::Installer(name)) => notes.push(format!("by {name}")),
        Some(By::Nobody) => notes.push("no installer".to_owned()),
        None => {}
    }
    if *disabled {
        notes.push("turned off".to_owned());
    }
    if app.sort != Sort::Name {
        notes.push(format!("sort: {}", app.sort.label()));
    }
    if !app.marked.is_empty() {
        notes.push(format!("{} marked", app.marked.len()));
    }
    for note in notes {
        spans.push(Span::styled(format!("· {note} "), theme.warning));
    }
    Line::from(spans)
}

/// What a row shows of a skill's agents: those shown (installed here, or every one), and
/// whether one of them runs another copy of its name.
struct Shown {
    agents: Vec<AgentId>,
    shadowed: bool,
    marked: bool,
    /// Its files differ from its latest snapshot, as the changed screen found.
    changed: bool,
}

/// How many agent ids the column names before it counts the rest.
const IDS: usize = 3;

/// The agents column: a few ids that fit in `room`, then how many more (`codex,cline +21`);
/// `-` when no agent loads the skill, and a short note when only agents not installed do.
pub(super) fn agents_cell(shown: &[AgentId], loaded_by: usize, room: usize) -> String {
    if loaded_by == 0 {
        return "-".to_owned();
    }
    if shown.is_empty() {
        return width::fit("none installed", room);
    }
    let ids: Vec<&str> = shown.iter().map(|a| a.id()).collect();
    for named in (1..=ids.len().min(IDS)).rev() {
        let rest = ids.len() - named;
        let mut text = ids[..named].join(",");
        if rest > 0 {
            text.push_str(&format!(" +{rest}"));
        }
        if width::of(&text) <= room {
            return text;
        }
    }
    // Too narrow for one whole id and the count: cut the id, keep the count.
    let count = format!(" +{}", ids.len() - 1);
    if ids.len() == 1 || room <= width::of(&count) + 1 {
        return width::fit(ids[0], room);
    }
    format!("{}{count}", width::fit(ids[0], room - width::of(&count)))
}

/// How wide each column is at one pane width.
struct Columns {
    name: usize,
    /// Who installed it, and where from when there is room.
    by: usize,
    agents: usize,
}

/// The narrowest an optional column is shown at.
const MIN_COLUMN: usize = 8;
/// The widest installer name (`claude-plugin`).
const INSTALLER: usize = 13;

impl Columns {
    /// The name first; then who installed it; then the agents; what is left widens the
    /// installer column, which then says where the skill came from.
    fn for_width(total: usize) -> Self {
        let rest = total.saturating_sub(MARKS + 1 + BADGE);
        let name = (rest * 2 / 5).clamp(15.min(rest), 22);
        let mut left = rest.saturating_sub(name);
        let by = if left > MIN_COLUMN {
            left -= 1;
            INSTALLER.min(left)
        } else {
            0
        };
        left -= by;
        let agents = if left > MIN_COLUMN {
            left -= 1;
            left.min(26)
        } else {
            0
        };
        left -= agents;
        // Room to spare says where the skill came from, then widens the name.
        let more = if by > 0 { left.min(24) } else { 0 };
        Self {
            name: name + left - more,
            by: by + more,
            agents,
        }
    }

    fn head(&self, theme: &Theme) -> Line<'static> {
        let mut text = format!(
            "{}{} {}",
            " ".repeat(MARKS),
            width::pad("NAME", self.name),
            width::pad("SOURCE", BADGE)
        );
        if self.by > 0 {
            text.push(' ');
            text.push_str(&width::pad("INSTALLED BY", self.by));
        }
        if self.agents > 0 {
            text.push(' ');
            text.push_str("AGENTS");
        }
        Line::styled(text, theme.dim)
    }

    fn row(
        &self,
        skill: &SkillView,
        shown: &Shown,
        theme: &Theme,
        selected: bool,
    ) -> Line<'static> {
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
        let shadowed = if shown.shadowed {
            theme::SHADOWED_MARKER
        } else {
            " "
        };
        let mark = if shown.marked {
            Span::styled(theme::MARKED_MARKER, theme.key)
        } else {
            Span::raw(" ")
        };
        let changed = if shown.changed {
            Span::styled(theme::CHANGED_MARKER, theme.changed)
        } else {
            Span::raw(" ")
        };
        let mut spans = vec![
            mark,
            Span::styled(theme::state_marker(skill.state), theme.state(skill.state)),
            changed,
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
        if self.by > 0 {
            spans.push(Span::raw(" "));
            spans.extend(self.by_spans(skill, quiet));
        }
        if self.agents > 0 {
            let agents = agents_cell(&shown.agents, skill.agents.len(), self.agents);
            spans.push(Span::raw(" "));
            spans.push(Span::styled(agents, quiet));
        }
        Line::from(spans)
    }

    /// `claude-plugin acme/claude-plugins`, padded to the column.
    fn by_spans(&self, skill: &SkillView, quiet: ratatui::style::Style) -> [Span<'static>; 2] {
        let Some(owner) = &skill.owner else {
            return [Span::styled(width::pad("-", self.by), quiet), Span::raw("")];
        };
        let installer = width::fit(&owner.installer, self.by);
        let room = self.by.saturating_sub(width::of(&installer) + 1);
        let from = match &owner.repository {
            Some(repository) if room >= MIN_COLUMN => {
                format!(" {}", width::fit(repository, room))
            }
            _ => String::new(),
        };
        let used = width::of(&installer) + width::of(&from);
        [
            Span::raw(installer),
            Span::styled(
                format!("{from}{}", " ".repeat(self.by.saturating_sub(used))),
                quiet,
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agents_column_names_what_fits_and_counts_the_rest() {
        let six: Vec<AgentId> = AgentId::all().take(6).collect();
        assert_eq!(agents_cell(&six, 6, 40), "claude-code,codex,opencode +3");
        assert_eq!(agents_cell(&six, 6, 20), "claude-code,codex +4");
        assert_eq!(agents_cell(&six, 6, 16), "claude-code +5");
        assert_eq!(agents_cell(&six, 6, 12), "claude-c… +5");
        assert_eq!(agents_cell(&six[1..2], 6, 16), "codex");
        assert_eq!(agents_cell(&[], 6, 16), "none installed");
        assert_eq!(agents_cell(&[], 0, 16), "-");
    }
}
