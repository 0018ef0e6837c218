//! Link, copy and move: make a skill visible to another agent or scope. Each is planned first,
//! so the shadowing it would cause is shown before anything is done, and refused unless forced.
//!
//! Which copy would win is decided by the scan's own rule ([`crate::scan::outranks`]), with
//! the new copy ranked by the root it would be in. A link leads to the skill's real folder by
//! its absolute path; a copy goes through the import's install, so it is judged, recorded and
//! snapshotted like an import; a move renames the folder (every byte kept) when both roots are
//! on one mount, and otherwise copies it and removes the original, snapshotted first.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::bundle::{self, Refusal};
use crate::fs::{At, rename_no_replace, same_mount, sync_dir};
use crate::install::{self, InstallError, RootLock, SwapError};
use crate::roots::{AgentId, Machine, RootSet, Scope, Source};
use crate::scan::{Inventory, Skill};
use crate::snapshot::losses::{WouldLose, nothing_lost};
use crate::snapshot::{Reason, SnapshotError, Store};

use super::batch::{self, OnFailure, Outcome};
use super::import::{Loaders, NoDestination, destination};
use super::journal::ahead::Underway;
use super::journal::{Change, Entry, Journal, JournalError, Operation, UpstreamChange, Was};
use super::keeping::Keeping;
use super::lock_upkeep::{self, Upkeep};
use super::progress::{Cancel, Progress};
use super::remove::{self, RemoveError};
pub use super::shadow::WouldShadow;
use super::shadow::{NewCopy, agents_in_words, would_shadow};
use super::upstream_record;
use crate::record::upstream;

/// How the skill gets to its new place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    /// A symbolic link to the folder.
    Link,
    /// An independent, recorded copy.
    Copy,
    /// The folder itself, gone from where it was.
    Move,
}

impl Share {
    /// The command's name: `link`, `copy`, `move`.
    pub fn verb(self) -> &'static str {
        match self {
            Share::Link => "link",
            Share::Copy => "copy",
            Share::Move => "move",
        }
    }

    fn operation(self) -> Operation {
        match self {
            Share::Link => Operation::Link,
            Share::Copy => Operation::Copy,
            Share::Move => Operation::Move,
        }
    }
}

/// A link, copy or move worked out, not yet done.
#[derive(Clone, Debug)]
pub struct Plan {
    pub share: Share,
    /// The skill's folder as found.
    pub from: PathBuf,
    /// Where the link, copy or folder would be.
    pub to: PathBuf,
    pub shadowing: Vec<WouldShadow>,
    /// The skill's folder with its links resolved: what a link leads to, a copy reads and a
    /// move renames.
    pub real_from: PathBuf,
    /// The agent and scope of the destination.
    pub agent: AgentId,
    pub scope: Scope,
    /// Who loads skills from the destination's root, and which of them are judged: only
    /// their shadowing counts.
    pub loaders: Loaders,
}

/// What was done.
#[derive(Debug)]
pub struct Shared {
    pub plan: Plan,
    /// The baseline snapshot of a copy or moved folder could not be taken: it is in place,
    /// but undo cannot tell later edits of it.
    pub missed_baseline: Option<SnapshotError>,
    pub unjournalled: Option<JournalError>,
    /// The project's `skills-lock.json` kept current, when it has one and the skill arrived
    /// in or left one of its project's folders.
    pub lock: Upkeep,
}

