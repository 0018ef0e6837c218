//! Reading what git prints about a commit's objects, as bytes a server chose: the tree listing
//! of `git ls-tree -r -t -l -z` and the blobs of `git cat-file --batch`. Both readers hold to
//! what was asked: a listing line that is not one git writes, a blob other than the one asked
//! for, or one of another size is a [`Malformed`] answer, never a guess. The blob reader is
//! fed a chunk at a time, as the child process runner hands output on, and keeps no more than
//! the sizes the listing gave.

use std::collections::VecDeque;

/// An answer of git's that is not what git writes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("git's answer could not be read: {0}")]
pub struct Malformed(pub String);

/// What a tree entry is, by its git mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryMode {
    /// `100644` (or the legacy `100664`, which git reads as it).
    File,
    /// `100755`.
    Executable,
    /// `120000`: the blob is the link's target.
    Link,
    /// `040000`.
    Folder,
    /// `160000`: a submodule's commit, which a checkout leaves as an empty folder.
    Submodule,
}

/// One entry of a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeEntry {
    pub mode: EntryMode,
    /// The object id, hex.
    pub id: String,
    /// A blob's size; none for a folder or a submodule.
    pub size: Option<u64>,
    /// The path below the tree listed, as git stores it.
    pub path: Vec<u8>,
}

/// The longest header line `cat-file --batch` writes: an id (64 hex at most), a type and a
/// size, with room to spare.
const HEADER_BYTES: usize = 256;

/// Read `git ls-tree -r -t -l -z` output: `MODE SP TYPE SP ID SP+ SIZE TAB PATH NUL`.
///
/// # Errors
/// [`Malformed`] for an entry git does not write.
pub fn parse_tree(listing: &[u8]) -> Result<Vec<TreeEntry>, Malformed> {
    let mut entries = Vec::new();
    let body = listing.strip_suffix(b"\0").unwrap_or(listing);
    if body.is_empty() {
        return Ok(entries);
    }
    for record in body.split(|b| *b == 0) {
        entries.push(parse_entry(record)?);
    }
    Ok(entries)
}

fn parse_entry(record: &[u8]) -> Result<TreeEntry, Malformed> {
    let bad = || Malformed(format!("a tree entry {}", shown(record)));
    let tab = record.iter().position(|b| *b == b'\t').ok_or_else(bad)?;
    let (head, path) = (&record[..tab], &record[tab + 1..]);
    let head = std::str::from_utf8(head).map_err(|_| bad())?;
    let mut fields = head.split(' ').filter(|f| !f.is_empty());
    let (Some(mode), Some(kind), Some(id), Some(size), None) = (
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
    ) else {
        return Err(bad());
    };
    let mode = match (mode, kind) {
        ("100644" | "100664", "blob") => EntryMode::File,
        ("100755", "blob") => EntryMode::Executable,
        ("120000", "blob") => EntryMode::Link,
        ("040000", "tree") => EntryMode::Folder,
        ("160000", "commit") => EntryMode::Submodule,
        _ => return Err(bad()),
    };
    if !is_object_id(id) || path.is_empty() {
        return Err(bad());
    }
    let size = match (mode, size) {
        (EntryMode::Folder | EntryMode::Submodule, "-") => None,
        (EntryMode::File | EntryMode::Executable | EntryMode::Link, size)
            if size.bytes().all(|b| b.is_ascii_digit()) =>
        {
            Some(size.parse().map_err(|_| bad())?)
        }
        _ => return Err(bad()),
    };
    Ok(TreeEntry {
        mode,
        id: id.to_owned(),
        size,
        path: path.to_vec(),
    })
}

