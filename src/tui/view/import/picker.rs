//! The picker: the folder shown (saying when hidden entries are shown), the line typed (a
//! filter on names, or a path), and its folders and archives; the first row reads the folder
//! itself as a bundle.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::bundle::browse::FoundKind;
use crate::text::human::size;
use crate::text::{sanitize, width};
use crate::tui::app::App;
use crate::tui::geometry::{Laid, PaneGeometry};
use crate::tui::import::picker::Typed;
use crate::tui::import::{PickRow, Picker};
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;

/// The width of the labels on the left.
const LABEL: u16 = 8;

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
    let hidden_note = if picker.hidden {
        "  (hidden shown)"
    } else {
        ""
    };
    let dir_room =
        usize::from(folder.width).saturating_sub(usize::from(LABEL) + width::of(hidden_note));
    frame.render_widget(
        Line::from(vec![
            Span::styled("Folder  ", theme.label),
            Span::raw(width::fit(shown_dir, dir_room)),
            Span::styled(hidden_note, theme.warning),
        ]),
        folder,
    );
    typed_line(frame, filter, app, picker);
    let choose = keymap::key_for(Mode::Picker, Action::Choose);
    let explain = match (&picker.error, picker.loading, picker.typed_path()) {
        (Some(error), _, _) => Line::styled(error.clone(), theme.warning),
        (None, true, _) => Line::styled("Listing…", theme.dim),
        (None, false, Some(Typed::Folder(_))) => Line::styled(
            format!("{choose} lists this folder (~/ is your home folder)."),
            theme.dim,
        ),
        (None, false, Some(Typed::Archive(_))) => Line::styled(
            format!("{choose} reads this archive; nothing is written until you choose where."),
            theme.dim,
        ),
        (None, false, Some(Typed::Repository(_))) => Line::styled(
            format!(
                "{choose} fetches this repository with your git (shallow, @REF for a branch or tag); nothing is written until you choose where."
            ),
            theme.dim,
        ),
        (None, false, None) => Line::styled(
            "Pick a folder or archive, or type OWNER/REPO or a git URL; nothing is read until chosen.",
            theme.dim,
        ),
    };
    frame.render_widget(explain, note);
    let rows = picker.rows();
    let geometry = PaneGeometry::list(area, list, app.panes.picker.offset, picker.selected);
    laid.panes.picker = Some(geometry);
    let (height, offset) = (geometry.page, geometry.offset);
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

/// The line typed, with its cursor: a filter on names, or a path (`/`, `~`, `.`), labelled as
/// what it is. What was typed is shown sanitised: a pasted escape is text.
fn typed_line(frame: &mut Frame, area: Rect, app: &App, picker: &Picker) {
    let theme = &app.theme;
    let label = if picker.typed_path().is_some() {
        "Path    "
    } else {
        "Filter  "
    };
    let room = usize::from(area.width.saturating_sub(LABEL + 1));
    let line = &picker.filter;
    let (text, style, cursor) = if line.is_empty() {
        (
            "type to filter by name, a path (/ ~ .), or OWNER/REPO".to_owned(),
            theme.dim,
            0,
        )
    } else {
        let (first, _) = line.window(room);
        let typed: Vec<char> = line.text().chars().collect();
        let before: String = typed[first..line.cursor_chars()].iter().collect();
        let shown = sanitize::line(&typed[first..].iter().collect::<String>());
        (
            width::fit(&shown, room),
            Style::new(),
            width::of(&sanitize::line(&before)),
        )
    };
    frame.render_widget(
        Line::from(vec![
            Span::styled(label, theme.label),
            Span::styled(text, style),
        ]),
        area,
    );
    let x = area.x + LABEL + u16::try_from(cursor).unwrap_or(0);
    frame.set_cursor_position(Position::new(x.min(area.right().saturating_sub(1)), area.y));
}
