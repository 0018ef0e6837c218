//! Walking a folder skilldeck does not trust through its open handle: the folder is opened
//! once, listed, and every entry below it is opened by its name relative to that handle.
//!
//! A scan digests every file of every skill, so this is the hottest path skilldeck has: a
//! walk by full paths makes the system look up each path from `/` again, component by
//! component, for every open, and asks for each entry's type a second time. Here the listing
//! itself says what each entry is (the kind the folder records for it), only a name is
//! looked up per open, and the one status read that checks a file's type on its handle also
//! gives its size, mode and time. The rules of [`super::read`] still hold: nothing but a
//! regular file is opened for reading, never blocking, never through a link, its type
//! checked on the very file that is read.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::path::Path;

use super::read::{FileFacts, Links};

/// What a folder's listing says an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Folder,
    File,
    Link,
    /// A FIFO, a device, a socket: never opened.
    Other,
}

/// One entry of a folder, by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: OsString,
    pub kind: EntryKind,
}

/// The bytes of one `getdents64` call: a skill folder's listing fits in one call, the
/// largest roots take a few (glibc's `readdir` reads 32 KiB at a time too).
#[cfg(any(target_os = "linux", target_os = "android"))]
const LISTING_BYTES: usize = 32 * 1024;

#[cfg(any(target_os = "linux", target_os = "android"))]
thread_local! {
    /// The buffer every folder listed on this thread is read through.
    static LISTING: std::cell::RefCell<Vec<std::mem::MaybeUninit<u8>>> =
        std::cell::RefCell::new(vec![std::mem::MaybeUninit::uninit(); LISTING_BYTES]);
}

/// An open folder, listed and descended by name.
pub struct Folder {
    /// On Linux the descriptor alone: its listing is read through a buffer each thread keeps
    /// ([`LISTING`]), where a `Dir` would grow and zero a buffer of its own for every folder
    /// (two of them for each skill a scan reads).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    handle: rustix::fd::OwnedFd,
    #[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
    handle: rustix::fs::Dir,
    #[cfg(not(unix))]
    path: std::path::PathBuf,
}

