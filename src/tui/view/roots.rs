//! The roots screen: every folder an agent reads skills from, whether it exists, its scope, the
//! agents that read it and how many skills it holds; below, the selected root in full.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::roots::{AgentId, Scope};
use crate::text::width;
use crate::tui::app::App;
use crate::tui::geometry::{Laid, PaneGeometry};
use crate::tui::keymap::{self, Mode};
use crate::tui::model::{Presence, RootView};
use crate::tui::msg::{Action, Pane};
use crate::tui::theme::{self, Theme};

use super::list::agents_cell;
use super::{has_focus, pane};

const SKILLS: usize = 6;
const SCOPE: usize = 12;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, laid: &mut Laid) {
    let theme = &app.theme;
    let [table, about] = Layout::vertical([Constraint::Fill(1), Constraint::Length(7)]).areas(area);
    let existing = app
        .deck
        .roots
        .iter()
        .filter(|r| r.presence == Presence::Exists)
        .count();
    let folders = app
        .deck
        .roots
        .iter()
        .filter(|r| r.presence != Presence::BuiltIn)
        .count();
    let shown_roots = app.shown_roots();
    let shown_folders = shown_roots
        .iter()
        .filter(|&&i| app.deck.roots[i].presence != Presence::BuiltIn)
        .count();
    let hidden = folders - shown_folders;
    let mut title = vec![Span::styled(
        if hidden > 0 {
            format!(" Roots: {shown_folders} of {folders} searched, {existing} exist ",)
        } else {
            format!(" Roots: {folders} searched, {existing} exist ")
        },
        theme.title,
    )];
    // The others are the roots of agents not installed here, holding no skill.
    if hidden > 0 {
        title.push(Span::styled(
            format!(
                "· {} shows every agent's ",
                keymap::key_for(Mode::Roots, Action::ToggleAllAgents)
            ),
            theme.dim,
        ));
    } else if app.all_agents {
        title.push(Span::styled("· every agent ", theme.warning));
    }
    let title = Line::from(title);
    let block = pane(title, has_focus(app, Pane::List), theme);
    let inner = block.inner(table);
    frame.render_widget(block, table);
    let [head, rows_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
    let columns = usize::from(inner.width);
    let agents = ((columns.saturating_sub(3 + SKILLS + SCOPE + 3)) / 3).min(40);
    let path = columns.saturating_sub(3 + SKILLS + SCOPE + agents + 3);
    frame.render_widget(
        Line::styled(
            format!(
                "   {:>SKILLS$} {} {} PATH",
                "SKILLS",
                width::pad("SCOPE", SCOPE),
                width::pad("AGENTS", agents)
            ),
            theme.dim,
        ),
        head,
    );
    let geometry = PaneGeometry::list(table, rows_area, app.panes.roots.offset, app.root_selected);
    laid.panes.roots = Some(geometry);
    let (rows, offset) = (geometry.page, geometry.offset);
    let shown = shown_roots.iter().enumerate().skip(offset).take(rows);
    for (y, (i, &index)) in (rows_area.y..).zip(shown) {
        let root = &app.deck.roots[index];
        let selected = i == app.root_selected;
        let style = if selected {
            theme.selected
        } else {
            Style::new()
        };
        let readers = app.shown_of(&root.agents);
        let line = row(root, &readers, (agents, path), theme, selected).style(style);
        frame.render_widget(line, Rect::new(rows_area.x, y, rows_area.width, 1));
    }
    if let Some(root) = app.selected_root() {
        about_root(frame, about, root, app);
    }
}

/// One root: `readers` are the agents shown that read it; `widths` are the agents' and the
/// path's columns.
fn row(
    root: &RootView,
    readers: &[AgentId],
    (agents, path): (usize, usize),
    theme: &Theme,
    selected: bool,
) -> Line<'static> {
    // Dim text would vanish on the selected row's background.
    let quiet = if selected { Style::new() } else { theme.dim };
    let (marker, mut marker_style) = presence(&root.presence, theme);
    if selected && root.presence == Presence::Missing {
        marker_style = quiet;
    }
    let count = if matches!(root.presence, Presence::Exists | Presence::BuiltIn) {
        root.skills.to_string()
    } else {
        "-".to_owned()
    };
    let cell = agents_cell(readers, root.agents.len(), agents);
    let path_style = if matches!(root.presence, Presence::Exists | Presence::BuiltIn) {
        Style::new()
    } else {
        quiet
    };
    Line::from(vec![
        Span::raw(" "),
        Span::styled(marker, marker_style),
        Span::raw(" "),
        Span::raw(format!("{count:>SKILLS$} ")),
        Span::styled(
            width::pad(scope_name(root.scope), SCOPE),
            scope_style(root.scope, theme),
        ),
        Span::raw(" "),
        Span::styled(width::pad(&cell, agents), quiet),
        Span::raw(" "),
        Span::styled(width::fit(&root.shown_path, path), path_style),
    ])
}

fn presence(presence: &Presence, theme: &Theme) -> (&'static str, Style) {
    let style = match presence {
        Presence::Exists => theme.intact,
        Presence::BuiltIn => theme.label,
        Presence::Missing => theme.dim,
        Presence::NotADirectory | Presence::Unreadable(_) => theme.warning,
    };
    (theme::presence_marker(presence), style)
}

fn presence_text(presence: &Presence) -> String {
    match presence {
        Presence::Exists => "exists".to_owned(),
        Presence::BuiltIn => {
            "is inside the agent, in no folder; nothing here can change it".to_owned()
        }
        Presence::Missing => "does not exist".to_owned(),
        Presence::NotADirectory => "is a file, not a directory".to_owned(),
        Presence::Unreadable(error) => format!("cannot be read: {error}"),
    }
}

fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::Plugin => "plugin",
        Scope::Organization => "organization",
        Scope::User => "user",
        Scope::Project => "project",
        Scope::Bundled => "agent's own",
    }
}

fn scope_style(scope: Scope, theme: &Theme) -> Style {
    theme.source(scope.source())
}

fn about_root(frame: &mut Frame, area: Rect, root: &RootView, app: &App) {
    let theme = &app.theme;
    let block = pane(
        Line::styled(format!(" {} ", root.label), theme.title),
        false,
        theme,
    );
    let shown = app.shown_of(&root.agents);
    let hidden = root.agents.len() - shown.len();
    let mut agents: Vec<&str> = shown.iter().map(|a| a.display_name()).collect();
    let more = format!("{hidden} more not installed here");
    if hidden > 0 {
        agents.push(&more);
    }
    let (marker, style) = presence(&root.presence, theme);
    let mut lines = vec![
        Line::raw(root.shown_path.clone()),
        Line::from(vec![
            Span::styled(format!("{marker} {}", presence_text(&root.presence)), style),
            Span::styled(
                format!(
                    "  · {} · {} · read by {}",
                    scope_name(root.scope),
                    crate::text::human::count(root.skills, "skill"),
                    if agents.is_empty() {
                        "no agent (kept on disk, not loaded)".to_owned()
                    } else {
                        agents.join(", ")
                    }
                ),
                theme.dim,
            ),
        ]),
    ];
    for note in &root.notes {
        lines.push(Line::styled(
            format!("{} {note}", theme::PROBLEM_MARKER),
            theme.warning,
        ));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(ratatui::widgets::Wrap { trim: false }),
        area,
    );
}
