//! `skilldeck update SKILL... [--from SOURCE]`: bring installed skills to a new upstream by a
//! three-way merge that keeps the user's edits, or stop with nothing written. The upstream is
//! SOURCE (any source `import` reads: a folder, an archive, a git repository), else the
//! repository each skill was imported from, as recorded then, fetched again at its ref.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::merge::{Clash, Resolution, Summary};
use crate::operations::update::{
    self, Baseline, Fetched, Plan, UpdateError, Updated, UpstreamError, Wanted,
};
use crate::roots::Machine;
use crate::scan::Skill;
use crate::source::{self, Source};
use crate::text::{Unsafe, human};

use super::json::RefusalJson;
use super::{Failure, Outcome, target};

const AFTER_HELP: &str = "\
A three-way update compares three versions of each file of the skill: its baseline (what was
installed: the snapshot skilldeck took when it installed the skill, or of the upstream the last
update merged; else the untouched copy another installer keeps), the files now, and the new
upstream: --from SOURCE (a folder, an archive, or a git repository as `import` takes it, with
@REF and --path; the skill of the same folder name in it), else the repository the skill was
imported from, fetched again at the branch or tag it was imported at (so a moved tag or a new
commit on the branch is the new upstream; a commit id stays where it is).

Local edits are kept. A file only upstream changed takes upstream's version; a file only you
changed keeps yours; a text file both changed in different lines gets both changes. When both
changed the same lines, a binary file both changed, a file upstream deleted that you edited
(or the other way round), or a file both added differently, that is a conflict: nothing is
written and the conflicting files are named. --take theirs or --take ours settles every
conflict with that side; --dry-run shows what would happen and writes nothing.

skilldeck's record in SKILL.md is written again with the digest of the new upstream: a skill
whose local edits were kept stays `modified`, one without edits is `intact`. A skill another
installer recorded is updated only with --yes, since that installer's record would no longer
match; the refusal says which record.

Before an update rewrites a skill, what it held is snapshotted; the new upstream is kept as the
baseline of the next update. `skilldeck undo` puts the skill back as it was, and the baseline
before it.

Exit codes: 0 updated (or already up to date); 1 refused: a conflict, a record that would go
stale, no baseline, no such skill in BUNDLE; 2 usage error; 3 an I/O failure stopped the work.";

/// Which side settles every conflict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Take {
    /// The new upstream's version (its deletion, where it deleted the file)
    Theirs,
    /// The local version, with its edits
    Ours,
}

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The skills, each by name (`pdf`) or by its folder
    #[arg(value_name = "SKILL", required = true)]
    skills: Vec<String>,
    /// The new upstream: a folder, an archive or a git repository holding the skills by their
    /// folder names; without it, the repository each skill was imported from
    #[arg(long, value_name = "SOURCE")]
    from: Option<PathBuf>,
    /// With a git repository as SOURCE, the folder of it to read
    #[arg(long, value_name = "SUB", requires = "from")]
    path: Option<String>,
    /// Show what the update would do, and write nothing
    #[arg(long)]
    dry_run: bool,
    /// Print JSON instead of sentences
    #[arg(long)]
    json: bool,
    /// Settle every conflict with this side
    #[arg(long, value_enum, value_name = "SIDE")]
    take: Option<Take>,
    /// Update a skill another installer recorded, though its record will no longer match
    #[arg(long)]
    yes: bool,
}

#[derive(Serialize)]
struct UpdateJson<'a> {
    dry_run: bool,
    skills: Vec<SkillJson<'a>>,
    refused: Option<RefusalJson>,
    undo: &'static str,
}

