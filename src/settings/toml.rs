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
    // toml_edit would pass over a mark here, but this one is a second: Codex's parser passes
    // over the first only, and the file's layout keeps the first for the write.
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
