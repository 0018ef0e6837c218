//! Which skills changed, and what each is diffed against: the rule of the app's "changed" view,
//! kept here so the view and anything else that asks agree.
//!
//! A skill is changed when its files differ from its latest snapshot. A skill no snapshot was
//! ever taken of is changed when its installer's record says its files were modified. A folder
//! that was snapshotted and no longer holds a skill is changed too: it is gone, and restoring
//! its snapshot brings it back; unless skilldeck moved it, and the skill is where it went
//! ([`super::moved`]).
//!
//! What a skill is diffed against (its [`Baseline`]): its latest snapshot; else the untouched
//! copy its installer keeps elsewhere (a marketplace clone's, for a Claude Code plugin); else
//! nothing, and there is no diff to show.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::diff::{self, SkillDiff};
use super::store::compare_with;
use super::{Comparison, Snapshot, SnapshotError, Store};
use crate::record::State;
use crate::scan::Skill;

/// A skill as the comparison needs it.
#[derive(Clone, Copy, Debug)]
pub struct Subject<'a> {
    /// The folder as found.
    pub dir: &'a Path,
    /// The folder with its links resolved, as snapshots record it.
    pub real_dir: &'a Path,
    /// Its installer's record says its files were modified.
    pub modified: bool,
}

impl<'a> Subject<'a> {
    /// What the comparison needs of a skill the scan found.
    #[must_use]
    pub fn of(skill: &'a Skill) -> Self {
        Self {
            dir: &skill.dir,
            real_dir: &skill.real_dir,
            modified: skill.state == State::Modified,
        }
    }
}

/// One changed skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Changed {
    /// The folder as found, or as the snapshot records it when it is gone.
    pub dir: PathBuf,
    pub since: Since,
}

/// What a changed skill differs from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Since {
    /// Its latest snapshot.
    Snapshot(Snapshot),
    /// Its latest snapshot, and the folder no longer holds a skill.
    Gone(Snapshot),
    /// No snapshot was taken of it; its installer's record says it was modified.
    Installed,
}

/// The changed skills among `skills`, then the snapshotted folders that are gone (or that no
/// root holds any more, and changed).
#[derive(Debug, Default)]
pub struct Changes {
    pub changed: Vec<Changed>,
    /// Skills that could not be compared: a file could not be read.
    pub problems: Vec<SnapshotError>,
}

/// Compare every skill in `skills` with its latest snapshot in `store`.
///
/// # Errors
/// When the store cannot be read or holds a damaged snapshot.
pub fn changes(store: &Store, skills: &[Subject<'_>]) -> Result<Changes, SnapshotError> {
    let mut latest: HashMap<PathBuf, Snapshot> = HashMap::new();
    let mut damaged = Vec::new();
    for snapshot in store.all()? {
        // A snapshot out of its place has a record that lies about the folder it is of: it
        // must not stand for that folder, nor list one that was never snapshotted.
        if let Err(problem) = snapshot.check_place() {
            damaged.push(problem);
            continue;
        }
        // Oldest first within each folder's history, so the last one kept is the latest.
        latest.insert(snapshot.info.dir.clone(), snapshot);
    }
    let mut pairs: Vec<(PathBuf, Option<Snapshot>, bool)> = skills
        .iter()
        .map(|skill| {
            let snapshot = latest.remove(skill.real_dir);
            (skill.dir.to_path_buf(), snapshot, skill.modified)
        })
        .collect();
    let mut elsewhere: Vec<(PathBuf, Option<Snapshot>, bool)> = latest
        .into_values()
        .map(|snapshot| (snapshot.info.dir.clone(), Some(snapshot), false))
        .collect();
    elsewhere.sort_by(|a, b| a.0.cmp(&b.0));
    pairs.extend(elsewhere);
    let compared: Vec<Result<Option<Changed>, SnapshotError>> = pairs
        .into_par_iter()
        .map(|(dir, snapshot, modified)| changed(dir, snapshot, modified))
        .collect();
    let mut changes = Changes {
        problems: damaged,
        ..Changes::default()
    };
    for result in compared {
        match result {
            Ok(Some(changed)) => changes.changed.push(changed),
            Ok(None) => {}
            Err(problem) => changes.problems.push(problem),
        }
    }
    Ok(changes)
}

/// Compare only `skills` with their latest snapshots, and tell which of `gone` (folders that
/// held a skill and hold none now) were snapshotted: after a few skills changed, without
/// comparing every other one again.
///
/// # Errors
/// When the store cannot be read.
pub fn changes_among(
    store: &Store,
    skills: &[Subject<'_>],
    gone: &[PathBuf],
) -> Result<Changes, SnapshotError> {
    let mut pairs: Vec<(PathBuf, Option<Snapshot>, bool)> = Vec::new();
    for skill in skills {
        let snapshot = store.latest(skill.real_dir)?;
        pairs.push((skill.dir.to_path_buf(), snapshot, skill.modified));
    }
    for dir in gone {
        pairs.push((dir.clone(), store.latest(dir)?, false));
    }
    let mut changes = Changes::default();
    for pair in pairs {
        match changed(pair.0, pair.1, pair.2) {
            Ok(Some(changed)) => changes.changed.push(changed),
            Ok(None) => {}
            Err(problem) => changes.problems.push(problem),
        }
    }
    Ok(changes)
}

/// Whether the skill at `dir`, whose latest snapshot is `snapshot` and whose record says
/// `modified` or not, is changed, and since what.
fn changed(
    dir: PathBuf,
    snapshot: Option<Snapshot>,
    modified: bool,
) -> Result<Option<Changed>, SnapshotError> {
    let since = match snapshot {
        None if modified => Some(Since::Installed),
        None => None,
        Some(snapshot) => match compare_with(snapshot, &dir)? {
            Comparison::Changed { latest, .. } => Some(Since::Snapshot(latest)),
            // Moved by skilldeck: the skill is compared where it went.
            Comparison::Gone(latest) if super::moved::moved_to(&latest).is_some() => None,
            Comparison::Gone(latest) => Some(Since::Gone(latest)),
            Comparison::Same(_) | Comparison::NoSnapshot => None,
        },
    };
    Ok(since.map(|since| Changed { dir, since }))
}

/// What a skill's diff compares it with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Baseline {
    Snapshot(Snapshot),
    /// An untouched copy its installer keeps, at this folder.
    Pristine(PathBuf),
}

/// What the skill folder at `dir` is diffed against: its latest snapshot, else `pristine`, the
/// untouched copy its installer keeps, when there is one.
///
/// # Errors
/// When the store cannot be read.
pub fn baseline(
    store: &Store,
    dir: &Path,
    pristine: Option<&Path>,
) -> Result<Option<Baseline>, SnapshotError> {
    if let Some(snapshot) = store.latest(dir)? {
        return Ok(Some(Baseline::Snapshot(snapshot)));
    }
    Ok(pristine.map(|path| Baseline::Pristine(path.to_path_buf())))
}

/// What changed in the skill folder at `dir` since `baseline`.
///
/// # Errors
/// When a file of either side cannot be read.
pub fn diff_against(baseline: &Baseline, dir: &Path) -> Result<SkillDiff, SnapshotError> {
    match baseline {
        Baseline::Snapshot(snapshot) => diff::diff(snapshot, dir),
        Baseline::Pristine(pristine) => diff::between(pristine, dir),
    }
}
