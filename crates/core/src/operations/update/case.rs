//! The update as one use case, in two steps the app shows between: [`prepare`] reads every
//! skill's new upstream (each source once) and plans every merge, writing nothing, into a
//! [`Planned`]; [`apply`] writes what was planned, the conflicts settled by the [`Choices`]
//! made after seeing it — never a second fetch — and returns the [`Report`]. The command line
//! runs both at once (or stops after the first, `--dry-run`); the app asks in between. What
//! stops an update, each skill's status, which resolution a file took, what was remembered:
//! decided here, said by the front ends.

use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::merge::{Clash, Resolution, Summary};
use crate::roots::Machine;
use crate::scan::Skill;
use crate::source::Source;

use super::super::batch::{self, OnFailure, Outcome};
use super::super::progress::{Cancel, Progress, Step};
use super::{Baseline, Fetched, Plan, UpdateError, Updated, UpstreamError, Wanted};

/// What to update from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// The new upstream of every skill; `None`: each skill's recorded upstream.
    pub from: Option<Source>,
}

/// Why an update was not planned; nothing was read into place or written.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// The skill's new upstream could not be told or read.
    #[error("{name}: {error}")]
    Upstream {
        name: String,
        dir: PathBuf,
        error: Box<UpstreamError>,
    },
    /// The upstream was read, but the skill cannot be planned against it.
    #[error("{name}: {error}")]
    Plan {
        name: String,
        dir: PathBuf,
        error: Box<UpdateError>,
    },
    /// Stopped as asked, before anything was written.
    #[error("the update was stopped before anything was written")]
    Cancelled,
}

/// Every skill's plan, with the upstreams they were planned against.
pub struct Planned {
    pub plans: Vec<Plan>,
    reads: Vec<Fetched>,
    /// Which of `reads` each plan's upstream is.
    from: Vec<usize>,
}

/// How the conflicts are settled, and whether another installer's record may go stale.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choices {
    /// The side that settles every conflict not chosen one by one.
    pub take: Option<Resolution>,
    /// Each conflict's own choice.
    pub each: Vec<Settled>,
    /// Update a skill another installer recorded, though its record will no longer match.
    pub yes: bool,
}

/// One conflict's choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    pub dir: PathBuf,
    pub path: String,
    pub resolution: Resolution,
}

impl Choices {
    /// The resolution chosen for the file `path` of the skill at `dir`.
    pub fn of(&self, dir: &Path, path: &str) -> Option<Resolution> {
        self.each
            .iter()
            .find(|s| s.dir == dir && s.path == path)
            .map(|s| s.resolution)
            .or(self.take)
    }
}

/// What came of one skill, or would.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    UpToDate,
    Updated,
    /// A dry run: it would be updated.
    WouldUpdate,
    /// Its conflicts are not all settled: it stopped the update.
    Conflict,
    /// Another installer's record would go stale: it stopped the update.
    WouldGoStale,
    /// Not written: the update stopped, at it or at another skill.
    NotUpdated,
}

/// What became of one file, or would.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileReport {
    pub path: String,
    pub summary: Summary,
    pub conflict: Option<Clash>,
    /// The side that settles its conflict, when one was chosen that can.
    pub resolution: Option<Resolution>,
}

/// What came of one skill: every field is something the person is told.
#[derive(Debug)]
pub struct SkillReport {
    pub name: String,
    /// The skill folder, links resolved.
    pub dir: PathBuf,
    pub status: Status,
    pub baseline: Baseline,
    /// Every file of the merge, in path order, the unchanged included.
    pub files: Vec<FileReport>,
    /// Each record of another installer's the update leaves (or would leave) stale.
    pub stale: Vec<String>,
    /// What the update wrote and kept, when it was applied to this skill.
    pub updated: Option<Updated>,
    /// Where it came from could not be recorded: the next update needs its upstream named.
    pub unremembered: Option<io::Error>,
}

