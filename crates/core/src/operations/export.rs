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

/// The file an export of the skill folder `dir` is offered as, its `SKILL.md` declaring
/// `version`: `FOLDER-VERSION.tar.gz` (`FOLDER.tar.gz` when it declares none, or one a file
/// name cannot hold). The folder's name, because the archive unpacks as that folder and is
/// imported under it. One rule for the command line's default, a batch's archives and the
/// name the app proposes.
pub fn offered_name(dir: &Path, version: Option<&str>) -> String {
    let folder = dir
        .file_name()
        .map_or_else(|| "skill".to_owned(), |n| n.to_string_lossy().into_owned());
    // A folder's name holds no `/`, but may hold what a Windows file system refuses, or
    // what a shell or scp reads as `host:path`.
    let file: String = folder
        .chars()
        .map(|c| if matches!(c, ':' | '\\') { '-' } else { c })
        .collect();
    match version.filter(|v| export::nameable(v)) {
        Some(version) => format!("{file}-{version}.tar.gz"),
        None => format!("{file}.tar.gz"),
    }
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
    let package = export::export_with(dir, unscanned)?;
    let path = destination(&paths::typed(machine, to), names_folder(to), dir, &package)?;
    package.write_to(&path, replace)?;
    Ok(Exported { path, package })
}

/// [`export`] to the name the app proposed: when a file already has it, the first
/// `NAME-2.tar.gz`, `NAME-3.tar.gz`, … beside it that no file has, so a second export of a
/// skill never collides with the first. Nothing is ever replaced.
///
/// # Errors
/// As [`export`].
pub fn export_numbered(
    machine: &Machine,
    dir: &Path,
    to: &Path,
    unscanned: Unscanned,
) -> Result<Exported, ExportError> {
    let package = export::export_with(dir, unscanned)?;
    let mut path = destination(&paths::typed(machine, to), names_folder(to), dir, &package)?;
    if let (Some(folder), Some(file)) = (path.parent(), path.file_name()) {
        path = free_in(folder, &file.to_string_lossy());
    }
    package.write_to(&path, false)?;
    Ok(Exported { path, package })
}

/// [`export_numbered`] into `folder`, under the name [`offered_name`] gives (a batch's
/// archives, one per skill).
///
/// # Errors
/// As [`export`]; a missing `folder` is [`ExportError::NoFolder`].
pub fn export_into(
    machine: &Machine,
    dir: &Path,
    folder: &Path,
    unscanned: Unscanned,
) -> Result<Exported, ExportError> {
    let typed = paths::typed(machine, folder);
    if !typed.is_dir() {
        return Err(ExportError::NoFolder(typed));
    }
    let package = export::export_with(dir, unscanned)?;
    let path = free_in(&typed, &offered_name(dir, package.version.as_deref()));
    package.write_to(&path, false)?;
    Ok(Exported { path, package })
}

/// Where an export asked to go to `to` writes the skill folder `dir`, packed as `package`:
/// into `to` when it is a folder, as the skill's archive name (with the version the package
/// read) or the first `NAME-2.tar.gz`, `NAME-3.tar.gz`, … no file there has; else `to`
/// itself, when its name ends in `.tar.gz` or `.tgz`.
///
/// # Errors
/// [`ExportError::NoFolder`] when the folder it would go into is not there (`folder` when the
/// path was typed as one, with a trailing `/`); [`ExportError::NotTarGz`] for a file name that says another
/// format (`pdf.zip`).
fn destination(
    to: &Path,
    folder: bool,
    dir: &Path,
    package: &Export,
) -> Result<PathBuf, ExportError> {
    if to.is_dir() {
        return Ok(free_in(to, &offered_name(dir, package.version.as_deref())));
    }
    if folder {
        return Err(ExportError::NoFolder(to.to_path_buf()));
    }
    let named = to
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if !(named.ends_with(".tar.gz") || named.ends_with(".tgz")) {
        return Err(ExportError::NotTarGz(to.to_path_buf()));
    }
    match to.parent() {
        Some(folder) if !folder.as_os_str().is_empty() && !folder.is_dir() => {
            Err(ExportError::NoFolder(folder.to_path_buf()))
        }
        _ => Ok(to.to_path_buf()),
    }
}

/// Whether a path as typed names a folder whatever is there: it ends with a separator.
fn names_folder(typed: &Path) -> bool {
    typed
        .as_os_str()
        .to_string_lossy()
        .ends_with(std::path::is_separator)
}

