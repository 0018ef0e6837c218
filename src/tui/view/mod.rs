//! Drawing: the app's state onto a frame, one file per pane or overlay. Drawing only reads the
//! app; what it laid out (each pane's area, page, offset and furthest scroll, and the preview
//! wrapped to its width) it hands back as a [`Laid`], which the runtime gives to `update`.

mod budget;
mod changed;
mod confirm;
mod copies;
mod detail;
mod diff;
mod export;
mod footer;
mod gauge;
mod header;
mod help;
mod history;
mod import;
mod list;
mod manage;
mod message;
mod preview;
mod roots;
mod search;
mod updating;
mod viewer;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};

use super::app::{App, Layer, Overlay, Screen};
use super::geometry::Laid;
use super::keymap;
use super::msg::{Action, Pane};
use super::theme::Theme;
use super::views::View;

/// The smallest terminal the app lays itself out in.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 15;

/// Draw the whole app; what comes back is where it put each pane.
pub fn draw(frame: &mut Frame, app: &App) -> Laid {
    let area = frame.area();
    let mut laid = Laid::default();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(frame, area, app);
        return laid;
    }
    let [top, body, status, bottom] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    header::draw(frame, top, app);
    body_layer(frame, body, app, &mut laid);
    footer::draw_status(frame, status, app);
    footer::draw_hints(frame, bottom, app);
    // What is above the body, in the order the app stacks it; every popup within the body, so
    // the header, the status line and the keys stay in view.
    for layer in app.layers() {
        match layer {
            Layer::Screen | Layer::View(_) => {}
            Layer::Import => {
                if let Some(import) = &app.import {
                    import::draw(frame, body, app, import, &mut laid);
                }
            }
            Layer::Conflicts => {
                if let Some(updating) = &app.updating
                    && let Some(planned) = updating.planned()
                {
                    updating::draw(frame, body, app, &updating.names, planned, &mut laid);
                }
            }
            Layer::Working => {
                if let Some(running) = &app.batch {
                    manage::draw_progress(frame, body, running, &app.theme);
                }
            }
            Layer::Overlay => match &app.overlay {
                Overlay::None => {}
                Overlay::Help => help::draw(frame, body, app, &mut laid),
                Overlay::Confirm(question) => confirm::draw(frame, body, question, &app.theme),
                Overlay::Export(prompt) => export::draw(frame, body, prompt, &app.theme),
                Overlay::Pick(pick) => manage::draw_pick(frame, body, pick, &app.theme),
                Overlay::Summary(summary) => {
                    manage::draw_summary(frame, body, summary, &app.theme);
                }
            },
            // The first message; the others wait under it.
            Layer::Message => {
                if let Some(text) = app.messages.first() {
                    message::draw(frame, body, text, &app.theme);
                }
            }
        }
    }
    laid
}

/// The screen, or the view on top of it, in the body.
fn body_layer(frame: &mut Frame, body: Rect, app: &App, laid: &mut Laid) {
    let views = &app.views;
    match app.body() {
        Layer::View(View::Diff) => {
            if let Some(diff) = views.diff() {
                diff::draw(frame, body, app, diff, laid);
            }
        }
        Layer::View(View::History) => {
            if let Some(history) = views.history() {
                history::draw(frame, body, app, history, laid);
            }
        }
        Layer::View(View::Viewer) => {
            if let Some(viewer) = views.viewer() {
                viewer::draw(frame, body, app, viewer, laid);
            }
        }
        Layer::View(View::Copies) => {
            if let Some(copies) = views.copies() {
                copies::draw(frame, body, app, copies);
            }
        }
        Layer::View(View::Budget) => {
            if let Some(&view) = views.budget() {
                budget::draw(frame, body, app, view, laid);
            }
        }
        _ => match app.screen {
            Screen::Skills => skills_screen(frame, body, app, laid),
            Screen::Roots => roots::draw(frame, body, app, laid),
            Screen::Changed => changed::draw(frame, body, app, laid),
        },
    }
}

fn skills_screen(frame: &mut Frame, area: Rect, app: &App, laid: &mut Laid) {
    let (list, detail, preview) = if app.zoomed {
        // The pane with the keyboard alone, on the whole body.
        match app.focus {
            Pane::List => (Some(area), None, None),
            Pane::Detail => (None, Some(area), None),
            Pane::Preview => (None, None, Some(area)),
        }
    } else if area.width >= SIDE_BY_SIDE {
        // The list on the left, the detail above the `SKILL.md` on the right.
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                .areas(area);
        let [top, bottom] =
            Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(right);
        (Some(left), Some(top), Some(bottom))
    } else {
        // The list across the whole width, and below it the detail, or the `SKILL.md` while it
        // has the keyboard (Tab goes from one to the other).
        let [top, bottom] =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(area);
        if app.focus == Pane::Preview {
            (Some(top), None, Some(bottom))
        } else {
            (Some(top), Some(bottom), None)
        }
    };
    if let Some(area) = list {
        list::draw(frame, area, app, laid);
    }
    if let Some(area) = detail {
        detail::draw(frame, area, app, laid);
    }
    if let Some(area) = preview {
        preview::draw(frame, area, app, laid);
    }
}

