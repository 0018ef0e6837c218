//! The skill a snapshot command names: by its name (`pdf`, `plugin:skill`) or its folder, among
//! the skills on the machine, or among the folders snapshots were taken of (a skill that was
//! deleted can still be diffed and restored).

use std::path::{Path, PathBuf};

use crate::roots::Machine;
use crate::scan::{Inventory, Skill};
use crate::snapshot::export::ExportError;
use crate::snapshot::restore::RestoreError;
use crate::snapshot::{Snapshot, SnapshotError, Store};
use crate::text::suggest;

use super::json::RefusedJson;
use super::{Failure, Outcome};

/// A skill and one of its snapshots, as `diff` and `restore` take them.
#[derive(Debug, clap::Args)]
pub struct SnapshotOf {
    /// The skill, by name or folder
    #[arg(value_name = "SKILL")]
    skill: String,

    /// The snapshot, by id or the start of one [default: the latest]
    #[arg(long, value_name = "ID")]
    snapshot: Option<String>,
}

impl SnapshotOf {
    /// The skill's folder (links resolved) and the snapshot named.
    ///
    /// # Errors
    /// When no skill or several match, or the skill has no such snapshot.
    pub fn resolve(
        &self,
        machine: &Machine,
        store: &Store,
    ) -> Result<(PathBuf, Snapshot), Failure> {
        let dir = one(&super::scan(machine), store, &self.skill)?;
        let snapshot = store.find(&dir, self.snapshot.as_deref())?;
        Ok((dir, snapshot))
    }
}

/// The skills `arg` names: those called `arg`, or the one whose folder `arg` is.
pub fn matching<'a>(inventory: &'a Inventory, arg: &str) -> Vec<&'a Skill> {
    let folder = as_folder(arg);
    inventory
        .skills
        .iter()
        .filter(|skill| {
            skill.name == arg
                || folder
                    .as_deref()
                    .is_some_and(|f| f == skill.real_dir || f == skill.dir)
        })
        .collect()
}

/// The skill names on the machine closest to `arg`, a misspelt name (`brand-guideline` for
/// `brand-guidelines`): as `; did you mean X?`, or nothing when none is close. The core's one
/// rule ([`suggest::did_you_mean`]), over the skills' names and the agents' built-in ones.
pub fn did_you_mean(inventory: &Inventory, arg: &str) -> String {
    let names = inventory.skills.iter().map(|skill| skill.name.as_str());
    let builtins = inventory.builtins.iter().map(|builtin| builtin.name);
    suggest::did_you_mean(names.chain(builtins), arg)
}

