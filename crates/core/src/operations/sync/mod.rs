//! `sync`: the project's skills brought to its `skills-lock.json`. Each locked skill is
//! fetched from its source at the locked commit (or, for a lock the skills CLI wrote, which
//! names no commit, at the commit of the ref's recent history whose folder hashes to the
//! lock's `computedHash`), its hash checked before a byte is written, and installed where the
//! skills CLI restores it, with skilldeck's record; what it replaces is kept in a snapshot and
//! the whole sync is one journal entry, so `undo` puts the project back.
//!
//! Where: `.agents/skills/NAME` at the lock's folder, and nowhere else. `skills
//! experimental_install` (skills 1.5.26, `dist/cli.mjs`) installs every entry with
//! `runAdd([source], {skill, agent: getUniversalAgents(), yes: true})` (`runInstallFromLock`):
//! only the agents whose project folder is `.agents/skills` (`getUniversalAgents`: `skillsDir
//! === ".agents/skills"`). For each of them `installSkillForAgent` copies the skill into the
//! canonical folder (`getCanonicalSkillsDir(false, cwd)` = `cwd/.agents/skills`) and then
//! links the agent's own folder to it, which for these agents is that same folder
//! (`createSymlink` returns at once when the two resolve alike), so a restore makes no link.
//! Agents that read another project folder (`.claude/skills`, …) see nothing a restore puts
//! back, and a sync does as the restore does.
//!
//! A skill already there with the locked hash is left as it is (a restore by the skills CLI,
//! whose files carry no skilldeck record, counts). A `local` entry whose folder is one of the
//! project's own skill folders (a team's skill committed under `.claude/skills`, locked by
//! `skilldeck lock`) is checked where it is, never copied.
//!
//! `--frozen` changes nothing unless every locked skill matches: like `cargo --locked` and
//! `npm ci`, each mismatch is named and nothing is written, the lock included; when all
//! match, the skills missing from the project are installed. Without it, the skills that
//! match are installed (a folder that differs from the lock replaced, kept in a snapshot),
//! those that cannot be had are named, and each commit found by a search is written into the
//! lock's `commit` field, so the next sync fetches it directly.

mod fetching;
pub mod source;

use std::path::{Path, PathBuf};

use crate::bundle::{BundledSkill, Refusal};
use crate::install::{self, Action, Conflict, InstallError};
use crate::lock::{self, Entry as LockEntry, LOCAL, LOCK_FILE, LockError, SkillsLock};
use crate::record::upstream::Upstream;
use crate::roots::Machine;
use crate::scan::Inventory;
use crate::settings::{self, EditError};
use crate::snapshot::{Reason, SnapshotError, Store};

use super::import::Unrecorded;
use super::journal::{Entry, JournalError, Operation};
use super::keeping::Keeping;
use super::lock::{LockOpError, lock_dir, project_skills};
use super::progress::{Cancel, Progress, Step, Watching};
use super::upstream_record;
use fetching::{Fetch, Sources};
use source::Origin;

/// What to sync.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// Change nothing unless every locked skill matches the lock.
    pub frozen: bool,
}

/// Why one locked skill does not match its lock, as a clause after "NAME: ".
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Mismatch {
    #[error("its files at {at} hash to {found}, not to the lock's computedHash {locked}")]
    HashDiffers {
        at: String,
        found: String,
        locked: String,
    },
    #[error(
        "no commit of {repository} within the last {examined} has a folder {folder} whose files hash to the lock's computedHash {locked}"
    )]
    NotFound {
        examined: usize,
        repository: String,
        folder: String,
        locked: String,
    },
    #[error("its source could not be reached: {0}")]
    Unreachable(String),
    #[error("its source has no folder {folder} at commit {commit}")]
    NoSuchFolder { folder: String, commit: String },
    #[error("its source holds no skill named {name}")]
    NoSkill { name: String },
    #[error("its files at {at} are refused: {refusal}")]
    Refused { at: String, refusal: Refusal },
    #[error(transparent)]
    Unfetchable(#[from] source::Unfetchable),
    #[error(
        "the installed folder {} differs from the lock: its files hash to {now}, the lock's computedHash is {locked}",
        .dir.display()
    )]
    InstalledDiffers {
        dir: PathBuf,
        now: String,
        locked: String,
    },
    #[error("the installed folder {} could not be read: {error}", .dir.display())]
    Unreadable { dir: PathBuf, error: String },
    #[error(transparent)]
    Conflict(#[from] Conflict),
    #[error("once installed, its files hash to {now}, not to the lock's computedHash {locked}")]
    AfterInstall { now: String, locked: String },
    #[error("the sync was cancelled before it was fetched")]
    Cancelled,
}

