//! Text from disk made safe to draw: what the app does, once where the inventory becomes its
//! model, so no view has to think about it.
//!
//! A `SKILL.md`, a folder name or a frontmatter value can hold anything: escape sequences that
//! would recolour or move the cursor of a terminal, tabs that ratatui drops silently, carriage
//! returns, and bidirectional overrides that make text read differently from what it is
//! (reference/tui-model-codebases.md §8.6). What leaves this module holds none of them: escape
//! sequences are removed whole (not just their ESC, which would leave `[31m` on screen), other
//! control characters and bidi controls are dropped, tabs become spaces up to the next tab stop
//! measured in display columns, and CR LF or a lone CR become line breaks.

use super::width;

/// Columns between tab stops.
pub const TAB_STOP: usize = 4;

/// One line of text: line breaks become spaces, everything else as [`lines`] does it.
pub fn line(text: &str) -> String {
    lines(text).join(" ")
}

/// A name (a skill's, a bundle's) as the app draws it: as it is when it holds nothing a
/// terminal acts on or a reader cannot see, else escaped whole, so a name is never drawn as
/// another name it is not (as dropping its hidden characters would).
pub fn name(text: &str) -> String {
    if text
        .chars()
        .any(|c| c.is_control() || super::escape::is_invisible(c))
    {
        super::escape::line(text)
    } else {
        text.to_owned()
    }
}

/// Text as display-safe lines.
pub fn lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cleaner = Cleaner::default();
    cleaner.feed(text, |line| out.push(line));
    out.push(cleaner.current);
    out
}

/// Parts of one line (a diff line and its changed words), each made display-safe as [`line()`]
/// does it, with tab stops counted from the start of the whole line so the parts still line
/// up; each part keeps its flag.
pub fn parts<'a, T: Copy>(parts: impl IntoIterator<Item = (&'a str, T)>) -> Vec<(String, T)> {
    let parts: Vec<(&str, T)> = parts.into_iter().collect();
    // Most lines are printable ASCII with no tab: nothing to clean, and a diff has thousands.
    if parts.iter().all(|(text, _)| is_plain(text)) {
        return parts
            .into_iter()
            .map(|(text, flag)| (text.to_owned(), flag))
            .collect();
    }
    let mut cleaner = Cleaner {
        one_line: true,
        ..Cleaner::default()
    };
    let mut out = Vec::new();
    for (text, flag) in parts {
        cleaner.feed(text, |_| {});
        out.push((std::mem::take(&mut cleaner.current), flag));
    }
    out
}

/// Text being made display-safe, a line at a time.
#[derive(Default)]
struct Cleaner {
    current: String,
    /// Display columns since the start of the line, for tab stops.
    column: usize,
    /// A line break becomes a space rather than ending the line.
    one_line: bool,
}

impl Cleaner {
    /// Clean `text` onto the current line; at each line break, hand the line so far to `ended`.
    fn feed(&mut self, text: &str, mut ended: impl FnMut(String)) {
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\n' => self.break_line(&mut ended),
                '\r' => {
                    // CR LF is one break; a lone CR (progress output) starts a line too.
                    if chars.peek() == Some(&'\n') {
                        chars.next();
                    }
                    self.break_line(&mut ended);
                }
                '\t' => {
                    let spaces = TAB_STOP - self.column % TAB_STOP;
                    self.current.extend(std::iter::repeat_n(' ', spaces));
                    self.column += spaces;
                }
                '\u{1b}' => skip_escape(&mut chars),
                '\u{9b}' => skip_until_final(&mut chars),
                c if is_dropped(c) => {}
                c => {
                    self.current.push(c);
                    self.column += width::of_char(c);
                }
            }
        }
    }

    fn break_line(&mut self, ended: &mut impl FnMut(String)) {
        if self.one_line {
            self.current.push(' ');
            self.column += 1;
        } else {
            ended(std::mem::take(&mut self.current));
            self.column = 0;
        }
    }
}

/// Printable ASCII only: text that cleaning leaves as it is.
fn is_plain(text: &str) -> bool {
    text.bytes().all(|b| (0x20..0x7f).contains(&b))
}

/// Control characters (C0, DEL, C1) and the formatting characters that reorder or hide text.
/// Fewer than [`super::escape::is_invisible`]: joiners and tag characters stay, because emoji
/// sequences and flags are drawn with them; they cannot move the cursor or reorder a line.
fn is_dropped(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200E}' | '\u{200F}' // left-to-right and right-to-left marks
                | '\u{061C}' // Arabic letter mark
                | '\u{202A}'..='\u{202E}' // embeddings and overrides
                | '\u{2066}'..='\u{2069}' // isolates
                | '\u{FEFF}' // byte order mark, zero width no-break space
        )
}

