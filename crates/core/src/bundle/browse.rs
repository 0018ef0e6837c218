//! What the import picker shows of a folder: the folders in it, and the files a bundle can be
//! read from, by their names. Reading a bundle goes by its bytes ([`super::read`]); the names
//! only decide what is offered.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::roots::Environment;

/// The endings of the archive files offered for import, lower case.
pub const ARCHIVE_EXTENSIONS: [&str; 5] = [".tar.gz", ".tgz", ".tar", ".zip", ".skill"];

/// Whether a file named `name` is offered as an archive to import.
pub fn is_archive_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ARCHIVE_EXTENSIONS
        .iter()
        .any(|extension| lower.len() > extension.len() && lower.ends_with(extension))
}

/// One folder, as the picker lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The folder, absolute.
    pub dir: PathBuf,
    /// The folder above it, when there is one.
    pub parent: Option<PathBuf>,
    /// Folders first, then archives, each by name regardless of case.
    pub entries: Vec<Found>,
}

/// Something in a folder that the picker offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Its name, as the file system gave it (not yet made safe to show).
    pub name: String,
    pub path: PathBuf,
    pub kind: FoundKind,
    /// Its name starts with a dot: the picker leaves it out until asked to show it.
    pub hidden: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoundKind {
    Folder,
    Archive { size: u64 },
}

/// The folders and archives in `dir`, hidden ones (a leading dot) marked as such; anything
/// that cannot be looked at is left out, and a link counts as what it leads to.
///
/// # Errors
/// When `dir` cannot be read.
pub fn browse(dir: &Path) -> io::Result<Place> {
    let dir = std::path::absolute(dir)?;
    let mut entries = Vec::new();
    for entry in fs::read_dir(&dir)?.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let hidden = name.starts_with('.');
        let path = entry.path();
        let Ok(meta) = fs::metadata(&path) else {
            continue;
        };
        let kind = if meta.is_dir() {
            FoundKind::Folder
        } else if meta.is_file() && is_archive_name(&name) {
            FoundKind::Archive { size: meta.len() }
        } else {
            continue;
        };
        entries.push(Found {
            name,
            path,
            kind,
            hidden,
        });
    }
    entries.sort_by(|a, b| {
        let folder = |f: &Found| f.kind != FoundKind::Folder;
        folder(a)
            .cmp(&folder(b))
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
            .then_with(|| a.name.cmp(&b.name))
    });
    Ok(Place {
        parent: dir.parent().map(Path::to_path_buf),
        dir,
        entries,
    })
}

/// Where the picker opens: the downloads folder, where archives arrive, when there is one;
/// else `current`.
pub fn start_dir(env: &Environment, current: &Path) -> PathBuf {
    let downloads = env.home().join("Downloads");
    if downloads.is_dir() {
        downloads
    } else {
        current.to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archives_are_known_by_their_endings() {
        for name in ["a.tar.gz", "A.TGZ", "x.tar", "export.zip", "pdf.skill"] {
            assert!(is_archive_name(name), "{name}");
        }
        for name in ["notes.md", "a.gz", ".tar", "tar", "x.tar.bz2"] {
            assert!(!is_archive_name(name), "{name}");
        }
    }

    #[test]
    fn folders_then_archives_hidden_marked_and_other_files_left_out() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for dir in ["zeta", "Alpha", ".hidden"] {
            fs::create_dir(root.join(dir)).unwrap();
        }
        for file in ["b.zip", "a.tar.gz", "notes.md", ".secret.tar"] {
            fs::write(root.join(file), "12345").unwrap();
        }
        let place = browse(root).unwrap();
        let names: Vec<&str> = place.entries.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                ".hidden",
                "Alpha",
                "zeta",
                ".secret.tar",
                "a.tar.gz",
                "b.zip"
            ]
        );
        let hidden: Vec<bool> = place.entries.iter().map(|f| f.hidden).collect();
        assert_eq!(hidden, [true, false, false, true, false, false]);
        assert_eq!(place.entries[4].kind, FoundKind::Archive { size: 5 });
        assert_eq!(place.parent.as_deref(), root.parent());
        assert!(browse(&root.join("missing")).is_err());
    }

    #[test]
    fn the_picker_opens_in_downloads_when_there_is_one() {
        let tmp = tempfile::tempdir().unwrap();
        let env = Environment::new(tmp.path());
        let here = tmp.path().join("here");
        assert_eq!(start_dir(&env, &here), here);
        fs::create_dir(tmp.path().join("Downloads")).unwrap();
        assert_eq!(start_dir(&env, &here), tmp.path().join("Downloads"));
    }
}
