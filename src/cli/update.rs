//! `skilldeck update SKILL... [--from SOURCE]`: bring installed skills to a new upstream by a
//! three-way merge that keeps the user's edits, or stop with nothing written. The upstream is
//! SOURCE (any source `import` reads: a folder, an archive, a git repository), else the
//! repository each skill was imported from, as recorded then, fetched again at its ref.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::merge::{Clash, Resolution, Summary};
use crate::operations::progress::{Cancel, Step};
use crate::operations::update::{
    self, Baseline, Choices, PrepareError, Report, Request, SkillReport, Status, UpdateError,
    UpstreamError,
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
    /// `up_to_date`, `updated`, `would_update`, `conflict`, `would_go_stale`, `not_updated`.
    status: Status,
    baseline: BaselineJson<'a>,
    written: bool,
    before: Option<&'a str>,
    new_baseline: Option<&'a str>,
    stale: &'a [String],
    files: Vec<FileJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lock: Option<super::json::LockKeptJson<'a>>,
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
    let from = args
        .from
        .as_ref()
        .map(|from| source::parse(from, args.path.as_deref()));
    if let (Some(Source::Local(from)), Some(_)) = (&from, &args.path) {
        return Err(Failure::Usage(format!(
            "--path picks a folder of a git repository, and {} is not one; name the folder instead",
            from.display()
        )));
    }
    let mut progress = |step: Step<'_>| {
        if let Step::Said(said) = step {
            let _ = super::eprint(&format!("skilldeck: {said}\n"));
        }
    };
    let planned = match update::prepare(
        machine,
        &chosen,
        &Request { from },
        &mut progress,
        &Cancel::new(),
    ) {
        Ok(planned) => planned,
        Err(error) => return refuse_prepared(args, machine, error),
    };
    let choices = Choices {
        take: args.take.map(|take| match take {
            Take::Theirs => Resolution::Theirs,
            Take::Ours => Resolution::Ours,
        }),
        each: Vec::new(),
        yes: args.yes,
    };
    let report = if args.dry_run {
        planned.preview(&choices)
    } else {
        update::apply(machine, &planned, &choices, &mut progress, &Cancel::new())
    };
    for skill in &report.skills {
        if let Some(error) = &skill.unremembered {
            super::eprint(&format!(
                "skilldeck: where {} came from could not be recorded ({error}); the next update needs --from\n",
                human::path(&skill.dir, machine.env.home(), Unsafe::Escaped)
            ))?;
        }
    }
    print(args, machine, &report)?;
    if let Some(error) = &report.stopped {
        return stopped(args, error);
    }
    for updated in report.updated().filter_map(|s| s.updated.as_ref()) {
        super::warn_unjournalled(updated.unjournalled.as_ref())?;
        super::say_lock_upkeep(&updated.lock)?;
    }
    Ok(Outcome::Done)
}

/// The refusal of an update that could not be planned, with the code of the command-line
/// contract.
fn refuse_prepared(
    args: &Args,
    machine: &Machine,
    error: PrepareError,
) -> Result<Outcome, Failure> {
    match error {
        PrepareError::Upstream { error, .. } => match *error {
            UpstreamError::NoUpstream(dir) => target::refuse(
                args.json,
                "no_upstream",
                Failure::Refused(format!(
                    "skilldeck did not import {} from a git repository, so it does not know where to update it from; give the new upstream with --from SOURCE",
                    human::path(&dir, machine.env.home(), Unsafe::Escaped)
                )),
            ),
            error => target::refuse(args.json, error.code(), Failure::Refused(error.to_string())),
        },
        PrepareError::Plan { error, .. } => target::refuse(
            args.json,
            error.code(),
            target::failure(error.is_refusal(), &error),
        ),
        // Nothing here cancels the command line's update.
        PrepareError::Cancelled => Err(Failure::Refused(error.to_string())),
    }
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

fn print(args: &Args, machine: &Machine, report: &Report) -> Result<(), Failure> {
    if args.json {
        return super::json::print(&UpdateJson {
            dry_run: report.dry_run,
            skills: report.skills.iter().map(skill_json).collect(),
            refused: report.stopped.as_ref().map(|error| RefusalJson {
                code: error.code(),
                message: error.to_string(),
            }),
            undo: "skilldeck undo",
        });
    }
    let home = machine.home();
    let mut text = String::new();
    for skill in &report.skills {
        let shown = human::path(&skill.dir, home, Unsafe::Escaped);
        let head = match skill.status {
            Status::UpToDate => {
                format!(
                    "{} ({shown}) is up to date with the upstream.\n",
                    skill.name
                )
            }
            Status::Updated => format!("Updated {} ({shown}):\n", skill.name),
            _ if report.dry_run => format!("Updating {} ({shown}) would do:\n", skill.name),
            _ => format!("{} ({shown}), as the update would merge it:\n", skill.name),
        };
        text.push_str(&head);
        if skill.status == Status::UpToDate {
            continue;
        }
        text.push_str(&files_text(skill));
        if let Some(updated) = &skill.updated {
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

/// A line per file something happens to, its conflict with the side that settles it.
fn files_text(skill: &SkillReport) -> String {
    let width = skill
        .files
        .iter()
        .map(|f| f.path.chars().count())
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    for file in skill
        .files
        .iter()
        .filter(|f| f.summary != Summary::Unchanged)
    {
        let what = match (file.conflict, file.resolution) {
            (Some(clash), Some(Resolution::Theirs)) => {
                format!("conflict ({}), took theirs", clash.describe())
            }
            (Some(clash), Some(Resolution::Ours)) => {
                format!("conflict ({}), kept ours", clash.describe())
            }
            (Some(clash), _) => format!("conflict: {}", clash.describe()),
            (None, _) => file.summary.words().to_owned(),
        };
        text.push_str(&format!("  {:<width$}  {what}\n", file.path));
    }
    text
}

fn skill_json(skill: &SkillReport) -> SkillJson<'_> {
    let updated = skill.updated.as_ref();
    SkillJson {
        name: &skill.name,
        dir: &skill.dir,
        status: skill.status,
        baseline: match &skill.baseline {
            Baseline::Snapshot(id) => BaselineJson::Snapshot(id),
            Baseline::Pristine(path) => BaselineJson::Pristine(path),
        },
        written: updated.is_some_and(|u| u.written),
        before: updated.and_then(|u| u.before.as_deref()),
        new_baseline: updated.map(|u| u.baseline.as_str()),
        stale: &skill.stale,
        files: skill
            .files
            .iter()
            .map(|file| FileJson {
                path: &file.path,
                summary: file.summary,
                conflict: file.conflict,
                resolution: file.resolution,
            })
            .collect(),
        lock: updated.and_then(|u| super::json::LockKeptJson::of(&u.lock)),
    }
}
