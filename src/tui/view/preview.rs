//! The preview pane: the selected skill's `SKILL.md`, wrapped to the pane and scrollable, its
//! frontmatter dimmed and its headings marked.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::text::width;
use crate::tui::app::{App, Preview};
use crate::tui::geometry::{Laid, LineKind, PaneGeometry, PreviewLine, WrappedPreview};
use crate::tui::msg::Pane;

use super::{has_focus, pane};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, laid: &mut Laid) {
    let theme = &app.theme;
    let inner_width = usize::from(area.width.saturating_sub(2));
    let rows = usize::from(area.height.saturating_sub(2));
    let mut geometry = PaneGeometry {
        area,
        ..PaneGeometry::default()
    };
    let (position, body): (String, Vec<Line>) = match &app.preview {
        Preview::Empty => (String::new(), Vec::new()),
        Preview::Loading(_) => (
            String::new(),
            vec![Line::styled("Reading SKILL.md…", theme.dim)],
        ),
        Preview::Failed { reason, .. } => (
            String::new(),
            vec![Line::styled(reason.clone(), theme.warning)],
        ),
        Preview::Text { lines, .. } => {
            // The text is wrapped once per preview and width; the wrap made here is handed back
            // with the layout, for the next frames to use.
            let wrapped =
                if app.wrapped.version == app.preview_version && app.wrapped.width == inner_width {
                    &app.wrapped
                } else {
                    laid.wrapped.insert(WrappedPreview {
                        version: app.preview_version,
                        width: inner_width,
                        lines: wrap(lines, inner_width),
                    })
                };
            let total = wrapped.lines.len();
            let max = total.saturating_sub(rows);
            geometry.page = rows;
            geometry.max = max;
            let first = app.preview_scroll.min(max);
            let shown = wrapped.lines[first..]
                .iter()
                .take(rows)
                .map(|line| {
                    let style = match line.kind {
                        LineKind::Frontmatter => theme.frontmatter,
                        LineKind::Heading => theme.heading,
                        LineKind::Body => ratatui::style::Style::new(),
                    };
                    Line::styled(line.text.clone(), style)
                })
                .collect();
            let last = (first + rows).min(total);
            (format!("{}-{last} of {total} ", first + 1), shown)
        }
    };
    let title = Line::from(vec![
        ratatui::text::Span::styled(" SKILL.md ", theme.title),
        ratatui::text::Span::styled(position, theme.dim),
    ]);
    laid.panes.preview = Some(geometry);
    let block = pane(title, has_focus(app, Pane::Preview), theme);
    // Lines are wrapped already; `Wrap` only matters for the short notes above.
    frame.render_widget(
        Paragraph::new(body).block(block).wrap(Wrap { trim: false }),
        area,
    );
}

/// The lines of a `SKILL.md` wrapped to `columns`, each marked as frontmatter, heading or body.
fn wrap(lines: &[String], columns: usize) -> Vec<PreviewLine> {
    let mut out = Vec::new();
    let mut in_frontmatter = lines.first().is_some_and(|l| l == "---");
    for (i, line) in lines.iter().enumerate() {
        let kind = if in_frontmatter {
            if i > 0 && line == "---" {
                in_frontmatter = false;
            }
            LineKind::Frontmatter
        } else if line.starts_with('#') {
            LineKind::Heading
        } else {
            LineKind::Body
        };
        for text in width::wrap(line, columns) {
            out.push(PreviewLine { text, kind });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_and_headings_are_told_apart() {
        let lines: Vec<String> = ["---", "name: x", "---", "# Title", "Body text here"]
            .map(String::from)
            .to_vec();
        let kinds: Vec<LineKind> = wrap(&lines, 80).iter().map(|l| l.kind).collect();
        use LineKind::*;
        assert_eq!(
            kinds,
            [Frontmatter, Frontmatter, Frontmatter, Heading, Body]
        );
        let narrow = wrap(&lines, 5);
        assert_eq!(narrow.last().map(|l| l.text.as_str()), Some("here"));
        assert_eq!(narrow.len(), 9);
    }
}
