//! What a lock's entry may hold, checked before any of it becomes a path, a git argument or a
//! hash: a lock comes with a repository, and is read as untrusted.

use super::super::json::{Json, Object};
use super::{COMMIT_FIELD, LOCAL};

/// What is wrong with one entry (or the skill name it is under), as a clause after "skill X:".
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum EntryProblem {
    #[error("its entry is not an object")]
    NotAnObject,
    #[error("the name is empty")]
    EmptyName,
    #[error("the name is a path that leads out of the skills folder, not a name")]
    NameIsAPath,
    #[error("the name holds control characters")]
    NameHasControls,
    #[error("the name starts with '-', which a command would read as an option")]
    NameIsAnOption,
    #[error("it has no \"{0}\"")]
    Missing(&'static str),
    #[error("its \"{0}\" is not text")]
    NotText(&'static str),
    #[error("its \"{0}\" is empty")]
    Empty(&'static str),
    #[error("its \"{key}\" {value:?} starts with '-', which git would read as an option")]
    AnOption { key: &'static str, value: String },
    #[error("its \"{0}\" holds control characters")]
    Controls(&'static str),
    #[error("its \"{COMMIT_FIELD}\" {0:?} is not a full commit id")]
    NotACommit(String),
    #[error("its \"computedHash\" {0:?} is not the 64 hexadecimal digits of a SHA-256")]
    NotAHash(String),
    #[error(
        "its \"{key}\" {path:?} is an absolute path; a lock names paths relative to the project"
    )]
    Absolute { key: &'static str, path: String },
    #[error("its \"{key}\" {path:?} holds a backslash, which the skills CLI never writes")]
    Backslash { key: &'static str, path: String },
    #[error("its \"{key}\" {path:?} climbs out of its source with '..'")]
    Climbs { key: &'static str, path: String },
}

/// Whether `name` is a skill name the lock may hold: one plain part of a path, since `sync`
/// installs the skill at `.agents/skills/NAME`.
///
/// # Errors
/// What is wrong with the name.
pub fn check_name(name: &str) -> Result<(), EntryProblem> {
    if name.is_empty() {
        return Err(EntryProblem::EmptyName);
    }
    if name == "." || name == ".." || name.contains(['/', '\\']) {
        return Err(EntryProblem::NameIsAPath);
    }
    if name.chars().any(char::is_control) {
        return Err(EntryProblem::NameHasControls);
    }
    if name.starts_with('-') {
        return Err(EntryProblem::NameIsAnOption);
    }
    Ok(())
}

/// Every field of one entry that is used as a path, a git argument or a hash, checked.
pub(super) fn check_entry(name: &str, fields: &Object) -> Result<(), EntryProblem> {
    check_name(name)?;
    let text = |key: &'static str, required: bool| -> Result<Option<&str>, EntryProblem> {
        match fields.get(key) {
            Some(Json::String(s)) => Ok(Some(s)),
            None if !required => Ok(None),
            None => Err(EntryProblem::Missing(key)),
            Some(_) => Err(EntryProblem::NotText(key)),
        }
    };
    let source = text("source", true)?.unwrap_or_default();
    let source_type = text("sourceType", true)?.unwrap_or_default();
    let hash = text("computedHash", true)?.unwrap_or_default();
    for (key, value) in [
        ("source", Some(source)),
        ("sourceUrl", text("sourceUrl", false)?),
        ("ref", text("ref", false)?),
        (COMMIT_FIELD, text(COMMIT_FIELD, false)?),
    ] {
        let Some(value) = value else { continue };
        if value.is_empty() && key != "ref" {
            return Err(EntryProblem::Empty(key));
        }
        if value.starts_with('-') {
            return Err(EntryProblem::AnOption {
                key,
                value: value.to_owned(),
            });
        }
        if value.chars().any(char::is_control) {
            return Err(EntryProblem::Controls(key));
        }
    }
    if source_type == LOCAL {
        check_relative("source", source, true)?;
    }
    if let Some(path) = text("skillPath", false)? {
        check_relative("skillPath", path, false)?;
    }
    if let Some(commit) = text(COMMIT_FIELD, false)?
        && !((commit.len() == 40 || commit.len() == 64)
            && commit.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Err(EntryProblem::NotACommit(commit.to_owned()));
    }
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(EntryProblem::NotAHash(hash.to_owned()));
    }
    Ok(())
}

/// A path an entry names inside its source or beside the lock: relative, `/`-separated, and
/// (unless `may_climb`, for a local source the CLI writes as `../x`) never leading out.
fn check_relative(key: &'static str, path: &str, may_climb: bool) -> Result<(), EntryProblem> {
    let absolute = path.starts_with('/')
        || path.starts_with('\\')
        || path.as_bytes().get(1) == Some(&b':')
        || path.starts_with('~');
    let path_owned = || path.to_owned();
    if absolute {
        return Err(EntryProblem::Absolute {
            key,
            path: path_owned(),
        });
    }
    if path.contains('\\') {
        return Err(EntryProblem::Backslash {
            key,
            path: path_owned(),
        });
    }
    if !may_climb && path.split('/').any(|part| part == "..") {
        return Err(EntryProblem::Climbs {
            key,
            path: path_owned(),
        });
    }
    Ok(())
}
