//! The managing operations, on a thread: a batch (remove, turn off or on, link, copy, move,
//! snapshot, accept, export on each of its skills in turn, reporting progress, stoppable
//! between two skills), the plans of a link, copy or move, and undo. Each asks the use case
//! in `operations::*` the command line calls, over the batch's skills, and turns its report
//! into display-safe sentences, every field of it said: done, refused (skilldeck would not,
//! and nothing was changed) or failed. The skills are found again in a fresh scan, so each
//! operation acts on what is on disk now, not on what the list showed when the question was
//! asked.

use std::convert::Infallible;
use std::path::Path;
use std::sync::mpsc::Sender;

use crate::operations;
use crate::operations::batch::{self, OnFailure, Outcome as Came};
use crate::operations::journal::{Entry, Journal, SettingsWas, StoreChange, Was};
use crate::operations::progress::{Cancel, Step};
use crate::operations::{remove, share, switch, undo};
use crate::roots::{AgentId, Machine, Scope};
use crate::scan::{self, Inventory, Skill};
use crate::snapshot::export::Unscanned;
use crate::text::{Unsafe, human, sanitize};
use crate::tui::failed::{PlanError, TaskError};
use crate::tui::manage::{
    Batch, BatchEvent, Destination, How, Job, PlanView, Summary, Target, exported_lines,
    removed_line, shared_line, switched_line, taken_notes, with_journal,
};
use crate::tui::msg::{Msg, Told};

use super::{guard, spawn};

/// The agents with no setting that turns one skill off, and the sentence saying so (and what
/// works instead): what the app's agent picker shows against them.
pub fn without_switch() -> Vec<(AgentId, String)> {
    AgentId::all()
        .filter_map(|agent| {
            switch::supported(agent)
                .err()
                .map(|why| (agent, sanitize::line(&why.to_string())))
        })
        .collect()
}

/// Run `batch` on a thread; progress, then its summary, arrive on `tx`. Cancelling what comes
/// back stops it after the skill under way.
pub fn run(machine: &Machine, tx: Sender<Msg>, batch: Batch) -> Cancel {
    let stop = Cancel::new();
    // The skills of one question come back with one undo.
    let machine = machine.in_a_batch();
    let stopped = stop.clone();
    let id = batch.id;
    spawn("skilldeck-batch", tx, move |tx| {
        let summary = guard("The batch", || run_batch(&machine, tx, &batch, &stopped))
            .unwrap_or_else(|panic| Summary {
                title: format!("{} stopped", batch.job.doing()),
                failed: vec![panic.to_string()],
                ..Summary::default()
            });
        Msg::Batch {
            id,
            event: BatchEvent::Done(summary),
        }
    });
    stop
}

/// What one skill's operation came to.
enum Outcome {
    Done(String),
    Refused(String),
    Failed(String),
}

fn run_batch(machine: &Machine, tx: &Sender<Msg>, batch: &Batch, stop: &Cancel) -> Summary {
    let run = Run {
        machine,
        tx,
        batch,
        stop,
    };
    let mut summary = match &batch.job {
        Job::Remove => run.removing(),
        Job::Switch {
            agent,
            off,
            scope,
            whole_plugin,
        } => run.switching(*agent, *off, *scope, *whole_plugin),
        Job::Share { to, force } => run.sharing(*to, *force),
        Job::Snapshot => run.each(&Each::Snapshot),
        Job::Accept => run.each(&Each::Accept),
        Job::Export { folder } => run.each(&Each::Export(folder)),
    };
    summary.title = format!(
        "{}: {} of {} done",
        batch.job.doing(),
        summary.done.len(),
        batch.skills.len()
    );
    summary
}

/// A batch on its thread.
struct Run<'a> {
    machine: &'a Machine,
    tx: &'a Sender<Msg>,
    batch: &'a Batch,
    stop: &'a Cancel,
}

/// The jobs done on each skill's folder as it is, with no scan.
enum Each<'a> {
    Snapshot,
    Accept,
    /// An archive in the folder, as typed.
    Export(&'a str),
}

