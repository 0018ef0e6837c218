//! The bounds one import accepts: one set of numbers, published by [`limits`], so the command
//! line, the app and the tests all accept the same bundles.
//!
//! Sized against the two real skill repositories this was measured on
//! (anthropics/skills: 279 entries, 7.1 MB of files, largest file 191 KB, 6 parts deep;
//! obra/superpowers: 235 entries, 1.6 MB): each bound leaves them ten to eighty-fold room, and
//! stays small enough that a hostile archive cannot cost more than a few hundred megabytes of
//! memory or a second of work.

/// What one import may cost. macOS and file-manager metadata (`._*`, `.DS_Store`, `__MACOSX/`,
/// `Thumbs.db`, a folder's `.git/`) is set aside before it counts against any bound but
/// `stream_bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Files, folders and other entries a bundle may hold.
    pub entries: usize,
    /// The bytes of all the files a bundle holds.
    pub bytes: u64,
    /// The bytes of one file, checked against its declared size before it is read.
    pub file_bytes: u64,
    /// The bytes read from a source in any form: the archive file itself and its expanded
    /// stream, headers and set-aside metadata included. Reading fails past it; nothing is ever
    /// cut short and kept.
    pub stream_bytes: u64,
    /// Parts of one path.
    pub depth: usize,
    /// Bytes of one path.
    pub path_bytes: usize,
    /// Bytes of one part of a path (what every common file system holds).
    pub name_bytes: usize,
}

const MIB: u64 = 1024 * 1024;

/// The bounds every import is held to.
pub const fn limits() -> Limits {
    Limits {
        entries: 10_000,
        bytes: 128 * MIB,
        file_bytes: 16 * MIB,
        stream_bytes: 256 * MIB,
        depth: 24,
        path_bytes: 1024,
        name_bytes: 255,
    }
}
