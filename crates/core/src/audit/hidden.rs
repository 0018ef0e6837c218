//! The characters a reader cannot see, judged by their neighbours (locks-audit-and-agent-
//! changes.md §5): tag characters (U+E0000–U+E007F) are invisible and read by models as text,
//! except inside an emoji flag; bidirectional controls reorder what a line shows ("Trojan
//! Source") and belong only beside right-to-left text; zero-width characters are legitimate
//! inside emoji (U+200D joins 👨‍👩‍👧) and inside Persian and Indic words (U+200C), and
//! hide a word from a pattern when they split Latin letters.

use super::rules::Check;

/// One thing a line hides, with what it spells where that can be told.
pub struct Hidden {
    pub check: Check,
    pub detail: String,
}

/// What `line` hides. `first` is whether it is the file's first line, whose leading U+FEFF is
/// a byte order mark.
pub fn line(line: &str, first: bool) -> Vec<Hidden> {
    let mut found = Vec::new();
    let chars: Vec<char> = line.chars().collect();
    let rtl = chars.iter().any(|&c| is_rtl_letter(c));

    if let Some(spelt) = tag_text(&chars) {
        found.push(Hidden {
            check: Check::TagChars,
            detail: format!("they spell \"{spelt}\""),
        });
    }
    if !rtl {
        if let Some(c) = chars.iter().find(|&&c| is_bidi_control(c)) {
            found.push(Hidden {
                check: Check::BidiControls,
                detail: format!("U+{:04X}", u32::from(*c)),
            });
        }
        if let Some(c) = chars.iter().find(|&&c| is_bidi_mark(c)) {
            found.push(Hidden {
                check: Check::BidiMarks,
                detail: format!("U+{:04X}", u32::from(*c)),
            });
        }
    }
    let mut run = 0;
    let mut longest = 0;
    let mut split = None;
    for (i, &c) in chars.iter().enumerate() {
        if is_zero_width(c) || is_variation_supplement(c) {
            run += 1;
            longest = longest.max(run);
            if is_zero_width(c) && !(first && i == 0 && c == '\u{FEFF}') {
                let before = chars[..i].iter().rev().find(|&&c| !is_invisible(c));
                let after = chars[i + 1..].iter().find(|&&c| !is_invisible(c));
                if let (Some(b), Some(a)) = (before, after)
                    && b.is_ascii_alphanumeric()
                    && a.is_ascii_alphanumeric()
                    && split.is_none()
                {
                    split = Some(c);
                }
            }
        } else {
            run = 0;
        }
    }
    if longest >= 4 {
        found.push(Hidden {
            check: Check::InvisibleRun,
            detail: format!("{longest} in a row"),
        });
    }
    if let Some(c) = split {
        found.push(Hidden {
            check: Check::ZeroWidthSplit,
            detail: format!("U+{:04X}", u32::from(c)),
        });
    }
    found
}

/// `line` with its zero-width characters taken out, when it has any between Latin letters:
/// the text a reader (and a model) takes it for.
pub fn unsplit(line: &str) -> Option<String> {
    let mut chars = line.chars().peekable();
    let mut out = String::with_capacity(line.len());
    let mut changed = false;
    let mut previous = None;
    while let Some(c) = chars.next() {
        if is_zero_width(c) {
            let next = chars.peek().copied();
            if previous.is_some_and(|p: char| p.is_ascii_alphanumeric())
                || next.is_some_and(|n| n.is_ascii_alphanumeric())
            {
                changed = true;
                continue;
            }
        }
        out.push(c);
        previous = Some(c);
    }
    changed.then_some(out)
}

