//! `skilldeck export`: a reproducible, redacted `.tar.gz` of a skill.

use std::path::PathBuf;

use crate::snapshot::Store;
use crate::snapshot::export;

use super::human::{count, tilde};
use super::{Context, Failure, Outcome, target};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill, by name or folder
    #[arg(value_name = "SKILL")]
    skill: String,

    /// The archive to write (replaced if it exists, only once the export is whole)
    #[arg(short, long, value_name = "FILE.tar.gz")]
    output: PathBuf,
}

pub fn run(args: &Args, context: &Context) -> Result<Outcome, Failure> {
    let store = Store::open(&context.env);
    let dir = target::one(&context.scan(), &store, &args.skill)?;
    let packed = export::export(&dir)?;
    packed.write_to(&args.output)?;
    let mut text = format!(
        "Exported {} ({}, {} bytes) to {}",
        tilde(&dir, context.env.home()),
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
