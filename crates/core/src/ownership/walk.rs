//! One listing of a skill folder for recomputing other installers' hashes: every entry with its
//! kind and modification time, without following links, and the streamed reads those hashes
//! need. Each installer's own rules (what it skips, how it sorts) are applied by its module.

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use walkdir::WalkDir;

use crate::fs::{Links, open_regular};
use crate::limits::{DIGEST_FILE_BYTES, DIGEST_SKILL_BYTES};
use crate::record::portable_path;
use crate::text::human;

/// What an entry is, as a walk that does not follow links sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File { executable: bool },
    Dir,
    Link,
    Other,
}

/// One entry below a skill folder.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The `/`-joined path below the folder.
    pub path: String,
    pub full: PathBuf,
    pub kind: Kind,
    pub modified: Option<SystemTime>,
}

impl Entry {
    /// The parts of the path, folder names first.
    pub fn parts(&self) -> impl Iterator<Item = &str> {
        self.path.split('/')
    }

    /// The entry's own name.
    pub fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }

    /// The folders the entry sits in, below the listed folder.
    pub fn folders(&self) -> impl Iterator<Item = &str> {
        let depth = self.path.matches('/').count();
        self.parts().take(depth)
    }
}

/// Every entry below `dir`, in name order, links not followed.
///
/// # Errors
/// The first entry that cannot be listed, a hash over a partial listing meaning nothing; and
/// `FileTooLarge` when the files, by the sizes they give, are more than the content digest's
/// budget: the same bound holds for every installer's hash, so none reads a sparse file of
/// terabytes either.
pub fn list(dir: &Path) -> io::Result<Vec<Entry>> {
    let mut entries = Vec::new();
    let mut total = 0u64;
    for entry in WalkDir::new(dir)
        .min_depth(1)
        .follow_links(false)
        .sort_by_file_name()
    {
        let entry = entry.map_err(io::Error::from)?;
        let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let meta = entry.metadata().map_err(io::Error::from)?;
        let kind = if meta.is_dir() {
            Kind::Dir
        } else if meta.file_type().is_symlink() {
            Kind::Link
        } else if meta.is_file() {
            within_budget(relative, meta.len())?;
            total = total.saturating_add(meta.len());
            if total > DIGEST_SKILL_BYTES {
                return Err(io::Error::new(
                    io::ErrorKind::FileTooLarge,
                    format!(
                        "{} takes the skill past the {} skilldeck hashes of one skill",
                        portable_path(relative),
                        human::size(DIGEST_SKILL_BYTES)
                    ),
                ));
            }
            Kind::File {
                executable: is_executable(&meta),
            }
        } else {
            Kind::Other
        };
        entries.push(Entry {
            path: portable_path(relative),
            full: entry.path().to_path_buf(),
            kind,
            modified: meta.modified().ok(),
        });
    }
    Ok(entries)
}

/// `FileTooLarge` for a file of more than [`DIGEST_FILE_BYTES`].
fn within_budget(path: &Path, length: u64) -> io::Result<()> {
    if length > DIGEST_FILE_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "{} is {}, more than the {} skilldeck hashes of one file",
                path.display(),
                human::size(length),
                human::size(DIGEST_FILE_BYTES)
            ),
        ));
    }
    Ok(())
}

/// The newest modification time in a listing, the folder's own included.
pub fn newest(dir: &Path, entries: &[Entry]) -> Option<(SystemTime, String)> {
    let own = std::fs::metadata(dir)
        .and_then(|m| m.modified())
        .ok()
        .map(|t| (t, String::from(".")));
    entries
        .iter()
        .filter_map(|e| e.modified.map(|t| (t, e.path.clone())))
        .chain(own)
        .max_by_key(|(t, _)| *t)
}

/// Feed a file's bytes to `update`, streamed, after `header(length)`; a file whose length
/// differs from what was read changed under the walk.
///
/// # Errors
/// When the file cannot be opened or read, is not a regular file, or changed while read;
/// `FileTooLarge`, unread, when it is more than [`DIGEST_FILE_BYTES`] (a link followed may
/// lead to a file the listing did not size).
pub fn stream(
    path: &Path,
    links: Links,
    header: impl FnOnce(u64) -> Vec<u8>,
    mut update: impl FnMut(&[u8]),
) -> io::Result<()> {
    let mut file = open_regular(path, links)?;
    let length = file.metadata()?.len();
    within_budget(path, length)?;
    update(&header(length));
    let mut buffer = vec![0; 64 * 1024];
    let mut total = 0u64;
    loop {
        let read = match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        total += read as u64;
        update(&buffer[..read]);
    }
    if total == length {
        Ok(())
    } else {
        Err(io::Error::other(format!(
            "{} changed while it was being read",
            path.display()
        )))
    }
}

/// Git's rule for a blob's mode: the owner's execute bit (the listing's rule, any execute bit,
/// would differ for a file only others may run).
#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o100 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn entries_are_listed_in_name_order_with_their_kind() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join("b/c")).unwrap();
        fs::write(tmp.path().join("b/c/d.md"), "d").unwrap();
        fs::write(tmp.path().join("a.md"), "a").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("a.md", tmp.path().join("l")).unwrap();
        let listed = list(tmp.path()).unwrap();
        let paths: Vec<&str> = listed.iter().map(|e| e.path.as_str()).collect();
        #[cfg(unix)]
        assert_eq!(paths, ["a.md", "b", "b/c", "b/c/d.md", "l"]);
        #[cfg(not(unix))]
        assert_eq!(paths, ["a.md", "b", "b/c", "b/c/d.md"]);
        assert_eq!(listed[1].kind, Kind::Dir);
        let nested = &listed[3];
        assert_eq!(nested.name(), "d.md");
        assert_eq!(nested.folders().collect::<Vec<_>>(), ["b", "c"]);
        #[cfg(unix)]
        assert_eq!(listed[4].kind, Kind::Link);
    }

    #[test]
    fn a_stream_frames_the_file_after_its_header() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("f");
        fs::write(&path, "hello").unwrap();
        let mut seen = Vec::new();
        stream(
            &path,
            Links::Refuse,
            |n| format!("<{n}>").into_bytes(),
            |b| seen.extend_from_slice(b),
        )
        .unwrap();
        assert_eq!(seen, b"<5>hello");
    }
}
