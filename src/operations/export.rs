//! Export: pack a skill into a reproducible, redacted `.tar.gz` at a path the user gave. One
//! policy for both front ends: a file already there is never replaced unless `replace` says
//! so, and the check is the rename itself, so a file that appears meanwhile is not lost.

use std::path::{Path, PathBuf};

use crate::roots::Machine;
use crate::snapshot::export::{self, Export, ExportError, Unscanned};

use super::paths;

/// What an export wrote.
#[derive(Debug)]
pub struct Exported {
    /// Where the package is.
    pub path: PathBuf,
    pub package: Export,
}

/// The file an export of the skill `name` is offered as: its name with the characters a file
/// name cannot hold (`plugin:skill`, a path separator) made dashes.
pub fn archive_name(name: &str) -> String {
    let file: String = name
        .chars()
        .map(|c| {
            if matches!(c, ':' | '/' | '\\') {
                '-'
            } else {
                c
            }
        })
        .collect();
    format!("{file}.tar.gz")
}

/// Export the skill folder `dir` to `to`, as typed (`~/` is the home folder, a relative path
/// is taken from the machine's project folder), with the files that could not be scanned (and
/// `.env` files) left out or packed as `unscanned` says: the app always leaves them out, the
/// command line packs them on request.
///
/// # Errors
/// [`ExportError::Exists`] when a file is at `to` and `replace` is false; any other
/// [`ExportError`] says why the skill could not be packed or written. Nothing was written.
pub fn export(
    machine: &Machine,
    dir: &Path,
    to: &Path,
    replace: bool,
    unscanned: Unscanned,
) -> Result<Exported, ExportError> {
    let path = paths::typed(machine, to);
    let package = export::export_with(dir, unscanned)?;
    package.write_to(&path, replace)?;
    Ok(Exported { path, package })
}
