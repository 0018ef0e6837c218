//! The picker: the folder shown, the name filter, and its folders and archives; the first row
//! reads the folder itself as a bundle.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::bundle::browse::FoundKind;
use crate::text::human::size;
use crate::text::width;
use crate::tui::app::App;
use crate::tui::geometry::{Laid, PaneGeometry, keep_in_view};
use crate::tui::import::{PickRow, Picker};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, picker: &Picker, laid: &mut Laid) {
    let theme = &app.theme;
    let [folder, filter, note, list] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Fill(1),
    ])
    .areas(area);
    let shown_dir = picker.place.as_ref().map_or("…", |p| p.shown_dir.as_str());
    frame.render_widget(
        Line::from(vec![
            Span::styled("Folder  ", theme.label),
            Span::raw(width::fit(
                shown_dir,
                usize::from(folder.width).saturating_sub(8),
            )),
        ]),
        folder,
    );
    let (text, style) = if picker.filter.is_empty() {
        ("type to filter by name".to_owned(), theme.dim)
    } else {
        (picker.filter.clone(), ratatui::style::Style::new())
    };
    frame.render_widget(
        Line::from(vec![
            Span::styled("Filter  ", theme.label),
            Span::styled(text, style),
        ]),
        filter,
    );
    frame.set_cursor_position(Position::new(
        filter.x + 8 + u16::try_from(width::of(&picker.filter)).unwrap_or(0),
        filter.y,
    ));
    let explain = match (&picker.error, picker.loading) {
        (Some(error), _) => Line::styled(error.clone(), theme.warning),
        (None, true) => Line::styled("Listing…", theme.dim),
        (None, false) => Line::styled(
            "Folders and archives (.tar .tar.gz .tgz .zip .skill); nothing is read until one is chosen.",
            theme.dim,
        ),
    };
    frame.render_widget(explain, note);
    let rows = picker.rows();
    let height = usize::from(list.height);
    let offset = keep_in_view(app.panes.picker.offset, picker.selected, height);
    laid.panes.picker = Some(PaneGeometry {
        area,
        rows: list,
        page: height,
        offset,
        max: 0,
    });
    let Some(place) = &picker.place else {
        return;
    };
    let columns = usize::from(list.width);
    for (y, (i, row)) in (list.y..).zip(rows.iter().enumerate().skip(offset).take(height)) {
        let (name, detail, name_style) = match row {
            PickRow::ThisFolder => (
                "./   read this folder as the bundle".to_owned(),
                String::new(),
                theme.label,
            ),
            PickRow::Up => (
                "../  the folder above".to_owned(),
                String::new(),
                theme.label,
            ),
            PickRow::Entry(index) => {
                let entry = &place.entries[*index];
                match entry.kind {
                    FoundKind::Folder => (format!("{}/", entry.name), String::new(), theme.label),
                    FoundKind::Archive { size: bytes } => {
                        (entry.name.clone(), size(bytes), Style::new())
                    }
                }
            }
        };
        let selected = i == picker.selected;
        let name_room = columns.saturating_sub(16).max(8);
        let line = Line::from(vec![
            Span::raw(if selected { " ▸ " } else { "   " }),
            Span::styled(width::pad(&name, name_room), name_style),
            Span::styled(width::fit(&detail, 12), theme.dim),
        ])
        .style(if selected {
            theme.selected
        } else {
            Style::new()
        });
        frame.render_widget(line, Rect::new(list.x, y, list.width, 1));
    }
}
