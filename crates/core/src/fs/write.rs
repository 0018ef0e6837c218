//! Writes that publish or persist content in one step: the no-replace rename and the exchange
//! (one system call each where the system has one), a new file that cannot be a link, the
//! mode a file or folder gets, and putting folders and trees on disk.

use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

/// Rename `from` to `to` only when nothing is at `to`.
///
/// # Errors
/// `AlreadyExists` when something is at `to`, `NotFound` when `from` is missing,
/// `CrossesDevices` when the two are on different file systems, or the rename's own error.
#[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
pub fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE).map_err(Into::into)
}

/// Without an atomic no-replace rename, looking and renaming are two steps: only a lock the
/// caller holds keeps another writer out between them.
#[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
pub fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    if to.symlink_metadata().is_ok() {
        return Err(io::ErrorKind::AlreadyExists.into());
    }
    fs::rename(from, to)
}

/// Whether the folders `a` and `b` are on one mount, where a rename between them can work:
/// a folder that is a mount point (a tmpfs, a bind mount) is on another one than its parent,
/// even on the same device.
///
/// # Errors
/// When either cannot be looked at.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub fn same_mount(a: &Path, b: &Path) -> io::Result<bool> {
    use rustix::fs::{AtFlags, CWD, StatxFlags, statx};
    let mount = |path: &Path| statx(CWD, path, AtFlags::empty(), StatxFlags::MNT_ID);
    match (mount(a), mount(b)) {
        (Ok(x), Ok(y)) if x.stx_mask & y.stx_mask & StatxFlags::MNT_ID.bits() != 0 => {
            Ok(x.stx_mnt_id == y.stx_mnt_id)
        }
        // Before Linux 5.8, or where statx is filtered out: the device tells a mounted file
        // system apart, though not a bind mount of the same one.
        _ => same_device(a, b),
    }
}

#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
pub fn same_mount(a: &Path, b: &Path) -> io::Result<bool> {
    same_device(a, b)
}

/// Without devices to compare, a rename across volumes fails with its own sentence.
#[cfg(not(unix))]
pub fn same_mount(_a: &Path, _b: &Path) -> io::Result<bool> {
    Ok(true)
}

#[cfg(unix)]
fn same_device(a: &Path, b: &Path) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    Ok(fs::metadata(a)?.dev() == fs::metadata(b)?.dev())
}

/// Swap what is at `from` with what is at `to`, both of which must exist.
///
/// # Errors
/// `NotFound` when either is missing, `CrossesDevices` when the two are on different file
/// systems, or the rename's own error.
#[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
pub fn exchange(from: &Path, to: &Path) -> io::Result<()> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, from, CWD, to, RenameFlags::EXCHANGE).map_err(Into::into)
}

/// Without an atomic exchange, what is at `to` is moved aside first (to `from` with the
/// extension `old`), then `from` into its place, then the old content to `from`; a crash
/// between the renames leaves the old content aside.
#[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
pub fn exchange(from: &Path, to: &Path) -> io::Result<()> {
    let aside = from.with_extension("old");
    fs::rename(to, &aside)?;
    fs::rename(from, to)?;
    fs::rename(&aside, from)
}

/// A new file at `path` for writing, created with `mode` (less the umask) where files have
/// modes. It is never opened through a link: anything already at `path` fails the create.
///
/// # Errors
/// `AlreadyExists` when something is at `path`, or the create's own error.
#[cfg(unix)]
pub fn create_new(path: &Path, mode: u32) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits().cast_signed())
        .mode(mode)
        .open(path)
}

/// Windows' `CREATE_NEW` fails on any name that exists, a link included, so it never opens
/// through one; files there have no modes, only the folder's inherited access list.
#[cfg(not(unix))]
pub fn create_new(path: &Path, _mode: u32) -> io::Result<File> {
    OpenOptions::new().write(true).create_new(true).open(path)
}

/// Give the open `file` exactly `mode`, whatever the umask took from it at creation.
///
/// # Errors
/// The system's error.
#[cfg(unix)]
pub fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(mode))
}

/// Where files have no modes there is nothing to set.
#[cfg(not(unix))]
pub fn set_mode(_file: &File, _mode: u32) -> io::Result<()> {
    Ok(())
}

/// Give what is at `path` (a folder, most often) exactly `mode`.
///
/// # Errors
/// The system's error.
#[cfg(unix)]
pub fn set_path_mode(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
pub fn set_path_mode(_path: &Path, _mode: u32) -> io::Result<()> {
    Ok(())
}

/// A folder builder whose folders are made with `mode` (less the umask) where folders have
/// modes.
#[cfg(unix)]
pub fn dir_builder(mode: u32) -> DirBuilder {
    use std::os::unix::fs::DirBuilderExt;
    let mut builder = DirBuilder::new();
    builder.mode(mode);
    builder
}

#[cfg(not(unix))]
pub fn dir_builder(_mode: u32) -> DirBuilder {
    DirBuilder::new()
}

/// Put the folder `dir`'s own entries (the names in it, not the files') on disk, so a rename
/// into it survives a crash.
///
/// # Errors
/// When the folder cannot be opened or synced.
#[cfg(unix)]
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    super::open_folder(dir)?.sync_all()
}

/// Windows cannot open a directory to sync it; its renames are journaled by NTFS.
#[cfg(not(unix))]
pub fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// Put `entries` (each a path and whether it is a folder, deepest first) on disk. Linux syncs
/// the file system that holds `dir` in one call, which covers the entries when they all sit on
/// it: a tree of a few hundred files would otherwise wait for a few hundred journal commits.
///
/// # Errors
/// The first open or sync that failed.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub fn sync_tree(dir: &Path, _entries: &[(PathBuf, bool)]) -> io::Result<()> {
    rustix::fs::syncfs(super::open_folder(dir)?).map_err(Into::into)
}

