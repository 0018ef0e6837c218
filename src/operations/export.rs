//! Export: pack a skill into a reproducible, redacted `.tar.gz` at a path the user gave. One
//! policy for both front ends: a file already there is never replaced unless `replace` says
//! so, and the check is the rename itself, so a file that appears meanwhile is not lost.

use std::path::{Path, PathBuf};

use crate::roots::Machine;
use crate::snapshot::export::{self, Export, ExportError};

use super::paths;

/// What an export wrote.
#[derive(Debug)]
pub struct Exported {
    /// Where the package is.
    pub path: PathBuf,
    pub package: Export,
}

/// Export the skill folder `dir` to `to`, as typed (`~/` is the home folder, a relative path
/// is taken from the machine's project folder).
///
/// # Errors
/// [`ExportError::Exists`] when a file is at `to` and `replace` is false; any other
/// [`ExportError`] says why the skill could not be packed or written. Nothing was written.
pub fn export(
    machine: &Machine,
    dir: &Path,
    to: &Path,
    replace: bool,
) -> Result<Exported, ExportError> {
    let path = paths::typed(machine, to);
    let package = export::export(dir)?;
    package.write_to(&path, replace)?;
    Ok(Exported { path, package })
}
