//! `skilldeck snapshots SKILL`: one skill's history, oldest first — when each snapshot was
//! taken, why, its size and what changed since the one before.

use std::borrow::Cow;

use serde::Serialize;

use crate::roots::Machine;
use crate::snapshot::history::{self, Step, Summary};
use crate::snapshot::{Reason, Store};
use crate::text::Unsafe;
use crate::text::human::{self, table};

use super::{Failure, Outcome, json, target};

#[derive(Serialize)]
struct HistoryJson<'a> {
    skill: Cow<'a, str>,
    dir: Cow<'a, str>,
    snapshots: Vec<StepJson<'a>>,
}

#[derive(Serialize)]
struct StepJson<'a> {
    id: &'a str,
    taken_at: String,
    reason: Reason,
    /// The bytes its copied files take.
    size: u64,
    /// What changed from the snapshot before it; null for the first, or when either is
    /// damaged.
    since_previous: Option<Summary>,
    /// The latest: what diffs compare against.
    latest: bool,
    accepted: bool,
    truncated: bool,
    /// The store was edited or damaged where it is kept: diff and restore refuse it.
    damaged: bool,
}

pub fn run(skill: &str, as_json: bool, machine: &Machine) -> Result<Outcome, Failure> {
    let store = Store::open(&machine.env);
    let dir = match target::one(&super::scan(machine), &store, skill) {
        Ok(dir) => dir,
        Err(failure) => return target::refuse(as_json, "no_such_skill", failure),
    };
    let steps = history::history(&store, &dir)?;
    let name = dir
        .file_name()
        .map_or_else(|| Cow::Borrowed(skill), |n| n.to_string_lossy());
    let last = steps.len().saturating_sub(1);
    let rows: Vec<StepJson<'_>> = steps
        .iter()
        .enumerate()
        .map(|(at, step)| StepJson {
            id: &step.snapshot.id,
            taken_at: humantime::format_rfc3339_seconds(step.snapshot.info.taken_at).to_string(),
            reason: step.snapshot.info.reason,
            size: step.size,
            since_previous: step.since_previous,
            latest: at == last,
            accepted: step.snapshot.is_accepted(),
            truncated: step.snapshot.info.truncated,
            damaged: step.damaged,
        })
        .collect();
    if as_json {
        json::print(&HistoryJson {
            skill: name,
            dir: dir.to_string_lossy(),
            snapshots: rows,
        })?;
        return Ok(Outcome::Done);
    }
    let shown = human::path(&dir, machine.env.home(), Unsafe::Escaped);
    if steps.is_empty() {
        super::print(&format!(
            "No snapshot of {shown} yet; `skilldeck snapshot {name}` takes one.\n"
        ))?;
        return Ok(Outcome::Done);
    }
    super::print(&format!(
        "{} of {name} ({shown}), oldest first:\n{}",
        human::count(steps.len(), "snapshot"),
        render(&steps, &rows, std::time::SystemTime::now())
    ))?;
    Ok(Outcome::Done)
}

/// The history as a table, each time said as the app says it (`3 h ago`, `on 2026-11-02`)
/// seen from `now`; `--json` keeps the times as they are recorded.
fn render(steps: &[Step], rows: &[StepJson<'_>], now: std::time::SystemTime) -> String {
    let cells: Vec<Vec<String>> = steps
        .iter()
        .zip(rows)
        .enumerate()
        .map(|(at, (step, row))| {
            let mut marks = Vec::new();
            if row.latest {
                marks.push("latest");
            }
            if row.accepted && step.snapshot.info.reason != Reason::Accepted {
                marks.push("accepted");
            }
            if row.truncated {
                marks.push("truncated");
            }
            if row.damaged {
                marks.push("damaged");
            }
            let changes = match (&step.since_previous, at) {
                (Some(summary), _) => changes(summary),
                (None, 0) => "first".to_owned(),
                (None, _) => "not compared (damaged)".to_owned(),
            };
            vec![
                row.id.to_owned(),
                human::moment(step.snapshot.info.taken_at, now),
                row.reason.describe().to_owned(),
                human::size(row.size),
                changes,
                marks.join(", "),
            ]
        })
        .collect();
    table(
        &["ID", "TAKEN", "REASON", "SIZE", "SINCE PREVIOUS", ""],
        &cells,
    )
}

/// `+1 -0 ~2 files, +10 -3 lines`, or `same content`.
pub fn changes(summary: &Summary) -> String {
    if *summary == Summary::default() {
        return "same content".to_owned();
    }
    format!(
        "+{} -{} ~{} files, +{} -{} lines",
        summary.files_added,
        summary.files_removed,
        summary.files_modified,
        summary.lines_added,
        summary.lines_removed
    )
}
