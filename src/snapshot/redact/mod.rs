//! Removing secrets from a skill's files before they leave the machine in an export, and
//! judging the files that cannot be cleaned.
//!
//! A text file (UTF-8) is cleaned in place: every secret a [rule](rules) finds becomes
//! `[REDACTED:<rule>]`, and so does a whole base64 blob that decodes to one. Anything else
//! cannot be edited safely, so it is judged whole ([`Withheld`]): it is read as bytes, as
//! UTF-16 both ways round and at both byte offsets, and its base64 runs decoded, and a secret
//! found in any of these keeps the file out of the package whatever the user asks. Without one,
//! clean UTF-16 text is packed as it is; binary data, compressed data and archives (known by
//! their first bytes, not their names), and text holding a large blob of encoded data, could
//! not be read through, so they are packed only when the user asks. `.env` files are judged by
//! their names ([`secret_file`]): they exist to hold secrets.

mod base64;
mod rules;

use std::borrow::Cow;
use std::fmt;

use regex::bytes::Captures;

use crate::skill::manifest_text;

use rules::{RULES, Rule};

/// How deep encodings are followed: base64 inside the file, base64 inside that.
const DEPTH: usize = 2;

/// A base64 blob that decodes to this much data that is not text is taken for data that may
/// hide a secret in a form no rule reads (compressed, encrypted, an image), not for a word.
const LARGE_BLOB: usize = 1024;

/// A file's content with its secrets removed, and which kinds were found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redacted<'a> {
    pub content: Cow<'a, [u8]>,
    /// The rule of every secret replaced, in the order the rules ran.
    pub found: Vec<&'static str>,
}

/// Why a file is not packed as the redaction left it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withheld {
    /// A `.env`-style file, named so because it holds secrets.
    SecretFile,
    /// Binary data, which could not be read for secrets.
    Binary,
    /// Compressed data or an archive of this format, whose content could not be read.
    Compressed(&'static str),
    /// Text holding a large base64 blob whose content could not be read.
    EncodedBlob,
    /// What looks like a secret (`rule`) in a file that cannot be edited, described by `form`.
    Secret {
        rule: &'static str,
        form: &'static str,
    },
}

impl Withheld {
    /// Whether the user may have the file packed all the same (as it is, or for a `.env`
    /// file, redacted like any text): never when a secret was found in it.
    pub fn may_be_included(self) -> bool {
        !matches!(self, Withheld::Secret { .. })
    }
}

impl fmt::Display for Withheld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Withheld::SecretFile => f.write_str("a .env file, which holds secrets by convention"),
            Withheld::Binary => f.write_str("not text, so it could not be scanned for secrets"),
            Withheld::Compressed(format) => {
                write!(
                    f,
                    "{format} data, whose content could not be scanned for secrets"
                )
            }
            Withheld::EncodedBlob => f.write_str(
                "it holds a large base64 blob whose content could not be scanned for secrets",
            ),
            Withheld::Secret { rule, form } => write!(
                f,
                "{form} holding what looks like a secret ({rule}), which cannot be removed from it safely"
            ),
        }
    }
}

/// Whether the file at `rel` (a `/`-separated path) is named as a file of secrets: `.env`,
/// `.env.local` and every other `.env.*`, `*.env`, `.envrc`.
pub fn secret_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name == ".env" || name == ".envrc" || name.starts_with(".env.") || name.ends_with(".env")
}

/// Remove the secrets of one file's content.
///
/// # Errors
/// [`Withheld`] when the content is not text that could be cleaned: why it may not be packed
/// as it is.
pub fn redact(content: &[u8]) -> Result<Redacted<'_>, Withheld> {
    if manifest_text(content).is_ok() {
        return text(content);
    }
    let form = Form::of(content);
    if let Some(rule) = hidden(content, 0) {
        return Err(Withheld::Secret {
            rule,
            form: form.describe(),
        });
    }
    match form {
        Form::Utf16(decoded) if !holds_unreadable_blob(decoded.as_bytes()) => Ok(Redacted {
            content: Cow::Borrowed(content),
            found: Vec::new(),
        }),
        Form::Utf16(_) => Err(Withheld::EncodedBlob),
        Form::Compressed(format) => Err(Withheld::Compressed(format)),
        Form::Binary => Err(Withheld::Binary),
    }
}

