//! `skilldeck snapshots prune` and `skilldeck snapshots delete`: shrink the store. What either
//! removes is held, so `skilldeck undo` puts it back, until a later prune empties the held
//! copies.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;

use crate::operations::prune::{self, Policy};
use crate::operations::snapshot as snapshot_op;
use crate::roots::Machine;
use crate::snapshot::{Reason, Snapshot, SnapshotError, Store};
use crate::text::Unsafe;
use crate::text::human::{self, count, table};

use super::{Failure, Outcome, json, target};

const PRUNE_HELP: &str = "\
A snapshot is removed only when it is not among the last --keep of its skill, not the latest of
its skill, not a baseline you accepted, and older than --older-than. Removed snapshots are held
in the data directory, so `skilldeck undo` puts them back; each prune empties for good what
earlier prunes and deletes held, and says how much that frees.

  skilldeck snapshots prune --dry-run              what it would remove and free
  skilldeck snapshots prune --keep 3 --older-than 2weeks";

#[derive(Debug, clap::Args)]
#[command(after_help = PRUNE_HELP)]
pub struct PruneArgs {
    /// Keep the last N snapshots of each skill
    #[arg(long, value_name = "N", default_value_t = Policy::default().keep)]
    keep: usize,

    /// Keep every snapshot younger than this (30d, 2weeks, 12h)
    #[arg(long, value_name = "AGE", default_value = "30d", value_parser = humantime::parse_duration)]
    older_than: Duration,

    /// Say what would be removed and freed, and change nothing
    #[arg(long)]
    dry_run: bool,

    /// Print JSON instead of sentences
    #[arg(long)]
    json: bool,
}

const DELETE_HELP: &str = "\
The snapshot is held in the data directory, so `skilldeck undo` puts it back until the next
`skilldeck snapshots prune`. Deleting a skill's latest snapshot makes the one before it what
diffs compare against. A damaged snapshot can be deleted too (name its skill with --skill).

  skilldeck snapshots pdf                          the ids of one skill's snapshots
  skilldeck snapshots delete 20261129-165459-444 --skill pdf";

#[derive(Debug, clap::Args)]
#[command(after_help = DELETE_HELP)]
pub struct DeleteArgs {
    /// The snapshot's id, or the start of one (unique across the store, or with --skill)
    #[arg(value_name = "ID")]
    id: String,

    /// The skill whose snapshot it is, by name or folder
    #[arg(long, value_name = "SKILL")]
    skill: Option<String>,

    /// Print JSON instead of sentences
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct RemovedJson<'a> {
    id: &'a str,
    skill: String,
    dir: Cow<'a, str>,
    taken_at: String,
    reason: Reason,
    size: u64,
}

impl<'a> RemovedJson<'a> {
    fn new(snapshot: &'a Snapshot) -> Self {
        Self {
            id: &snapshot.id,
            skill: snapshot.skill_name(),
            dir: snapshot.info.dir.to_string_lossy(),
            taken_at: humantime::format_rfc3339_seconds(snapshot.info.taken_at).to_string(),
            reason: snapshot.info.reason,
            size: snapshot.size(),
        }
    }
}

#[derive(Serialize)]
struct PrunedJson<'a> {
    dry_run: bool,
    removed: Vec<RemovedJson<'a>>,
    /// The bytes the removed snapshots took (held until the next prune).
    bytes: u64,
    /// Folders of earlier deletes' and prunes' held copies emptied for good.
    emptied_holds: usize,
    emptied_bytes: u64,
    /// Snapshots whose record could not be read, left alone.
    unreadable: Vec<String>,
}

#[derive(Serialize)]
struct DeletedJson<'a> {
    deleted: RemovedJson<'a>,
    was_latest: bool,
    /// The skill's latest snapshot now, if it has one.
    latest: Option<String>,
}

