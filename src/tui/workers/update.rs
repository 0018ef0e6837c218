//! One update's worker, and the check of the upstreams. The update reads each skill's recorded
//! upstream (fetching a repository with the user's git, its progress sent to the status line),
//! plans every merge, and sends the plan; then it holds what it read and waits to be told to
//! apply it with the conflicts settled as chosen, so what is written is what was shown, never a
//! second fetch. Reading, planning, applying and recording the commit are the operations the
//! command line's `update` runs (`operations::update`): the state before is snapshotted and
//! journalled, so undo puts it back.

use std::sync::mpsc::{self, Receiver, Sender};

use crate::merge::{self, Resolution, Summary};
use crate::operations::outdated;
use crate::operations::update::{self, Fetched, Plan, UpstreamError, Wanted};
use crate::roots::Machine;
use crate::scan;
use crate::snapshot::diff;
use crate::text::human::count;
use crate::text::sanitize;
use crate::tui::diff::{Against, DiffView};
use crate::tui::keymap::{self, Mode};
use crate::tui::manage::{Target, names};
use crate::tui::msg::{Action, Msg, UpdateEvent, UpstreamsEvent};
use crate::tui::updating::{ConflictFile, Planned, Settled, SkillPlan};
use crate::tui::upstreams::Upstreams;

use super::{guarded, spawn};

/// What the app asks of a session.
enum Command {
    Apply { settled: Vec<Settled>, yes: bool },
}

/// The app's handle on an update's worker; dropping it stops the session before anything is
/// written.
pub struct UpdateSession {
    pub session: u64,
    commands: Sender<Command>,
}

impl UpdateSession {
    /// Apply the plan, its conflicts settled as `settled` says.
    pub fn apply(&self, settled: Vec<Settled>, yes: bool) {
        let _ = self.commands.send(Command::Apply { settled, yes });
    }
}

/// Start the session `session`: read the upstreams of `skills` and plan on a new thread.
pub fn spawn_update(
    machine: &Machine,
    tx: Sender<Msg>,
    session: u64,
    skills: Vec<Target>,
) -> UpdateSession {
    let (commands, incoming) = mpsc::channel();
    let machine = machine.clone();
    spawn("skilldeck-update", tx, move |tx| {
        let event = guarded(|| run(&machine, session, &skills, &incoming, tx))
            .unwrap_or_else(|panic| UpdateEvent::Done(Err(format!("The update stopped: {panic}"))));
        Msg::Update { session, event }
    });
    UpdateSession { session, commands }
}

/// One skill's plan, with the read its upstream came from.
struct Prepared {
    target: Target,
    plan: Plan,
    read: usize,
}

fn run(
    machine: &Machine,
    session: u64,
    targets: &[Target],
    commands: &Receiver<Command>,
    tx: &Sender<Msg>,
) -> UpdateEvent {
    let say = |text: String| {
        let _ = tx.send(Msg::Update {
            session,
            event: UpdateEvent::Progress(text),
        });
    };
    let inventory = scan::scan(&machine.env, &machine.project, &|_| {});
    let mut reads: Vec<Fetched> = Vec::new();
    let mut prepared: Vec<Prepared> = Vec::new();
    // Every skill planned before any is written: one that cannot be updated stops them all.
    for target in targets {
        let Some(skill) = inventory.skills.iter().find(|s| s.dir == target.dir) else {
            return failed(&format!(
                "{}: no skill is at {} any more; nothing was written.",
                target.name, target.shown_dir
            ));
        };
        let wanted = match Wanted::of(machine, &skill.real_dir, None) {
            Ok(wanted) => wanted,
            Err(UpstreamError::NoUpstream(_)) => {
                return failed(&format!(
                    "{}: skilldeck did not import it from a git repository, so it does not know where to update it from; nothing was written. On the command line, `skilldeck update {} --from SOURCE` names the new upstream (a folder, an archive or a repository).",
                    target.name, target.name
                ));
            }
            Err(error) => return failed(&format!("{}: {error}", target.name)),
        };
        let read = match reads.iter().position(|r| r.wanted == wanted) {
            Some(read) => read,
            None => {
                say(format!("Fetching the upstream of {}…", target.name));
                match Fetched::read(wanted, &mut |said| say(sanitize::line(said))) {
                    Ok(fetched) => {
                        reads.push(fetched);
                        reads.len() - 1
                    }
                    Err(error) => {
                        return failed(&format!("{}: {error}; nothing was written.", target.name));
                    }
                }
            }
        };
        let fetched = &reads[read];
        // Planned by the upstream read, so that applying it records (and journals) where the
        // skill now comes from in the update's own entry.
        match fetched.plan(machine, skill) {
            Ok(plan) => prepared.push(Prepared {
                target: target.clone(),
                plan,
                read,
            }),
            Err(error) => return failed(&format!("{}: {error}", target.name)),
        }
    }
    if prepared.iter().all(|p| p.plan.up_to_date()) {
        let mut text = match targets {
            [_] => format!(
                "{} is up to date with its upstream; nothing was written.",
                names(targets)
            ),
            _ => format!(
                "{} are up to date with their upstreams; nothing was written.",
                names(targets)
            ),
        };
        for note in remember(machine, &prepared, &reads) {
            text.push_str(&format!(" {note}."));
        }
        return UpdateEvent::Done(Ok(sanitize::line(&text)));
    }
    let _ = tx.send(Msg::Update {
        session,
        event: UpdateEvent::Planned(Box::new(planned(&prepared))),
    });
    match commands.recv() {
        Ok(Command::Apply { settled, yes }) => apply(machine, &prepared, &reads, &settled, yes),
        Err(_) => UpdateEvent::Cancelled,
    }
}

