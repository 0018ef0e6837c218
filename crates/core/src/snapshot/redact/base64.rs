//! Base64 as the redaction meets it: finding the runs in a text that may be base64 (standard or
//! URL-safe, wrapped over lines or not) and decoding them leniently, since a secret hidden by
//! `base64` is as much a secret as the plain one.

use std::ops::Range;
use std::sync::LazyLock;

use regex::bytes::Regex;

/// A run long enough to hold a short secret (`PASS=abc1` is 12 characters encoded), with the
/// lines of a wrapped blob joined.
static RUN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u)[A-Za-z0-9+/_\-]{16,}={0,2}(?:[ \t]*\r?\n[ \t]*[A-Za-z0-9+/_\-]{4,}={0,2})*")
        .unwrap_or_else(|e| panic!("base64 run: {e}"))
});

/// Where the runs that may be base64 are in `text`.
pub(super) fn runs(text: &[u8]) -> impl Iterator<Item = Range<usize>> + '_ {
    RUN.find_iter(text).map(|found| found.range())
}

/// A run with its line breaks and indentation taken out.
pub(super) fn compact(run: &[u8]) -> Vec<u8> {
    run.iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect()
}

/// Decode `text`, either alphabet, padded or not. `None` when it holds a character outside
/// both alphabets or cannot end a base64 text (one character past a whole group).
pub(super) fn decode(text: &[u8]) -> Option<Vec<u8>> {
    let text = text
        .strip_suffix(b"==")
        .or_else(|| text.strip_suffix(b"="))
        .unwrap_or(text);
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    for group in text.chunks(4) {
        let mut bits = 0u32;
        for (i, &c) in group.iter().enumerate() {
            bits |= u32::from(sextet(c)?) << (18 - 6 * i);
        }
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..group.len()]);
    }
    Some(out)
}

/// What the run decodes to when it starts `shift` characters in (0 to 3): groups of four are
/// decoded on their own, so one of the four shifts reads a blob right even when the run
/// begins with a word that is not part of it (`secret/aGVsbG8…`).
pub(super) fn decode_shifted(run: &[u8], shift: usize) -> Option<Vec<u8>> {
    let text = run.get(shift..)?;
    let text = text
        .strip_suffix(b"==")
        .or_else(|| text.strip_suffix(b"="))
        .unwrap_or(text);
    let whole = text.len() - usize::from(text.len() % 4 == 1);
    decode(&text[..whole])
}

fn sextet(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_alphabets_padded_or_not() {
        assert_eq!(decode(b"aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode(b"aGVsbG8").unwrap(), b"hello");
        assert_eq!(decode(b"-_-_").unwrap(), decode(b"+/+/").unwrap());
        assert_eq!(decode(b"aGVsbG8h").unwrap(), b"hello!");
        assert!(decode(b"aGVsb").is_none());
        assert!(decode(b"aGV*").is_none());
    }

    #[test]
    fn a_shifted_start_still_reads_the_blob() {
        // "secret/" then base64 of "password=hunter2 ok"
        let run = b"secret/cGFzc3dvcmQ9aHVudGVyMiBvaw==";
        let read: Vec<Vec<u8>> = (0..4).filter_map(|s| decode_shifted(run, s)).collect();
        assert!(
            read.iter()
                .any(|bytes| bytes.windows(16).any(|w| w == b"password=hunter2")),
            "{read:?}"
        );
    }

    #[test]
    fn wrapped_blobs_are_one_run() {
        let text = b"key:\n  aGVsbG8gd29ybGQgaGVs\n  bG8gd29ybGQ=\nend";
        let found: Vec<_> = runs(text).collect();
        assert_eq!(found.len(), 1);
        assert_eq!(
            decode(&compact(&text[found[0].clone()])).unwrap(),
            b"hello world hello world"
        );
    }
}