/// The one skill folder `arg` names, links resolved, for a command that works on one.
///
/// # Errors
/// [`Failure::Refused`] when nothing matches, [`Failure::Usage`] when several do.
pub fn one(inventory: &Inventory, store: &Store, arg: &str) -> Result<PathBuf, Failure> {
    let mut dirs: Vec<PathBuf> = matching(inventory, arg)
        .iter()
        .map(|skill| skill.real_dir.clone())
        .collect();
    if dirs.is_empty() {
        // Not on the machine now: a folder that was snapshotted, by its path or its name. A
        // snapshot kept out of its folder's history has a record that lies: it names nothing.
        let folder = as_folder(arg).or_else(|| std::path::absolute(arg).ok());
        for snapshot in store.all()? {
            if snapshot.check_place().is_err() {
                continue;
            }
            let dir = &snapshot.info.dir;
            let named = folder.as_deref() == Some(dir.as_path())
                || dir.file_name().is_some_and(|name| name == arg);
            if named && !dirs.contains(dir) {
                dirs.push(dir.clone());
            }
        }
    }
    dirs.dedup();
    match dirs.len() {
        1 => Ok(dirs.swap_remove(0)),
        0 => Err(Failure::Refused(format!(
            "no skill is named {arg} and no snapshot was taken of a folder by that name{}",
            did_you_mean(inventory, arg)
        ))),
        _ => Err(Failure::Usage(format!(
            "{arg} names {} skills: {}; name one by its folder",
            dirs.len(),
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The one skill on the machine `arg` names, for a command that changes it (`remove`,
/// `link`, `copy`, `move`): a skill that is gone is not among them.
///
/// # Errors
/// [`Failure::Refused`] when nothing matches; [`Failure::Usage`] naming every candidate, with
/// its folder and agents, when several do.
pub fn live<'a>(
    inventory: &'a Inventory,
    machine: &Machine,
    arg: &str,
) -> Result<&'a Skill, Failure> {
    let mut found = matching(inventory, arg);
    match found.len() {
        1 => Ok(found.swap_remove(0)),
        0 => {
            let builtin = inventory.builtins.iter().find(|b| b.name == arg);
            Err(Failure::Refused(match builtin {
                Some(builtin) => format!(
                    "{arg} is built into {} and lives in no folder; `skilldeck disable {arg} --agent {}` turns it off",
                    builtin.agent.display_name(),
                    builtin.agent.id()
                ),
                None => match did_you_mean(inventory, arg) {
                    none if none.is_empty() => format!(
                        "no skill is named {arg}, and no skill folder is at that path; `skilldeck list` shows them"
                    ),
                    suggestion => format!(
                        "no skill is named {arg}, and no skill folder is at that path{suggestion}"
                    ),
                },
            }))
        }
        _ => {
            let home = machine.home();
            let candidates: Vec<String> = found
                .iter()
                .map(|skill| {
                    let agents: Vec<&str> = skill.agents.iter().map(|a| a.id()).collect();
                    format!(
                        "  {}  ({}; {})",
                        crate::text::human::path(&skill.dir, home, crate::text::Unsafe::Escaped),
                        skill.source,
                        if agents.is_empty() {
                            "no agent loads it".to_owned()
                        } else {
                            agents.join(", ")
                        }
                    )
                })
                .collect();
            Err(Failure::Usage(format!(
                "{arg} names {} skills; name one by its folder:\n{}",
                found.len(),
                candidates.join("\n")
            )))
        }
    }
}

/// The link `arg` names, when it is a path by which `skill` is reached that is a link.
pub fn link_named(skill: &Skill, arg: &str) -> Option<PathBuf> {
    let path = std::path::absolute(arg).ok()?;
    let is_link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
    (is_link && skill.reached_by.contains(&path)).then_some(path)
}

/// `arg` as an existing folder, links resolved, when it is one.
fn as_folder(arg: &str) -> Option<PathBuf> {
    let path = Path::new(arg);
    (path.components().count() > 1 || path.is_dir())
        .then(|| crate::fs::canonical(path).ok())
        .flatten()
}

/// A domain error as the exit code it gets: 1 when skilldeck refused, 3 when reading or
/// writing failed.
fn refused_or_stopped(refusal: bool, message: String) -> Failure {
    if refusal {
        Failure::Refused(message)
    } else {
        Failure::Stopped(message)
    }
}

impl From<SnapshotError> for Failure {
    fn from(error: SnapshotError) -> Self {
        refused_or_stopped(error.is_refusal(), error.to_string())
    }
}

impl From<RestoreError> for Failure {
    fn from(error: RestoreError) -> Self {
        refused_or_stopped(error.is_refusal(), error.to_string())
    }
}

impl From<ExportError> for Failure {
    fn from(error: ExportError) -> Self {
        refused_or_stopped(error.is_refusal(), error.to_string())
    }
}

/// End a managing command (`remove`, `link`, `undo`, ...) on `failure`: with `--json` the
/// refusal is also printed as `{"refused": {"code", "message"}}` on standard output. A refusal
/// exits 1, a usage error 2, a failure to read or write 3, as ever.
///
/// # Errors
/// `failure` itself, but for a refusal told as JSON, which is an outcome.
pub fn refuse(json: bool, code: &'static str, failure: Failure) -> Result<Outcome, Failure> {
    if !json {
        return Err(failure);
    }
    let code = match &failure {
        Failure::Refused(_) => code,
        Failure::Usage(_) => "usage",
        _ => "io_failure",
    };
    super::json::print(&RefusedJson::new(code, &failure.to_string()))?;
    match failure {
        Failure::Refused(message) => {
            super::eprint(&format!("skilldeck: {message}\n"))?;
            Ok(Outcome::Negative)
        }
        other => Err(other),
    }
}

/// A domain error of a managing command as its failure: refused (1) or stopped (3).
pub fn failure(refusal: bool, error: &dyn std::fmt::Display) -> Failure {
    refused_or_stopped(refusal, error.to_string())
}
