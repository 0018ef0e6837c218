//! Reading an agent's own settings files to tell what it loads: bounded and type-checked like
//! every foreign read, and a file that is missing, too big, not a regular file or not parsable
//! says nothing (no skill turned off, no folder trusted), never stops a listing.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use super::dialect::Syntax;
use crate::fs::{Links, read_bounded};

thread_local! {
    /// The settings files asked for on this thread while [`reading`] listens.
    static ASKED: RefCell<Option<Vec<PathBuf>>> = const { RefCell::new(None) };
}

/// What `read` returns, and every settings file it asked for, there or not, each once: the
/// files whose change changes what it reads, without a second list of them to keep in step
/// with each agent's own.
pub fn reading<T>(read: impl FnOnce() -> T) -> (T, Vec<PathBuf>) {
    let before = ASKED.with(|asked| asked.replace(Some(Vec::new())));
    let value = read();
    let files = ASKED
        .with(|asked| asked.replace(before))
        .unwrap_or_default();
    (value, files)
}

/// The bytes of a settings file no bigger than `limit`, or `None`.
pub(crate) fn bytes(path: &Path, limit: u64) -> Option<Vec<u8>> {
    ASKED.with(|asked| {
        if let Some(files) = asked.borrow_mut().as_mut()
            && !files.iter().any(|file| file == path)
        {
            files.push(path.to_path_buf());
        }
    });
    read_bounded(path, Links::Follow, limit).ok()
}

/// A JSON settings file as `JSON.parse` reads it (the agents that read theirs so ship
/// JavaScript), or `None`.
pub(crate) fn json(path: &Path) -> Option<serde_json::Value> {
    as_read(path, Syntax::Json)
}

/// A settings file as an agent reading it in `syntax` does (a key written twice is its last
/// copy), or `None` when the agent cannot read it: what the editor reads too
/// (`roots::dialect`), so a listing and a switch agree.
pub(crate) fn as_read(path: &Path, syntax: Syntax) -> Option<serde_json::Value> {
    let bytes = bytes(path, crate::limits::SETTINGS_FILE_BYTES)?;
    let text = std::str::from_utf8(&bytes).ok()?;
    super::dialect::read(text, syntax)
        .ok()
        .filter(|value| !value.is_null())
}

/// A JSON settings file that may hold comments and trailing commas, as Gemini CLI and Copilot
/// write theirs, as a value, or `None`.
pub(crate) fn jsonc(path: &Path) -> Option<serde_json::Value> {
    as_read(path, Syntax::Loose)
}

/// One settings file as Gemini CLI reads it (comments stripped, then `JSON.parse`; the
/// evidence is at [`Syntax::CommentsStripped`]), or `None` when it cannot.
pub(crate) fn gemini_cli(path: &Path) -> Option<serde_json::Value> {
    as_read(path, Syntax::CommentsStripped)
}
