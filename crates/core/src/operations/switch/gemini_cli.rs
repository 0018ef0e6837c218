//! Gemini CLI: `skills.disabled`, a list of names matched whatever their case, in the user's
//! `settings.json` (under `GEMINI_CLI_HOME` when set) or the workspace's
//! `.gemini/settings.json`; the lists of every file it reads add up, the system file's too.
//! Enabling takes the name out of every file it can write, as its own `/skills enable` does.

use super::plan::{Asked, Case, Plan, Step, list_edit, listed, text};
use super::{SwitchError, Turn};
use crate::roots::Scope;
use crate::roots::switch_files::gemini_cli as files;
use crate::settings::dialect::{Dialect, Syntax};

const KEYS: &[&str] = &["skills", "disabled"];
/// Gemini CLI reads its settings files with strip-json-comments, then `JSON.parse`.
pub(crate) const READS: Dialect = Dialect {
    agent: "Gemini CLI",
    syntax: Syntax::CommentsStripped,
};
const RESTART: &str =
    "Gemini CLI reads its settings when it starts: restart a running session to see the change";

pub(super) fn plan(asked: Asked<'_>) -> Result<Plan, SwitchError> {
    let (machine, request, turn, project, name) = asked.parts();
    let files = files::files(&machine.env, &project);
    let lists = |file: &std::path::Path| -> Result<bool, SwitchError> {
        Ok(listed(file, &text(file)?, READS, KEYS, &name, Case::Any))
    };
    let mut off_now = false;
    for file in files.read() {
        off_now |= lists(&file)?;
    }
    if off_now == (turn == Turn::Off) {
        return Ok(Plan::nothing());
    }
    let writable: Vec<_> = files
        .user
        .iter()
        .cloned()
        .chain([files.workspace.clone()])
        .collect();
    let steps = match turn {
        Turn::Off => {
            let file = match request.scope {
                Some(Scope::Project) if !files.workspace_read => {
                    return Err(SwitchError::Scope {
                        reason: format!(
                            "Gemini CLI does not trust {}, so it ignores {} there; disable it for the user instead, or trust the folder in Gemini CLI first",
                            project.start().display(),
                            files.workspace.display()
                        ),
                    });
                }
                Some(Scope::Project) => files.workspace.clone(),
                Some(Scope::User) | None => files.user.clone().ok_or(SwitchError::NoFile {
                    agent: request.agent,
                    scope: "user",
                })?,
                Some(_) => {
                    return Err(SwitchError::Scope {
                        reason: "Gemini CLI's skill settings are the user's settings.json (--scope user) or the workspace's .gemini/settings.json (--scope project)".into(),
                    });
                }
            };
            vec![Step {
                file,
                edit: list_edit(READS, KEYS, name.clone(), true, Case::Any),
            }]
        }
        Turn::On => {
            if lists(&files.system)? {
                return Err(SwitchError::Overruled {
                    reason: format!(
                        "{} (Gemini CLI's system settings, which an administrator writes) lists {name} in skills.disabled, and Gemini CLI adds that list to the others; skilldeck does not edit it",
                        files.system.display()
                    ),
                });
            }
            let mut steps = Vec::new();
            for file in writable {
                if lists(&file)? {
                    steps.push(Step {
                        file,
                        edit: list_edit(READS, KEYS, name.clone(), false, Case::Any),
                    });
                }
            }
            steps
        }
    };
    Ok(Plan {
        steps,
        notes: vec![RESTART.into()],
    })
}
