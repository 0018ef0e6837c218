//! The managing operations, on a thread: a batch (remove, turn off or on, link, copy, move,
//! snapshot, accept, export on each of its skills in turn, reporting progress, stoppable
//! between two skills), the plans of a link, copy or move, and undo. Each asks
//! `operations::*`, the same functions the command line calls, and turns what they say into
//! display-safe sentences: done, refused (skilldeck would not, and nothing was changed) or
//! failed. The skills are found again in a fresh scan, so each operation acts on what is on
//! disk now, not on what the list showed when the question was asked.

use std::convert::Infallible;
use std::path::Path;
use std::sync::mpsc::Sender;

use crate::operations::batch::{self, OnFailure, Outcome as Came};
use crate::operations::journal::{Entry, SettingsWas, Was};
use crate::operations::progress::{Cancel, Step};
use crate::operations::{self, JournalError};
use crate::operations::{remove, share, switch, undo};
use crate::roots::{AgentId, Machine};
use crate::scan::{self, Inventory, Skill};
use crate::snapshot::export::Unscanned;
use crate::text::{Unsafe, human, sanitize};
use crate::tui::manage::{
    Batch, BatchEvent, Destination, How, Job, PlanView, Summary, Target, removed_line,
};
use crate::tui::msg::Msg;

