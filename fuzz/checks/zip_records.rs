//! The structure-aware zip check: an archive written record by record from the fuzzer's bytes
//! (names with and without the UTF-8 flag, Unicode path fields, data descriptors, sizes and
//! CRCs that may lie in any of the three places a zip keeps them), read by skilldeck; when it
//! is accepted, two other readings must list exactly the files skilldeck installs: the zip
//! crate's central directory with names decoded as the specification says (CP437 without the
//! flag), and a streaming walk of the local headers, as bsdtar and Java read a zip.

use std::collections::BTreeMap;
use std::io::Read;

use arbitrary::{Result, Unstructured};

use super::bundle;

const PARTS: &[&str] = &[
    "demo",
    "SKILL.md",
    "skill.md",
    "\u{17f}KILL.md",
    "a.md",
    "caf\u{e9}.md",
    "\u{2500}",
    "NOTES~1.MD",
    "notes.md",
    ".git",
    ".GIT",
    "sub",
    "Demo",
];

const MANIFEST: &[u8] = b"---\nname: demo\ndescription: A skill built by the fuzzer.\n---\nBody\n";

struct Entry {
    name: Vec<u8>,
    data: Vec<u8>,
    deflate: bool,
    flags: u16,
    upath: Option<Vec<u8>>,
    /// Which of crc, compressed size, size to change, and in which record.
    lie: Option<(u8, u8)>,
}

fn entry(u: &mut Unstructured<'_>, first: bool) -> Result<Entry> {
    let name = if first {
        b"demo/SKILL.md".to_vec()
    } else {
        let count = u.int_in_range(1..=3)?;
        let mut parts = Vec::new();
        for _ in 0..count {
            parts.push(*u.choose(PARTS)?);
        }
        parts.join("/").into_bytes()
    };
    let data = if first {
        MANIFEST.to_vec()
    } else {
        u.arbitrary::<Vec<u8>>()?
    };
    let utf8 = if name.is_ascii() {
        u.ratio(1, 8)?
    } else {
        u.ratio(3, 4)?
    };
    let descriptor = u.ratio(1, 3)?;
    let upath = if u.ratio(1, 5)? {
        Some(if u.arbitrary()? {
            name.clone()
        } else {
            u.choose(PARTS)?.as_bytes().to_vec()
        })
    } else {
        None
    };
    let lie = if u.ratio(1, 5)? {
        Some((u.int_in_range(0..=2)?, u.int_in_range(0..=2)?))
    } else {
        None
    };
    Ok(Entry {
        name,
        data,
        deflate: u.arbitrary()?,
        flags: (u16::from(utf8) << 11) | (u16::from(descriptor) << 3),
        upath,
        lie,
    })
}

