//! What a switch will write, worked out before anything is: one edit per settings file, each
//! a function of the file's text, so it is applied to what the file holds when it is written
//! (and refused if the file changes under it); and the edits written one after another, the
//! earlier ones put back when a later one fails.

use std::path::{Path, PathBuf};

use crate::operations::SettingsChange;
use crate::roots::{Machine, Project};
use crate::settings::dialect::Dialect;
use crate::settings::{self, EditError};

use super::{Request, SwitchError, Turn};

/// A switch as every agent's writer starts from it: what was asked, the project the machine's
/// folder is in, and the name the agent knows the skill by (what its settings name).
pub(super) struct Asked<'a> {
    pub machine: &'a Machine,
    pub request: Request<'a>,
    pub turn: Turn,
    pub project: Project,
    pub name: String,
}

impl<'a> Asked<'a> {
    pub(super) fn new(machine: &'a Machine, request: Request<'a>, turn: Turn) -> Self {
        Self {
            machine,
            request,
            turn,
            project: Project::locate(&machine.project),
            name: request.skill.name_for(request.agent).into_owned(),
        }
    }

    /// Each part, for a writer to name.
    pub(super) fn parts(self) -> (&'a Machine, Request<'a>, Turn, Project, String) {
        (
            self.machine,
            self.request,
            self.turn,
            self.project,
            self.name,
        )
    }
}

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
    settings::json::lists(&json_value(file, text, dialect), keys, name, &|a, b| {
        case.same(a, b)
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
        settings::json::edit_list(file, text, dialect, keys, &name, add, &|a, b| {
            case.same(a, b)
        })
    })
}
