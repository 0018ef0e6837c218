//! OpenCode: a `permission.skill` rule `"<name>": "deny"` in `opencode.json` or
//! `opencode.jsonc`, the global one (`~/.config/opencode`) for the user scope, the project's
//! for the project scope. OpenCode merges the files it reads (the later wins key by key) and
//! lets the last pattern that matches a name decide (`*` and `?` wildcards); a
//! `permission.skill` that is one word for every skill becomes `{"*": word}` first, so it keeps
//! its meaning. Enabling takes the name's deny rules out and, when a pattern still denies it,
//! adds an allow rule for the name.

use std::path::{Path, PathBuf};

use jsonc_parser::cst::CstInputValue;

use super::plan::{Edit, Plan, Step, after, json_value, text};
use super::{Request, SwitchError, Turn};
use crate::roots::{AgentId, Machine, Project, Scope};
use crate::settings::json;

const ME: AgentId = AgentId::OPENCODE;
const RESTART: &str =
    "OpenCode reads its config when it starts: restart a running session to see the change";

// TODO(merge, issue 13): replace with `roots::table::opencode::config_files` (helper D's
// reader), so the reader and this writer share one list. Until then, the files OpenCode 1.18
// reads, lowest precedence first, as far as this writer needs them.
fn config_files(machine: &Machine, project: &Project) -> Vec<PathBuf> {
    let mut dirs = vec![global_dir(machine)];
    dirs.push(project.top().to_path_buf());
    if project.start() != project.top() {
        dirs.push(project.start().to_path_buf());
    }
    if let Some(dir) = machine.env.var("OPENCODE_CONFIG_DIR") {
        dirs.push(PathBuf::from(dir));
    }
    dirs.iter()
        .flat_map(|dir| [dir.join("opencode.json"), dir.join("opencode.jsonc")])
        .collect()
}

fn global_dir(machine: &Machine) -> PathBuf {
    machine
        .env
        .var("XDG_CONFIG_HOME")
        .map_or_else(|| machine.home().join(".config"), PathBuf::from)
        .join("opencode")
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

pub(super) fn plan(
    machine: &Machine,
    request: Request<'_>,
    turn: Turn,
) -> Result<Plan, SwitchError> {
    let project = Project::locate(&machine.project);
    let files = config_files(machine, &project);
    let name = request.skill.name_for(ME).into_owned();
    let mut now = Vec::new();
    for file in &files {
        now.push((file.clone(), json_value(file, &text(file)?)));
    }
    if denied(&now, &name) == (turn == Turn::Off) {
        return Ok(Plan::nothing());
    }
    let target = match request.scope {
        Some(Scope::Project) => file_in(project.top()),
        Some(Scope::User) | None => file_in(&global_dir(machine)),
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
            .filter(|(_, value)| action_of(value, &name) == Some("deny"))
            .map(|(file, _)| Step {
                file: file.clone(),
                edit: unrule(name.clone()),
            })
            .collect(),
    };
    let mut then = planned(&now, &steps)?;
    if turn == Turn::On && denied(&then, &name) {
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
        then = planned(&now, &steps)?;
    }
    if denied(&then, &name) != (turn == Turn::Off) {
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

/// The files' values once the steps are written.
fn planned(
    now: &[(PathBuf, serde_json::Value)],
    steps: &[Step],
) -> Result<Vec<(PathBuf, serde_json::Value)>, SwitchError> {
    let mut then = Vec::new();
    for (file, value) in now {
        match steps.iter().find(|step| step.file == *file) {
            Some(step) => then.push((file.clone(), json_value(file, &after(file, &step.edit)?))),
            None => then.push((file.clone(), value.clone())),
        }
    }
    Ok(then)
}

/// One file's `permission.skill` as ordered rules.
fn rules(value: &serde_json::Value) -> Vec<(String, String)> {
    match value.pointer("/permission/skill") {
        Some(serde_json::Value::String(word)) => vec![("*".into(), word.clone())],
        Some(serde_json::Value::Object(map)) => map
            .iter()
            .filter_map(|(pattern, action)| Some((pattern.clone(), action.as_str()?.to_owned())))
            .collect(),
        _ => Vec::new(),
    }
}

fn action_of<'v>(value: &'v serde_json::Value, name: &str) -> Option<&'v str> {
    value.pointer("/permission/skill")?.get(name)?.as_str()
}

/// Whether OpenCode denies the skill `name` under these files: their rules merged key by key,
/// the last matching pattern deciding.
fn denied(files: &[(PathBuf, serde_json::Value)], name: &str) -> bool {
    let mut merged: Vec<(String, String)> = Vec::new();
    for (_, value) in files {
        for (pattern, action) in rules(value) {
            match merged.iter_mut().find(|(seen, _)| *seen == pattern) {
                Some(slot) => slot.1 = action,
                None => merged.push((pattern, action)),
            }
        }
    }
    merged
        .iter()
        .rev()
        .find(|(pattern, _)| wildcard(pattern, name))
        .is_some_and(|(_, action)| action == "deny")
}

/// OpenCode's wildcard: `*` any run of characters, `?` one, everything else itself.
fn wildcard(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let name: Vec<char> = name.chars().collect();
    let (mut p, mut n, mut star, mut mark) = (0, 0, None, 0);
    while n < name.len() {
        if p < pattern.len() && (pattern[p] == '?' || pattern[p] == name[n]) {
            p += 1;
            n += 1;
        } else if p < pattern.len() && pattern[p] == '*' {
            star = Some(p);
            mark = n;
            p += 1;
        } else if let Some(s) = star {
            p = s + 1;
            mark += 1;
            n = mark;
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|c| *c == '*')
}

/// The edit that sets `permission.skill[name]` to `action`, making a one-word
/// `permission.skill` into `{"*": word}` first.
fn rule(name: String, action: &'static str) -> Edit {
    Box::new(move |file, text| {
        let root = json::parse(file, text)?;
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
        let root = json::parse(file, text)?;
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

    fn run(edit: &Edit, text: &str) -> String {
        edit(Path::new("opencode.jsonc"), text).unwrap().unwrap()
    }

    #[test]
    fn a_one_word_permission_keeps_its_meaning() {
        let text = "{\n  // mine\n  \"permission\": {\"skill\": \"ask\", \"bash\": \"allow\"}\n}\n";
        let out = run(&rule("pdf".into(), "deny"), text);
        let value = json_value(Path::new("o"), &out);
        assert_eq!(
            value["permission"]["skill"],
            serde_json::json!({"*": "ask", "pdf": "deny"})
        );
        assert!(out.starts_with("{\n  // mine\n"));
        assert_eq!(value["permission"]["bash"], "allow");
    }

    #[test]
    fn the_last_matching_pattern_decides() {
        let files = |rules: serde_json::Value| {
            vec![(
                PathBuf::from("a"),
                serde_json::json!({"permission": {"skill": rules}}),
            )]
        };
        assert!(denied(
            &files(serde_json::json!({"*": "allow", "p*": "deny"})),
            "pdf"
        ));
        assert!(!denied(
            &files(serde_json::json!({"p*": "deny", "pdf": "allow"})),
            "pdf"
        ));
        assert!(denied(&files(serde_json::json!("deny")), "pdf"));
        assert!(!denied(&files(serde_json::json!({"x?": "deny"})), "pdf"));
        assert!(wildcard("p?f", "pdf") && wildcard("*", "") && !wildcard("p", "pdf"));
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
