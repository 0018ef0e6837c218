//! Editing TOML settings files (Codex's `config.toml`) in place, through toml_edit: comments,
//! blank lines, key order and the way each table is written stay as the user wrote them.

use std::path::Path;

use toml_edit::DocumentMut;

use super::{EditError, Unparsable};

/// `text` (the file, without its byte-order mark) as a document to edit; an empty file is an
/// empty document.
///
/// # Errors
/// [`EditError::Unparsable`] with the line and column where it fails.
pub fn parse(file: &Path, text: &str) -> Result<DocumentMut, EditError> {
    // Codex passes over a first byte-order mark (the write puts it back); toml_edit would
    // pass over a second one too, which Codex's parser refuses.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.starts_with('\u{feff}') {
        return Err(EditError::Unparsable(Unparsable {
            file: file.to_path_buf(),
            line: 1,
            column: 1,
            reason: "a second byte-order mark".into(),
        }));
    }
    text.parse::<DocumentMut>().map_err(|error| {
        let at = error.span().map_or(0, |span| span.start).min(text.len());
        let before = &text.as_bytes()[..at];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1);
        let column = text[line_start..at].chars().count() + 1;
        EditError::Unparsable(Unparsable {
            file: file.to_path_buf(),
            line,
            column,
            reason: error.message().trim().to_owned(),
        })
    })
}
