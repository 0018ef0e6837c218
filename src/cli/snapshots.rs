//! `skilldeck snapshots`: every snapshot kept, marking those whose skill no longer matches;
//! with a skill named, that skill's history (`history`); `prune` and `delete` (`prune`).

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use crate::roots::Machine;
use crate::snapshot::{Comparison, Reason, Snapshot, SnapshotDigest, Store};

use super::{Failure, Outcome};
use super::{history, json, prune};
use crate::text::Unsafe;
use crate::text::human::{self, table};

const AFTER_HELP: &str = "\
Examples:
  skilldeck snapshots                 every snapshot, with why it was taken
  skilldeck snapshots pdf             the history of one skill: when, why, size, what changed
  skilldeck snapshots prune --dry-run what a prune would remove (and free)
  skilldeck snapshots delete ID       delete one snapshot; `skilldeck undo` brings it back

A skill whose name is `prune` or `delete` is given by its folder: `skilldeck snapshots ./prune`.";

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,

    /// Show the history of this skill only (by name or folder): every snapshot, oldest first,
    /// with why it was taken, its size and what changed since the one before
    #[arg(value_name = "SKILL")]
    skill: Option<String>,

    /// Print JSON (the shape in docs/json.md) instead of a table
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Remove old snapshots by a retention policy (held, so `skilldeck undo` puts them back)
    Prune(prune::PruneArgs),
    /// Delete one snapshot (held, so `skilldeck undo` puts it back)
    Delete(prune::DeleteArgs),
}

#[derive(Serialize)]
struct SnapshotsJson<'a> {
    snapshots: Vec<SnapshotJson<'a>>,
}

#[derive(Serialize)]
struct SnapshotJson<'a> {
    id: &'a str,
    skill: Cow<'a, str>,
    dir: Cow<'a, str>,
    digest: &'a SnapshotDigest,
    taken_at: String,
    /// Why it was taken: `manual`, `installed`, `before_import`, `accepted`, ...
    reason: Reason,
    /// An accept made it, or found its content, the baseline: a prune keeps it.
    accepted: bool,
    /// The skill on disk no longer matches this snapshot (or is gone).
    changed: bool,
    truncated: bool,
    skipped_links: usize,
    /// A later snapshot of the skill found different content (seed 003's changed marker).
    marked_changed: bool,
    /// The latest snapshot of its skill: the one diffs compare against.
    latest: bool,
    /// The store was edited or damaged where this snapshot is kept (its place, its record, a
    /// link or special file among its files): diff and restore refuse it. Its files are
    /// checked against its digest only when it is diffed or restored.
    damaged: bool,
}

/// What the folder of a snapshot holds now.
enum Now {
    Digest(SnapshotDigest),
    Gone,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    match (&args.command, &args.skill) {
        (Some(Command::Prune(prune)), _) => return prune::run_prune(prune, machine),
        (Some(Command::Delete(delete)), _) => return prune::run_delete(delete, machine),
        (None, Some(skill)) => return history::run(skill, args.json, machine),
        (None, None) => {}
    }
    let store = Store::open(&machine.env);
    let snapshots = store.all()?;
    let names: HashMap<PathBuf, String> = super::scan(machine)
        .skills
        .into_iter()
        .map(|skill| (skill.real_dir, skill.name))
        .collect();
    let mut latest: HashMap<&Path, &str> = HashMap::new();
    for snapshot in &snapshots {
        latest.insert(&snapshot.info.dir, &snapshot.id);
    }
    let dirs: Vec<&Path> = latest.keys().copied().collect();
    let now: HashMap<&Path, Now> = dirs
        .into_par_iter()
        .map(|dir| {
            let now = match store.compare(dir)? {
                Comparison::Same(s) => Now::Digest(s.info.digest),
                Comparison::Changed { now, .. } => Now::Digest(now),
                Comparison::Gone(_) | Comparison::NoSnapshot => Now::Gone,
            };
            Ok((dir, now))
        })
        .collect::<Result<_, crate::snapshot::SnapshotError>>()?;
    let rows: Vec<SnapshotJson<'_>> = snapshots
        .iter()
        .map(|snapshot| {
            let info = &snapshot.info;
            let changed = match now.get(info.dir.as_path()) {
                Some(Now::Digest(digest)) => *digest != info.digest,
                _ => true,
            };
            SnapshotJson {
                id: &snapshot.id,
                skill: names.get(&info.dir).map_or_else(
                    || Cow::Owned(snapshot.skill_name()),
                    |n| Cow::Borrowed(n.as_str()),
                ),
                dir: info.dir.to_string_lossy(),
                digest: &info.digest,
                taken_at: humantime::format_rfc3339_seconds(info.taken_at).to_string(),
                reason: info.reason,
                accepted: snapshot.is_accepted(),
                changed,
                truncated: info.truncated,
                skipped_links: info.skipped_links,
                marked_changed: info.changed,
                latest: latest.get(info.dir.as_path()) == Some(&snapshot.id.as_str()),
                damaged: snapshot.kept(&info.dir).is_err(),
            }
        })
        .collect();
    if args.json {
        json::print(&SnapshotsJson { snapshots: rows })?;
    } else {
        super::print(&render(
            &rows,
            &snapshots,
            machine.env.home(),
            std::time::SystemTime::now(),
        ))?;
    }
    Ok(Outcome::Done)
}

/// The snapshots as a table, each time said as the app says it (`3 h ago`, `on 2026-11-02`)
/// seen from `now`; `--json` keeps the times as they are recorded.
fn render(
    rows: &[SnapshotJson<'_>],
    snapshots: &[Snapshot],
    home: &Path,
    now: std::time::SystemTime,
) -> String {
    if rows.is_empty() {
        return "No snapshots yet; `skilldeck snapshot` takes them.\n".to_owned();
    }
    let cells: Vec<Vec<String>> = rows
        .iter()
        .zip(snapshots)
        .map(|(row, snapshot)| {
            let mut state = if row.changed { "changed" } else { "matches" }.to_owned();
            if row.latest {
                state.push_str(", latest");
            }
            if row.truncated {
                state.push_str(", truncated");
            }
            if row.damaged {
                state.push_str(", damaged");
            }
            vec![
                row.skill.to_string(),
                row.id.to_owned(),
                human::moment(snapshot.info.taken_at, now),
                row.reason.describe().to_owned(),
                state,
                human::path(&snapshot.info.dir, home, Unsafe::Escaped),
            ]
        })
        .collect();
    table(&["SKILL", "ID", "TAKEN", "REASON", "STATE", "DIR"], &cells)
}
