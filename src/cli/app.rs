//! `skilldeck` with no subcommand: the terminal app, on this machine's roots or, with `--demo`,
//! on a throw-away sandbox of example skills that is deleted when the app closes.

use std::path::Path;

use crate::demo::Sandbox;
use crate::tui::app::Setup;
use crate::tui::theme::Theme;
use crate::tui::workers::Target;
use crate::tui::{self, AppError, Options};

use super::{Context, Failure, Outcome, project_dir};

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
    };
    if args.demo {
        if project.is_some() {
            return Err(Failure::Usage(
                "--demo brings its own project; leave out --project".to_owned(),
            ));
        }
        let sandbox = Sandbox::create()?;
        setup.banner = Some(sandbox.banner());
        let target = Target {
            env: sandbox.environment(),
            project: sandbox.project(),
        };
        tui::run(Options { target, setup })?;
        // The sandbox is deleted here, after the terminal is restored.
        drop(sandbox);
        return Ok(Outcome::Done);
    }
    let context = Context::from_process(project_dir(project)?)?;
    let target = Target {
        env: context.env,
        project: context.project,
    };
    tui::run(Options { target, setup })?;
    Ok(Outcome::Done)
}

impl From<AppError> for Failure {
    fn from(error: AppError) -> Self {
        match error {
            AppError::NotATerminal => Failure::Usage(error.to_string()),
            other => Failure::App(other),
        }
    }
}
