//! zip archives (`.zip`, and `.skill`, what claude.ai exports), read with the zip crate from
//! memory and held to the same rules as tar: each name as written in the central directory,
//! the local headers agreeing with it, no entries sharing bytes, nothing before the first entry
//! or after the end record, and each file's size and CRC checked as it is inflated.
//!
//! Where zip readers disagree, the archive is refused; [`records`] reads the central directory,
//! local headers and data descriptors from the bytes themselves to find those places: a name
//! not marked UTF-8 that is not ASCII (CP437 to others), a Unicode path field that names
//! another file (an 8.3 alias's long name, for one), sizes or CRCs that differ between the
//! central directory, the local header and the data descriptor.

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
        let admitted = members.admit(&name)?;
        records::check(bytes, &entry, &at)?;
        let path = match admitted {
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
    // The zip crate keeps one entry per name, so a second member of a name is found in the
    // central directory itself, once every name has been judged.
    if archive.has_duplicate_names()
        && let Some(name) = records::repeated_name(bytes, archive.central_directory_start())
    {
        let shown = escape::bytes(&name);
        return Err(Refusal::DuplicatePath(
            shown.strip_suffix('/').unwrap_or(&shown).to_owned(),
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

/// The records of one entry as the bytes hold them, read without the zip crate.
mod records {
    use zip::read::ZipFile;

    use super::super::refusal::Refusal;
    use crate::text::escape;

    /// The general-purpose flags: the sizes follow the data, and the name is UTF-8.
    const DATA_DESCRIPTOR: u16 = 1 << 3;
    const UTF8: u16 = 1 << 11;
    /// The extra field in which Info-ZIP keeps a second, UTF-8 name.
    const UNICODE_PATH: u16 = 0x7075;
    const ZIP64: u16 = 0x0001;

    /// Little-endian fields of a record, `None` past its end.
    struct Record<'b>(&'b [u8]);

    impl<'b> Record<'b> {
        fn at(bytes: &'b [u8], offset: u64) -> Option<Self> {
            bytes.get(usize::try_from(offset).ok()?..).map(Record)
        }
        fn u16(&self, at: usize) -> Option<u16> {
            Some(u16::from_le_bytes(self.0.get(at..at + 2)?.try_into().ok()?))
        }
        fn u32(&self, at: usize) -> Option<u32> {
            Some(u32::from_le_bytes(self.0.get(at..at + 4)?.try_into().ok()?))
        }
        fn u64(&self, at: usize) -> Option<u64> {
            Some(u64::from_le_bytes(self.0.get(at..at + 8)?.try_into().ok()?))
        }
        fn bytes(&self, at: usize, len: usize) -> Option<&'b [u8]> {
            self.0.get(at..at.checked_add(len)?)
        }
    }

    /// One header: its flags, name and extra fields.
    struct Head<'b> {
        flags: u16,
        name: &'b [u8],
        extra: &'b [u8],
        /// Where what follows the header starts, from the record's start.
        end: usize,
    }

    fn central<'b>(bytes: &'b [u8], offset: u64) -> Option<Head<'b>> {
        let record = Record::at(bytes, offset)?;
        (record.bytes(0, 4)? == b"PK\x01\x02").then_some(())?;
        let name_len = usize::from(record.u16(28)?);
        let extra_len = usize::from(record.u16(30)?);
        Some(Head {
            flags: record.u16(8)?,
            name: record.bytes(46, name_len)?,
            extra: record.bytes(46 + name_len, extra_len)?,
            end: 46 + name_len + extra_len,
        })
    }

    /// The first name the central directory starting at `start` gives twice.
    pub fn repeated_name(bytes: &[u8], start: u64) -> Option<Vec<u8>> {
        let mut seen = std::collections::HashSet::new();
        let mut offset = start;
        while let Some(head) = central(bytes, offset) {
            if !seen.insert(head.name) {
                return Some(head.name.to_vec());
            }
            let comment = Record::at(bytes, offset)?.u16(32)?;
            offset += (head.end + usize::from(comment)) as u64;
        }
        None
    }

    /// A local header, with its CRC and sizes (`u32::MAX` for a size kept in zip64).
    fn local<'b>(bytes: &'b [u8], offset: u64) -> Option<(Head<'b>, [u32; 3])> {
        let record = Record::at(bytes, offset)?;
        (record.bytes(0, 4)? == b"PK\x03\x04").then_some(())?;
        let name_len = usize::from(record.u16(26)?);
        let extra_len = usize::from(record.u16(28)?);
        let head = Head {
            flags: record.u16(6)?,
            name: record.bytes(30, name_len)?,
            extra: record.bytes(30 + name_len, extra_len)?,
            end: 30 + name_len + extra_len,
        };
        Some((head, [record.u32(14)?, record.u32(18)?, record.u32(22)?]))
    }

    /// The extra fields of a header, by id; `None` when they do not parse.
    fn extra_fields(extra: &[u8]) -> Option<Vec<(u16, &[u8])>> {
        let record = Record(extra);
        let mut fields = Vec::new();
        let mut at = 0;
        while at < extra.len() {
            let id = record.u16(at)?;
            let len = usize::from(record.u16(at + 2)?);
            fields.push((id, record.bytes(at + 4, len)?));
            at += 4 + len;
        }
        Some(fields)
    }

    /// Check the records of `entry` where zip readers read them differently.
    pub fn check(
        bytes: &[u8],
        entry: &ZipFile<'_, impl std::io::Read>,
        at: &str,
    ) -> Result<(), Refusal> {
        let unreadable = || Refusal::malformed(Some(at), "its headers cannot be read");
        let central = central(bytes, entry.central_header_start()).ok_or_else(unreadable)?;
        let (local, local_sums) = local(bytes, entry.header_start()).ok_or_else(unreadable)?;
        // Named by its header's own name, which the zip crate may have replaced.
        let at = escape::bytes(central.name);
        let refuse = |why: &str| Refusal::malformed(Some(&at), why.to_owned());
        if (central.flags ^ local.flags) & (UTF8 | DATA_DESCRIPTOR | 1) != 0 {
            return Err(refuse(
                "its local header and its central directory entry disagree on its flags",
            ));
        }
        if !central.name.is_ascii() && central.flags & UTF8 == 0 {
            return Err(refuse(
                "its name is not ASCII and not marked UTF-8, so other zip readers read it as CP437",
            ));
        }
        let central_fields =
            extra_fields(central.extra).ok_or_else(|| refuse("its extra fields are malformed"))?;
        let local_fields =
            extra_fields(local.extra).ok_or_else(|| refuse("its extra fields are malformed"))?;
        for (id, field) in central_fields.iter().chain(&local_fields) {
            // A version byte and the CRC of the header's name, then the name.
            if *id == UNICODE_PATH && field.get(5..) != Some(central.name) {
                return Err(refuse(
                    "its Unicode path field names another file than its header does, and zip readers choose between them differently",
                ));
            }
        }
        if central.name != entry.name_raw() || local.name != central.name {
            return Err(refuse(
                "its local header and its central directory entry name different files",
            ));
        }
        let zip64 = local_fields.iter().any(|(id, _)| *id == ZIP64);
        let wanted = [entry.crc32().into(), entry.compressed_size(), entry.size()];
        let data_start = entry.header_start() + local.end as u64;
        if local.flags & DATA_DESCRIPTOR == 0 {
            // A size in zip64 (u32::MAX here) is compared by the zip crate's own check.
            let agrees = local_sums
                .iter()
                .zip(wanted)
                .all(|(local, wanted)| *local == u32::MAX || u64::from(*local) == wanted);
            if !agrees {
                return Err(refuse(
                    "its local header and its central directory entry give different sizes or CRCs",
                ));
            }
            return Ok(());
        }
        // Sizes that follow the data: the header's own are zero, or the same.
        if !local_sums
            .iter()
            .zip(wanted)
            .all(|(local, wanted)| *local == 0 || u64::from(*local) == wanted)
        {
            return Err(refuse(
                "its local header and its central directory entry give different sizes or CRCs",
            ));
        }
        let descriptor = data_start
            .checked_add(entry.compressed_size())
            .and_then(|offset| Record::at(bytes, offset))
            .ok_or_else(|| refuse("its data descriptor is missing"))?;
        let skip = if descriptor.bytes(0, 4) == Some(b"PK\x07\x08") {
            4
        } else {
            0
        };
        let found = if zip64 {
            [
                descriptor.u32(skip).map(u64::from),
                descriptor.u64(skip + 4),
                descriptor.u64(skip + 12),
            ]
        } else {
            [
                descriptor.u32(skip).map(u64::from),
                descriptor.u32(skip + 4).map(u64::from),
                descriptor.u32(skip + 8).map(u64::from),
            ]
        };
        if found != wanted.map(Some) {
            return Err(refuse(
                "its data descriptor and its central directory entry give different sizes or CRCs",
            ));
        }
        // Stored data is not self-delimiting: a reader that streams it ends the file at the
        // first descriptor signature it meets, so one inside the data ends it early there.
        let data = Record::at(bytes, data_start)
            .and_then(|record| record.bytes(0, usize::try_from(entry.compressed_size()).ok()?))
            .ok_or_else(|| refuse("its data is cut short"))?;
        if entry.compression() == zip::CompressionMethod::Stored
            && data.windows(4).any(|window| window == b"PK\x07\x08")
        {
            return Err(refuse(
                "it is stored with its sizes after the data, which holds a data-descriptor signature where streaming zip readers would end it",
            ));
        }
        Ok(())
    }
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
