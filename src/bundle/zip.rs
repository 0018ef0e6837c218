//! zip archives (`.zip`, and `.skill`, what claude.ai exports), read with the zip crate from
//! memory and held to the same rules as tar: each name as written in the central directory,
//! the local headers agreeing with it, no entries sharing bytes, nothing before the first entry
//! or after the end record, and each file's size and CRC checked as it is inflated.

use std::io::{Cursor, Read};

use zip::result::ZipError;
use zip::{CompressionMethod, ZipArchive};

use super::bounded::{Bounded, is_past_the_bound};
use super::members::{Admit, Kind, Members};
use super::refusal::{EntryKind, PathProblem, Refusal};
use crate::text::escape;

/// The file-type bits of a Unix mode, as zip stores it in an entry's external attributes.
const TYPE_MASK: u32 = 0o170_000;

/// Read every member of the zip archive `bytes` into `members`.
///
/// # Errors
/// The first refusal met.
pub fn read(bytes: &[u8], members: &mut Members) -> Result<(), Refusal> {
    let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(|e| corrupt(&e))?;
    if archive.offset() != 0 {
        return Err(Refusal::malformed(
            None,
            "data comes before its first entry",
        ));
    }
    if !ends_at_its_end_record(bytes, archive.comment().len()) {
        return Err(Refusal::malformed(None, "data follows its end record"));
    }
    // Names are judged first, so a duplicate is reported as one rather than as corruption.
    let mut held = Vec::with_capacity(archive.len());
    for index in 0..archive.len() {
        let entry = archive.by_index_raw(index).map_err(|e| corrupt(&e))?;
        let name = entry.name_raw().to_vec();
        let at = escape::bytes(&name);
        let path = match members.admit(&name)? {
            Admit::SetAside => continue,
            Admit::Top => {
                return Err(Refusal::UnsafePath {
                    path: at,
                    why: PathProblem::Empty,
                });
            }
            Admit::Hold(path) => path,
        };
        let mode = entry.unix_mode().unwrap_or(0);
        let kind = match (mode & TYPE_MASK, path.folder) {
            (0 | 0o100_000, false) => None,
            (0 | 0o040_000, true) => Some(Kind::Folder),
            (0o120_000, _) => Some(Kind::Other(EntryKind::SymbolicLink)),
            (0o010_000, _) => Some(Kind::Other(EntryKind::Fifo)),
            (0o020_000, _) => Some(Kind::Other(EntryKind::CharacterDevice)),
            (0o060_000, _) => Some(Kind::Other(EntryKind::BlockDevice)),
            (0o140_000, _) => Some(Kind::Other(EntryKind::Socket)),
            _ => {
                return Err(Refusal::malformed(
                    Some(&at),
                    "its name and its mode disagree on whether it is a folder",
                ));
            }
        };
        if kind == Some(Kind::Folder) && entry.size() != 0 {
            return Err(Refusal::malformed(Some(&at), "a folder carries data"));
        }
        if kind.is_none() {
            if entry.encrypted() {
                return Err(unsupported(at, EntryKind::Encrypted));
            }
            match entry.compression() {
                CompressionMethod::Stored | CompressionMethod::Deflated => {}
                other => {
                    let method = compression_number(other);
                    return Err(unsupported(at, EntryKind::Compressed(method)));
                }
            }
            members.reserve(&path, entry.size())?;
        }
        held.push((
            index,
            path,
            kind,
            super::executable_mode(mode.into()),
            entry.size(),
        ));
    }
    archive
        .validate_header_consistency()
        .map_err(|e| corrupt(&e))?;
    for (index, path, kind, executable, size) in held {
        let kind = match kind {
            Some(kind) => kind,
            None => {
                let at = path.parts.join("/");
                let content = inflate(&mut archive, index, size, &at)?;
                Kind::File {
                    content,
                    executable,
                }
            }
        };
        members.hold(path.parts, kind)?;
    }
    Ok(())
}

/// The bytes of entry `index`, which must be exactly its declared `size`; the zip crate checks
/// the CRC once the entry is read to its end.
fn inflate(
    archive: &mut ZipArchive<Cursor<&[u8]>>,
    index: usize,
    size: u64,
    at: &str,
) -> Result<Vec<u8>, Refusal> {
    let entry = archive.by_index(index).map_err(|e| corrupt(&e))?;
    let mut content = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    Bounded::new(entry, size)
        .read_to_end(&mut content)
        .map_err(|error| {
            if is_past_the_bound(&error) {
                Refusal::malformed(Some(at), "it inflates to more than its declared size")
            } else {
                Refusal::malformed(Some(at), format!("it does not inflate ({error})"))
            }
        })?;
    if content.len() as u64 == size {
        Ok(content)
    } else {
        Err(Refusal::malformed(
            Some(at),
            "it inflates to less than its declared size",
        ))
    }
}

/// Whether the end-of-central-directory record, with its comment, is the last thing in the
/// archive: an archive with bytes after it reads differently in different tools.
fn ends_at_its_end_record(bytes: &[u8], comment: usize) -> bool {
    let Some(start) = bytes.len().checked_sub(22 + comment) else {
        return false;
    };
    bytes[start..].starts_with(b"PK\x05\x06")
        && usize::from(u16::from_le_bytes([bytes[start + 20], bytes[start + 21]])) == comment
}

/// The method's number in the zip specification, for the sentence.
#[allow(deprecated)] // `to_u16` is deprecated in favour of a conversion this version lacks.
fn compression_number(method: CompressionMethod) -> u16 {
    method.to_u16()
}

fn unsupported(path: String, kind: EntryKind) -> Refusal {
    Refusal::UnsupportedEntry { path, kind }
}

fn corrupt(error: &ZipError) -> Refusal {
    Refusal::malformed(
        None,
        format!("it is not a zip archive skilldeck reads ({error})"),
    )
}
