//! The skill a snapshot command names: by its name (`pdf`, `plugin:skill`) or its folder, among
//! the skills on the machine, or among the folders snapshots were taken of (a skill that was
//! deleted can still be diffed and restored).

use std::path::{Path, PathBuf};

use crate::roots::Machine;
use crate::scan::{Inventory, Skill};
use crate::snapshot::export::ExportError;
use crate::snapshot::restore::RestoreError;
use crate::snapshot::{Snapshot, SnapshotError, Store};

use super::Failure;

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
            "no skill is named {arg} and no snapshot was taken of a folder by that name"
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

/// `arg` as an existing folder, links resolved, when it is one.
fn as_folder(arg: &str) -> Option<PathBuf> {
    let path = Path::new(arg);
    (path.components().count() > 1 || path.is_dir())
        .then(|| std::fs::canonicalize(path).ok())
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
