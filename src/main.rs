//! The `skilldeck` binary: parse the arguments, then open the terminal app or run the
//! subcommand they name.

use std::process::ExitCode;

use clap::Parser;
use skilldeck::cli::{self, Cli};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return cli::refuse_arguments(error),
    };
    let result = if cli.opens_app() {
        skilldeck::launch::run(&cli.app, cli.project.as_deref())
    } else {
        cli::run(cli)
    };
    cli::exit_code(result)
}
