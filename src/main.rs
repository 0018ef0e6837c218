//! The `skilldeck` binary: parse the arguments and hand over to the command line.

use std::process::ExitCode;

fn main() -> ExitCode {
    skilldeck::cli::main()
}
