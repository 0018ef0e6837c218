//! The command line: one file per subcommand, the JSON shapes scripts rely on, and the exit
//! codes of the contract (0 done; 1 refused, drift found or nothing matched; 2 usage error;
//! 3 an I/O failure stopped the work).

mod agent_args;
mod agents;
mod audit;
mod check;
mod completions;
mod context;
mod diff;
mod export;
mod history;
mod import;
mod interrupt;
mod json;
mod lint;
mod list;
mod lock;
mod man;
mod outdated;
mod progress;
mod prune;
mod remove;
mod restore;
mod roots;
mod sarif;
mod share;
mod snapshot;
mod snapshots;
mod switch;
mod sync;
mod target;
mod undo;
mod update;
mod verify;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::operations::JournalError;
use crate::operations::lock_upkeep::{self, Upkeep};
use crate::operations::share::Share;
use crate::operations::switch as switch_op;
use crate::roots::{Machine, NoHome};
use crate::scan::{self, Inventory};
use crate::text::escape;

const AFTER_HELP: &str = "\
Roots follow the agents' own variables: HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, CLAUDE_CONFIG_DIR,
CLAUDE_CODE_PLUGIN_CACHE_DIR, CODEX_HOME, COPILOT_HOME, GEMINI_CLI_HOME, OPENCODE_CONFIG_DIR;
SKILLDECK_SYSTEM_ROOT stands in for / when locating organization-managed directories.

Exit codes: 0 done; 1 refused, drift found or nothing matched; 2 usage error; 3 an I/O failure
stopped the work.";

/// See every Agent Skill on this machine: which agent reads it, where it came from, who
/// installed it, and whether its files still match the installer's record.
///
/// With no subcommand, skilldeck opens its terminal app (`--demo` opens it on example skills).
#[derive(Debug, Parser)]
#[command(name = "skilldeck", version, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    pub app: AppArgs,

    /// Where project roots are searched from, up to the repository root [default: the
    /// current directory]
    #[arg(long, global = true, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

/// The options of the terminal app, which opens when no subcommand is given.
#[derive(Debug, clap::Args)]
pub struct AppArgs {
    /// Open the app on a throw-away sandbox of example skills, deleted on exit
    #[arg(long)]
    pub demo: bool,
    /// Let the mouse scroll and select (off by default, so the terminal can select text)
    #[arg(long)]
    pub mouse: bool,
}

impl AppArgs {
    /// Whether any of these options was given.
    fn given(&self) -> bool {
        self.demo || self.mouse
    }
}

impl Cli {
    /// Whether these arguments open the terminal app (no subcommand) rather than run one.
    pub fn opens_app(&self) -> bool {
        self.command.is_none()
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List every skill found, with source, agents, record, state and digest
    List(list::Args),
    /// Verify recorded skills (all, or those named) against their digests; exit 1 when any was
    /// modified
    Check(check::Args),
    /// Import skills from a folder, an archive or a git repository, judged whole and installed
    /// atomically
    Import(import::Args),
    /// Bring skills to a new upstream by a three-way merge that keeps local edits
    Update(update::Args),
    /// Which skills imported from a git repository upstream has moved past, and which were edited
    Outdated(outdated::Args),
    /// Take snapshots of skills (all skills when none is named)
    Snapshot(snapshot::Args),
    /// List snapshots, or one skill's history; prune or delete them
    Snapshots(snapshots::Args),
    /// Show what changed in a skill since a snapshot; exit 1 when anything did
    Diff(diff::Args),
    /// Put a skill back as a snapshot holds it, keeping what it replaces as a snapshot
    Restore(restore::Args),
    /// Pack a skill into a reproducible .tar.gz with its secrets removed
    Export(export::Args),
    /// Snapshot, then remove skills (a link is unlinked, never followed)
    Remove(remove::Args),
    /// Turn a skill off for one agent, in that agent's own settings file
    #[command(after_help = switch::AFTER_HELP)]
    Disable(switch::Args),
    /// Turn a skill back on for one agent, in that agent's own settings files
    #[command(after_help = switch::AFTER_HELP)]
    Enable(switch::Args),
    /// Make a skill visible to another agent with a symbolic link to its folder
    Link(share::Args),
    /// Put an independent, recorded copy of a skill in another agent's skills folder
    Copy(share::Args),
    /// Move a skill's folder to another scope or another agent's skills folder
    Move(share::MoveArgs),
    /// Write the project's skills-lock.json (the skills CLI's lock) from its skills
    Lock(lock::Args),
    /// Check the project's skills against its skills-lock.json, for CI (exit 0 clean, 1
    /// findings, 2 could not check)
    Verify(verify::Args),
    /// What each skill's text and scripts would do before it runs: findings by class and
    /// severity (exit 0 none at or above --fail-on, 1 some, 2 could not check)
    Audit(audit::Args),
    /// Install the project's locked skills from skills-lock.json at their locked commits (--frozen:
    /// change nothing unless all match)
    Sync(sync::Args),
    /// Revert the last journalled operation (--list shows the journal)
    Undo(undo::Args),
    /// Every folder an agent reads skills from: scope, whether it exists, who reads it, skills
    Roots(roots::Args),
    /// What each agent's skill listing costs its model's context, and what it drops past its budget
    Context(context::Args),
    /// Check skill folders against the Agent Skills specification, for authors and CI
    Lint(lint::Args),
    /// Print the completion script for a shell (bash, zsh, fish, powershell, elvish)
    Completions(completions::Args),
    /// Print the manual page (roff) of skilldeck or of one subcommand
    Man(man::Args),
}

/// What ended a command early, with the exit code the contract gives it.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    NoHome(#[from] NoHome),
    #[error("could not write the output: {0}")]
    Output(io::Error),
    #[error("the import stopped: {0}")]
    Install(#[from] crate::install::InstallError),
    /// Refused, or nothing matched: exit 1.
    #[error("{0}")]
    Refused(String),
    /// `verify` could not read the lock or a skill, so nothing was checked: exit 2, the code
    /// CI gates give "could not check".
    #[error("{0}")]
    Unchecked(String),
    /// An I/O failure stopped the work: exit 3.
    #[error("{0}")]
    Stopped(String),
}

impl Failure {
    fn exit_code(&self) -> u8 {
        match self {
            Failure::Refused(_) => 1,
            Failure::Usage(_) | Failure::Unchecked(_) => 2,
            Failure::NoHome(_) | Failure::Output(_) | Failure::Install(_) | Failure::Stopped(_) => {
                3
            }
        }
    }
}

/// How a command that ran to its end turned out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// Refused, drift found or nothing matched.
    Negative,
    /// The terminal app was stopped by this signal.
    Signalled(i32),
}

