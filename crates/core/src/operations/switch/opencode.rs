//! OpenCode: a `permission.skill` rule `"<name>": "deny"` in `opencode.json` or
//! `opencode.jsonc`, the global one (`~/.config/opencode`) for the user scope, the project's
//! for the project scope. OpenCode merges the files it reads (the later wins key by key) and
//! lets the last pattern that matches a name decide (`*` and `?` wildcards); a
//! `permission.skill` that is one word for every skill becomes `{"*": word}` first, so it keeps
//! its meaning. Enabling takes the name's deny rules out and, when a pattern still denies it,
//! adds an allow rule for the name.

use std::path::{Path, PathBuf};

use jsonc_parser::cst::CstInputValue;

use super::plan::{Asked, Edit, Plan, Step, after, text};
use super::{SwitchError, Turn};
use crate::roots::switch_files::opencode;
use crate::roots::{AgentId, Machine, Project, Scope};
use crate::settings::dialect::{Dialect, Syntax};
use crate::settings::json;

/// OpenCode reads its config as JSONC (`roots::table::opencode::config`).
const READS: Dialect = Dialect {
    agent: "OpenCode",
    syntax: Syntax::Jsonc,
};
const RESTART: &str =
    "OpenCode reads its config when it starts: restart a running session to see the change";

/// The global config folder: where the lowest-precedence files OpenCode reads live.
fn global_dir(machine: &Machine, project: &Project) -> PathBuf {
    opencode::config_files(&machine.env, project)
        .first()
        .and_then(|file| file.parent())
        .map_or_else(
            || machine.home().join(".config/opencode"),
            Path::to_path_buf,
        )
}

/// The file to write in `dir`: the `.jsonc` one when it is there, else `opencode.json`.
fn file_in(dir: &Path) -> PathBuf {
    let jsonc = dir.join("opencode.jsonc");
    if jsonc.is_file() {
        jsonc
    } else {
        dir.join("opencode.json")
    }
}

pub(super) fn plan(asked: Asked<'_>) -> Result<Plan, SwitchError> {
    let (machine, request, turn, project, name) = asked.parts();
    let denied = |steps: &[Step]| -> Result<bool, SwitchError> {
        let planned = steps
            .iter()
            .map(|step| Ok((step.file.clone(), after(&step.file, &step.edit)?)))
            .collect::<Result<Vec<_>, SwitchError>>()?;
        Ok(opencode::would_deny(
            &machine.env,
            &project,
            &name,
            &planned,
        ))
    };
    if denied(&[])? == (turn == Turn::Off) {
        return Ok(Plan::nothing());
    }
    if !opencode::literal_pattern(&name, &machine.env) {
        return Err(wildcard_refused(machine, request.agent, &name, turn));
    }
    let mut now = Vec::new();
    for file in opencode::config_files(&machine.env, &project) {
        let text = text(&file)?;
        now.push((file, text));
    }
    let target = match request.scope {
        Some(Scope::Project) => file_in(project.top()),
        Some(Scope::User) | None => file_in(&global_dir(machine, &project)),
        Some(_) => {
            return Err(SwitchError::Scope {
                reason: "OpenCode's skill rules are in the global opencode.json (--scope user) or the project's (--scope project)".into(),
            });
        }
    };
    let mut steps: Vec<Step> = match turn {
        Turn::Off => vec![Step {
            file: target.clone(),
            edit: rule(name.clone(), "deny"),
        }],
        Turn::On => now
            .iter()
            .filter(|(file, text)| denies_by_name(file, text, &name))
            .map(|(file, _)| Step {
                file: file.clone(),
                edit: unrule(name.clone()),
            })
            .collect(),
    };
    if turn == Turn::On && denied(&steps)? {
        // A pattern still denies it: an allow rule for the name itself, where it wins.
        steps.retain(|step| step.file != target);
        let remove = unrule(name.clone());
        let allow = rule(name.clone(), "allow");
        let both: Edit = Box::new(move |file, text| {
            let text = remove(file, text)?.unwrap_or_else(|| text.to_owned());
            allow(file, &text)
        });
        steps.push(Step {
            file: target.clone(),
            edit: both,
        });
    }
    if denied(&steps)? != (turn == Turn::Off) {
        return Err(SwitchError::Overruled {
            reason: format!(
                "a later OpenCode config file's permission.skill rule decides {name} otherwise; {} alone cannot change it",
                target.display()
            ),
        });
    }
    Ok(Plan {
        steps,
        notes: vec![RESTART.into()],
    })
}