fn failed(text: &str) -> UpdateEvent {
    UpdateEvent::Done(Err(sanitize::line(text)))
}

/// Apply every plan with something to write, each conflict settled as chosen; then record the
/// commit each skill now matches, as the command line does.
fn apply(
    machine: &Machine,
    prepared: &[Prepared],
    reads: &[Fetched],
    settled: &[Settled],
    yes: bool,
) -> UpdateEvent {
    let batch = machine.in_a_batch();
    let mut done: Vec<&Prepared> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let undo = keymap::key_for(Mode::Skills, Action::Undo);
    for one in prepared.iter().filter(|p| !p.plan.up_to_date()) {
        let resolve = |path: &str| -> Option<Resolution> {
            settled
                .iter()
                .find(|s| s.dir == one.target.dir && s.path == path)
                .map(|s| s.resolution)
        };
        match update::apply(&batch, &one.plan, &resolve, yes) {
            Ok(updated) => {
                if let Some(error) = updated.unjournalled {
                    notes.push(format!(
                        "the journal could not be told of {} ({error}), so undo will not know of it",
                        one.target.name
                    ));
                }
                done.push(one);
            }
            Err(error) => {
                let before = if done.is_empty() {
                    String::new()
                } else {
                    let names: Vec<Target> = done.iter().map(|p| p.target.clone()).collect();
                    format!(
                        " {} was updated before it; {undo} puts it back.",
                        super::super::manage::names(&names)
                    )
                };
                return failed(&format!("{}: {error}{before}", one.target.name));
            }
        }
    }
    // In the batch, so one undo puts back the files and the record together.
    notes.extend(remember(&batch, prepared, reads));
    let names: Vec<Target> = done.iter().map(|p| p.target.clone()).collect();
    let mut text = format!(
        "Updated {}: {}. {undo} puts it back.",
        super::super::manage::names(&names),
        what_it_did(done.iter().map(|p| &p.plan.merge), settled)
    );
    for note in notes {
        text.push_str(&format!(" Note: {note}."));
    }
    UpdateEvent::Done(Ok(sanitize::line(&text)))
}

/// Record the commit each skill now matches, for the next update and `outdated`; a sentence
/// for each that could not be.
fn remember(machine: &Machine, prepared: &[Prepared], reads: &[Fetched]) -> Vec<String> {
    prepared
        .iter()
        .filter_map(|one| {
            reads[one.read]
                .remember(machine, &one.plan.dir)
                .err()
                .map(|error| {
                    format!(
                        "where {} came from could not be recorded ({error}); the next update needs the command line's --from",
                        one.target.name
                    )
                })
        })
        .collect()
}