impl Run<'_> {
    /// Each skill under way, as the batch's progress.
    fn progress(&self) -> impl FnMut(Step<'_>) + '_ {
        |step: Step<'_>| {
            if let Step::Target { current, done, .. } = step {
                let _ = self.tx.send(Msg::Batch {
                    id: self.batch.id,
                    event: BatchEvent::Progress {
                        done,
                        current: current.to_owned(),
                    },
                });
            }
        }
    }

    /// The batch's skills as they are on disk now, in `inventory`; a skill gone since the
    /// question is said in `summary`.
    fn found<'i>(&self, inventory: &'i Inventory, summary: &mut Summary) -> Vec<&'i Skill> {
        let home = self.machine.home();
        let mut skills = Vec::new();
        for target in &self.batch.skills {
            match inventory.skills.iter().find(|s| s.dir == target.dir) {
                Some(skill) => skills.push(skill),
                None => summary.add(Outcome::Failed(format!(
                    "{}: no skill is at {} any more; nothing was done.",
                    target.name,
                    human::path(&target.dir, home, Unsafe::Dropped)
                ))),
            }
        }
        skills
    }

    /// Each outcome of a use case's report, in the summary.
    fn said<R, E: std::fmt::Display>(
        summary: &mut Summary,
        name: &str,
        came: &Came<R, E>,
        refusal: impl Fn(&E) -> bool,
        line: impl Fn(&R) -> String,
    ) {
        match came {
            Came::Done(report) => summary.add(Outcome::Done(line(report))),
            Came::Failed(error) => summary.add(refused_or_failed(name, refusal(error), error)),
            Came::NotReached => summary.stopped.push(name.to_owned()),
        }
    }

    /// The remove use case over the batch's skills; its report said.
    fn removing(&self) -> Summary {
        let home = self.machine.home();
        let mut summary = Summary::default();
        let inventory = scan_now(self.machine);
        let targets = self
            .found(&inventory, &mut summary)
            .into_iter()
            .map(|skill| remove::Target { skill, only: None })
            .collect();
        let mut progress = self.progress();
        let report = remove::run(
            self.machine,
            targets,
            OnFailure::GoOn,
            &mut progress,
            self.stop,
        );
        for (target, came) in &report.outcomes {
            let name = &target.skill.name;
            Self::said(
                &mut summary,
                name,
                came,
                remove::RemoveError::is_refusal,
                |r| removed_line(name, r, home),
            );
        }
        summary
    }

    /// The switch use case over the batch's skills, for `agent`, in its `scope` settings.
    fn switching(&self, agent: AgentId, off: bool, scope: Scope, whole_plugin: bool) -> Summary {
        let home = self.machine.home();
        let mut summary = Summary::default();
        let inventory = scan_now(self.machine);
        let requests = self
            .found(&inventory, &mut summary)
            .into_iter()
            .map(|skill| switch::Request {
                skill,
                agent,
                scope: Some(scope),
                whole_plugin,
            })
            .collect();
        let turn = if off {
            switch::Turn::Off
        } else {
            switch::Turn::On
        };
        let mut progress = self.progress();
        let report = switch::run(
            self.machine,
            requests,
            turn,
            OnFailure::GoOn,
            &mut progress,
            self.stop,
        );
        for (request, came) in &report.outcomes {
            let name = &request.skill.name;
            Self::said(
                &mut summary,
                name,
                came,
                switch::SwitchError::is_refusal,
                |s| switched_line(name, s, home),
            );
        }
        summary
    }

    /// The link, copy or move use case over the batch's skills, to `to`.
    fn sharing(&self, to: Destination, force: bool) -> Summary {
        let home = self.machine.home();
        let mut summary = Summary::default();
        let inventory = scan_now(self.machine);
        let skills = self.found(&inventory, &mut summary);
        let request = share::Request {
            share: share_of(to.how),
            agent: to.agent,
            scope: to.scope,
            force,
            all_agents: to.all_agents,
        };
        let mut progress = self.progress();
        let report = share::run(
            self.machine,
            &inventory,
            skills,
            request,
            OnFailure::GoOn,
            &mut progress,
            self.stop,
        );
        for (skill, came) in &report.outcomes {
            let name = &skill.name;
            Self::said(
                &mut summary,
                name,
                came,
                share::ShareError::is_refusal,
                |s| shared_line(name, s, home),
            );
        }
        summary
    }

    /// Each skill's folder in turn, through `job`.
    fn each(&self, job: &Each<'_>) -> Summary {
        let mut summary = Summary::default();
        let skills = &self.batch.skills;
        let mut progress = self.progress();
        let outcomes = batch::each(
            skills,
            |target| target.name.clone(),
            OnFailure::GoOn,
            &mut progress,
            self.stop,
            |target| {
                Ok::<_, Infallible>(
                    guard("it", || one(self.machine, job, target)).unwrap_or_else(|stopped| {
                        Outcome::Failed(format!("{}: {stopped}", target.name))
                    }),
                )
            },
        );
        for (target, came) in skills.iter().zip(outcomes) {
            match came {
                Came::Done(outcome) => summary.add(outcome),
                Came::Failed(never) => match never {},
                Came::NotReached => summary.stopped.push(target.name.clone()),
            }
        }
        summary
    }
}

