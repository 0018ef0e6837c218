//! Whether each skill's upstream has moved, as the app marks it: the answers of the last
//! `outdated` check (read after every scan, no network), or of the check the person asks for,
//! by skill folder, with when they were asked. Built on a worker from `operations::outdated`,
//! whose verdict it shows as it is; the list marks the moved ones and the detail says in words
//! what `outdated` prints: the verdict, what moved to what, whether it was edited here, where
//! it comes from and whose record says so.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::operations::outdated::{Checked, Outdated, Status};
use crate::text::human::ago;
use crate::text::sanitize;

/// A check of the upstreams that stopped: the worker's panic ("Checking the upstreams").
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct CheckStopped(pub crate::tui::failed::Stopped);

/// The marks, by skill folder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Upstreams {
    /// When the repositories were asked; `None` when they never were.
    pub checked_at: Option<SystemTime>,
    pub marks: BTreeMap<PathBuf, Mark>,
    /// Where each skill checked comes from, and whose record says so (display-safe):
    /// `acme/tools@main, by skills-cli's record`.
    pub origins: BTreeMap<PathBuf, String>,
    /// A check is under way.
    pub checking: bool,
}

/// What the last check found of one skill's upstream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Upstream holds something the skill was not installed from: what moved to what
    /// (`tree 1a2b… → 3c4d…`, display-safe), and whether it was edited here, when that can be
    /// told.
    Moved {
        edited: Option<bool>,
        change: String,
    },
    UpToDate,
    /// Imported at a commit id, which never moves.
    Pinned,
    /// The record holds nothing to compare, and why (display-safe).
    CannotTell(String),
    /// The repository could not be asked, and why (display-safe).
    Failed(String),
}

impl Mark {
    fn of(checked: &Checked) -> Self {
        let why = |said: &Option<String>| sanitize::line(said.as_deref().unwrap_or_default());
        match checked.status() {
            Status::Pinned => Mark::Pinned,
            Status::Moved => Mark::Moved {
                edited: checked.edits(),
                change: sanitize::line(&checked.change()),
            },
            Status::UpToDate => Mark::UpToDate,
            Status::CannotTell => Mark::CannotTell(why(&checked.note)),
            Status::Failed | Status::NotAsked => Mark::Failed(why(&checked.error)),
        }
    }
}

impl Upstreams {
    /// The marks of `outdated`'s answers.
    pub fn of(outdated: &Outdated) -> Self {
        let marks = outdated
            .skills
            .iter()
            .map(|checked| (checked.dir.clone(), Mark::of(checked)))
            .collect();
        let origins = outdated
            .skills
            .iter()
            .map(|checked| {
                let upstream = &checked.upstream;
                let from = match &upstream.reference {
                    Some(reference) => format!("{}@{reference}", upstream.repository),
                    None => upstream.repository.clone(),
                };
                let origin = format!("{from}, by {}'s record", checked.record);
                (checked.dir.clone(), sanitize::line(&origin))
            })
            .collect();
        Self {
            checked_at: Some(outdated.checked_at),
            marks,
            origins,
            checking: false,
        }
    }

    /// Whether the skill at `dir` has an upstream that moved past it.
    pub fn moved(&self, dir: &Path) -> bool {
        matches!(self.marks.get(dir), Some(Mark::Moved { .. }))
    }

    /// How many skills upstream moved past.
    pub fn moved_count(&self) -> usize {
        self.marks
            .values()
            .filter(|m| matches!(m, Mark::Moved { .. }))
            .count()
    }

    /// What the last check said of the skill at `dir`, and when, against the clock `now`:
    /// `upstream moved, checked 3 h ago`; `None` for a skill it did not check.
    pub fn sentence(&self, dir: &Path, now: SystemTime) -> Option<String> {
        let mark = self.marks.get(dir)?;
        let when = self
            .checked_at
            .map(|at| match now.duration_since(at) {
                Ok(age) => format!("checked {}", ago(age)),
                Err(_) => "checked just now".to_owned(),
            })
            .unwrap_or_default();
        let said = match mark {
            Mark::Moved { edited, change } => {
                let edited = match edited {
                    Some(true) => ", and it was edited here",
                    Some(false) => "",
                    None => ", and whether it was edited here cannot be told",
                };
                format!("upstream moved ({change}){edited}; {when}")
            }
            Mark::UpToDate => format!("up to date with upstream, {when}"),
            Mark::Pinned => format!("pinned to a commit, which does not move; {when}"),
            Mark::CannotTell(why) => format!("cannot be told ({why}); {when}"),
            Mark::Failed(why) => format!("could not be checked ({why}); {when}"),
        };
        Some(match self.origins.get(dir) {
            Some(origin) => format!("{said}; from {origin}"),
            None => said,
        })
    }

    /// The skills at `dirs` were just updated: what the last check said of them no longer
    /// holds.
    pub fn forget(&mut self, dirs: &[PathBuf]) {
        for dir in dirs {
            self.marks.remove(dir);
        }
    }
}
