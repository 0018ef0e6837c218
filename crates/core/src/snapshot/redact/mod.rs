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
mod names;
mod normalise;
mod rules;

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use crate::skill::manifest_text;

pub use names::{CleanPath, Names};
use normalise::{Normalised, normalise};
use rules::RULES;

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
    /// What looks like a secret (`rule`) across the folders of the file's path, which no one
    /// name can lose.
    SecretPath { rule: &'static str },
}

impl Withheld {
    /// Whether the user may have the file packed all the same (as it is, or for a `.env`
    /// file, redacted like any text): never when a secret was found in it.
    pub fn may_be_included(self) -> bool {
        !matches!(self, Withheld::Secret { .. } | Withheld::SecretPath { .. })
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
            Withheld::SecretPath { rule } => write!(
                f,
                "its path holds what looks like a secret ({rule}) across its folders, which cannot be cut out of one name"
            ),
        }
    }
}

/// Whether the file at `rel` (a `/`-separated path) is named as a file of secrets: `.env`,
/// `.env.local` and every other `.env.*`, `*.env`, `.envrc`.
pub fn secret_file(rel: &str) -> bool {
    let seen = normalise(rel.as_bytes());
    let rel = String::from_utf8_lossy(&seen.text);
    let name = rel.rsplit('/').next().unwrap_or(&rel);
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
    let (content, found) = cut(content, true, &mut |rule, _| marker(rule).into_bytes())?;
    Ok(Redacted { content, found })
}

/// Cut every secret out of UTF-8 text, each replaced by what `marker` makes of the rule that
/// found it and the secret's bytes: every rule in turn, then the base64 blobs that hide a
/// secret. Each is looked for in the text as it is and in its [normalised](normalise) view, so
/// a secret split by characters no reader sees is found too, and cut out of the original with
/// them. A large blob that could not be read fails the text when `whole` (it is a file's
/// content), and is kept when not (a name, too short to hide data worth reading).
fn cut<'a>(
    content: &'a [u8],
    whole: bool,
    marker: &mut dyn FnMut(&'static str, &[u8]) -> Vec<u8>,
) -> Result<(Cow<'a, [u8]>, Vec<&'static str>), Withheld> {
    let mut found = Vec::new();
    let mut current: Cow<'_, [u8]> = Cow::Borrowed(content);
    for rule in RULES.iter() {
        for_each_view(&mut current, &mut found, marker, |view| {
            Ok(rule
                .pattern
                .captures_iter(view)
                .filter_map(|caps| rules::secret(rule, &caps))
                .map(|range| (range, rule.name))
                .collect())
        })?;
    }
    for_each_view(&mut current, &mut found, marker, |view| {
        let mut secrets = Vec::new();
        for run in base64::runs(view) {
            match blob(&view[run.clone()], 1) {
                Blob::Plain => {}
                Blob::Unreadable if whole => return Err(Withheld::EncodedBlob),
                Blob::Unreadable => {}
                Blob::Secret(rule) => secrets.push((run, rule)),
            }
        }
        Ok(secrets)
    })?;
    Ok((current, found))
}