pub fn run_prune(args: &PruneArgs, machine: &Machine) -> Result<Outcome, Failure> {
    let policy = Policy {
        keep: args.keep,
        older_than: args.older_than,
    };
    let done = match prune::prune(machine, &policy, args.dry_run) {
        Ok(done) => done,
        Err(error) => return target::refuse(args.json, "refused", error.into()),
    };
    if args.json {
        json::print(&PrunedJson {
            dry_run: done.dry_run,
            removed: done.removed.iter().map(RemovedJson::new).collect(),
            bytes: done.bytes,
            emptied_holds: done.emptied.len(),
            emptied_bytes: done.emptied_bytes,
            unreadable: done.unreadable.iter().map(ToString::to_string).collect(),
        })?;
    } else {
        super::print(&said(&done, &policy, machine))?;
    }
    super::warn_unjournalled(done.unjournalled.as_ref())?;
    Ok(Outcome::Done)
}

fn said(done: &prune::Pruned, policy: &Policy, machine: &Machine) -> String {
    let (remove, held, empty) = if done.dry_run {
        ("Would remove", "they would be held", "Would empty")
    } else {
        ("Removed", "held", "Emptied")
    };
    let mut out = String::new();
    if done.removed.is_empty() {
        let _ = writeln!(
            out,
            "No snapshot is due: the last {} of each skill, accepted baselines and everything younger than {} are kept.",
            policy.keep.max(1),
            human::span(policy.older_than)
        );
    } else {
        let _ = writeln!(
            out,
            "{remove} {} ({}), {held} so `skilldeck undo` can put them back:",
            count(done.removed.len(), "snapshot"),
            human::size(done.bytes)
        );
        let rows: Vec<Vec<String>> = done
            .removed
            .iter()
            .map(|s| {
                vec![
                    s.skill_name(),
                    s.id.clone(),
                    s.info.reason.describe().to_owned(),
                    human::path(&s.info.dir, machine.env.home(), Unsafe::Escaped),
                ]
            })
            .collect();
        for line in table(&["SKILL", "ID", "REASON", "DIR"], &rows).lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    // Holds an undo already emptied free nothing, and are not worth a sentence.
    if done.emptied_bytes > 0 {
        let _ = writeln!(
            out,
            "{empty} the copies earlier deletes and prunes held ({} freed); those can no longer be undone.",
            human::size(done.emptied_bytes)
        );
    }
    for error in &done.unreadable {
        let _ = writeln!(out, "Left alone: {error}");
    }
    out
}

pub fn run_delete(args: &DeleteArgs, machine: &Machine) -> Result<Outcome, Failure> {
    let store = Store::open(&machine.env);
    let code = |error: &SnapshotError| match error {
        SnapshotError::NoSuchId(_) | SnapshotError::UnknownId { .. } => "unknown_id",
        SnapshotError::AmbiguousId { .. } | SnapshotError::IdOfSeveral { .. } => "ambiguous_id",
        _ => "refused",
    };
    let dir = match &args.skill {
        Some(skill) => match target::one(&super::scan(machine), &store, skill) {
            Ok(dir) => dir,
            Err(failure) => return target::refuse(args.json, "unknown_skill", failure),
        },
        None => match store.dir_of(&args.id) {
            Ok(dir) => dir,
            Err(error) => return target::refuse(args.json, code(&error), error.into()),
        },
    };
    let done = match snapshot_op::delete(machine, &dir, &args.id) {
        Ok(done) => done,
        Err(error) => return target::refuse(args.json, code(&error), error.into()),
    };
    if args.json {
        json::print(&DeletedJson {
            deleted: RemovedJson {
                size: done.bytes,
                ..RemovedJson::new(&done.snapshot)
            },
            was_latest: done.was_latest,
            latest: done.latest_now.clone(),
        })?;
    } else {
        let mut out = format!(
            "Deleted snapshot {} of {} ({}, {}); it is held so `skilldeck undo` puts it back, until the next `skilldeck snapshots prune`.\n",
            done.snapshot.id,
            human::path(&dir, machine.env.home(), Unsafe::Escaped),
            done.snapshot.info.reason.describe(),
            human::size(done.bytes)
        );
        if done.was_latest {
            out.push_str(&match &done.latest_now {
                Some(id) => {
                    format!("It was the latest: diffs now compare against snapshot {id}.\n")
                }
                None => "It was the only one: the skill has no snapshot now.\n".to_owned(),
            });
        }
        super::print(&out)?;
    }
    super::warn_unjournalled(done.unjournalled.as_ref())?;
    Ok(Outcome::Done)
}
