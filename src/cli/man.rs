//! `skilldeck man [SUBCOMMAND]`: the manual pages (roff), generated from the same grammar and
//! help texts the command line prints (clap_mangen), to standard output for the user to
//! install: `skilldeck(1)`, which lists the subcommands, and one `skilldeck-NAME(1)` each, so
//! every page the first refers to can be installed beside it.

use clap::CommandFactory;

use super::{Cli, Failure, Outcome};

const AFTER_HELP: &str = "\
Install the pages where man looks for them, then read them with `man skilldeck`:

  dir=~/.local/share/man/man1 && mkdir -p \"$dir\"
  skilldeck man > \"$dir/skilldeck.1\"
  for c in $(skilldeck man --list); do skilldeck man \"$c\" > \"$dir/skilldeck-$c.1\"; done

man-db finds pages there when ~/.local/bin is on PATH; otherwise add ~/.local/share/man to
MANPATH. To read a page once without installing it: skilldeck man | man -l -

Run it again after upgrading skilldeck, so the pages show the new options.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The subcommand whose page to print, skilldeck-SUBCOMMAND(1) [default: skilldeck(1)]
    #[arg(value_name = "SUBCOMMAND", conflicts_with = "list")]
    subcommand: Option<String>,
    /// Print the names of the subcommands, one a line, each with a page of its own
    #[arg(long)]
    list: bool,
}

pub fn run(args: &Args) -> Result<Outcome, Failure> {
    // Built, so each subcommand's page is titled `skilldeck-NAME` and its synopsis reads
    // `skilldeck NAME`; no `help` subcommand, which would get a page of its own.
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    if args.list {
        let names: String = command
            .get_subcommands()
            .map(|sub| format!("{}\n", sub.get_name()))
            .collect();
        super::write_exact(names.as_bytes())?;
        return Ok(Outcome::Done);
    }
    let page = match &args.subcommand {
        None => command,
        Some(name) => command.find_subcommand(name).cloned().ok_or_else(|| {
            Failure::Usage(format!(
                "no subcommand {name}: `skilldeck man --list` names them"
            ))
        })?,
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .source(concat!("skilldeck ", env!("CARGO_PKG_VERSION")))
        .render(&mut roff)
        .map_err(Failure::Output)?;
    super::write_exact(&roff)?;
    Ok(Outcome::Done)
}