/// Print what clap made of arguments it could not parse (or the help and version it was asked
/// for), and give its exit code. Its messages quote the arguments, which may hold anything a
/// terminal acts on, so they are escaped like every other sentence; help and version are
/// skilldeck's own text and keep their styling.
pub fn refuse_arguments(error: clap::Error) -> ExitCode {
    if !error.use_stderr() {
        let _ = error.print();
        return ExitCode::SUCCESS;
    }
    let error = best_suggestion_first(error);
    let _ = eprint(&error.to_string());
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}

/// clap lists the subcommands like a misspelt one with the likeliest last (`remvoe`: "restore",
/// "remove"), and a reader takes the first: put them in the order of the same similarity clap
/// measures (Jaro), the likeliest first.
fn best_suggestion_first(mut error: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue};
    let typed = match error.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(typed)) => typed.clone(),
        _ => return error,
    };
    if let Some(ContextValue::Strings(names)) = error.get(ContextKind::SuggestedSubcommand) {
        let mut names = names.clone();
        names.sort_by(|a, b| strsim::jaro(&typed, b).total_cmp(&strsim::jaro(&typed, a)));
        error.insert(
            ContextKind::SuggestedSubcommand,
            ContextValue::Strings(names),
        );
    }
    error
}

/// The exit code the contract gives `result`, after telling the user of a failure.
pub fn exit_code(result: Result<Outcome, Failure>) -> ExitCode {
    match result {
        Ok(Outcome::Done) => ExitCode::SUCCESS,
        Ok(Outcome::Negative) => ExitCode::from(1),
        Ok(Outcome::Signalled(signal)) => {
            ExitCode::from(u8::try_from(128 + signal.clamp(0, 127)).unwrap_or(u8::MAX))
        }
        // A reader that stops early (`skilldeck list | head`) is not a failure.
        Err(Failure::Output(error)) if error.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(failure) => {
            let _ = eprint(&format!("skilldeck: {failure}\n"));
            ExitCode::from(failure.exit_code())
        }
    }
}

