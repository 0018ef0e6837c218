//! `skilldeck` with no subcommand: the terminal app, on this machine's roots or, with `--demo`,
//! on a throw-away sandbox of example skills that is deleted when the app closes.

use std::path::Path;

use crate::demo::Sandbox;
use crate::roots::Machine;
use crate::tui::app::Setup;
use crate::tui::model::shown_path;
use crate::tui::theme::Theme;
use crate::tui::{self, AppError, Ending, Options};

use super::{Failure, Outcome, project_dir};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Open the app on a throw-away sandbox of example skills, deleted on exit
    #[arg(long)]
    demo: bool,
    /// Let the mouse scroll and select (off by default, so the terminal can select text)
    #[arg(long)]
    mouse: bool,
}

impl Args {
    /// Whether any of these options was given.
    pub fn given(&self) -> bool {
        self.demo || self.mouse
    }
}

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
        let sandbox = Sandbox::create()?;
        setup.banner = Some(sandbox.banner());
        setup.work_dir = shown_path(&sandbox.project(), &sandbox.home());
        let ending = tui::run(Options {
            machine: sandbox.machine(),
            setup,
        });
        // The sandbox is deleted here, after the terminal is restored, however the app ended.
        drop(sandbox);
        return Ok(outcome(ending?));
    }
    let machine = Machine::from_process(project_dir(project)?)?;
    setup.work_dir = shown_path(&machine.project, machine.home());
    Ok(outcome(tui::run(Options { machine, setup })?))
}

/// A signal that stopped the app is the exit status's, as a shell reports it (128 + signal).
fn outcome(ending: Ending) -> Outcome {
    match ending {
        Ending::Quit => Outcome::Done,
        Ending::Signal(signal) => Outcome::Signalled(signal),
    }
}

impl From<AppError> for Failure {
    fn from(error: AppError) -> Self {
        match error {
            AppError::NotATerminal => Failure::Usage(error.to_string()),
            other => Failure::App(other),
        }
    }
}