#[derive(Serialize)]
struct SkillJson<'a> {
    name: &'a str,
    dir: &'a Path,
    /// `up_to_date`, `updated`, `would_update`, `conflict`, `would_go_stale`.
    status: &'static str,
    baseline: BaselineJson<'a>,
    written: bool,
    before: Option<&'a str>,
    new_baseline: Option<&'a str>,
    stale: &'a [String],
    files: Vec<FileJson<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum BaselineJson<'a> {
    Snapshot(&'a str),
    Pristine(&'a Path),
}

#[derive(Serialize)]
struct FileJson<'a> {
    path: &'a str,
    summary: Summary,
    conflict: Option<Clash>,
    resolution: Option<Resolution>,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let inventory = super::scan(machine);
    let mut chosen: Vec<&Skill> = Vec::new();
    for arg in &args.skills {
        match target::live(&inventory, machine, arg) {
            Ok(skill) if !chosen.iter().any(|s| s.real_dir == skill.real_dir) => {
                chosen.push(skill);
            }
            Ok(_) => {}
            Err(failure) => return target::refuse(args.json, "no_such_skill", failure),
        }
    }
    let mut reads: Vec<Fetched> = Vec::new();
    let mut plans = Vec::new();
    let mut from_of: Vec<usize> = Vec::new();
    // Every skill planned before any is written: one that cannot be updated stops them all.
    for skill in &chosen {
        let wanted = match wanted(args, machine, skill) {
            Ok(wanted) => wanted,
            Err(outcome) => return outcome,
        };
        let index = match reads.iter().position(|r| r.wanted == wanted) {
            Some(index) => index,
            None => match read(args, wanted) {
                Ok(read) => {
                    reads.push(read);
                    reads.len() - 1
                }
                Err(outcome) => return outcome,
            },
        };
        let read = &reads[index];
        // Applied, the plan records where the skill now comes from with its files.
        let planned = read.plan(machine, skill);
        match planned {
            Ok(plan) => plans.push(plan),
            Err(error) => return refuse(args, error),
        }
        from_of.push(index);
    }
    let resolution = args.take.map(|take| match take {
        Take::Theirs => Resolution::Theirs,
        Take::Ours => Resolution::Ours,
    });
    let resolve = move |_: &str| resolution;
    let stopping = plans.iter().find_map(|plan| plan.stops(&resolve, args.yes));
    if args.dry_run || stopping.is_some() {
        report(args, machine, &plans, &[], resolution, stopping.as_ref())?;
        return match stopping {
            Some(error) => stopped(args, &error),
            None => Ok(Outcome::Done),
        };
    }
    let batch = machine.in_a_batch();
    let mut done: Vec<Updated> = Vec::new();
    for ((plan, skill), from) in plans.iter().zip(&chosen).zip(&from_of) {
        if !plan.up_to_date() {
            match update::apply(&batch, plan, &resolve, args.yes) {
                Ok(updated) => done.push(updated),
                Err(error) => {
                    // What was updated before is said, then why the rest was not.
                    report(args, machine, &plans, &done, resolution, Some(&error))?;
                    return stopped(args, &error);
                }
            }
        }
        // The commit it now matches when up to date (an update recorded it already), for the
        // next `update`; in the batch, so one undo puts it back with the rest.
        if let Err(error) = reads[*from].remember(&batch, &skill.real_dir) {
            super::eprint(&format!(
                "skilldeck: where {} came from could not be recorded ({error}); the next update needs --from\n",
                human::path(&skill.real_dir, machine.env.home(), Unsafe::Escaped)
            ))?;
        }
    }
    report(args, machine, &plans, &done, resolution, None)?;
    for updated in &done {
        super::warn_unjournalled(updated.unjournalled.as_ref())?;
    }
    Ok(Outcome::Done)
}

/// Where `skill`'s new upstream is: `--from`, else its recorded upstream; a sentence when it
/// has none.
fn wanted(
    args: &Args,
    machine: &Machine,
    skill: &Skill,
) -> Result<Wanted, Result<Outcome, Failure>> {
    let given = args
        .from
        .as_ref()
        .map(|from| source::parse(from, args.path.as_deref()));
    if let (Some(Source::Local(from)), Some(_)) = (&given, &args.path) {
        return Err(Err(Failure::Usage(format!(
            "--path picks a folder of a git repository, and {} is not one; name the folder instead",
            from.display()
        ))));
    }
    Wanted::of(machine, &skill.real_dir, given.as_ref()).map_err(|error| match error {
        UpstreamError::NoUpstream(dir) => target::refuse(
            args.json,
            "no_upstream",
            Failure::Refused(format!(
                "skilldeck did not import {} from a git repository, so it does not know where to update it from; give the new upstream with --from SOURCE",
                human::path(&dir, machine.env.home(), Unsafe::Escaped)
            )),
        ),
        other => refuse_upstream(args, &other),
    })
}

/// Read (and for a repository, fetch) what `wanted` names, saying how the fetch goes.
fn read(args: &Args, wanted: Wanted) -> Result<Fetched, Result<Outcome, Failure>> {
    let mut progress = |said: &str| {
        let _ = super::eprint(&format!("skilldeck: {said}\n"));
    };
    Fetched::read(wanted, &mut progress).map_err(|error| refuse_upstream(args, &error))
}

fn refuse_upstream(args: &Args, error: &UpstreamError) -> Result<Outcome, Failure> {
    target::refuse(args.json, error.code(), Failure::Refused(error.to_string()))
}

/// End the command on `error`, said in the JSON already printed with `--json`; the sentence
/// goes to standard error either way, as every refusal's does.
fn stopped(args: &Args, error: &UpdateError) -> Result<Outcome, Failure> {
    let failure = target::failure(error.is_refusal(), error);
    match failure {
        Failure::Refused(message) if args.json => {
            super::eprint(&format!("skilldeck: {message}\n"))?;
            Ok(Outcome::Negative)
        }
        other => Err(other),
    }
}