/// The narrowest terminal the list shares the width with the detail at: beside it, a
/// narrower list has too few columns for a whole name, its state and its agents.
const SIDE_BY_SIDE: u16 = 110;

/// Empty `area` for a popup drawn over what is there. A wide character (漢) whose first half
/// is just left of the popup keeps its second half under the popup's border in the buffer, and
/// a terminal draws it whole, over the border: it is blanked too, so nothing bleeds into the
/// popup.
fn clear_under_popup(frame: &mut Frame, area: Rect) {
    frame.render_widget(Clear, area);
    let Some(left) = area.x.checked_sub(1) else {
        return;
    };
    let buffer = frame.buffer_mut();
    for y in area.top()..area.bottom() {
        if let Some(cell) = buffer.cell_mut((left, y))
            && crate::text::width::of(cell.symbol()) > 1
        {
            cell.set_symbol(" ");
        }
    }
}

/// A bordered pane, its border bright when it has the keyboard.
fn pane<'a>(title: Line<'a>, focused: bool, theme: &Theme) -> Block<'a> {
    Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(if focused {
            theme.border_focused
        } else {
            theme.border
        })
        .title(title)
}

/// Whether `pane` of the screen shown has the keyboard.
fn has_focus(app: &App, pane: Pane) -> bool {
    app.is_uncovered() && app.focus == pane
}

fn too_small(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let text = vec![
        Line::styled("The terminal is too small for skilldeck.", theme.title),
        Line::raw(format!(
            "It is {}×{}; skilldeck needs at least {MIN_WIDTH}×{MIN_HEIGHT}.",
            area.width, area.height
        )),
        Line::raw(format!(
            "Make the window larger, or press {} to quit.",
            keymap::key_for(app.mode(), Action::Quit)
        )),
    ];
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::views::samples::open;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn drawn(app: &App) -> String {
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("a test terminal");
        terminal
            .draw(|frame| {
                draw(frame, app);
            })
            .expect("drawn");
        let buffer = terminal.backend().buffer();
        buffer.content().iter().map(|cell| cell.symbol()).collect()
    }

    /// A wide character cut by a popup's left edge is blanked, so the terminal does not draw
    /// its second half over the popup's border.
    #[test]
    fn a_wide_character_never_bleeds_over_a_popup() {
        for x in [3u16, 4] {
            let mut terminal = Terminal::new(TestBackend::new(12, 3)).expect("a test terminal");
            terminal
                .draw(|frame| {
                    for y in 0..3 {
                        frame.render_widget(Line::raw("漢字漢字漢字"), Rect::new(0, y, 12, 1));
                    }
                    clear_under_popup(frame, Rect::new(x, 0, 5, 3));
                    frame.render_widget(Block::bordered(), Rect::new(x, 0, 5, 3));
                })
                .expect("drawn");
            let buffer = terminal.backend().buffer();
            let wide = |x: u16, y: u16| crate::text::width::of(buffer[(x, y)].symbol()) > 1;
            for y in 0..3 {
                // Cut by the popup (x 3), it is blanked; ending before it (x 4), it stays.
                assert!(!wide(x - 1, y), "x {x}, row {y}");
                assert_eq!(wide(x - 2, y), x % 2 == 0, "x {x}, row {y}");
            }
        }
    }

    /// The body shows the view opened last, in either order, and the one under it once it is
    /// closed.
    #[test]
    fn the_body_is_the_view_opened_last() {
        for (below, above, shown, hidden) in [
            (View::Viewer, View::Copies, "Copies of a", "Files of a"),
            (View::Copies, View::Viewer, "Files of a", "Copies of a"),
        ] {
            let mut app = App::default();
            open(&mut app.views, below);
            open(&mut app.views, above);
            let text = drawn(&app);
            assert!(text.contains(shown), "{below:?} then {above:?}: {text}");
            assert!(!text.contains(hidden), "{below:?} then {above:?}: {text}");
            app.views.close(above);
            assert!(drawn(&app).contains(hidden), "{below:?} uncovered");
        }
    }
}
