//! What changed between a snapshot and the skill folder on disk (or a later snapshot), as a
//! model that the command line prints and the terminal app draws: per file, added, removed or
//! modified; text files as hunks of lines with context (an added or removed one as all its
//! lines), each changed line carrying the ranges of the words that changed
//! in it; binary files, and files past a bound of the diff ([`limits`]), summarised by size
//! and digest; executable-bit changes; and the frontmatter keys that changed.
//!
//! Both sides are listed by [`walk`](super::walk), so a folder that digests like its snapshot
//! shows no difference, and a difference always changes the digest. A snapshot's side is
//! checked as it is read ([`Snapshot::kept`], then its digest), so a damaged snapshot is
//! reported as damaged instead of showing a diff against what it never held.

mod frontmatter;
pub mod limits;
mod rows;

use std::io::Read;
use std::ops::Range;
use std::path::Path;
use std::time::Instant;

use sha2::{Digest as _, Sha256};
use similar::{Algorithm, ChangeTag, DiffOp, InlineChange, TextDiff};

use crate::bundle::BundledSkill;
use crate::fs::{At, Links, open_regular};
use crate::install;
use crate::record::lower_hex;
use crate::skill::{SKILL_FILE, manifest_text};

use super::digest::{DigestBuilder, HashBudget, unhashed};
use super::walk::{Entry, LeftOut, Listing};
use super::{Damage, Snapshot, SnapshotDigest, SnapshotError};

pub use frontmatter::FrontmatterChange;
pub use limits::{Bound, LIMITS, Limits};
pub use rows::{Row, rows};

/// Lines of unchanged text shown around each change.
pub const CONTEXT_LINES: usize = 3;

/// Everything that differs between a snapshot and the folder now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillDiff {
    /// The changed files, sorted by path.
    pub files: Vec<FileDiff>,
    /// The frontmatter keys that changed, when `SKILL.md` did.
    pub frontmatter: Option<FrontmatterChange>,
    /// A snapshot compared kept only `SKILL.md` (its folder was over the copy bound), so only
    /// that file is compared.
    pub truncated: bool,
    /// What the folder holds now that no snapshot keeps (version-control data, links out,
    /// special files), so no diff compares it: said, so "no change" never hides it.
    pub not_compared: Vec<LeftOut>,
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
    /// Hex SHA-256 of the content; empty for a file past the digest's budget, never read.
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
    /// Lines added and removed: the hunks' counts.
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
    /// A text file: a modified one's changes with context, an added or removed one's every
    /// line (none for an empty file).
    Hunks(Vec<Hunk>),
    /// A file that is not text on one side or both: summarised by size and digest.
    Binary,
    /// A file past a bound of the diff: summarised by its size and digest, as a binary file.
    TooLarge(Bound),
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
/// [`SnapshotError::Damaged`] when the snapshot is not one of `dir`'s, is out of its place in
/// the store, or its files do not match its digest.
pub fn diff(snapshot: &Snapshot, dir: &Path) -> Result<SkillDiff, SnapshotError> {
    let old = snapshot.kept(dir)?;
    let (mut new, not_compared) = listed_or_gone(dir)?;
    if snapshot.info.truncated {
        new.retain(|f| f.rel == SKILL_FILE);
    }
    let (mut diff, [kept, _]) = diff_files(
        &on_disk(&old),
        &on_disk(&new),
        snapshot.info.truncated,
        &LIMITS,
    )?;
    check_digest(snapshot, &kept)?;
    diff.not_compared = not_compared;
    Ok(diff)
}

/// Refuse a snapshot whose files, as the diff read them, do not match its digest. A truncated
/// snapshot's digest covers files it does not hold, so it cannot be checked.
fn check_digest(snapshot: &Snapshot, read: &SnapshotDigest) -> Result<(), SnapshotError> {
    if !snapshot.info.truncated && *read != snapshot.info.digest {
        return Err(snapshot.damaged(Damage::Digest));
    }
    Ok(())
}