fn write(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for entry in entries {
        let offset = out.len() as u32;
        let stored = if entry.deflate {
            let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut e, &entry.data).expect("deflate into memory");
            e.finish().expect("deflate into memory")
        } else {
            entry.data.clone()
        };
        let mut crc = flate2::Crc::new();
        crc.update(&entry.data);
        let true_sums = [crc.sum(), stored.len() as u32, entry.data.len() as u32];
        let lied = |record: u8| {
            let mut sums = true_sums;
            if let Some((field, at)) = entry.lie
                && at == record
            {
                sums[usize::from(field)] ^= 1;
            }
            sums
        };
        let descriptor = entry.flags & (1 << 3) != 0;
        let local_sums = if descriptor { [0; 3] } else { lied(0) };
        let extra = entry.upath.as_ref().map_or_else(Vec::new, |upath| {
            let mut c = flate2::Crc::new();
            c.update(&entry.name);
            let mut field = 0x7075u16.to_le_bytes().to_vec();
            field.extend(((5 + upath.len()) as u16).to_le_bytes());
            field.push(1);
            field.extend(c.sum().to_le_bytes());
            field.extend(upath);
            field
        });
        let method: u16 = if entry.deflate { 8 } else { 0 };
        out.extend(b"PK\x03\x04");
        for v in [20u16, entry.flags, method, 0, 0x21] {
            out.extend(v.to_le_bytes());
        }
        for v in local_sums {
            out.extend(v.to_le_bytes());
        }
        out.extend((entry.name.len() as u16).to_le_bytes());
        out.extend((extra.len() as u16).to_le_bytes());
        out.extend(&entry.name);
        out.extend(&extra);
        out.extend(&stored);
        if descriptor {
            out.extend(b"PK\x07\x08");
            for v in lied(1) {
                out.extend(v.to_le_bytes());
            }
        }
        central.extend(b"PK\x01\x02");
        for v in [3 << 8 | 20u16, 20, entry.flags, method, 0, 0x21] {
            central.extend(v.to_le_bytes());
        }
        for v in lied(2) {
            central.extend(v.to_le_bytes());
        }
        for v in [entry.name.len() as u16, extra.len() as u16, 0, 0, 0] {
            central.extend(v.to_le_bytes());
        }
        central.extend((0o100_644u32 << 16).to_le_bytes());
        central.extend(offset.to_le_bytes());
        central.extend(&entry.name);
        central.extend(&extra);
    }
    let at = out.len() as u32;
    out.extend(&central);
    out.extend(b"PK\x05\x06");
    for v in [0u16, 0, entries.len() as u16, entries.len() as u16] {
        out.extend(v.to_le_bytes());
    }
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(at.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// Build a zip from `data` and check skilldeck's reading of it. Whether it was accepted.
pub fn check(data: &[u8]) -> bool {
    let mut u = Unstructured::new(data);
    let Ok(count) = u.int_in_range(1..=6) else {
        return false;
    };
    let mut entries = Vec::new();
    for index in 0..count {
        match entry(&mut u, index == 0) {
            Ok(entry) => entries.push(entry),
            Err(_) => break,
        }
    }
    let bytes = write(&entries);
    let limits = bundle::limits();
    let Some(accepted) = bundle::check_one(&bytes, &limits) else {
        return false;
    };
    let ours: BTreeMap<String, Vec<u8>> = accepted
        .skills
        .iter()
        .flat_map(|s| {
            s.files.iter().map(move |f| {
                let path = if s.origin.is_empty() {
                    f.path.clone()
                } else {
                    format!("{}/{}", s.origin, f.path)
                };
                (path, f.content.clone())
            })
        })
        .collect();
    let listed = |files: &BTreeMap<String, Vec<u8>>| -> BTreeMap<String, Vec<u8>> {
        files
            .iter()
            .filter(|(path, _)| ours.contains_key(*path))
            .map(|(p, c)| (p.clone(), c.clone()))
            .collect()
    };
    let central = central_reading(&bytes);
    assert_eq!(
        listed(&central),
        ours,
        "the zip crate's central directory lists other files"
    );
    assert_eq!(
        central.len(),
        count_held(&central, &ours, &accepted.left_out),
        "the central directory holds a file skilldeck lost"
    );
    let streamed = streaming_reading(&bytes);
    assert_eq!(
        listed(&streamed),
        ours,
        "a streaming reader lists other files"
    );
    true
}

/// Files of the other reading that skilldeck also installs, leaves out of every skill, or sets
/// aside by a rule: everything the other reading holds must be one of them.
fn count_held(
    other: &BTreeMap<String, Vec<u8>>,
    ours: &BTreeMap<String, Vec<u8>>,
    left_out: &[String],
) -> usize {
    other
        .keys()
        .filter(|path| {
            ours.contains_key(*path)
                || left_out.contains(path)
                || path.split('/').any(skilldeck_core::bundle::is_metadata)
        })
        .count()
}

/// The zip crate's central directory, names decoded as it decodes them (CP437 unless flagged).
fn central_reading(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let mut archive =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("an accepted zip opens");
    let mut files = BTreeMap::new();
    for index in 0..archive.len() {
        let mut file = archive.by_index(index).expect("an accepted entry opens");
        let name = file.name().expect("an accepted name decodes").into_owned();
        let mut content = Vec::new();
        file.read_to_end(&mut content)
            .expect("an accepted entry inflates");
        files.insert(name, content);
    }
    files
}

/// The local headers walked from the start, each entry's end found from its own header (or,
/// behind a data descriptor, from the deflate stream's end), as a streaming reader finds it.
fn streaming_reading(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let u32_at =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let mut files = BTreeMap::new();
    let mut at = 0;
    while bytes.get(at..at + 4) == Some(b"PK\x03\x04") {
        let flags = u16_at(at + 6);
        let method = u16_at(at + 8);
        let name_len = usize::from(u16_at(at + 26));
        let extra_len = usize::from(u16_at(at + 28));
        let name = cp437_or_utf8(&bytes[at + 30..at + 30 + name_len], flags);
        let start = at + 30 + name_len + extra_len;
        let (content, used) = if flags & (1 << 3) == 0 {
            let size = u32_at(at + 18) as usize;
            let raw = &bytes[start..start + size];
            (inflate(raw, method).0, size)
        } else if method == 8 {
            inflate(&bytes[start..], method)
        } else {
            // Stored behind a descriptor: the data ends at the first descriptor signature.
            let end = bytes[start..]
                .windows(4)
                .position(|w| w == b"PK\x07\x08")
                .expect("a descriptor");
            (bytes[start..start + end].to_vec(), end)
        };
        let mut next = start + used;
        if flags & (1 << 3) != 0 {
            next += if bytes.get(next..next + 4) == Some(b"PK\x07\x08") {
                16
            } else {
                12
            };
        }
        files.insert(name, content);
        at = next;
    }
    files
}

fn inflate(raw: &[u8], method: u16) -> (Vec<u8>, usize) {
    if method == 0 {
        return (raw.to_vec(), raw.len());
    }
    let mut decoder = flate2::bufread::DeflateDecoder::new(raw);
    let mut out = Vec::new();
    decoder
        .read_to_end(&mut out)
        .expect("an accepted entry inflates");
    (out, decoder.total_in() as usize)
}

/// A name as the zip specification reads it: UTF-8 with the flag, CP437 without.
fn cp437_or_utf8(raw: &[u8], flags: u16) -> String {
    if flags & (1 << 11) != 0 || raw.is_ascii() {
        return String::from_utf8_lossy(raw).into_owned();
    }
    // Only the high half matters here, and only that it is not the UTF-8 reading.
    raw.iter()
        .map(|b| {
            if b.is_ascii() {
                char::from(*b)
            } else {
                char::from_u32(0x2500 + u32::from(*b)).unwrap_or('?')
            }
        })
        .collect()
}
