//! tar archives, walked header by header with the tar crate decoding each header's fields, and
//! every place where tar readers disagree refused (archive-import-safety.md §2.2–2.3).
//!
//! The walk is written here rather than left to `tar::Archive` because that iterator hides what
//! must be seen: it takes a GNU long name over a pax path, the first of two pax paths, skips
//! malformed pax records, reads a size on a folder as data, stops at the first zero block
//! whatever follows, and accepts an archive with no end marker at all.

use std::io::{self, Read};

use tar::Header;

use super::bounded::is_past_the_bound;
use super::members::{Admit, Kind, Members};
use super::pax;
use super::refusal::{EntryKind, PathProblem, Refusal};
use crate::text::escape;

const BLOCK: usize = 512;

/// Read every member of the tar stream `stream` into `members`, then check that nothing but
/// the end-of-archive marker and zero padding follows.
///
/// # Errors
/// The first refusal met; nothing read so far is kept by the caller.
pub fn read(stream: impl Read, members: &mut Members) -> Result<(), Refusal> {
    let mut tar = Walk {
        stream,
        stream_bytes: members.limits().stream_bytes,
    };
    let mut pending = Pending::default();
    loop {
        let mut block = [0u8; BLOCK];
        if !tar.block(&mut block)? {
            return Err(Refusal::malformed(
                None,
                "it ends without the end-of-archive marker",
            ));
        }
        if block.iter().all(|byte| *byte == 0) {
            if pending.is_some() {
                return Err(Refusal::malformed(
                    None,
                    "an extended header is followed by the end of the archive",
                ));
            }
            return tar.end();
        }
        let header = Header::from_byte_slice(&block);
        let at = escape::bytes(&header.path_bytes());
        check(&block, &at)?;
        unused_bytes_are_empty(&block, &at)?;
        let size = number(&block[124..136])
            .ok_or_else(|| Refusal::malformed(Some(&at), "its size field is not a number"))?;
        let limit = members.limits().file_bytes;
        match header.entry_type().as_byte() {
            b'x' => {
                if pending.pax.is_some() {
                    return Err(Refusal::malformed(Some(&at), "two pax headers in a row"));
                }
                let body = tar.extension(size, limit, &at)?;
                pending.pax = Some(
                    pax::local(&body)
                        .map_err(|why| Refusal::malformed(Some(&at), why.to_string()))?,
                );
            }
            b'g' => {
                if pending.is_some() {
                    return Err(Refusal::malformed(
                        Some(&at),
                        "an extended header is followed by a global header",
                    ));
                }
                let body = tar.extension(size, limit, &at)?;
                pax::global(&body).map_err(|why| Refusal::malformed(Some(&at), why.to_string()))?;
            }
            b'L' => {
                if pending.long_name.is_some() {
                    return Err(Refusal::malformed(Some(&at), "two GNU long names in a row"));
                }
                let mut body = tar.extension(size, limit, &at)?;
                while body.last() == Some(&0) {
                    body.pop();
                }
                // GNU tar stops a long name at its first NUL, the tar crate keeps what follows.
                if body.contains(&0) {
                    return Err(Refusal::malformed(
                        Some(&at),
                        "its GNU long name holds a NUL byte, after which tar readers disagree on the name",
                    ));
                }
                pending.long_name = Some(body);
            }
            b'K' => {
                if pending.long_link {
                    return Err(Refusal::malformed(
                        Some(&at),
                        "two GNU long link names in a row",
                    ));
                }
                tar.extension(size, limit, &at)?;
                pending.long_link = true;
            }
            _ => tar.entry(header, size, std::mem::take(&mut pending), members)?,
        }
    }
}

/// Extended headers read and waiting for the entry they describe.
#[derive(Debug, Default)]
struct Pending {
    pax: Option<pax::Local>,
    long_name: Option<Vec<u8>>,
    long_link: bool,
}

impl Pending {
    fn is_some(&self) -> bool {
        self.pax.is_some() || self.long_name.is_some() || self.long_link
    }
}