/// Compare two snapshots of the skill folder at `dir`: what changed from `old` to `new`. Both
/// are checked as [`diff`] checks one (theirs, in their place, matching their digests).
///
/// # Errors
/// As [`diff`], for either snapshot.
pub fn between_snapshots(
    old: &Snapshot,
    new: &Snapshot,
    dir: &Path,
) -> Result<SkillDiff, SnapshotError> {
    let (old_files, new_files) = (old.kept(dir)?, new.kept(dir)?);
    // When either kept only SKILL.md, only SKILL.md can be compared; every file of the other
    // is still read, for its digest.
    let truncated = old.info.truncated || new.info.truncated;
    let (diff, [old_read, new_read]) = diff_files(
        &on_disk(&old_files),
        &on_disk(&new_files),
        truncated,
        &LIMITS,
    )?;
    check_digest(old, &old_read)?;
    check_digest(new, &new_read)?;
    Ok(diff)
}

/// Compare an untouched copy of a skill that its installer keeps elsewhere (a marketplace
/// clone's) with the skill folder at `dir`, both listed as a snapshot lists them.
///
/// # Errors
/// When `pristine` is not a skill, or a file of either side cannot be read.
pub fn between(pristine: &Path, dir: &Path) -> Result<SkillDiff, SnapshotError> {
    let old = Listing::read(pristine)?;
    let (new, not_compared) = listed_or_gone(dir)?;
    let mut diff = diff_files(&on_disk(&old.files), &on_disk(&new), false, &LIMITS)?.0;
    diff.not_compared = not_compared;
    Ok(diff)
}

/// Compare the skill folder at `dir` with what installing `skill` over it would write: what a
/// replacement would change, shown before it is made.
///
/// # Errors
/// When a file of the folder cannot be read.
pub fn before_replacing(dir: &Path, skill: &BundledSkill) -> Result<SkillDiff, ReplaceDiffError> {
    let (old, _) = listed_or_gone(dir)?;
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
    Ok(diff_files(&on_disk(&old), &new, false, &LIMITS)?.0)
}

