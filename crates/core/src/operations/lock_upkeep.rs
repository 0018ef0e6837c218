//! A project's `skills-lock.json` kept current by the operations that change its skills:
//! `import`, `update`, `remove`, and `link`, `copy`, `move`. Each calls [`keep_current`] with
//! its journal entry before journalling it; the folders the entry names are the skills it
//! added, replaced or removed, and the lock's entry of each one of them at the project's top
//! is added, refreshed or dropped, in the same operation, so one `undo` puts the lock back with
//! the folders.
//!
//! - A project without a lock gets none: a lock is the team's choice (`skilldeck lock`, or the
//!   skills CLI's first project install), never a side effect of an import.
//! - Each entry is what `lock` would write for the skill (`operations::lock::entry_of`, the one
//!   rule), so running `lock` after an operation changes nothing. A skill with no source
//!   skilldeck knows is locked as a `local` source (its skills folder), as `lock` locks it,
//!   rather than left out: a lock that names every project skill is what `verify` asks for.
//! - The lock is the user's file: the entries not touched are kept as they are (unknown
//!   fields and all, as the skills CLI spreads them), an entry refreshed keeps its unknown
//!   fields, the file is written as every user file skilldeck changes (previous bytes kept, a
//!   temporary file swapped in) and only when an entry changed.
//! - A name the project still holds another copy of (a team committing one skill to
//!   `.agents/skills` and `.claude/skills`) keeps its entry when one copy goes; its hash is
//!   the copy the operation touched, so `verify` names the other copy if they now differ.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::fs::{Links, read_bounded};
use crate::limits::RECORD_FILE_BYTES;
use crate::lock::{self, LOCK_FILE, LockError, SkillsLock};
use crate::roots::Machine;
use crate::scan::{self, Inventory, Skill};
use crate::settings::{self, EditError};

use super::journal::Entry as JournalEntry;
use super::lock::{LockOpError, entry_of, is_project_skill, lock_dir, root_at_top};

/// What keeping the lock current changed in it, by skill name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockKept {
    pub path: PathBuf,
    pub added: Vec<String>,
    pub refreshed: Vec<String>,
    pub dropped: Vec<String>,
}

/// What became of the project's lock after an operation.
pub type Upkeep = Result<Option<LockKept>, LockOpError>;

/// Keep the lock of `machine`'s project current with what `entry` (an operation's journal
/// entry, not yet journalled) changed, and add the lock's change to `entry`. `None` when the
/// project has no lock or the operation changed none of its skills.
///
/// # Errors
/// [`LockOpError`] when the lock cannot be read or trusted, a skill cannot be hashed, or the
/// file cannot be written: the lock is as it was (and the operation itself stands).
pub fn keep_current(machine: &Machine, entry: &mut JournalEntry) -> Upkeep {
    let top = lock_dir(machine);
    let path = top.join(LOCK_FILE);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let touched: Vec<&Path> = entry
        .changes
        .iter()
        .map(|change| change.dir.as_path())
        .chain(entry.upstream.iter().map(|change| change.dir.as_path()))
        .collect();
    if touched.is_empty() {
        return Ok(None);
    }
    let inventory = scan::scan(&machine.env, &machine.project, &|_| {});
    let roots = roots_at_top(&inventory, &top);
    let names: BTreeSet<String> = touched
        .iter()
        .filter(|dir| {
            dir.parent()
                .is_some_and(|parent| roots.contains(&real(parent)))
        })
        .filter_map(|dir| dir.file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .collect();
    if names.is_empty() {
        return Ok(None);
    }
    // Read as it is now, bounded as every lock is; the edit below writes only over these
    // bytes.
    let seen = read_bounded(&path, Links::Follow, RECORD_FILE_BYTES).map_err(|source| {
        LockError::Read {
            path: path.clone(),
            source,
        }
    })?;
    let before = SkillsLock::parse(&seen, &path)?;
    let data = machine.data_dir();
    let mut after = before.clone();
    let mut kept = LockKept {
        path: path.clone(),
        ..LockKept::default()
    };
    for name in names {
        let copies: Vec<&Skill> = inventory
            .skills
            .iter()
            .filter(|skill| skill.dir_name() == name && is_project_skill(&inventory, skill, &top))
            .collect();
        let Some(&first) = copies.first() else {
            if after.skills.remove(&name).is_some() {
                kept.dropped.push(name);
            }
            continue;
        };
        lock::file::check_name(&name).map_err(|what| LockOpError::Name {
            dir: first.dir.clone(),
            what,
        })?;
        let skill = copies
            .iter()
            .find(|copy| {
                touched.contains(&copy.dir.as_path()) || touched.contains(&copy.real_dir.as_path())
            })
            .copied()
            .unwrap_or(first);
        let hash = lock::computed_hash(&skill.real_dir)?;
        let old = before.skills.get(&name);
        let (fresh, _) = entry_of(&data, &top, &copies, skill, hash, old);
        match old {
            None => kept.added.push(name.clone()),
            Some(old) if *old != fresh => kept.refreshed.push(name.clone()),
            Some(_) => {}
        }
        after.skills.insert(name, fresh);
    }
    if after == before {
        return Ok(None);
    }
    let text = after.render();
    let change = settings::edit(machine, &path, |now| {
        if now.as_bytes() == seen.as_slice() {
            Ok(Some(text.clone()))
        } else {
            Err(EditError::ChangedSince { file: path.clone() })
        }
    })?;
    let Some(change) = change else {
        return Ok(None);
    };
    entry.settings.push(change);
    Ok(Some(kept))
}

/// The project roots at `top` (those a lock there holds the skills of), links resolved.
fn roots_at_top(inventory: &Inventory, top: &Path) -> BTreeSet<PathBuf> {
    inventory
        .roots
        .iter()
        .filter(|entry| entry.root.scope() == crate::roots::Scope::Project)
        .filter(|entry| root_at_top(&entry.root.path, top))
        .map(|entry| {
            entry
                .root
                .real_path
                .clone()
                .unwrap_or_else(|| real(&entry.root.path))
        })
        .collect()
}

/// `path` with its links resolved, as it is when they cannot be.
fn real(path: &Path) -> PathBuf {
    crate::fs::canonical(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The names of the skills `kept` added, refreshed and dropped, in a sentence: what the
/// front ends say after an operation kept a lock current.
pub fn kept_in_words(kept: &LockKept, shown_path: &str) -> String {
    let mut parts = Vec::new();
    for (verb, names) in [
        ("added", &kept.added),
        ("refreshed", &kept.refreshed),
        ("dropped", &kept.dropped),
    ] {
        if !names.is_empty() {
            parts.push(format!("{verb} {}", names.join(", ")));
        }
    }
    format!("{shown_path} kept current: {}", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_was_kept_is_said_by_kind_in_one_sentence() {
        let kept = LockKept {
            path: PathBuf::from("/p/skills-lock.json"),
            added: vec!["a".into(), "b".into()],
            refreshed: Vec::new(),
            dropped: vec!["c".into()],
        };
        assert_eq!(
            kept_in_words(&kept, "skills-lock.json"),
            "skills-lock.json kept current: added a, b; dropped c"
        );
    }
}