/// Clean UTF-8 text: every rule in turn, then the base64 blobs that hide a secret.
fn text(content: &[u8]) -> Result<Redacted<'_>, Withheld> {
    let mut found = Vec::new();
    let mut current: Cow<'_, [u8]> = Cow::Borrowed(content);
    for rule in RULES.iter() {
        let mut hits = 0usize;
        let replaced = rule.pattern.replace_all(&current, |caps: &Captures<'_>| {
            replacement(rule, caps, &mut hits)
        });
        if hits > 0 {
            found.extend(std::iter::repeat_n(rule.name, hits));
            current = Cow::Owned(replaced.into_owned());
        }
    }
    let mut cleaned: Option<Vec<u8>> = None;
    let mut copied = 0;
    for run in base64::runs(&current) {
        match blob(&current[run.clone()], 1) {
            Blob::Plain => {}
            Blob::Unreadable => return Err(Withheld::EncodedBlob),
            Blob::Secret(rule) => {
                let out = cleaned.get_or_insert_with(Vec::new);
                out.extend_from_slice(&current[copied..run.start]);
                out.extend_from_slice(marker(rule).as_bytes());
                copied = run.end;
                found.push(rule);
            }
        }
    }
    if let Some(mut out) = cleaned {
        out.extend_from_slice(&current[copied..]);
        current = Cow::Owned(out);
    }
    Ok(Redacted {
        content: current,
        found,
    })
}

/// What one match becomes: the match with its secret part replaced, or itself when what it
/// matched is a placeholder.
fn replacement(rule: &Rule, caps: &Captures<'_>, hits: &mut usize) -> Vec<u8> {
    let Some(whole) = caps.get(0) else {
        return Vec::new();
    };
    let Some(secret) = rules::secret(rule, caps) else {
        return whole.as_bytes().to_vec();
    };
    *hits += 1;
    let bytes = whole.as_bytes();
    let mut out = bytes[..secret.start - whole.start()].to_vec();
    out.extend_from_slice(marker(rule.name).as_bytes());
    out.extend_from_slice(&bytes[secret.end - whole.start()..]);
    out
}

fn marker(rule: &str) -> String {
    format!("[REDACTED:{rule}]")
}

/// What a base64 run holds.
enum Blob {
    /// Nothing that matters: a word, or data holding no secret.
    Plain,
    /// A secret, found by this rule in what it decodes to.
    Secret(&'static str),
    /// Data that could hide a secret where no rule reads.
    Unreadable,
}

/// Judge one base64 run found at encoding depth `depth`.
fn blob(run: &[u8], depth: usize) -> Blob {
    let run = base64::compact(run);
    let secret = (0..4)
        .filter_map(|shift| base64::decode_shifted(&run, shift))
        .find_map(|decoded| hidden(&decoded, depth));
    if let Some(rule) = secret {
        return Blob::Secret(rule);
    }
    let Some(decoded) = base64::decode(&run) else {
        return Blob::Plain;
    };
    let hex = run.iter().all(u8::is_ascii_hexdigit);
    let data = std::str::from_utf8(&decoded).is_err();
    if compressed(&decoded).is_some() || (data && !hex && decoded.len() >= LARGE_BLOB) {
        Blob::Unreadable
    } else {
        Blob::Plain
    }
}

fn holds_unreadable_blob(text: &[u8]) -> bool {
    base64::runs(text).any(|run| matches!(blob(&text[run], 1), Blob::Unreadable))
}

/// The first rule that finds a secret in `bytes` read every way it may be text: as bytes, as
/// UTF-16, and through its base64 runs, `depth` encodings in already.
fn hidden(bytes: &[u8], depth: usize) -> Option<&'static str> {
    views(bytes).iter().find_map(|view| {
        rules::first_hit(view).or_else(|| {
            if depth >= DEPTH {
                return None;
            }
            base64::runs(view).find_map(|run| match blob(&view[run], depth + 1) {
                Blob::Secret(rule) => Some(rule),
                Blob::Plain | Blob::Unreadable => None,
            })
        })
    })
}

