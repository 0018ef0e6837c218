//! What changed between a snapshot and the skill folder on disk, as a model that the command
//! line prints and the terminal app draws: per file, added, removed or modified; text files as
//! hunks of lines with context, each changed line carrying the ranges of the words that changed
//! in it; binary and oversized files summarised by size and digest; executable-bit changes;
//! and the frontmatter keys that changed.
//!
//! Both sides are listed by [`walk`](super::walk), so a folder that digests like its snapshot
//! shows no difference, and a difference always changes the digest.

mod frontmatter;
mod rows;

use std::io::Read;
use std::ops::Range;
use std::path::Path;
use std::time::{Duration, Instant};

use similar::{Algorithm, ChangeTag, DiffOp, InlineChange, TextDiff};

use crate::bundle::BundledSkill;
use crate::fs::{At, Links, open_regular};
use crate::install;
use crate::skill::{SKILL_FILE, manifest_text};

use super::digest::sha256_hex;
use super::walk::{Entry, Listing};
use super::{Snapshot, SnapshotError};

pub use frontmatter::FrontmatterChange;
pub use rows::{Row, rows};

/// Lines of unchanged text shown around each change.
pub const CONTEXT_LINES: usize = 3;

/// Files larger than this are compared by digest only: a line diff of them would be slow and
/// unreadable.
pub const MAX_TEXT_DIFF_BYTES: u64 = 8 << 20;

/// How long the line diff of one file may search for the smallest diff before it settles for
/// a larger one: a file rewritten throughout would otherwise cost seconds, for a diff that
/// reads no better.
const DIFF_DEADLINE: Duration = Duration::from_millis(20);

/// How many replaced lines of one file are word-diffed against their counterparts; past that
/// (a file rewritten throughout) only the changed middle of each line, between the words it
/// shares at its start and its end, is marked. A screen is fifty lines: this is many screens.
const MAX_WORD_DIFFS: usize = 500;

/// The most lines a replaced block of unequal sides may hold for its words to be compared as
/// one text; a larger one shows its lines without word highlights.
const MAX_INLINE_BLOCK: usize = 200;

/// Everything that differs between a snapshot and the folder now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillDiff {
    /// The changed files, sorted by path.
    pub files: Vec<FileDiff>,
    /// The frontmatter keys that changed, when `SKILL.md` did.
    pub frontmatter: Option<FrontmatterChange>,
    /// The snapshot kept only `SKILL.md` (its folder was over the copy bound), so only that
    /// file is compared.
    pub truncated: bool,
}

impl SkillDiff {
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Lines added and removed over all files.
    pub fn counts(&self) -> (usize, usize) {
        self.files
            .iter()
            .fold((0, 0), |(a, r), f| (a + f.added, r + f.removed))
    }
}

/// One side of a changed file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blob {
    pub size: u64,
    /// Hex SHA-256 of the content.
    pub sha256: String,
    pub executable: bool,
}

/// One file that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileDiff {
    /// The path below the skill folder, `/`-separated.
    pub path: String,
    /// The file in the snapshot; `None` when it was added since.
    pub old: Option<Blob>,
    /// The file on disk; `None` when it was removed since.
    pub new: Option<Blob>,
    pub body: Body,
    /// Lines added and removed: the hunks' counts, or a whole added or removed text file's.
    pub added: usize,
    pub removed: usize,
}

/// How a file differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Added,
    Removed,
    Modified,
}

impl FileDiff {
    pub fn status(&self) -> Status {
        match (&self.old, &self.new) {
            (None, _) => Status::Added,
            (_, None) => Status::Removed,
            _ => Status::Modified,
        }
    }

    /// The executable bit before and after, when it changed.
    pub fn mode_change(&self) -> Option<(bool, bool)> {
        match (&self.old, &self.new) {
            (Some(old), Some(new)) if old.executable != new.executable => {
                Some((old.executable, new.executable))
            }
            _ => None,
        }
    }
}

/// What is shown of a changed file's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// A modified text file: its changes with context.
    Hunks(Vec<Hunk>),
    /// An added or removed file, summarised: its line count when it is text.
    Whole { lines: Option<usize> },
    /// A modified file that is not text on one side or both.
    Binary,
    /// A modified text file over [`MAX_TEXT_DIFF_BYTES`].
    TooLarge,
    /// Only the executable bit changed.
    SameContent,
}

/// A run of changes with the lines around them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hunk {
    /// First line of the hunk in the snapshot, counted from 1 (0 for an empty range).
    pub old_start: usize,
    pub old_len: usize,
    pub new_start: usize,
    pub new_len: usize,
    pub lines: Vec<Line>,
}

