//! Text as the rules read it: without the characters a reader does not see. A secret split by
//! a zero-width space, a soft hyphen, a bidi control, a variation selector or a tag character
//! looks whole on screen and works whole once pasted, so the rules must find it whole.
//!
//! Normalising only removes: it never adds or changes a byte, so the view is the original's
//! kept pieces end to end, and a match in the view maps back to the span of the original
//! that holds every piece of it, the hidden characters between them included
//! ([`Normalised::original`]). What is removed:
//!
//! - every character a reader cannot see ([`ignorable`]): Unicode's Default_Ignorable_Code_Point
//!   set and the format characters (category Cf) names are refused for holding;
//! - an escape that writes one of them in the syntax a skill's files use, since the file means
//!   that character: `\u200b`, `\u{200B}`, `\U0000200B`, `\x{200b}`, `\xad` (JSON, YAML,
//!   JavaScript, Python, Rust, Perl), `&#8203;`, `&#x200b;` and the named entities of HTML
//!   (`&zwj;`, `&shy;`, `&ZeroWidthSpace;`, …), and `%E2%80%8B` in a URL.
//!
//! An escape of a visible character (`\x41` for `A`) is not decoded: it is not a secret
//! forgotten in a file but one disguised, and decoding `\"` or `\n` would change where the
//! rules see a quoted value end.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::LazyLock;

use regex::bytes::Regex;

use crate::text::escape::is_invisible;

/// `text` with what a reader does not see taken out, and where each kept piece came from.
pub(super) struct Normalised<'a> {
    pub text: Cow<'a, [u8]>,
    /// Each kept piece: where it starts in `text`, and where in the original. Empty when
    /// nothing was removed.
    pieces: Vec<(usize, usize)>,
}

impl<'a> Normalised<'a> {
    /// `text` itself, as the view that removes nothing.
    pub fn of(text: &'a [u8]) -> Self {
        Normalised {
            text: Cow::Borrowed(text),
            pieces: Vec::new(),
        }
    }

    /// Whether anything was removed, so the view differs from the original.
    pub fn changed(&self) -> bool {
        !self.pieces.is_empty()
    }

    /// The span of the original that holds the bytes `range` of the view, and every hidden
    /// character between them. `range` must not be empty.
    pub fn original(&self, range: Range<usize>) -> Range<usize> {
        if !self.changed() || range.is_empty() {
            return range;
        }
        let at = |offset: usize| {
            let index = self.pieces.partition_point(|&(view, _)| view <= offset) - 1;
            let (view, original) = self.pieces[index];
            original + (offset - view)
        };
        at(range.start)..at(range.end - 1) + 1
    }
}

/// `text` without the characters a reader cannot see, and without the escapes that write
/// them. Borrowed, with nothing to map, when it holds none.
pub(super) fn normalise(text: &[u8]) -> Normalised<'_> {
    let removed = removed(text);
    if removed.is_empty() {
        return Normalised {
            text: Cow::Borrowed(text),
            pieces: Vec::new(),
        };
    }
    let mut out = Vec::with_capacity(text.len());
    let mut pieces = Vec::with_capacity(removed.len() + 1);
    let mut kept = 0;
    for range in removed
        .into_iter()
        .chain(std::iter::once(text.len()..text.len()))
    {
        if range.start > kept {
            pieces.push((out.len(), kept));
            out.extend_from_slice(&text[kept..range.start]);
        }
        kept = kept.max(range.end);
    }
    if pieces.is_empty() {
        // All of it was hidden: one empty piece keeps the map from being taken for none.
        pieces.push((0, text.len()));
    }
    Normalised {
        text: Cow::Owned(out),
        pieces,
    }
}

/// The spans to remove, in order: each hidden character, each escape of one.
fn removed(text: &[u8]) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    let mut at = 0;
    for chunk in text.utf8_chunks() {
        for (offset, c) in chunk.valid().char_indices() {
            if ignorable(c) {
                spans.push(at + offset..at + offset + c.len_utf8());
            }
        }
        at += chunk.valid().len() + chunk.invalid().len();
    }
    if text.iter().any(|b| matches!(b, b'\\' | b'&' | b'%')) {
        spans.extend(
            ESCAPE
                .captures_iter(text)
                .filter(|caps| escaped(caps).is_some_and(ignorable))
                .filter_map(|caps| caps.get(0).map(|m| m.range())),
        );
        spans.sort_by_key(|span| span.start);
    }
    spans
}

/// An escape that may write one character, by syntax.
static ESCAPE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u)\\(?:u\{(?P<braced>[0-9A-Fa-f]{1,6})\}|x\{(?P<perl>[0-9A-Fa-f]{1,6})\}|u(?P<u4>[0-9A-Fa-f]{4})|U(?P<u8>[0-9A-Fa-f]{8})|x(?P<x2>[0-9A-Fa-f]{2}))|&#(?:[xX](?P<hex>[0-9A-Fa-f]{1,6})|(?P<dec>[0-9]{1,7}));|&(?P<named>[A-Za-z]{2,32});|(?P<percent>%[C-Fc-f][0-9A-Fa-f](?:%[89ABab][0-9A-Fa-f]){1,3})",
    )
    .unwrap_or_else(|e| panic!("escape: {e}"))
});

