//! The question before installing skills the audit finds high findings in: how many, in which
//! skills, breaking which rules, then each finding with its file and line. Only its own key
//! installs (the plain confirm does not); Esc cancels, nothing written.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::text::width;
use crate::tui::app::App;
use crate::tui::audit::RiskView;
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;
use crate::tui::theme;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, risk: &RiskView) {
    let theme = &app.theme;
    let columns = usize::from(area.width);
    let mut lines: Vec<Line> =
        width::wrap(&format!("Not installed yet: {}.", risk.sentence()), columns)
            .into_iter()
            .map(|line| Line::styled(line, theme.warning))
            .collect();
    lines.push(Line::raw(""));
    let keys = width::wrap(
        &format!(
            "{} installs anyway, the risk accepted · {} cancels; nothing was written.",
            keymap::key_for(Mode::Risk, Action::AcceptRisk),
            keymap::key_for(Mode::Risk, Action::Back)
        ),
        columns,
    );
    // The question and its keys stay in view; the findings fill the rows between, each
    // wrapped whole (its sentence is what the person accepts), as many as fit.
    let room = usize::from(area.height).saturating_sub(lines.len() + 1 + keys.len());
    let mut listed: Vec<Line> = Vec::new();
    let mut shown = 0;
    for finding in &risk.findings {
        let text = format!(
            " {} {}: {}",
            theme::PROBLEM_MARKER,
            finding.skill,
            finding.sentence()
        );
        let wrapped = width::wrap(&text, columns.saturating_sub(3).max(1));
        let rest = risk.findings.len() - shown - 1;
        // The last row is kept for "and N more" while any finding is left out.
        if listed.len() + wrapped.len() + usize::from(rest > 0) > room {
            break;
        }
        for (i, line) in wrapped.into_iter().enumerate() {
            listed.push(Line::raw(if i == 0 { line } else { format!("   {line}") }));
        }
        shown += 1;
    }
    lines.extend(listed);
    if shown < risk.findings.len() {
        lines.push(Line::styled(
            format!("   and {} more", risk.findings.len() - shown),
            theme.dim,
        ));
    }
    lines.push(Line::raw(""));
    lines.extend(keys.into_iter().map(|line| Line::styled(line, theme.dim)));
    frame.render_widget(Paragraph::new(lines), area);
}
