//! Tar archives built from fuzzer bytes by a header writer of our own: `tar::Builder` refuses
//! or normalises most hostile forms, and the point is to reach them (archive-import-safety.md
//! §4.2 item 3). Names come from a vocabulary of the parts that matter (the skill file, dot
//! parts, metadata, case and normalisation twins, long parts, backslashes) or raw bytes; each
//! entry may carry pax records (well-formed or not), a GNU long name, a ustar prefix split, a
//! size that lies, a wrong checksum; the archive ends in any of the ways archives end.

use std::io::Write;

use arbitrary::{Result, Unstructured};

const BLOCK: usize = 512;

const PARTS: &[&str] = &[
    "demo",
    "SKILL.md",
    "skill.md",
    "scripts",
    "run.sh",
    "a.md",
    "Demo",
    ".",
    "..",
    "",
    "._SKILL.md",
    "__MACOSX",
    ".git",
    ".DS_Store",
    "caf\u{e9}",
    "cafe\u{301}",
    "a\\b",
    "CON",
    "x\u{0}y",
    "skills",
    "other",
    "repo-main",
];

const MANIFEST: &[u8] = b"---\nname: demo\ndescription: A skill built by the fuzzer.\n---\nBody\n";

const PAX_KEYS: &[&str] = &[
    "path",
    "size",
    "mtime",
    "linkpath",
    "comment",
    "uname",
    "GNU.sparse.major",
    "SCHILY.xattr.user.a",
    "hdrcharset",
];

/// An archive: the tar bytes, and whether to gzip them (in one member or two).
pub struct Built {
    pub tar: Vec<u8>,
    pub gzip: Option<bool>,
}

impl Built {
    /// The bytes an import would read.
    pub fn bytes(&self) -> Vec<u8> {
        let Some(split) = self.gzip else {
            return self.tar.clone();
        };
        let cut = if split {
            self.tar.len() / 2
        } else {
            self.tar.len()
        };
        let mut out = gzip(&self.tar[..cut]);
        if cut < self.tar.len() {
            out.extend(gzip(&self.tar[cut..]));
        }
        out
    }
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(data).expect("gzip into memory");
    gz.finish().expect("gzip into memory")
}

/// An archive chosen by `u`.
pub fn build(u: &mut Unstructured<'_>) -> Result<Built> {
    let mut tar = Vec::new();
    let count = u.int_in_range(0..=8)?;
    for _ in 0..count {
        entry(u, &mut tar)?;
    }
    match u.int_in_range(0..=5)? {
        0 => {}
        1 => tar.extend([0u8; BLOCK]),
        2 | 3 => tar.extend([0u8; 2 * BLOCK]),
        4 => tar.extend(vec![0u8; BLOCK * u.int_in_range(3..=20)?]),
        _ => {
            tar.extend([0u8; 2 * BLOCK]);
            let garbage: &[u8] = u.arbitrary()?;
            tar.extend(garbage);
        }
    }
    let gzip = match u.int_in_range(0..=2)? {
        0 => None,
        1 => Some(false),
        _ => Some(true),
    };
    Ok(Built { tar, gzip })
}

fn name(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    if u.ratio(1, 16)? {
        return Ok(u.arbitrary::<&[u8]>()?.to_vec());
    }
    let mut name = String::new();
    if u.ratio(1, 8)? {
        name.push_str("./");
    }
    if u.ratio(1, 32)? {
        name.push('/');
    }
    let parts = u.int_in_range(1..=4)?;
    for i in 0..parts {
        if i > 0 {
            name.push('/');
        }
        if u.ratio(1, 16)? {
            name.push_str(&"x".repeat(u.int_in_range(60..=140)?));
        } else {
            name.push_str(u.choose(PARTS)?);
        }
    }
    if u.ratio(1, 8)? {
        name.push('/');
    }
    Ok(name.into_bytes())
}