/// What an entry's type flag makes it.
enum Entry {
    File,
    Folder,
    Other(EntryKind),
}

struct Walk<R> {
    stream: R,
    stream_bytes: u64,
}

impl<R: Read> Walk<R> {
    /// Read one block; `false` at a clean end of the stream.
    fn block(&mut self, block: &mut [u8; BLOCK]) -> Result<bool, Refusal> {
        let mut filled = 0;
        while filled < BLOCK {
            match self.stream.read(&mut block[filled..]) {
                Ok(0) if filled == 0 => return Ok(false),
                Ok(0) => return Err(Refusal::malformed(None, "it ends inside a header")),
                Ok(read) => filled += read,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(self.failed(&error, None)),
            }
        }
        Ok(true)
    }

    /// The data of an entry, `size` bytes, and the padding after it.
    fn data(&mut self, size: u64, at: &str) -> Result<Vec<u8>, Refusal> {
        let length = usize::try_from(size)
            .map_err(|_| Refusal::malformed(Some(at), "its size does not fit in memory"))?;
        let mut data = vec![0u8; length];
        self.stream
            .read_exact(&mut data)
            .map_err(|error| self.failed(&error, Some(at)))?;
        self.skip(padding(size), at)?;
        Ok(data)
    }

    /// The body of an extended header, bounded like a file.
    fn extension(&mut self, size: u64, limit: u64, at: &str) -> Result<Vec<u8>, Refusal> {
        if size > limit {
            return Err(Refusal::FileTooLarge {
                path: at.to_owned(),
                size,
                limit,
            });
        }
        self.data(size, at)
    }

    /// Pass over `size` bytes that are not kept.
    fn skip(&mut self, size: u64, at: &str) -> Result<(), Refusal> {
        let skipped = io::copy(&mut (&mut self.stream).take(size), &mut io::sink())
            .map_err(|error| self.failed(&error, Some(at)))?;
        if skipped == size {
            Ok(())
        } else {
            Err(cut_short(at))
        }
    }

    fn entry(
        &mut self,
        header: &Header,
        size: u64,
        pending: Pending,
        members: &mut Members,
    ) -> Result<(), Refusal> {
        let pax = pending.pax.unwrap_or_default();
        let name = match (pending.long_name, pax.path) {
            (Some(_), Some(_)) => {
                return Err(Refusal::malformed(
                    Some(&escape::bytes(&header.path_bytes())),
                    "it has both a GNU long name and a pax path, which tar readers choose between differently",
                ));
            }
            (Some(long), None) => long,
            (None, Some(path)) => path,
            (None, None) => header.path_bytes().into_owned(),
        };
        let at = escape::bytes(&name);
        if let Some(pax_size) = pax.size
            && pax_size != size
        {
            return Err(Refusal::malformed(
                Some(&at),
                format!("its pax size ({pax_size}) differs from its header size ({size})"),
            ));
        }
        let entry = match header.entry_type().as_byte() {
            b'0' | b'\0' if !pax.sparse => Entry::File,
            b'5' => Entry::Folder,
            b'1' => Entry::Other(EntryKind::HardLink),
            b'2' => Entry::Other(EntryKind::SymbolicLink),
            b'3' => Entry::Other(EntryKind::CharacterDevice),
            b'4' => Entry::Other(EntryKind::BlockDevice),
            b'6' => Entry::Other(EntryKind::Fifo),
            flag => {
                // Readers disagree on how much data these carry: refused wherever they are.
                let kind = match flag {
                    b'S' | b'0' | b'\0' => EntryKind::Sparse,
                    b'7' => EntryKind::Contiguous,
                    other => EntryKind::Unknown(other),
                };
                return Err(Refusal::UnsupportedEntry { path: at, kind });
            }
        };
        let linked = pending.long_link || pax.linkpath || header.link_name_bytes().is_some();
        if linked && matches!(entry, Entry::File | Entry::Folder) {
            return Err(Refusal::malformed(
                Some(&at),
                "a file or folder carries a link target",
            ));
        }
        if size != 0 && !matches!(entry, Entry::File) {
            return Err(Refusal::malformed(
                Some(&at),
                format!("an entry that is not a file carries {size} bytes of data"),
            ));
        }
        if !matches!(
            entry,
            Entry::Other(EntryKind::CharacterDevice | EntryKind::BlockDevice)
        ) && !device_numbers_are_empty(header.as_bytes())
        {
            return Err(Refusal::malformed(
                Some(&at),
                "an entry that is not a device carries device numbers",
            ));
        }
        let mode = number(&header.as_bytes()[100..108])
            .ok_or_else(|| Refusal::malformed(Some(&at), "its mode field is not a number"))?;
        let path = match members.admit(&name)? {
            Admit::SetAside => return self.skip(size + padding(size), &at),
            Admit::Top if matches!(entry, Entry::Folder) => return Ok(()),
            Admit::Top => {
                return Err(Refusal::UnsafePath {
                    path: at,
                    why: PathProblem::FileEndsWithSlash,
                });
            }
            Admit::Hold(path) => path,
        };
        match entry {
            Entry::File if path.folder => Err(Refusal::UnsafePath {
                path: at,
                why: PathProblem::FileEndsWithSlash,
            }),
            Entry::File => {
                members.reserve(&path, size)?;
                let content = self.data(size, &at)?;
                let executable = super::executable_mode(mode);
                members.hold(
                    path.parts,
                    Kind::File {
                        content,
                        executable,
                    },
                )
            }
            Entry::Folder => members.hold(path.parts, Kind::Folder),
            Entry::Other(kind) => members.hold(path.parts, Kind::Other(kind)),
        }
    }