impl Folder {
    /// Open the folder at `path`; a link there is followed, as a skill folder may be reached
    /// through one (links below it are not).
    ///
    /// # Errors
    /// The open's own error; `NotADirectory` for anything but a folder, which is not opened.
    pub fn open(path: &Path) -> io::Result<Self> {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
            let fd = rustix::fs::open(path, flags, Mode::empty())?;
            Self::of(fd)
        }
        #[cfg(not(unix))]
        {
            if !std::fs::metadata(path)?.is_dir() {
                return Err(io::ErrorKind::NotADirectory.into());
            }
            Ok(Self {
                path: path.to_path_buf(),
            })
        }
    }

    /// Every entry but `.` and `..`, sorted by name (byte order, as `Path` compares a part).
    ///
    /// # Errors
    /// The listing's own error.
    pub fn entries(&mut self) -> io::Result<Vec<Entry>> {
        let mut entries = self.list()?;
        entries.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    /// The folder `name` in this one, a link there followed as [`Folder::open`] follows one:
    /// a skill folder in its opened root, looked up by its one name rather than from `/`.
    ///
    /// # Errors
    /// As [`Folder::open`].
    pub fn open_in(&self, name: &OsStr) -> io::Result<Self> {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
            let fd = rustix::fs::openat(self.fd()?, name, flags, Mode::empty())?;
            Self::of(fd)
        }
        #[cfg(not(unix))]
        {
            Self::open(&self.path.join(name))
        }
    }

    /// What is at `below`, a path relative to this folder, a link in its last part followed
    /// or not as `links` says (links on the way are followed, as a path's are): whether a
    /// root's entry holds a `SKILL.md`, asked without opening anything and without the
    /// system looking the root's own path up again from `/`.
    ///
    /// # Errors
    /// The status read's own error (`NotFound` when nothing is there).
    pub fn kind_below(&self, below: &Path, links: Links) -> io::Result<EntryKind> {
        #[cfg(unix)]
        {
            let stat = super::read::status_at(self.fd()?, below, links)?;
            Ok(
                unix::kind(rustix::fs::FileType::from_raw_mode(stat.st_mode))
                    .unwrap_or(EntryKind::Other),
            )
        }
        #[cfg(not(unix))]
        {
            let path = self.path.join(below);
            let meta = match links {
                Links::Follow => std::fs::metadata(&path)?,
                Links::Refuse => std::fs::symlink_metadata(&path)?,
            };
            let kind = meta.file_type();
            Ok(if kind.is_symlink() {
                EntryKind::Link
            } else if kind.is_dir() {
                EntryKind::Folder
            } else if kind.is_file() {
                EntryKind::File
            } else {
                EntryKind::Other
            })
        }
    }

    /// The folder `name` below this one; a link there is not followed.
    ///
    /// # Errors
    /// The open's own error (a link refused, a folder that cannot be read).
    pub fn folder(&self, name: &OsStr) -> io::Result<Self> {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let fd = rustix::fs::openat(self.fd()?, name, flags, Mode::empty())?;
            Self::of(fd)
        }
        #[cfg(not(unix))]
        {
            let path = self.path.join(name);
            if !std::fs::symlink_metadata(&path)?.is_dir() {
                return Err(io::ErrorKind::NotADirectory.into());
            }
            Ok(Self { path })
        }
    }

    /// The regular file `name` in this folder, opened for reading, with what its check read.
    ///
    /// # Errors
    /// The open's own error, and `InvalidData`, naming what the entry is, for anything but a
    /// regular file (a link included), which is never opened for reading.
    pub fn file(&self, name: &OsStr) -> io::Result<(File, FileFacts)> {
        self.file_with(name, Links::Refuse)
    }

    /// As [`Folder::file`], a link named `name` followed when `links` says so: a skill's
    /// `SKILL.md`, which agents read through a link, is read through its folder's handle so
    /// that only one name is looked up.
    ///
    /// # Errors
    /// As [`Folder::file`].
    pub fn file_with(&self, name: &OsStr, links: Links) -> io::Result<(File, FileFacts)> {
        #[cfg(unix)]
        {
            super::read::open_checked(self.fd()?, Path::new(name), links)
        }
        #[cfg(not(unix))]
        {
            super::read::open_checked(&self.path.join(name), links)
        }
    }

    /// What the regular file `name` in this folder is, without opening it: for a file whose
    /// bytes are already read, as a skill's `SKILL.md` is before its folder is walked.
    ///
    /// # Errors
    /// As [`Folder::file`].
    pub fn facts(&self, name: &OsStr) -> io::Result<FileFacts> {
        #[cfg(unix)]
        {
            super::read::regular(&super::read::status_at(
                self.fd()?,
                Path::new(name),
                Links::Refuse,
            )?)
        }
        #[cfg(not(unix))]
        {
            let path = self.path.join(name);
            let meta = std::fs::symlink_metadata(&path)?;
            if meta.is_file() {
                Ok(FileFacts::of_metadata(&meta))
            } else {
                Err(super::read::not_regular(&meta.file_type()))
            }
        }
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn of(fd: rustix::fd::OwnedFd) -> io::Result<Self> {
        Ok(Self { handle: fd })
    }

    #[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
    fn of(fd: rustix::fd::OwnedFd) -> io::Result<Self> {
        Ok(Self {
            handle: rustix::fs::Dir::new(fd)?,
        })
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn fd(&self) -> io::Result<rustix::fd::BorrowedFd<'_>> {
        use rustix::fd::AsFd;
        Ok(self.handle.as_fd())
    }

    #[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
    fn fd(&self) -> io::Result<rustix::fd::BorrowedFd<'_>> {
        Ok(self.handle.fd()?)
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn list(&mut self) -> io::Result<Vec<Entry>> {
        LISTING.with(|buffer| match buffer.try_borrow_mut() {
            Ok(mut buffer) => self.list_through(&mut buffer),
            Err(_) => self.list_through(&mut vec![std::mem::MaybeUninit::uninit(); LISTING_BYTES]),
        })
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn list_through(&self, buffer: &mut [std::mem::MaybeUninit<u8>]) -> io::Result<Vec<Entry>> {
        let mut entries = Vec::new();
        let mut listing = rustix::fs::RawDir::new(&self.handle, buffer);
        while let Some(entry) = listing.next() {
            let entry = entry?;
            self.keep(entry.file_name(), entry.file_type(), &mut entries)?;
        }
        Ok(entries)
    }

    #[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
    fn list(&mut self) -> io::Result<Vec<Entry>> {
        let mut entries = Vec::new();
        while let Some(entry) = self.handle.read() {
            let entry = entry?;
            self.keep(entry.file_name(), entry.file_type(), &mut entries)?;
        }
        Ok(entries)
    }

    /// One entry of the listing into `entries`, but `.` and `..`.
    #[cfg(unix)]
    fn keep(
        &self,
        name: &std::ffi::CStr,
        kind: rustix::fs::FileType,
        entries: &mut Vec<Entry>,
    ) -> io::Result<()> {
        use std::os::unix::ffi::OsStrExt;
        let name = name.to_bytes();
        if name == b"." || name == b".." {
            return Ok(());
        }
        let name = OsStr::from_bytes(name);
        let kind = match unix::kind(kind) {
            Some(kind) => kind,
            // A file system that does not say (some network ones): asked, without
            // following a link.
            None => unix::kind_of(self.fd()?, name)?,
        };
        entries.push(Entry {
            name: name.to_os_string(),
            kind,
        });
        Ok(())
    }

    #[cfg(not(unix))]
    fn list(&mut self) -> io::Result<Vec<Entry>> {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(&self.path)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let kind = if kind.is_symlink() {
                EntryKind::Link
            } else if kind.is_dir() {
                EntryKind::Folder
            } else if kind.is_file() {
                EntryKind::File
            } else {
                EntryKind::Other
            };
            entries.push(Entry {
                name: entry.file_name(),
                kind,
            });
        }
        Ok(entries)
    }
}

