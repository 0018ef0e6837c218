//! pax extended headers, parsed by their length prefixes as POSIX defines them, and refused
//! wherever tar readers disagree about what they say (archive-import-safety.md §2.3 items 3–8,
//! 18, 34): a malformed or repeated record, a value holding a line break (tar-rs splits records
//! on it, tar-rs#452), an empty value (which unsets a key for some readers), a key skilldeck
//! does not know. The tar crate skips malformed records silently, which is why this is parsed
//! here.

/// Why a pax header cannot be trusted: each a clause that follows "the member …".
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PaxError {
    #[error("its pax header holds a malformed record")]
    Malformed,
    #[error("its pax header sets {0:?} twice")]
    Repeated(String),
    #[error("its pax {0:?} holds a line break, which tar readers split differently")]
    LineBreak(String),
    #[error("its pax {0:?} is empty, which some tar readers take as unsetting it")]
    Empty(String),
    #[error("its pax {0} is not a number")]
    NotANumber(String),
    #[error("its pax {0} is not a time")]
    NotATime(String),
    #[error(
        "it carries the pax key {0:?}, which other tar readers may obey and skilldeck does not"
    )]
    UnknownKey(String),
    #[error("its global pax header sets {0:?}, which tar readers apply differently")]
    GlobalKey(String),
}

/// What a local (`x`) header says about the entry after it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Local {
    pub path: Option<Vec<u8>>,
    pub size: Option<u64>,
    pub linkpath: bool,
    pub sparse: bool,
}

/// Parse the body of a local header.
///
/// # Errors
/// Why the records cannot be trusted.
pub fn local(body: &[u8]) -> Result<Local, PaxError> {
    let mut local = Local::default();
    for (key, value) in records(body)? {
        match key {
            "path" => local.path = Some(value.to_vec()),
            "size" => {
                local.size =
                    Some(decimal(value).ok_or_else(|| PaxError::NotANumber(key.to_owned()))?);
            }
            "linkpath" => local.linkpath = true,
            "mtime" | "atime" | "ctime" => {
                time(value).ok_or_else(|| PaxError::NotATime(key.to_owned()))?;
            }
            "uid" | "gid" => {
                decimal(value).ok_or_else(|| PaxError::NotANumber(key.to_owned()))?;
            }
            // Owners, comments and extended attributes are accepted and never applied: no
            // reader changes a file's bytes for them.
            "uname" | "gname" | "comment" => {}
            key if harmless_extension(key) => {}
            key if key.starts_with("GNU.sparse.") => local.sparse = true,
            key => return Err(PaxError::UnknownKey(key.to_owned())),
        }
    }
    Ok(local)
}

/// The vendor keys real archives carry that change nothing a reader extracts: extended
/// attributes (GNU tar `--xattrs`, bsdtar on macOS: quarantine, provenance, Finder info) and
/// ACLs, which readers restore only when asked and never into the file's bytes, and the
/// inode figures and creation time bsdtar writes. Everything else is refused, since some reader
/// obeys it: `SCHILY.realsize` and `SCHILY.offset` change the size bsdtar and star read,
/// `SCHILY.filetype` the entry's type, `SCHILY.fflags` the file's flags (`compressed` among
/// them); the two attributes that hold content on macOS — a compressed file's
/// `com.apple.decmpfs` and `com.apple.ResourceFork` — are refused too.
fn harmless_extension(key: &str) -> bool {
    if let Some(name) = key.strip_prefix("SCHILY.xattr.") {
        return !holds_content(name);
    }
    // bsdtar percent-decodes these names: `com%2Eapple%2Edecmpfs` is the same attribute.
    if let Some(encoded) = key.strip_prefix("LIBARCHIVE.xattr.") {
        return !holds_content(&percent_encoding::percent_decode_str(encoded).decode_utf8_lossy());
    }
    matches!(
        key,
        "SCHILY.acl.access"
            | "SCHILY.acl.default"
            | "SCHILY.acl.ace"
            | "SCHILY.dev"
            | "SCHILY.ino"
            | "SCHILY.nlink"
            | "LIBARCHIVE.creationtime"
    )
}

/// Whether an extended attribute is one in which macOS keeps a file's bytes, in any letter
/// case (refusing more rather than less).
fn holds_content(name: &str) -> bool {
    ["com.apple.decmpfs", "com.apple.ResourceFork"]
        .iter()
        .any(|held| name.eq_ignore_ascii_case(held))
}

/// Check the body of a global (`g`) header: only the `comment` that `git archive` and GitHub
/// write is accepted, since a global path or size would reach every later entry in some readers
/// and none in others.
///
/// # Errors
/// Why the header cannot be trusted.
pub fn global(body: &[u8]) -> Result<(), PaxError> {
    for (key, _) in records(body)? {
        if key != "comment" {
            return Err(PaxError::GlobalKey(key.to_owned()));
        }
    }
    Ok(())
}

/// The records of a body, each checked; a repeated key is refused.
fn records(body: &[u8]) -> Result<Vec<(&str, &[u8])>, PaxError> {
    let mut found: Vec<(&str, &[u8])> = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let (key, value, after) = record(rest)?;
        if found.iter().any(|(k, _)| *k == key) {
            return Err(PaxError::Repeated(key.to_owned()));
        }
        found.push((key, value));
        rest = after;
    }
    Ok(found)
}

