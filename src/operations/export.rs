//! Export: pack a skill into a reproducible, redacted `.tar.gz` at a path the user gave. One
//! policy for both front ends: a folder means into it, under a name no file there has yet; a
//! file's name must say what it is (`.tar.gz` or `.tgz`); a file already there is never
//! replaced unless `replace` says so, and the check is the rename itself, so a file that
//! appears meanwhile is not lost.

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
    let path = destination(&paths::typed(machine, to), dir)?;
    let package = export::export_with(dir, unscanned)?;
    package.write_to(&path, replace)?;
    Ok(Exported { path, package })
}

/// Where an export asked to go to `to` writes the skill folder `dir`: into `to` when it is a
/// folder, as the skill's archive name or the first `NAME-2.tar.gz`, `NAME-3.tar.gz`, … no
/// file there has; else `to` itself, when its name ends in `.tar.gz` or `.tgz`.
///
/// # Errors
/// [`ExportError::NotTarGz`] for a file name that says another format (`pdf.zip`).
fn destination(to: &Path, dir: &Path) -> Result<PathBuf, ExportError> {
    if to.is_dir() {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "skill".to_owned());
        let first = archive_name(&name);
        let stem = first.trim_end_matches(".tar.gz");
        let free = std::iter::once(first.clone())
            .chain((2..).map(|n| format!("{stem}-{n}.tar.gz")))
            .map(|file| to.join(file))
            .find(|path| std::fs::symlink_metadata(path).is_err())
            .unwrap_or_else(|| to.join(first));
        return Ok(free);
    }
    let named = to
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if named.ends_with(".tar.gz") || named.ends_with(".tgz") {
        Ok(to.to_path_buf())
    } else {
        Err(ExportError::NotTarGz(to.to_path_buf()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_means_into_it_under_a_name_not_taken() {
        let tmp = tempfile::tempdir().unwrap();
        let skill = Path::new("/skills/pdf");
        assert_eq!(
            destination(tmp.path(), skill).unwrap(),
            tmp.path().join("pdf.tar.gz")
        );
        std::fs::write(tmp.path().join("pdf.tar.gz"), "").unwrap();
        std::fs::write(tmp.path().join("pdf-2.tar.gz"), "").unwrap();
        assert_eq!(
            destination(tmp.path(), skill).unwrap(),
            tmp.path().join("pdf-3.tar.gz")
        );
    }

    #[test]
    fn a_file_name_must_say_tar_gz() {
        let skill = Path::new("/skills/pdf");
        for good in ["/out/pdf.tar.gz", "/out/PDF.TGZ"] {
            assert_eq!(
                destination(Path::new(good), skill).unwrap(),
                Path::new(good)
            );
        }
        for bad in ["/out/pdf.zip", "/out/pdf.tar", "/out/pdf"] {
            assert!(matches!(
                destination(Path::new(bad), skill),
                Err(ExportError::NotTarGz(_))
            ));
        }
    }
}
