//! Whether each skill's upstream has moved, as the app marks it: the answers of the last
//! `outdated` check (read after every scan, no network), or of the check the person asks for,
//! by skill folder, with when they were asked. Built on a worker from `operations::outdated`;
//! the list marks the moved ones and the detail says it in words.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::operations::outdated::Outdated;
use crate::text::human::ago;
use crate::text::sanitize;

/// The marks, by skill folder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Upstreams {
    /// When the repositories were asked; `None` when they never were.
    pub checked_at: Option<SystemTime>,
    pub marks: BTreeMap<PathBuf, Mark>,
    /// A check is under way.
    pub checking: bool,
}

/// What the last check found of one skill's upstream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Upstream has a commit the skill was not installed from; with whether it was edited here.
    Moved {
        edited: bool,
    },
    UpToDate,
    /// Imported at a commit id, which never moves.
    Pinned,
    /// The repository could not be asked, and why (display-safe).
    Failed(String),
}

impl Upstreams {
    /// The marks of `outdated`'s answers.
    pub fn of(outdated: &Outdated) -> Self {
        let marks = outdated
            .skills
            .iter()
            .map(|checked| {
                let mark = match (&checked.error, checked.pinned, checked.moved()) {
                    (Some(error), _, _) => Mark::Failed(sanitize::line(error)),
                    (None, true, _) => Mark::Pinned,
                    (None, false, Some(true)) => Mark::Moved {
                        edited: checked.edited,
                    },
                    (None, false, _) => Mark::UpToDate,
                };
                (checked.dir.clone(), mark)
            })
            .collect();
        Self {
            checked_at: Some(outdated.checked_at),
            marks,
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
        Some(match mark {
            Mark::Moved { edited: true } => {
                format!("upstream moved, and it was edited here; {when}")
            }
            Mark::Moved { edited: false } => format!("upstream moved, {when}"),
            Mark::UpToDate => format!("up to date with upstream, {when}"),
            Mark::Pinned => format!("pinned to a commit, which does not move; {when}"),
            Mark::Failed(why) => format!("could not be checked ({why}); {when}"),
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
