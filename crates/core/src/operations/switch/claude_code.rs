//! Claude Code: `skillOverrides: {"<name>": "off"}` in the user's `settings.json` (the user
//! scope) or the repository root's `.claude/settings.local.json` (the project scope, what its
//! own `/skills` menu writes); the file read last that names the skill wins
//! (`switch_files::claude_code::files`, managed settings last). Enabling takes the
//! `"off"` out of every file that sets it. A plugin's skill is out of `skillOverrides`' reach
//! (anthropics/claude-code#76156): only `enabledPlugins: {"plugin@marketplace": false}` turns
//! it off, with the rest of its plugin.

use std::path::{Path, PathBuf};

use jsonc_parser::cst::CstInputValue;

use super::plan::{Asked, Edit, Plan, Step, after, json_value, text};
use super::{Request, SwitchError, Turn};
use crate::roots::switch_files::claude_code as files;
use crate::roots::{AgentId, Machine, Project, Scope};
use crate::settings::dialect::{self, Dialect, Syntax};
use crate::settings::json;

const OVERRIDES: &str = "skillOverrides";
/// Claude Code reads its settings with `JSON.parse`: see [`plain_json`].
const READS: Dialect = Dialect {
    agent: "Claude Code",
    syntax: Syntax::Json,
};

pub(super) fn plan(asked: Asked<'_>) -> Result<Plan, SwitchError> {
    let (machine, request, turn, project, name) = asked.parts();
    let skill = request.skill;
    if is_plugin_skill(request.agent, skill) {
        return plugin(machine, &project, request, turn);
    }
    let read = files::files(&machine.env, &project);
    let overrides_now = |file: &Path| -> Result<Option<String>, SwitchError> {
        // A file Claude Code cannot read says nothing, to it as here.
        let text = text(file)?;
        Ok(plain_json(request.agent, file, &text)
            .ok()
            .and_then(|()| value_in(&json_value(file, &text, READS), &name)))
    };
    let mut now = Vec::new();
    for file in &read {
        now.push((file.clone(), overrides_now(file)?));
    }
    if (winner(&now).as_deref() == Some("off")) == (turn == Turn::Off) {
        return Ok(Plan {
            steps: Vec::new(),
            notes: Vec::new(),
        });
    }
    let steps: Vec<Step> = match turn {
        Turn::Off => {
            let file = match request.scope {
                Some(Scope::Project) => files::local_file(&project),
                Some(Scope::User) | None => {
                    files::user_file(&machine.env, &project).ok_or(SwitchError::NoFile {
                        agent: request.agent,
                        scope: "user",
                    })?
                }
                Some(_) => return Err(scope_refused()),
            };
            plain_json(request.agent, &file, &text(&file)?)?;
            vec![Step {
                file,
                edit: set_off(name.clone()),
            }]
        }
        Turn::On => now
            .iter()
            .filter(|(_, value)| value.as_deref() == Some("off"))
            .map(|(file, _)| Step {
                file: file.clone(),
                edit: drop_off(name.clone()),
            })
            .collect(),
    };
    // What Claude Code will make of the files once they are written.
    let mut then = Vec::new();
    for (file, value) in now {
        match steps.iter().find(|step| step.file == file) {
            Some(step) => {
                let text = after(&file, &step.edit)?;
                then.push((
                    file.clone(),
                    value_in(&json_value(&file, &text, READS), &name),
                ));
            }
            None => then.push((file, value)),
        }
    }
    if turn == Turn::Off && winner(&then).as_deref() != Some("off") {
        let (file, value) = then
            .iter()
            .rev()
            .find(|(_, value)| value.is_some())
            .cloned()
            .unwrap_or_default();
        return Err(SwitchError::Overruled {
            reason: format!(
                "{} sets skillOverrides {name:?} to {:?}, and Claude Code lets that more local file win; disable it with --scope project, or change that file",
                file.display(),
                value.unwrap_or_default()
            ),
        });
    }
    Ok(Plan {
        steps,
        notes: Vec::new(),
    })
}

/// Claude Code reads its settings as plain JSON: a comment or a trailing comma makes it ignore
/// the whole file (seen in the listing of 2.1.332, `agree::claude_code_settings_with_comments`),
/// so a skill turned off in such a file would stay on.
fn plain_json(agent: AgentId, file: &Path, text: &str) -> Result<(), SwitchError> {
    if text.trim().is_empty() {
        return Ok(());
    }
    match dialect::read(text, READS.syntax) {
        Ok(_) => Ok(()),
        Err(at) if at.by_agent => Err(SwitchError::NotPlainJson {
            agent,
            file: file.to_path_buf(),
            why: format!("{} at line {}, column {}", at.reason, at.line, at.column),
        }),
        // Claude Code reads it; it is skilldeck that does not follow it so deep.
        Err(_) => json::read(file, text, READS)
            .map(drop)
            .map_err(SwitchError::from),
    }
}

/// The skill's entry in one file's `skillOverrides`.
fn value_in(settings: &serde_json::Value, name: &str) -> Option<String> {
    settings
        .get(OVERRIDES)?
        .get(name)?
        .as_str()
        .map(str::to_owned)
}