use super::{guarded, spawn};

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
        let summary =
            guarded(|| run_batch(&machine, tx, &batch, &stopped)).unwrap_or_else(|panic| Summary {
                title: format!("{} stopped", batch.job.doing()),
                failed: vec![format!("The batch stopped: {panic}")],
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
    let needs_skills = matches!(
        batch.job,
        Job::Remove | Job::Switch { .. } | Job::Share { .. }
    );
    let inventory = needs_skills.then(|| scan_now(machine));
    let run = Run {
        machine,
        inventory: inventory.as_ref(),
        tx,
        batch,
        stop,
    };
    let mut summary = match batch.job {
        Job::Remove => run.removing(),
        _ => run.one_by_one(),
    };
    summary.title = format!(
        "{}: {} of {} done",
        batch.job.doing(),
        summary.done.len(),
        batch.skills.len()
    );
    summary
}

/// A batch on its thread, with the skills as they are on disk now.
struct Run<'a> {
    machine: &'a Machine,
    inventory: Option<&'a Inventory>,
    tx: &'a Sender<Msg>,
    batch: &'a Batch,
    stop: &'a Cancel,
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

    /// The remove use case over the batch's skills; its report said.
    fn removing(&self) -> Summary {
        let home = self.machine.home();
        let mut summary = Summary::default();
        let mut targets = Vec::new();
        for target in &self.batch.skills {
            match find(self.inventory, target, home) {
                Ok(skill) => targets.push(remove::Target { skill, only: None }),
                Err(outcome) => summary.add(outcome),
            }
        }
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
            summary.add(match came {
                Came::Done(removed) => Outcome::Done(removed_line(name, removed, home)),
                Came::Failed(error) => refused_or_failed(name, error.is_refusal(), error),
                Came::NotReached => {
                    summary.stopped.push(name.clone());
                    continue;
                }
            });
        }
        summary
    }

    /// Each skill in turn, through the operation of the batch's job.
    fn one_by_one(&self) -> Summary {
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
                    guarded(|| one(self.machine, self.inventory, &self.batch.job, target))
                        .unwrap_or_else(|panic| {
                            Outcome::Failed(format!("{}: it stopped: {panic}", target.name))
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

/// The skill at `dir` in `inventory`, or the sentence saying it is gone.
fn find<'i>(
    inventory: Option<&'i Inventory>,
    target: &Target,
    home: &Path,
) -> Result<&'i Skill, Outcome> {
    inventory
        .and_then(|inventory| inventory.skills.iter().find(|s| s.dir == target.dir))
        .ok_or_else(|| {
            Outcome::Failed(format!(
                "{}: no skill is at {} any more; nothing was done.",
                target.name,
                human::path(&target.dir, home, Unsafe::Dropped)
            ))
        })
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

fn one(machine: &Machine, inventory: Option<&Inventory>, job: &Job, target: &Target) -> Outcome {
    let home = machine.home();
    let name = &target.name;
    let shown = |path: &Path| human::path(path, home, Unsafe::Dropped);
    match job {
        // Run as one use case over the batch (see `removing`).
        Job::Remove => Outcome::Failed(format!("{name}: not removed one by one")),
        Job::Switch {
            agent,
            off,
            scope,
            whole_plugin,
        } => {
            let skill = match find(inventory, target, home) {
                Ok(skill) => skill,
                Err(outcome) => return outcome,
            };
            let request = switch::Request {
                skill,
                agent: *agent,
                scope: Some(*scope),
                whole_plugin: *whole_plugin,
            };
            let turn = if *off {
                switch::Turn::Off
            } else {
                switch::Turn::On
            };
            let word = if *off { "off" } else { "on" };
            match switch::switch(machine, request, turn) {
                Err(error) => refused_or_failed(name, error.is_refusal(), &error),
                Ok(switched) if switched.edited.is_empty() => Outcome::Done(format!(
                    "{name}: already {word} for {}; nothing was changed.",
                    agent.display_name()
                )),
                Ok(switched) => {
                    let files: Vec<String> = switched.edited.iter().map(|p| shown(p)).collect();
                    let mut line = format!(
                        "{name}: turned {word} for {} in {}.",
                        agent.display_name(),
                        files.join(", ")
                    );
                    for note in &switched.notes {
                        line.push(' ');
                        line.push_str(note);
                    }
                    Outcome::Done(with_journal(line, switched.unjournalled))
                }
            }
        }
        Job::Share { to, force } => {
            let skill = match find(inventory, target, home) {
                Ok(skill) => skill,
                Err(outcome) => return outcome,
            };
            let Some(inventory) = inventory else {
                return Outcome::Failed(format!("{name}: the skills could not be scanned."));
            };
            let plan = match share::plan(
                machine,
                inventory,
                skill,
                share_of(to.how),
                to.agent,
                to.scope,
            ) {
                Ok(plan) => plan,
                Err(error) => return refused_or_failed(name, error.is_refusal(), &error),
            };
            match share::share(machine, &plan, *force) {
                Err(error) => refused_or_failed(name, error.is_refusal(), &error),
                Ok(shared) => {
                    let verb = match to.how {
                        How::Link => "linked",
                        How::Copy => "copied",
                        How::Move => "moved",
                    };
                    let line = format!("{name}: {verb} to {}.", shown(&shared.plan.to));
                    Outcome::Done(with_journal(line, shared.unjournalled))
                }
            }
        }
        Job::Snapshot => {
            let mut done = operations::snapshot::snapshot(machine, vec![target.dir.clone()]);
            match done.taken.pop() {
                Some((_, Ok(taken))) => {
                    let id = &taken.snapshot.id;
                    let line = if taken.fresh {
                        format!("{name}: kept as snapshot {id}.")
                    } else {
                        format!("{name}: already matches snapshot {id}; no copy was made.")
                    };
                    Outcome::Done(with_journal(line, done.unjournalled))
                }
                Some((_, Err(error))) => Outcome::Failed(format!("{name}: {error}")),
                None => Outcome::Failed(format!("{name}: no snapshot was taken.")),
            }
        }
        Job::Accept => match operations::snapshot::accept(machine, &target.dir) {
            Ok(accepted) => Outcome::Done(with_journal(
                format!(
                    "{name}: accepted as it is now (snapshot {}).",
                    accepted.taken.snapshot.id
                ),
                accepted.unjournalled,
            )),
            Err(error) => Outcome::Failed(format!("{name}: {error}")),
        },
        Job::Export { folder } => {
            let to = format!(
                "{}/{}",
                folder.trim_end_matches('/'),
                operations::export::archive_name(name)
            );
            match operations::export::export(
                machine,
                &target.dir,
                Path::new(&to),
                false,
                Unscanned::LeaveOut,
            ) {
                Ok(exported) => Outcome::Done(format!(
                    "{name}: exported to {} ({} secrets removed).",
                    shown(&exported.path),
                    exported.package.redacted.len()
                )),
                Err(error) => Outcome::Failed(format!("{name}: {error}")),
            }
        }
    }
}

fn share_of(how: How) -> share::Share {
    match how {
        How::Link => share::Share::Link,
        How::Copy => share::Share::Copy,
        How::Move => share::Share::Move,
    }
}

/// `text`, and that the journal missed it when it did.
fn with_journal(text: String, unjournalled: Option<JournalError>) -> String {
    match unjournalled {
        Some(error) => format!("{text} But {error}, so undo will not know of it."),
        None => text,
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
        let planned = guarded(|| plans(&machine, to, &skills));
        let plans = planned.unwrap_or_else(|panic| {
            skills
                .iter()
                .map(|t| (t.clone(), Err(format!("planning stopped: {panic}"))))
                .collect()
        });
        Msg::Planned { request, to, plans }
    });
}

fn plans(
    machine: &Machine,
    to: Destination,
    skills: &[Target],
) -> Vec<(Target, Result<PlanView, String>)> {
    let home = machine.home();
    let shown = |path: &Path| human::path(path, home, Unsafe::Dropped);
    let inventory = scan_now(machine);
    skills
        .iter()
        .map(|target| {
            let Some(skill) = inventory.skills.iter().find(|s| s.dir == target.dir) else {
                return (
                    target.clone(),
                    Err(format!("no skill is at {} any more", shown(&target.dir))),
                );
            };
            let plan = share::plan(
                machine,
                &inventory,
                skill,
                share_of(to.how),
                to.agent,
                to.scope,
            )
            .map(|plan| PlanView {
                from: shown(&plan.from),
                to: shown(&plan.to),
                shadowing: plan
                    .shadowing
                    .iter()
                    .map(|s| {
                        sanitize::line(&format!(
                            "{} would run {} instead of {}",
                            s.agent.display_name(),
                            shown(&s.winner),
                            shown(&s.loser)
                        ))
                    })
                    .collect(),
            })
            .map_err(|error| sanitize::line(&error.to_string()));
            (target.clone(), plan)
        })
        .collect()
}

/// Find what an undo would put back now; the answer arrives on `tx`.
pub fn ask_undo(machine: &Machine, tx: Sender<Msg>) {
    let machine = machine.clone();
    spawn("skilldeck-undo", tx, move |_| {
        let next = match guarded(|| undo::pending_batch(&machine)) {
            Err(panic) => Err(format!("Reading the journal stopped: {panic}")),
            Ok(Err(error)) => Err(sanitize::line(&format!("Nothing can be undone: {error}"))),
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

/// Undo the last operation; the result arrives on `tx`, and the skills are scanned again.
pub fn undo(machine: &Machine, tx: Sender<Msg>) {
    let machine = machine.clone();
    spawn("skilldeck-undo", tx, move |_| {
        let result = match guarded(|| undo::undo(&machine)) {
            Err(panic) => Err(format!("The undo stopped: {panic}")),
            Ok(Err(error)) => Err(sanitize::line(&format!("Nothing was undone: {error}"))),
            Ok(Ok(undone)) => {
                let what = describe(&undone.reverted, machine.home());
                let mut head = format!("Undone: {}", what.first().cloned().unwrap_or_default());
                if !undone.with.is_empty() {
                    head.push_str(&format!(
                        ", and {} more of the same batch",
                        undone.with.len()
                    ));
                }
                if let Some(stopped) = &undone.stopped {
                    head.push_str(&format!("; the rest of the batch was not: {stopped}"));
                }
                Ok(sanitize::line(&with_journal(head, undone.unjournalled)))
            }
        };
        Msg::TaskDone {
            result,
            rescan: true,
        }
    });
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
    use crate::operations::journal::StoreChange;
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
