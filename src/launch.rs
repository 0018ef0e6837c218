//! `skilldeck` with no subcommand: the terminal app, on this machine's roots or, with `--demo`,
//! on a throw-away sandbox of example skills that is deleted when the app closes. It sits
//! beside the command line, not inside it, so `cli` never reaches into the terminal app; both
//! share the command line's grammar and exit codes.

use std::path::Path;

use crate::demo::Sandbox;
use crate::roots::Machine;
use crate::text::{Unsafe, human};
use crate::tui::app::Setup;
use crate::tui::theme::Theme;
use crate::tui::{self, AppError, Ending, Options};

use crate::cli::{AppArgs as Args, Failure, Outcome, project_dir};

/// Open the app as `args` say, for `project` (the current directory when `None`).
///
/// # Errors
/// A usage error, or the failure that stopped the app, with the command line's exit codes.
pub fn run(args: &Args, project: Option<&Path>) -> Result<Outcome, Failure> {
    let mut setup = Setup {
        banner: None,
        mouse: args.mouse,
        // https://no-color.org: present and not empty.
        theme: Theme::new(std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())),
        work_dir: String::new(),
    };
    if args.demo {
        if project.is_some() {
            return Err(Failure::Usage(
                "--demo brings its own project; leave out --project".to_owned(),
            ));
        }
        let sandbox = Sandbox::create().map_err(|error| Failure::Stopped(error.to_string()))?;
        setup.banner = Some(sandbox.banner());
        setup.work_dir = human::path(&sandbox.project(), &sandbox.home(), Unsafe::Dropped);
        let ending = tui::run(Options {
            machine: sandbox.machine(),
            setup,
        });
        // The sandbox is deleted here, after the terminal is restored, however the app ended.
        drop(sandbox);
        return ending.map(outcome).map_err(app_failure);
    }
    let machine = Machine::from_process(project_dir(project)?)?;
    setup.work_dir = human::path(&machine.project, machine.home(), Unsafe::Dropped);
    tui::run(Options { machine, setup })
        .map(outcome)
        .map_err(app_failure)
}

/// A signal that stopped the app is the exit status's, as a shell reports it (128 + signal).
fn outcome(ending: Ending) -> Outcome {
    match ending {
        Ending::Quit => Outcome::Done,
        Ending::Signal(signal) => Outcome::Signalled(signal),
    }
}

fn app_failure(error: AppError) -> Failure {
    match error {
        AppError::NotATerminal => Failure::Usage(error.to_string()),
        other => Failure::Stopped(other.to_string()),
    }
}