/// A SHA-1 or SHA-256 object id in lower-case hex, as git prints one.
pub fn is_object_id(id: &str) -> bool {
    matches!(id.len(), 40 | 64) && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The blobs `git cat-file --batch` answers with, for the ids asked, in order: each
/// `ID SP blob SP SIZE LF CONTENT LF`, the id and the size those asked.
#[derive(Debug)]
pub struct Blobs {
    wanted: VecDeque<(String, u64)>,
    got: Vec<Vec<u8>>,
    header: Vec<u8>,
    state: State,
}

#[derive(Debug)]
enum State {
    Header,
    Body { left: u64 },
    Newline,
}

impl Blobs {
    /// A reader for the blobs `wanted` (id and size each), in order.
    pub fn new(wanted: Vec<(String, u64)>) -> Self {
        Self {
            got: Vec::with_capacity(wanted.len()),
            wanted: wanted.into(),
            header: Vec::new(),
            state: State::Header,
        }
    }

    /// The input `cat-file --batch` is given: one id a line.
    pub fn input(wanted: &[(String, u64)]) -> Vec<u8> {
        wanted
            .iter()
            .flat_map(|(id, _)| id.bytes().chain([b'\n']))
            .collect()
    }

    /// Read the next chunk of the answer.
    ///
    /// # Errors
    /// [`Malformed`] for anything but the blobs asked for, in order, at their sizes.
    pub fn feed(&mut self, mut chunk: &[u8]) -> Result<(), Malformed> {
        while !chunk.is_empty() {
            match self.state {
                State::Header => {
                    let end = chunk.iter().position(|b| *b == b'\n');
                    let take = end.map_or(chunk.len(), |at| at + 1);
                    if self.header.len() + take > HEADER_BYTES {
                        return Err(Malformed("a header line too long".to_owned()));
                    }
                    self.header.extend_from_slice(&chunk[..take]);
                    chunk = &chunk[take..];
                    if end.is_some() {
                        let left = self.start_blob()?;
                        self.state = if left == 0 {
                            State::Newline
                        } else {
                            State::Body { left }
                        };
                    }
                }
                State::Body { left } => {
                    let take = usize::try_from(left).unwrap_or(usize::MAX).min(chunk.len());
                    if let Some(blob) = self.got.last_mut() {
                        blob.extend_from_slice(&chunk[..take]);
                    }
                    chunk = &chunk[take..];
                    let left = left - take as u64;
                    self.state = if left == 0 {
                        State::Newline
                    } else {
                        State::Body { left }
                    };
                }
                State::Newline => {
                    if chunk[0] != b'\n' {
                        return Err(Malformed("a blob longer than its size".to_owned()));
                    }
                    chunk = &chunk[1..];
                    self.state = State::Header;
                }
            }
        }
        Ok(())
    }

    /// Check the header just read against the next blob wanted; its size.
    fn start_blob(&mut self) -> Result<u64, Malformed> {
        let line = std::mem::take(&mut self.header);
        let text = String::from_utf8_lossy(&line[..line.len() - 1]).into_owned();
        let Some((id, size)) = self.wanted.pop_front() else {
            return Err(Malformed(format!(
                "{} when nothing more was asked",
                shown(&line)
            )));
        };
        let expected = format!("{id} blob {size}");
        if text != expected {
            return Err(Malformed(format!(
                "{} where {expected} was asked",
                shown(text.as_bytes())
            )));
        }
        // The size was judged against the bounds before it was asked for.
        self.got
            .push(Vec::with_capacity(usize::try_from(size).unwrap_or(0)));
        Ok(size)
    }

    /// Every blob asked for, in order.
    ///
    /// # Errors
    /// [`Malformed`] when the answer ended before all of them.
    pub fn finish(self) -> Result<Vec<Vec<u8>>, Malformed> {
        if !self.wanted.is_empty()
            || !matches!(self.state, State::Header)
            || !self.header.is_empty()
        {
            return Err(Malformed("it ended before every file was read".to_owned()));
        }
        Ok(self.got)
    }

    /// The bytes held so far.
    pub fn held(&self) -> u64 {
        self.got.iter().map(|blob| blob.len() as u64).sum()
    }
}

/// A short, terminal-safe rendering of bytes for a sentence.
fn shown(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(80)];
    crate::text::sanitize::line(&String::from_utf8_lossy(cut))
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "1111111111111111111111111111111111111111";
    const B: &str = "2222222222222222222222222222222222222222";

    #[test]
    fn a_listing_reads_each_kind_and_refuses_what_git_does_not_write() {
        let listing = format!(
            "040000 tree {A}       -\tskills\0100644 blob {B}      12\tskills/a b\t\0100755 blob {B}       3\tx\0120000 blob {A}       5\tl\0160000 commit {A}       -\tsub\0"
        );
        let entries = parse_tree(listing.as_bytes()).unwrap();
        assert_eq!(entries.len(), 5);
        assert_eq!(entries[1].path, b"skills/a b\t");
        assert_eq!(entries[1].size, Some(12));
        assert_eq!(entries[3].mode, EntryMode::Link);
        assert_eq!(parse_tree(b"").unwrap(), []);
        for bad in [
            format!("100644 blob {A} 1"),
            format!("100644 tree {A} -\tp"),
            format!("100644 blob {A} -1\tp"),
            format!("100644 blob {A} 99999999999999999999999\tp"),
            format!("100644 blob {} 1\tp", &A[1..]),
            format!("100644 blob {A} 1\t"),
            format!("040000 tree {A} 7\tp"),
            "junk".to_owned(),
        ] {
            assert!(parse_tree(bad.as_bytes()).is_err(), "{bad}");
        }
    }

    fn answer(blobs: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (id, content) in blobs {
            out.extend(format!("{id} blob {}\n", content.len()).bytes());
            out.extend_from_slice(content);
            out.push(b'\n');
        }
        out
    }

    #[test]
    fn blobs_are_read_in_any_chunks_and_held_to_what_was_asked() {
        let wanted = vec![(A.to_owned(), 5), (B.to_owned(), 0)];
        let bytes = answer(&[(A, b"he\nlo"), (B, b"")]);
        for size in 1..bytes.len() {
            let mut blobs = Blobs::new(wanted.clone());
            for chunk in bytes.chunks(size) {
                blobs.feed(chunk).unwrap();
            }
            assert_eq!(blobs.finish().unwrap(), [b"he\nlo".to_vec(), Vec::new()]);
        }
        let refused = |bytes: &[u8]| {
            let mut blobs = Blobs::new(wanted.clone());
            blobs.feed(bytes).and_then(|()| blobs.finish().map(|_| ()))
        };
        // Another id, another size, a missing object, a longer blob, more than asked, less.
        assert!(refused(&answer(&[(B, b"hello"), (B, b"")])).is_err());
        assert!(refused(&answer(&[(A, b"hello!"), (B, b"")])).is_err());
        assert!(refused(format!("{A} missing\n").as_bytes()).is_err());
        assert!(refused(format!("{A} blob 5\nhello!\n").as_bytes()).is_err());
        let mut more = answer(&[(A, b"hello"), (B, b"")]);
        more.extend(answer(&[(A, b"x")]));
        assert!(refused(&more).is_err());
        assert!(refused(&answer(&[(A, b"hello")])).is_err());
        assert!(refused(&vec![b'x'; 10_000]).is_err());
    }
}
