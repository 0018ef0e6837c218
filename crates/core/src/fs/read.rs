//! Reading files skilldeck does not trust: skill folders on disk, bundles, and every file an
//! agent, an installer or a clone left (manifests, lock files, `.git/HEAD`).
//!
//! Such a path may name a FIFO (an open would wait for a writer forever), a device (an open
//! alone can reset a serial board, rewind a tape or allocate a terminal), a link out of the
//! folder, or a sparse file of terabytes; and between listing a folder and opening an entry,
//! the entry may be swapped for any of them. Every such read goes through here, so the rule is
//! kept in one place: the type is learnt without opening the file, only a regular file is
//! opened, never blocking, a final link optionally refused, and a whole-file read is refused
//! past its bound by the size the file gives before any of it is read.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Whether a link in the last part of the path is followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    Follow,
    Refuse,
}

/// What the check of an opened file read of it: all a listing keeps of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileFacts {
    pub len: u64,
    /// Any execute bit is set.
    pub executable: bool,
    pub modified: Option<std::time::SystemTime>,
}

impl FileFacts {
    #[cfg(unix)]
    #[allow(clippy::useless_conversion)] // the mode's type differs between platforms
    fn of_stat(stat: &rustix::fs::Stat) -> Self {
        Self {
            len: u64::try_from(stat.st_size).unwrap_or(0),
            executable: any_execute_bit(u32::from(stat.st_mode)),
            modified: modified(stat),
        }
    }

    #[cfg(not(unix))]
    pub(super) fn of_metadata(meta: &std::fs::Metadata) -> Self {
        Self {
            len: meta.len(),
            executable: false,
            modified: meta.modified().ok(),
        }
    }
}

/// Whether a file is executable as a listing says it: any execute bit set, the one part of a
/// file's mode a skill's content keeps. (Git's blob mode, the owner's bit alone, is
/// `ownership`'s own rule.)
pub fn is_executable(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        any_execute_bit(meta.permissions().mode())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

#[cfg(unix)]
fn any_execute_bit(mode: u32) -> bool {
    mode & 0o111 != 0
}

/// A status's modification time, where the system gave one that fits.
#[cfg(unix)]
#[allow(clippy::useless_conversion, clippy::unnecessary_fallible_conversions)] // the fields' types differ between platforms
fn modified(stat: &rustix::fs::Stat) -> Option<std::time::SystemTime> {
    use std::time::{Duration, SystemTime};
    let seconds = i64::try_from(stat.st_mtime).ok()?;
    let nanos = u32::try_from(stat.st_mtime_nsec).ok()?;
    let since = Duration::new(seconds.unsigned_abs(), nanos);
    if seconds >= 0 {
        SystemTime::UNIX_EPOCH.checked_add(since)
    } else {
        SystemTime::UNIX_EPOCH.checked_sub(since)
    }
}

/// Open `path` for reading if it is a regular file. Anything else (a FIFO, a device, a
/// socket, a folder, and with [`Links::Refuse`] a link) is refused without being opened.
///
/// # Errors
/// The system's own error for a path that cannot be reached, and `InvalidData`, naming what
/// the path is, for anything but a regular file.
pub fn open_regular(path: &Path, links: Links) -> io::Result<File> {
    open_regular_with_facts(path, links).map(|(file, _)| file)
}

/// As [`open_regular`], with the file's size, mode and time, which the check already read: a
/// caller that needs them asks the system once, not twice (once per file of every skill a
/// scan digests).
///
/// # Errors
/// As [`open_regular`].
pub fn open_regular_with_facts(path: &Path, links: Links) -> io::Result<(File, FileFacts)> {
    #[cfg(unix)]
    {
        open_checked(rustix::fs::CWD, path, links)
    }
    #[cfg(not(unix))]
    {
        open_checked(path, links)
    }
}

/// The whole of a small regular file (a manifest, a lock file), refused when it holds more
/// than `limit` bytes, so a huge, sparse or endless file cannot cost a listing its memory.
///
/// # Errors
/// The open's or read's own error, and `InvalidData` for anything but a regular file or for a
/// file over the limit.
pub fn read_bounded(path: &Path, links: Links, limit: u64) -> io::Result<Vec<u8>> {
    let (file, facts) = open_regular_with_facts(path, links)?;
    let size = facts.len;
    if size > limit {
        return Err(too_large(limit));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // One byte past the bound, so a file that grew after its size was taken is caught.
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(bytes)
}

fn too_large(limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("it is larger than {limit} bytes"),
    )
}

/// The refusal of what is not a regular file, naming what it is.
#[cfg(not(unix))]
pub(super) fn not_regular(kind: &std::fs::FileType) -> io::Error {
    refused_as(kind_name(kind))
}

/// The refusal of what is not a regular file, `what` naming it ("a FIFO").
fn refused_as(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("it is {what}, not a regular file"),
    )
}

