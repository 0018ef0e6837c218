//! The bounds of a diff, all in one place: how much of a skill is compared line by line, and
//! how long that may take. A file past a bound is summarised by its size and digest, as a
//! binary file is, and the rest of the skill still diffs; so whatever a skill holds, a diff
//! costs at most about these in memory and in time, in the command line and the app alike.

use std::fmt;
use std::time::Duration;

use crate::text::human::size;

/// The bounds one diff works within.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes one side of a file may hold to be read into memory and line-diffed.
    pub file_bytes: u64,
    /// The most lines one side of a file may hold to be line-diffed.
    pub file_lines: usize,
    /// The longest line a file may hold to be line-diffed: a line is a row on screen, and a
    /// word diff of two huge lines costs what a diff of two files does.
    pub line_bytes: usize,
    /// The most bytes, both sides of every file together, that one diff line-diffs.
    pub diff_bytes: u64,
    /// The most lines, over every file's hunks, that one diff shows.
    pub diff_lines: usize,
    /// How long one diff may go on line-diffing files; files it reaches later are summarised.
    pub diff_time: Duration,
    /// How long the line diff of one file may search for the smallest diff before it settles
    /// for a larger one: a file rewritten throughout would otherwise cost seconds, for a diff
    /// that reads no better.
    pub line_diff_time: Duration,
    /// How long the word diffs of one file's changed lines may take, together; past it, and
    /// past [`Limits::word_diffs`] lines, only the changed middle of each line, between the
    /// words it shares at its start and its end, is marked.
    pub word_diff_time: Duration,
    /// How many replaced lines of one file are word-diffed against their counterparts. A
    /// screen is fifty lines: this is many screens.
    pub word_diffs: usize,
    /// The most lines a replaced block of unequal sides may hold for its words to be compared
    /// as one text; a larger one shows its lines without word highlights.
    pub inline_block: usize,
}

/// The bounds every diff works within. The largest file diffed line by line is twice the
/// 1 MiB file the benchmarks rewrite throughout (`BENCHMARKS.md`), which takes 41 ms.
pub const LIMITS: Limits = Limits {
    file_bytes: 2 << 20,
    file_lines: 30_000,
    line_bytes: 64 << 10,
    diff_bytes: 16 << 20,
    diff_lines: 100_000,
    diff_time: Duration::from_secs(5),
    line_diff_time: Duration::from_millis(20),
    word_diff_time: Duration::from_millis(50),
    word_diffs: 500,
    inline_block: 200,
};

/// The bound a file was past, so it is summarised rather than diffed line by line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// A side is over [`Limits::file_bytes`].
    FileBytes,
    /// A side is over [`Limits::file_lines`].
    FileLines,
    /// A side holds a line over [`Limits::line_bytes`].
    LineBytes,
    /// The diff had line-diffed [`Limits::diff_bytes`] already.
    DiffBytes,
    /// The diff showed [`Limits::diff_lines`] already.
    DiffLines,
    /// The diff had run for [`Limits::diff_time`] already.
    DiffTime,
}

impl fmt::Display for Bound {
    /// What the bound is, as the summary of a file past it says: `over 2.0 MiB`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let limits = &LIMITS;
        match self {
            Bound::FileBytes => write!(f, "over {} a side", size(limits.file_bytes)),
            Bound::FileLines => write!(f, "over {} lines a side", limits.file_lines),
            Bound::LineBytes => write!(f, "a line over {}", size(limits.line_bytes as u64)),
            Bound::DiffBytes => write!(
                f,
                "the diff compared {} of text already",
                size(limits.diff_bytes)
            ),
            Bound::DiffLines => {
                write!(f, "the diff showed {} lines already", limits.diff_lines)
            }
            Bound::DiffTime => write!(
                f,
                "the diff ran for {} s already",
                limits.diff_time.as_secs()
            ),
        }
    }
}