/// Why the skill was not linked, copied or moved; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum ShareError {
    #[error("{0}")]
    NoPlace(#[from] NoDestination),
    #[error(
        "{name} is loaded by no agent with a skills folder at that scope; say which with --agent"
    )]
    NoAgent { name: String },
    #[error("{} is already there; nothing was changed", .0.display())]
    Occupied(PathBuf),
    #[error("{} already is where it would go; nothing to do", .0.display())]
    AlreadyThere(PathBuf),
    #[error(
        "after the {verb}, {agents} would load another copy of {name} than now; nothing was changed (--force does it anyway)",
        agents = agents_in_words(.shadowing)
    )]
    WouldShadow {
        verb: &'static str,
        name: String,
        shadowing: Vec<WouldShadow>,
    },
    #[error(
        "{name} is {why}; skilldeck does not move it (link or copy it instead, or turn it off with `skilldeck disable`)"
    )]
    Managed { name: String, why: &'static str },
    #[error(
        "{} is reached by links ({}); moving it would leave them leading nowhere: remove them first, or link instead",
        .dir.display(),
        .links.iter().map(|l| l.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    LinkedFrom { dir: PathBuf, links: Vec<PathBuf> },
    #[error(
        "{} is only a link to {}, which lies in no root; move that folder yourself, or link it instead",
        .link.display(),
        .folder.display()
    )]
    OnlyLinked { link: PathBuf, folder: PathBuf },
    #[error("{0}")]
    Bundle(#[from] Refusal),
    #[error("{0}")]
    Install(#[from] InstallError),
    #[error(transparent)]
    WouldLose(#[from] WouldLose),
    #[error("the snapshot taken before moving could not be made: {0}")]
    Snapshot(#[from] SnapshotError),
    #[error(transparent)]
    Swap(#[from] SwapError),
    #[error("{0}")]
    Remove(#[from] RemoveError),
    #[error("{0}; nothing was moved (the journal says what is about to move before it moves)")]
    Journal(JournalError),
    #[error("{} could not be written: {}", .path.display(), crate::fs::said(.source))]
    Io { path: PathBuf, source: io::Error },
}

impl ShareError {
    /// Whether skilldeck refused, rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        match self {
            ShareError::NoPlace(_)
            | ShareError::NoAgent { .. }
            | ShareError::Occupied(_)
            | ShareError::AlreadyThere(_)
            | ShareError::WouldShadow { .. }
            | ShareError::Managed { .. }
            | ShareError::LinkedFrom { .. }
            | ShareError::OnlyLinked { .. }
            | ShareError::Bundle(_) => true,
            ShareError::Install(InstallError::Conflict(_)) => true,
            ShareError::WouldLose(WouldLose::Unreadable(error)) | ShareError::Snapshot(error) => {
                error.is_refusal()
            }
            ShareError::WouldLose(_) => true,
            ShareError::Remove(error) => error.is_refusal(),
            ShareError::Install(_)
            | ShareError::Swap(_)
            | ShareError::Journal(_)
            | ShareError::Io { .. } => false,
        }
    }

    /// The refusal code of the command line's JSON.
    pub fn code(&self) -> &'static str {
        match self {
            ShareError::WouldShadow { .. } => "would_shadow",
            ShareError::Occupied(_) | ShareError::AlreadyThere(_) => "destination_conflict",
            ShareError::NoPlace(_) | ShareError::NoAgent { .. } => "no_destination",
            ShareError::Bundle(refusal) => refusal.code(),
            ShareError::Install(InstallError::Conflict(conflict)) => conflict.code(),
            _ if self.is_refusal() => "refused",
            _ => "io_failure",
        }
    }

    fn io(path: PathBuf, source: io::Error) -> Self {
        Self::Io { path, source }
    }
}

/// Where a link, copy or move of each skill of a batch goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub share: Share,
    /// The agent whose skills folder gets it; each skill's own when `None`.
    pub agent: Option<AgentId>,
    pub scope: Scope,
    /// Done even where it would change which copy an agent loads.
    pub force: bool,
    /// Weigh the shadowing of every agent that reads the destination, not only of those
    /// installed here.
    pub all_agents: bool,
}

/// What a link, copy or move of many skills came to: one outcome per skill, in order.
#[derive(Debug)]
pub struct Report<'s> {
    pub outcomes: Vec<(&'s Skill, Outcome<Shared, ShareError>)>,
}

/// Plan, then carry out, `request` for each of `skills` (see [`plan`] and [`share`]), in
/// order, as one batch.
pub fn run<'s>(
    machine: &Machine,
    inventory: &Inventory,
    skills: Vec<&'s Skill>,
    request: Request,
    on_failure: OnFailure,
    progress: &mut dyn Progress,
    cancel: &Cancel,
) -> Report<'s> {
    let batch = machine.in_a_batch();
    let outcomes = batch::each(
        &skills,
        |skill| skill.name.clone(),
        on_failure,
        progress,
        cancel,
        |skill| {
            let plan = plan(&batch, inventory, skill, &request)?;
            share(&batch, &plan, request.force)
        },
    );
    Report {
        outcomes: skills.into_iter().zip(outcomes).collect(),
    }
}