impl Summary {
    fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Done(line) => self.done.push(sanitize::line(&line)),
            Outcome::Refused(line) => self.refused.push(sanitize::line(&line)),
            Outcome::Failed(line) => self.failed.push(sanitize::line(&line)),
        }
    }
}

fn scan_now(machine: &Machine) -> Inventory {
    scan::scan(&machine.env, &machine.project, &|_| {})
}

/// `error` as a refusal or a failure, after the skill's name.
fn refused_or_failed(name: &str, refusal: bool, error: &dyn std::fmt::Display) -> Outcome {
    let line = format!("{name}: {error}");
    if refusal {
        Outcome::Refused(line)
    } else {
        Outcome::Failed(line)
    }
}

/// One skill's snapshot, accept or export.
fn one(machine: &Machine, job: &Each<'_>, target: &Target) -> Outcome {
    let home = machine.home();
    let name = &target.name;
    match job {
        Each::Snapshot => {
            let mut done = operations::snapshot::snapshot(machine, vec![target.dir.clone()]);
            match done.taken.pop() {
                Some((_, Ok(taken))) => {
                    let id = &taken.snapshot.id;
                    let mut line = if taken.fresh {
                        format!("{name}: kept as snapshot {id}.")
                    } else {
                        format!("{name}: already matches snapshot {id}; no copy was made.")
                    };
                    line.push_str(&taken_notes(&taken));
                    Outcome::Done(with_journal(line, done.unjournalled.as_ref()))
                }
                Some((_, Err(error))) => refused_or_failed(
                    name,
                    operations::snapshot::not_a_skill(&error) || error.is_refusal(),
                    &error,
                ),
                None => Outcome::Failed(format!("{name}: no snapshot was taken.")),
            }
        }
        Each::Accept => match operations::snapshot::accept(machine, &target.dir) {
            Ok(accepted) => {
                let mut line = format!(
                    "{name}: accepted as it is now (snapshot {}).",
                    accepted.taken.snapshot.id
                );
                line.push_str(&taken_notes(&accepted.taken));
                Outcome::Done(with_journal(line, accepted.unjournalled.as_ref()))
            }
            Err(error) => refused_or_failed(name, error.is_refusal(), &error),
        },
        Each::Export(folder) => match operations::export::export_into(
            machine,
            &target.dir,
            Path::new(folder),
            Unscanned::LeaveOut,
        ) {
            Ok(exported) => {
                let (mut line, more) = exported_lines(name, &exported, home);
                for detail in more {
                    line.push_str(&format!(" {detail}."));
                }
                Outcome::Done(line)
            }
            Err(error) => refused_or_failed(name, error.is_refusal(), &error),
        },
    }
}