fn refuse(args: &Args, error: UpdateError) -> Result<Outcome, Failure> {
    target::refuse(
        args.json,
        error.code(),
        target::failure(error.is_refusal(), &error),
    )
}

fn report(
    args: &Args,
    machine: &Machine,
    plans: &[Plan],
    done: &[Updated],
    resolution: Option<Resolution>,
    stopped: Option<&UpdateError>,
) -> Result<(), Failure> {
    if args.json {
        let skills = plans
            .iter()
            .map(|plan| skill_json(args, plan, done, resolution, stopped))
            .collect();
        return super::json::print(&UpdateJson {
            dry_run: args.dry_run,
            skills,
            refused: stopped.map(|error| RefusalJson {
                code: error.code(),
                message: error.to_string(),
            }),
            undo: "skilldeck undo",
        });
    }
    let home = machine.home();
    let mut text = String::new();
    for plan in plans {
        let shown = human::path(&plan.dir, home, Unsafe::Escaped);
        let updated = done.iter().find(|u| u.dir == plan.dir);
        let head = match updated {
            _ if plan.up_to_date() => {
                format!("{} ({shown}) is up to date with the upstream.\n", plan.name)
            }
            Some(_) => format!("Updated {} ({shown}):\n", plan.name),
            None if args.dry_run => format!("Updating {} ({shown}) would do:\n", plan.name),
            None => format!("{} ({shown}), as the update would merge it:\n", plan.name),
        };
        text.push_str(&head);
        if plan.up_to_date() {
            continue;
        }
        let width = plan
            .merge
            .files
            .iter()
            .map(|f| f.path.chars().count())
            .max()
            .unwrap_or(0);
        for file in plan
            .merge
            .files
            .iter()
            .filter(|f| f.summary != Summary::Unchanged)
        {
            let what = match &file.conflict {
                Some(conflict) => match resolution.filter(|how| conflict.resolve(*how).is_some()) {
                    Some(Resolution::Theirs) => {
                        format!("conflict ({}), took theirs", conflict.clash.describe())
                    }
                    Some(Resolution::Ours) => {
                        format!("conflict ({}), kept ours", conflict.clash.describe())
                    }
                    _ => format!("conflict: {}", conflict.clash.describe()),
                },
                None => file.summary.words().to_owned(),
            };
            text.push_str(&format!("  {:<width$}  {what}\n", file.path));
        }
        if let Some(updated) = updated {
            match &updated.before {
                Some(before) => text.push_str(&format!(
                    "What it held before is snapshot {before}; the new upstream is its baseline, snapshot {}. `skilldeck undo` puts it back.\n",
                    updated.baseline
                )),
                None => text.push_str(&format!(
                    "Its files already held the merge; the new upstream is its baseline, snapshot {}.\n",
                    updated.baseline
                )),
            }
        }
    }
    super::print(&text)
}

fn skill_json<'a>(
    args: &Args,
    plan: &'a Plan,
    done: &'a [Updated],
    resolution: Option<Resolution>,
    stopped: Option<&UpdateError>,
) -> SkillJson<'a> {
    let updated = done.iter().find(|u| u.dir == plan.dir);
    let stopped_here = stopped.filter(|error| match error {
        UpdateError::Conflicts { dir, .. } | UpdateError::WouldGoStale { dir, .. } => {
            *dir == plan.dir
        }
        _ => false,
    });
    let status = match (updated, stopped_here) {
        _ if plan.up_to_date() => "up_to_date",
        (Some(_), _) => "updated",
        (None, Some(UpdateError::Conflicts { .. })) => "conflict",
        (None, Some(_)) => "would_go_stale",
        (None, None) if args.dry_run => "would_update",
        (None, None) => "not_updated",
    };
    SkillJson {
        name: &plan.name,
        dir: &plan.dir,
        status,
        baseline: match &plan.baseline {
            Baseline::Snapshot(id) => BaselineJson::Snapshot(id),
            Baseline::Pristine(path) => BaselineJson::Pristine(path),
        },
        written: updated.is_some_and(|u| u.written),
        before: updated.and_then(|u| u.before.as_deref()),
        new_baseline: updated.map(|u| u.baseline.as_str()),
        stale: &plan.stale,
        files: plan
            .merge
            .files
            .iter()
            .map(|file| FileJson {
                path: &file.path,
                summary: file.summary,
                conflict: file.conflict.as_ref().map(|c| c.clash),
                resolution: file.conflict.as_ref().and(resolution).filter(|how| {
                    file.conflict
                        .as_ref()
                        .is_some_and(|c| c.resolve(*how).is_some())
                }),
            })
            .collect(),
    }
}