    /// After the first zero block: the rest of the stream must be zeros, at least one more
    /// block of them. Reading to its end is also what makes gzip check its CRC and length.
    fn end(&mut self) -> Result<(), Refusal> {
        let mut zeros = 0u64;
        let mut buffer = [0u8; 8192];
        loop {
            let read = match self.stream.read(&mut buffer) {
                Ok(0) => break,
                Ok(read) => read,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(self.failed(&error, None)),
            };
            if buffer[..read].iter().any(|byte| *byte != 0) {
                return Err(Refusal::malformed(
                    None,
                    "data follows the end-of-archive marker",
                ));
            }
            zeros += read as u64;
        }
        if zeros < BLOCK as u64 {
            return Err(Refusal::malformed(
                None,
                "its end-of-archive marker is incomplete",
            ));
        }
        Ok(())
    }

    fn failed(&self, error: &io::Error, at: Option<&str>) -> Refusal {
        if is_past_the_bound(error) {
            Refusal::TooLarge(self.stream_bytes)
        } else if error.kind() == io::ErrorKind::UnexpectedEof {
            at.map_or_else(|| Refusal::malformed(None, "it is cut short"), cut_short)
        } else {
            Refusal::malformed(at, format!("its compressed stream is corrupt ({error})"))
        }
    }
}

fn cut_short(at: &str) -> Refusal {
    Refusal::malformed(Some(at), "its data is cut short")
}

/// A numeric header field, read as GNU tar reads one: leading spaces, octal digits, then only
/// spaces and NULs; or, with a first byte of 0x80, a base-256 number. The tar crate also takes a
/// sign, tabs and line breaks, which GNU tar refuses, so the two would disagree on where one
/// header ends and the next begins.
fn number(field: &[u8]) -> Option<u64> {
    if let Some(rest) = field.strip_prefix(&[0x80]) {
        return rest.iter().try_fold(0u64, |n, byte| {
            n.checked_mul(256)?.checked_add(u64::from(*byte))
        });
    }
    let start = field.iter().position(|byte| *byte != b' ')?;
    let digits = field[start..]
        .iter()
        .take_while(|byte| (b'0'..=b'7').contains(*byte))
        .count();
    let (octal, rest) = field[start..].split_at(digits);
    if octal.is_empty() || !rest.iter().all(|byte| *byte == b' ' || *byte == 0) {
        return None;
    }
    octal.iter().try_fold(0u64, |n, byte| {
        n.checked_mul(8)?.checked_add(u64::from(byte - b'0'))
    })
}

