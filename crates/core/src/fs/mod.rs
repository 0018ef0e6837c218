//! The system calls skilldeck's writes and its reads of untrusted files rely on, each kept in
//! one place with its platform fallbacks: the bounded, non-blocking, no-follow reader every
//! read of a skill's or a bundle's files goes through; the no-replace rename and the exchange
//! that publish a folder in one step; folder and file locks; creating a new file, setting a
//! mode, syncing a folder; and one way to say which path an I/O error happened at.
//!
//! Only the primitives live here; what they are used for (staging a skill beside its root,
//! a snapshot's history) stays with `install` and `snapshot`.

mod folder;
mod lock;
mod read;
mod said;
mod write;

use std::io;
use std::path::{Path, PathBuf};

pub use folder::{Entry, EntryKind, Folder};
#[cfg(not(unix))]
pub use lock::lock_file;
#[cfg(unix)]
pub use lock::lock_folder;
#[cfg(all(test, unix))]
pub(crate) use read::mkfifo;
pub use read::{
    FileFacts, Links, is_executable, is_link_loop, open_folder, open_regular,
    open_regular_with_facts, read_bounded,
};
pub use said::{Said, said};
pub use write::{
    create_new, dir_builder, exchange, link_folder, rename_no_replace, replace_file, same_mount,
    set_mode, set_path_mode, sync_dir, sync_tree,
};

/// `path` with every link resolved, as the system names it. Windows names a resolved path
/// with the verbatim prefix (`\\?\C:\...`), in which `/` is no separator and which no agent
/// writes in its records, so a resolved path never equalled the `installPath` Claude Code
/// recorded for it (found running the tests under Wine); there it is given in its plain form
/// wherever that means the same path.
///
/// # Errors
/// The system's own, for a path that is missing or cannot be resolved.
pub fn canonical(path: impl AsRef<Path>) -> io::Result<PathBuf> {
    #[cfg(windows)]
    {
        dunce::canonicalize(path)
    }
    #[cfg(not(windows))]
    {
        std::fs::canonicalize(path)
    }
}

/// `path` with `.` parts dropped and `..` parts applied, without asking the disk (so links are
/// not followed): how Node's `path.resolve` spells a path, and the agents written in it.
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// An I/O result whose error is told with the path it happened at.
pub trait At<T> {
    /// The error made into `E` by `error` from the path and the I/O error: most often the
    /// constructor of an error enum's variant that holds a path and a source, so that each call
    /// names the path once instead of a closure that copies it.
    ///
    /// # Errors
    /// The error `error` makes, when `self` is an error.
    fn at<E>(
        self,
        path: impl AsRef<Path>,
        error: impl FnOnce(PathBuf, io::Error) -> E,
    ) -> Result<T, E>;
}

impl<T> At<T> for io::Result<T> {
    fn at<E>(
        self,
        path: impl AsRef<Path>,
        error: impl FnOnce(PathBuf, io::Error) -> E,
    ) -> Result<T, E> {
        self.map_err(|source| error(path.as_ref().to_path_buf(), source))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Failed {
        path: PathBuf,
        source: io::Error,
    }

    fn failed(path: PathBuf, source: io::Error) -> Failed {
        Failed { path, source }
    }

    #[test]
    fn an_error_carries_the_path_it_happened_at() {
        let missing = Path::new("/nonexistent/skilldeck-at-test");
        let error = std::fs::read(missing).at(missing, failed).unwrap_err();
        assert_eq!(error.path, missing);
        assert_eq!(error.source.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn a_success_passes_through() {
        let tmp = tempfile::tempdir().unwrap();
        let value = std::fs::metadata(tmp.path()).at(tmp.path(), failed);
        assert!(value.unwrap().is_dir());
    }
}