fn share_of(how: How) -> share::Share {
    match how {
        How::Link => share::Share::Link,
        How::Copy => share::Share::Copy,
        How::Move => share::Share::Move,
    }
}

/// Plan where each of `skills` would go, and what it would shadow; the plans arrive on `tx`.
pub fn plan(
    machine: &Machine,
    tx: Sender<Msg>,
    request: u64,
    to: Destination,
    skills: Vec<Target>,
) {
    let machine = machine.clone();
    spawn("skilldeck-plan", tx, move |_| {
        let planned = guard("The planning", || plans(&machine, to, &skills));
        let plans = planned.unwrap_or_else(|stopped| {
            skills
                .iter()
                .map(|t| (t.clone(), Err(stopped.clone().into())))
                .collect()
        });
        Msg::Planned { request, to, plans }
    });
}

fn plans(
    machine: &Machine,
    to: Destination,
    skills: &[Target],
) -> Vec<(Target, Result<PlanView, PlanError>)> {
    let home = machine.home();
    let shown = |path: &Path| human::path(path, home, Unsafe::Dropped);
    let inventory = scan_now(machine);
    skills
        .iter()
        .map(|target| {
            let Some(skill) = inventory.skills.iter().find(|s| s.dir == target.dir) else {
                return (target.clone(), Err(PlanError::Gone(shown(&target.dir))));
            };
            let request = share::Request {
                share: share_of(to.how),
                agent: to.agent,
                scope: to.scope,
                force: false,
                all_agents: to.all_agents,
            };
            let plan = share::plan(machine, &inventory, skill, &request)
                .map(|plan| PlanView {
                    from: shown(&plan.from),
                    to: shown(&plan.to),
                    shadowing: plan
                        .shadowing
                        .iter()
                        .map(|s| {
                            sanitize::line(&if s.unsettled {
                                format!(
                                    "{} would pick either {} or {}, not always the same",
                                    s.agent.display_name(),
                                    shown(&s.winner),
                                    shown(&s.loser)
                                )
                            } else {
                                format!(
                                    "{} would run {} instead of {}",
                                    s.agent.display_name(),
                                    shown(&s.winner),
                                    shown(&s.loser)
                                )
                            })
                        })
                        .collect(),
                })
                .map_err(PlanError::Share);
            (target.clone(), plan)
        })
        .collect()
}

/// Find what an undo would put back now; the answer arrives on `tx`.
pub fn ask_undo(machine: &Machine, tx: Sender<Msg>) {
    let machine = machine.clone();
    spawn("skilldeck-undo", tx, move |_| {
        let next = match guard("The reading of the journal", || {
            undo::pending_batch(&machine)
        }) {
            Err(stopped) => Err(TaskError::Stopped(stopped)),
            Ok(Err(error)) => Err(TaskError::UndoNext(error)),
            Ok(Ok(batch)) => Ok(batch.split_first().map(|(latest, rest)| {
                let mut lines = describe(latest, machine.home());
                if !rest.is_empty() {
                    lines.push(format!(
                        "and {} more of the same batch, undone with it",
                        rest.len()
                    ));
                }
                lines
            })),
        };
        Msg::UndoNext(next)
    });
}

/// Undo the last operation; what it did arrives on `tx`, and the skills are scanned again.
pub fn undo(machine: &Machine, tx: Sender<Msg>) {
    let machine = machine.clone();
    spawn("skilldeck-undo", tx, move |_| {
        // Lines the journal holds but undo will not act on are said too, as the command
        // line says them.
        let passed_over = Journal::of(&machine)
            .read()
            .map(|read| read.passed_over())
            .unwrap_or_default();
        let result = match guard("The undo", || undo::undo(&machine)) {
            Err(stopped) => Err(TaskError::Stopped(stopped)),
            Ok(Err(error)) => Err(TaskError::Undo(error)),
            Ok(Ok(undone)) => {
                let mut told = undone_told(&undone, machine.home());
                told.more.extend(passed_over.iter().map(|passed| {
                    let said = passed.to_string();
                    let mut rest = said.chars();
                    let first: String = rest
                        .next()
                        .map(char::to_uppercase)
                        .into_iter()
                        .flatten()
                        .collect();
                    sanitize::line(&format!("{first}{}.", rest.as_str()))
                }));
                Ok(told)
            }
        };
        Msg::TaskDone {
            result,
            rescan: true,
        }
    });
}