impl Hunk {
    /// `@@ -1,4 +1,5 @@`, as unified diffs head a hunk.
    pub fn header(&self) -> String {
        format!(
            "@@ -{},{} +{},{} @@",
            self.old_start, self.old_len, self.new_start, self.new_len
        )
    }
}

/// Whether a line is shared, only in the snapshot, or only on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    Context,
    Removed,
    Added,
}

impl LineKind {
    /// The mark a unified diff puts before the line.
    pub fn sign(self) -> char {
        match self {
            LineKind::Context => ' ',
            LineKind::Removed => '-',
            LineKind::Added => '+',
        }
    }
}

/// One line of a hunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub kind: LineKind,
    /// Its number in the snapshot, counted from 1, unless it was added.
    pub old_number: Option<usize>,
    /// Its number on disk, counted from 1, unless it was removed.
    pub new_number: Option<usize>,
    /// The text, without its line ending.
    pub text: String,
    /// Byte ranges of `text` that changed against the line it replaces or is replaced by.
    pub changed: Vec<Range<usize>>,
    /// The last line of its file, with no newline after it.
    pub no_newline: bool,
}

/// Compare `snapshot` with the skill folder at `dir` as it is now. A folder that is gone, or
/// no longer a skill, compares as empty: every file removed.
///
/// # Errors
/// When a file of either side cannot be read.
pub fn diff(snapshot: &Snapshot, dir: &Path) -> Result<SkillDiff, SnapshotError> {
    let old = Listing::read(&snapshot.files())?;
    let mut new = listed_or_gone(dir)?;
    if snapshot.info.truncated {
        new.retain(|f| f.rel == SKILL_FILE);
    }
    diff_files(
        &on_disk(&old.files),
        &on_disk(&new),
        snapshot.info.truncated,
    )
}

/// Compare an untouched copy of a skill that its installer keeps elsewhere (a marketplace
/// clone's) with the skill folder at `dir`, both listed as a snapshot lists them.
///
/// # Errors
/// When `pristine` is not a skill, or a file of either side cannot be read.
pub fn between(pristine: &Path, dir: &Path) -> Result<SkillDiff, SnapshotError> {
    let old = Listing::read(pristine)?;
    let new = listed_or_gone(dir)?;
    diff_files(&on_disk(&old.files), &on_disk(&new), false)
}

/// Compare the skill folder at `dir` with what installing `skill` over it would write: what a
/// replacement would change, shown before it is made.
///
/// # Errors
/// When a file of the folder cannot be read.
pub fn before_replacing(dir: &Path, skill: &BundledSkill) -> Result<SkillDiff, ReplaceDiffError> {
    let old = listed_or_gone(dir)?;
    let mut sealed = install::sealed(skill)?;
    sealed.sort_by(|a, b| a.path.cmp(b.path));
    let new: Vec<Side<'_>> = sealed
        .iter()
        .map(|file| Side::Memory {
            rel: file.path,
            bytes: &file.bytes,
            executable: file.executable,
        })
        .collect();
    Ok(diff_files(&on_disk(&old), &new, false)?)
}

/// Why the diff before a replacement could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReplaceDiffError {
    #[error(transparent)]
    Read(#[from] SnapshotError),
    #[error(transparent)]
    Seal(#[from] install::InstallError),
}

/// The files of the folder at `dir`; none when it is gone or no longer a skill.
fn listed_or_gone(dir: &Path) -> Result<Vec<Entry>, SnapshotError> {
    match Listing::read(dir) {
        Ok(listing) => Ok(listing.files),
        Err(SnapshotError::NotSkill(_)) => Ok(Vec::new()),
        Err(SnapshotError::Read { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            Ok(Vec::new())
        }
        Err(error) => Err(error),
    }
}

/// One file of one side of a diff: on disk, or in memory (what an install would write).
enum Side<'a> {
    Disk(&'a Entry),
    Memory {
        rel: &'a str,
        bytes: &'a [u8],
        executable: bool,
    },
}

impl Side<'_> {
    fn rel(&self) -> &str {
        match self {
            Side::Disk(entry) => &entry.rel,
            Side::Memory { rel, .. } => rel,
        }
    }

    fn load(&self) -> Result<Loaded, SnapshotError> {
        match self {
            Side::Disk(entry) => Loaded::read(entry),
            Side::Memory {
                bytes, executable, ..
            } => Ok(Loaded::held(bytes, *executable)),
        }
    }
}

fn on_disk(entries: &[Entry]) -> Vec<Side<'_>> {
    entries.iter().map(Side::Disk).collect()
}

