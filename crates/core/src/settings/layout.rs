//! The bytes of a settings file that carry no setting: a byte-order mark, the line endings
//! (CRLF, LF, or a mix), the lack of a final newline. The editors read past the mark where
//! their agent does, write text without it, and do not all keep the rest (toml_edit writes every line ending as LF and ends the
//! file with one), so the layout is put back after the edit: every line the editor kept gets
//! its own bytes again, and every line it added gets the file's line ending.
//!
//! Codex reads a `config.toml` that starts with a byte-order mark and has CRLF line endings,
//! and applies its `[[skills.config]]` entries (checked with the pinned Codex 0.171.0's
//! `codex debug prompt-input`: the disabled skill left the model's list), so the mark is kept
//! rather than dropped.

use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp, capture_diff_slices_deadline};

/// The byte-order mark, as UTF-8.
const BOM: &str = "\u{feff}";

/// How long the line diff may take before it settles for a coarser (still exact) answer: a
/// coarser diff only gives more lines the file's line ending, never loses a byte of a line.
const DIFF_TIME: Duration = Duration::from_millis(500);

/// `text` without its byte-order mark: what an editor works on.
fn body(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// One line: what it says, and the ending it has (`"\r\n"`, `"\n"`, or none at the end).
struct Line<'a> {
    content: &'a str,
    ending: &'a str,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    text.split_inclusive('\n')
        .map(|line| {
            let ending = if line.ends_with("\r\n") {
                "\r\n"
            } else if line.ends_with('\n') {
                "\n"
            } else {
                ""
            };
            Line {
                content: &line[..line.len() - ending.len()],
                ending,
            }
        })
        .collect()
}

/// The line ending most of `lines` have: LF when none has one (or as many are LF as CRLF).
fn style(lines: &[Line<'_>]) -> &'static str {
    let crlf = lines.iter().filter(|l| l.ending == "\r\n").count();
    let lf = lines.iter().filter(|l| l.ending == "\n").count();
    if crlf > lf { "\r\n" } else { "\n" }
}

/// `edited` (what an editor made of [`body`]`(original)`) laid out as `original` is: the mark
/// when it had one, each line the editor kept with its original bytes, each new line with the
/// file's line ending, and no final newline when `original` had none. An empty `original` (a
/// file being made) takes `edited` as it is.
pub(crate) fn restore(original: &str, edited: &str) -> String {
    let bom = if original.starts_with(BOM) { BOM } else { "" };
    let edited = body(edited);
    let old = lines(body(original));
    let new = lines(edited);
    if old.is_empty() {
        return format!("{bom}{edited}");
    }
    let ending = style(&old);
    let old_keys: Vec<&str> = old.iter().map(|l| l.content).collect();
    let new_keys: Vec<&str> = new.iter().map(|l| l.content).collect();
    let ops = capture_diff_slices_deadline(
        Algorithm::Myers,
        &old_keys,
        &new_keys,
        Instant::now().checked_add(DIFF_TIME),
    );
    // Each output line: its content and ending, the kept ones straight from `original`.
    let mut out: Vec<(&str, &str)> = Vec::with_capacity(new.len());
    for op in ops {
        match op {
            DiffOp::Equal { old_index, len, .. } => out.extend(
                old[old_index..old_index + len]
                    .iter()
                    .map(|l| (l.content, l.ending)),
            ),
            DiffOp::Delete { .. } => {}
            DiffOp::Insert {
                new_index, new_len, ..
            } => out.extend(
                new[new_index..new_index + new_len]
                    .iter()
                    .map(|l| (l.content, if l.ending.is_empty() { "" } else { ending })),
            ),
            // Lines the editor changed keep their own endings, one for one; the lines beyond
            // them are new.
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => out.extend(new[new_index..new_index + new_len].iter().enumerate().map(
                |(at, l)| {
                    let own = old[old_index..old_index + old_len]
                        .get(at)
                        .map_or(ending, |o| o.ending);
                    (l.content, if l.ending.is_empty() { "" } else { own })
                },
            )),
        }
    }
    let ends_open = old.last().is_some_and(|l| l.ending.is_empty());
    let last = out.len().saturating_sub(1);
    let mut text = String::with_capacity(original.len() + edited.len());
    text.push_str(bom);
    for (at, (content, own)) in out.into_iter().enumerate() {
        text.push_str(content);
        // A line that had no ending (the old last one) needs one when a line now follows it;
        // the last line ends as the original's last line did.
        text.push_str(match (at == last, own.is_empty()) {
            (false, true) => ending,
            (false, false) => own,
            (true, _) if ends_open => "",
            (true, true) => ending,
            (true, false) => own,
        });
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_lines_keep_their_endings_and_new_ones_take_the_files() {
        // What toml_edit does to a CRLF file: every ending LF, one table added.
        let original = "a = 1\r\nb = 2  \r\n";
        let edited = "a = 1\nb = 2  \n\n[[x]]\ny = 1\n";
        assert_eq!(
            restore(original, edited),
            "a = 1\r\nb = 2  \r\n\r\n[[x]]\r\ny = 1\r\n"
        );
    }

    #[test]
    fn a_mixed_file_keeps_each_lines_ending_and_new_lines_take_the_most_common() {
        let original = "a\r\nb\nc\r\nd\r\n";
        let edited = "a\nb\nnew\nc\nd\n";
        assert_eq!(restore(original, edited), "a\r\nb\nnew\r\nc\r\nd\r\n");
        let lf = "a\nb\r\nc\n";
        assert_eq!(restore(lf, "a\nb\nc\nz\n"), "a\nb\r\nc\nz\n");
    }

    #[test]
    fn the_mark_and_a_missing_final_newline_stay() {
        let original = "\u{feff}a = 1\r\n\r\n[t]\r\nb = 2";
        let edited = "a = 1\n\n[t]\nb = 2\nc = 3\n";
        assert_eq!(
            restore(original, edited),
            "\u{feff}a = 1\r\n\r\n[t]\r\nb = 2\r\nc = 3"
        );
        // Taking the line out again gives the original back.
        assert_eq!(
            restore(&restore(original, edited), "a = 1\n\n[t]\nb = 2\n"),
            original
        );
    }

    #[test]
    fn removed_lines_go_and_the_rest_stay_byte_for_byte() {
        let original = "# top \r\n[[s]]\r\np = 1\r\n\r\n[[s]]\r\np = 2\r\n# end";
        let edited = "# top \n[[s]]\np = 1\n# end\n";
        assert_eq!(
            restore(original, edited),
            "# top \r\n[[s]]\r\np = 1\r\n# end"
        );
    }

    #[test]
    fn a_new_file_is_as_the_editor_wrote_it() {
        assert_eq!(restore("", "{\n}\n"), "{\n}\n");
        assert_eq!(restore("\u{feff}", "a = 1\n"), "\u{feff}a = 1\n");
        assert_eq!(body("\u{feff}x"), "x");
        assert_eq!(body("x\u{feff}"), "x\u{feff}");
    }
}