/// What an undo did, every field of its report said: the operation reverted (and the others
/// of its batch) in the status line; then the operations a crash had stopped, recovered
/// first, those passed over and why, each change put back, why the rest of the batch was not
/// undone, and the journal when it missed the undo.
fn undone_told(undone: &undo::Undone, home: &Path) -> Told {
    let shown = |path: &Path| human::path(path, home, Unsafe::Dropped);
    let now = std::time::SystemTime::now();
    let of = |entry: &Entry| entry.in_words(now);
    let mut note = format!("Undone: {}", of(&undone.reverted));
    if !undone.with.is_empty() {
        note.push_str(&format!(
            ", and {} more of the same batch",
            undone.with.len()
        ));
    }
    if let Some(stopped) = &undone.stopped {
        note.push_str(&format!("; the rest of the batch was not: {stopped}"));
    }
    let mut more = Vec::new();
    for recovered in &undone.recovered {
        more.push(format!(
            "Recovered {}, which a crash stopped: {} of what it was about to do had been done, and is journalled so.",
            of(recovered),
            recovered.changes.len()
        ));
    }
    for skipped in &undone.skipped {
        let why = if undo::emptied(skipped) {
            "a later prune emptied what it held"
        } else {
            "it changed no skill"
        };
        more.push(format!("Passed over {}: {why}.", of(skipped)));
    }
    for one in std::iter::once(undone).chain(&undone.with) {
        more.push(format!("Undid {}:", of(&one.reverted)));
        for change in &one.entry.changes {
            // "linked SKILL → LINK": every arrow points from the source to the destination.
            more.push(format!("  {}", change.undone_in_words(&shown, "→")));
        }
        for change in &one.entry.store {
            more.push(format!("  {}", change.undone_in_words(&shown)));
        }
        for change in &one.entry.upstream {
            more.push(format!(
                "  {}",
                operations::upstream_record::undone_in_words(change, &shown(&change.dir))
            ));
        }
        for file in &one.entry.settings {
            more.push(format!("  put back {}", shown(&file.file)));
        }
    }
    if let Some(stopped) = &undone.stopped {
        more.push(format!("The rest of that batch was not undone: {stopped}"));
    }
    if let Some(error) = &undone.unjournalled {
        more.push(format!(
            "But {error}, so a later undo will not know of this one."
        ));
    }
    Told {
        note: sanitize::line(&note),
        title: "Undone".to_owned(),
        more: more.iter().map(|line| sanitize::line(line)).collect(),
    }
}