/// What became of one locked skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// Put in place from its source, where nothing was (`Install`) or over a folder that
    /// differed from the lock (`Replace`, `Update`: kept in a snapshot first).
    Installed(Action),
    /// Already in the project with the locked hash: left as it is.
    Matching,
    /// `--frozen`: it matches and would have been installed, and was not, because another
    /// locked skill does not match.
    WouldChange,
    /// Not installed, and why.
    Refused(Mismatch),
}

impl State {
    /// The word `--json` gives it.
    pub fn word(&self) -> &'static str {
        match self {
            State::Installed(_) => "installed",
            State::Matching => "matching",
            State::WouldChange => "would_change",
            State::Refused(_) => "refused",
        }
    }
}

/// One locked skill, synced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillSync {
    pub name: String,
    /// Where the skill is, or would be, in the project.
    pub dir: PathBuf,
    /// The commit its files came from, when they were fetched from git.
    pub commit: Option<String>,
    /// Whether the lock named no commit and `commit` was found in the source's history.
    pub found: bool,
    pub state: State,
}

/// What `sync` did.
#[derive(Debug)]
pub struct Synced {
    pub lock_path: PathBuf,
    /// The folder the lock is in; paths in the reports are relative to it.
    pub top: PathBuf,
    pub frozen: bool,
    /// Every locked skill, in the lock's order.
    pub skills: Vec<SkillSync>,
    /// Whether the lock was written (the commits a search found recorded in it).
    pub lock_written: bool,
    /// Baselines that could not be taken: those skills are installed, without a first
    /// snapshot.
    pub missed_baselines: Vec<SnapshotError>,
    /// Skills installed whose upstream could not be recorded.
    pub unrecorded: Vec<Unrecorded>,
    /// The journal could not be told, so `undo` will not know of this sync.
    pub unjournalled: Option<JournalError>,
}

impl Synced {
    /// Whether every locked skill matches the lock now (or, `--frozen`, would have).
    pub fn clean(&self) -> bool {
        !self
            .skills
            .iter()
            .any(|skill| matches!(skill.state, State::Refused(_)))
    }
}

