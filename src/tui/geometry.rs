//! Where the last frame put each pane and how much of it showed: what the mouse needs to find
//! a pane and a row, paging needs to know a page, and scrolling needs to know how far it goes.
//! Drawing only reports it (a [`Laid`]); `update` takes the report in as a message, so the app
//! changes in one place and every pane's geometry is one value.

use ratatui::layout::Rect;

/// Where one pane was drawn and how much of it showed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PaneGeometry {
    /// The pane, border included: where the wheel and a click find it.
    pub area: Rect,
    /// Where its rows are, below any heading: where a click picks a row.
    pub rows: Rect,
    /// How many of its rows were shown: what a page moves.
    pub page: usize,
    /// The first row shown, kept for the next frame so the view moves as little as it can.
    pub offset: usize,
    /// The furthest it can scroll with its text and width.
    pub max: usize,
}

impl PaneGeometry {
    /// A list whose rows are `rows` (inside `area`, below any heading), scrolled from the last
    /// frame's `offset` only as far as keeps `selected` in view.
    pub fn list(area: Rect, rows: Rect, offset: usize, selected: usize) -> Self {
        let page = usize::from(rows.height);
        Self {
            area,
            rows,
            page,
            offset: keep_in_view(offset, selected, page),
            max: 0,
        }
    }
}

/// One value per pane of the app.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Panes<T> {
    /// The skill list.
    pub list: T,
    pub detail: T,
    /// The `SKILL.md` preview.
    pub preview: T,
    /// The roots screen's table.
    pub roots: T,
    /// The changed screen's table.
    pub changed: T,
    pub help: T,
    /// The diff's rows, in the diff view or in an import's replacements.
    pub diff: T,
    /// The import picker's rows.
    pub picker: T,
    /// An import's preview of the bundle.
    pub bundle: T,
    /// An import's destinations.
    pub destination: T,
    /// A skill's history.
    pub history: T,
    /// The budget view's skills of the agent under the cursor.
    pub budget: T,
    /// The viewer's list of a skill's files, or the file read in it.
    pub viewer: T,
}

/// The geometry of every pane, as the app keeps it between frames.
pub type Geometry = Panes<PaneGeometry>;

/// What one frame laid out: the panes it drew (`None` for those not on screen), and the
/// preview wrapped anew when its text or the pane's width changed since the last one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Laid {
    pub panes: Panes<Option<PaneGeometry>>,
    pub wrapped: Option<WrappedPreview>,
}

impl Geometry {
    /// Take in what a frame laid out. A pane that was not drawn showed nothing, so it has no
    /// page and no area; it keeps where it was scrolled to, to open there again.
    pub fn take(&mut self, laid: &Panes<Option<PaneGeometry>>) {
        let pairs = [
            (&mut self.list, laid.list),
            (&mut self.detail, laid.detail),
            (&mut self.preview, laid.preview),
            (&mut self.roots, laid.roots),
            (&mut self.changed, laid.changed),
            (&mut self.help, laid.help),
            (&mut self.diff, laid.diff),
            (&mut self.picker, laid.picker),
            (&mut self.bundle, laid.bundle),
            (&mut self.destination, laid.destination),
            (&mut self.history, laid.history),
            (&mut self.budget, laid.budget),
            (&mut self.viewer, laid.viewer),
        ];
        for (kept, drawn) in pairs {
            *kept = drawn.unwrap_or(PaneGeometry {
                offset: kept.offset,
                ..PaneGeometry::default()
            });
        }
    }
}

/// One line of a `SKILL.md` as the preview draws it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviewLine {
    pub text: String,
    pub kind: LineKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    Frontmatter,
    Heading,
    Body,
}

/// The preview of one skill wrapped to one width, kept until the text or the width changes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WrappedPreview {
    /// Which preview it is ([`App::preview_version`](super::app::App::preview_version)).
    pub version: u64,
    pub width: usize,
    pub lines: Vec<PreviewLine>,
}

/// Where a popup (a question, a prompt, a choice, a summary, the help, a message) goes: centred
/// in `within`, the body between the header and the status line, at most `columns` wide and
/// `rows` high and never larger than the body. Every popup is placed here, so none covers the
/// header, the status line or the footer's keys, whatever the terminal's size.
pub fn popup(within: Rect, columns: u16, rows: u16) -> Rect {
    let width = columns.min(within.width);
    let height = rows.min(within.height);
    Rect {
        x: within.x + (within.width - width) / 2,
        y: within.y + (within.height - height) / 2,
        width,
        height,
    }
}

/// The first row to show so that `selected` is on screen, moving as little as possible from
/// `offset`.
pub fn keep_in_view(offset: usize, selected: usize, rows: usize) -> usize {
    if rows == 0 {
        return offset;
    }
    if selected < offset {
        selected
    } else if selected >= offset + rows {
        selected + 1 - rows
    } else {
        offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_stays_in_view() {
        assert_eq!(keep_in_view(0, 3, 10), 0);
        assert_eq!(keep_in_view(0, 10, 10), 1);
        assert_eq!(keep_in_view(5, 2, 10), 2);
        assert_eq!(keep_in_view(5, 14, 10), 5);
        assert_eq!(keep_in_view(5, 20_000, 10), 19_991);
    }

    /// Whatever is asked for, at any size, the popup lies inside the body, centred.
    #[test]
    fn a_popup_never_leaves_the_body() {
        for (w, h) in [
            (60u16, 15u16),
            (80, 24),
            (120, 40),
            (200, 50),
            (1, 1),
            (0, 0),
        ] {
            let body = Rect::new(0, 1, w, h.saturating_sub(3));
            for (columns, rows) in [(84, 40), (72, 10), (64, 9), (0, 0), (u16::MAX, u16::MAX)] {
                let at = popup(body, columns, rows);
                assert_eq!(body.union(at), body, "{w}x{h}, {columns}x{rows}: {at:?}");
                assert_eq!(at.width, columns.min(body.width));
                assert_eq!(at.height, rows.min(body.height));
                let (left, right) = (at.x - body.x, body.right() - at.right());
                assert!(left.abs_diff(right) <= 1, "{at:?} in {body:?}");
            }
        }
    }

    #[test]
    fn a_pane_not_drawn_keeps_only_its_offset() {
        let drawn = PaneGeometry {
            area: Rect::new(0, 1, 30, 20),
            rows: Rect::new(1, 3, 28, 17),
            page: 17,
            offset: 40,
            max: 0,
        };
        let mut geometry = Geometry::default();
        geometry.take(&Panes {
            list: Some(drawn),
            help: Some(PaneGeometry {
                page: 10,
                max: 7,
                ..PaneGeometry::default()
            }),
            ..Panes::default()
        });
        assert_eq!(geometry.list, drawn);
        assert_eq!(geometry.help.max, 7);
        geometry.take(&Panes::default());
        assert_eq!(
            geometry.list,
            PaneGeometry {
                offset: 40,
                ..PaneGeometry::default()
            }
        );
        assert_eq!(geometry.help, PaneGeometry::default());
    }
}
