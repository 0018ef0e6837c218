//! Remove: take a skill off the machine, snapshotted first so `undo` can bring it back. A link
//! is unlinked, never followed; a plugin's or an agent's built-in skill is not removed here
//! (its own manager would put it back, and `disable` is what turns it off).
//!
//! A folder is removed in two steps under its root's lock: renamed aside into a staging folder
//! of that root (one rename, so a crash leaves it whole where it was, or gone), then deleted.
//! A staging folder a crash leaves is swept by the next writer of the root, and the snapshot
//! taken first keeps everything it held.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::fs::{At, sync_dir};
use crate::install::{RootLock, SwapError};
use crate::ownership::Installer;
use crate::roots::{Machine, Source};
use crate::scan::Skill;
use crate::snapshot::losses::{WouldLose, nothing_lost};
use crate::snapshot::{Reason, SnapshotDigest, SnapshotError, Store};

use super::batch::{self, OnFailure, Outcome};
use super::journal::ahead::Underway;
use super::journal::{Change, Entry, JournalError, Operation, UpstreamChange, Was};
use super::lock_upkeep::{self, Upkeep};
use super::progress::{Cancel, Progress};
use super::upstream_record;

/// What a removal did.
#[derive(Debug)]
pub struct Removed {
    /// Every path removed: the folder, and the links that reached it.
    pub removed: Vec<PathBuf>,
    /// The snapshot that keeps the folder's files, when a folder (not only a link) went.
    pub kept: Option<String>,
    /// A skills-CLI canonical copy no link uses any more, which the user may remove too.
    pub unused_canonical: Option<PathBuf>,
    /// Installers' lock files that still list the skill.
    pub stale_locks: Vec<PathBuf>,
    /// The folder the removed links led to, left where it is because it lies in no root (it
    /// is the user's own folder that was linked in, not a skill folder of an agent).
    pub left_in_place: Option<PathBuf>,
    pub unjournalled: Option<JournalError>,
    /// The project's `skills-lock.json` kept current (the skill's entry dropped), when it has
    /// one and the skill was one of its project's.
    pub lock: Upkeep,
}

/// Why nothing was removed (or, when an I/O failure stopped it after some links were
/// unlinked, why the rest was not: what was done is journalled, so `undo` puts it back).
#[derive(Debug, thiserror::Error)]
pub enum RemoveError {
    #[error(
        "{name} comes with the plugin {plugin}; skilldeck does not remove a plugin's files (its manager would put them back): {how}, or turn it off with `skilldeck disable {name} --agent AGENT`"
    )]
    Plugin {
        name: String,
        plugin: String,
        how: String,
    },
    #[error(
        "{name} ships with the agent itself ({}), which writes it again; it cannot be removed, only turned off with `skilldeck disable {name} --agent AGENT`",
        .dir.display()
    )]
    Builtin { name: String, dir: PathBuf },
    #[error(
        "{} is not a link by which {name} is reached; `skilldeck list` shows where it is",
        .path.display()
    )]
    NotALink { name: String, path: PathBuf },
    #[error(transparent)]
    WouldLose(WouldLose),
    #[error("{} changed while it was being removed; nothing was removed, look again", .0.display())]
    ChangedSince(PathBuf),
    #[error("the snapshot taken before removing could not be made: {0}")]
    Snapshot(#[from] SnapshotError),
    #[error(transparent)]
    Swap(#[from] SwapError),
    #[error("{0}; nothing was removed (the journal says what is about to go before it goes)")]
    Journal(JournalError),
    #[error("{} could not be removed: {}", .path.display(), crate::fs::said(.source))]
    Io { path: PathBuf, source: io::Error },
}

impl RemoveError {
    /// Whether skilldeck refused, rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        match self {
            RemoveError::Plugin { .. }
            | RemoveError::Builtin { .. }
            | RemoveError::NotALink { .. }
            | RemoveError::ChangedSince(_) => true,
            RemoveError::WouldLose(WouldLose::Unreadable(error)) => error.is_refusal(),
            RemoveError::WouldLose(_) => true,
            RemoveError::Snapshot(error) => error.is_refusal(),
            RemoveError::Swap(_) | RemoveError::Journal(_) | RemoveError::Io { .. } => false,
        }
    }

    fn io(path: PathBuf, source: io::Error) -> Self {
        Self::Io { path, source }
    }
}

/// One skill to remove: the whole of it, or only the link `only` by which it is reached.
#[derive(Clone, Debug)]
pub struct Target<'s> {
    pub skill: &'s Skill,
    pub only: Option<PathBuf>,
}

