//! A line of typed text edited the way a shell edits one: a cursor that moves by character and
//! to either end, Backspace and Delete on either side of it, Ctrl-U and Ctrl-W. Every field
//! the app types into (a search, a path) is one, so they all edit alike.

use unicode_width::UnicodeWidthChar;

/// An edit of a line, as the keymap names it (the characters typed are `Action::Type`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Edit {
    /// One character left.
    #[default]
    Left,
    /// One character right.
    Right,
    /// To the start of the line.
    Home,
    /// To the end of the line.
    End,
    /// The character before the cursor (Backspace).
    EraseBack,
    /// The character under the cursor (Delete).
    EraseForward,
    /// Everything before the cursor (Ctrl-U).
    EraseToStart,
    /// The word before the cursor and the spaces after it (Ctrl-W): a word ends at a space or
    /// a `/`, so a path loses one folder at a time.
    EraseWord,
}

/// The text and where the cursor is in it (a byte offset, always on a character boundary).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineEdit {
    text: String,
    cursor: usize,
}

impl LineEdit {
    /// `text`, with the cursor at its end, as a prefilled field starts.
    pub fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        let cursor = text.len();
        LineEdit { text, cursor }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The cursor, counted in characters from the start.
    pub fn cursor_chars(&self) -> usize {
        self.text[..self.cursor].chars().count()
    }

    /// Replace the whole text, the cursor at its end.
    pub fn set(&mut self, text: impl Into<String>) {
        *self = LineEdit::new(text);
    }

    pub fn clear(&mut self) {
        self.set(String::new());
    }

    /// Type `c` at the cursor.
    pub fn insert(&mut self, c: char) {
        self.text.insert(self.cursor, c);
        self.cursor += c.len_utf8();
    }

    /// Apply `edit`; whether the text changed (a search reruns only then).
    pub fn apply(&mut self, edit: Edit) -> bool {
        let before = self.text.len();
        match edit {
            Edit::Left => self.cursor = self.previous_boundary(self.cursor),
            Edit::Right => self.cursor = self.next_boundary(self.cursor),
            Edit::Home => self.cursor = 0,
            Edit::End => self.cursor = self.text.len(),
            Edit::EraseBack => {
                let start = self.previous_boundary(self.cursor);
                self.text.replace_range(start..self.cursor, "");
                self.cursor = start;
            }
            Edit::EraseForward => {
                let end = self.next_boundary(self.cursor);
                self.text.replace_range(self.cursor..end, "");
            }
            Edit::EraseToStart => {
                self.text.replace_range(..self.cursor, "");
                self.cursor = 0;
            }
            Edit::EraseWord => {
                let start = self.word_start();
                self.text.replace_range(start..self.cursor, "");
                self.cursor = start;
            }
        }
        self.text.len() != before
    }

    /// The part of the line that fits in `columns` of screen, scrolled so the cursor shows:
    /// the index of its first character, and the cursor's column from there. The caller draws
    /// the characters from that index, made safe for a terminal one for one.
    pub fn window(&self, columns: usize) -> (usize, usize) {
        // The columns each character takes, up to the cursor; the window starts as late as
        // needed for the cursor (and one column after it) to fit.
        let before: Vec<usize> = self.text[..self.cursor]
            .chars()
            .map(|c| c.width().unwrap_or(0))
            .collect();
        let mut used: usize = 1;
        let mut first = before.len();
        while first > 0 && used + before[first - 1] <= columns.max(1) {
            used += before[first - 1];
            first -= 1;
        }
        let column = before[first..].iter().sum();
        (first, column)
    }

    fn previous_boundary(&self, at: usize) -> usize {
        self.text[..at]
            .char_indices()
            .next_back()
            .map_or(0, |(i, _)| i)
    }

    fn next_boundary(&self, at: usize) -> usize {
        self.text[at..]
            .chars()
            .next()
            .map_or(at, |c| at + c.len_utf8())
    }

    /// Where Ctrl-W erases back to: past the separators just before the cursor, then past the
    /// word before them.
    fn word_start(&self) -> usize {
        let separates = |c: char| c.is_whitespace() || c == '/';
        let before = &self.text[..self.cursor];
        let trimmed = before.trim_end_matches(separates);
        trimmed
            .char_indices()
            .rev()
            .find(|&(_, c)| separates(c))
            .map_or(0, |(i, c)| i + c.len_utf8())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, cursor_chars: usize) -> LineEdit {
        let mut line = LineEdit::new(text);
        line.apply(Edit::Home);
        for _ in 0..cursor_chars {
            line.apply(Edit::Right);
        }
        line
    }

    #[test]
    fn typing_goes_in_at_the_cursor() {
        let mut line = at("skil.tar.gz", 3);
        line.insert('l');
        assert_eq!(line.text(), "skill.tar.gz");
        assert_eq!(line.cursor_chars(), 4);
        let mut wide = at("日本", 1);
        wide.insert('é');
        assert_eq!(wide.text(), "日é本");
        assert_eq!(wide.cursor_chars(), 2);
    }

    #[test]
    fn edits_act_on_their_side_of_the_cursor() {
        let cases: &[(&str, usize, Edit, &str, usize, bool)] = &[
            ("abc", 3, Edit::Left, "abc", 2, false),
            ("abc", 0, Edit::Left, "abc", 0, false),
            ("abc", 1, Edit::Right, "abc", 2, false),
            ("abc", 3, Edit::Right, "abc", 3, false),
            ("abc", 2, Edit::Home, "abc", 0, false),
            ("abc", 1, Edit::End, "abc", 3, false),
            ("abc", 2, Edit::EraseBack, "ac", 1, true),
            ("abc", 0, Edit::EraseBack, "abc", 0, false),
            ("abc", 1, Edit::EraseForward, "ac", 1, true),
            ("abc", 3, Edit::EraseForward, "abc", 3, false),
            ("日本語", 2, Edit::EraseBack, "日語", 1, true),
            ("hello world", 8, Edit::EraseToStart, "rld", 0, true),
            ("hello world", 11, Edit::EraseWord, "hello ", 6, true),
            ("hello world  ", 13, Edit::EraseWord, "hello ", 6, true),
            ("~/skills/demo/", 14, Edit::EraseWord, "~/skills/", 9, true),
            ("~/skills/demo", 13, Edit::EraseWord, "~/skills/", 9, true),
            ("word", 4, Edit::EraseWord, "", 0, true),
            ("a b", 1, Edit::EraseWord, " b", 0, true),
            ("", 0, Edit::EraseWord, "", 0, false),
        ];
        for &(text, cursor, edit, after, cursor_after, changed) in cases {
            let mut line = at(text, cursor);
            assert_eq!(
                line.apply(edit),
                changed,
                "{edit:?} on {text:?} at {cursor}"
            );
            assert_eq!(line.text(), after, "{edit:?} on {text:?} at {cursor}");
            assert_eq!(
                line.cursor_chars(),
                cursor_after,
                "{edit:?} on {text:?} at {cursor}"
            );
        }
    }

    #[test]
    fn the_window_keeps_the_cursor_in_view() {
        // Everything fits: from the start, the cursor after the text.
        assert_eq!(LineEdit::new("abc").window(10), (0, 3));
        // Too long: the window ends one column after the cursor.
        assert_eq!(LineEdit::new("abcdefghij").window(5), (6, 4));
        // The cursor at the start shows the start.
        assert_eq!(at("abcdefghij", 0).window(5), (0, 0));
        // Wide characters take two columns each.
        assert_eq!(LineEdit::new("日本語").window(5), (1, 4));
    }
}