/// Compare two sides, each sorted by path.
fn diff_files(
    old: &[Side<'_>],
    new: &[Side<'_>],
    truncated: bool,
) -> Result<SkillDiff, SnapshotError> {
    let mut files = Vec::new();
    let mut frontmatter = None;
    let (mut o, mut n) = (old.iter().peekable(), new.iter().peekable());
    loop {
        let pair = match (o.peek(), n.peek()) {
            (None, None) => break,
            (Some(a), Some(b)) if a.rel() == b.rel() => (o.next(), n.next()),
            (Some(a), Some(b)) if a.rel() < b.rel() => (o.next(), None),
            (Some(_), None) => (o.next(), None),
            _ => (None, n.next()),
        };
        let old = pair.0.map(Side::load).transpose()?;
        let new = pair.1.map(Side::load).transpose()?;
        let path = pair
            .0
            .or(pair.1)
            .map(|side| side.rel().to_owned())
            .unwrap_or_default();
        if path == SKILL_FILE
            && let (Some(old), Some(new)) = (&old, &new)
            && old.blob.sha256 != new.blob.sha256
        {
            frontmatter = Some(FrontmatterChange::between(old.text(), new.text()));
        }
        if let Some(file) = compare(path, old, new) {
            files.push(file);
        }
    }
    Ok(SkillDiff {
        files,
        frontmatter,
        truncated,
    })
}

/// One side of a file, read.
struct Loaded {
    blob: Blob,
    /// The content, when it is small enough to diff.
    bytes: Option<Vec<u8>>,
}

impl Loaded {
    fn read(entry: &Entry) -> Result<Self, SnapshotError> {
        if entry.size > MAX_TEXT_DIFF_BYTES {
            let copied = super::digest::copy_hashing(entry, None)?;
            return Ok(Self {
                blob: Blob {
                    size: copied.bytes,
                    sha256: crate::record::lower_hex(&copied.hash),
                    executable: entry.executable,
                },
                bytes: None,
            });
        }
        let mut bytes = Vec::with_capacity(usize::try_from(entry.size).unwrap_or(0));
        open_regular(&entry.source, Links::Refuse)
            .and_then(|file| file.take(MAX_TEXT_DIFF_BYTES + 1).read_to_end(&mut bytes))
            .at(&entry.source, SnapshotError::read)?;
        Ok(Self {
            blob: Blob {
                size: bytes.len() as u64,
                sha256: sha256_hex(&bytes),
                executable: entry.executable,
            },
            bytes: Some(bytes),
        })
    }

    /// A file held in memory.
    fn held(bytes: &[u8], executable: bool) -> Self {
        Self {
            blob: Blob {
                size: bytes.len() as u64,
                sha256: sha256_hex(bytes),
                executable,
            },
            bytes: (bytes.len() as u64 <= MAX_TEXT_DIFF_BYTES).then(|| bytes.to_vec()),
        }
    }

    /// The content as text, when it is text and small enough to diff.
    fn text(&self) -> Option<&str> {
        self.bytes
            .as_deref()
            .filter(|b| b.len() as u64 <= MAX_TEXT_DIFF_BYTES)
            .and_then(|b| manifest_text(b).ok())
    }
}

fn compare(path: String, old: Option<Loaded>, new: Option<Loaded>) -> Option<FileDiff> {
    let line_count = |side: &Loaded| side.text().map(|t| t.lines().count());
    let (body, added, removed) = match (&old, &new) {
        (None, None) => return None,
        (None, Some(new)) => {
            let lines = line_count(new);
            (Body::Whole { lines }, lines.unwrap_or(0), 0)
        }
        (Some(old), None) => {
            let lines = line_count(old);
            (Body::Whole { lines }, 0, lines.unwrap_or(0))
        }
        (Some(a), Some(b)) if a.blob == b.blob => return None,
        (Some(a), Some(b)) if a.blob.sha256 == b.blob.sha256 => (Body::SameContent, 0, 0),
        (Some(a), Some(b)) => match (a.text(), b.text()) {
            (Some(old), Some(new)) => {
                let hunks = hunks(old, new);
                let (added, removed) = (
                    lines_of(&hunks, LineKind::Added),
                    lines_of(&hunks, LineKind::Removed),
                );
                (Body::Hunks(hunks), added, removed)
            }
            _ if a.bytes.is_none() || b.bytes.is_none() => (Body::TooLarge, 0, 0),
            _ => (Body::Binary, 0, 0),
        },
    };
    Some(FileDiff {
        path,
        old: old.map(|o| o.blob),
        new: new.map(|n| n.blob),
        body,
        added,
        removed,
    })
}

/// How many lines of `kind` the hunks hold: a file's added or removed count.
pub fn lines_of(hunks: &[Hunk], kind: LineKind) -> usize {
    hunks
        .iter()
        .flat_map(|h| &h.lines)
        .filter(|l| l.kind == kind)
        .count()
}

/// The hunks of a line diff of two texts, with word-level changes inside replaced lines.
pub fn hunks(old: &str, new: &str) -> Vec<Hunk> {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .deadline(Instant::now() + DIFF_DEADLINE)
        .diff_lines(old, new);
    let mut word_diffs = MAX_WORD_DIFFS;
    diff.grouped_ops(CONTEXT_LINES)
        .iter()
        .map(|group| hunk(&diff, group, &mut word_diffs))
        .collect()
}

fn hunk<'a>(diff: &'a TextDiff<'a, 'a, 'a, str>, group: &[DiffOp], word_diffs: &mut usize) -> Hunk {
    let (Some(first), Some(last)) = (group.first(), group.last()) else {
        return Hunk {
            old_start: 0,
            old_len: 0,
            new_start: 0,
            new_len: 0,
            lines: Vec::new(),
        };
    };
    let old = first.old_range().start..last.old_range().end;
    let new = first.new_range().start..last.new_range().end;
    let start = |range: &Range<usize>| {
        if range.is_empty() {
            range.start
        } else {
            range.start + 1
        }
    };
    let mut lines = Vec::new();
    for op in group {
        match *op {
            // As many lines replaced as replace them: each line is word-diffed against its
            // counterpart, which is what a reader compares, and costs little however many.
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } if old_len == new_len => {
                let mut added = Vec::with_capacity(new_len);
                for k in 0..old_len {
                    let pair = DiffOp::Replace {
                        old_index: old_index + k,
                        old_len: 1,
                        new_index: new_index + k,
                        new_len: 1,
                    };
                    let mut pair_lines: Vec<Line> = if *word_diffs > 0 {
                        *word_diffs -= 1;
                        diff.iter_inline_changes_deadline(&pair, None)
                            .map(|change| line_of(&change))
                            .collect()
                    } else {
                        diff.iter_changes(&pair)
                            .map(|change| line_of(&InlineChange::from(change)))
                            .collect()
                    };
                    if let [old, new] = &mut pair_lines[..]
                        && old.changed.is_empty()
                        && new.changed.is_empty()
                    {
                        mark_edges(old, new);
                    }
                    for line in pair_lines {
                        if line.kind == LineKind::Added {
                            added.push(line);
                        } else {
                            lines.push(line);
                        }
                    }
                }
                lines.extend(added);
            }
            DiffOp::Replace {
                old_len, new_len, ..
            } if old_len + new_len > MAX_INLINE_BLOCK => {
                lines.extend(
                    diff.iter_changes(op)
                        .map(|change| line_of(&InlineChange::from(change))),
                );
            }
            _ => lines.extend(
                diff.iter_inline_changes_deadline(op, None)
                    .map(|change| line_of(&change)),
            ),
        }
    }
    Hunk {
        old_start: start(&old),
        old_len: old.len(),
        new_start: start(&new),
        new_len: new.len(),
        lines,
    }
}