/// What `find` finds in the normalised view of `current` (when that differs) and then in
/// `current` itself, each found span (in order, none overlapping) replaced in the original by
/// `marker`. The view goes first, so a token whose rule takes any length is cut whole and not
/// just up to the first hidden character; the text itself then finds what the view joined to
/// a word before it (`x\u{200b}AKIA…` is `xAKIA…` in the view, no token).
fn for_each_view(
    current: &mut Cow<'_, [u8]>,
    found: &mut Vec<&'static str>,
    marker: &mut dyn FnMut(&'static str, &[u8]) -> Vec<u8>,
    mut find: impl FnMut(&[u8]) -> Result<Vec<(Range<usize>, &'static str)>, Withheld>,
) -> Result<(), Withheld> {
    for normalised in [true, false] {
        let view = if normalised {
            normalise(current)
        } else {
            Normalised::of(current)
        };
        if normalised && !view.changed() {
            continue;
        }
        let secrets = find(&view.text)?;
        if secrets.is_empty() {
            continue;
        }
        let mut out = Vec::with_capacity(current.len());
        let mut copied = 0;
        for (range, rule) in secrets {
            let range = view.original(range);
            out.extend_from_slice(&current[copied..range.start]);
            out.extend_from_slice(&marker(rule, &current[range.clone()]));
            copied = range.end;
            found.push(rule);
        }
        out.extend_from_slice(&current[copied..]);
        drop(view);
        *current = Cow::Owned(out);
    }
    Ok(())
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
/// whether or not it starts with a byte-order mark or where it sits in a binary file; and each
/// of these [normalised](normalise) too, when that removes something.
fn views(bytes: &[u8]) -> Vec<Cow<'_, [u8]>> {
    let views = decodings(bytes);
    let normalised: Vec<Vec<u8>> = views
        .iter()
        .map(|view| normalise(view))
        .filter(Normalised::changed)
        .map(|view| view.text.into_owned())
        .collect();
    views
        .into_iter()
        .chain(normalised.into_iter().map(Cow::Owned))
        .collect()
}

fn decodings(bytes: &[u8]) -> Vec<Cow<'_, [u8]>> {
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

    /// Secrets of several kinds: the text, the secret in it, and the rule that finds it.
    /// Vendor tokens, a name whose value is the secret, a key id, a PEM block, a base64 blob.
    fn kinds() -> Vec<(String, String, &'static str)> {
        let whole = |text: &str, rule| (text.to_owned(), text.to_owned(), rule);
        vec![
            whole("AKIAIOSFODNN7EXAMPLE", "aws-access-key"),
            whole(TOKEN, "github-token"),
            whole(
                "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123",
                "anthropic-key",
            ),
            (
                "DB_PASSWORD=hunter2hunter2".to_owned(),
                "hunter2hunter2".to_owned(),
                "assignment",
            ),
            (
                "\"private_key_id\": \"8f3e2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f\"".to_owned(),
                "8f3e2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f".to_owned(),
                "assignment",
            ),
            (
                "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkq\n-----END PRIVATE KEY-----"
                    .to_owned(),
                "MIIEvQIBADANBgkq".to_owned(),
                "private-key",
            ),
            whole(&b64(format!("GH={TOKEN}").as_bytes()), "github-token"),
        ]
    }

    /// Whether `out` still holds a piece of `secret` eight characters long, seen as a reader
    /// sees it (hidden characters dropped).
    fn leaks(out: &str, secret: &str) -> bool {
        let seen = String::from_utf8(normalise(out.as_bytes()).text.into_owned()).unwrap();
        let chars: Vec<char> = secret.chars().collect();
        chars
            .windows(8)
            .any(|w| seen.contains(&w.iter().collect::<String>()))
    }

    /// `secret` with `hidden` put after each character at the positions `at` picks.
    fn split(secret: &str, hidden: &str, at: impl Fn(usize) -> bool) -> String {
        let mut out = String::new();
        for (i, c) in secret.chars().enumerate() {
            out.push(c);
            if at(i) && i + 1 < secret.chars().count() {
                out.push_str(hidden);
            }
        }
        out
    }

    /// `text` redacted: the words around the secret kept as they were, the secret gone in
    /// every piece, the rule named.
    fn assert_cut(secret: &str, hidden_secret: &str, rule: &str) {
        let text = format!("before \u{1f468}\u{200d}\u{1f469} {hidden_secret} after 漢字\n");
        let redacted = redact(text.as_bytes()).unwrap();
        let out = String::from_utf8(redacted.content.into_owned()).unwrap();
        assert!(
            out.starts_with("before \u{1f468}\u{200d}\u{1f469} ") && out.ends_with(" after 漢字\n"),
            "{hidden_secret:?} -> {out:?}"
        );
        assert!(!leaks(&out, secret), "{hidden_secret:?} -> {out:?}");
        assert!(
            redacted.found.contains(&rule),
            "{hidden_secret:?}: {:?}",
            redacted.found
        );
    }

    #[test]
    fn a_secret_split_by_any_hidden_character_is_cut_out_with_them() {
        let hidden: Vec<char> = (0..=0x10_ffffu32)
            .filter_map(char::from_u32)
            .filter(|&c| normalise::ignorable(c))
            .collect();
        assert!(hidden.len() > 4000, "{}", hidden.len());
        let kinds = kinds();
        for (n, c) in hidden.iter().enumerate() {
            // Every hidden character once, each time in another kind and at other places.
            let (text, secret, rule) = &kinds[n % kinds.len()];
            let hidden = split(text, &c.to_string(), |i| (i + n) % 5 == 2);
            assert_cut(secret, &hidden, rule);
        }
        // A few characters at every place, and many different ones in one secret.
        for c in ['\u{200b}', '\u{ad}', '\u{202e}', '\u{fe0f}', '\u{e0020}'] {
            for (text, secret, rule) in &kinds {
                for place in 0..text.chars().count() - 1 {
                    assert_cut(secret, &split(text, &c.to_string(), |i| i == place), rule);
                }
            }
        }
        for (text, secret, rule) in &kinds {
            let many: String = text
                .chars()
                .enumerate()
                .flat_map(|(i, c)| [c, hidden[(i * 97) % hidden.len()]])
                .collect();
            assert_cut(secret, &many, rule);
        }
    }

    #[test]
    fn a_secret_split_by_escapes_of_hidden_characters_is_cut_out_with_them() {
        let escapes = [
            "\\u200b",
            "\\u200B",
            "\\u{200d}",
            "\\U0000FEFF",
            "\\x{2060}",
            "\\xad",
            "&#8203;",
            "&#x200C;",
            "&#173;",
            "&zwj;",
            "&shy;",
            "&ZeroWidthSpace;",
            "&NoBreak;",
            "%E2%80%8B",
            "%c2%ad",
        ];
        for (n, escape) in escapes.iter().enumerate() {
            for (text, secret, rule) in kinds() {
                assert_cut(&secret, &split(&text, escape, |i| (i + n) % 4 == 1), rule);
            }
        }
    }

    #[test]
    fn hidden_characters_in_text_without_secrets_stay_and_so_does_every_script() {
        let kept = [
            "Family: \u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}\u{200d}\u{1f466}, heart \u{2764}\u{fe0f}\n",
            "Scotland \u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} and 🇫🇷\n",
            "翻訳スキル：秘密を含まない文章です。\n한국어 텍스트\n",
            "فارسی\u{200c}نویسی و العربية\n",
            "soft\u{ad}hyphen, \u{feff}bom, \u{2066}isolate\u{2069}, \\u200b written out\n",
            "see &zwj; and &shy; in HTML, %E2%80%8B in a URL\n",
        ];
        for text in kept {
            let redacted = redact(text.as_bytes()).unwrap();
            assert!(matches!(redacted.content, Cow::Borrowed(_)), "{text}");
            assert!(redacted.found.is_empty(), "{text}: {:?}", redacted.found);
        }
        // Beside a secret, they stay as they were; only the secret goes.
        let text = "\u{1f468}\u{200d}\u{1f469} key AK\u{200b}IAIOSFODNN7EXAMPLE \u{2764}\u{fe0f} 漢\u{200d}字\n";
        assert_eq!(
            clean(text),
            "\u{1f468}\u{200d}\u{1f469} key [REDACTED:aws-access-key] \u{2764}\u{fe0f} 漢\u{200d}字\n"
        );
        // A hidden character before a token is a boundary as it was; it stays.
        assert_eq!(
            clean("x\u{200b}AKIAIOSFODNN7EXAMPLE\n"),
            "x\u{200b}[REDACTED:aws-access-key]\n"
        );
    }

    #[test]
    fn a_hidden_split_secret_in_a_file_judged_whole_keeps_it_out() {
        let split_key = "id AKIA\u{200b}IOSF\u{2060}ODNN7EXAMPLE\r\n";
        for encoded in [utf16le(split_key, true), utf16be(split_key, false)] {
            assert_eq!(
                redact(&encoded),
                Err(Withheld::Secret {
                    rule: "aws-access-key",
                    form: "UTF-16 text"
                })
            );
        }
        let mut binary = vec![0u8, 1, 2, 255];
        binary.extend_from_slice("gh\u{ad}p_0123456789abcdefghijklmnopqrstuvwxyz".as_bytes());
        assert!(matches!(
            redact(&binary),
            Err(Withheld::Secret {
                rule: "github-token",
                ..
            })
        ));
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
            ".e\u{200b}nv",
            "config/.env\u{feff}.local",
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
