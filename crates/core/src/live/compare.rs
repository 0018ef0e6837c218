//! Which skills a rescan read again, which it found gone, and what their snapshots say of
//! them: the comparison of only those, not of every skill again.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::LiveError;
use crate::roots::Machine;
use crate::scan::{self, Inventory, Skill};
use crate::snapshot::Store;
use crate::snapshot::changes::{self, Changes, Subject};

/// What a rescan of the skills at some folders found.
#[derive(Debug)]
pub struct Rescanned {
    /// The inventory now: every skill decided again, only those that changed read again.
    pub inventory: Inventory,
    /// The folder of each skill read again, or not there before: in the inventory's order.
    pub rescanned: Vec<PathBuf>,
    /// The folder of each skill there before that a change took away.
    pub gone: Vec<PathBuf>,
    /// Which of `rescanned` and `gone` changed since their snapshots (or since installed).
    pub found: Changes,
}

/// Each skill of `now` a path of `dirs` lies in, or that was not there `before`, compared with
/// its snapshots again, and each of those `before` that is gone.
///
/// # Errors
/// When the snapshots cannot be read.
pub(super) fn compare(
    machine: &Machine,
    now: Inventory,
    before: Option<&Inventory>,
    dirs: &[PathBuf],
) -> Result<Rescanned, LiveError> {
    let was: Option<HashSet<&Path>> =
        before.map(|before| before.skills.iter().map(|s| s.dir.as_path()).collect());
    let touched_now = scan::touched(&now.skills, dirs).skills;
    let rescanned: Vec<&Skill> = now
        .skills
        .iter()
        .zip(touched_now)
        .filter(|(skill, touched)| {
            *touched
                || was
                    .as_ref()
                    .is_some_and(|was| !was.contains(skill.dir.as_path()))
        })
        .map(|(skill, _)| skill)
        .collect();
    let gone: Vec<PathBuf> = before
        .map(|before| {
            let there: HashSet<&Path> = now.skills.iter().map(|s| s.dir.as_path()).collect();
            let touched_before = scan::touched(&before.skills, dirs).skills;
            before
                .skills
                .iter()
                .zip(touched_before)
                .filter(|(skill, touched)| *touched && !there.contains(skill.dir.as_path()))
                .map(|(skill, _)| skill.dir.clone())
                .collect()
        })
        .unwrap_or_default();
    let store = Store::open(&machine.env);
    let subjects: Vec<Subject<'_>> = rescanned.iter().map(|skill| Subject::of(skill)).collect();
    let found = changes::changes_among(&store, &subjects, &gone)?;
    let rescanned = rescanned.iter().map(|skill| skill.dir.clone()).collect();
    Ok(Rescanned {
        inventory: now,
        rescanned,
        gone,
        found,
    })
}
