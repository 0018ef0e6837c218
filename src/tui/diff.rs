//! A diff as the app shows it: the rows of a unified diff made display-safe, each changed line
//! split into its unchanged and changed words; the changed files with their +/- counts; and
//! where each file and each hunk starts, for the keys that jump between them. Built on a
//! worker from the domain's diff model ([`crate::snapshot::diff`]); the UI thread only draws
//! the rows on screen.

use std::path::PathBuf;
use std::time::Duration;

use crate::snapshot::diff::{self, Body, LineKind, Row, SkillDiff, Status};

use crate::text::sanitize;

/// What a diff compares the skill with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Against {
    /// A snapshot, by id, taken this long before the diff was made.
    Snapshot { id: String, age: Option<Duration> },
    /// The untouched copy its installer keeps, at this (shown) folder.
    Pristine(String),
    /// What an import would write over it.
    Import,
    /// Not the files now: one snapshot (`old`) against a later one (`new`), from the history.
    Between { old: String, new: String },
    /// An update's conflict: the file here against the new upstream's.
    Upstream,
}

/// A diff, ready to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffView {
    /// The skill's name.
    pub name: String,
    /// Its folder, for the keys that act on it; never shown as it is.
    pub dir: PathBuf,
    pub shown_dir: String,
    pub against: Against,
    pub files: Vec<FileLine>,
    pub rows: Vec<DiffRow>,
    /// The row of each hunk header, in order.
    pub hunks: Vec<usize>,
    pub added: usize,
    pub removed: usize,
}

/// One changed file in the list beside the diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileLine {
    pub path: String,
    pub mark: FileMark,
    pub added: usize,
    pub removed: usize,
    /// The row its diff starts at.
    pub row: usize,
}

/// How a file changed, as its one-letter mark says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileMark {
    Added,
    Removed,
    Modified,
    /// Not text on one side or both, or too large to diff by lines.
    Binary,
    /// Only its executable bit.
    Mode,
}

impl FileMark {
    pub fn letter(self) -> &'static str {
        match self {
            FileMark::Added => "A",
            FileMark::Removed => "D",
            FileMark::Modified => "M",
            FileMark::Binary => "B",
            FileMark::Mode => "X",
        }
    }
}

/// One row of the diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffRow {
    pub kind: RowKind,
    /// The text in parts, each marked when it is a changed word of a changed line; a line of
    /// a hunk without its sign, which its kind gives ([`RowKind::sign`]).
    pub parts: Vec<(String, bool)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// The heading of one skill's diff, when a view holds several (an import's replacements).
    Section,
    /// About the whole diff: frontmatter keys that changed, a truncated snapshot.
    Note,
    /// `--- a/path` and `+++ b/path`.
    File,
    /// What changed in a file whose lines are not shown.
    Summary,
    Hunk,
    Context,
    Removed,
    Added,
    NoNewline,
}

impl RowKind {
    /// The mark a unified diff puts before a line of a hunk.
    pub fn sign(self) -> Option<char> {
        match self {
            RowKind::Context => Some(' '),
            RowKind::Removed => Some('-'),
            RowKind::Added => Some('+'),
            _ => None,
        }
    }
}

impl DiffRow {
    fn plain(kind: RowKind, text: &str) -> Self {
        Self {
            kind,
            parts: vec![(sanitize::line(text), false)],
        }
    }
}

impl DiffView {
    /// An empty view of the skill `name` at `dir` compared with `against`.
    pub fn new(name: &str, dir: PathBuf, shown_dir: String, against: Against) -> Self {
        Self {
            name: sanitize::name(name),
            dir,
            shown_dir,
            against,
            files: Vec::new(),
            rows: Vec::new(),
            hunks: Vec::new(),
            added: 0,
            removed: 0,
        }
    }

    /// A heading row: the start of one skill's diff, when the view holds several.
    pub fn heading(&mut self, text: &str) {
        self.rows.push(DiffRow::plain(RowKind::Section, text));
    }