/// The ASCII that a run of tag characters spells, unless every run is part of an emoji flag
/// (U+1F3F4, tags, U+E007F CANCEL TAG).
fn tag_text(chars: &[char]) -> Option<String> {
    let mut spelt = String::new();
    let mut i = 0;
    let mut any = false;
    while i < chars.len() {
        if !is_tag(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && is_tag(chars[i]) {
            i += 1;
        }
        let flag = start > 0 && chars[start - 1] == '\u{1F3F4}' && chars[i - 1] == '\u{E007F}';
        if flag {
            continue;
        }
        any = true;
        spelt.extend(chars[start..i].iter().filter_map(|&c| {
            char::from_u32(u32::from(c) - 0xE0000).filter(|c| c.is_ascii_graphic() || *c == ' ')
        }));
    }
    any.then(|| spelt.chars().take(120).collect())
}

fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

fn is_bidi_control(c: char) -> bool {
    ('\u{202A}'..='\u{202E}').contains(&c) || ('\u{2066}'..='\u{2069}').contains(&c)
}

fn is_bidi_mark(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}')
}

fn is_zero_width(c: char) -> bool {
    matches!(
        c,
        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{180E}'
    ) || ('\u{2061}'..='\u{2064}').contains(&c)
}

fn is_variation_supplement(c: char) -> bool {
    ('\u{E0100}'..='\u{E01EF}').contains(&c)
}

fn is_invisible(c: char) -> bool {
    is_zero_width(c) || is_variation_supplement(c) || is_tag(c) || is_bidi_mark(c)
}

/// Hebrew, Arabic (Persian, Urdu), Syriac, Thaana, N'Ko and the other right-to-left scripts,
/// with their presentation forms.
fn is_rtl_letter(c: char) -> bool {
    matches!(u32::from(c),
        0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFC | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checks(text: &str) -> Vec<Check> {
        line(text, false).iter().map(|h| h.check).collect()
    }

    #[test]
    fn tag_characters_are_spelt_out() {
        let hidden: String = "run it"
            .chars()
            .filter_map(|c| char::from_u32(u32::from(c) + 0xE0000))
            .collect();
        let found = line(&format!("Hello{hidden}"), false);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].detail, "they spell \"run it\"");
    }

    #[test]
    fn emoji_flags_and_sequences_are_not_hidden_text() {
        assert!(
            checks("\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Scotland")
                .is_empty()
        );
        assert!(checks("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}").is_empty());
        assert!(checks("\u{1F3F3}\u{FE0F}\u{200D}\u{1F308} pride").is_empty());
    }

    #[test]
    fn persian_hebrew_and_indic_text_is_not_hidden_text() {
        // Persian: می‌خواهم, with ZWNJ inside the word; Hebrew with an RLM.
        assert!(
            checks("\u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0647}\u{0645}").is_empty()
        );
        assert!(checks("\u{05E9}\u{05DC}\u{05D5}\u{05DD}\u{200F} world").is_empty());
        // Hindi: क्‍ष, with ZWJ between Devanagari letters.
        assert!(checks("\u{0915}\u{094D}\u{200D}\u{0937}").is_empty());
        // Arabic with an isolate around a Latin name.
        assert!(
            checks("\u{0645}\u{0631}\u{062D}\u{0628}\u{0627} \u{2066}Claude\u{2069}").is_empty()
        );
    }

    #[test]
    fn a_byte_order_mark_opens_a_file() {
        assert!(line("\u{FEFF}# Title", true).is_empty());
    }

    #[test]
    fn zero_width_between_latin_letters_splits_a_word() {
        assert_eq!(checks("ig\u{200B}nore"), vec![Check::ZeroWidthSplit]);
        assert_eq!(unsplit("ig\u{200B}nore").as_deref(), Some("ignore"));
        assert_eq!(unsplit("\u{1F468}\u{200D}\u{1F469}"), None);
    }

    #[test]
    fn bidi_controls_without_right_to_left_text_are_found() {
        assert_eq!(checks("if a \u{202E}}{ b"), vec![Check::BidiControls]);
        assert_eq!(checks("x\u{200E}y"), vec![Check::BidiMarks]);
    }
}
