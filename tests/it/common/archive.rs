//! Archives written byte by byte, hostile ones included: a tar writer that sets every header
//! field as told (tar::Builder refuses or normalises most of what these tests need), gzip and
//! zip helpers, and the skill the archives usually carry.

use std::io::Write;

/// A `SKILL.md` for a skill named `name`.
pub fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill, for tests.\n---\n# {name}\n")
}

/// POSIX ustar's magic and version.
pub const POSIX: [u8; 8] = *b"ustar\x0000";
/// GNU tar's magic and version.
pub const GNU: [u8; 8] = *b"ustar  \0";

/// One tar header, with every field as given.
#[derive(Clone, Debug)]
pub struct Header {
    pub name: Vec<u8>,
    pub flag: u8,
    pub mode: u32,
    /// The size field; `None` writes the length of `data`.
    pub size: Option<u64>,
    pub data: Vec<u8>,
    pub linkname: Vec<u8>,
    /// The magic and version fields: [`POSIX`], [`GNU`], or anything else.
    pub magic: [u8; 8],
    /// Added to the correct checksum.
    pub checksum_error: u32,
}

impl Header {
    pub fn new(name: impl AsRef<[u8]>, flag: u8, data: impl AsRef<[u8]>) -> Self {
        Self {
            name: name.as_ref().to_vec(),
            flag,
            mode: if flag == b'5' { 0o755 } else { 0o644 },
            size: None,
            data: data.as_ref().to_vec(),
            linkname: Vec::new(),
            magic: POSIX,
            checksum_error: 0,
        }
    }

    fn block(&self) -> [u8; 512] {
        let mut block = [0u8; 512];
        let name_len = self.name.len().min(100);
        block[..name_len].copy_from_slice(&self.name[..name_len]);
        octal(&mut block[100..108], u64::from(self.mode));
        octal(&mut block[108..116], 0);
        octal(&mut block[116..124], 0);
        let size = self.size.unwrap_or(self.data.len() as u64);
        if size < 0o77_777_777_777 {
            octal(&mut block[124..136], size);
        } else {
            // Base-256, as GNU tar writes sizes past 8 GiB.
            block[124] = 0x80;
            block[128..136].copy_from_slice(&size.to_be_bytes());
        }
        octal(&mut block[136..148], 1_700_000_000);
        block[156] = self.flag;
        let link_len = self.linkname.len().min(100);
        block[157..157 + link_len].copy_from_slice(&self.linkname[..link_len]);
        block[257..265].copy_from_slice(&self.magic);
        let sum: u32 = block[..148]
            .iter()
            .chain(&[b' '; 8])
            .chain(&block[156..])
            .map(|b| u32::from(*b))
            .sum::<u32>()
            + self.checksum_error;
        let text = format!("{sum:06o}\0 ");
        block[148..156].copy_from_slice(text.as_bytes());
        block
    }
}

fn octal(field: &mut [u8], value: u64) {
    let text = format!("{value:0width$o}\0", width = field.len() - 1);
    field.copy_from_slice(text.as_bytes());
}

/// A pax record, its length prefix counting its own digits.
pub fn pax_record(key: &str, value: &[u8]) -> Vec<u8> {
    let body_len = key.len() + value.len() + 3;
    let mut digits = 1;
    while (body_len + digits).to_string().len() != digits {
        digits += 1;
    }
    let mut record = format!("{} {key}=", body_len + digits).into_bytes();
    record.extend_from_slice(value);
    record.push(b'\n');
    record
}

/// A tar stream written header by header.
#[derive(Clone, Debug, Default)]
pub struct Tar {
    bytes: Vec<u8>,
}

impl Tar {
    pub fn new() -> Self {
        Self::default()
    }

    /// A header and its data, padded to the next block.
    pub fn header(mut self, header: &Header) -> Self {
        self.bytes.extend_from_slice(&header.block());
        self.bytes.extend_from_slice(&header.data);
        let padding = (512 - header.data.len() % 512) % 512;
        self.bytes.extend(std::iter::repeat_n(0, padding));
        self
    }

    pub fn file(self, name: &str, data: impl AsRef<[u8]>) -> Self {
        self.header(&Header::new(name, b'0', data))
    }

    pub fn executable(self, name: &str, data: impl AsRef<[u8]>) -> Self {
        let mut header = Header::new(name, b'0', data);
        header.mode = 0o755;
        self.header(&header)
    }

    pub fn dir(self, name: &str) -> Self {
        self.header(&Header::new(name, b'5', b""))
    }

    /// A skill folder `name/` with its `SKILL.md`.
    pub fn skill(self, name: &str) -> Self {
        self.dir(&format!("{name}/"))
            .file(&format!("{name}/SKILL.md"), skill_md(name))
    }

    /// A local pax header holding `records`.
    pub fn pax(self, records: &[(&str, &[u8])]) -> Self {
        let body: Vec<u8> = records
            .iter()
            .flat_map(|(key, value)| pax_record(key, value))
            .collect();
        self.header(&Header::new("PaxHeaders/x", b'x', body))
    }

    /// A pax global header holding `records`.
    pub fn global(self, records: &[(&str, &[u8])]) -> Self {
        let body: Vec<u8> = records
            .iter()
            .flat_map(|(key, value)| pax_record(key, value))
            .collect();
        self.header(&Header::new("pax_global_header", b'g', body))
    }

    /// A GNU long-name header for the entry after it.
    pub fn long_name(self, name: &[u8]) -> Self {
        let mut data = name.to_vec();
        data.push(0);
        let mut header = Header::new("././@LongLink", b'L', data);
        header.magic = GNU;
        self.header(&header)
    }

    /// Raw bytes, exactly.
    pub fn raw(mut self, bytes: &[u8]) -> Self {
        self.bytes.extend_from_slice(bytes);
        self
    }

    /// The end-of-archive marker, two zero blocks.
    pub fn end(self) -> Self {
        self.raw(&[0; 1024])
    }

    pub fn bytes(&self) -> Vec<u8> {
        self.bytes.clone()
    }

    pub fn gz(&self) -> Vec<u8> {
        gzip(&self.bytes)
    }
}

/// `bytes` as one gzip member.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).expect("gzip");
    encoder.finish().expect("gzip")
}

/// One zip entry: a name, its content, and the Unix mode stored with it.
pub struct ZipEntry<'a> {
    pub name: &'a str,
    pub data: &'a [u8],
    pub mode: u32,
}

impl<'a> ZipEntry<'a> {
    pub fn file(name: &'a str, data: &'a [u8]) -> Self {
        Self {
            name,
            data,
            mode: 0o100_644,
        }
    }
}

/// A zip archive of `entries`, deflated.
pub fn zip(entries: &[ZipEntry<'_>]) -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for entry in entries {
        let options = SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .unix_permissions(entry.mode);
        if entry.name.ends_with('/') {
            writer.add_directory(entry.name, options).expect("zip dir");
        } else if entry.mode & 0o170_000 == 0o120_000 {
            writer
                .add_symlink(entry.name, String::from_utf8_lossy(entry.data), options)
                .expect("zip link");
        } else {
            writer.start_file(entry.name, options).expect("zip file");
            writer.write_all(entry.data).expect("zip data");
        }
    }
    writer.finish().expect("zip").into_inner()
}
