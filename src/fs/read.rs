//! Reading folders skilldeck does not trust: skill folders on disk and bundles.
//!
//! Between listing a directory and opening an entry, the entry may be swapped for a FIFO (an
//! open would wait for a writer forever) or for a link (an open would read outside the
//! folder). Every read of a skill's or a bundle's files goes through here, so the rule is kept
//! in one place: open without blocking, optionally refuse to follow a final link, and accept
//! only a regular file.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Whether a link in the last part of the path is followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    Follow,
    Refuse,
}

/// Open `path` for reading if it is a regular file.
///
/// # Errors
/// The open's own error, `InvalidData` for anything but a regular file, and (with
/// [`Links::Refuse`]) the error a link in the last part of the path gives.
pub fn open_regular(path: &Path, links: Links) -> io::Result<File> {
    let file = open_nonblocking(path, links)?;
    if file.metadata()?.is_file() {
        Ok(file)
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "not a regular file",
        ))
    }
}

/// The whole of a small regular file (a manifest, a lock file), refused when it holds more
/// than `limit` bytes, so a huge or endless file cannot cost a listing its memory.
///
/// # Errors
/// The open's or read's own error, and `InvalidData` for anything but a regular file or for a
/// file over the limit.
pub fn read_bounded(path: &Path, links: Links, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path, links)?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("it is larger than {limit} bytes"),
        ));
    }
    Ok(bytes)
}

#[cfg(unix)]
fn open_nonblocking(path: &Path, links: Links) -> io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let mut flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    if links == Links::Refuse {
        flags |= OFlags::NOFOLLOW;
    }
    let fd = rustix::fs::open(path, flags, Mode::empty())?;
    Ok(File::from(fd))
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path, _links: Links) -> io::Result<File> {
    File::open(path)
}

/// Whether an error says a path runs through a loop of links.
pub fn is_link_loop(error: &io::Error) -> bool {
    #[cfg(unix)]
    {
        rustix::io::Errno::from_io_error(error) == Some(rustix::io::Errno::LOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = error;
        false
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Read;

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
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("pipe");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &path,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let error = open_regular(&path, Links::Follow).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
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
        assert!(open_regular(tmp.path(), Links::Follow).is_err());
    }
}