/// `bytes` as they are, and, when they hold a zero byte (which ASCII in UTF-16 always does),
/// decoded as UTF-16 little- and big-endian from either byte offset, so text in UTF-16 is read
/// whether or not it starts with a byte-order mark or where it sits in a binary file.
fn views(bytes: &[u8]) -> Vec<Cow<'_, [u8]>> {
    let mut views = vec![Cow::Borrowed(bytes)];
    if bytes.contains(&0) {
        for offset in 0..2 {
            for little in [true, false] {
                let units = units(bytes.get(offset..).unwrap_or_default(), little);
                let text: String = char::decode_utf16(units)
                    .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                    .collect();
                views.push(Cow::Owned(text.into_bytes()));
            }
        }
    }
    views
}

fn units(bytes: &[u8], little: bool) -> impl Iterator<Item = u16> + '_ {
    bytes.chunks_exact(2).map(move |pair| {
        let pair = [pair[0], pair[1]];
        if little {
            u16::from_le_bytes(pair)
        } else {
            u16::from_be_bytes(pair)
        }
    })
}

/// What a file that is not UTF-8 text is.
enum Form {
    /// UTF-16 text that decodes cleanly, decoded.
    Utf16(String),
    /// Compressed data or an archive, by its format.
    Compressed(&'static str),
    Binary,
}

impl Form {
    fn of(content: &[u8]) -> Self {
        if let Some(format) = compressed(content) {
            return Form::Compressed(format);
        }
        utf16(content).map_or(Form::Binary, Form::Utf16)
    }

    fn describe(&self) -> &'static str {
        match self {
            Form::Utf16(_) => "UTF-16 text",
            Form::Compressed(_) => "compressed data",
            Form::Binary => "binary data",
        }
    }
}

/// The format of compressed data or an archive, from the first bytes (or a tar's `ustar` mark),
/// whatever the file is called.
fn compressed(content: &[u8]) -> Option<&'static str> {
    const MAGIC: [(&[u8], &str); 10] = [
        (b"\x1f\x8b", "gzip"),
        (b"PK\x03\x04", "zip"),
        (b"PK\x05\x06", "zip"),
        (b"PK\x07\x08", "zip"),
        (b"BZh", "bzip2"),
        (b"\xfd7zXZ\x00", "xz"),
        (b"7z\xbc\xaf\x27\x1c", "7z"),
        (b"\x28\xb5\x2f\xfd", "zstd"),
        (b"\x04\x22\x4d\x18", "lz4"),
        (b"Rar!\x1a\x07", "rar"),
    ];
    if content.get(257..262) == Some(b"ustar") {
        return Some("tar");
    }
    MAGIC
        .iter()
        .find(|(magic, _)| content.starts_with(magic))
        .map(|(_, format)| *format)
}