/// Elsewhere each file and folder is synced on its own.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub fn sync_tree(_dir: &Path, entries: &[(PathBuf, bool)]) -> io::Result<()> {
    for (path, is_dir) in entries {
        if *is_dir {
            sync_dir(path)?;
        } else {
            sync_file(path)?;
        }
    }
    Ok(())
}

/// Put one file on disk. Windows flushes only through a handle that may write
/// (`FlushFileBuffers` needs `GENERIC_WRITE`: a reader's handle is refused with "Access
/// denied", found running the tests under Wine); elsewhere a reader's handle will do.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn sync_file(path: &Path) -> io::Result<()> {
    #[cfg(windows)]
    let file = std::fs::OpenOptions::new().write(true).open(path)?;
    #[cfg(not(windows))]
    let file = File::open(path)?;
    file.sync_all()
}

/// Write `bytes` to `path` whole or not at all: a temporary file in the same folder (made if
/// missing), synced, then renamed over `path`. For skilldeck's own small files (records of
/// where skills came from, the last answers of `outdated`), which a crash must never leave
/// half written. Folders it makes are owner-only.
///
/// # Errors
/// When the folder cannot be made or written.
pub fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write as _;
    let folder = path
        .parent()
        .ok_or_else(|| io::Error::other("a file to replace has a folder"))?;
    // skilldeck's own files: a folder made for them is the user's alone (the temporary
    // file, and so the file, already is).
    dir_builder(0o700).recursive(true).create(folder)?;
    let mut temp = tempfile::NamedTempFile::new_in(folder)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|error| error.error)?;
    Ok(())
}

/// A symbolic link at `link` to the folder `target` (what `link` makes and `undo` puts back).
///
/// # Errors
/// Whatever the system says; on Windows without the privilege, a sentence that says so.
#[cfg(unix)]
pub fn link_folder(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// Windows makes a folder link only for an administrator or with Developer Mode on; without
/// either the system's own words ("a required privilege is not held") would not say so.
#[cfg(windows)]
pub fn link_folder(target: &Path, link: &Path) -> io::Result<()> {
    /// ERROR_PRIVILEGE_NOT_HELD (winerror.h).
    const PRIVILEGE_NOT_HELD: i32 = 1314;
    std::os::windows::fs::symlink_dir(target, link).map_err(|error| {
        if error.raw_os_error() == Some(PRIVILEGE_NOT_HELD) {
            io::Error::new(
                io::ErrorKind::PermissionDenied,
                "Windows makes symbolic links only for an administrator or with Developer Mode \
                 on; nothing was linked (`skilldeck copy` puts an independent copy instead)",
            )
        } else {
            error
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_no_replace_rename_leaves_what_is_there() {
        let tmp = tempfile::tempdir().unwrap();
        let (from, to) = (tmp.path().join("from"), tmp.path().join("to"));
        fs::write(&from, "new").unwrap();
        fs::write(&to, "old").unwrap();
        let error = rename_no_replace(&from, &to).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read_to_string(&to).unwrap(), "old");
        fs::remove_file(&to).unwrap();
        rename_no_replace(&from, &to).unwrap();
        assert_eq!(fs::read_to_string(&to).unwrap(), "new");
        assert!(!from.exists());
    }

    #[test]
    fn an_exchange_swaps_two_folders_and_needs_both() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
        fs::create_dir(&a).unwrap();
        fs::write(a.join("f"), "a").unwrap();
        let error = exchange(&a, &b).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
        fs::create_dir(&b).unwrap();
        fs::write(b.join("f"), "b").unwrap();
        exchange(&a, &b).unwrap();
        assert_eq!(fs::read_to_string(a.join("f")).unwrap(), "b");
        assert_eq!(fs::read_to_string(b.join("f")).unwrap(), "a");
    }

    #[test]
    fn a_new_file_is_never_made_over_a_file_or_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("f");
        create_new(&path, 0o600).unwrap();
        let error = create_new(&path, 0o600).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        #[cfg(unix)]
        {
            let link = tmp.path().join("link");
            std::os::unix::fs::symlink(tmp.path().join("target"), &link).unwrap();
            assert!(create_new(&link, 0o600).is_err());
            assert!(!tmp.path().join("target").exists());
        }
    }

    #[cfg(unix)]
    #[test]
    fn modes_are_made_and_set_exactly() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o7777;
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("f");
        let file = create_new(&path, 0o600).unwrap();
        assert_eq!(mode(&path), 0o600);
        set_mode(&file, 0o755).unwrap();
        assert_eq!(mode(&path), 0o755);
        let dir = tmp.path().join("d");
        dir_builder(0o700).create(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
        set_path_mode(&dir, 0o755).unwrap();
        assert_eq!(mode(&dir), 0o755);
    }

    #[test]
    fn a_folder_and_its_parent_share_a_mount_and_proc_does_not() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir(tmp.path().join("child")).unwrap();
        assert!(same_mount(tmp.path(), &tmp.path().join("child")).unwrap());
        #[cfg(target_os = "linux")]
        assert!(!same_mount(Path::new("/proc"), Path::new("/")).unwrap());
    }

    #[test]
    fn a_tree_and_a_folder_sync() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f");
        fs::write(&file, "x").unwrap();
        sync_tree(
            tmp.path(),
            &[(file, false), (tmp.path().to_path_buf(), true)],
        )
        .unwrap();
        sync_dir(tmp.path()).unwrap();
    }
}
