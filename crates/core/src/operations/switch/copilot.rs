//! Copilot CLI: `disabledSkills`, a list of names, in `${COPILOT_HOME:-~/.copilot}/settings.json`
//! (the user scope) or the repository's `.github/copilot/settings.json` (the project scope),
//! whose names, and those of its `settings.local.json`, add to the user's in a folder Copilot
//! trusts (`roots::table::copilot::switches` reads them). Enabling takes the name out of all
//! three.

use super::plan::{Asked, Case, Plan, Step, list_edit, listed, text};
use super::{SwitchError, Turn};
use crate::roots::Scope;
use crate::roots::switch_files::copilot as files;
use crate::settings::dialect::{Dialect, Syntax};

const KEYS: &[&str] = &["disabledSkills"];
/// The user's settings.json, in Copilot's own dialect (`Syntax::CopilotUser`).
const USER: Dialect = Dialect {
    agent: "Copilot",
    syntax: Syntax::CopilotUser,
};
/// The repository's files, which Copilot reads as plain JSON without a byte-order mark.
const REPOSITORY: Dialect = Dialect {
    agent: "Copilot",
    syntax: Syntax::SerdeJson,
};

pub(super) fn plan(asked: Asked<'_>) -> Result<Plan, SwitchError> {
    let (machine, request, turn, project, name) = asked.parts();
    let user = files::user_file(&machine.env, &project);
    let repository = files::repository_file(&project);
    let user_path = user.clone();
    let dialect = move |file: &std::path::Path| {
        if user_path.as_deref() == Some(file) {
            USER
        } else {
            REPOSITORY
        }
    };
    let every: Vec<_> = user
        .iter()
        .cloned()
        .chain([repository.clone(), files::local_file(&project)])
        .collect();
    let mut off_now = false;
    let mut listing = Vec::new();
    for file in &every {
        let lists = listed(file, &text(file)?, dialect(file), KEYS, &name, Case::Exact);
        off_now |= lists;
        if lists {
            listing.push(file.clone());
        }
    }
    if off_now == (turn == Turn::Off) {
        return Ok(Plan::nothing());
    }
    let mut notes = Vec::new();
    let steps = match turn {
        Turn::Off => {
            let file = match request.scope {
                Some(Scope::Project) => {
                    notes.push(format!(
                        "Copilot reads {} only in a git repository, in a folder it trusts (trusted_folders in its config.json, or COPILOT_ALLOW_ALL=true)",
                        repository.display()
                    ));
                    repository
                }
                Some(Scope::User) | None => user.ok_or(SwitchError::NoFile {
                    agent: request.agent,
                    scope: "user",
                })?,
                Some(_) => {
                    return Err(SwitchError::Scope {
                        reason: "Copilot's skill settings are the user's settings.json (--scope user) or the repository's .github/copilot/settings.json (--scope project)".into(),
                    });
                }
            };
            vec![Step {
                edit: list_edit(dialect(&file), KEYS, name, true, Case::Exact),
                file,
            }]
        }
        Turn::On => listing
            .into_iter()
            .map(|file| Step {
                edit: list_edit(dialect(&file), KEYS, name.clone(), false, Case::Exact),
                file,
            })
            .collect(),
    };
    Ok(Plan { steps, notes })
}
