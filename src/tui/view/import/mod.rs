//! The import flow, drawn in a box over the screen: its steps named in the title, the one it is
//! at marked, and the step itself below, one file each.

mod bundle;
mod destination;
mod picker;
mod progress;
mod replace;
mod risk;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Padding;

use crate::tui::app::App;
use crate::tui::geometry::Laid;
use crate::tui::import::{Import, Step};

use super::pane;

/// The steps, as the title names them.
const STEPS: [&str; 5] = ["pick", "preview", "destination", "install", "result"];

pub fn draw(frame: &mut Frame, area: Rect, app: &App, import: &Import, laid: &mut Laid) {
    let theme = &app.theme;
    // The import takes the screen's place while it is open.
    let box_area = area;
    let at = match import.step {
        Step::Picking | Step::Reading(_) => 0,
        Step::Preview | Step::Refused(_) => 1,
        Step::Destination | Step::Planning => 2,
        Step::Replace { .. } | Step::Risky { .. } | Step::Installing(_) => 3,
        Step::Done(_) | Step::Failed(_) => 4,
    };
    let mut title = vec![Span::styled(" Import ", theme.title)];
    for (i, name) in STEPS.iter().enumerate() {
        let style = if i == at {
            theme.title.add_modifier(Modifier::REVERSED)
        } else {
            theme.dim
        };
        title.push(Span::styled(format!(" {}·{name} ", i + 1), style));
    }
    title.push(Span::raw(" "));
    let block = pane(Line::from(title), true, theme).padding(Padding::horizontal(1));
    let inner = block.inner(box_area);
    super::clear_under_popup(frame, box_area);
    frame.render_widget(block, box_area);
    match &import.step {
        Step::Picking => picker::draw(frame, inner, app, &import.picker, laid),
        Step::Preview => bundle::draw(frame, inner, app, import, laid),
        Step::Refused(refusal) => bundle::refused(frame, inner, app, refusal),
        Step::Destination => destination::draw(frame, inner, app, import, laid),
        Step::Replace {
            conflicts,
            skipped,
            diff,
            scroll,
        } => replace::draw(frame, inner, app, (conflicts, skipped), diff, *scroll, laid),
        Step::Risky { risk, .. } => risk::draw(frame, inner, app, risk),
        Step::Reading(source) => {
            progress::waiting(frame, inner, app, &format!("Reading {source}…"))
        }
        Step::Planning => progress::waiting(frame, inner, app, "Looking at what is there already…"),
        Step::Installing(progress) => progress::installing(frame, inner, app, progress),
        Step::Done(imported) => progress::done(frame, inner, app, imported),
        Step::Failed(why) => progress::failed(frame, inner, app, why),
    }
}
