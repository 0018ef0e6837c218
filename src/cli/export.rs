//! `skilldeck export`: a reproducible, redacted `.tar.gz` of a skill.

use std::path::PathBuf;

use crate::operations::export;
use crate::roots::Machine;
use crate::snapshot::Store;

use super::{Failure, Outcome, target};
use crate::text::Unsafe;
use crate::text::human::{self, count};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill, by name or folder
    #[arg(value_name = "SKILL")]
    skill: String,

    /// The archive to write; a file already there is kept unless --force is given
    #[arg(short, long, value_name = "FILE.tar.gz")]
    output: PathBuf,

    /// Replace a file already at the output path (only once the new export is whole)
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let store = Store::open(&machine.env);
    let dir = target::one(&super::scan(machine), &store, &args.skill)?;
    // Relative to where the command was run, which --project does not move.
    let output = std::path::absolute(&args.output)
        .map_err(|error| Failure::Usage(format!("-o {}: {error}", args.output.display())))?;
    let exported = export::export(machine, &dir, &output, args.force)?;
    let packed = &exported.package;
    let mut text = format!(
        "Exported {} ({}, {} bytes) to {}",
        human::path(&dir, machine.env.home(), Unsafe::Escaped),
        count(packed.files, "file"),
        packed.archive.len(),
        args.output.display()
    );
    if packed.redacted.is_empty() {
        text.push_str("; no secrets found.\n");
    } else {
        text.push_str(&format!(
            "; {} removed:\n",
            count(packed.redacted.len(), "secret")
        ));
        for (path, rule) in &packed.redacted {
            text.push_str(&format!("  {path}: {rule}\n"));
        }
    }
    super::print(&text)?;
    Ok(Outcome::Done)
}