/// What an update did, or would do.
#[derive(Debug)]
pub struct Report {
    /// Nothing was to be written: a preview.
    pub dry_run: bool,
    pub skills: Vec<SkillReport>,
    /// Why the update stopped; the skills updated before it stay updated (and undo puts them
    /// back).
    pub stopped: Option<UpdateError>,
    /// Which of `skills` stopped it.
    pub stopped_at: Option<usize>,
    /// Stopped as asked, between two skills: those before it were updated.
    pub cancelled: bool,
}

impl Report {
    /// Every skill was already up to date.
    pub fn up_to_date(&self) -> bool {
        self.skills.iter().all(|s| s.status == Status::UpToDate)
    }

    /// The skills written.
    pub fn updated(&self) -> impl Iterator<Item = &SkillReport> {
        self.skills.iter().filter(|s| s.updated.is_some())
    }

    /// How many files of the skills written took each fate, and how many conflicts were
    /// settled.
    pub fn tally(&self) -> Tally {
        let mut tally = Tally::default();
        for file in self.updated().flat_map(|s| &s.files) {
            match file.summary {
                Summary::TookTheirs => tally.theirs += 1,
                Summary::Merged => tally.merged += 1,
                Summary::KeptOurs => tally.ours += 1,
                Summary::Conflict if file.resolution.is_some() => tally.settled += 1,
                Summary::Unchanged | Summary::Conflict => {}
            }
        }
        tally
    }
}

/// Counts of what the files of an update became.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub theirs: usize,
    pub merged: usize,
    pub ours: usize,
    pub settled: usize,
}

/// Read the new upstream of each of `skills` (each source once, said to `progress`, the
/// skill it is read for as a [`Step::Target`]) and plan every merge; nothing is written.
/// Every skill is planned before any is written: one that cannot be updated stops them all.
///
/// # Errors
/// [`PrepareError`]: the first skill whose upstream is unknown or unreadable, or that cannot
/// be planned; or a cancel, seen between two reads.
pub fn prepare(
    machine: &Machine,
    skills: &[&Skill],
    request: &Request,
    progress: &mut dyn Progress,
    cancel: &Cancel,
) -> Result<Planned, PrepareError> {
    let mut planned = Planned {
        plans: Vec::new(),
        reads: Vec::new(),
        from: Vec::new(),
    };
    for (done, skill) in skills.iter().enumerate() {
        if cancel.is_cancelled() {
            return Err(PrepareError::Cancelled);
        }
        let upstream_error = |error| PrepareError::Upstream {
            name: skill.name.clone(),
            dir: skill.real_dir.clone(),
            error: Box::new(error),
        };
        let wanted =
            Wanted::of(machine, &skill.real_dir, request.from.as_ref()).map_err(upstream_error)?;
        let index = match planned.reads.iter().position(|r| r.wanted == wanted) {
            Some(index) => index,
            None => {
                progress.step(Step::Target {
                    current: &skill.name,
                    done,
                    total: skills.len(),
                });
                let read = Fetched::read(wanted, progress).map_err(upstream_error)?;
                planned.reads.push(read);
                planned.reads.len() - 1
            }
        };
        // Planned by the upstream read, so that applying it records (and journals) where the
        // skill now comes from in the update's own entry.
        let plan =
            planned.reads[index]
                .plan(machine, skill)
                .map_err(|error| PrepareError::Plan {
                    name: skill.name.clone(),
                    dir: skill.real_dir.clone(),
                    error: Box::new(error),
                })?;
        planned.plans.push(plan);
        planned.from.push(index);
    }
    Ok(planned)
}

impl Planned {
    /// Every skill is up to date: applying writes nothing but where each now stands.
    pub fn up_to_date(&self) -> bool {
        self.plans.iter().all(Plan::up_to_date)
    }

    /// Why the update cannot go ahead as `choices` settle it: the first skill that stops it
    /// (its index), and why.
    pub fn stops(&self, choices: &Choices) -> Option<(usize, UpdateError)> {
        self.plans.iter().enumerate().find_map(|(at, plan)| {
            plan.stops(&|path: &str| choices.of(&plan.dir, path), choices.yes)
                .map(|error| (at, error))
        })
    }

    /// What applying with `choices` would do, writing nothing: the dry run.
    pub fn preview(&self, choices: &Choices) -> Report {
        self.report(choices, true, self.stops(choices))
    }

