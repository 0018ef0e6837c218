//! An I/O error as a person reads it: what went wrong in words ("not found", "permission
//! denied"), never the system's `(os error 2)`. Every error type that carries an
//! `io::Error` writes it through [`said`], after the path it is about.

use std::fmt;
use std::io::{self, ErrorKind};

/// `error`, for a sentence that has already named the path: `{path} could not be read:
/// {said(error)}`.
pub fn said(error: &io::Error) -> Said<'_> {
    Said(error)
}

/// See [`said`].
pub struct Said<'a>(&'a io::Error);

impl fmt::Display for Said<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let error = self.0;
        // A message of skilldeck's own (an error made with one, not a system code) says more
        // than its kind does: it names the file and the bound.
        if error.raw_os_error().is_none() && error.get_ref().is_some() {
            return f.write_str(&error.to_string());
        }
        let words = match error.kind() {
            ErrorKind::NotFound => "not found",
            ErrorKind::PermissionDenied => "permission denied",
            ErrorKind::AlreadyExists => "something is already there",
            ErrorKind::IsADirectory => "it is a folder, not a file",
            ErrorKind::NotADirectory => "a part of the path is a file, not a folder",
            ErrorKind::DirectoryNotEmpty => "the folder is not empty",
            ErrorKind::ReadOnlyFilesystem => "the file system is read-only",
            ErrorKind::StorageFull => "the disk is full",
            ErrorKind::QuotaExceeded => "the disk quota is used up",
            ErrorKind::FileTooLarge => "the file is too large",
            ErrorKind::CrossesDevices => "it would cross file systems",
            ErrorKind::TooManyLinks => "too many links",
            ErrorKind::InvalidFilename => "the name is not one the file system takes",
            ErrorKind::ResourceBusy => "it is busy",
            ErrorKind::TimedOut => "it timed out",
            ErrorKind::Interrupted => "it was interrupted",
            ErrorKind::OutOfMemory => "out of memory",
            // A message of skilldeck's own, or the system's with its code taken off.
            _ => return f.write_str(&without_code(&error.to_string())),
        };
        f.write_str(words)
    }
}

/// The system's message without the ` (os error N)` it ends with.
fn without_code(message: &str) -> String {
    match message.rfind(" (os error ") {
        Some(at) if message.ends_with(')') => message[..at].to_owned(),
        _ => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_of_skilldecks_own_is_kept_whole() {
        let own = io::Error::new(ErrorKind::FileTooLarge, "big.bin is past the 64 MiB bound");
        assert_eq!(said(&own).to_string(), "big.bin is past the 64 MiB bound");
    }

    #[test]
    fn each_kind_in_words_and_never_the_code() {
        let missing = io::Error::from_raw_os_error(2);
        assert!(missing.to_string().contains("(os error 2)"));
        assert_eq!(said(&missing).to_string(), "not found");
        assert_eq!(
            said(&io::Error::from(ErrorKind::PermissionDenied)).to_string(),
            "permission denied"
        );
        assert_eq!(
            said(&io::Error::other("the archive is truncated")).to_string(),
            "the archive is truncated"
        );
        assert_eq!(without_code("Bad thing (os error 99)"), "Bad thing");
    }
}