/// The character one match of [`ESCAPE`] writes.
fn escaped(caps: &regex::bytes::Captures<'_>) -> Option<char> {
    let text = |name: &str| {
        caps.name(name)
            .and_then(|m| std::str::from_utf8(m.as_bytes()).ok())
    };
    let hex = ["braced", "perl", "u4", "u8", "x2", "hex"]
        .into_iter()
        .find_map(&text);
    if let Some(digits) = hex {
        return u32::from_str_radix(digits, 16)
            .ok()
            .and_then(char::from_u32);
    }
    if let Some(digits) = text("dec") {
        return digits.parse().ok().and_then(char::from_u32);
    }
    if let Some(name) = text("named") {
        return NAMED
            .iter()
            .find(|(entity, _)| *entity == name)
            .map(|(_, c)| *c);
    }
    let encoded = text("percent")?;
    let bytes: Vec<u8> = encoded
        .split('%')
        .skip(1)
        .map(|pair| u8::from_str_radix(pair, 16).ok())
        .collect::<Option<_>>()?;
    let mut chars = std::str::from_utf8(&bytes).ok()?.chars();
    chars.next().filter(|_| chars.next().is_none())
}

/// The HTML named character references that write a hidden character (the WHATWG list).
const NAMED: [(&str, char); 16] = [
    ("shy", '\u{ad}'),
    ("ZeroWidthSpace", '\u{200b}'),
    ("NegativeVeryThinSpace", '\u{200b}'),
    ("NegativeThinSpace", '\u{200b}'),
    ("NegativeMediumSpace", '\u{200b}'),
    ("NegativeThickSpace", '\u{200b}'),
    ("zwnj", '\u{200c}'),
    ("zwj", '\u{200d}'),
    ("lrm", '\u{200e}'),
    ("rlm", '\u{200f}'),
    ("NoBreak", '\u{2060}'),
    ("ApplyFunction", '\u{2061}'),
    ("af", '\u{2061}'),
    ("InvisibleTimes", '\u{2062}'),
    ("it", '\u{2062}'),
    ("InvisibleComma", '\u{2063}'),
];

/// A character a reader does not see: Unicode's Default_Ignorable_Code_Point property
/// (DerivedCoreProperties.txt, Unicode 15.1: zero-width and bidi controls, joiners, the soft
/// hyphen, the byte order mark, variation selectors, Hangul fillers, tag characters, and the
/// code points reserved to be ignored), and every format character names are refused for
/// holding ([`is_invisible`]). Spaces, including the no-break space, are seen as a gap and
/// stay.
pub(super) fn ignorable(c: char) -> bool {
    is_invisible(c)
        || matches!(
            u32::from(c),
            0x00AD
                | 0x034F
                | 0x061C
                | 0x115F..=0x1160
                | 0x17B4..=0x17B5
                | 0x180B..=0x180F
                | 0x200B..=0x200F
                | 0x202A..=0x202E
                | 0x2060..=0x206F
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xFFA0
                | 0xFFF0..=0xFFF8
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0000..=0xE0FFF
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(text: &str) -> String {
        String::from_utf8(normalise(text.as_bytes()).text.into_owned()).unwrap()
    }

    #[test]
    fn hidden_characters_and_their_escapes_go_and_the_rest_stays() {
        for (raw, seen) in [
            ("AK\u{200b}IA", "AKIA"),
            ("a\u{ad}b\u{feff}c\u{2060}d\u{202e}e", "abcde"),
            ("x\u{fe0f}y\u{e0041}z\u{e0100}", "xyz"),
            ("a\\u200bb\\u{200D}c\\U0000FEFFd\\x{2060}e\\xadf", "abcdef"),
            ("a&#8203;b&#x200C;c&zwj;d&shy;e&ZeroWidthSpace;f", "abcdef"),
            ("a%E2%80%8Bb%c2%adc", "abc"),
        ] {
            assert_eq!(view(raw), seen, "{raw:?}");
        }
        for kept in [
            "plain ASCII\n",
            "翻訳スキル – café",
            "a\\u0041b &amp; &#65; %20 %C3%A9 \\x41 \\n \\\"",
            "&it is not a word here",
            "no\u{a0}break space",
        ] {
            let normalised = normalise(kept.as_bytes());
            assert!(!normalised.changed(), "{kept:?}");
            assert_eq!(normalised.text, kept.as_bytes());
        }
    }

    #[test]
    fn a_span_of_the_view_maps_back_over_what_was_hidden_inside_it() {
        let raw = "k=\u{200b}AB\u{200c}\u{200d}CD\\u200bE!";
        let normalised = normalise(raw.as_bytes());
        let seen = std::str::from_utf8(&normalised.text).unwrap();
        assert_eq!(seen, "k=ABCDE!");
        let start = seen.find('A').unwrap();
        let span = normalised.original(start..start + 5);
        // From A to E, with every hidden character between them; not the one before A.
        assert_eq!(&raw[span], "AB\u{200c}\u{200d}CD\\u200bE");
        assert_eq!(normalised.original(0..1), 0..1);
        let all = normalise("\u{200b}\u{200b}".as_bytes());
        assert!(all.changed() && all.text.is_empty());
    }

    #[test]
    fn every_default_ignorable_code_point_is_hidden() {
        for c in [
            '\u{ad}',
            '\u{34f}',
            '\u{61c}',
            '\u{115f}',
            '\u{1160}',
            '\u{17b4}',
            '\u{180b}',
            '\u{180e}',
            '\u{200b}',
            '\u{200f}',
            '\u{202a}',
            '\u{2064}',
            '\u{2065}',
            '\u{206f}',
            '\u{3164}',
            '\u{fe00}',
            '\u{fe0f}',
            '\u{feff}',
            '\u{ffa0}',
            '\u{1bca0}',
            '\u{1d173}',
            '\u{e0001}',
            '\u{e007f}',
            '\u{e01ef}',
        ] {
            assert!(ignorable(c), "{c:?}");
        }
        for c in [
            'a', ' ', '\u{a0}', '\u{301}', '漢', '😀', '\u{2028}', '\u{3000}',
        ] {
            assert!(!ignorable(c), "{c:?}");
        }
    }
}