    /// The report of the plans, before anything is written: each skill's status as `stopped`
    /// leaves it.
    fn report(
        &self,
        choices: &Choices,
        dry_run: bool,
        stopped: Option<(usize, UpdateError)>,
    ) -> Report {
        let (stopped_at, stopped) = stopped.unzip();
        let skills = self
            .plans
            .iter()
            .map(|plan| {
                let stopped_here = match &stopped {
                    Some(UpdateError::Conflicts { dir, .. }) if *dir == plan.dir => {
                        Some(Status::Conflict)
                    }
                    Some(UpdateError::WouldGoStale { dir, .. }) if *dir == plan.dir => {
                        Some(Status::WouldGoStale)
                    }
                    _ => None,
                };
                let status = match stopped_here {
                    _ if plan.up_to_date() => Status::UpToDate,
                    Some(status) => status,
                    None if dry_run => Status::WouldUpdate,
                    None => Status::NotUpdated,
                };
                skill_report(plan, choices, status)
            })
            .collect();
        Report {
            dry_run,
            skills,
            stopped,
            stopped_at,
            cancelled: false,
        }
    }
}

fn skill_report(plan: &Plan, choices: &Choices, status: Status) -> SkillReport {
    SkillReport {
        name: plan.name.clone(),
        dir: plan.dir.clone(),
        status,
        baseline: plan.baseline.clone(),
        files: plan
            .merge
            .files
            .iter()
            .map(|file| FileReport {
                path: file.path.clone(),
                summary: file.summary,
                conflict: file.conflict.as_ref().map(|c| c.clash),
                resolution: file.conflict.as_ref().and_then(|conflict| {
                    choices
                        .of(&plan.dir, &file.path)
                        .filter(|how| conflict.resolve(*how).is_some())
                }),
            })
            .collect(),
        stale: plan.stale.clone(),
        updated: None,
        unremembered: None,
    }
}

/// Update every skill `planned` has something to write for, each conflict settled by
/// `choices`, all in one batch (one undo puts them all back), each named to `progress` as it
/// is under way; then record the commit each skill now matches (an up-to-date one too), for
/// the next update and `outdated`. When `choices` leave a conflict unsettled, or a record
/// stale that may not be, nothing is written; a skill that fails stops the rest, and the
/// report says what was updated before it. A cancel stops between two skills, each written
/// whole.
pub fn apply(
    machine: &Machine,
    planned: &Planned,
    choices: &Choices,
    progress: &mut dyn Progress,
    cancel: &Cancel,
) -> Report {
    if let Some(stopped) = planned.stops(choices) {
        return planned.report(choices, false, Some(stopped));
    }
    let mut report = planned.report(choices, false, None);
    let batch = machine.in_a_batch();
    let skills: Vec<usize> = (0..planned.plans.len()).collect();
    let outcomes = batch::each(
        &skills,
        |&at| planned.plans[at].name.clone(),
        OnFailure::Stop,
        progress,
        cancel,
        |&at| {
            let plan = &planned.plans[at];
            let updated = if plan.up_to_date() {
                None
            } else {
                let resolve = |path: &str| choices.of(&plan.dir, path);
                Some(super::write(&batch, plan, &resolve, choices.yes)?)
            };
            // In the batch, so one undo puts back the files and the record together.
            let unremembered = planned.reads[planned.from[at]]
                .remember(&batch, &plan.dir)
                .err();
            Ok::<_, UpdateError>((updated, unremembered))
        },
    );
    for (at, (outcome, skill)) in outcomes.into_iter().zip(&mut report.skills).enumerate() {
        match outcome {
            Outcome::Done((updated, unremembered)) => {
                if updated.is_some() {
                    skill.status = Status::Updated;
                }
                skill.updated = updated;
                skill.unremembered = unremembered;
            }
            Outcome::Failed(error) => {
                report.stopped = Some(error);
                report.stopped_at = Some(at);
            }
            Outcome::NotReached => report.cancelled |= cancel.is_cancelled(),
        }
    }
    report
}

#[cfg(test)]
mod tests;
