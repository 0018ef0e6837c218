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

/// Copilot CLI's own `config.json`, read in its user dialect ([`Syntax::CopilotUser`]: one
/// probe each showed `trusted_folders` read with comments and trailing commas, and not with
/// single quotes or bare keys), or `None`.
pub(crate) fn copilot_config(path: &Path) -> Option<serde_json::Value> {
    as_read(path, Syntax::CopilotUser)
}

/// Copilot CLI's user `settings.json`, as its loader takes it ([`Syntax::CopilotUser`], then
/// its types, [`copilot_types_hold`]), or `None`.
pub(crate) fn copilot_user(path: &Path) -> Option<serde_json::Value> {
    as_read(path, Syntax::CopilotUser).filter(copilot_types_hold)
}

/// A repository's `.github/copilot/settings.json` or `settings.local.json`, as Copilot takes
/// it ([`Syntax::SerdeJson`], then its types), or `None`.
pub(crate) fn copilot_repository(path: &Path) -> Option<serde_json::Value> {
    as_read(path, Syntax::SerdeJson).filter(copilot_types_hold)
}

/// Copilot CLI 1.0.102 checks a settings file against its settings types before it uses any
/// of it: one key of the wrong type and the whole file counts for nothing (the repository's
/// warns "Settings config error: skillDirectories: Expected array, received number"; the
/// user's is dropped without a word), so `{"disabledSkills": ["x"], "model": 5}` turns
/// nothing off and `skillDirectories: ["/d", 5]` loses the file's `disabledSkills` too
/// (`copilot skill list --json`, generated classes `copilot-user-dialect` and
/// `copilot-repository`). The check is native (`runtime.node`); these are the keys whose
/// types were seen, and a key it does not know is allowed.
fn copilot_types_hold(settings: &serde_json::Value) -> bool {
    let Some(object) = settings.as_object() else {
        return false;
    };
    let strings = |key: &str| {
        object.get(key).is_none_or(|value| {
            value
                .as_array()
                .is_some_and(|items| items.iter().all(serde_json::Value::is_string))
        })
    };
    [
        "disabledSkills",
        "skillDirectories",
        "ignoredSkillsLocations",
    ]
    .into_iter()
    .all(strings)
        && object.get("model").is_none_or(serde_json::Value::is_string)
}

/// One settings file as Gemini CLI reads it (comments stripped, then `JSON.parse`; the
/// evidence is at [`Syntax::CommentsStripped`]), or `None` when it cannot.
pub(crate) fn gemini_cli(path: &Path) -> Option<serde_json::Value> {
    as_read(path, Syntax::CommentsStripped)
}