/// What a removal of many skills came to: one outcome per target, in order.
#[derive(Debug)]
pub struct Report<'s> {
    pub outcomes: Vec<(Target<'s>, Outcome<Removed, RemoveError>)>,
}

impl Report<'_> {
    /// The skills removed, each with what its removal did.
    pub fn removed(&self) -> impl Iterator<Item = (&Skill, &Removed)> {
        self.outcomes
            .iter()
            .filter_map(|(target, outcome)| match outcome {
                Outcome::Done(removed) => Some((target.skill, removed)),
                _ => None,
            })
    }
}

/// Remove each of `targets` (see [`remove`]), as one batch that one `undo` brings back.
pub fn run<'s>(
    machine: &Machine,
    targets: Vec<Target<'s>>,
    on_failure: OnFailure,
    progress: &mut dyn Progress,
    cancel: &Cancel,
) -> Report<'s> {
    // One skill named twice is removed once.
    let mut targets = targets;
    let mut seen = 0;
    while seen < targets.len() {
        let target = &targets[seen];
        let same = |other: &Target<'_>| {
            other.skill.real_dir == target.skill.real_dir
                && (other.only.is_none() || other.only == target.only)
        };
        if targets[..seen].iter().any(same) {
            targets.remove(seen);
        } else {
            seen += 1;
        }
    }
    let batch = machine.in_a_batch();
    let outcomes = batch::each(
        &targets,
        |target| target.skill.name.clone(),
        on_failure,
        progress,
        cancel,
        |target| remove(&batch, target.skill, target.only.as_deref()),
    );
    Report {
        outcomes: targets.into_iter().zip(outcomes).collect(),
    }
}

/// Remove `skill`: its folder and every link that reaches it, or only the link `only` when
/// that is one of the paths it is reached by.
///
/// # Errors
/// [`RemoveError`] says why not; a refusal removed nothing.
pub fn remove(
    machine: &Machine,
    skill: &Skill,
    only: Option<&Path>,
) -> Result<Removed, RemoveError> {
    refuse_managed(skill)?;
    let links = links_of(skill);
    let stale_locks = stale_locks(skill);
    if let Some(only) = only {
        let Some((path, target)) = links.iter().find(|(path, _)| path == only) else {
            return Err(RemoveError::NotALink {
                name: skill.name.clone(),
                path: only.to_path_buf(),
            });
        };
        let change = link_change(path, target);
        let underway =
            Underway::begin(machine, Entry::now(Operation::Remove, vec![change.clone()]))
                .map_err(RemoveError::Journal)?;
        if let Err(error) = unlink(path, target) {
            underway.done(machine, Entry::now(Operation::Remove, Vec::new()));
            return Err(error);
        }
        let others = links.iter().filter(|(other, _)| other != path).count();
        let unused_canonical =
            (others == 0 && is_canonical_copy(machine, skill)).then(|| skill.real_dir.clone());
        let mut entry = Entry::now(Operation::Remove, vec![change]);
        let lock = lock_upkeep::keep_current(machine, &mut entry);
        let unjournalled = underway.done(machine, entry);
        return Ok(Removed {
            removed: vec![path.clone()],
            kept: None,
            unused_canonical,
            // The installer's lock still holds the folder it installed, which stays.
            stale_locks: Vec::new(),
            left_in_place: None,
            unjournalled,
            lock,
        });
    }
    // The folder itself goes only when a root holds it (not only links to it): a folder of
    // the user's own that was linked into roots keeps living where they put it.
    let in_a_root = skill
        .reached_by
        .iter()
        .any(|path| !links.iter().any(|(link, _)| link == path));
    if in_a_root {
        // Refused before anything is unlinked: what a snapshot would not keep is never deleted.
        nothing_lost("removing", &skill.real_dir).map_err(RemoveError::WouldLose)?;
    }
    let store = Store::open(&machine.env);
    // Keyed while the folder is there to resolve its links.
    let record_key = crate::record::upstream::key_dir(&skill.real_dir);
    // Write-ahead: the snapshot that will keep the folder is taken, and the journal says
    // what is about to go, before anything goes.
    let mut planned: Vec<Change> = links.iter().map(|(p, t)| link_change(p, t)).collect();
    let mut intent_upstream = Vec::new();
    let before = if in_a_root {
        let taken = store.take_before_overwrite(&skill.real_dir, Reason::BeforeRemove)?;
        planned.push(Change {
            dir: skill.real_dir.clone(),
            was: Was::Kept(taken.snapshot.id.clone()),
            snapshot: None,
            link: None,
        });
        let recorded = crate::record::upstream::of(&machine.data_dir(), &record_key);
        if recorded.is_some() {
            intent_upstream.push(UpstreamChange {
                dir: record_key.clone(),
                was: recorded,
                now: None,
            });
        }
        Some(taken.snapshot.info.digest)
    } else {
        None
    };
    let mut intent = Entry::now(Operation::Remove, planned);
    intent.upstream = intent_upstream;
    let underway = Underway::begin(machine, intent).map_err(RemoveError::Journal)?;
    let mut changes = Vec::new();
    let mut removed = Vec::new();
    let mut failure = None;
    for (path, target) in &links {
        match unlink(path, target) {
            Ok(()) => {
                changes.push(link_change(path, target));
                removed.push(path.clone());
            }
            Err(error) => {
                failure = Some(error);
                break;
            }
        }
    }
    let mut kept = None;
    let mut forgotten = Vec::new();
    if in_a_root && failure.is_none() {
        // Only while it holds what the intent's snapshot keeps.
        match take_out(
            &store,
            &skill.real_dir,
            before.as_ref(),
            Reason::BeforeRemove,
        ) {
            Ok(id) => {
                changes.push(Change {
                    dir: skill.real_dir.clone(),
                    was: Was::Kept(id.clone()),
                    snapshot: None,
                    link: None,
                });
                removed.push(skill.real_dir.clone());
                kept = Some(id);
                // Where it came from goes with it, and comes back with an undo. A record
                // that cannot be removed is no failure of the removal: it names a folder no
                // longer there, which nothing reads, and every install there rewrites it.
                if let Ok(change) = upstream_record::set(machine, &record_key, None) {
                    forgotten.extend(change);
                }
            }
            Err(error) => failure = Some(error),
        }
    }
    // What was done is journalled even when a later step failed, so undo knows of it.
    let mut entry = Entry::now(Operation::Remove, changes);
    entry.upstream = forgotten;
    let lock = lock_upkeep::keep_current(machine, &mut entry);
    let unjournalled = underway.done(machine, entry);
    if let Some(error) = failure {
        return Err(error);
    }
    // The project lock that dropped the skill no longer lists it.
    let mut stale_locks = stale_locks;
    if let Ok(Some(kept)) = &lock {
        let lock_file = crate::fs::canonical(&kept.path).ok();
        stale_locks.retain(|path| crate::fs::canonical(path).ok() != lock_file);
    }
    Ok(Removed {
        removed,
        kept,
        unused_canonical: None,
        stale_locks,
        left_in_place: (!in_a_root).then(|| skill.real_dir.clone()),
        unjournalled,
        lock,
    })
}