fn pax_body(u: &mut Unstructured<'_>, path: Option<&[u8]>, size: Option<u64>) -> Result<Vec<u8>> {
    let mut records: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    if let Some(path) = path {
        records.push((b"path".to_vec(), path.to_vec()));
    }
    if let Some(size) = size {
        records.push((b"size".to_vec(), size.to_string().into_bytes()));
    }
    for _ in 0..u.int_in_range(0..=3)? {
        let key = if u.ratio(1, 8)? {
            u.arbitrary::<&[u8]>()?.to_vec()
        } else {
            u.choose(PAX_KEYS)?.as_bytes().to_vec()
        };
        let value = match u.int_in_range(0..=3)? {
            0 => name(u)?,
            1 => u.int_in_range(0u64..=4096)?.to_string().into_bytes(),
            2 => b"1700000000.5".to_vec(),
            _ => u.arbitrary::<&[u8]>()?.to_vec(),
        };
        records.push((key, value));
    }
    let mut body = Vec::new();
    for (key, value) in records {
        let content = [b" ".as_slice(), &key, b"=", &value, b"\n"].concat();
        let mut digits = 1;
        while (content.len() + digits).to_string().len() != digits {
            digits += 1;
        }
        let mut length = content.len() + digits;
        if u.ratio(1, 16)? {
            length = length.saturating_add_signed(u.int_in_range(-3isize..=3)?);
        }
        body.extend(length.to_string().into_bytes());
        body.extend(content);
    }
    Ok(body)
}

fn entry(u: &mut Unstructured<'_>, tar: &mut Vec<u8>) -> Result<()> {
    let name = name(u)?;
    let typeflag = match u.int_in_range(0..=15)? {
        0..=7 => b'0',
        8..=10 => b'5',
        11 => b'\0',
        12 => *u.choose(b"1234567S")?,
        13 => b'g',
        14 => b'x',
        _ => u.arbitrary()?,
    };
    let data: Vec<u8> = if matches!(typeflag, b'0' | b'\0') || u.ratio(1, 8)? {
        if name.ends_with(b"SKILL.md") && u.ratio(7, 8)? {
            MANIFEST.to_vec()
        } else {
            u.arbitrary::<&[u8]>()?.iter().copied().take(2048).collect()
        }
    } else {
        Vec::new()
    };
    let format_gnu = u.ratio(1, 3)?;
    // How the name reaches the reader.
    let (mut header_name, mut prefix) = (name.clone(), Vec::new());
    let mut pax_path = None;
    let fits = name.len() <= 100;
    match u.int_in_range(0..=4)? {
        0 if !fits => {
            long_name(tar, &name, format_gnu);
            header_name.truncate(100);
        }
        1 if !format_gnu && !fits => {
            // A ustar prefix split at a slash, when one fits.
            if let Some(at) = (0..name.len())
                .rev()
                .find(|&i| name[i] == b'/' && i <= 155 && name.len() - i - 1 <= 100)
            {
                prefix = name[..at].to_vec();
                header_name = name[at + 1..].to_vec();
            } else {
                header_name.truncate(100);
            }
        }
        2 => {
            pax_path = Some(name.clone());
            header_name = b"PaxHeaders/placeholder".to_vec();
        }
        3 => {
            // Both a GNU long name and a pax path: readers choose between them differently.
            long_name(tar, &name, format_gnu);
            pax_path = Some(name.clone());
            header_name.truncate(100);
        }
        _ => header_name.truncate(100),
    }
    let size_lies = u.ratio(1, 16)?;
    let declared = if size_lies {
        u.int_in_range(0u64..=4096)?
    } else {
        data.len() as u64
    };
    let pax_size = if u.ratio(1, 16)? {
        Some(u.int_in_range(0u64..=4096)?)
    } else {
        None
    };
    if pax_path.is_some() || pax_size.is_some() || u.ratio(1, 8)? {
        let body = pax_body(u, pax_path.as_deref(), pax_size)?;
        let flag = if u.ratio(1, 8)? { b'g' } else { b'x' };
        let fields = Fields {
            name: b"PaxHeaders/x",
            prefix: b"",
            typeflag: flag,
            size: body.len() as u64,
            mode: 0o644,
            gnu: format_gnu,
            linkname: b"",
        };
        header(tar, &fields, u.ratio(1, 32)?);
        data_blocks(tar, &body);
    }
    let mode = if u.ratio(1, 4)? { 0o755 } else { 0o644 };
    let linkname: Vec<u8> = if matches!(typeflag, b'1' | b'2') || u.ratio(1, 32)? {
        name.clone().into_iter().take(100).collect()
    } else {
        Vec::new()
    };
    let fields = Fields {
        name: &header_name,
        prefix: &prefix,
        typeflag,
        size: declared,
        mode,
        gnu: format_gnu,
        linkname: &linkname,
    };
    header(tar, &fields, u.ratio(1, 32)?);
    // The data as it really is; a lying size field desynchronises the stream on purpose.
    data_blocks(tar, &data);
    Ok(())
}