/// Skip the rest of an escape sequence whose ESC was just read (ECMA-48): CSI up to its final
/// byte, OSC/DCS/SOS/PM/APC strings up to BEL or ST, otherwise the one character after ESC.
fn skip_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    match chars.next() {
        Some('[') => skip_until_final(chars),
        Some(']' | 'P' | 'X' | '^' | '_') => {
            while let Some(c) = chars.next() {
                if c == '\u{7}' || c == '\u{9c}' {
                    break;
                }
                if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                    chars.next();
                    break;
                }
            }
        }
        _ => {}
    }
}

/// Skip a CSI sequence's parameter and intermediate bytes and its final byte (`@` to `~`).
fn skip_until_final(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(&c) = chars.peek() {
        if ('\u{20}'..='\u{3f}').contains(&c) {
            chars.next();
        } else {
            if ('\u{40}'..='\u{7e}').contains(&c) {
                chars.next();
            }
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_that_would_draw_as_another_is_shown_escaped() {
        assert_eq!(name("pdf-tools"), "pdf-tools");
        assert_eq!(name("日本語"), "日本語");
        assert_eq!(name("pdf\u{1b}[2J"), "pdf\\u{1b}[2J");
        assert_eq!(name("pd\u{200b}f"), "pd\\u{200b}f");
        assert_eq!(name("a\tb"), "a\\u{9}b");
    }

    #[test]
    fn escape_sequences_go_whole() {
        let cases = [
            ("\u{1b}[31mred\u{1b}[0m", "red"),
            ("\u{1b}[2J\u{1b}[Hclear", "clear"),
            ("a\u{1b}]0;title\u{7}b", "ab"),
            (
                "a\u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\b",
                "alinkb",
            ),
            ("a\u{1b}Pdcs\u{1b}\\b", "ab"),
            ("a\u{1b}7b", "ab"),
            ("a\u{9b}1;2Hb", "ab"),
            ("trailing\u{1b}", "trailing"),
            ("trailing\u{1b}[12", "trailing"),
        ];
        for (raw, shown) in cases {
            assert_eq!(line(raw), shown, "{raw:?}");
        }
    }

    #[test]
    fn controls_and_bidi_overrides_are_dropped() {
        assert_eq!(line("a\u{0}b\u{7}c\u{7f}d\u{85}e"), "abcde");
        assert_eq!(line("admin\u{202E}gpj.exe"), "admingpj.exe");
        assert_eq!(line("\u{2066}x\u{2069}\u{200F}\u{FEFF}"), "x");
        // A joiner is text, not a control: emoji sequences keep it.
        assert_eq!(line("a\u{200D}b"), "a\u{200D}b");
    }

    #[test]
    fn tabs_expand_to_tab_stops_in_display_columns() {
        assert_eq!(lines("a\tb"), ["a   b"]);
        assert_eq!(lines("abcd\te"), ["abcd    e"]);
        assert_eq!(lines("\tx\n\ty"), ["    x", "    y"]);
        // A CJK character is two columns wide, so the stop after it is two spaces away.
        assert_eq!(lines("漢\tx"), ["漢  x"]);
    }

    #[test]
    fn line_endings_are_normalised() {
        assert_eq!(lines("a\r\nb\nc"), ["a", "b", "c"]);
        assert_eq!(lines("50%\r100%"), ["50%", "100%"]);
        assert_eq!(lines("end\n"), ["end", ""]);
        assert_eq!(line("two\nlines"), "two lines");
    }

    #[test]
    fn parts_of_a_line_keep_their_flags_and_its_tab_stops() {
        let cleaned = parts([("a\t", false), ("b\tc\u{1b}[31m", true), ("\r\nd", false)]);
        assert_eq!(
            cleaned,
            [
                ("a   ".to_owned(), false),
                ("b   c".to_owned(), true),
                (" d".to_owned(), false)
            ]
        );
    }

    #[test]
    fn plain_parts_are_kept_as_they_are() {
        assert_eq!(
            parts([("plain text", 1), (" and more", 2)]),
            [("plain text".to_owned(), 1), (" and more".to_owned(), 2)]
        );
        // One part that needs cleaning cleans them all, tab stops counted across.
        assert_eq!(
            parts([("ab", 1), ("\tc", 2)]),
            [("ab".to_owned(), 1), ("  c".to_owned(), 2)]
        );
    }

    #[test]
    fn plain_and_wide_text_is_kept() {
        assert_eq!(line("翻訳スキル – café"), "翻訳スキル – café");
    }
}
