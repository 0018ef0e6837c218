//! The only state drawing writes: how far each list is scrolled so the cursor stays in view,
//! where each pane was drawn (for the mouse), how much each pane showed (for paging and for the
//! furthest a diff scrolls), and the preview wrapped to the pane's width, kept until the text
//! or the width changes.

use ratatui::layout::Rect;

use super::app::Viewport;

/// Where the last frame put each pane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Areas {
    pub list: Rect,
    /// Where the skill list's rows are, below its heading.
    pub list_rows: Rect,
    pub detail: Rect,
    pub preview: Rect,
    pub roots: Rect,
    pub roots_rows: Rect,
    pub changed: Rect,
    pub changed_rows: Rect,
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

/// The preview of one skill wrapped to one width.
#[derive(Clone, Debug, Default)]
pub struct WrappedPreview {
    /// Which preview it is ([`App::preview_version`](super::app::App::preview_version)).
    pub version: u64,
    pub width: usize,
    pub lines: Vec<PreviewLine>,
}

#[derive(Clone, Debug, Default)]
pub struct ViewState {
    /// The first row of the skill list on screen.
    pub list_offset: usize,
    pub roots_offset: usize,
    pub changed_offset: usize,
    pub picker_offset: usize,
    pub bundle_offset: usize,
    pub destination_offset: usize,
    pub areas: Areas,
    pub viewport: Viewport,
    pub wrapped: WrappedPreview,
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
}