/// What a removal a crash stopped had done, from its intent and the disk: each link that no
/// longer leads where it did, the folder when it is gone (its rename aside is one step), and
/// the record of where it came from when that is gone too.
pub fn found_done(machine: &Machine, intent: &Entry) -> Entry {
    let mut found = intent.clone();
    found.ahead = None;
    found.changes.retain(|change| match &change.was {
        Was::Link(target) => !fs::read_link(&change.dir).is_ok_and(|to| to == *target),
        Was::Kept(_) => fs::symlink_metadata(&change.dir).is_err(),
        Was::Absent | Was::Untouched => false,
    });
    let folder_gone = found
        .changes
        .iter()
        .any(|change| matches!(change.was, Was::Kept(_)));
    found
        .upstream
        .retain(|change| folder_gone && upstream_record::holds(machine, change));
    found
}

/// A plugin's skill and an agent's built-in are not skilldeck's to remove.
fn refuse_managed(skill: &Skill) -> Result<(), RemoveError> {
    if skill.source == Source::Builtin {
        return Err(RemoveError::Builtin {
            name: skill.name.clone(),
            dir: skill.dir.clone(),
        });
    }
    if skill.source == Source::Plugin || skill.plugin.is_some() {
        let plugin = skill.plugin.clone().unwrap_or_else(|| skill.name.clone());
        let installer = skill.owner.as_ref().map(|owner| &owner.installer);
        return Err(RemoveError::Plugin {
            name: skill.name.clone(),
            how: uninstall_advice(installer, &plugin),
            plugin,
        });
    }
    Ok(())
}

/// How a plugin is uninstalled, in its agent's own words.
fn uninstall_advice(installer: Option<&Installer>, plugin: &str) -> String {
    match installer {
        Some(Installer::ClaudePlugin) => {
            format!("uninstall it with `claude plugin uninstall {plugin}`")
        }
        Some(Installer::CopilotPlugin) => {
            format!("uninstall it with `copilot plugin uninstall {plugin}`")
        }
        Some(Installer::GeminiExtension) => {
            format!("uninstall it with `gemini extensions uninstall {plugin}`")
        }
        Some(Installer::CodexPlugin) => "uninstall it in Codex's plugin manager".to_owned(),
        _ => "uninstall it through its agent's plugin manager".to_owned(),
    }
}