/// Work out where `skill` would go for the request's agent (its own agent when `None`) at its
/// scope, and what that would shadow among the agents judged (`force` is not weighed here).
///
/// # Errors
/// [`ShareError`] when there is no such place or something is already there.
pub fn plan(
    machine: &Machine,
    inventory: &Inventory,
    skill: &Skill,
    request: &Request,
) -> Result<Plan, ShareError> {
    let Request {
        share,
        agent,
        scope,
        all_agents,
        force: _,
    } = *request;
    if share == Share::Move {
        movable(skill)?;
    }
    let agent = match agent {
        Some(agent) => agent,
        None => own_agent(machine, skill, scope)?,
    };
    let root = destination(machine, agent, scope)?;
    let to = root.join(skill.dir_name());
    if skill.reached_by.contains(&to) || to == skill.real_dir {
        return Err(ShareError::AlreadyThere(to));
    }
    if fs::symlink_metadata(&to).is_ok() {
        return Err(ShareError::Occupied(to));
    }
    let loaders = Loaders::of(machine, &root, all_agents);
    let shadowing = shadowing(machine, inventory, skill, share, &to, &loaders);
    Ok(Plan {
        share,
        from: skill.dir.clone(),
        to,
        shadowing,
        real_from: skill.real_dir.clone(),
        agent,
        scope,
        loaders,
    })
}

/// A move takes the folder itself: only a skill folder of a root, that no link leads to, may
/// go (a plugin's or an agent's own would be put back by its manager).
fn movable(skill: &Skill) -> Result<(), ShareError> {
    let why = match skill.source {
        Source::Builtin => Some("shipped with its agent"),
        Source::Plugin => Some("part of a plugin"),
        _ if skill.plugin.is_some() => Some("part of a plugin"),
        _ => None,
    };
    if let Some(why) = why {
        return Err(ShareError::Managed {
            name: skill.name.clone(),
            why,
        });
    }
    let is_link = |path: &PathBuf| fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink());
    let links: Vec<PathBuf> = skill
        .reached_by
        .iter()
        .filter(|p| is_link(p))
        .cloned()
        .collect();
    if links.len() == skill.reached_by.len() {
        return Err(ShareError::OnlyLinked {
            link: skill.dir.clone(),
            folder: skill.real_dir.clone(),
        });
    }
    if !links.is_empty() {
        return Err(ShareError::LinkedFrom {
            dir: skill.real_dir.clone(),
            links,
        });
    }
    Ok(())
}

/// The agent whose skills folder holds `skill`, else the first agent that loads it and has a
/// folder at `scope`.
fn own_agent(machine: &Machine, skill: &Skill, scope: Scope) -> Result<AgentId, ShareError> {
    let parent = skill.dir.parent();
    let real_parent = skill.real_dir.parent();
    let holds = |agent: AgentId, scope: Scope| {
        machine.install_root(agent, scope).is_some_and(|root| {
            Some(root.as_path()) == parent
                || crate::fs::canonical(&root).ok().as_deref() == real_parent
        })
    };
    skill
        .agents
        .iter()
        .copied()
        .find(|&agent| holds(agent, Scope::User) || holds(agent, Scope::Project))
        .or_else(|| {
            skill
                .agents
                .iter()
                .copied()
                .find(|&agent| machine.install_root(agent, scope).is_some())
        })
        .ok_or_else(|| ShareError::NoAgent {
            name: skill.name.clone(),
        })
}

/// For each agent judged that reads the destination, the copy of the skill's name it runs now
/// that the new copy at `to` would beat, or that would beat the new copy.
fn shadowing(
    machine: &Machine,
    inventory: &Inventory,
    skill: &Skill,
    share: Share,
    to: &Path,
    loaders: &Loaders,
) -> Vec<WouldShadow> {
    let copy = NewCopy {
        root: &loaders.root,
        to,
        name_for: &|agent| skill.name_for(agent).into_owned(),
        // A link reaches the same folder, and a moved folder is gone from where it was: only a
        // copy competes with the skill it was made from.
        rival: &|other| share == Share::Copy || other.real_dir != skill.real_dir,
    };
    let roots = RootSet::resolve(&machine.env, &machine.project);
    would_shadow(&roots, inventory, &copy, &loaders.readers, loaders.judged())
}