/// The refusal for a name no rule can single out: which other skills OpenCode loads now a rule
/// for it would reach too.
fn wildcard_refused(machine: &Machine, agent: AgentId, name: &str, turn: Turn) -> SwitchError {
    let inventory = crate::scan::scan(&machine.env, &machine.project, &|_| {});
    let mut others: Vec<String> = inventory
        .skills
        .iter()
        .filter(|skill| skill.agents.contains(&agent))
        .map(|skill| skill.name_for(agent).into_owned())
        .filter(|other| other != name && opencode::pattern_reaches(name, other, &machine.env))
        .collect();
    others.sort();
    others.dedup();
    let word = if turn == Turn::Off { "off" } else { "on" };
    let reach = if !opencode::pattern_reaches(name, name, &machine.env) {
        format!("would not reach {name:?} at all")
    } else if others.is_empty() {
        format!("would also turn {word} every skill its wildcards match that OpenCode loads later")
    } else {
        format!("would also turn {word} {}", others.join(", "))
    };
    SwitchError::Overruled {
        reason: format!(
            "OpenCode's permission.skill patterns read * and ? as wildcards, \\ as /, and ~ or $HOME at the start as the home folder, with no way to write them literally, so a rule for {name:?} {reach}; skilldeck did not write it (rename the skill, or write the rule you mean yourself)"
        ),
    }
}

/// Whether the file's own `permission.skill` has a `deny` rule for `name` itself.
fn denies_by_name(file: &Path, text: &str, name: &str) -> bool {
    json::parse(file, text, READS).is_ok_and(|root| {
        json::find_object(&root, &["permission", "skill"])
            .is_some_and(|skill| json::string_of(&skill, name).as_deref() == Some("deny"))
    })
}

/// The edit that sets `permission.skill[name]` to `action`, making a one-word
/// `permission.skill` into `{"*": word}` first.
fn rule(name: String, action: &'static str) -> Edit {
    Box::new(move |file, text| {
        let root = json::parse(file, text, READS)?;
        json::unique(&root, file, READS, &["permission", "skill", &name])?;
        let permission = json::object_at(&root, file, &["permission"])?;
        if let Some(word) = json::string_of(&permission, "skill") {
            json::set(
                &permission,
                "skill",
                CstInputValue::Object(vec![("*".into(), CstInputValue::String(word))]),
            );
        }
        let skill = json::object_at(&root, file, &["permission", "skill"])?;
        if json::string_of(&skill, &name).as_deref() == Some(action) {
            return Ok(None);
        }
        json::set_string(&skill, &name, action);
        Ok(Some(root.to_string()))
    })
}

/// The edit that takes a `deny` rule for `name` out of `permission.skill`.
fn unrule(name: String) -> Edit {
    Box::new(move |file, text| {
        let root = json::parse(file, text, READS)?;
        json::unique(&root, file, READS, &["permission", "skill", &name])?;
        let Some(skill) = json::find_object(&root, &["permission", "skill"]) else {
            return Ok(None);
        };
        if json::string_of(&skill, &name).as_deref() != Some("deny") {
            return Ok(None);
        }
        json::remove(&skill, &name);
        json::prune_empty(&root, &["permission", "skill"]);
        Ok(Some(root.to_string()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::switch::plan::json_value;

    fn run(edit: &Edit, text: &str) -> String {
        edit(Path::new("opencode.jsonc"), text).unwrap().unwrap()
    }

    #[test]
    fn a_one_word_permission_keeps_its_meaning() {
        let text = "{\n  // mine\n  \"permission\": {\"skill\": \"ask\", \"bash\": \"allow\"}\n}\n";
        let out = run(&rule("pdf".into(), "deny"), text);
        let value = json_value(Path::new("o"), &out, READS);
        assert_eq!(
            value["permission"]["skill"],
            serde_json::json!({"*": "ask", "pdf": "deny"})
        );
        assert!(out.starts_with("{\n  // mine\n"));
        assert_eq!(value["permission"]["bash"], "allow");
    }

    #[test]
    fn enabling_removes_the_deny_rule_and_an_emptied_object() {
        let text = "{\n  \"permission\": {\n    \"skill\": {\n      \"pdf\": \"deny\"\n    }\n  },\n  \"model\": \"x\"\n}\n";
        assert_eq!(
            run(&unrule("pdf".into()), text),
            "{\n  \"model\": \"x\"\n}\n"
        );
    }
}