/// Zero bytes that fill a member's data up to the next block.
fn padding(size: u64) -> u64 {
    (BLOCK as u64 - size % BLOCK as u64) % BLOCK as u64
}

/// Whether `bytes` begin with a tar header a tar reader would take: a checksum that matches. What the polyglot check asks of a file that is read as another kind.
pub fn starts_with_header(bytes: &[u8]) -> bool {
    // GNU tar and Python take a header by its checksum alone: a v7 header has no magic.
    bytes.get(..BLOCK).is_some_and(|block| {
        number(&block[148..156]).is_some_and(|stored| stored == checksum(block))
    })
}

/// The sum of a header's bytes with its checksum field read as spaces.
fn checksum(block: &[u8]) -> u64 {
    block[..148]
        .iter()
        .chain(&[b' '; 8])
        .chain(&block[156..])
        .map(|byte| u64::from(*byte))
        .sum()
}

/// The header's checksum and format, before any of its fields is believed.
fn check(block: &[u8; BLOCK], at: &str) -> Result<(), Refusal> {
    let stored = number(&block[148..156])
        .ok_or_else(|| Refusal::malformed(Some(at), "its header checksum is not a number"))?;
    if stored != checksum(block) {
        return Err(Refusal::malformed(
            Some(at),
            "its header checksum does not match",
        ));
    }
    let ustar = &block[257..263] == b"ustar\0" && &block[263..265] == b"00";
    let gnu = &block[257..265] == b"ustar  \0";
    if !ustar && !gnu {
        return Err(Refusal::malformed(
            Some(at),
            "its header is neither POSIX ustar nor GNU tar",
        ));
    }
    Ok(())
}

/// The bytes of a header its format leaves empty.
fn unused_bytes_are_empty(block: &[u8; BLOCK], at: &str) -> Result<(), Refusal> {
    let gnu = &block[257..265] == b"ustar  \0";
    // A GNU header keeps times and sparse maps where ustar keeps its name prefix: Python
    // reads those bytes as a prefix of the name whatever the magic, GNU tar and the tar crate
    // do not. Only a GNU incremental dump or a sparse file (both refused) fills them.
    let unused = if gnu { 345 } else { 500 };
    if block[unused..].iter().any(|byte| *byte != 0) {
        return Err(Refusal::malformed(
            Some(at),
            format!(
                "its header holds data at bytes {unused}..512, which the {} format leaves empty and tar readers read differently",
                if gnu { "GNU" } else { "ustar" }
            ),
        ));
    }
    Ok(())
}

/// A device number on an entry that is not a device: the format says the fields are empty,
/// all NULs (GNU tar) or zero (POSIX writers).
fn device_numbers_are_empty(block: &[u8; BLOCK]) -> bool {
    [&block[329..337], &block[337..345]]
        .iter()
        .all(|field| field.iter().all(|byte| *byte == 0) || number(field) == Some(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_as_gnu_tar_reads_them() {
        assert_eq!(number(b"0000644\0"), Some(0o644));
        assert_eq!(number(b"000644 \0"), Some(0o644));
        assert_eq!(number(b"   644  "), Some(0o644));
        assert_eq!(number(b"00000000060\0"), Some(0o60));
        assert_eq!(number(b"777777777777"), Some(0o777_777_777_777));
        assert_eq!(number(b"\x80\0\0\0\0\0\0\0\0\0\x01\0"), Some(256));
        // What the tar crate takes and GNU tar refuses (the first found by the bundle_gz
        // fuzz target: a checksum ending in a line break).
        for field in [
            &b"010101\n "[..],
            b"+0000644",
            b"0000644\t",
            b"00006x4\0",
            b"        ",
            b"\0\0\0\0\0\0\0\0",
            b"\xff\xff\xff\xff\xff\xff\xff\xff",
            b"\x80\x01\0\0\0\0\0\0\0\0\0\0",
        ] {
            assert_eq!(number(field), None, "{field:?}");
        }
    }
}
