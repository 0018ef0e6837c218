//! What a switch will write, worked out before anything is: one edit per settings file, each
//! a function of the file's text, so it is applied to what the file holds when it is written
//! (and refused if the file changes under it); and the edits written one after another, the
//! earlier ones put back when a later one fails.

use std::path::{Path, PathBuf};

use crate::operations::SettingsChange;
use crate::roots::Machine;
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

/// A JSON(C) file's value as the agent reads it: `Null` when it is missing or does not parse
/// (the agents skip such a file).
pub(super) fn json_value(file: &Path, text: &str) -> serde_json::Value {
    settings::json::parse(file, text)
        .map(|root| settings::json::value(&root))
        .unwrap_or(serde_json::Value::Null)
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

/// Whether the array of names at `keys` in `file` holds `name`.
pub(super) fn listed(file: &Path, text: &str, keys: &[&str], name: &str, case: Case) -> bool {
    let value = json_value(file, text);
    let pointer: String = keys.iter().map(|key| format!("/{key}")).collect();
    value
        .pointer(&pointer)
        .and_then(serde_json::Value::as_array)
        .is_some_and(|names| {
            names
                .iter()
                .filter_map(serde_json::Value::as_str)
                .any(|listed| case.same(listed, name))
        })
}

/// The edit that adds `name` to the array of names at `keys` (made when missing), or takes
/// every spelling of it out.
pub(super) fn list_edit(
    keys: &'static [&'static str],
    name: String,
    add: bool,
    case: Case,
) -> Edit {
    Box::new(move |file, text| {
        let root = settings::json::parse(file, text)?;
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
        Ok(Some(root.to_string()))
    })
}