/// Compare two versions of one file held in memory, `old` and `new` (`None` where that side
/// has no such file), each its bytes and executable bit, within the diff's limits: an update's
/// conflict, the file here against upstream's.
///
/// # Errors
/// None in practice: both sides are in memory, nothing is read.
pub fn of_versions(
    path: &str,
    old: Option<(&[u8], bool)>,
    new: Option<(&[u8], bool)>,
) -> Result<SkillDiff, SnapshotError> {
    fn side<'a>(rel: &'a str, (bytes, executable): (&'a [u8], bool)) -> Side<'a> {
        Side::Memory {
            rel,
            bytes,
            executable,
        }
    }
    let old: Vec<Side<'_>> = old.map(|v| side(path, v)).into_iter().collect();
    let new: Vec<Side<'_>> = new.map(|v| side(path, v)).into_iter().collect();
    Ok(diff_files(&old, &new, false, &LIMITS)?.0)
}

/// Why the diff before a replacement could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReplaceDiffError {
    #[error(transparent)]
    Read(#[from] SnapshotError),
    #[error(transparent)]
    Seal(#[from] install::InstallError),
}

/// The files of the folder at `dir` and what a snapshot would leave out of it; none when it is
/// gone or no longer a skill.
fn listed_or_gone(dir: &Path) -> Result<(Vec<Entry>, Vec<LeftOut>), SnapshotError> {
    match Listing::read(dir) {
        Ok(listing) => Ok((listing.files, listing.left_out)),
        Err(SnapshotError::NotSkill(_)) => Ok(Default::default()),
        Err(SnapshotError::Read { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            Ok(Default::default())
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

    fn load(&self, limit: u64, budget: &mut HashBudget) -> Result<Loaded, SnapshotError> {
        match self {
            Side::Disk(entry) if !budget.spend(entry.size) => Ok(Loaded::unread(entry)),
            Side::Disk(entry) => Loaded::read(entry, limit),
            Side::Memory {
                bytes, executable, ..
            } => Ok(Loaded::held(bytes, *executable, limit)),
        }
    }
}

fn on_disk(entries: &[Entry]) -> Vec<Side<'_>> {
    entries.iter().map(Side::Disk).collect()
}

/// Compare two sides, each sorted by path, within `limits`; with the digest of each side as
/// read, for a snapshot's to be checked against its record. When `truncated`, only `SKILL.md`
/// is compared, and the other files are only hashed.
fn diff_files(
    old: &[Side<'_>],
    new: &[Side<'_>],
    truncated: bool,
    limits: &Limits,
) -> Result<(SkillDiff, [SnapshotDigest; 2]), SnapshotError> {
    let mut files = Vec::new();
    let mut frontmatter = None;
    let (mut old_digest, mut new_digest) = (DigestBuilder::default(), DigestBuilder::default());
    let mut budget = Budget::new(limits);
    let (mut old_hashing, mut new_hashing) = (HashBudget::default(), HashBudget::default());
    let (mut o, mut n) = (old.iter().peekable(), new.iter().peekable());
    loop {
        let pair = match (o.peek(), n.peek()) {
            (None, None) => break,
            (Some(a), Some(b)) if a.rel() == b.rel() => (o.next(), n.next()),
            (Some(a), Some(b)) if a.rel() < b.rel() => (o.next(), None),
            (Some(_), None) => (o.next(), None),
            _ => (None, n.next()),
        };
        let path = pair
            .0
            .or(pair.1)
            .map(|side| side.rel().to_owned())
            .unwrap_or_default();
        let compared = !truncated || path == SKILL_FILE;
        // A file that is not compared is only hashed: none of it is held.
        let limit = if compared { limits.file_bytes } else { 0 };
        let old = pair
            .0
            .map(|side| side.load(limit, &mut old_hashing))
            .transpose()?;
        let new = pair
            .1
            .map(|side| side.load(limit, &mut new_hashing))
            .transpose()?;
        if let Some(old) = &old {
            old_digest.add(&path, old.blob.executable, &old.hash);
        }
        if let Some(new) = &new {
            new_digest.add(&path, new.blob.executable, &new.hash);
        }
        if !compared {
            continue;
        }
        if path == SKILL_FILE
            && let (Some(old), Some(new)) = (&old, &new)
            && old.blob.sha256 != new.blob.sha256
        {
            frontmatter = Some(FrontmatterChange::between(old.text(), new.text()));
        }
        if let Some(file) = compare(path, old, new, &mut budget) {
            files.push(file);
        }
    }
    let diff = SkillDiff {
        files,
        frontmatter,
        truncated,
        not_compared: Vec::new(),
    };
    Ok((diff, [old_digest.finish(), new_digest.finish()]))
}

/// What one diff has spent of its [`Limits`] so far.
struct Budget<'a> {
    limits: &'a Limits,
    bytes: u64,
    lines: usize,
    deadline: Instant,
}

impl<'a> Budget<'a> {
    fn new(limits: &'a Limits) -> Self {
        Self {
            limits,
            bytes: 0,
            lines: 0,
            deadline: Instant::now() + limits.diff_time,
        }
    }

    /// The bound that keeps two texts from being line-diffed, if any; else their bytes are
    /// spent.
    fn admit(&mut self, old: &str, new: &str) -> Option<Bound> {
        for text in [old, new] {
            let (lines, longest) = text
                .split_inclusive('\n')
                .fold((0, 0), |(n, longest), line| {
                    (n + 1, line.len().max(longest))
                });
            if lines > self.limits.file_lines {
                return Some(Bound::FileLines);
            }
            if longest > self.limits.line_bytes {
                return Some(Bound::LineBytes);
            }
        }
        let bytes = (old.len() + new.len()) as u64;
        if self.bytes + bytes > self.limits.diff_bytes {
            return Some(Bound::DiffBytes);
        }
        if Instant::now() >= self.deadline {
            return Some(Bound::DiffTime);
        }
        self.bytes += bytes;
        None
    }

    /// Whether `lines` more lines of hunks fit; they are spent when they do.
    fn show(&mut self, lines: usize) -> bool {
        if self.lines + lines > self.limits.diff_lines {
            return false;
        }
        self.lines += lines;
        true
    }
}

/// One side of a file, read.
struct Loaded {
    blob: Blob,
    /// The SHA-256 of the content, for the snapshot digest.
    hash: [u8; 32],
    /// The content, when it is within the diff's bound for one file.
    bytes: Option<Vec<u8>>,
}

impl Loaded {
    /// Read and hash the listed file, holding its bytes only when there are at most `limit`:
    /// a larger one is hashed as it streams past, and never held.
    fn read(entry: &Entry, limit: u64) -> Result<Self, SnapshotError> {
        let mut file =
            open_regular(&entry.source, Links::Refuse).at(&entry.source, SnapshotError::read)?;
        let mut hasher = Sha256::new();
        let mut held = Some(Vec::with_capacity(
            usize::try_from(entry.size.min(limit)).unwrap_or(0),
        ));
        let mut size = 0u64;
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            let read = match file.read(&mut buffer) {
                Ok(0) => break,
                Ok(read) => read,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(SnapshotError::read(entry.source.clone(), error)),
            };
            hasher.update(&buffer[..read]);
            size += read as u64;
            if size > limit {
                held = None;
            } else if let Some(bytes) = &mut held {
                bytes.extend_from_slice(&buffer[..read]);
            }
        }
        let hash: [u8; 32] = hasher.finalize().into();
        Ok(Self {
            blob: Blob {
                size,
                sha256: lower_hex(&hash),
                executable: entry.executable,
            },
            hash,
            bytes: held,
        })
    }

    /// A file past the hashing budget, known by its size alone: never read.
    fn unread(entry: &Entry) -> Self {
        Self {
            blob: Blob {
                size: entry.size,
                sha256: String::new(),
                executable: entry.executable,
            },
            hash: unhashed(entry.size),
            bytes: None,
        }
    }

    /// A file held in memory.
    fn held(bytes: &[u8], executable: bool, limit: u64) -> Self {
        let hash: [u8; 32] = Sha256::digest(bytes).into();
        Self {
            blob: Blob {
                size: bytes.len() as u64,
                sha256: lower_hex(&hash),
                executable,
            },
            hash,
            bytes: (bytes.len() as u64 <= limit).then(|| bytes.to_vec()),
        }
    }

    /// The content as text, when it is text and within the bound for one file.
    fn text(&self) -> Option<&str> {
        self.bytes.as_deref().and_then(|b| manifest_text(b).ok())
    }
}

fn compare(
    path: String,
    old: Option<Loaded>,
    new: Option<Loaded>,
    budget: &mut Budget<'_>,
) -> Option<FileDiff> {
    let (body, added, removed) = match (&old, &new) {
        (None, None) => return None,
        (None, Some(side)) => whole(side, LineKind::Added, budget),
        (Some(side), None) => whole(side, LineKind::Removed, budget),
        // A side past the hashing budget was never read: it can be told neither equal nor not.
        (Some(a), Some(b)) if a.blob.sha256.is_empty() || b.blob.sha256.is_empty() => {
            (Body::TooLarge(Bound::FileBytes), 0, 0)
        }
        (Some(a), Some(b)) if a.blob == b.blob => return None,
        (Some(a), Some(b)) if a.blob.sha256 == b.blob.sha256 => (Body::SameContent, 0, 0),
        (Some(a), Some(b)) => match (&a.bytes, &b.bytes, a.text(), b.text()) {
            (None, _, _, _) | (_, None, _, _) => (Body::TooLarge(Bound::FileBytes), 0, 0),
            (_, _, Some(old), Some(new)) => line_diff(old, new, budget),
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

/// A file only one side holds: a text one as a hunk of all its lines, added or removed, within
/// the bounds a modified file's hunks are; a binary one, summarised.
fn whole(side: &Loaded, kind: LineKind, budget: &mut Budget<'_>) -> (Body, usize, usize) {
    match (&side.bytes, side.text()) {
        (None, _) => (Body::TooLarge(Bound::FileBytes), 0, 0),
        (Some(_), Some(text)) if kind == LineKind::Added => line_diff("", text, budget),
        (Some(_), Some(text)) => line_diff(text, "", budget),
        (Some(_), None) => (Body::Binary, 0, 0),
    }
}

/// The hunks between two texts, with their added and removed counts, when the diff's budget
/// admits them; else the bound they are past.
fn line_diff(old: &str, new: &str, budget: &mut Budget<'_>) -> (Body, usize, usize) {
    if let Some(bound) = budget.admit(old, new) {
        return (Body::TooLarge(bound), 0, 0);
    }
    let hunks = hunks_within(old, new, budget.limits);
    let shown = hunks.iter().map(|h| h.lines.len() + 1).sum();
    if !budget.show(shown) {
        return (Body::TooLarge(Bound::DiffLines), 0, 0);
    }
    let (added, removed) = (
        lines_of(&hunks, LineKind::Added),
        lines_of(&hunks, LineKind::Removed),
    );
    (Body::Hunks(hunks), added, removed)
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
    hunks_within(old, new, &LIMITS)
}

/// [`hunks`], within the time and word-diff bounds of `limits`.
fn hunks_within(old: &str, new: &str, limits: &Limits) -> Vec<Hunk> {
    let started = Instant::now();
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .deadline(started + limits.line_diff_time)
        .diff_lines(old, new);
    let mut words = Words {
        left: limits.word_diffs,
        deadline: Instant::now() + limits.word_diff_time,
        inline_block: limits.inline_block,
    };
    diff.grouped_ops(CONTEXT_LINES)
        .iter()
        .map(|group| hunk(&diff, group, &mut words))
        .collect()
}

/// What is left of one file's word diffs: how many, and until when.
struct Words {
    left: usize,
    deadline: Instant,
    inline_block: usize,
}

impl Words {
    /// Whether another word diff may be made; it is counted when it may.
    fn take(&mut self) -> bool {
        if self.left == 0 || Instant::now() >= self.deadline {
            return false;
        }
        self.left -= 1;
        true
    }
}

fn hunk<'a>(diff: &'a TextDiff<'a, 'a, 'a, str>, group: &[DiffOp], words: &mut Words) -> Hunk {
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
                    let mut pair_lines: Vec<Line> = if words.take() {
                        diff.iter_inline_changes_deadline(&pair, Some(words.deadline))
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
            } if old_len + new_len > words.inline_block || !words.take() => {
                lines.extend(
                    diff.iter_changes(op)
                        .map(|change| line_of(&InlineChange::from(change))),
                );
            }
            _ => lines.extend(
                diff.iter_inline_changes_deadline(op, Some(words.deadline))
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
        let old: String = (0..LIMITS.word_diffs + 10)
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
    fn past_the_diffs_time_a_file_is_summarised() {
        let side = |bytes: &'static [u8]| Side::Memory {
            rel: "a.md",
            bytes,
            executable: false,
        };
        let limits = Limits {
            diff_time: std::time::Duration::ZERO,
            ..LIMITS
        };
        let (diff, _) = diff_files(&[side(b"one\n")], &[side(b"two\n")], false, &limits).unwrap();
        assert_eq!(diff.files[0].body, Body::TooLarge(Bound::DiffTime));
        let (diff, _) = diff_files(&[side(b"one\n")], &[side(b"two\n")], false, &LIMITS).unwrap();
        assert!(matches!(diff.files[0].body, Body::Hunks(_)));
    }

    #[test]
    fn past_the_word_diffs_time_lines_are_marked_between_shared_edges() {
        let limits = Limits {
            word_diff_time: std::time::Duration::ZERO,
            ..LIMITS
        };
        let hunks = hunks_within("a quick b\n", "a slow b\n", &limits);
        let added = &hunks[0].lines[1];
        assert_eq!(&added.text[added.changed[0].clone()], "slow");
        // Unequal sides, which the edges cannot pair, show without highlights.
        let hunks = hunks_within("a quick b\n", "a slow b\nmore\n", &limits);
        assert!(hunks[0].lines.iter().all(|l| l.changed.is_empty()));
    }

    fn memory<'a>(rel: &'a str, bytes: &'a [u8]) -> Side<'a> {
        Side::Memory {
            rel,
            bytes,
            executable: false,
        }
    }

    #[test]
    fn an_added_or_removed_text_file_is_a_hunk_of_all_its_lines() {
        let (diff, _) = diff_files(
            &[memory("gone.md", b"a\nb\n")],
            &[memory("new.md", b"x\ny\nz\n")],
            false,
            &LIMITS,
        )
        .unwrap();
        let [gone, new] = &diff.files[..] else {
            panic!("{:?}", diff.files)
        };
        let Body::Hunks(hunks) = &new.body else {
            panic!("{:?}", new.body)
        };
        assert_eq!(hunks.len(), 1);
        assert_eq!(hunks[0].header(), "@@ -0,0 +1,3 @@");
        assert_eq!(kinds(&hunks[0]), "+++");
        assert_eq!((new.added, new.removed), (3, 0));
        let Body::Hunks(hunks) = &gone.body else {
            panic!("{:?}", gone.body)
        };
        assert_eq!(hunks[0].header(), "@@ -1,2 +0,0 @@");
        assert_eq!(kinds(&hunks[0]), "--");
        assert_eq!((gone.added, gone.removed), (0, 2));
    }

    #[test]
    fn an_added_file_past_a_bound_is_summarised_with_the_bound() {
        let lines = "line\n".repeat(11);
        let small = |limits: Limits| {
            diff_files(&[], &[memory("new.md", lines.as_bytes())], false, &limits)
                .unwrap()
                .0
                .files
                .remove(0)
        };
        let past = |file: FileDiff| (file.body, file.added);
        assert_eq!(
            past(small(Limits {
                file_lines: 10,
                ..LIMITS
            })),
            (Body::TooLarge(Bound::FileLines), 0)
        );
        assert_eq!(
            past(small(Limits {
                diff_lines: 10,
                ..LIMITS
            })),
            (Body::TooLarge(Bound::DiffLines), 0)
        );
        assert_eq!(
            past(small(Limits {
                line_bytes: 4,
                ..LIMITS
            })),
            (Body::TooLarge(Bound::LineBytes), 0)
        );
        assert_eq!(
            past(small(Limits {
                diff_bytes: 10,
                ..LIMITS
            })),
            (Body::TooLarge(Bound::DiffBytes), 0)
        );
        assert_eq!(
            past(small(Limits {
                file_bytes: 10,
                ..LIMITS
            })),
            (Body::TooLarge(Bound::FileBytes), 0)
        );
        assert!(matches!(past(small(LIMITS)), (Body::Hunks(_), 11)));
        // A removed one the same.
        let (diff, _) = diff_files(
            &[memory("gone.md", lines.as_bytes())],
            &[],
            false,
            &Limits {
                file_lines: 10,
                ..LIMITS
            },
        )
        .unwrap();
        assert_eq!(diff.files[0].body, Body::TooLarge(Bound::FileLines));
        let rows: Vec<String> = rows(&diff).iter().map(Row::text).collect();
        assert!(
            rows[2].starts_with("deleted file, too large to diff (over "),
            "{rows:?}"
        );
    }

    #[test]
    fn an_added_binary_file_is_summarised() {
        let (diff, _) =
            diff_files(&[], &[memory("x.bin", &[0, 1, 2, 255])], false, &LIMITS).unwrap();
        assert_eq!(diff.files[0].body, Body::Binary);
        assert_eq!(diff.files[0].added, 0);
    }

    #[test]
    fn an_empty_old_side_starts_at_zero() {
        let hunks = hunks("", "a\n");
        assert_eq!(hunks[0].header(), "@@ -0,0 +1,1 @@");
    }
}