/// The paths among those `skill` is reached by that are links, each with its target.
fn links_of(skill: &Skill) -> Vec<(PathBuf, PathBuf)> {
    skill
        .reached_by
        .iter()
        .filter(|path| fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()))
        .filter_map(|path| fs::read_link(path).ok().map(|to| (path.clone(), to)))
        .collect()
}

fn link_change(path: &Path, target: &Path) -> Change {
    Change {
        dir: path.to_path_buf(),
        was: Was::Link(target.to_path_buf()),
        snapshot: None,
        link: None,
    }
}

/// Installers' files that list the skill and are not edited here: after the removal they
/// name a skill that is gone.
fn stale_locks(skill: &Skill) -> Vec<PathBuf> {
    match skill.owner.as_deref() {
        // A record kept inside the folder (gh skill's frontmatter) goes with it.
        Some(owner)
            if !matches!(owner.installer, Installer::Program(_))
                && !owner.recorded_in.starts_with(&skill.real_dir) =>
        {
            vec![owner.recorded_in.clone()]
        }
        _ => Vec::new(),
    }
}

/// Whether `skill`'s folder is the canonical copy the skills CLI links agents' roots to: one
/// it installed, or one in a `.agents/skills` folder, where it puts them.
fn is_canonical_copy(machine: &Machine, skill: &Skill) -> bool {
    let by_cli = skill
        .owner
        .as_ref()
        .is_some_and(|owner| owner.installer == Installer::SkillsCli);
    let home_agents = crate::fs::canonical(machine.home().join(".agents/skills")).ok();
    let in_agents = skill.real_dir.parent().is_some_and(|parent| {
        home_agents.as_deref() == Some(parent) || parent.ends_with(".agents/skills")
    });
    by_cli || in_agents
}

/// Remove the link at `path`, under the lock of the folder it is in, only while it still
/// leads to `target`; the target is never touched.
///
/// # Errors
/// [`RemoveError::ChangedSince`] when it is no longer that link.
pub(super) fn unlink(path: &Path, target: &Path) -> Result<(), RemoveError> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(RemoveError::ChangedSince(path.to_path_buf()));
    };
    let lock = RootLock::acquire(parent)?;
    let at = lock.root().join(name);
    let still = fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink())
        && fs::read_link(&at).is_ok_and(|to| to == target);
    if !still {
        return Err(RemoveError::ChangedSince(path.to_path_buf()));
    }
    fs::remove_file(&at).at(&at, RemoveError::io)?;
    sync_dir(lock.root()).at(lock.root(), RemoveError::io)
}

/// Snapshot the folder `dir` (synced), then remove it under its root's lock: renamed aside in
/// one step, then deleted; the snapshot is taken for `reason`. With `expected`, only while its content still has that digest.
/// The snapshot's id is returned.
///
/// # Errors
/// [`RemoveError`] says why not; the folder is as it was.
pub(super) fn take_out(
    store: &Store,
    dir: &Path,
    expected: Option<&SnapshotDigest>,
    reason: Reason,
) -> Result<String, RemoveError> {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        return Err(RemoveError::ChangedSince(dir.to_path_buf()));
    };
    let name = name.to_string_lossy().into_owned();
    let lock = RootLock::acquire(parent)?;
    let at = lock.root().join(&name);
    if !fs::symlink_metadata(&at).is_ok_and(|m| m.is_dir()) {
        return Err(RemoveError::ChangedSince(dir.to_path_buf()));
    }
    // Judged again under the lock, just before the snapshot that keeps it.
    nothing_lost("removing", &at).map_err(RemoveError::WouldLose)?;
    let taken = store.take_before_overwrite(&at, reason)?;
    if let Some(expected) = expected
        && taken.snapshot.info.digest != *expected
    {
        return Err(RemoveError::ChangedSince(dir.to_path_buf()));
    }
    let aside = lock.stage(&name)?;
    let moved = aside.path().join(&name);
    fs::rename(&at, &moved).at(&at, RemoveError::io)?;
    sync_dir(lock.root()).at(lock.root(), RemoveError::io)?;
    // Dropping the staging folder deletes what was moved into it; a crash before that leaves
    // it for the next writer's sweep.
    drop(aside);
    Ok(taken.snapshot.id)
}
