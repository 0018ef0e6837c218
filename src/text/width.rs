//! Fitting sanitised text into columns: its display width (a CJK character takes two, a
//! combining mark none), cutting it with an ellipsis, and wrapping it onto lines of a pane's
//! width. Both front ends measure here, so a table on the command line lines up as the app's.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Columns `text` takes on screen.
pub fn of(text: &str) -> usize {
    text.width()
}

/// Columns one character takes on screen; a control character, which sanitised text does not
/// hold, counts none.
pub fn of_char(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// `text` cut to at most `columns`, ending in `…` when something was cut.
pub fn fit(text: &str, columns: usize) -> String {
    if text.width() <= columns {
        return text.to_owned();
    }
    if columns == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = of_char(c);
        if used + w > columns - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// `text` padded with spaces (or cut) to exactly `columns`.
pub fn pad(text: &str, columns: usize) -> String {
    let mut out = fit(text, columns);
    let missing = columns.saturating_sub(out.width());
    out.extend(std::iter::repeat_n(' ', missing));
    out
}

/// `text` broken onto lines of at most `columns`, at spaces where it can and anywhere where a
/// word is longer than a line. An empty text is one empty line.
pub fn wrap(text: &str, columns: usize) -> Vec<String> {
    wrap_after(text, columns, &[' '])
}

/// [`wrap`], breaking after any of `breaks` as well as after a space: with `/`, a path wraps
/// between its folders.
pub fn wrap_after(text: &str, columns: usize, breaks: &[char]) -> Vec<String> {
    let columns = columns.max(1);
    let mut out = Vec::new();
    let mut current = String::new();
    let mut used = 0;
    for word in text.split_inclusive(|c: char| c == ' ' || breaks.contains(&c)) {
        let width = word.width();
        let bare = word.trim_end_matches(' ').width();
        if used + bare > columns && used > 0 {
            out.push(current.trim_end().to_owned());
            current.clear();
            used = 0;
        }
        if bare > columns {
            for c in word.chars() {
                let w = of_char(c);
                if used + w > columns {
                    out.push(std::mem::take(&mut current));
                    used = 0;
                }
                current.push(c);
                used += w;
            }
        } else {
            current.push_str(word);
            used += width;
        }
    }
    out.push(current.trim_end().to_owned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_counts_display_columns() {
        assert_eq!(fit("skill", 5), "skill");
        assert_eq!(fit("skills", 5), "skil…");
        assert_eq!(fit("漢字漢字", 5), "漢字…");
        assert_eq!(fit("漢字漢字", 4), "漢…");
        assert_eq!(fit("abc", 0), "");
        assert_eq!(pad("漢", 4), "漢  ");
        assert_eq!(of(&pad("漢字漢字", 5)), 5);
    }

    #[test]
    fn characters_take_their_display_columns() {
        assert_eq!(of_char('a'), 1);
        assert_eq!(of_char('漢'), 2);
        assert_eq!(of_char('\u{301}'), 0);
        assert_eq!(of_char('\u{1b}'), 0);
        assert_eq!(of("cafe\u{301}"), 4);
    }

    #[test]
    fn wrapping_breaks_at_spaces_then_anywhere() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), [""]);
        assert_eq!(wrap("漢字漢字漢", 4), ["漢字", "漢字", "漢"]);
        for line in wrap("~/.claude/skills/a-very-long-skill-name and more words", 10) {
            assert!(of(&line) <= 10, "{line:?}");
        }
    }
}
