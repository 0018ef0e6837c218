//! One skill's history as the app shows it: every snapshot of it, newest first, with why it
//! was taken, its size and what changed since the one before; how much the whole store holds;
//! and the clock relative times are drawn against (the view's own state, its selection and its
//! mark, is [`super::app::History`]). Built on a worker from the domain's
//! [`crate::snapshot::history`]; the times are kept as times, and said in words ("3 min ago")
//! only when drawn, against the [`Clock`] the runtime ticks, so they are never stale.

use std::time::SystemTime;

use crate::snapshot::history::{Step, Summary};
use crate::snapshot::{SnapshotError, StoreUsage};
use crate::text::human::{moment, size};

/// The time relative times are said against: the runtime sets it before each frame, and tests
/// fix it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock(pub SystemTime);

impl Default for Clock {
    fn default() -> Self {
        Clock(SystemTime::UNIX_EPOCH)
    }
}

impl Clock {
    /// When `at` was, seen from this clock, as the rest of the app and the command line say
    /// it ([`moment`]): `3 min ago`, `2 days ago`, `on 2026-11-02` past a week.
    pub fn since(self, at: SystemTime) -> String {
        moment(at, self.0)
    }
}

/// One snapshot in the view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotRow {
    pub id: String,
    pub taken_at: SystemTime,
    /// Why it was taken, in a few words.
    pub reason: &'static str,
    /// The bytes its files take.
    pub size: u64,
    /// What changed from the one before it; `None` for the first, or when one is damaged.
    pub since_previous: Option<Summary>,
    /// The oldest of the history: nothing came before it.
    pub first: bool,
    /// The newest: what diffs and the changed screen compare against.
    pub latest: bool,
    /// Edited or damaged in the store: diff and restore refuse it.
    pub damaged: bool,
}

/// A skill's history, ready to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryView {
    /// Newest first.
    pub rows: Vec<SnapshotRow>,
    /// How much the whole store holds, or why that could not be read.
    pub usage: StoreSize,
}

/// How much the snapshot store holds, as far as it could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreSize {
    Read(StoreUsage),
    /// Why it could not be read, as a display-safe sentence.
    Unreadable(String),
}

impl Default for SnapshotRow {
    fn default() -> Self {
        Self {
            id: String::new(),
            taken_at: SystemTime::UNIX_EPOCH,
            reason: "",
            size: 0,
            since_previous: None,
            first: false,
            latest: false,
            damaged: false,
        }
    }
}

impl HistoryView {
    /// The view of `steps` (oldest first, as the domain gives them), and the store's usage.
    pub fn new(steps: Vec<Step>, usage: Result<StoreUsage, SnapshotError>) -> Self {
        let last = steps.len().saturating_sub(1);
        let mut rows: Vec<SnapshotRow> = steps
            .into_iter()
            .enumerate()
            .map(|(i, step)| SnapshotRow {
                id: crate::text::sanitize::line(&step.snapshot.id),
                taken_at: step.snapshot.info.taken_at,
                reason: step.snapshot.info.reason.describe(),
                size: step.size,
                since_previous: step.since_previous,
                first: i == 0,
                latest: i == last,
                damaged: step.damaged,
            })
            .collect();
        rows.reverse();
        let usage = match usage {
            Ok(usage) => StoreSize::Read(usage),
            Err(error) => StoreSize::Unreadable(crate::text::sanitize::line(&format!(
                "the store's size could not be read: {error}"
            ))),
        };
        Self { rows, usage }
    }

    /// The store's size in words: `store 9.6 MB, 1.2 MB held for undo`.
    pub fn usage_text(&self) -> String {
        match &self.usage {
            StoreSize::Read(usage) if usage.held_bytes > 0 => format!(
                "store {}, {} held for undo",
                size(usage.bytes),
                size(usage.held_bytes)
            ),
            StoreSize::Read(usage) => format!("store {}", size(usage.bytes)),
            StoreSize::Unreadable(why) => why.clone(),
        }
    }
}

/// `+2 files, ~1, −0; +14 −3 lines`: files added, modified and removed, then lines.
pub fn summary_text(summary: &Summary) -> String {
    if *summary == Summary::default() {
        return "same content".to_owned();
    }
    let files = if summary.files_added == 1 {
        "file"
    } else {
        "files"
    };
    format!(
        "+{} {files}, ~{}, −{}; +{} −{} lines",
        summary.files_added,
        summary.files_modified,
        summary.files_removed,
        summary.lines_added,
        summary.lines_removed
    )
}

/// What changed since the snapshot before, for a row.
pub fn change_text(row: &SnapshotRow) -> String {
    match (&row.since_previous, row.first) {
        (Some(summary), _) => summary_text(summary),
        (None, true) => "first snapshot".to_owned(),
        (None, false) => "not compared".to_owned(),
    }
}

/// What changed since the snapshot before, in signs for a narrow column: `+2 ~1 −0; +14 −3`.
pub fn change_signs(row: &SnapshotRow) -> String {
    match &row.since_previous {
        Some(s) if *s != Summary::default() => format!(
            "+{} ~{} −{}; +{} −{}",
            s.files_added, s.files_modified, s.files_removed, s.lines_added, s.lines_removed
        ),
        _ => change_text(row),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(seconds: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000 + seconds)
    }

    #[test]
    fn times_are_said_as_moments_from_the_clock() {
        let now = at(10 * 86_400);
        let cases = [
            (0, "just now"),
            (59, "just now"),
            (60, "1 min ago"),
            (3 * 60 + 20, "3 min ago"),
            (5 * 3_600, "5 h ago"),
            (86_400, "yesterday"),
            (2 * 86_400, "2 days ago"),
            (6 * 86_400 + 5, "6 days ago"),
            // Past a week, its day, as undo times and the command line say it.
            (9 * 86_400 + 5, "on 2027-01-16"),
        ];
        for (before, want) in cases {
            let taken = now - Duration::from_secs(before);
            assert_eq!(Clock(now).since(taken), want, "{before} s before");
        }
        // Taken a moment after the clock last ticked, before the frame that shows it.
        assert_eq!(
            Clock(now).since(now + Duration::from_millis(400)),
            "just now"
        );
    }

    #[test]
    fn the_same_snapshot_reads_older_as_the_clock_ticks() {
        let taken = at(0);
        let mut clock = Clock(taken + Duration::from_secs(30));
        assert_eq!(clock.since(taken), "just now");
        clock = Clock(taken + Duration::from_secs(2 * 3_600));
        assert_eq!(clock.since(taken), "2 h ago");
    }

    #[test]
    fn changes_are_counted_in_one_line() {
        let summary = Summary {
            files_added: 2,
            files_removed: 0,
            files_modified: 1,
            lines_added: 14,
            lines_removed: 3,
        };
        assert_eq!(summary_text(&summary), "+2 files, ~1, −0; +14 −3 lines");
        let one = Summary {
            files_added: 1,
            ..summary
        };
        assert_eq!(summary_text(&one), "+1 file, ~1, −0; +14 −3 lines");
        assert_eq!(summary_text(&Summary::default()), "same content");
        let first = SnapshotRow {
            first: true,
            ..SnapshotRow::default()
        };
        assert_eq!(change_text(&first), "first snapshot");
        assert_eq!(change_text(&SnapshotRow::default()), "not compared");
        let row = SnapshotRow {
            since_previous: Some(summary),
            ..SnapshotRow::default()
        };
        assert_eq!(change_signs(&row), "+2 ~1 −0; +14 −3");
    }
}