/// Carry out `plan`; one that would shadow or be shadowed is refused unless `force`.
///
/// # Errors
/// [`ShareError`] says why not; nothing was changed.
pub fn share(machine: &Machine, plan: &Plan, force: bool) -> Result<Shared, ShareError> {
    if !plan.shadowing.is_empty() && !force {
        return Err(ShareError::WouldShadow {
            verb: plan.share.verb(),
            name: dir_name(&plan.to),
            shadowing: plan.shadowing.clone(),
        });
    }
    // Keyed while the folder is there to resolve its links.
    let record_key = upstream::key_dir(&plan.real_from);
    // A move writes ahead: a crash between its copy and the original's removal (two copies)
    // or after both leaves an intent that the next undo recovers.
    let underway = match plan.share {
        Share::Move => Some(begin_move(machine, plan)?),
        Share::Link | Share::Copy => None,
    };
    let done = match plan.share {
        Share::Link => link(plan).map(|change| (vec![change], None)),
        Share::Copy => copy(machine, plan),
        Share::Move => move_folder(machine, plan),
    };
    let (changes, missed_baseline) = match done {
        Ok(done) => done,
        Err(error) => {
            if let Some(underway) = underway {
                underway.done(machine, Entry::now(Operation::Move, Vec::new()));
            }
            return Err(error);
        }
    };
    let mut entry = Entry::now(plan.share.operation(), changes);
    if plan.share == Share::Move {
        entry.upstream = record_follows(machine, &record_key, &plan.to);
        // The snapshots follow the skill: its old place is not listed as gone. Unnoted, the
        // move stands and the old place reads as gone, which a restore there would undo.
        let _ = Store::open(&machine.env).note_moved(&plan.real_from, &plan.to);
    }
    let lock = lock_upkeep::keep_current(machine, &mut entry);
    let unjournalled = match underway {
        Some(underway) => underway.done(machine, entry),
        None => Journal::record_entry(machine, entry),
    };
    Ok(Shared {
        plan: plan.clone(),
        missed_baseline,
        unjournalled,
        lock,
    })
}

/// Snapshot the folder a move is about to take, and journal what the move is about to do.
fn begin_move(machine: &Machine, plan: &Plan) -> Result<Underway, ShareError> {
    nothing_lost("moving", &plan.real_from)?;
    let taken =
        Store::open(&machine.env).take_before_overwrite(&plan.real_from, Reason::BeforeRemove)?;
    let (root, name) = place(plan)?;
    let arriving = Change {
        dir: root.join(name),
        was: Was::Absent,
        snapshot: None,
        link: None,
    };
    let intent = Entry::now(
        Operation::Move,
        vec![arriving, gone(&plan.real_from, taken.snapshot.id)],
    );
    Underway::begin(machine, intent).map_err(ShareError::Journal)
}

/// What a move a crash stopped had done, from its intent and the disk: the folder that
/// arrived (snapshotted now, so undo takes it away only while it holds that), and the
/// original when it is gone (its snapshot, taken before, keeps it).
pub fn found_done(machine: &Machine, intent: &Entry) -> Entry {
    let store = Store::open(&machine.env);
    let mut found = intent.clone();
    found.ahead = None;
    found.changes.clear();
    for change in &intent.changes {
        match &change.was {
            Was::Absent if fs::symlink_metadata(&change.dir).is_ok_and(|m| m.is_dir()) => {
                if let Ok(taken) = store.take(&change.dir, Reason::Copied) {
                    found.changes.push(Change {
                        snapshot: Some(taken.snapshot.id),
                        ..change.clone()
                    });
                }
            }
            Was::Kept(_) if fs::symlink_metadata(&change.dir).is_err() => {
                found.changes.push(change.clone());
            }
            _ => {}
        }
    }
    found
}

/// Where a moved folder came from, recorded at its new place and forgotten at the old one,
/// so `update` and `outdated` follow it; the changes, for the move's journal entry. The record
/// only saves naming the upstream again: one that cannot be written leaves the old one, and
/// the move stands.
fn record_follows(machine: &Machine, from: &Path, to: &Path) -> Vec<UpstreamChange> {
    let Some(recorded) = upstream::of(&machine.data_dir(), from) else {
        return Vec::new();
    };
    let Ok(arrived) = upstream_record::set(machine, to, Some(&recorded)) else {
        return Vec::new();
    };
    let left = upstream_record::set(machine, from, None).ok().flatten();
    arrived.into_iter().chain(left).collect()
}