/// Mark a line and the one that replaced it between the words they share at the start and at
/// the end: the cheap word diff, linear in the lines' length.
fn mark_edges(old: &mut Line, new: &mut Line) {
    let (a, b) = (old.text.as_str(), new.text.as_str());
    if a == b {
        return;
    }
    let boundary = |c: char| !(c.is_alphanumeric() || c == '_');
    let mut prefix = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((at, _), _)| at);
    while prefix > 0 && !a[..prefix].ends_with(boundary) {
        prefix = a[..prefix]
            .char_indices()
            .next_back()
            .map_or(0, |(at, _)| at);
    }
    let mut suffix: usize = a[prefix..]
        .chars()
        .rev()
        .zip(b[prefix..].chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum();
    while suffix > 0 && !a[a.len() - suffix..].starts_with(boundary) {
        suffix -= a[a.len() - suffix..]
            .chars()
            .next()
            .map_or(suffix, char::len_utf8);
    }
    for line in [old, new] {
        let end = line.text.len() - suffix;
        line.changed = if end > prefix {
            std::iter::once(prefix..end).collect()
        } else {
            Vec::new()
        };
    }
}

/// One line of the model from a change with its emphasised parts.
fn line_of(change: &InlineChange<'_, str>) -> Line {
    let kind = match change.tag() {
        ChangeTag::Equal => LineKind::Context,
        ChangeTag::Delete => LineKind::Removed,
        ChangeTag::Insert => LineKind::Added,
    };
    let mut text = String::new();
    let mut changed: Vec<Range<usize>> = Vec::new();
    for (emphasized, part) in change.iter_strings_lossy() {
        let at = text.len();
        text.push_str(&part);
        if emphasized && kind != LineKind::Context {
            let end = text.trim_end_matches(['\n', '\r']).len().max(at);
            match changed.last_mut() {
                Some(last) if last.end == at => last.end = end,
                _ if end > at => changed.push(at..end),
                _ => {}
            }
        }
    }
    let body = text.trim_end_matches(['\n', '\r']).len();
    text.truncate(body);
    changed.retain(|r| r.start < body);
    Line {
        kind,
        old_number: change.old_index().map(|i| i + 1),
        new_number: change.new_index().map(|i| i + 1),
        text,
        changed,
        no_newline: change.missing_newline(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(hunk: &Hunk) -> String {
        hunk.lines.iter().map(|l| l.kind.sign()).collect()
    }

    #[test]
    fn a_changed_line_is_one_hunk_with_context_and_its_changed_word() {
        let old = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n";
        let new = "one\ntwo\nthree\nfour\nFIVE five\nsix\nseven\neight\n";
        let hunks = hunks(old, new);
        assert_eq!(hunks.len(), 1);
        let hunk = &hunks[0];
        assert_eq!(hunk.header(), "@@ -2,7 +2,7 @@");
        assert_eq!(kinds(hunk), "   -+   ");
        let added = &hunk.lines[4];
        assert_eq!(added.text, "FIVE five");
        assert_eq!(added.new_number, Some(5));
        assert_eq!(added.old_number, None);
        let marked: Vec<&str> = added
            .changed
            .iter()
            .map(|r| &added.text[r.clone()])
            .collect();
        assert_eq!(marked.concat().trim(), "FIVE");
    }

    #[test]
    fn far_apart_changes_are_separate_hunks() {
        let old: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let new = old
            .replace("line 3\n", "line three\n")
            .replace("line 27\n", "");
        let hunks = hunks(&old, &new);
        assert_eq!(hunks.len(), 2);
        assert_eq!(hunks[1].header(), "@@ -24,7 +24,6 @@");
        assert_eq!(kinds(&hunks[1]), "   -   ");
    }

    #[test]
    fn past_the_word_diff_budget_lines_are_marked_between_shared_edges() {
        let old: String = (0..MAX_WORD_DIFFS + 10)
            .map(|i| format!("{i} the quick fox\n"))
            .collect();
        let new = old.replace("quick", "slow");
        let hunks = hunks(&old, &new);
        let last = hunks
            .last()
            .unwrap()
            .lines
            .iter()
            .rev()
            .find(|l| l.kind == LineKind::Added)
            .unwrap();
        assert_eq!(&last.text[last.changed[0].clone()], "slow");
        let removed = hunks
            .last()
            .unwrap()
            .lines
            .iter()
            .rev()
            .find(|l| l.kind == LineKind::Removed)
            .unwrap();
        assert_eq!(&removed.text[removed.changed[0].clone()], "quick");
    }

    #[test]
    fn edges_snap_to_whole_words() {
        let line = |kind, text: &str| Line {
            kind,
            old_number: None,
            new_number: None,
            text: text.to_owned(),
            changed: Vec::new(),
            no_newline: false,
        };
        let (mut old, mut new) = (
            line(LineKind::Removed, "a quack b"),
            line(LineKind::Added, "a quick b"),
        );
        mark_edges(&mut old, &mut new);
        assert_eq!(&new.text[new.changed[0].clone()], "quick");
        let (mut old, mut new) = (
            line(LineKind::Removed, "same"),
            line(LineKind::Added, "same"),
        );
        mark_edges(&mut old, &mut new);
        assert!(new.changed.is_empty());
    }

    #[test]
    fn a_missing_final_newline_is_marked() {
        let hunks = hunks("a\nb\n", "a\nb");
        let last = hunks[0].lines.last().unwrap();
        assert_eq!(last.kind, LineKind::Added);
        assert!(last.no_newline);
    }

    #[test]
    fn an_empty_old_side_starts_at_zero() {
        let hunks = hunks("", "a\n");
        assert_eq!(hunks[0].header(), "@@ -0,0 +1,1 @@");
    }
}