/// `2 files took theirs, 1 merged, 1 conflict settled`: what the merges did, in a few words.
fn what_it_did<'a>(merges: impl Iterator<Item = &'a merge::Merge>, settled: &[Settled]) -> String {
    let (mut theirs, mut merged, mut ours) = (0, 0, 0);
    for merge in merges {
        for file in &merge.files {
            match file.summary {
                Summary::TookTheirs => theirs += 1,
                Summary::Merged => merged += 1,
                Summary::KeptOurs => ours += 1,
                Summary::Unchanged | Summary::Conflict => {}
            }
        }
    }
    let mut parts = Vec::new();
    if theirs > 0 {
        parts.push(format!("{} took theirs", count(theirs, "file")));
    }
    if merged > 0 {
        parts.push(format!("{merged} merged"));
    }
    if ours > 0 {
        parts.push(format!("{ours} kept ours"));
    }
    if !settled.is_empty() {
        parts.push(format!("{} settled", count(settled.len(), "conflict")));
    }
    if parts.is_empty() {
        "its files already held the merge".to_owned()
    } else {
        parts.join(", ")
    }
}

/// The plans as the app shows them.
fn planned(prepared: &[Prepared]) -> Planned {
    let skills = prepared
        .iter()
        .map(|one| SkillPlan {
            name: one.target.name.clone(),
            dir: one.target.dir.clone(),
            shown_dir: one.target.shown_dir.clone(),
            up_to_date: one.plan.up_to_date(),
            files: one
                .plan
                .merge
                .files
                .iter()
                .filter(|f| f.summary != Summary::Unchanged)
                .map(|f| (sanitize::name(&f.path), f.summary))
                .collect(),
            stale: one.plan.stale.iter().map(|s| sanitize::line(s)).collect(),
        })
        .collect();
    let conflicts = prepared
        .iter()
        .enumerate()
        .flat_map(|(skill, one)| {
            one.plan.merge.conflicts().filter_map(move |file| {
                let conflict = file.conflict.as_ref()?;
                Some(ConflictFile {
                    skill,
                    path: file.path.clone(),
                    shown_path: sanitize::name(&file.path),
                    clash: conflict.clash,
                    both: conflict.resolve(Resolution::Both).is_some(),
                    diff: conflict_diff(&one.target, &file.path, conflict),
                    choice: None,
                })
            })
        })
        .collect();
    Planned {
        skills,
        conflicts,
        selected: 0,
        scroll: 0,
    }
}

/// The file here (ours) against upstream's (theirs), and for lines both changed, the file as
/// keeping both would write it, between conflict markers.
fn conflict_diff(target: &Target, path: &str, conflict: &merge::Conflict) -> DiffView {
    let mut view = DiffView::new(
        &target.name,
        target.dir.clone(),
        target.shown_dir.clone(),
        Against::Upstream,
    );
    fn side(file: Option<&merge::File>) -> Option<(&[u8], bool)> {
        file.map(|file| (file.bytes.as_slice(), file.executable))
    }
    match diff::of_versions(
        path,
        side(conflict.ours.as_ref()),
        side(conflict.theirs.as_ref()),
    ) {
        Ok(between) => view.push(None, &between),
        Err(error) => view.heading(&sanitize::line(&error.to_string())),
    }
    if conflict.clash == merge::Clash::Overlapping
        && let Some(markers) = &conflict.markers
        && let Ok(text) = std::str::from_utf8(&markers.bytes)
    {
        view.text(
            &format!(
                "Keeping both ({}) writes the file with both sides between conflict markers:",
                keymap::key_for(Mode::Conflicts, Action::TakeBoth)
            ),
            text,
        );
    }
    view
}

/// What the last check of the upstreams kept, read from the data folder (no network), each
/// against the commit its skill is recorded at now.
pub fn kept(machine: &Machine) -> Option<Box<Upstreams>> {
    outdated::last(machine).map(|outdated| Box::new(Upstreams::of(&outdated)))
}

/// Ask every recorded upstream where it is now, on a thread of its own, each repository asked
/// said on the status line.
pub fn check(machine: &Machine, tx: Sender<Msg>) {
    let machine = machine.clone();
    spawn("skilldeck-outdated", tx, move |tx| {
        let checked = guarded(|| {
            let inventory = scan::scan(&machine.env, &machine.project, &|_| {});
            let answers = outdated::check(&machine, &inventory, &mut |said| {
                let _ = tx.send(Msg::Upstreams(UpstreamsEvent::Progress(sanitize::line(
                    said,
                ))));
            });
            Upstreams::of(&answers)
        });
        Msg::Upstreams(UpstreamsEvent::Checked(
            checked
                .map(Box::new)
                .map_err(|panic| format!("Checking the upstreams stopped: {panic}")),
        ))
    });
}