    /// Add the rows of `diff`, under `heading` when the view holds more than one skill's.
    pub fn push(&mut self, heading: Option<&str>, diff: &SkillDiff) {
        if let Some(heading) = heading {
            self.heading(heading);
        }
        let (added, removed) = diff.counts();
        self.added += added;
        self.removed += removed;
        for row in diff::rows(diff) {
            match row {
                Row::OldFile(file) => {
                    self.files.push(FileLine {
                        path: sanitize::name(&file.path),
                        mark: mark(file),
                        added: file.added,
                        removed: file.removed,
                        row: self.rows.len(),
                    });
                    self.rows.push(DiffRow::plain(RowKind::File, &row.text()));
                }
                Row::NewFile(_) => self.rows.push(DiffRow::plain(RowKind::File, &row.text())),
                Row::Note(text) => self.rows.push(DiffRow::plain(RowKind::Note, &text)),
                Row::Summary(text) => self.rows.push(DiffRow::plain(RowKind::Summary, &text)),
                Row::Hunk(hunk) => {
                    self.hunks.push(self.rows.len());
                    self.rows
                        .push(DiffRow::plain(RowKind::Hunk, &hunk.header()));
                }
                Row::NoNewline => self
                    .rows
                    .push(DiffRow::plain(RowKind::NoNewline, &row.text())),
                Row::Line(line) => {
                    let kind = match line.kind {
                        LineKind::Context => RowKind::Context,
                        LineKind::Removed => RowKind::Removed,
                        LineKind::Added => RowKind::Added,
                    };
                    let mut pieces: Vec<(&str, bool)> = Vec::new();
                    let mut at = 0;
                    for range in &highlights(&line.text, &line.changed) {
                        pieces.push((&line.text[at..range.start], false));
                        pieces.push((&line.text[range.clone()], true));
                        at = range.end;
                    }
                    pieces.push((&line.text[at..], false));
                    pieces.retain(|(text, _)| !text.is_empty());
                    // Tab stops count from the start of the file's line, not of the sign.
                    self.rows.push(DiffRow {
                        kind,
                        parts: sanitize::parts(pieces),
                    });
                }
            }
        }
    }