/// `content` decoded as UTF-16 text, when it is that: a byte-order mark, or (without one)
/// mostly ASCII with every other byte zero; and then it must decode with no unpaired
/// surrogate and no control character but white space.
fn utf16(content: &[u8]) -> Option<String> {
    let (body, little) = match content {
        [0xff, 0xfe, rest @ ..] => (rest, true),
        [0xfe, 0xff, rest @ ..] => (rest, false),
        _ => {
            let ascii = |little: bool| {
                units(content, little)
                    .filter(|&u| (1..0x80).contains(&u))
                    .count()
            };
            let pairs = content.len() / 2;
            let little = ascii(true) >= ascii(false);
            if pairs == 0 || ascii(little) * 4 < pairs * 3 {
                return None;
            }
            (content, little)
        }
    };
    if body.len() % 2 != 0 {
        return None;
    }
    let text: String = char::decode_utf16(units(body, little))
        .collect::<Result<_, _>>()
        .ok()?;
    let clean = text
        .chars()
        .all(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r' | '\u{c}'));
    clean.then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";

    fn utf16le(text: &str, bom: bool) -> Vec<u8> {
        let mut out = if bom { vec![0xff, 0xfe] } else { Vec::new() };
        out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        out
    }

    fn utf16be(text: &str, bom: bool) -> Vec<u8> {
        let mut out = if bom { vec![0xfe, 0xff] } else { Vec::new() };
        out.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
        out
    }

    fn b64(bytes: &[u8]) -> String {
        use ::base64::Engine;
        ::base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    #[test]
    fn text_without_secrets_is_borrowed_untouched() {
        let text = b"# A skill\n\nRun `make test`.\n";
        let redacted = redact(text).unwrap();
        assert!(matches!(redacted.content, Cow::Borrowed(_)));
        assert!(redacted.found.is_empty());
    }

    #[test]
    fn a_binary_file_is_withheld_and_a_secret_in_it_is_named() {
        assert_eq!(redact(&[0u8, 1, 2, 255]), Err(Withheld::Binary));
        let mut binary = vec![0u8, 1, 2, 255];
        binary.extend_from_slice(TOKEN.as_bytes());
        let withheld = redact(&binary).unwrap_err();
        assert_eq!(
            withheld,
            Withheld::Secret {
                rule: "github-token",
                form: "binary data"
            }
        );
        assert!(!withheld.may_be_included());
        assert!(Withheld::Binary.may_be_included());
    }

    #[test]
    fn utf16_text_is_read_either_way_round_with_or_without_a_mark() {
        let secret = format!("notes\r\nexport GH={TOKEN}\r\n");
        for encoded in [
            utf16le(&secret, true),
            utf16le(&secret, false),
            utf16be(&secret, true),
            utf16be(&secret, false),
        ] {
            assert_eq!(
                redact(&encoded),
                Err(Withheld::Secret {
                    rule: "github-token",
                    form: "UTF-16 text"
                })
            );
        }
        let password = utf16le("DB_PASSWORD=hunter2-utf16\n", false);
        assert!(matches!(
            redact(&password),
            Err(Withheld::Secret {
                rule: "assignment",
                ..
            })
        ));
        // Clean UTF-16 text was read whole, so it is packed as it is.
        for clean in [
            utf16le("plain notes\n", true),
            utf16be("plain notes\n", false),
        ] {
            let packed = redact(&clean).unwrap();
            assert_eq!(packed.content, clean);
            assert!(packed.found.is_empty());
        }
    }

    #[test]
    fn utf16_inside_binary_data_at_an_odd_offset_is_read() {
        let mut data = vec![0x89, b'P', b'N', b'G', 0, 7, 0xff];
        data.extend(utf16le(&format!("key {TOKEN}"), false));
        data.extend([0u8, 0xfe, 0x01]);
        assert_eq!(
            redact(&data),
            Err(Withheld::Secret {
                rule: "github-token",
                form: "binary data"
            })
        );
    }

    #[test]
    fn a_base64_blob_of_a_secret_goes_whole() {
        let cases = [
            (
                format!("creds: {}\n", b64(format!("GH={TOKEN}").as_bytes())),
                "github-token",
            ),
            (
                format!("{}\n", b64(b"DB_PASSWORD=hunter2-b64")),
                "assignment",
            ),
            (
                format!("data:text/plain;base64,{}", b64(b"AKIAIOSFODNN7EXAMPLE")),
                "aws-access-key",
            ),
            // Base64 of base64, and base64 of UTF-16.
            (
                format!("x {}", b64(b64(format!("t={TOKEN}").as_bytes()).as_bytes())),
                "github-token",
            ),
            (
                format!("y {}", b64(&utf16le(&format!("t={TOKEN}"), true))),
                "github-token",
            ),
        ];
        for (text, rule) in cases {
            let redacted = redact(text.as_bytes()).unwrap();
            let out = String::from_utf8(redacted.content.into_owned()).unwrap();
            assert!(
                out.contains(&format!("[REDACTED:{rule}]")),
                "{text} -> {out}"
            );
            assert_eq!(redacted.found, [rule], "{text}");
        }
        // Wrapped over lines, and started mid-run.
        let wrapped = b64(format!("token {TOKEN} and more words to wrap").as_bytes());
        let (a, b) = wrapped.split_at(40);
        let text = format!("blob:\n  {a}\n  {b}\nend\n");
        assert_eq!(clean(&text), "blob:\n  [REDACTED:github-token]\nend\n");
        let glued = format!("prefix/{}", b64(format!("k={TOKEN}").as_bytes()));
        assert_eq!(clean(&glued), "[REDACTED:github-token]");
    }

    fn clean(text: &str) -> String {
        String::from_utf8(redact(text.as_bytes()).unwrap().content.into_owned()).unwrap()
    }

    #[test]
    fn base64_of_plain_text_and_long_words_stay() {
        for kept in [
            format!("logo: {}\n", b64(b"just a harmless sentence here")),
            "Use internationalization_and_localization everywhere.\n".to_owned(),
            "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n".to_owned(),
            "path: /usr/local/lib/python3/site-packages/module\n".to_owned(),
        ] {
            let redacted = redact(kept.as_bytes()).unwrap();
            assert_eq!(redacted.content, kept.as_bytes(), "{kept}");
            assert!(redacted.found.is_empty(), "{kept}");
        }
    }

    #[test]
    fn a_large_blob_of_data_or_any_compressed_blob_cannot_be_read() {
        let noise: Vec<u8> = (0..2048u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let text = format!("image: {}\n", b64(&noise));
        assert_eq!(redact(text.as_bytes()), Err(Withheld::EncodedBlob));
        let gz = format!(
            "z: {}\n",
            b64(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03abcdefghijkl")
        );
        assert_eq!(redact(gz.as_bytes()), Err(Withheld::EncodedBlob));
        let small = format!("icon: {}\n", b64(&noise[..64]));
        assert!(redact(small.as_bytes()).is_ok());
    }

    #[test]
    fn compressed_data_and_archives_are_known_by_their_first_bytes() {
        let mut tar = vec![0u8; 512];
        tar[..8].copy_from_slice(b"notes.md");
        tar[257..262].copy_from_slice(b"ustar");
        for (content, format) in [
            (b"\x1f\x8b\x08\x00rest".to_vec(), "gzip"),
            (b"PK\x03\x04\x14\x00\x00\x00".to_vec(), "zip"),
            (b"BZh91AY&SY\x00\x01".to_vec(), "bzip2"),
            (b"\xfd7zXZ\x00\x00\x04".to_vec(), "xz"),
            (b"7z\xbc\xaf\x27\x1c\x00\x04".to_vec(), "7z"),
            (b"\x28\xb5\x2f\xfd\x00\x58".to_vec(), "zstd"),
            (tar, "tar"),
        ] {
            assert_eq!(redact(&content), Err(Withheld::Compressed(format)));
        }
        // A stored (uncompressed) zip entry shows its secret, which keeps the file out.
        let mut stored = b"PK\x03\x04\x0a\x00\x00\x00".to_vec();
        stored.extend_from_slice(format!("PASSWORD=zipped-hunter2 {TOKEN}").as_bytes());
        assert!(matches!(redact(&stored), Err(Withheld::Secret { .. })));
    }

    #[test]
    fn env_files_are_known_by_name() {
        for name in [
            ".env",
            "config/.env.local",
            ".env.production",
            "prod.env",
            "a/b/staging.env",
            ".envrc",
        ] {
            assert!(secret_file(name), "{name}");
        }
        for name in [
            "env.md",
            "refs/environment.md",
            "scripts/setenv.sh",
            ".environment",
            "envy",
        ] {
            assert!(!secret_file(name), "{name}");
        }
    }

    #[test]
    fn every_reason_is_a_sentence_part() {
        assert_eq!(
            Withheld::Compressed("gzip").to_string(),
            "gzip data, whose content could not be scanned for secrets"
        );
        assert_eq!(
            Withheld::Secret {
                rule: "jwt",
                form: "UTF-16 text"
            }
            .to_string(),
            "UTF-16 text holding what looks like a secret (jwt), which cannot be removed from it safely"
        );
    }
}