#[cfg(unix)]
mod unix {
    use std::ffi::OsStr;
    use std::io;
    use std::path::Path;

    use rustix::fd::BorrowedFd;
    use rustix::fs::FileType;

    use super::super::read::{Links, status_at};
    use super::EntryKind;

    pub(super) fn kind(kind: FileType) -> Option<EntryKind> {
        match kind {
            FileType::Directory => Some(EntryKind::Folder),
            FileType::RegularFile => Some(EntryKind::File),
            FileType::Symlink => Some(EntryKind::Link),
            FileType::Unknown => None,
            _ => Some(EntryKind::Other),
        }
    }

    pub(super) fn kind_of(folder: BorrowedFd<'_>, name: &OsStr) -> io::Result<EntryKind> {
        let stat = status_at(folder, Path::new(name), Links::Refuse)?;
        Ok(kind(FileType::from_raw_mode(stat.st_mode)).unwrap_or(EntryKind::Other))
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::io::Read;
    use std::os::unix::fs::symlink;

    use super::*;

    fn names(entries: &[Entry]) -> Vec<(&str, EntryKind)> {
        entries
            .iter()
            .map(|e| (e.name.to_str().expect("a UTF-8 name"), e.kind))
            .collect()
    }

    #[test]
    fn a_folder_whose_listing_outgrows_one_read_is_listed_whole() {
        // 1,500 names of 60 bytes make some 120 KiB of directory entries: several reads of
        // the buffer a listing goes through, on every system.
        let tmp = tempfile::tempdir().unwrap();
        let mut written: Vec<String> = (0..1500).map(|i| format!("{i:0>60}")).collect();
        for name in &written {
            std::fs::write(tmp.path().join(name), "").unwrap();
        }
        let mut folder = Folder::open(tmp.path()).unwrap();
        let listed: Vec<String> = folder
            .entries()
            .unwrap()
            .into_iter()
            .map(|e| e.name.into_string().unwrap())
            .collect();
        written.sort();
        assert_eq!(listed, written);
        // The same folder listed again from another handle while this one is open.
        let again = Folder::open(tmp.path()).unwrap().entries().unwrap();
        assert_eq!(again.len(), 1500);
    }

    #[test]
    fn entries_come_sorted_by_name_with_what_the_listing_says_they_are() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::write(dir.join("b.md"), "b").unwrap();
        std::fs::write(dir.join("B.md"), "B").unwrap();
        std::fs::create_dir(dir.join("a")).unwrap();
        symlink("b.md", dir.join("link")).unwrap();
        crate::fs::mkfifo(&dir.join("pipe"));
        let _socket = std::os::unix::net::UnixListener::bind(dir.join("socket")).unwrap();
        let entries = Folder::open(dir).unwrap().entries().unwrap();
        assert_eq!(
            names(&entries),
            [
                ("B.md", EntryKind::File),
                ("a", EntryKind::Folder),
                ("b.md", EntryKind::File),
                ("link", EntryKind::Link),
                ("pipe", EntryKind::Other),
                ("socket", EntryKind::Other),
            ]
        );
    }

