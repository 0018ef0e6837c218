//! `skilldeck completions SHELL`: the shell's completion script for every subcommand and
//! option, generated from the same grammar the command line parses (clap_complete), printed to
//! standard output for the user to install.

use clap::CommandFactory;
use clap_complete::Shell;

use super::{Cli, Failure, Outcome};

const AFTER_HELP: &str = "\
Install the script where the shell looks for completions, then open a new shell:

  bash        skilldeck completions bash > ~/.local/share/bash-completion/completions/skilldeck
              (needs the bash-completion package; or, in ~/.bashrc:
              source <(skilldeck completions bash))
  zsh         skilldeck completions zsh > ~/.zfunc/_skilldeck
              and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath)
  fish        skilldeck completions fish > ~/.config/fish/completions/skilldeck.fish
  powershell  skilldeck completions powershell | Out-String | Invoke-Expression
              (in your $PROFILE, for every session)
  elvish      skilldeck completions elvish >> ~/.config/elvish/rc.elv

Run it again after upgrading skilldeck, so new subcommands and options complete.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The shell to write the script for
    shell: Shell,
}

pub fn run(args: &Args) -> Result<Outcome, Failure> {
    let mut script = Vec::new();
    // Into memory first: clap_complete panics on a failed write (a closed pipe), which
    // `write_exact` reports as the contract says instead.
    clap_complete::generate(args.shell, &mut Cli::command(), "skilldeck", &mut script);
    super::write_exact(&script)?;
    Ok(Outcome::Done)
}
