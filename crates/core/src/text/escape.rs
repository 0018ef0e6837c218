//! Text from disk with everything a terminal would act on, or a reader could not see, written
//! visibly: `\u{1b}` for an ESC, `\u{202e}` for a right-to-left override, `\xff` for a byte
//! that is not UTF-8. Where [`super::sanitize`] drops such characters so the app can draw,
//! this keeps them in sight, for a sentence that must name exactly what a bundle holds (a
//! refusal) and for output printed as it is.

/// One line of text with control characters (C0 including line breaks and tabs, DEL, C1) and
/// invisible formatting characters ([`is_invisible`]) written as `\u{..}`.
pub fn line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_line(&mut out, text);
    out
}

/// Text of several lines, each written as [`line()`] writes it, the line breaks kept: what the
/// command line prints for people passes through this last, so nothing from disk reaches the
/// terminal raw whatever path it took into the output.
pub fn lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (index, part) in text.split('\n').enumerate() {
        if index > 0 {
            out.push('\n');
        }
        push_line(&mut out, part);
    }
    out
}

/// A name read as bytes (an archive member's), as [`line()`] writes it, with each byte that is
/// not UTF-8 written as `\xNN`.
pub fn bytes(raw: &[u8]) -> String {
    let mut out = String::with_capacity(raw.len());
    for chunk in raw.utf8_chunks() {
        push_line(&mut out, chunk.valid());
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    out
}

fn push_line(out: &mut String, text: &str) {
    for c in text.chars() {
        if c.is_control() || is_invisible(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
}

/// Format characters (Unicode category Cf): zero-width and bidirectional controls, the byte
/// order mark, and the code points HFS+ ignores in names. They make two names that look alike
/// differ, or one name display as another.
pub fn is_invisible(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00AD
            | 0x0600..=0x0605
            | 0x061C
            | 0x06DD
            | 0x070F
            | 0x0890..=0x0891
            | 0x08E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_their_breaks_and_lose_everything_else() {
        assert_eq!(
            lines("a\u{1b}]0;t\u{7}\nb\r\n\tc\n"),
            "a\\u{1b}]0;t\\u{7}\nb\\u{d}\n\\u{9}c\n"
        );
        assert_eq!(lines("plain\n\nlines"), "plain\n\nlines");
        assert_eq!(lines("\u{9b}2J\u{200b}"), "\\u{9b}2J\\u{200b}");
    }

    #[test]
    fn names_are_shown_without_anything_a_terminal_acts_on() {
        assert_eq!(bytes(b"demo/a\x1b[2Jb.md"), "demo/a\\u{1b}[2Jb.md");
        assert_eq!(bytes(b"demo/\xff\xfe.md"), "demo/\\xff\\xfe.md");
        assert_eq!(bytes("x\u{202e}y".as_bytes()), "x\\u{202e}y");
        assert_eq!(bytes("café".as_bytes()), "café");
    }

    #[test]
    fn every_kind_of_hidden_character_is_written_visibly() {
        let cases = [
            ("a\u{0}b", "a\\u{0}b"),
            ("bell\u{7}", "bell\\u{7}"),
            ("two\nlines\r\n", "two\\u{a}lines\\u{d}\\u{a}"),
            ("tab\there", "tab\\u{9}here"),
            ("del\u{7f}", "del\\u{7f}"),
            ("\u{1b}]0;title\u{7}", "\\u{1b}]0;title\\u{7}"),
            ("c1\u{9b}2J", "c1\\u{9b}2J"),
            ("admin\u{202e}gpj.exe", "admin\\u{202e}gpj.exe"),
            ("\u{2066}isolated\u{2069}", "\\u{2066}isolated\\u{2069}"),
            ("zero\u{200b}width", "zero\\u{200b}width"),
            ("\u{feff}bom", "\\u{feff}bom"),
            ("soft\u{ad}hyphen", "soft\\u{ad}hyphen"),
        ];
        for (raw, shown) in cases {
            assert_eq!(line(raw), shown, "{raw:?}");
        }
    }

    #[test]
    fn visible_text_is_kept_as_it_is() {
        for text in [
            "翻訳スキル – café",
            "e\u{301}",
            "~/.claude/skills/x",
            "a\\u{1b}",
        ] {
            assert_eq!(line(text), text);
        }
    }

    #[test]
    fn invisible_means_format_characters_not_letters_or_marks() {
        for c in ['\u{200c}', '\u{200d}', '\u{202a}', '\u{2069}', '\u{e0041}'] {
            assert!(is_invisible(c), "{c:?}");
        }
        for c in ['a', '\u{301}', '漢', ' ', '\u{7}'] {
            assert!(!is_invisible(c), "{c:?}");
        }
    }
}