/// What undoing `entry` puts back, one line per folder and settings file, display-safe.
fn describe(entry: &Entry, home: &Path) -> Vec<String> {
    let shown = |path: &Path| human::path(path, home, Unsafe::Dropped);
    let operation = entry.operation.in_words();
    let mut lines = vec![format!("the {operation} of {}", entry.at)];
    for change in &entry.changes {
        let dir = shown(&change.dir);
        lines.push(match &change.was {
            Was::Absent => format!("{dir} is taken away again (the {operation} made it)"),
            Was::Kept(id) => format!("{dir} gets back what snapshot {id} kept"),
            Was::Untouched => format!("{dir} stays as it is (only a snapshot was taken)"),
            Was::Link(target) => format!("{dir} becomes a link to {} again", shown(target)),
        });
    }
    // The snapshot store's own changes: deletes, prunes, accepts.
    for change in &entry.store {
        let of = format!("snapshot {} of {}", change.id(), shown(change.dir()));
        lines.push(match change {
            StoreChange::Held { .. } => format!("{of} goes back into the store"),
            StoreChange::Added { .. } => {
                format!("{of} is held aside; the baseline before it is the latest again")
            }
            StoreChange::Marked { .. } => format!("{of} is no longer marked accepted"),
            StoreChange::PutBack { .. } | StoreChange::Unmarked { .. } => {
                format!("{of} was already put back")
            }
        });
    }
    for change in &entry.upstream {
        let dir = shown(&change.dir);
        lines.push(operations::upstream_record::undoing_in_words(change, &dir));
    }
    for settings in &entry.settings {
        let file = shown(&settings.file);
        lines.push(match &settings.was {
            SettingsWas::Absent => format!("{file} goes (the {operation} made it)"),
            SettingsWas::Kept(_) => format!("{file} gets its earlier bytes back"),
        });
    }
    lines.into_iter().map(|l| sanitize::line(&l)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::journal::{Change, Operation, SettingsChange, StoreChange};
    use std::path::PathBuf;

    /// A machine in a temporary folder with the skills `names` in Claude Code's user root.
    fn machine_with(names: &[&str]) -> (tempfile::TempDir, Machine, Vec<Target>) {
        let tmp = tempfile::tempdir().unwrap();
        let root = crate::fs::canonical(tmp.path()).unwrap();
        let (home, system, project) = (root.join("home"), root.join("system"), root.join("p"));
        let mut targets = Vec::new();
        for name in names {
            let dir = home.join(".claude/skills").join(name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                dir.join("SKILL.md"),
                format!("---\nname: {name}\ndescription: d\n---\n"),
            )
            .unwrap();
            targets.push(Target {
                name: (*name).to_owned(),
                dir,
                shown_dir: String::new(),
            });
        }
        std::fs::create_dir_all(&project).unwrap();
        let machine = Machine::sandbox(&home, &system, &project);
        (tmp, machine, targets)
    }

    /// Every message of the batch, up to its summary.
    fn events_of(machine: &Machine, batch: Batch) -> (Vec<(usize, String)>, Summary) {
        let (tx, rx) = std::sync::mpsc::channel();
        let id = batch.id;
        run(machine, tx, batch);
        let mut progress = Vec::new();
        loop {
            match rx.recv_timeout(std::time::Duration::from_secs(30)).unwrap() {
                Msg::Batch {
                    id: got,
                    event: BatchEvent::Progress { done, current },
                } if got == id => progress.push((done, current)),
                Msg::Batch {
                    id: got,
                    event: BatchEvent::Done(summary),
                } if got == id => return (progress, summary),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn the_skills_of_one_question_come_back_with_one_undo() {
        let (_tmp, machine, skills) = machine_with(&["alpha", "beta"]);
        let (_, summary) = events_of(
            &machine,
            Batch {
                id: 3,
                job: Job::Remove,
                skills: skills.clone(),
            },
        );
        assert_eq!(summary.done.len(), 2, "{summary:?}");
        assert!(skills.iter().all(|skill| !skill.dir.exists()));
        let undone = undo::undo(&machine).unwrap();
        assert_eq!(undone.with.len(), 1);
        assert!(undone.stopped.is_none());
        assert!(
            skills
                .iter()
                .all(|skill| skill.dir.join("SKILL.md").is_file())
        );
    }

    #[test]
    fn a_batch_reports_each_skill_then_one_summary() {
        let (_tmp, machine, skills) = machine_with(&["alpha", "beta"]);
        let (progress, summary) = events_of(
            &machine,
            Batch {
                id: 7,
                job: Job::Snapshot,
                skills: skills.clone(),
            },
        );
        assert_eq!(progress, [(0, "alpha".to_owned()), (1, "beta".to_owned())]);
        assert_eq!(summary.title, "Snapshotting: 2 of 2 done");
        assert_eq!(summary.done.len(), 2);
        assert!(summary.done[0].starts_with("alpha: kept as snapshot "));
        let store = crate::snapshot::Store::open(&machine.env);
        for skill in &skills {
            assert!(store.latest(&skill.dir).unwrap().is_some());
        }
    }

    #[test]
    fn a_skill_gone_since_the_question_is_said_and_the_others_go_on() {
        let (_tmp, machine, mut skills) = machine_with(&["alpha"]);
        let gone = Target {
            name: "ghost".to_owned(),
            dir: machine.home().join(".claude/skills/ghost"),
            shown_dir: String::new(),
        };
        skills.insert(0, gone);
        let (_, summary) = events_of(
            &machine,
            Batch {
                id: 1,
                job: Job::Remove,
                skills,
            },
        );
        assert_eq!(
            summary.failed,
            ["ghost: no skill is at ~/.claude/skills/ghost any more; nothing was done."]
        );
        // alpha was asked of the operation: done, or refused or failed with its sentence.
        let alpha = summary
            .done
            .iter()
            .chain(&summary.refused)
            .chain(&summary.failed)
            .filter(|l| l.starts_with("alpha: "))
            .count();
        assert_eq!(alpha, 1, "{summary:?}");
    }

    #[test]
    fn an_entry_says_what_its_undo_puts_back() {
        let home = PathBuf::from("/home/u");
        let mut entry = Entry::now(
            Operation::Remove,
            vec![Change {
                dir: home.join(".claude/skills/pdf"),
                was: Was::Kept("s1".to_owned()),
                snapshot: None,
                link: None,
            }],
        );
        entry.at = "2026-12-01T12:00:00.000Z".to_owned();
        entry.settings.push(SettingsChange {
            file: home.join(".claude/settings.json\u{1b}[2J"),
            was: SettingsWas::Kept("b1".to_owned()),
            after: "sha256:00".to_owned(),
            within: None,
        });
        assert_eq!(
            describe(&entry, &home),
            [
                "the remove of 2026-12-01T12:00:00.000Z",
                "~/.claude/skills/pdf gets back what snapshot s1 kept",
                "~/.claude/settings.json gets its earlier bytes back",
            ]
        );
    }

    #[test]
    fn a_snapshot_delete_is_named_in_words() {
        let home = PathBuf::from("/home/u");
        let mut entry = Entry::now(Operation::DeleteSnapshot, Vec::new());
        entry.at = "2026-12-01T12:00:00.000Z".to_owned();
        entry.store.push(StoreChange::Held {
            dir: home.join(".claude/skills/pdf"),
            id: "s1".to_owned(),
            history: "pdf-0".to_owned(),
            held: home.join("held"),
        });
        let said = describe(&entry, &home);
        assert_eq!(said[0], "the snapshot delete of 2026-12-01T12:00:00.000Z");
        assert!(
            said[1].contains("snapshot s1 of ~/.claude/skills/pdf"),
            "{said:?}"
        );
    }

    #[test]
    fn an_upstream_record_put_back_or_forgotten_is_named_in_words() {
        use crate::operations::journal::UpstreamChange;
        use crate::record::upstream::Upstream;
        let home = PathBuf::from("/home/u");
        let was = Upstream {
            repository: "https://me:secret@example.org/r.git".to_owned(),
            reference: Some("main".to_owned()),
            commit: "0123456789abcdef0123456789abcdef01234567".to_owned(),
            path: "skills/pdf".to_owned(),
        };
        let mut entry = Entry::now(Operation::Update, Vec::new());
        entry.upstream.push(UpstreamChange {
            dir: home.join(".claude/skills/pdf"),
            was: Some(was.clone()),
            now: None,
        });
        entry.upstream.push(UpstreamChange {
            dir: home.join(".claude/skills/new"),
            was: None,
            now: Some(was),
        });
        let said = describe(&entry, &home);
        assert_eq!(
            said[1],
            "~/.claude/skills/pdf is recorded again as coming from https://me:***@example.org/r.git at main, commit 0123456789ab"
        );
        assert_eq!(said[2], "where ~/.claude/skills/new came from is forgotten");
    }
}
