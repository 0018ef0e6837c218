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

    /// The archive to write (FILE.tar.gz or FILE.tgz), or a folder to write
    /// SKILL-VERSION.tar.gz into (SKILL.tar.gz when SKILL.md declares no version; SKILL-2.tar.gz,
    /// … when that is taken); a file already there is kept unless --force [default: the current
    /// folder]
    #[arg(short, long, value_name = "FILE.tar.gz|DIR")]
    output: Option<PathBuf>,

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
    let typed = args.output.clone().unwrap_or_else(|| PathBuf::from("."));
    let output = std::path::absolute(&typed)
        .map_err(|error| Failure::Usage(format!("-o {}: {error}", typed.display())))?;
    let unscanned = if args.include_unscanned {
        Unscanned::Include
    } else {
        Unscanned::LeaveOut
    };
    let exported = export::export(machine, &dir, &output, args.force, unscanned)?;
    let packed = &exported.package;
    // Where it went: a folder given means a file in it, named here (`./NAME.tar.gz` for the
    // current folder, so it reads as a path).
    let written = if typed.is_dir() {
        let named = typed.join(exported.path.file_name().unwrap_or_default());
        human::path(&named, machine.env.home(), Unsafe::Escaped)
    } else {
        typed.display().to_string()
    };
    // One fact a line, each short: a long path would otherwise run past the terminal's edge
    // in the middle of the sentence.
    let mut text = format!(
        "Exported {}\n  to {written}\n  {} in a {} archive; ",
        human::path(&dir, machine.env.home(), Unsafe::Escaped),
        count(packed.files, "file"),
        human::size(packed.archive.len() as u64)
    );
    if packed.redacted.is_empty() {
        text.push_str("no secrets found.\n");
    } else {
        text.push_str(&format!(
            "{} removed:\n",
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