/// The value of the most local file that names the skill.
fn winner(values: &[(PathBuf, Option<String>)]) -> Option<String> {
    values.iter().rev().find_map(|(_, value)| value.clone())
}

fn set_off(name: String) -> Edit {
    Box::new(move |file, text| {
        json::edit_member(file, text, READS, &[OVERRIDES], &name, Some("off"))
    })
}

/// Take the skill's `"off"` out, and only an `"off"`.
fn drop_off(name: String) -> Edit {
    Box::new(move |file, text| {
        if value_in(&json_value(file, text, READS), &name).as_deref() != Some("off") {
            return Ok(None);
        }
        json::edit_member(file, text, READS, &[OVERRIDES], &name, None)
    })
}

fn scope_refused() -> SwitchError {
    SwitchError::Scope {
        reason: "Claude Code's skill settings are the user's settings.json (--scope user) or the project's .claude/settings.local.json (--scope project)".into(),
    }
}

/// Whether the skill is a plugin's that Claude Code reaches as one (`plugin:skill`), out of
/// `skillOverrides`' reach; a turned-off plugin's skill, which it does not reach now, too.
pub(super) fn is_plugin_skill(agent: AgentId, skill: &crate::scan::Skill) -> bool {
    skill.plugin.is_some()
        && skill
            .claims
            .iter()
            .filter(|claim| claim.agent == agent)
            .all(|claim| !claim.plain)
}

/// The plugin's `enabledPlugins` key, `plugin@marketplace`, and its folder, from where Claude
/// Code caches it: `cache/<marketplace>/<plugin>/<version>/…`.
fn plugin_key(skill_dir: &Path) -> Option<(String, PathBuf)> {
    skill_dir.ancestors().find_map(|version| {
        let plugin = version.parent()?;
        let marketplace = plugin.parent()?;
        if marketplace.parent()?.file_name()? != "cache" {
            return None;
        }
        let name = |p: &Path| p.file_name()?.to_str().map(str::to_owned);
        Some((
            format!("{}@{}", name(plugin)?, name(marketplace)?),
            version.to_path_buf(),
        ))
    })
}

/// A plugin's skill: its whole plugin on or off in `enabledPlugins`, when the caller said so.
fn plugin(
    machine: &Machine,
    project: &Project,
    request: Request<'_>,
    turn: Turn,
) -> Result<Plan, SwitchError> {
    let skill = request.skill;
    let plugin = skill.plugin.clone().unwrap_or_default();
    let Some((key, plugin_dir)) = plugin_key(&skill.dir).or_else(|| plugin_key(&skill.real_dir))
    else {
        return Err(SwitchError::Overruled {
            reason: format!(
                "{} comes with the Claude Code plugin {plugin}, which is not read from Claude Code's plugin cache, so skilldeck cannot tell its enabledPlugins key; run `claude plugin disable` for it",
                skill.name
            ),
        });
    };
    if !request.whole_plugin {
        let others: Vec<String> = crate::plugin::skill_dirs(&plugin_dir, &[])
            .iter()
            .filter(|dir| **dir != skill.dir && **dir != skill.real_dir)
            .filter_map(|dir| Some(format!("{plugin}:{}", dir.file_name()?.to_str()?)))
            .collect();
        return Err(SwitchError::WholePlugin {
            skill: skill.name.clone(),
            plugin: key,
            others: if others.is_empty() {
                "nothing else (it has no other skills)".into()
            } else {
                others.join(", ")
            },
        });
    }
    let file = match request.scope {
        Some(Scope::Project) => files::project_file(project),
        _ => files::user_file(&machine.env, project).ok_or(SwitchError::NoFile {
            agent: request.agent,
            scope: "user",
        })?,
    };
    let wanted = turn == Turn::On;
    let text = text(&file)?;
    plain_json(request.agent, &file, &text)?;
    let now = json_value(&file, &text, READS);
    if now.pointer(&format!(
        "/enabledPlugins/{}",
        key.replace('~', "~0").replace('/', "~1")
    )) == Some(&serde_json::Value::Bool(wanted))
    {
        return Ok(Plan {
            steps: Vec::new(),
            notes: Vec::new(),
        });
    }
    let edit_key = key.clone();
    let edit: Edit = Box::new(move |file, text| {
        let root = json::parse(file, text, READS)?;
        json::unique(&root, file, READS, &["enabledPlugins", &edit_key])?;
        let enabled = json::object_at(&root, file, &["enabledPlugins"])?;
        json::set(&enabled, &edit_key, CstInputValue::Bool(wanted));
        let what = format!("enabledPlugins {edit_key:?} set to {wanted}");
        json::seen(file, root.to_string(), READS, &what, |value| {
            value
                .get("enabledPlugins")
                .and_then(|plugins| plugins.get(&edit_key))
                == Some(&serde_json::Value::Bool(wanted))
        })
    });
    Ok(Plan {
        steps: vec![Step { file, edit }],
        notes: vec![format!(
            "this turned {} the whole Claude Code plugin {key}, every skill in it",
            if wanted { "on" } else { "off" }
        )],
    })
}
