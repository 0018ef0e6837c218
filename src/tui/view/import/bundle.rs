//! What a bundle holds, before anything is written: each skill with its files, sizes,
//! executable bits, lint problems and audit verdict (its findings listed), taken or left by
//! the person; the files left out of every skill; and, for a bundle that is refused, the one
//! sentence that says why.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::text::human::size;
use crate::text::width;
use crate::tui::app::App;
use crate::tui::geometry::{Laid, PaneGeometry};
use crate::tui::import::{Import, RefusalView};
use crate::tui::keymap::{self, Mode};
use crate::tui::msg::Action;
use crate::tui::theme;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, import: &Import, laid: &mut Laid) {
    let theme = &app.theme;
    let Some(bundle) = &import.bundle else {
        return;
    };
    let columns = usize::from(area.width);
    let files: usize = bundle.skills.iter().map(|s| s.files.len()).sum();
    let bytes: u64 = bundle.skills.iter().map(|s| s.size).sum();
    let mut lines = vec![
        Line::from(vec![
            Span::styled(bundle.source.clone(), theme.title),
            Span::styled(
                format!(
                    ": {}, {}, {}",
                    crate::text::human::count(bundle.skills.len(), "skill"),
                    crate::text::human::count(files, "file"),
                    size(bytes)
                ),
                theme.dim,
            ),
        ]),
        Line::styled(
            width::fit(
                &format!(
                    "{}: take or leave the skill under the cursor · {}/{}: all/none · {}: go on",
                    keymap::key_for(Mode::Bundle, Action::ToggleSkill),
                    keymap::key_for(Mode::Bundle, Action::TakeAll),
                    keymap::key_for(Mode::Bundle, Action::TakeNone),
                    keymap::key_for(Mode::Bundle, Action::Choose)
                ),
                columns,
            ),
            theme.dim,
        ),
        Line::raw(""),
    ];
    for (i, skill) in bundle.skills.iter().enumerate() {
        if let Some(heading) = bundle.heading(i) {
            lines.push(Line::styled(width::fit(&heading, columns), theme.heading));
        }
        let chosen = import.chosen.get(i).copied().unwrap_or(false);
        let selected = i == import.cursor;
        let mark = if chosen { "[x]" } else { "[ ]" };
        let style = if selected {
            theme.selected
        } else {
            Style::new()
        };
        // Dim text would vanish on the selected row's background.
        let quiet = if selected { Style::new() } else { theme.dim };
        let count = crate::text::human::count(skill.files.len(), "file");
        lines.push(
            Line::from(vec![
                Span::raw(" "),
                Span::styled(mark, theme.key),
                Span::raw(" "),
                Span::styled(skill.shown_name.clone(), theme.title),
                Span::styled(format!("  {count}, {}", size(skill.size)), quiet),
                Span::styled(
                    format!(" · audit: {}", skill.audit.summary()),
                    if skill.audit.marked() {
                        theme.warning
                    } else {
                        quiet
                    },
                ),
            ])
            .style(style),
        );
        if let Some(description) = &skill.description {
            lines.push(Line::styled(
                format!(
                    "     {}",
                    width::fit(description, columns.saturating_sub(6))
                ),
                theme.dim,
            ));
        }
        for file in &skill.files {
            let exec = if file.executable { "  executable" } else { "" };
            lines.push(Line::from(vec![
                Span::raw(format!("     {:>9}  ", size(file.size))),
                Span::raw(width::fit(&file.path, columns.saturating_sub(30))),
                Span::styled(exec, theme.warning),
            ]));
        }
        for lint in &skill.lints {
            lines.push(Line::styled(
                width::fit(&format!("     {} {lint}", theme::PROBLEM_MARKER), columns),
                theme.warning,
            ));
        }
        // What the audit found of medium severity or more, each with its file and line.
        for finding in skill.audit.listed() {
            lines.push(Line::styled(
                width::fit(
                    &format!("     {} {}", theme::PROBLEM_MARKER, finding.sentence()),
                    columns,
                ),
                theme.warning,
            ));
        }
    }
    if !bundle.left_out.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!("Left out, in no skill ({}):", bundle.left_out.len()),
            theme.label,
        ));
        for path in &bundle.left_out {
            lines.push(Line::styled(format!("     {path}"), theme.dim));
        }
    }
    if bundle.set_aside > 0 {
        lines.push(Line::styled(
            format!("Set aside as metadata: {} files", bundle.set_aside),
            theme.dim,
        ));
    }
    for note in &bundle.notes {
        lines.push(Line::styled(note.clone(), theme.dim));
    }
    let rows = usize::from(area.height);
    // The update keeps the selected skill's block in view as it moves (`BundleView::layout`
    // counts these same lines); a smaller terminal since only clamps it.
    let first = import.scroll.min(bundle.furthest(rows));
    laid.panes.bundle = Some(PaneGeometry {
        area,
        rows: area,
        page: rows,
        offset: first,
        max: bundle.furthest(rows),
    });
    let offset = u16::try_from(first).unwrap_or(u16::MAX);
    frame.render_widget(Paragraph::new(lines).scroll((offset, 0)), area);
}

pub fn refused(frame: &mut Frame, area: Rect, app: &App, refusal: &RefusalView) {
    let theme = &app.theme;
    let lines = vec![
        Line::from(vec![
            Span::styled(refusal.source.clone(), theme.title),
            Span::styled(format!(" is refused ({}):", refusal.code), theme.warning),
        ]),
        Line::raw(""),
        Line::raw(refusal.sentence.clone()),
        Line::raw(""),
        Line::styled(
            format!(
                "Nothing was written. {} picks another bundle; {} closes the import.",
                keymap::key_for(Mode::Refused, Action::Choose),
                keymap::key_for(Mode::Refused, Action::Back)
            ),
            theme.dim,
        ),
    ];
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}
