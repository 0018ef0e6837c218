//! An independent reader of tar member names and data, written from POSIX (pax, ustar) and the
//! GNU tar manual, sharing no code with `src/bundle` or the tar crate. The differential fuzz
//! target compares what skilldeck accepts against it.
//!
//! It reads the way the standard says rather than the way skilldeck refuses: pax records by
//! their length prefixes, the last of a repeated key winning; a pax `path` over a GNU long name
//! over ustar's `prefix/name`; no data behind a header-only type (links, devices, folders,
//! FIFOs) whatever its size field says; unknown type flags read as regular files. It errs only
//! where it cannot go on, and reports anything after the end-of-archive marker.

/// One member as this reader sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The name as stored, with one leading `./` dropped.
    pub name: String,
    pub kind: MemberKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemberKind {
    File {
        data: Vec<u8>,
        executable: bool,
    },
    Folder,
    /// Links, devices, FIFOs: anything that is neither.
    Other(u8),
}

/// What a whole archive holds.
#[derive(Debug, Default)]
pub struct Listing {
    pub members: Vec<Member>,
    /// Something other than zeros follows the first end-of-archive block.
    pub after_end: bool,
    /// The end-of-archive marker was missing or short.
    pub unterminated: bool,
}

const BLOCK: usize = 512;

/// Read `tar`, or say why it cannot be read at all.
pub fn read(tar: &[u8]) -> Result<Listing, String> {
    let mut listing = Listing::default();
    let mut at = 0usize;
    let mut global: Vec<(String, Vec<u8>)> = Vec::new();
    let mut local: Vec<(String, Vec<u8>)> = Vec::new();
    let mut long_name: Option<Vec<u8>> = None;
    loop {
        let Some(block) = tar.get(at..at + BLOCK) else {
            listing.unterminated = true;
            if at < tar.len() {
                return Err("a partial header block".into());
            }
            return Ok(listing);
        };
        if block.iter().all(|b| *b == 0) {
            let rest = &tar[at + BLOCK..];
            listing.unterminated = rest.len() < BLOCK || rest[..BLOCK].iter().any(|b| *b != 0);
            listing.after_end = rest.iter().any(|b| *b != 0);
            return Ok(listing);
        }
        at += BLOCK;
        if !checksum_matches(block) {
            return Err("a header checksum does not match".into());
        }
        let typeflag = block[156];
        let header_size = number(&block[124..136]).ok_or("a size field is not a number")?;
        let size = match pax_value(&local, &global, "size") {
            Some(value) => std::str::from_utf8(value)
                .ok()
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or("a pax size is not a number")?,
            None => header_size,
        };
        let carries_data = !matches!(typeflag, b'1' | b'2' | b'3' | b'4' | b'5' | b'6');
        let length = if carries_data { size } else { 0 };
        let length = usize::try_from(length).map_err(|_| "a size past memory")?;
        let end = at.checked_add(length).ok_or("a size past memory")?;
        let data = tar.get(at..end).ok_or("member data is cut short")?.to_vec();
        at = end.div_ceil(BLOCK) * BLOCK;
        match typeflag {
            b'x' => {
                local = records(&data)?;
                continue;
            }
            b'g' => {
                for (key, value) in records(&data)? {
                    global.retain(|(k, _)| *k != key);
                    global.push((key, value));
                }
                continue;
            }
            b'L' => {
                let end = data.iter().position(|b| *b == 0).unwrap_or(data.len());
                long_name = Some(data[..end].to_vec());
                continue;
            }
            b'K' => continue,
            b'S' => return Err("GNU sparse members are not read here".into()),
            _ => {}
        }
        let name = match (pax_value(&local, &global, "path"), long_name.take()) {
            (Some(path), _) => path.to_vec(),
            (None, Some(long)) => long,
            (None, None) => header_name(block),
        };
        local.clear();
        let name = String::from_utf8(name).map_err(|_| "a name that is not UTF-8")?;
        let name = name.strip_prefix("./").map(str::to_owned).unwrap_or(name);
        let mode = number(&block[100..108]).ok_or("a mode field is not a number")?;
        let kind = match typeflag {
            b'5' => MemberKind::Folder,
            b'1' | b'2' | b'3' | b'4' | b'6' => MemberKind::Other(typeflag),
            // POSIX: any other type flag is read as a regular file.
            _ => MemberKind::File {
                data,
                executable: mode & 0o100 != 0,
            },
        };
        listing.members.push(Member { name, kind });
    }
}

/// A local pax value, else a global one.
fn pax_value<'a>(
    local: &'a [(String, Vec<u8>)],
    global: &'a [(String, Vec<u8>)],
    key: &str,
) -> Option<&'a [u8]> {
    local
        .iter()
        .chain(global)
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_slice())
}

/// pax records, `"<len> <key>=<value>\n"`, read by length; the last of a repeated key wins.
fn records(body: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let space = rest
            .iter()
            .position(|b| *b == b' ')
            .ok_or("a pax record without a length")?;
        let length: usize = std::str::from_utf8(&rest[..space])
            .ok()
            .and_then(|d| d.parse().ok())
            .ok_or("a pax length is not a number")?;
        if length <= space + 1 || length > rest.len() || rest[length - 1] != b'\n' {
            return Err("a pax record's length is wrong".into());
        }
        let record = &rest[space + 1..length - 1];
        let equals = record
            .iter()
            .position(|b| *b == b'=')
            .ok_or("a pax record without =")?;
        let key = String::from_utf8(record[..equals].to_vec()).map_err(|_| "a pax key")?;
        out.retain(|(k, _)| *k != key);
        out.push((key, record[equals + 1..].to_vec()));
        rest = &rest[length..];
    }
    Ok(out)
}

/// The name of a header: ustar joins `prefix/name`; GNU and v7 headers have no prefix.
fn header_name(block: &[u8]) -> Vec<u8> {
    let name = until_nul(&block[..100]);
    let ustar = &block[257..263] == b"ustar\0" && &block[263..265] == b"00";
    let prefix = until_nul(&block[345..500]);
    if ustar && !prefix.is_empty() {
        [prefix, b"/", name].concat()
    } else {
        name.to_vec()
    }
}

fn until_nul(field: &[u8]) -> &[u8] {
    let end = field.iter().position(|b| *b == 0).unwrap_or(field.len());
    &field[..end]
}

/// The sum of the header's bytes with the checksum field read as spaces.
fn checksum_matches(block: &[u8]) -> bool {
    let Some(stored) = number(&block[148..156]) else {
        return false;
    };
    let sum: u64 = block
        .iter()
        .enumerate()
        .map(|(i, b)| {
            if (148..156).contains(&i) {
                32
            } else {
                u64::from(*b)
            }
        })
        .sum();
    stored == sum
}

/// A numeric field: octal digits between optional spaces and NULs, or GNU base-256 when the
/// first byte has its high bit set.
fn number(field: &[u8]) -> Option<u64> {
    if field.first().is_some_and(|b| b & 0x80 != 0) {
        if field[0] != 0x80 {
            return None;
        }
        let mut value: u64 = 0;
        for byte in &field[1..] {
            value = value.checked_mul(256)?.checked_add(u64::from(*byte))?;
        }
        return Some(value);
    }
    let text = field
        .iter()
        .skip_while(|b| **b == b' ')
        .take_while(|b| **b != 0 && **b != b' ');
    // An empty field is zero, as most readers take it.
    let mut value: u64 = 0;
    for byte in text {
        if !(b'0'..=b'7').contains(byte) {
            return None;
        }
        value = value.checked_mul(8)?.checked_add(u64::from(byte - b'0'))?;
    }
    Some(value)
}