/// The last part of `dir`, the name agents know a skill in it by.
fn dir_name(dir: &Path) -> String {
    dir.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// The root and the folder name of `plan`'s destination.
fn place(plan: &Plan) -> Result<(&Path, String), ShareError> {
    match (plan.to.parent(), plan.to.file_name()) {
        (Some(root), Some(name)) => Ok((root, name.to_string_lossy().into_owned())),
        _ => Err(ShareError::Occupied(plan.to.clone())),
    }
}

/// A link at the destination to the skill's real folder, made only where nothing is.
fn link(plan: &Plan) -> Result<Change, ShareError> {
    let (root, name) = place(plan)?;
    let lock = RootLock::acquire(root)?;
    let at = lock.root().join(&name);
    crate::fs::link_folder(&plan.real_from, &at).map_err(|source| match source.kind() {
        io::ErrorKind::AlreadyExists => ShareError::Occupied(plan.to.clone()),
        _ => ShareError::io(at.clone(), source),
    })?;
    sync_dir(lock.root()).at(lock.root(), ShareError::io)?;
    Ok(Change {
        dir: at,
        was: Was::Absent,
        snapshot: None,
        link: Some(plan.real_from.clone()),
    })
}

/// The skill read as an import reads a folder, and installed at the destination with
/// skilldeck's record and a baseline snapshot.
fn copy(
    machine: &Machine,
    plan: &Plan,
) -> Result<(Vec<Change>, Option<SnapshotError>), ShareError> {
    let (root, name) = place(plan)?;
    let bundle = bundle::read(&plan.real_from)?;
    let Some(mut skill) = bundle.skills.into_iter().next() else {
        return Err(ShareError::Occupied(plan.to.clone()));
    };
    // Under the name agents know it by where it was found (a link may name its folder
    // otherwise).
    skill.name = name;
    let store = Store::open(&machine.env);
    let mut quiet = ();
    let mut keeping = Keeping::new(&store, &mut quiet, Reason::Copied);
    install::install(root, &[&skill], false, &mut keeping)?;
    let missed = keeping.missed_baselines.pop();
    Ok((std::mem::take(&mut keeping.changes), missed))
}

/// The folder renamed into the destination root when both are on one mount; else copied,
/// then the original removed. Snapshotted first either way, so undo can put it back.
fn move_folder(
    machine: &Machine,
    plan: &Plan,
) -> Result<(Vec<Change>, Option<SnapshotError>), ShareError> {
    let (root, name) = place(plan)?;
    let from = &plan.real_from;
    let Some(from_root) = from.parent() else {
        return Err(ShareError::AlreadyThere(from.clone()));
    };
    let store = Store::open(&machine.env);
    // Undo brings the folder back from a snapshot: what one would not keep is not moved.
    nothing_lost("moving", from)?;
    fs::create_dir_all(root).at(root, ShareError::io)?;
    let on_one_mount = same_mount(from_root, root).at(root, ShareError::io)?;
    if !on_one_mount {
        let (mut changes, missed) = copy(machine, plan)?;
        match remove::take_out(&store, from, None, Reason::BeforeRemove) {
            Ok(kept) => changes.push(gone(from, kept)),
            Err(error) => {
                // The copy stands: journalled as one, so undo can take it away again.
                let _ = Journal::record(machine, Operation::Copy, changes);
                return Err(error.into());
            }
        }
        return Ok((changes, missed));
    }
    // Both roots locked, in one order for every writer, so two moves cannot wait on each
    // other.
    let (first, second) = if from_root <= root {
        (from_root, root)
    } else {
        (root, from_root)
    };
    let first_lock = RootLock::acquire(first)?;
    let second_lock = (first != second)
        .then(|| RootLock::acquire(second))
        .transpose()?;
    let to_root = if first == root {
        first_lock.root()
    } else {
        second_lock
            .as_ref()
            .map_or(first_lock.root(), RootLock::root)
    };
    let to = to_root.join(&name);
    nothing_lost("moving", from)?;
    let before = store.take_before_overwrite(from, Reason::BeforeRemove)?;
    rename_no_replace(from, &to).map_err(|source| match source.kind() {
        io::ErrorKind::AlreadyExists => ShareError::Occupied(plan.to.clone()),
        _ => ShareError::io(from.clone(), source),
    })?;
    sync_dir(to_root).at(to_root, ShareError::io)?;
    sync_dir(from_root).at(from_root, ShareError::io)?;
    drop(second_lock);
    drop(first_lock);
    // The baseline an update merges against goes along, before the snapshot of what arrived.
    // Without it the move still stands: `update` there says it has no baseline.
    let _ = super::update::carry_baseline(&store, from, &to);
    let (baseline, missed) = match store.take(&to, Reason::Copied) {
        Ok(taken) => (Some(taken.snapshot.id), None),
        Err(error) => (None, Some(error)),
    };
    let arrived = Change {
        dir: to,
        was: Was::Absent,
        snapshot: baseline,
        link: None,
    };
    Ok((vec![arrived, gone(from, before.snapshot.id)], missed))
}

/// The change that says a folder went, kept in snapshot `kept`.
fn gone(dir: &Path, kept: String) -> Change {
    Change {
        dir: dir.to_path_buf(),
        was: Was::Kept(kept),
        snapshot: None,
        link: None,
    }
}
