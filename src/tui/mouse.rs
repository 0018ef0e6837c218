//! The mouse, when it is on: the wheel scrolls the pane under the pointer, a click selects the
//! row under it or focuses the pane. Off by default so the terminal can select text.

use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::app::{App, Layer, Screen};
use super::msg::{Msg, Pane};
use super::views::View;

/// Rows one turn of the wheel moves.
const WHEEL_ROWS: i32 = 3;

/// What a mouse event means where the last frame put things. On the screen the wheel scrolls
/// the pane under the pointer and a click selects the row under it; over anything else the
/// wheel scrolls what is on top, and a click selects a row only in the history's list.
pub fn translate(app: &App, event: &MouseEvent) -> Option<Msg> {
    let at = Position::new(event.column, event.row);
    let panes = &app.panes;
    let top = app.top();
    let pane = match top {
        Layer::Screen => match app.screen {
            Screen::Roots => panes.roots.area.contains(at).then_some(Pane::List),
            Screen::Changed => panes.changed.area.contains(at).then_some(Pane::List),
            Screen::Skills => [
                (panes.list.area, Pane::List),
                (panes.detail.area, Pane::Detail),
                (panes.preview.area, Pane::Preview),
            ]
            .into_iter()
            .find(|(area, _)| area.contains(at))
            .map(|(_, pane)| pane),
        },
        Layer::View(View::History) => panes.history.area.contains(at).then_some(Pane::List),
        _ => Some(Pane::List),
    };
    match event.kind {
        MouseEventKind::ScrollDown => pane.map(|p| Msg::Scroll(p, WHEEL_ROWS)),
        MouseEventKind::ScrollUp => pane.map(|p| Msg::Scroll(p, -WHEEL_ROWS)),
        MouseEventKind::Down(MouseButton::Left) => {
            let (geometry, len) = match top {
                Layer::View(View::History) => (
                    panes.history,
                    app.views.history().map_or(0, |h| h.rows().len()),
                ),
                Layer::Screen => match app.screen {
                    Screen::Skills => (panes.list, app.visible.len()),
                    Screen::Roots => (panes.roots, app.shown_roots().len()),
                    Screen::Changed => (panes.changed, app.changes.shown().len()),
                },
                _ => return None,
            };
            match row_at(geometry.rows, at, geometry.offset) {
                Some(index) if index < len => Some(Msg::Select(index)),
                Some(_) => None,
                None => pane.map(Msg::Focus),
            }
        }
        _ => None,
    }
}

fn row_at(rows: Rect, at: Position, offset: usize) -> Option<usize> {
    rows.contains(at)
        .then(|| offset + usize::from(at.y - rows.y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::geometry::PaneGeometry;
    use ratatui::crossterm::event::KeyModifiers;

    fn mouse(kind: MouseEventKind, column: u16, row: u16) -> MouseEvent {
        MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }
    }

    #[test]
    fn clicks_and_the_wheel_land_where_the_pointer_is() {
        let mut app = App {
            visible: (0..50).collect(),
            ..App::default()
        };
        app.panes.list = PaneGeometry {
            area: Rect::new(0, 1, 30, 20),
            rows: Rect::new(1, 3, 28, 17),
            page: 17,
            offset: 10,
            max: 0,
        };
        app.panes.detail.area = Rect::new(30, 1, 50, 10);
        app.panes.preview.area = Rect::new(30, 11, 50, 10);
        let click = MouseEventKind::Down(MouseButton::Left);
        let cases = [
            (mouse(click, 5, 3), Some(Msg::Select(10))),
            (mouse(click, 5, 7), Some(Msg::Select(14))),
            (mouse(click, 5, 1), Some(Msg::Focus(Pane::List))),
            (mouse(click, 40, 15), Some(Msg::Focus(Pane::Preview))),
            (
                mouse(MouseEventKind::ScrollDown, 40, 5),
                Some(Msg::Scroll(Pane::Detail, 3)),
            ),
            (
                mouse(MouseEventKind::ScrollUp, 2, 5),
                Some(Msg::Scroll(Pane::List, -3)),
            ),
            (mouse(MouseEventKind::Moved, 2, 5), None),
            (mouse(click, 100, 30), None),
        ];
        for (event, want) in cases {
            assert_eq!(
                format!("{:?}", translate(&app, &event)),
                format!("{want:?}"),
                "{event:?}"
            );
        }
        app.visible.truncate(12);
        assert!(
            translate(&app, &mouse(click, 5, 7)).is_none(),
            "below the last row"
        );
    }
}
