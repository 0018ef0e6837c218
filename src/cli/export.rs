//! `skilldeck export`: a reproducible, redacted `.tar.gz` of a skill.

use std::path::PathBuf;

use crate::operations::export;
use crate::roots::Machine;
use crate::snapshot::Store;
use crate::snapshot::export::Unscanned;

use super::{Failure, Outcome, target};
use crate::text::Unsafe;
use crate::text::human::{self, count};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill, by name or folder
    #[arg(value_name = "SKILL")]
    skill: String,

    /// The archive to write (FILE.tar.gz or FILE.tgz), or a folder to write SKILL.tar.gz into
    /// (SKILL-2.tar.gz, … when that is taken); a file already there is kept unless --force
    #[arg(short, long, value_name = "FILE.tar.gz|DIR")]
    output: PathBuf,

    /// Replace a file already at the output path (only once the new export is whole)
    #[arg(long)]
    force: bool,

    /// Also pack the files that could not be scanned for secrets (binary, compressed or
    /// encoded), as they are, and .env files, redacted; a file found to hold a secret that
    /// cannot be removed is left out all the same
    #[arg(long)]
    include_unscanned: bool,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let store = Store::open(&machine.env);
    let dir = target::one(&super::scan(machine), &store, &args.skill)?;
    // Relative to where the command was run, which --project does not move.
    let output = std::path::absolute(&args.output)
        .map_err(|error| Failure::Usage(format!("-o {}: {error}", args.output.display())))?;
    let unscanned = if args.include_unscanned {
        Unscanned::Include
    } else {
        Unscanned::LeaveOut
    };
    let exported = export::export(machine, &dir, &output, args.force, unscanned)?;
    let packed = &exported.package;
    // Where it went: a folder given means a file in it, named here.
    let written = if args.output.is_dir() {
        human::path(&exported.path, machine.env.home(), Unsafe::Escaped)
    } else {
        args.output.display().to_string()
    };
    let mut text = format!(
        "Exported {} ({}) to {written}, a {} archive",
        human::path(&dir, machine.env.home(), Unsafe::Escaped),
        count(packed.files, "file"),
        human::size(packed.archive.len() as u64)
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
    if !packed.renamed.is_empty() {
        text.push_str(&format!(
            "{} packed under another name, the secret cut out of it:\n",
            count(packed.renamed.len(), "file")
        ));
        for (path, packed_as) in &packed.renamed {
            text.push_str(&format!("  {path} -> {packed_as}\n"));
        }
    }
    if !packed.left_out.is_empty() {
        let optional = packed.left_out.iter().any(|(_, why)| why.may_be_included());
        text.push_str(&format!(
            "{} left out{}:\n",
            count(packed.left_out.len(), "file"),
            if optional {
                " (--include-unscanned packs all but those holding a secret)"
            } else {
                ""
            }
        ));
        for (path, why) in &packed.left_out {
            text.push_str(&format!("  {path}: {why}\n"));
        }
    }
    if !packed.unscanned.is_empty() {
        text.push_str(&format!(
            "{} packed as --include-unscanned asked:\n",
            count(packed.unscanned.len(), "file")
        ));
        for (path, why) in &packed.unscanned {
            text.push_str(&format!("  {path}: {why}\n"));
        }
    }
    super::print(&text)?;
    Ok(Outcome::Done)
}