/// What an entry is, in words, from the type the system gave without opening it.
#[cfg(unix)]
fn raw_kind_name(kind: rustix::fs::FileType) -> &'static str {
    use rustix::fs::FileType;
    match kind {
        FileType::Fifo => "a FIFO",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Socket => "a socket",
        FileType::Directory => "a folder",
        FileType::Symlink => "a symbolic link",
        FileType::RegularFile => "a regular file",
        _ => "a special file",
    }
}

/// What an entry is, in words, where the system has no FIFOs or devices to name.
#[cfg(not(unix))]
fn kind_name(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a folder"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// Linux opens a path without opening the file (`O_PATH`: no device's open runs, a FIFO
/// waits for nothing), so the type is read from the very file the path named, and only a
/// regular file is then opened for reading, through the handle, so no swap in between can
/// change what is read. Where `/proc` is missing, the path is opened again and must still be
/// the same file. `path` is looked up from the folder `at` (the working folder for a full
/// path, a walk's open folder for one of its names).
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) fn open_checked(
    at: rustix::fd::BorrowedFd<'_>,
    path: &Path,
    links: Links,
) -> io::Result<(File, FileFacts)> {
    use rustix::fs::{Mode, OFlags};
    use std::os::fd::AsRawFd;
    let mut flags = OFlags::PATH | OFlags::CLOEXEC;
    if links == Links::Refuse {
        flags |= OFlags::NOFOLLOW;
    }
    let handle = rustix::fs::openat(at, path, flags, Mode::empty())?;
    let stat = rustix::fs::fstat(&handle)?;
    let facts = regular(&stat)?;
    let read = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let reopened = match proc_fds() {
        // One name looked up in the folder of this process's descriptors, rather than the
        // path again.
        Some(fds) => rustix::fs::openat(
            fds,
            DescriptorName::of(handle.as_raw_fd()).as_c_str(),
            read,
            Mode::empty(),
        ),
        None => Err(rustix::io::Errno::NOENT),
    };
    match reopened {
        Ok(fd) => Ok((File::from(fd), facts)),
        Err(rustix::io::Errno::NOENT) => {
            let file = open_nonblocking(at, path, links)?;
            same_file(&file, &stat)?;
            Ok((file, facts))
        }
        Err(error) => Err(error.into()),
    }
}

/// A descriptor's number as the name of its entry in `/proc/self/fd`, written on the stack:
/// one per file a scan reads, so not worth an allocation each.
#[cfg(any(target_os = "linux", target_os = "android"))]
struct DescriptorName {
    /// The digits, then a NUL; a descriptor is a non-negative `i32`, at most 10 digits.
    bytes: [u8; 12],
    len: usize,
}

#[cfg(any(target_os = "linux", target_os = "android"))]
impl DescriptorName {
    fn of(fd: std::os::fd::RawFd) -> Self {
        let mut digits = [0u8; 10];
        let mut count = 0;
        let mut rest = fd.unsigned_abs();
        loop {
            digits[count] = b'0' + (rest % 10) as u8;
            count += 1;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        let mut bytes = [0u8; 12];
        for (at, digit) in digits[..count].iter().rev().enumerate() {
            bytes[at] = *digit;
        }
        Self {
            bytes,
            len: count + 1,
        }
    }

    fn as_c_str(&self) -> &std::ffi::CStr {
        // The digits are never NUL and the byte after them is.
        std::ffi::CStr::from_bytes_with_nul(&self.bytes[..self.len]).unwrap_or_default()
    }
}

/// `/proc/self/fd`, opened once per process (the descriptors are the process's, shared by its
/// threads), or `None` where there is no `/proc`.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn proc_fds() -> Option<&'static rustix::fd::OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    static FDS: std::sync::OnceLock<Option<rustix::fd::OwnedFd>> = std::sync::OnceLock::new();
    FDS.get_or_init(|| {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        rustix::fs::open("/proc/self/fd", flags, Mode::empty()).ok()
    })
    .as_ref()
}

