//! Where the skills go: every agent's skills folder, for this user and for the project.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::roots::Scope;
use crate::text::width;
use crate::tui::app::App;
use crate::tui::geometry::{Laid, PaneGeometry, keep_in_view};
use crate::tui::import::Import;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, import: &Import, laid: &mut Laid) {
    let theme = &app.theme;
    let [head, columns_head, list] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(1),
        Constraint::Fill(1),
    ])
    .areas(area);
    let names = import.chosen_names();
    let what = if names.len() == 1 {
        format!("Install {} into:", names.join(""))
    } else {
        format!(
            "Install {} skills ({}) into:",
            names.len(),
            names.join(", ")
        )
    };
    frame.render_widget(
        Line::styled(width::fit(&what, usize::from(head.width)), theme.title),
        head,
    );
    frame.render_widget(
        Line::styled(
            format!(
                "    {} {} SKILLS FOLDER",
                width::pad("AGENT", 12),
                width::pad("SCOPE", 8)
            ),
            theme.dim,
        ),
        columns_head,
    );
    let rows = usize::from(list.height);
    let offset = keep_in_view(app.panes.destination.offset, import.destination, rows);
    laid.panes.destination = Some(PaneGeometry {
        area,
        rows: list,
        page: rows,
        offset,
        max: 0,
    });
    let room = usize::from(list.width).saturating_sub(26);
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
            Span::raw(width::fit(&destination.shown_root, room)),
        ])
        .style(if selected {
            theme.selected
        } else {
            Style::new()
        });
        frame.render_widget(line, Rect::new(list.x, y, list.width, 1));
    }
}