fn long_name(tar: &mut Vec<u8>, name: &[u8], gnu: bool) {
    let mut body = name.to_vec();
    body.push(0);
    let fields = Fields {
        name: b"././@LongLink",
        prefix: b"",
        typeflag: b'L',
        size: body.len() as u64,
        mode: 0o644,
        gnu,
        linkname: b"",
    };
    header(tar, &fields, false);
    data_blocks(tar, &body);
}

struct Fields<'a> {
    name: &'a [u8],
    prefix: &'a [u8],
    typeflag: u8,
    size: u64,
    mode: u64,
    gnu: bool,
    linkname: &'a [u8],
}

fn header(tar: &mut Vec<u8>, fields: &Fields<'_>, bad_checksum: bool) {
    let mut block = [0u8; BLOCK];
    put(&mut block[..100], fields.name);
    octal(&mut block[100..108], fields.mode);
    octal(&mut block[108..116], 1000);
    octal(&mut block[116..124], 1000);
    if fields.size < 0o77777777777 {
        octal(&mut block[124..136], fields.size);
    } else {
        block[124] = 0x80;
        block[128..136].copy_from_slice(&fields.size.to_be_bytes());
    }
    octal(&mut block[136..148], 1_700_000_000);
    block[156] = fields.typeflag;
    put(&mut block[157..257], fields.linkname);
    if fields.gnu {
        block[257..265].copy_from_slice(b"ustar  \0");
    } else {
        block[257..263].copy_from_slice(b"ustar\0");
        block[263..265].copy_from_slice(b"00");
        put(&mut block[345..500], fields.prefix);
    }
    put(&mut block[265..297], b"user");
    put(&mut block[297..329], b"user");
    block[148..156].copy_from_slice(b"        ");
    let mut sum: u64 = block.iter().map(|b| u64::from(*b)).sum();
    if bad_checksum {
        sum += 1;
    }
    octal(&mut block[148..155], sum);
    block[155] = b' ';
    tar.extend(block);
}

fn data_blocks(tar: &mut Vec<u8>, data: &[u8]) {
    tar.extend(data);
    tar.extend(vec![0u8; data.len().div_ceil(BLOCK) * BLOCK - data.len()]);
}

fn put(field: &mut [u8], value: &[u8]) {
    let n = value.len().min(field.len());
    field[..n].copy_from_slice(&value[..n]);
}

/// Octal digits filling the field but its last byte, which stays NUL.
fn octal(field: &mut [u8], value: u64) {
    let digits = field.len() - 1;
    let text = format!("{value:0digits$o}");
    let text = &text.as_bytes()[text.len().saturating_sub(digits)..];
    field[..digits].copy_from_slice(text);
    field[digits] = 0;
}
