//! Where each project skill stands against its project's `skills-lock.json`: what `list
//! --json` carries as `lock` and the app shows in its list and detail pane. The words are
//! `verify`'s: a skill the lock names with the hash its files have is locked, one whose files
//! hash otherwise differs (`skill-differs`), one the lock does not name is unlocked
//! (`skill-unlocked`). The hash is the lock's (`lock::computed_hash`: skilldeck's own record
//! in `SKILL.md` does not count), and the project skills are those a lock at the project's
//! top holds (`operations::lock::is_project_skill`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::lock::{self, LOCK_FILE, LockError, SkillsLock};
use crate::roots::Machine;
use crate::scan::Inventory;

use super::lock::{is_project_skill, lock_dir};

/// A project skill against its project's lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LockState {
    /// The lock names it, with the hash its files have.
    Locked,
    /// The lock names it, and its files hash otherwise.
    Differing,
    /// The lock does not name it.
    Unlocked,
}

impl LockState {
    /// The word `list --json` and the app give it.
    pub fn word(self) -> &'static str {
        match self {
            LockState::Locked => "locked",
            LockState::Differing => "differing",
            LockState::Unlocked => "unlocked",
        }
    }
}

/// The state of each project skill of a project that has a lock, by the skill's folder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockStates {
    pub lock_path: PathBuf,
    states: HashMap<PathBuf, LockState>,
}

impl LockStates {
    /// The state of the skill in `dir` (as the scan found it); `None` for a skill the lock
    /// does not hold (not a project skill at the lock's folder), or whose files could not be
    /// hashed.
    pub fn of(&self, dir: &Path) -> Option<LockState> {
        self.states.get(dir).copied()
    }
}

/// The state of each of `inventory`'s project skills against the lock of `machine`'s
/// project; `None` when the project has no lock.
///
/// # Errors
/// [`LockError`] when the lock cannot be read or trusted.
pub fn lock_states(
    machine: &Machine,
    inventory: &Inventory,
) -> Result<Option<LockStates>, LockError> {
    let top = lock_dir(machine);
    let lock_path = top.join(LOCK_FILE);
    let Some(lock) = SkillsLock::read(&lock_path)? else {
        return Ok(None);
    };
    let mut states = HashMap::new();
    for skill in &inventory.skills {
        if !is_project_skill(inventory, skill, &top) {
            continue;
        }
        let state = match lock.skills.get(skill.dir_name()) {
            None => LockState::Unlocked,
            Some(entry) => match lock::computed_hash(&skill.real_dir) {
                Ok(now) if now == entry.locked().computed_hash.to_ascii_lowercase() => {
                    LockState::Locked
                }
                Ok(_) => LockState::Differing,
                // Not known: `verify` says why; no state is shown rather than a guess.
                Err(_) => continue,
            },
        };
        states.insert(skill.dir.clone(), state);
    }
    Ok(Some(LockStates { lock_path, states }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_are_the_json_values() {
        for state in [LockState::Locked, LockState::Differing, LockState::Unlocked] {
            assert_eq!(
                serde_json::to_value(state).unwrap(),
                serde_json::Value::from(state.word())
            );
        }
    }
}