/// Why nothing was synced; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error("there is no {LOCK_FILE} at {}; `skilldeck lock` or the skills CLI writes one", .0.display())]
    NoLock(PathBuf),
    #[error("nothing written: {0}")]
    Lock(#[from] LockError),
    #[error("nothing written: {0}")]
    Project(#[from] LockOpError),
    #[error(
        "{} leads out of the project, to {}; the project's own files decide where such a link points, so skilldeck does not install there; nothing written",
        .root.display(), .resolved.display()
    )]
    OutsideProject { root: PathBuf, resolved: PathBuf },
    #[error(transparent)]
    Install(#[from] InstallError),
    #[error("the skills were installed, but {LOCK_FILE} could not be given the commits found: {0}")]
    Write(#[from] EditError),
}

impl SyncError {
    /// Whether the sync was refused for what the project holds (exit 1), rather than stopped
    /// by a failure to read or write (exit 3).
    pub fn is_refusal(&self) -> bool {
        match self {
            SyncError::NoLock(_)
            | SyncError::Lock(_)
            | SyncError::Project(_)
            | SyncError::OutsideProject { .. } => true,
            SyncError::Install(InstallError::Conflict(_) | InstallError::Cancelled) => true,
            SyncError::Install(_) => false,
            SyncError::Write(error) => error.is_refusal(),
        }
    }
}

/// What the sync will do with one locked skill, worked out before anything is written.
enum Plan {
    Settled(SkillSync),
    Install(SkillSync, Box<Fetch>),
}

/// Sync `machine`'s project with its lock; `inventory` is the project's skills as scanned.
///
/// # Errors
/// [`SyncError`]: no lock, a lock that cannot be trusted, a skills folder that leads out of
/// the project (nothing was written), or a failure to install or to write the lock.
pub fn sync(
    machine: &Machine,
    inventory: &Inventory,
    request: Request,
    progress: &mut dyn Progress,
    cancel: &Cancel,
) -> Result<Synced, SyncError> {
    let top = lock_dir(machine);
    let lock_path = top.join(LOCK_FILE);
    let seen = std::fs::read(&lock_path).unwrap_or_default();
    let lock = SkillsLock::read(&lock_path)?.ok_or_else(|| SyncError::NoLock(top.clone()))?;
    let root = skills_root(&top)?;
    let own: Vec<PathBuf> = project_skills(inventory, &top)?
        .into_values()
        .flatten()
        .map(|skill| skill.real_dir.clone())
        .collect();
    let mut sources = Sources::default();
    let total = lock.skills.len();
    let mut plans = Vec::with_capacity(total);
    for (done, (name, entry)) in lock.skills.iter().enumerate() {
        progress.step(Step::Target {
            current: name,
            done,
            total,
        });
        let plan = plan(
            name,
            entry,
            &Context {
                top: &top,
                root: &root,
                own: &own,
                frozen: request.frozen,
            },
            &mut sources,
            progress,
            cancel,
        );
        plans.push(plan);
    }
    let refused = plans
        .iter()
        .any(|plan| matches!(plan, Plan::Settled(s) if matches!(s.state, State::Refused(_))));
    let mut synced = Synced {
        lock_path,
        top,
        frozen: request.frozen,
        skills: Vec::new(),
        lock_written: false,
        missed_baselines: Vec::new(),
        unrecorded: Vec::new(),
        unjournalled: None,
    };
    if request.frozen && refused {
        synced.skills = plans
            .into_iter()
            .map(|plan| match plan {
                Plan::Settled(skill) => skill,
                Plan::Install(skill, _) => SkillSync {
                    state: State::WouldChange,
                    ..skill
                },
            })
            .collect();
        return Ok(synced);
    }
    install_plans(
        machine,
        &lock,
        &seen,
        plans,
        &root,
        &mut synced,
        progress,
        cancel,
    )?;
    Ok(synced)
}

/// What one entry's plan is worked out from.
struct Context<'a> {
    top: &'a Path,
    root: &'a Path,
    /// The project's own skill folders, resolved.
    own: &'a [PathBuf],
    frozen: bool,
}