/// Elsewhere the type is read from the path before it is opened, and the open file must be
/// the one that was looked at; a swap in the instant between is caught after the open.
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
pub(super) fn open_checked(
    at: rustix::fd::BorrowedFd<'_>,
    path: &Path,
    links: Links,
) -> io::Result<(File, FileFacts)> {
    let stat = status_at(at, path, links)?;
    let facts = regular(&stat)?;
    let file = open_nonblocking(at, path, links)?;
    same_file(&file, &stat)?;
    Ok((file, facts))
}

/// Windows opens the link itself when asked (`FILE_FLAG_OPEN_REPARSE_POINT`: a symbolic link
/// or a junction is not followed), and the handle's own metadata says what was opened, so no
/// swap between a look and the open can make a link's target read.
#[cfg(windows)]
pub(super) fn open_checked(path: &Path, links: Links) -> io::Result<(File, FileFacts)> {
    use std::os::windows::fs::OpenOptionsExt;
    /// FILE_FLAG_OPEN_REPARSE_POINT (winbase.h).
    const OPEN_REPARSE_POINT: u32 = 0x0020_0000;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    if links == Links::Refuse {
        options.custom_flags(OPEN_REPARSE_POINT);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if meta.is_file() {
        Ok((file, FileFacts::of_metadata(&meta)))
    } else {
        Err(not_regular(&meta.file_type()))
    }
}

/// The status of `path` below the folder `at`, a final link followed or not, read without
/// opening anything.
#[cfg(unix)]
pub(super) fn status_at(
    at: rustix::fd::BorrowedFd<'_>,
    path: &Path,
    links: Links,
) -> io::Result<rustix::fs::Stat> {
    use rustix::fs::AtFlags;
    let flags = match links {
        Links::Follow => AtFlags::empty(),
        Links::Refuse => AtFlags::SYMLINK_NOFOLLOW,
    };
    Ok(rustix::fs::statat(at, path, flags)?)
}

/// The facts of a status that is a regular file's; the refusal naming what it is otherwise.
#[cfg(unix)]
pub(super) fn regular(stat: &rustix::fs::Stat) -> io::Result<FileFacts> {
    let kind = rustix::fs::FileType::from_raw_mode(stat.st_mode);
    if kind == rustix::fs::FileType::RegularFile {
        Ok(FileFacts::of_stat(stat))
    } else {
        Err(refused_as(raw_kind_name(kind)))
    }
}

#[cfg(unix)]
fn open_nonblocking(at: rustix::fd::BorrowedFd<'_>, path: &Path, links: Links) -> io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let mut flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
    if links == Links::Refuse {
        flags |= OFlags::NOFOLLOW;
    }
    let fd = rustix::fs::openat(at, path, flags, Mode::empty())?;
    Ok(File::from(fd))
}

/// Whether `file` is the file `stat` was read of: else it was swapped after it was looked at.
#[cfg(unix)]
#[allow(clippy::useless_conversion, clippy::unnecessary_fallible_conversions)] // the fields' types differ between platforms
fn same_file(file: &File, stat: &rustix::fs::Stat) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata()?;
    let dev = u64::try_from(stat.st_dev).ok();
    let ino = u64::try_from(stat.st_ino).ok();
    if dev == Some(meta.dev()) && ino == Some(meta.ino()) {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "it was replaced while it was being opened",
        ))
    }
}

/// Open the folder at `path` (to lock it or sync it); anything else fails without being
/// opened, so a root swapped for a FIFO cannot make a writer wait.
///
/// # Errors
/// `NotADirectory` for anything but a folder, or the open's own error.
pub fn open_folder(path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        Ok(File::from(rustix::fs::open(path, flags, Mode::empty())?))
    }
    #[cfg(not(unix))]
    {
        File::open(path)
    }
}

/// Whether an error says a path runs through a loop of links.
pub fn is_link_loop(error: &io::Error) -> bool {
    #[cfg(unix)]
    {
        rustix::io::Errno::from_io_error(error) == Some(rustix::io::Errno::LOOP)
    }
    #[cfg(windows)]
    {
        /// ERROR_CANT_RESOLVE_FILENAME (winerror.h): what Windows says of a loop of links.
        const CANT_RESOLVE_FILENAME: i32 = 1921;
        error.raw_os_error() == Some(CANT_RESOLVE_FILENAME)
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = error;
        false
    }
}

