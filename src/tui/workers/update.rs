//! One update's worker, and the check of the upstreams. The update is the command line's use
//! case (`operations::update`): the worker prepares it (reading each skill's upstream, git's
//! progress sent to the status line) and sends the plan; then it holds what it read and waits
//! to be told to apply it with the conflicts settled as chosen, so what is written is what was
//! shown, never a second fetch. Its report goes to the app as it is; the app says it.

use std::sync::mpsc::{self, Receiver, Sender};

use crate::operations::outdated;
use crate::operations::progress::{Cancel, Step};
use crate::operations::update::{self, Choices, PrepareError, Request, Settled};
use crate::roots::Machine;
use crate::scan::{self, Skill};
use crate::text::sanitize;
use crate::tui::keymap::{self, Mode};
use crate::tui::manage::Target;
use crate::tui::msg::{Action, Msg, UpdateEvent, UpstreamsEvent};
use crate::tui::updating::{Planned, UpdateFailure};
use crate::tui::upstreams::{CheckStopped, Upstreams};

use super::{guard, spawn};

/// What the app asks of a session.
enum Command {
    Apply { settled: Vec<Settled>, yes: bool },
}

/// The app's handle on an update's worker; dropping it stops the session before anything is
/// written (a read under way finishes, the next is not started).
pub struct UpdateSession {
    pub session: u64,
    commands: Sender<Command>,
    cancel: Cancel,
}

impl UpdateSession {
    /// Apply the plan, its conflicts settled as `settled` says.
    pub fn apply(&self, settled: Vec<Settled>, yes: bool) {
        let _ = self.commands.send(Command::Apply { settled, yes });
    }
}

impl Drop for UpdateSession {
    fn drop(&mut self) {
        self.cancel.cancel();
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
    let cancel = Cancel::new();
    let machine = machine.clone();
    let stop = cancel.clone();
    spawn("skilldeck-update", tx, move |tx| {
        let event = guard("The update", || {
            run(&machine, session, &skills, &incoming, &stop, tx)
        })
        .unwrap_or_else(|stopped| UpdateEvent::Done(Err(UpdateFailure::Panicked(stopped))));
        Msg::Update { session, event }
    });
    UpdateSession {
        session,
        commands,
        cancel,
    }
}

fn run(
    machine: &Machine,
    session: u64,
    targets: &[Target],
    commands: &Receiver<Command>,
    cancel: &Cancel,
    tx: &Sender<Msg>,
) -> UpdateEvent {
    let say = |text: String| {
        let _ = tx.send(Msg::Update {
            session,
            event: UpdateEvent::Progress(text),
        });
    };
    let inventory = scan::scan(&machine.env, &machine.project, &|_| {});
    let mut skills: Vec<&Skill> = Vec::new();
    for target in targets {
        match inventory.skills.iter().find(|s| s.dir == target.dir) {
            Some(skill) => skills.push(skill),
            None => {
                return UpdateEvent::Done(Err(UpdateFailure::Gone {
                    name: target.name.clone(),
                    shown_dir: target.shown_dir.clone(),
                }));
            }
        }
    }
    let mut progress = |step: Step<'_>| match step {
        Step::Target { current, .. } => say(format!(
            "Fetching the upstream of {}…",
            sanitize::name(current)
        )),
        Step::Said(said) => say(sanitize::line(said)),
        Step::Files { .. } => {}
    };
    let mut writing = |step: Step<'_>| {
        if let Step::Target {
            current,
            done,
            total,
        } = step
            && total > 1
        {
            say(format!(
                "Updating {} ({} of {total})…",
                sanitize::name(current),
                done + 1
            ));
        }
    };
    let request = Request::default();
    let planned = match update::prepare(machine, &skills, &request, &mut progress, cancel) {
        Ok(planned) => planned,
        Err(PrepareError::Cancelled) => return UpdateEvent::Cancelled,
        Err(error) => return UpdateEvent::Done(Err(UpdateFailure::Prepare(error))),
    };
    // Nothing to write, nothing to ask: where each stands is recorded, and said.
    if planned.up_to_date() {
        let report = update::apply(machine, &planned, &Choices::default(), &mut writing, cancel);
        return UpdateEvent::Done(Ok(Box::new(report)));
    }
    let _ = tx.send(Msg::Update {
        session,
        event: UpdateEvent::Planned(Box::new(Planned::of(
            &planned,
            targets,
            &keymap::key_for(Mode::Conflicts, Action::TakeBoth),
        ))),
    });
    match commands.recv() {
        Ok(Command::Apply { settled, yes }) => {
            let choices = Choices {
                take: None,
                each: settled,
                yes,
            };
            let report = update::apply(machine, &planned, &choices, &mut writing, cancel);
            UpdateEvent::Done(Ok(Box::new(report)))
        }
        Err(_) => UpdateEvent::Cancelled,
    }
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
        let checked = guard("Checking the upstreams", || {
            let inventory = scan::scan(&machine.env, &machine.project, &|_| {});
            let answers = outdated::check(&machine, &inventory, &mut |step: Step<'_>| {
                if let Step::Said(said) = step {
                    let _ = tx.send(Msg::Upstreams(UpstreamsEvent::Progress(sanitize::line(
                        said,
                    ))));
                }
            });
            Upstreams::of(&answers)
        });
        Msg::Upstreams(UpstreamsEvent::Checked(
            checked.map(Box::new).map_err(CheckStopped),
        ))
    });
}
