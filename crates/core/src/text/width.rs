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

/// `name` in `columns`, cut in the middle when it is too long: the start and the end are
/// what tell names (and paths) apart (`docs-kit:api-reference`, `docs-kit:diagrams`), so both
/// stay.
pub fn fit_middle(name: &str, columns: usize) -> String {
    if of(name) <= columns {
        return name.to_owned();
    }
    if columns < 5 {
        return fit(name, columns);
    }
    // A third for the start, the rest for the end, which differs more often.
    let head_room = (columns - 1) / 3;
    let head = fit(name, head_room + 1);
    let head = head.trim_end_matches('…');
    let tail_room = columns - 1 - of(head);
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in name.chars().rev() {
        let w = of_char(c);
        if used + w > tail_room {
            break;
        }
        tail.push(c);
        used += w;
    }
    tail.reverse();
    format!("{head}…{}", tail.into_iter().collect::<String>())
}

/// A relative `path` in `columns`: whole when it fits, else its first folder and its file with
/// the folders between them left out (`skill-01/…/guide.md`), else its file alone
/// (`…/guide.md`), else cut in the middle: the ends are what tell paths apart.
pub fn fit_path(path: &str, columns: usize) -> String {
    if of(path) <= columns {
        return path.to_owned();
    }
    if let (Some((first, _)), Some((_, last))) = (path.split_once('/'), path.rsplit_once('/')) {
        let ends = format!("{first}/…/{last}");
        if of(&ends) <= columns && of(&ends) < of(path) {
            return ends;
        }
        let file = format!("…/{last}");
        if of(&file) <= columns {
            return file;
        }
    }
    fit_middle(path, columns)
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
    fn a_long_path_keeps_its_first_folder_and_its_file() {
        let cases: &[(&str, usize, &str)] = &[
            ("skill-01/docs/guide.md", 22, "skill-01/docs/guide.md"),
            ("skill-01/docs/guide.md", 21, "skill-01/…/guide.md"),
            ("skill-01/scripts/run.sh", 19, "skill-01/…/run.sh"),
            ("skill-01/scripts/run.sh", 12, "…/run.sh"),
            ("skill-01/SKILL.md", 12, "…/SKILL.md"),
            ("skill-01/SKILL.md", 9, "sk…ILL.md"),
            ("a-very-long-file-name.md", 12, "a-v…-name.md"),
        ];
        for &(path, columns, shown) in cases {
            assert_eq!(fit_path(path, columns), shown, "{path} in {columns}");
            assert!(of(&fit_path(path, columns)) <= columns);
        }
    }

    #[test]
    fn a_long_name_is_cut_in_the_middle_keeping_both_ends() {
        assert_eq!(
            fit_middle("docs-kit:api-reference", 22),
            "docs-kit:api-reference"
        );
        assert_eq!(fit_middle("docs-kit:api-reference", 16), "docs-…-reference");
        assert_eq!(
            fit_middle("docs-kit:diagrams-mermaid", 16),
            "docs-…ms-mermaid"
        );
        assert_eq!(fit_middle("漢字漢字漢字漢字漢字", 9), "漢…字漢字");
        assert_eq!(fit_middle("abcdefgh", 4), "abc…");
    }

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