fn plan(
    name: &str,
    entry: &LockEntry,
    context: &Context<'_>,
    sources: &mut Sources,
    progress: &mut dyn Progress,
    cancel: &Cancel,
) -> Plan {
    let locked = entry.locked();
    let want = locked.computed_hash.to_ascii_lowercase();
    let dir = context.root.join(name);
    let settled = |dir: PathBuf, state: State| {
        Plan::Settled(SkillSync {
            name: name.to_owned(),
            dir,
            commit: locked.commit.clone(),
            found: false,
            state,
        })
    };
    let origin = match source::origin(&locked, context.top) {
        Ok(origin) => origin,
        Err(error) => return settled(dir, State::Refused(error.into())),
    };
    // A team's own skill, committed in the project and locked where it is: checked there.
    if locked.source_type == LOCAL
        && let Origin::Folder(folder) = &origin
        && let Ok(real) = crate::fs::canonical(folder)
        && context.own.contains(&real)
    {
        let state = match hash(folder, &want) {
            Ok(()) => State::Matching,
            Err(mismatch) => State::Refused(mismatch),
        };
        return settled(folder.clone(), state);
    }
    let differs = match dir.symlink_metadata() {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => false,
        _ => match hash(&dir, &want) {
            Ok(()) => return settled(dir, State::Matching),
            Err(mismatch) if context.frozen => return settled(dir, State::Refused(mismatch)),
            Err(_) => true,
        },
    };
    if cancel.is_cancelled() {
        return settled(dir, State::Refused(Mismatch::Cancelled));
    }
    let fetched = sources.fetch(
        name,
        &locked,
        &origin,
        &mut |said: &str| progress.step(Step::Said(said)),
        &|| cancel.is_cancelled(),
    );
    let fetch = match fetched {
        Ok(fetch) => fetch,
        Err(mismatch) => return settled(dir, State::Refused(mismatch)),
    };
    // What may not be replaced (a folder holding `.git`, a link out) is said now, before
    // anything is written.
    if differs && let Err(conflict) = super::import::plan(context.root, &[&fetch.skill], true) {
        return settled(dir, State::Refused(conflict.into()));
    }
    let skill = SkillSync {
        name: name.to_owned(),
        dir,
        commit: fetch.commit.clone(),
        found: fetch.found,
        state: State::Installed(if differs {
            Action::Replace
        } else {
            Action::Install
        }),
    };
    Plan::Install(skill, Box::new(fetch))
}

/// Whether the skill folder `dir` hashes to `want`.
fn hash(dir: &Path, want: &str) -> Result<(), Mismatch> {
    match lock::computed_hash(dir) {
        Ok(now) if now == want => Ok(()),
        Ok(now) => Err(Mismatch::InstalledDiffers {
            dir: dir.to_path_buf(),
            now,
            locked: want.to_owned(),
        }),
        Err(error) => Err(Mismatch::Unreadable {
            dir: dir.to_path_buf(),
            error: error.source.to_string(),
        }),
    }
}

/// Install every planned skill in one go, record where each came from, check each hash as
/// installed, give the lock the commits found, and journal it all as one entry.
#[allow(clippy::too_many_arguments)]
fn install_plans(
    machine: &Machine,
    lock: &SkillsLock,
    seen: &[u8],
    plans: Vec<Plan>,
    root: &Path,
    synced: &mut Synced,
    progress: &mut dyn Progress,
    cancel: &Cancel,
) -> Result<(), SyncError> {
    let mut skills = Vec::with_capacity(plans.len());
    let mut fetches: Vec<(usize, Box<Fetch>)> = Vec::new();
    for plan in plans {
        match plan {
            Plan::Settled(skill) => skills.push(skill),
            Plan::Install(skill, fetch) => {
                fetches.push((skills.len(), fetch));
                skills.push(skill);
            }
        }
    }
    synced.skills = skills;
    if fetches.is_empty() {
        return Ok(());
    }
    let chosen: Vec<&BundledSkill> = fetches.iter().map(|(_, fetch)| &fetch.skill).collect();
    let store = Store::open(&machine.env);
    let mut watching = Watching { progress, cancel };
    let mut keeping = Keeping::new(&store, &mut watching, Reason::Installed)
        .write_ahead(machine, Operation::Sync);
    let result = install::install(root, &chosen, true, &mut keeping);
    let mut entry = Entry::now(Operation::Sync, std::mem::take(&mut keeping.changes));
    let mut written = Ok(None);
    if let Ok(installed) = &result {
        for done in installed {
            let Some((at, fetch)) = fetches.iter().find(|(_, f)| f.skill.name == done.name) else {
                continue;
            };
            let skill = &mut synced.skills[*at];
            skill.state = State::Installed(done.action);
            record(
                machine,
                done,
                fetch.upstream.as_ref(),
                &mut entry,
                &mut synced.unrecorded,
            );
            let want = lock.skills[&done.name]
                .locked()
                .computed_hash
                .to_ascii_lowercase();
            if let Err(mismatch) = hash(&done.dir, &want) {
                synced.skills[*at].state = State::Refused(match mismatch {
                    Mismatch::InstalledDiffers { now, locked, .. } => {
                        Mismatch::AfterInstall { now, locked }
                    }
                    other => other,
                });
            }
        }
        // `--frozen` never writes the lock: the commits found are said, not recorded.
        if !synced.frozen {
            written = record_found(machine, lock, seen, &synced.lock_path, &fetches);
        }
        if let Ok(Some(change)) = &written {
            entry.settings = vec![change.clone()];
        }
    }
    synced.unjournalled = keeping.done(entry);
    synced.missed_baselines = std::mem::take(&mut keeping.missed_baselines);
    result?;
    synced.lock_written = written?.is_some();
    Ok(())
}

