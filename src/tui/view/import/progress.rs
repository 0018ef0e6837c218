//! An import under way (reading, judging, installing with a gauge) and its result.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::app::App;
use crate::tui::import::{ImportedView, Progress};
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;

pub fn waiting(frame: &mut Frame, area: Rect, app: &App, text: &str) {
    let theme = &app.theme;
    let lines = vec![
        Line::raw(text.to_owned()),
        Line::raw(""),
        Line::styled(
            format!(
                "{} cancels; nothing is written.",
                keymap::key_for(Mode::Busy, Action::Back)
            ),
            theme.dim,
        ),
    ];
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}

pub fn installing(frame: &mut Frame, area: Rect, app: &App, progress: &Progress) {
    let theme = &app.theme;
    let [label, gauge, note] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(1),
        Constraint::Fill(1),
    ])
    .areas(area);
    let text = if progress.files_total == 0 {
        "Getting ready to install…".to_owned()
    } else {
        format!(
            "Installing {}: {} of {} files written",
            progress.skill, progress.files_done, progress.files_total
        )
    };
    frame.render_widget(Line::raw(text), label);
    let ratio = if progress.files_total == 0 {
        0.0
    } else {
        progress.files_done as f64 / progress.files_total as f64
    };
    crate::tui::view::gauge::draw(
        frame,
        gauge.inner(ratatui::layout::Margin::new(1, 0)),
        ratio,
        &crate::tui::view::gauge::percent(progress.files_done, progress.files_total),
        theme.gauge,
    );
    let note_text = if progress.cancelling {
        "Cancelling: the install stops before any skill is put in place, if it still can…"
            .to_owned()
    } else {
        format!(
            "Each skill is staged and synced, then put in place in one step. {} cancels until then.",
            keymap::key_for(Mode::Busy, Action::Back)
        )
    };
    frame.render_widget(
        Paragraph::new(Line::styled(note_text, theme.dim)).wrap(Wrap { trim: false }),
        note,
    );
}

pub fn done(frame: &mut Frame, area: Rect, app: &App, imported: &ImportedView) {
    let theme = &app.theme;
    let mut lines = vec![Line::styled("Done:", theme.title)];
    // First, so a long list of skills does not push them off the screen.
    for warning in &imported.warnings {
        lines.push(Line::styled(format!("! {warning}"), theme.warning));
    }
    for skill in &imported.skills {
        lines.push(Line::from(vec![
            Span::styled(format!("  {:<10}", skill.action.as_str()), theme.intact),
            Span::styled(skill.name.clone(), theme.title),
            Span::raw(format!(" at {}", skill.shown_dir)),
        ]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "Each is recorded as installed by skilldeck, and kept as a snapshot: its baseline.",
        theme.dim,
    ));
    closing(frame, area, app, lines);
}

/// An import that stopped, and why.
pub fn failed(frame: &mut Frame, area: Rect, app: &App, why: &str) {
    let lines = vec![
        Line::styled("The import stopped:", app.theme.warning),
        Line::raw(why.to_owned()),
    ];
    closing(frame, area, app, lines);
}

/// `lines`, and what closes the import's last step.
fn closing(frame: &mut Frame, area: Rect, app: &App, mut lines: Vec<Line<'static>>) {
    let theme = &app.theme;
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        format!(
            "{} closes; the skills are scanned again.",
            keymap::key_for(Mode::Imported, Action::Back)
        ),
        theme.dim,
    ));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}
