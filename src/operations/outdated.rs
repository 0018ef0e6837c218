//! Which installed skills their upstream has moved past: for every skill skilldeck imported
//! from a git repository (its recorded upstream, `record::upstream`), where the ref it was
//! imported at is now (`git ls-remote`, no contents fetched), against the commit recorded, and
//! whether the local copy was edited since (its record's digest). Network only when asked:
//! the last results are kept with their time, so the app and `outdated --offline` show them
//! without asking again.

use std::path::PathBuf;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use crate::fs::replace_file;
use crate::record::State;
use crate::record::upstream::{self, Upstream};
use crate::roots::Machine;
use crate::scan::Inventory;
use crate::source::git::{self, Latest, Spec};

/// One skill's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checked {
    pub name: String,
    pub dir: PathBuf,
    pub upstream: Upstream,
    /// Where the ref is now; `None` when the repository could not be asked (`error` says why)
    /// or the ref is a commit id (`pinned`).
    pub latest: Option<String>,
    pub pinned: bool,
    /// The files differ from what was installed or last updated.
    pub edited: bool,
    pub error: Option<String>,
}

impl Checked {
    /// Upstream has a commit the skill was not installed from.
    pub fn moved(&self) -> Option<bool> {
        self.latest
            .as_ref()
            .map(|latest| *latest != self.upstream.commit)
    }
}

/// The answers, with when the repositories were asked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outdated {
    pub checked_at: SystemTime,
    pub skills: Vec<Checked>,
}

/// The file the last answers are kept in.
fn kept(machine: &Machine) -> PathBuf {
    machine.data_dir().join("outdated.json")
}

/// Ask each recorded repository (each repository and ref once) where the skills' refs are now,
/// keeping the answers for [`last`]; `progress` hears each repository asked.
pub fn check(machine: &Machine, inventory: &Inventory, progress: &mut dyn FnMut(&str)) -> Outdated {
    let data = machine.data_dir();
    let mut asked: Vec<(Spec, Result<Latest, String>)> = Vec::new();
    let mut skills = Vec::new();
    for skill in &inventory.skills {
        let Some(upstream) = upstream::of(&data, &skill.real_dir) else {
            continue;
        };
        let spec = without_path(Spec::recorded(&upstream));
        let answer = match asked.iter().find(|(s, _)| *s == spec) {
            Some((_, answer)) => answer.clone(),
            None => {
                let answer = git::latest(&spec, progress).map_err(|e| e.to_string());
                asked.push((spec, answer.clone()));
                answer
            }
        };
        let (latest, pinned, error) = match answer {
            Ok(Latest::Commit(commit)) => (Some(commit), false, None),
            Ok(Latest::Pinned) => (None, true, None),
            Err(error) => (None, false, Some(error)),
        };
        skills.push(Checked {
            name: skill.name.clone(),
            dir: skill.dir.clone(),
            upstream,
            latest,
            pinned,
            edited: skill.state == State::Modified,
            error,
        });
    }
    let outdated = Outdated {
        checked_at: SystemTime::now(),
        skills,
    };
    // Keeping the answers only saves asking again: a failure leaves the last ones.
    if let Ok(json) = serde_json::to_vec_pretty(&outdated) {
        let _ = replace_file(&kept(machine), &json);
    }
    outdated
}

/// The answers the last [`check`] kept, without asking anyone; `None` when there are none (or
/// they do not parse).
pub fn last(machine: &Machine) -> Option<Outdated> {
    let bytes = crate::fs::read_bounded(
        &kept(machine),
        crate::fs::Links::Refuse,
        crate::limits::SETTINGS_FILE_BYTES,
    )
    .ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// The repository and ref alone: one question answers every skill fetched from it.
fn without_path(spec: Spec) -> Spec {
    Spec { path: None, ..spec }
}