/// skilldeck's record of where `done` came from (forgotten for a skill from a plain folder,
/// so an older record does not outlive the files it named), into the journal entry.
fn record(
    machine: &Machine,
    done: &install::Installed,
    upstream: Option<&Upstream>,
    entry: &mut Entry,
    unrecorded: &mut Vec<Unrecorded>,
) {
    match upstream_record::set(machine, &done.dir, upstream) {
        Ok(change) => entry.upstream.extend(change),
        Err(error) => unrecorded.push(Unrecorded {
            skill: done.name.clone(),
            folder: machine.data_dir().join(crate::record::upstream::FOLDER),
            error,
        }),
    }
}

/// Write into the lock the commit each search found, the rest of it as it was; `None` when
/// no search found one. A lock another program changed since it was read is left as it is.
fn record_found(
    machine: &Machine,
    lock: &SkillsLock,
    seen: &[u8],
    path: &Path,
    fetches: &[(usize, Box<Fetch>)],
) -> Result<Option<crate::operations::SettingsChange>, EditError> {
    let mut after = lock.clone();
    let mut any = false;
    for (_, fetch) in fetches.iter().filter(|(_, fetch)| fetch.found) {
        let name = &fetch.skill.name;
        if let Some(entry) = after.skills.get_mut(name) {
            let locked = lock::Locked {
                commit: fetch.commit.clone(),
                ..entry.locked()
            };
            *entry = entry.updated(&locked);
            any = true;
        }
    }
    if !any {
        return Ok(None);
    }
    let text = after.render();
    settings::edit(machine, path, |now| {
        if now.as_bytes() == seen {
            Ok(Some(text.clone()))
        } else {
            Err(EditError::ChangedSince {
                file: path.to_path_buf(),
            })
        }
    })
}

/// `.agents/skills` at the lock's folder, where the skills CLI restores a lock, with the
/// links on the way resolved; it must stay inside the project, whose own files (a link
/// committed to a cloned repository) decide where such a link leads.
fn skills_root(top: &Path) -> Result<PathBuf, SyncError> {
    let root = top.join(".agents").join("skills");
    let real_top = crate::fs::canonical(top).unwrap_or_else(|_| top.to_path_buf());
    let Some(existing) = root.ancestors().find(|p| p.symlink_metadata().is_ok()) else {
        return Ok(root);
    };
    let resolved =
        crate::fs::canonical(existing)
            .ok()
            .map(|real| match root.strip_prefix(existing) {
                Ok(rest) if !rest.as_os_str().is_empty() => real.join(rest),
                _ => real,
            });
    match resolved {
        Some(inside) if inside.starts_with(&real_top) => Ok(inside),
        other => Err(SyncError::OutsideProject {
            resolved: other.unwrap_or_else(|| root.clone()),
            root,
        }),
    }
}
