//! What a switch will write, worked out before anything is: one edit per settings file, each
//! a function of the file's text, so it is applied to what the file holds when it is written
//! (and refused if the file changes under it); and the edits written one after another, the
//! earlier ones put back when a later one fails.

use std::path::{Path, PathBuf};

use crate::operations::SettingsChange;
use crate::roots::Machine;
use crate::settings::dialect::Dialect;
use crate::settings::{self, EditError};

use super::SwitchError;

/// One file's edit: its new text, or `None` when it needs no change.
pub(super) type Edit = Box<dyn Fn(&Path, &str) -> Result<Option<String>, EditError>>;

pub(super) struct Step {
    pub file: PathBuf,
    pub edit: Edit,
}

/// The edits a switch makes, and the sentences for the user.
pub(super) struct Plan {
    pub steps: Vec<Step>,
    pub notes: Vec<String>,
}

/// The text `file` holds now, empty when there is no such file.
///
/// # Errors
/// When it cannot be read or is not text.
pub(super) fn text(file: &Path) -> Result<String, EditError> {
    let held = settings::read(&settings::resolve(file))?;
    held.text(file).map(str::to_owned)
}

/// The text `file` would hold after `edit`.
pub(super) fn after(file: &Path, edit: &Edit) -> Result<String, EditError> {
    let now = text(file)?;
    Ok(edit(file, &now)?.unwrap_or(now))
}

/// A JSON(C) file's value as the agent reads it: `Null` when it is missing or the agent cannot
/// read it (the agents skip such a file).
pub(super) fn json_value(file: &Path, text: &str, dialect: Dialect) -> serde_json::Value {
    settings::json::read(file, text, dialect).unwrap_or(serde_json::Value::Null)
}

/// `edited`, the text an edit made, when the agent reads it and sees what `wanted` asks of it:
/// the last check before a switch claims a change, whatever the editor did.
///
/// # Errors
/// [`EditError::Unseen`] saying what it would not see.
pub(super) fn seen(
    file: &Path,
    edited: String,
    dialect: Dialect,
    what: &str,
    wanted: impl Fn(&serde_json::Value) -> bool,
) -> Result<Option<String>, EditError> {
    match settings::json::read(file, &edited, dialect) {
        Ok(value) if wanted(&value) => Ok(Some(edited)),
        _ => Err(EditError::Unseen {
            file: file.to_path_buf(),
            agent: dialect.agent,
            what: what.to_owned(),
        }),
    }
}

/// Write every step, in order; when one fails, the ones before it are put back.
pub(super) fn apply(
    machine: &Machine,
    steps: Vec<Step>,
) -> Result<Vec<SettingsChange>, SwitchError> {
    let mut done: Vec<SettingsChange> = Vec::new();
    for step in steps {
        match settings::edit(machine, &step.file, |text| (step.edit)(&step.file, text)) {
            Ok(Some(change)) => done.push(change),
            Ok(None) => {}
            Err(error) => {
                for change in done.iter().rev() {
                    let _ = settings::revert(machine, change);
                }
                return Err(error.into());
            }
        }
    }
    Ok(done)
}

impl Plan {
    /// Nothing to write: the skill already is as asked.
    pub(super) fn nothing() -> Self {
        Self {
            steps: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// How names in a list of names are compared.
#[derive(Clone, Copy)]
pub(super) enum Case {
    Exact,
    Any,
}

impl Case {
    fn same(self, a: &str, b: &str) -> bool {
        match self {
            Case::Exact => a == b,
            Case::Any => a.to_lowercase() == b.to_lowercase(),
        }
    }
}

/// Whether the array of names at `keys` in `file`, read as the agent reads it, holds `name`.
pub(super) fn listed(
    file: &Path,
    text: &str,
    dialect: Dialect,
    keys: &[&str],
    name: &str,
    case: Case,
) -> bool {
    holds(&json_value(file, text, dialect), keys, name, case)
}

/// Whether the array of names at `keys` in `value` holds `name`.
fn holds(value: &serde_json::Value, keys: &[&str], name: &str, case: Case) -> bool {
    let mut at = value;
    for key in keys {
        match at.get(key) {
            Some(inner) => at = inner,
            None => return false,
        }
    }
    at.as_array().is_some_and(|names| {
        names
            .iter()
            .filter_map(serde_json::Value::as_str)
            .any(|listed| case.same(listed, name))
    })
}

/// The edit that adds `name` to the array of names at `keys` (made when missing), or takes
/// every spelling of it out.
pub(super) fn list_edit(
    dialect: Dialect,
    keys: &'static [&'static str],
    name: String,
    add: bool,
    case: Case,
) -> Edit {
    Box::new(move |file, text| {
        let root = settings::json::parse(file, text, dialect)?;
        settings::json::unique(&root, file, dialect, keys)?;
        let (last, parents) = keys.split_last().expect("a key path has a key");
        if add {
            let object = settings::json::object_at(&root, file, parents)?;
            let array = settings::json::array_in(&object, file, &keys.join("."), last)?;
            if settings::json::strings(&array)
                .iter()
                .any(|listed| case.same(listed, &name))
            {
                return Ok(None);
            }
            settings::json::push_string(&array, &name);
        } else {
            let Some(array) =
                settings::json::find_object(&root, parents).and_then(|o| o.array_value(last))
            else {
                return Ok(None);
            };
            if settings::json::remove_strings(&array, |listed| case.same(listed, &name)) == 0 {
                return Ok(None);
            }
        }
        let what = format!(
            "{name} {} {}",
            if add { "added to" } else { "taken out of" },
            keys.join(".")
        );
        seen(file, root.to_string(), dialect, &what, |value| {
            holds(value, keys, &name, case) == add
        })
    })
}