    #[test]
    fn a_file_opens_by_name_with_its_facts_and_nothing_else_does() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::write(dir.join("run.sh"), "echo hi").unwrap();
        std::fs::set_permissions(dir.join("run.sh"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        symlink("run.sh", dir.join("link")).unwrap();
        crate::fs::mkfifo(&dir.join("pipe"));
        std::fs::create_dir(dir.join("sub")).unwrap();
        let folder = Folder::open(dir).unwrap();

        let (mut file, facts) = folder.file(OsStr::new("run.sh")).unwrap();
        let mut text = String::new();
        file.read_to_string(&mut text).unwrap();
        assert_eq!(text, "echo hi");
        assert_eq!(facts.len, 7);
        assert!(facts.executable);
        let modified = std::fs::metadata(dir.join("run.sh"))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(facts.modified, Some(modified));
        assert_eq!(folder.facts(OsStr::new("run.sh")).unwrap(), facts);

        for (name, what) in [
            ("link", "a symbolic link"),
            ("pipe", "a FIFO"),
            ("sub", "a folder"),
        ] {
            let refused = folder.file(OsStr::new(name)).unwrap_err();
            assert_eq!(
                refused.to_string(),
                format!("it is {what}, not a regular file"),
                "{name}"
            );
            let refused = folder.facts(OsStr::new(name)).unwrap_err();
            assert_eq!(
                refused.to_string(),
                format!("it is {what}, not a regular file"),
                "{name}"
            );
        }
        assert_eq!(
            folder.file(OsStr::new("missing")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
    }

    #[test]
    fn a_folder_in_an_open_one_is_opened_by_name_through_a_link_too() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::create_dir_all(dir.join("real/inner")).unwrap();
        std::fs::write(dir.join("file"), "x").unwrap();
        symlink("real", dir.join("linked")).unwrap();
        symlink("nowhere", dir.join("dangling")).unwrap();
        let folder = Folder::open(dir).unwrap();
        for name in ["real", "linked"] {
            let mut opened = folder.open_in(OsStr::new(name)).unwrap();
            assert_eq!(
                names(&opened.entries().unwrap()),
                [("inner", EntryKind::Folder)],
                "{name}"
            );
        }
        for (name, kind) in [
            ("file", io::ErrorKind::NotADirectory),
            ("dangling", io::ErrorKind::NotFound),
            ("missing", io::ErrorKind::NotFound),
        ] {
            assert_eq!(
                folder.open_in(OsStr::new(name)).err().map(|e| e.kind()),
                Some(kind),
                "{name}"
            );
        }
    }

    #[test]
    fn what_lies_below_is_told_with_or_without_following_the_last_link() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::create_dir_all(dir.join("skill/sub")).unwrap();
        std::fs::write(dir.join("skill/SKILL.md"), "x").unwrap();
        symlink("SKILL.md", dir.join("skill/linked.md")).unwrap();
        symlink("nowhere", dir.join("skill/dangling.md")).unwrap();
        symlink("skill", dir.join("through")).unwrap();
        crate::fs::mkfifo(&dir.join("skill/pipe"));
        let folder = Folder::open(dir).unwrap();
        let kind = |below: &str, links| folder.kind_below(Path::new(below), links);
        for (below, refuse, follow) in [
            ("skill/SKILL.md", EntryKind::File, EntryKind::File),
            ("skill/linked.md", EntryKind::Link, EntryKind::File),
            ("skill/sub", EntryKind::Folder, EntryKind::Folder),
            ("skill/pipe", EntryKind::Other, EntryKind::Other),
            // A link on the way is followed, as a path's is.
            ("through/SKILL.md", EntryKind::File, EntryKind::File),
        ] {
            assert_eq!(kind(below, Links::Refuse).unwrap(), refuse, "{below}");
            assert_eq!(kind(below, Links::Follow).unwrap(), follow, "{below}");
        }
        assert_eq!(
            kind("skill/dangling.md", Links::Refuse).unwrap(),
            EntryKind::Link
        );
        for links in [Links::Refuse, Links::Follow] {
            assert_eq!(
                kind("skill/missing.md", links).unwrap_err().kind(),
                io::ErrorKind::NotFound
            );
        }
        assert_eq!(
            kind("skill/dangling.md", Links::Follow).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
    }

    #[test]
    fn a_folder_below_is_opened_by_name_but_never_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::create_dir_all(dir.join("real/inner")).unwrap();
        std::fs::write(dir.join("real/inner/x"), "x").unwrap();
        symlink("real", dir.join("linked")).unwrap();
        let folder = Folder::open(dir).unwrap();
        let mut inner = folder
            .folder(OsStr::new("real"))
            .unwrap()
            .folder(OsStr::new("inner"))
            .unwrap();
        assert_eq!(names(&inner.entries().unwrap()), [("x", EntryKind::File)]);
        assert!(folder.folder(OsStr::new("linked")).is_err());
        // The folder opened at a path may itself be reached through a link.
        let mut through = Folder::open(&dir.join("linked")).unwrap();
        assert_eq!(
            names(&through.entries().unwrap()),
            [("inner", EntryKind::Folder)]
        );
        assert!(Folder::open(&dir.join("real/inner/x")).is_err());
    }
}