/// One `"<length> <key>=<value>\n"` record and what follows it.
fn record(bytes: &[u8]) -> Result<(&str, &[u8], &[u8]), PaxError> {
    let malformed = || PaxError::Malformed;
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 20 || bytes.get(digits) != Some(&b' ') {
        return Err(malformed());
    }
    let length: usize = std::str::from_utf8(&bytes[..digits])
        .ok()
        .and_then(|d| d.parse().ok())
        .ok_or_else(malformed)?;
    if length > bytes.len() || length < digits + 4 {
        return Err(malformed());
    }
    let (record, after) = bytes.split_at(length);
    let Some(content) = record[digits + 1..].strip_suffix(b"\n") else {
        return Err(malformed());
    };
    let equals = content
        .iter()
        .position(|b| *b == b'=')
        .ok_or_else(malformed)?;
    let (key, value) = (&content[..equals], &content[equals + 1..]);
    let key = std::str::from_utf8(key)
        .ok()
        .filter(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_graphic()))
        .ok_or_else(malformed)?;
    if value.contains(&b'\n') {
        return Err(PaxError::LineBreak(key.to_owned()));
    }
    if value.is_empty() {
        return Err(PaxError::Empty(key.to_owned()));
    }
    Ok((key, value, after))
}

fn decimal(value: &[u8]) -> Option<u64> {
    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(value).ok()?.parse().ok()
}

/// A pax time: an optional sign, seconds, an optional fraction.
fn time(value: &[u8]) -> Option<()> {
    let unsigned = value.strip_prefix(b"-").unwrap_or(value);
    let mut parts = unsigned.splitn(2, |b| *b == b'.');
    decimal(parts.next()?)?;
    match parts.next() {
        Some(fraction) => decimal(fraction).map(|_| ()),
        None => Some(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record with its length prefix, which counts its own digits.
    fn rec(key: &str, value: &str) -> String {
        let body = format!(" {key}={value}\n");
        let mut digits = 1;
        while (body.len() + digits).to_string().len() != digits {
            digits += 1;
        }
        format!("{}{body}", body.len() + digits)
    }

    #[test]
    fn the_records_real_archives_write_are_read() {
        let body = format!(
            "{}{}{}{}",
            rec("path", "demo/references/long.md"),
            rec("mtime", "1700000000.5"),
            rec("SCHILY.xattr.user.x", "y"),
            rec("size", "12")
        );
        let macos = format!(
            "{}{}{}{}",
            rec("LIBARCHIVE.xattr.com.apple.quarantine", "MDA4MTs2NTQz"),
            rec("SCHILY.xattr.com.apple.provenance", "AQ"),
            rec("SCHILY.dev", "16777231"),
            rec("LIBARCHIVE.creationtime", "1700000000")
        );
        local(macos.as_bytes()).unwrap();
        let local = local(body.as_bytes()).unwrap();
        assert_eq!(local.path.as_deref(), Some(&b"demo/references/long.md"[..]));
        assert_eq!(local.size, Some(12));
        global(rec("comment", "3f2a9c0d1e").as_bytes()).unwrap();
        assert_eq!(rec("comment", "3f2a9c0d1e"), "22 comment=3f2a9c0d1e\n");
    }

    #[test]
    fn every_ambiguous_record_is_refused() {
        let cases: Vec<String> = vec![
            // The tar-rs#452 framing: one comment by length, a path to tar-rs.
            "29 comment=x\n16 path=../evil\n".into(),
            format!("{}{}", rec("path", "a"), rec("path", "b")),
            rec("path", ""),
            "5 a=b\n".into(),
            "10 path=ab".into(),
            "99 path=ab\n".into(),
            "x path=ab\n".into(),
            "7 =abc\n".into(),
            rec("size", "12x"),
            rec("mtime", "soon"),
            rec("hdrcharset", "BINARY"),
            rec("linkpath", "x") + "garbage",
        ];
        for body in cases {
            assert!(local(body.as_bytes()).is_err(), "{body:?}");
        }
        for (key, value) in [
            ("SCHILY.realsize", "512"),
            ("SCHILY.offset", "0"),
            ("SCHILY.filetype", "symlink"),
            ("SCHILY.fflags", "compressed"),
            ("SCHILY.xattr.com.apple.decmpfs", "fpmc"),
            ("LIBARCHIVE.xattr.com.apple.ResourceFork", "AAAA"),
            ("LIBARCHIVE.xattr.com%2Eapple%2Edecmpfs", "AAAA"),
            ("SCHILY.archtype", "pax"),
            ("LIBARCHIVE.symlinktype", "dir"),
            ("charset", "ISO-IR 10646 2000 UTF-8"),
            ("GNU.volume.label", "x"),
        ] {
            let refused = local(rec(key, value).as_bytes());
            assert_eq!(refused, Err(PaxError::UnknownKey(key.to_owned())), "{key}");
            assert!(
                PaxError::UnknownKey(key.to_owned())
                    .to_string()
                    .contains(key)
            );
        }
        let sparse = local(rec("GNU.sparse.major", "1").as_bytes()).unwrap();
        assert!(sparse.sparse);
        assert_eq!(
            global(rec("path", "x").as_bytes()),
            Err(PaxError::GlobalKey("path".to_owned()))
        );
    }
}
