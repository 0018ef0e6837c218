//! `skilldeck snapshot`: keep a copy of skills as they are now, named on the command line or
//! by an agent session's transcript.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::operations;
use crate::operations::snapshot::FromTranscriptError;
use crate::roots::Machine;
use crate::scan;
use crate::snapshot::{Reason, SnapshotError, Taken};

use super::{Failure, Outcome, target};
use crate::text::Unsafe;
use crate::text::human::{self, count};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skills to snapshot, by name or folder [default: every skill]
    #[arg(value_name = "SKILL", conflicts_with = "from_transcript")]
    skills: Vec<String>,

    /// Snapshot every skill folder an agent session used: the "Base directory for this skill:"
    /// lines of a Claude Code JSONL transcript or of OpenCode output
    #[arg(long, value_name = "FILE")]
    from_transcript: Option<PathBuf>,
}

/// How snapshotting one folder went.
enum Attempt {
    Taken(Taken),
    /// Not a skill folder (any more): an agent's bundled skill in a temporary folder, say.
    NotSkill,
    Failed(SnapshotError),
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let (dirs, mut outcome) = match &args.from_transcript {
        Some(file) => (named_by_transcript(file)?, Outcome::Done),
        None => named_by_arguments(&args.skills, machine),
    };
    let reason = if args.from_transcript.is_some() {
        Reason::Transcript
    } else {
        Reason::Manual
    };
    // Every name named nothing: the refusals were said, and there is nothing to sum up.
    if dirs.is_empty() && outcome == Outcome::Negative {
        return Ok(outcome);
    }
    let done = operations::snapshot::snapshot_because(machine, dirs, reason);
    let results = done.taken.into_iter().map(|(dir, result)| {
        let attempt = match result {
            Ok(taken) => Attempt::Taken(taken),
            Err(error) if operations::snapshot::not_a_skill(&error) => Attempt::NotSkill,
            Err(error) => Attempt::Failed(error),
        };
        (dir, attempt)
    });
    let home = machine.env.home();
    let (mut fresh, mut same, mut failed) = (0, 0, Vec::new());
    let mut out = String::new();
    for (dir, result) in results {
        match result {
            Attempt::Taken(taken) => {
                let info = &taken.snapshot.info;
                let verb = if taken.fresh {
                    fresh += 1;
                    "kept     "
                } else {
                    same += 1;
                    "unchanged"
                };
                let _ = write!(
                    out,
                    "{verb}  {}  {}  {}",
                    taken.snapshot.skill_name(),
                    taken.snapshot.id,
                    human::path(&info.dir, home, Unsafe::Escaped)
                );
                if info.truncated {
                    out.push_str("  (truncated: only SKILL.md kept, the skill is over 50 MiB)");
                }
                if info.skipped_links > 0 {
                    let _ = write!(out, "  ({} left out)", count(info.skipped_links, "link"));
                }
                out.push('\n');
            }
            Attempt::NotSkill => {
                let _ = writeln!(
                    out,
                    "skipped    {}: not a skill folder",
                    human::path(&dir, home, Unsafe::Escaped)
                );
            }
            Attempt::Failed(error) => failed.push(error),
        }
    }
    let _ = writeln!(
        out,
        "{} kept, {} unchanged since their latest snapshot.",
        count(fresh, "new snapshot"),
        same
    );
    super::print(&out)?;
    super::warn_unjournalled(done.unjournalled.as_ref())?;
    if let Some(first) = failed.into_iter().next() {
        return Err(Failure::Stopped(first.to_string()));
    }
    if fresh + same == 0 && args.from_transcript.is_none() {
        outcome = Outcome::Negative;
    }
    Ok(outcome)
}

/// The skill folders the arguments name (every skill when none is named); `Negative` when an
/// argument names nothing.
fn named_by_arguments(args: &[String], machine: &Machine) -> (Vec<PathBuf>, Outcome) {
    if args.is_empty() {
        let dirs = scan::skill_dirs(&machine.env, &machine.project);
        return (dirs, Outcome::Done);
    }
    let inventory = super::scan(machine);
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut outcome = Outcome::Done;
    for arg in args {
        let found = target::matching(&inventory, arg);
        if found.is_empty() {
            let _ = super::eprint(&format!(
                "skilldeck: no skill is named {arg}{}\n",
                target::did_you_mean(&inventory, arg)
            ));
            outcome = Outcome::Negative;
        }
        for skill in found {
            if !dirs.contains(&skill.real_dir) {
                dirs.push(skill.real_dir.clone());
            }
        }
    }
    (dirs, outcome)
}

fn named_by_transcript(file: &Path) -> Result<Vec<PathBuf>, Failure> {
    operations::snapshot::named_by_transcript(file).map_err(|error| match error {
        FromTranscriptError::Missing(_) => Failure::Usage(format!("--from-transcript {error}")),
        _ => Failure::Stopped(error.to_string()),
    })
}