    /// Add `text` as lines of context under `heading`: a file shown whole (an update's
    /// conflict with both sides kept between conflict markers).
    pub fn text(&mut self, heading: &str, text: &str) {
        self.heading(heading);
        for line in sanitize::lines(text) {
            self.rows.push(DiffRow {
                kind: RowKind::Context,
                parts: vec![(line, false)],
            });
        }
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The index in `files` of the file whose diff shows at `row`.
    pub fn file_at(&self, row: usize) -> Option<usize> {
        self.files.iter().rposition(|f| f.row <= row)
    }

    /// The index in `hunks` of the hunk `row` is in: the last one starting at or before it,
    /// in the same file.
    pub fn hunk_at(&self, row: usize) -> Option<usize> {
        let hunk = self.hunks.iter().rposition(|&start| start <= row)?;
        let file = self.file_at(row).map(|f| self.files[f].row);
        (file <= Some(self.hunks[hunk])).then_some(hunk)
    }

    /// Where the keys are, for the title: `hunk 2/5 · file 1/3`; a count of what is not
    /// reached yet.
    pub fn position(&self, row: usize) -> String {
        let at = |index: Option<usize>, total: usize, what: &str| match index {
            Some(i) => format!("{what} {}/{total}", i + 1),
            None => crate::text::human::count(total, what),
        };
        format!(
            "{} · {}",
            at(self.hunk_at(row), self.hunks.len(), "hunk"),
            at(self.file_at(row), self.files.len(), "file")
        )
    }
}

/// The changed words of a line as they are highlighted: words changed with only spaces
/// between them as one stretch, and nothing when the whole line is new (it is all changed, and
/// its colour says so already).
fn highlights(text: &str, changed: &[std::ops::Range<usize>]) -> Vec<std::ops::Range<usize>> {
    let mut merged: Vec<std::ops::Range<usize>> = Vec::new();
    for range in changed {
        match merged.last_mut() {
            Some(last) if text[last.end..range.start].trim().is_empty() => last.end = range.end,
            _ => merged.push(range.clone()),
        }
    }
    let whole = text.len() - text.trim_start().len()..text.trim_end().len();
    match merged.as_slice() {
        [only] if only.start <= whole.start && only.end >= whole.end => Vec::new(),
        _ => merged,
    }
}

fn mark(file: &diff::FileDiff) -> FileMark {
    match (file.status(), &file.body) {
        (Status::Added, _) => FileMark::Added,
        (Status::Removed, _) => FileMark::Removed,
        (_, Body::Binary | Body::TooLarge(_)) => FileMark::Binary,
        (_, Body::SameContent) => FileMark::Mode,
        _ => FileMark::Modified,
    }
}

/// Where a jump from `at` lands among `starts` (rows in order): the next start after `at`, or
/// the last one before it; `None` when there is none that way. The row landed on is kept as
/// it is, even past the furthest the diff scrolls (the last hunks of a diff cannot be its top
/// line): the view draws from as far as it scrolls and marks the hunk and file landed on, so
/// the keys reach the last of each.
pub fn jump(starts: impl IntoIterator<Item = usize>, at: usize, forward: bool) -> Option<usize> {
    let mut starts = starts.into_iter();
    if forward {
        starts.find(|&row| row > at)
    } else {
        starts.filter(|&row| row < at).last()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::diff::{Blob, FileDiff, hunks, lines_of};

    fn text_file(path: &str, old: &str, new: &str) -> FileDiff {
        let hunks = hunks(old, new);
        let blob = Blob {
            size: 1,
            sha256: "00".repeat(32),
            executable: false,
        };
        FileDiff {
            path: path.to_owned(),
            old: Some(blob.clone()),
            new: Some(blob),
            added: lines_of(&hunks, LineKind::Added),
            removed: lines_of(&hunks, LineKind::Removed),
            body: Body::Hunks(hunks),
        }
    }

    #[test]
    fn changed_words_are_parts_of_their_line_and_files_and_hunks_are_found() {
        let diff = SkillDiff {
            files: vec![
                text_file("a.md", "one\ttwo\n", "one\tTWO\n"),
                text_file(
                    "b\u{1b}[31m.md",
                    &"x\n".repeat(20),
                    &format!("y\n{}z\n", "x\n".repeat(18)),
                ),
            ],
            frontmatter: None,
            truncated: false,
            not_compared: Vec::new(),
        };
        let mut view = DiffView::new(
            "demo",
            PathBuf::from("/s/demo"),
            "~/s/demo".to_owned(),
            Against::Import,
        );
        view.push(None, &diff);
        assert_eq!((view.added, view.removed), (3, 3));
        let paths: Vec<&str> = view.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["a.md", "b\\u{1b}[31m.md"]);
        let added = view.rows.iter().find(|r| r.kind == RowKind::Added).unwrap();
        // The tab after "one" is expanded from the start of the file's line, not the sign's.
        assert_eq!(added.kind.sign(), Some('+'));
        assert_eq!(
            added.parts,
            [("one ".to_owned(), false), ("TWO".to_owned(), true)]
        );
        assert_eq!(view.hunks.len(), 3);
        assert_eq!(view.file_at(0), Some(0));
        assert_eq!(view.file_at(view.files[1].row + 1), Some(1));
        assert_eq!(
            jump(view.hunks.iter().copied(), 0, true),
            Some(view.hunks[0])
        );
        assert_eq!(
            jump(view.hunks.iter().copied(), view.hunks[2], false),
            Some(view.hunks[1])
        );
        assert_eq!(jump(view.hunks.iter().copied(), view.hunks[2], true), None);
    }

    #[test]
    fn words_changed_side_by_side_are_one_stretch_and_a_new_line_has_none() {
        let text = "Are the tests able to fail?";
        let words = [0..3, 4..7, 8..13, 14..18, 19..21];
        assert_eq!(highlights(text, &words), vec![(0..21)]);
        assert_eq!(highlights(text, &[0..3, 14..18]), [0..3, 14..18]);
        let whole = std::iter::once(0..9).collect::<Vec<_>>();
        assert!(highlights("- [ ] new", &whole).is_empty());
        let whole = std::iter::once(2..5).collect::<Vec<_>>();
        assert!(highlights("  new  ", &whole).is_empty());
    }
}
