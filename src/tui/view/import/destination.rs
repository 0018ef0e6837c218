//! Where the skills go: every agent's skills folder, for this user and for the project.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::roots::{AgentId, Scope};
use crate::text::width;
use crate::tui::app::App;
use crate::tui::geometry::{Laid, PaneGeometry};
use crate::tui::import::{DestinationView, Import};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, import: &Import, laid: &mut Laid) {
    let theme = &app.theme;
    // Why the folder last chosen cannot take skills; else an agent shown that will not load
    // the folder in this project, which it does not trust (said once, with how to trust it);
    // else a folder no agent shown reads; else the copies the chosen skills would shadow
    // there, or be shadowed by.
    let chosen = import.destinations.get(import.destination);
    let names = import.chosen_names();
    let warn = import.refused.clone().or_else(|| {
        let destination = chosen?;
        if let Some(sentence) = distrust_warning(app, destination) {
            return Some(sentence);
        }
        if app.shown_of(&destination.readers).is_empty() {
            return Some(format!(
                "No agent installed here reads {}, so none would load what is installed there.",
                destination.shown_root
            ));
        }
        shadow_warning(app, destination, &names)
    });
    // Wrapped here, so the rows it is given are the rows it takes (one at least: the title's
    // space).
    // At most half the box, so the folders to choose from stay in view; what is cut says so.
    let mut warn_lines = warn
        .as_ref()
        .map(|w| width::wrap(w, usize::from(area.width)))
        .unwrap_or_default();
    let most = usize::from(area.height / 2).max(1);
    if warn_lines.len() > most {
        warn_lines.truncate(most);
        if let Some(last) = warn_lines.last_mut() {
            *last = width::fit(&format!("{last} …"), usize::from(area.width));
        }
    }
    let warn_rows = warn_lines.len().max(1);
    let [head, columns_head, list] = Layout::vertical([
        Constraint::Length(1 + u16::try_from(warn_rows).unwrap_or(1)),
        Constraint::Length(1),
        Constraint::Fill(1),
    ])
    .areas(area);
    let what = if names.len() == 1 {
        format!("Install {} into:", names.join(""))
    } else {
        format!(
            "Install {} skills ({}) into:",
            names.len(),
            names.join(", ")
        )
    };
    let [title, warning] =
        Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(head);
    frame.render_widget(
        Line::styled(width::fit(&what, usize::from(head.width)), theme.title),
        title,
    );
    let warn_lines: Vec<Line> = warn_lines
        .into_iter()
        .map(|line| Line::styled(line, theme.warning))
        .collect();
    frame.render_widget(Paragraph::new(warn_lines), warning);
    // The folder, then who will load what is installed there; the folder keeps the larger
    // share, as it is what Enter chooses.
    let room = usize::from(list.width).saturating_sub(26);
    let widest = import
        .destinations
        .iter()
        .map(|d| width::of(&d.shown_root))
        .max()
        .unwrap_or(0);
    let path_room = widest.max(13).min(room * 3 / 5);
    let readers_room = room.saturating_sub(path_room + 1);
    frame.render_widget(
        Line::styled(
            format!(
                "    {} {} {} LOADED BY",
                width::pad("AGENT", 12),
                width::pad("SCOPE", 8),
                width::pad("SKILLS FOLDER", path_room)
            ),
            theme.dim,
        ),
        columns_head,
    );
    let geometry = PaneGeometry::list(area, list, app.panes.destination.offset, import.destination);
    laid.panes.destination = Some(geometry);
    let (rows, offset) = (geometry.page, geometry.offset);
    let shown = import
        .destinations
        .iter()
        .enumerate()
        .skip(offset)
        .take(rows);
    for (y, (i, destination)) in (list.y..).zip(shown) {
        let selected = i == import.destination;
        let scope = match destination.scope {
            Scope::Project => "project",
            _ => "user",
        };
        let line = Line::from(vec![
            Span::raw(if selected { "  ▸ " } else { "    " }),
            Span::raw(width::pad(destination.agent.id(), 12)),
            Span::raw(" "),
            Span::styled(
                width::pad(scope, 8),
                theme.source(destination.scope.source()),
            ),
            Span::raw(" "),
            Span::raw(width::pad(
                &width::fit(&destination.shown_root, path_room),
                path_room,
            )),
            Span::raw(" "),
            Span::styled(
                readers(app, &destination.readers, readers_room),
                if selected { Style::new() } else { theme.dim },
            ),
        ])
        .style(if selected {
            theme.selected
        } else {
            Style::new()
        });
        frame.render_widget(line, Rect::new(list.x, y, list.width, 1));
    }
}

/// Each agent shown that will not load what is installed into `destination`, because it does
/// not trust the project, with how to trust it: the command line's warning, in one sentence.
fn distrust_warning(app: &App, destination: &DestinationView) -> Option<String> {
    let sentences: Vec<String> = destination
        .distrusting
        .iter()
        .filter(|d| !app.shown_of(&[d.agent]).is_empty())
        .map(|d| {
            format!(
                "{} would not load the skills in {}: {}.",
                d.agent.display_name(),
                destination.shown_root,
                d.why
            )
        })
        .collect();
    (!sentences.is_empty()).then(|| sentences.join(" "))
}

/// What installing the chosen skills into `destination` would change in which copy an agent
/// shown runs, in one sentence; none when nothing would.
fn shadow_warning(app: &App, destination: &DestinationView, names: &[String]) -> Option<String> {
    let sentences: Vec<String> = destination
        .shadows
        .iter()
        .filter(|s| names.contains(&s.skill) && !app.shown_of(&[s.agent]).is_empty())
        .map(|s| format!("{}: {}", s.skill, s.sentence))
        .collect();
    (!sentences.is_empty()).then(|| format!("Installed here, {}.", sentences.join("; ")))
}

/// The agents shown that load skills from a folder, as many as fit, then how many more; a
/// folder none of them reads says so.
fn readers(app: &App, readers: &[AgentId], room: usize) -> String {
    let shown = app.shown_of(readers);
    if shown.is_empty() {
        return width::fit("no agent installed here", room);
    }
    let ids: Vec<&str> = shown.iter().map(|a| a.id()).collect();
    let mut text = String::new();
    for (i, id) in ids.iter().enumerate() {
        let rest = ids.len() - i - 1;
        let next = if i == 0 {
            (*id).to_owned()
        } else {
            format!("{text}, {id}")
        };
        let tail = if rest > 0 {
            format!(" +{rest}")
        } else {
            String::new()
        };
        if width::of(&next) + width::of(&tail) > room && i > 0 {
            return format!("{text} +{}", ids.len() - i);
        }
        text = next;
    }
    width::fit(&text, room)
}