/// Run the subcommand `cli` names.
///
/// # Errors
/// The [`Failure`] that ended it early, with its exit code.
pub fn run(cli: Cli) -> Result<Outcome, Failure> {
    let Some(command) = cli.command else {
        return Err(Failure::Usage(
            "no subcommand: `skilldeck` alone opens the terminal app".to_owned(),
        ));
    };
    if cli.app.given() {
        return Err(Failure::Usage(
            "--demo and --mouse open the terminal app, so they take no subcommand".to_owned(),
        ));
    }
    // Linting reads the folders named, not the machine's roots; the others read nothing.
    match &command {
        Command::Lint(args) => return lint::run(args, cli.project.as_deref()),
        Command::Completions(args) => return completions::run(args),
        Command::Man(args) => return man::run(args),
        _ => {}
    }
    let machine = Machine::from_process(project_dir(cli.project.as_deref())?)?;
    match command {
        Command::List(args) => list::run(&args, &machine),
        Command::Check(args) => check::run(&args, &machine),
        Command::Import(args) => import::run(&args, &machine),
        Command::Update(args) => update::run(&args, &machine),
        Command::Outdated(args) => outdated::run(&args, &machine),
        Command::Snapshot(args) => snapshot::run(&args, &machine),
        Command::Snapshots(args) => snapshots::run(&args, &machine),
        Command::Diff(args) => diff::run(&args, &machine),
        Command::Restore(args) => restore::run(&args, &machine),
        Command::Export(args) => export::run(&args, &machine),
        Command::Remove(args) => remove::run(&args, &machine),
        Command::Disable(args) => switch::run(&args, &machine, switch_op::Turn::Off),
        Command::Enable(args) => switch::run(&args, &machine, switch_op::Turn::On),
        Command::Link(args) => share::run_link(&args, &machine, Share::Link),
        Command::Copy(args) => share::run_link(&args, &machine, Share::Copy),
        Command::Move(args) => share::run_move(&args, &machine),
        Command::Lock(args) => lock::run(&args, &machine),
        Command::Verify(args) => verify::run(&args, &machine),
        Command::Audit(args) => audit::run(&args, &machine),
        Command::Sync(args) => sync::run(&args, &machine),
        Command::Undo(args) => undo::run(&args, &machine),
        Command::Roots(args) => roots::run(&args, &machine),
        Command::Context(args) => context::run(&args, &machine),
        Command::Lint(args) => lint::run(&args, None),
        Command::Completions(args) => completions::run(&args),
        Command::Man(args) => man::run(&args),
    }
}

/// Scan `machine`, showing progress on a terminal.
fn scan(machine: &Machine) -> Inventory {
    let reporter = progress::Reporter::on_stderr("reading skills");
    let inventory = scan::scan(&machine.env, &machine.project, &|p| {
        reporter.update(p.done, p.total);
    });
    reporter.finish();
    inventory
}

/// Tell the user an operation was done but its journal entry could not be written.
fn warn_unjournalled(error: Option<&JournalError>) -> Result<(), Failure> {
    match error {
        Some(error) => eprint(&format!(
            "skilldeck: done, but {error}; undo will not know of this\n"
        )),
        None => Ok(()),
    }
}

/// Tell the user what an operation did to the project's `skills-lock.json` (on standard
/// error, so `--json` output stays one document), or why it could not keep it current.
fn say_lock_upkeep(upkeep: &Upkeep) -> Result<(), Failure> {
    match upkeep {
        Ok(None) => Ok(()),
        Ok(Some(kept)) => eprint(&format!(
            "skilldeck: {}\n",
            lock_upkeep::kept_in_words(kept, &kept.path.display().to_string())
        )),
        Err(error) => eprint(&format!(
            "skilldeck: done, but the project's skills-lock.json was not kept current: {error}; `skilldeck lock` writes it again\n"
        )),
    }
}

/// The project start directory as an absolute path.
pub fn project_dir(given: Option<&Path>) -> Result<PathBuf, Failure> {
    let dir = match given {
        Some(dir) => dir.to_path_buf(),
        None => std::env::current_dir().map_err(|error| {
            Failure::Usage(format!("the current directory cannot be read: {error}"))
        })?,
    };
    if !dir.is_dir() {
        return Err(Failure::Usage(format!(
            "--project {}: no such directory",
            dir.display()
        )));
    }
    std::path::absolute(&dir)
        .map_err(|error| Failure::Usage(format!("--project {}: {error}", dir.display())))
}

/// A refusal with its code, as JSON (`--json`) or a line on standard error: how `import` and
/// `sync` say what they would not do.
fn refused_as(
    json: bool,
    code: &'static str,
    why: &dyn std::fmt::Display,
) -> Result<Outcome, Failure> {
    let message = why.to_string();
    if json {
        json::print(&json::RefusedJson::new(code, &message))?;
    } else {
        eprint(&format!("skilldeck: refused ({code}): {message}\n"))?;
    }
    Ok(Outcome::Negative)
}

/// Write `text` for people to standard error, everything a terminal would act on escaped.
fn eprint(text: &str) -> Result<(), Failure> {
    io::stderr()
        .lock()
        .write_all(escape::lines(text).as_bytes())
        .map_err(Failure::Output)
}

/// Write skilldeck's own generated text (a completion script, the man page) to standard output
/// exact: it holds no text from disk, and escaping would break it.
fn write_exact(bytes: &[u8]) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(Failure::Output)
}

/// Write `text` for people to standard output, everything a terminal would act on escaped.
/// Every sentence and table of the command line leaves through here or [`eprint`], so no text
/// from disk reaches a terminal raw; JSON leaves exact, through `json::print`.
fn print(text: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(escape::lines(text).as_bytes())
        .and_then(|()| out.flush())
        .map_err(Failure::Output)
}