/// A FIFO at `path`, for the crate's tests of what blocks a reader that opens it as a file.
/// rustix has no `mknodat` on Apple's systems, so the POSIX `mkfifo` utility makes it there.
#[cfg(all(test, unix))]
pub(crate) fn mkfifo(path: &Path) {
    #[cfg(not(target_vendor = "apple"))]
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .expect("mkfifo");
    #[cfg(target_vendor = "apple")]
    assert!(
        std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("mkfifo runs")
            .success()
    );
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Read;

    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn a_descriptor_is_named_by_its_digits() {
        for fd in [0, 7, 10, 42, 1_000, 123_456, i32::MAX] {
            let name = DescriptorName::of(fd);
            assert_eq!(name.as_c_str().to_str().unwrap(), fd.to_string());
        }
    }

    #[test]
    fn a_regular_file_opens_and_reads() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("f");
        std::fs::write(&path, "hello").unwrap();
        let mut text = String::new();
        open_regular(&path, Links::Refuse)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "hello");
    }

    #[test]
    fn a_link_is_refused_only_when_asked() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("target"), "t").unwrap();
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(tmp.path().join("target"), &link).unwrap();
        assert!(open_regular(&link, Links::Follow).is_ok());
        assert!(open_regular(&link, Links::Refuse).is_err());
    }

    #[test]
    fn a_loop_of_links_is_recognised() {
        let tmp = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("b", tmp.path().join("a")).unwrap();
        std::os::unix::fs::symlink("a", tmp.path().join("b")).unwrap();
        let error = std::fs::metadata(tmp.path().join("a")).unwrap_err();
        assert!(is_link_loop(&error));
        let missing = std::fs::metadata(tmp.path().join("c")).unwrap_err();
        assert!(!is_link_loop(&missing));
    }

    #[test]
    fn a_bounded_read_refuses_a_file_over_its_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("f");
        std::fs::write(&path, "12345").unwrap();
        assert_eq!(read_bounded(&path, Links::Follow, 5).unwrap(), b"12345");
        let error = read_bounded(&path, Links::Follow, 4).unwrap_err();
        assert_eq!(error.to_string(), "it is larger than 4 bytes");
    }

    #[test]
    fn a_directory_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let error = open_regular(tmp.path(), Links::Follow).unwrap_err();
        assert_eq!(error.to_string(), "it is a folder, not a regular file");
    }

    #[test]
    fn a_fifo_is_refused_by_what_it_is_even_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("pipe");
        mkfifo(&path);
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        for (what, links) in [(&path, Links::Refuse), (&link, Links::Follow)] {
            let error = open_regular(what, links).unwrap_err();
            assert_eq!(error.to_string(), "it is a FIFO, not a regular file");
            let error = read_bounded(what, links, 10).unwrap_err();
            assert_eq!(error.to_string(), "it is a FIFO, not a regular file");
        }
        let error = open_regular(&link, Links::Refuse).unwrap_err();
        assert_eq!(
            error.to_string(),
            "it is a symbolic link, not a regular file"
        );
    }

    /// Devices are made where the tests may make them (as root); each is named, not opened.
    #[test]
    fn devices_and_sockets_are_refused_by_what_they_are() {
        let tmp = tempfile::tempdir().unwrap();
        let socket = tmp.path().join("socket");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let mut cases = vec![(socket, "a socket")];
        #[cfg(not(target_vendor = "apple"))]
        {
            let null = tmp.path().join("null");
            let made = rustix::fs::mknodat(
                rustix::fs::CWD,
                &null,
                rustix::fs::FileType::CharacterDevice,
                rustix::fs::Mode::from_raw_mode(0o666),
                rustix::fs::makedev(1, 3),
            );
            if made.is_ok() {
                cases.push((null, "a character device"));
            }
        }
        cases.push((std::path::PathBuf::from("/dev/null"), "a character device"));
        for (path, kind) in cases {
            let error = open_regular(&path, Links::Follow).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("it is {kind}, not a regular file")
            );
        }
    }

    #[test]
    fn only_a_folder_opens_as_a_folder() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(open_folder(tmp.path()).is_ok());
        let path = tmp.path().join("pipe");
        mkfifo(&path);
        let error = open_folder(&path).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::NotADirectory);
    }

    #[test]
    fn a_sparse_file_over_the_bound_is_refused_by_its_size_unread() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("sparse");
        let file = std::fs::File::create(&path).unwrap();
        for size in [11, 1 << 40] {
            file.set_len(size).unwrap();
            let error = read_bounded(&path, Links::Follow, 10).unwrap_err();
            assert_eq!(error.to_string(), "it is larger than 10 bytes");
        }
    }
}