/// `first` in `folder`, or the first `STEM-2.EXT`, `STEM-3.EXT`, … there that no file has
/// (the extension is `.tar.gz` or `.tgz`, kept whole).
fn free_in(folder: &Path, first: &str) -> PathBuf {
    let lower = first.to_lowercase();
    let cut = [".tar.gz", ".tgz"]
        .iter()
        .find(|ext| lower.ends_with(*ext))
        .map_or(first.len(), |ext| first.len() - ext.len());
    let (stem, ext) = first.split_at(cut);
    std::iter::once(first.to_owned())
        .chain((2..).map(|n| format!("{stem}-{n}{ext}")))
        .map(|file| folder.join(file))
        .find(|path| std::fs::symlink_metadata(path).is_err())
        .unwrap_or_else(|| folder.join(first))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A package that declares no version (only the name is read of it here).
    fn none() -> Export {
        Export::default()
    }

    #[test]
    fn a_folder_means_the_name_and_the_version_declared() {
        let tmp = tempfile::tempdir().unwrap();
        let skill = Path::new("/skills/pdf");
        let versioned = Export {
            version: Some("1.2.0".to_owned()),
            ..none()
        };
        assert_eq!(
            destination(tmp.path(), false, skill, &versioned).unwrap(),
            tmp.path().join("pdf-1.2.0.tar.gz")
        );
    }

    #[test]
    fn the_offered_name_is_the_folder_and_a_version_a_file_name_can_hold() {
        let dir = Path::new("/skills/pdf");
        for (version, name) in [
            (Some("1.2.0"), "pdf-1.2.0.tar.gz"),
            (Some("2"), "pdf-2.tar.gz"),
            (None, "pdf.tar.gz"),
            (Some("../x"), "pdf.tar.gz"),
            (Some(".hidden"), "pdf.tar.gz"),
            (Some("1 2"), "pdf.tar.gz"),
        ] {
            assert_eq!(offered_name(dir, version), name, "{version:?}");
        }
        assert_eq!(offered_name(Path::new("/p/a:b"), None), "a-b.tar.gz");
        assert_eq!(offered_name(Path::new("/"), None), "skill.tar.gz");
    }

    #[test]
    fn a_folder_means_into_it_under_a_name_not_taken() {
        let tmp = tempfile::tempdir().unwrap();
        let skill = Path::new("/skills/pdf");
        assert_eq!(
            destination(tmp.path(), false, skill, &none()).unwrap(),
            tmp.path().join("pdf.tar.gz")
        );
        std::fs::write(tmp.path().join("pdf.tar.gz"), "").unwrap();
        std::fs::write(tmp.path().join("pdf-2.tar.gz"), "").unwrap();
        assert_eq!(
            destination(tmp.path(), false, skill, &none()).unwrap(),
            tmp.path().join("pdf-3.tar.gz")
        );
    }

    #[test]
    fn a_missing_folder_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        let skill = Path::new("/skills/pdf");
        let missing = tmp.path().join("nope");
        for typed in [missing.join("pdf.tar.gz"), missing.join("deeper/pdf.tgz")] {
            let Err(ExportError::NoFolder(folder)) = destination(&typed, false, skill, &none())
            else {
                panic!("{typed:?} was not refused");
            };
            assert_eq!(folder, typed.parent().unwrap());
        }
        let slash = PathBuf::from(format!("{}/", missing.display()));
        assert!(names_folder(&slash) && !names_folder(&missing));
        assert!(matches!(
            destination(&slash, true, skill, &none()),
            Err(ExportError::NoFolder(_))
        ));
    }

    #[test]
    fn a_taken_name_is_numbered_keeping_its_extension() {
        let tmp = tempfile::tempdir().unwrap();
        assert_eq!(free_in(tmp.path(), "a.tgz"), tmp.path().join("a.tgz"));
        std::fs::write(tmp.path().join("a.tgz"), "").unwrap();
        assert_eq!(free_in(tmp.path(), "a.tgz"), tmp.path().join("a-2.tgz"));
        std::fs::write(tmp.path().join("b.TAR.GZ"), "").unwrap();
        assert_eq!(
            free_in(tmp.path(), "b.TAR.GZ"),
            tmp.path().join("b-2.TAR.GZ")
        );
    }

    #[test]
    fn a_file_name_must_say_tar_gz() {
        let tmp = tempfile::tempdir().unwrap();
        let skill = Path::new("/skills/pdf");
        for good in ["pdf.tar.gz", "PDF.TGZ"] {
            let good = tmp.path().join(good);
            assert_eq!(destination(&good, false, skill, &none()).unwrap(), good);
        }
        for bad in ["/out/pdf.zip", "/out/pdf.tar", "/out/pdf"] {
            // The name is judged before the folder it would go in.
            assert!(matches!(
                destination(Path::new(bad), false, skill, &none()),
                Err(ExportError::NotTarGz(_))
            ));
        }
    }
}
