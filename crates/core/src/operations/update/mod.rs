//! Update: bring an installed skill to a new upstream without losing the user's edits, by a
//! three-way merge of its files between its baseline (what was installed), the files now and
//! the new upstream (any bundle the bundle reader reads). A skill is updated only when every
//! file merges, or every conflict has a resolution; then the state before is snapshotted, the
//! merged files are swapped in whole under the root's lock, the new upstream is kept as the
//! baseline the next update merges against, and the journal lets `undo` put it all back.
//!
//! The record. skilldeck's own record (`installed-by: skilldeck`) is written again with the
//! content digest of the new upstream as skilldeck installs it, the files its baseline holds:
//! the record says what skilldeck put there, so a skill whose local edits the update kept
//! reads as modified, as it did before the update (and a later plain import will not replace
//! it unasked), and one without edits reads as intact. Another installer's record cannot be
//! rewritten for it: the update says which record would no longer match, and goes ahead only
//! when told to (`yes`).

use std::io;
use std::path::{Path, PathBuf};

use crate::bundle::{Bundle, BundledSkill};
use crate::fs::{Links, read_bounded};
use crate::install::{InstallError, RootLock, SwapError, sealed, sync_together};
use crate::merge::{self, Clash, Files, Merge, Resolution};
use crate::ownership::Installer;
use crate::record::{self, INSTALLED_BY, INSTALLED_VERSION, StampError, digest_of, stamp};
use crate::roots::Machine;
use crate::scan::Skill;
use crate::skill::SKILL_FILE;
use crate::snapshot::losses::{WouldLose, nothing_lost_in};
use crate::snapshot::walk::Listing;
use crate::snapshot::{COPY_BOUND, Reason, Snapshot, SnapshotError, Store};

mod case;
mod upstream;

pub use case::{
    Choices, FileReport, Planned, PrepareError, Report, Request, Settled, SkillReport, Status,
    Tally, apply, prepare,
};
pub use upstream::{Fetched, UpstreamError, Wanted};

use super::journal::{Change, Entry, Journal, JournalError, Operation, StoreChange, Was};
use super::lock_upkeep::{self, Upkeep};
use super::upstream_record;
use crate::record::upstream::Upstream;

/// The verb of the sentence that refuses an update that would lose files.
const UPDATING: &str = "updating";

/// Where the baseline of a merge came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Baseline {
    /// skilldeck's snapshot of what it installed (or of the upstream the last update merged).
    Snapshot(String),
    /// The untouched copy its installer keeps elsewhere.
    Pristine(PathBuf),
}

/// What updating one skill would do, read only: the merge of its files, and what would go
/// stale. [`write`] writes it.
#[derive(Clone, Debug)]
pub struct Plan {
    pub name: String,
    /// The skill folder, links resolved.
    pub dir: PathBuf,
    pub baseline: Baseline,
    pub merge: Merge,
    /// Each record another installer keeps of the skill that the update would leave
    /// describing other files, in a sentence; empty when none would.
    pub stale: Vec<String>,
    /// skilldeck's record is written again (see the module's comment).
    reseal: bool,
    ours: Files,
    /// The upstream as the baseline keeps it: with skilldeck's record when it is resealed.
    theirs: Files,
    /// Where the upstream came from in a repository, recorded by [`write`] in the update's
    /// journal entry ([`Plan::recording`]).
    upstream: Option<Upstream>,
}

impl Plan {
    /// The plan, recording when applied that the skill now comes from `upstream`: written
    /// with the files and journalled with them, so one undo puts both back.
    /// `Fetched::plan` gives a plan that already does.
    #[must_use]
    pub fn recording(mut self, upstream: Option<Upstream>) -> Self {
        self.upstream = upstream;
        self
    }

    /// The files that conflict, with why, in path order.
    pub fn conflicts(&self) -> Vec<(&str, Clash)> {
        self.merge
            .conflicts()
            .filter_map(|file| Some((file.path.as_str(), file.conflict.as_ref()?.clash)))
            .collect()
    }

    /// Why the update cannot go ahead with conflicts settled by `resolve`, and another
    /// installer's record left stale only when `yes`; `None` when it can.
    pub fn stops(
        &self,
        resolve: &dyn Fn(&str) -> Option<Resolution>,
        yes: bool,
    ) -> Option<UpdateError> {
        self.settled(resolve, yes).err()
    }

    /// The skill's files after the update, as merged and settled (the record not yet
    /// written again).
    ///
    /// # Errors
    /// [`UpdateError::Conflicts`] naming the conflicts `resolve` left unsettled, else
    /// [`UpdateError::WouldGoStale`] unless `yes`.
    fn settled(
        &self,
        resolve: &dyn Fn(&str) -> Option<Resolution>,
        yes: bool,
    ) -> Result<Files, UpdateError> {
        let files = self.merge.result(resolve).map_err(|unsettled| {
            let files = self
                .conflicts()
                .into_iter()
                .filter(|(path, _)| unsettled.iter().any(|u| u == path))
                .map(|(path, clash)| (path.to_owned(), clash))
                .collect();
            UpdateError::Conflicts {
                dir: self.dir.clone(),
                files,
            }
        })?;
        if !self.stale.is_empty() && !yes {
            return Err(UpdateError::WouldGoStale {
                dir: self.dir.clone(),
                stale: self.stale.clone(),
            });
        }
        Ok(files)
    }

    /// Whether the update would change nothing: the upstream holds what the baseline does,
    /// so every file is as upstream has it or as edited here.
    pub fn up_to_date(&self) -> bool {
        matches!(self.baseline, Baseline::Snapshot(_))
            && self.merge.files.iter().all(|file| {
                matches!(
                    file.summary,
                    merge::Summary::Unchanged | merge::Summary::KeptOurs
                )
            })
    }
}

/// What an update did to one skill.
#[derive(Debug)]
pub struct Updated {
    pub name: String,
    pub dir: PathBuf,
    /// The folder was rewritten; false when the merge left it as it was.
    pub written: bool,
    /// The snapshot of what the folder held before, when it was rewritten.
    pub before: Option<String>,
    /// The snapshot of the upstream, the next update's baseline.
    pub baseline: String,
    /// The journal could not be told, so `undo` will not know of this update.
    pub unjournalled: Option<JournalError>,
    /// The project's `skills-lock.json` kept current with the new files, when it has one.
    pub lock: Upkeep,
}

/// Why a skill was not updated; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum UpdateError {
    #[error(
        "{} has no baseline to merge against: skilldeck keeps one for what it installs, and no installer keeps an untouched copy of it; nothing was written (import it again to replace it, or take a snapshot to compare against)",
        .0.display()
    )]
    NoBaseline(PathBuf),
    #[error(
        "the baseline of {} kept only its SKILL.md (the skill was over the {} MiB copy bound), so the other files cannot be merged; nothing was written",
        .0.display(),
        COPY_BOUND >> 20
    )]
    TruncatedBaseline(PathBuf),
    #[error("{bundle} holds no skill named {name}{}; nothing was written", names_in(.names))]
    NotInBundle {
        name: String,
        bundle: String,
        names: Vec<String>,
    },
    #[error(
        "{} was not updated: {}; nothing was written (--take theirs or --take ours settles every conflict)",
        .dir.display(),
        .files.iter().map(|(path, clash)| format!("{path} ({})", clash.describe())).collect::<Vec<_>>().join(", ")
    )]
    Conflicts {
        dir: PathBuf,
        files: Vec<(String, Clash)>,
    },
    #[error("{} was not updated: {}; nothing was written (--yes updates it all the same)", .dir.display(), .stale.join("; "))]
    WouldGoStale { dir: PathBuf, stale: Vec<String> },
    #[error("{} was not updated: the update would leave it without a SKILL.md; nothing was written", .0.display())]
    NoManifest(PathBuf),
    #[error("{}: the SKILL.md {error}; nothing was written", .dir.display())]
    Record { dir: PathBuf, error: StampError },
    #[error("{} changed while it was being updated; nothing was written, try again", .0.display())]
    ChangedSince(PathBuf),
    #[error(transparent)]
    WouldLose(#[from] WouldLose),
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    #[error(transparent)]
    Swap(#[from] SwapError),
    #[error(transparent)]
    Install(InstallError),
    #[error("{} could not be written: {}", .path.display(), crate::fs::said(.source))]
    Write { path: PathBuf, source: io::Error },
}

impl UpdateError {
    /// Whether the error is about what was asked for, rather than a failure to read or write.
    pub fn is_refusal(&self) -> bool {
        match self {
            UpdateError::Snapshot(error) => error.is_refusal(),
            UpdateError::WouldLose(WouldLose::Unreadable(error)) => error.is_refusal(),
            UpdateError::Swap(_) | UpdateError::Install(_) | UpdateError::Write { .. } => false,
            _ => true,
        }
    }

    /// The refusal code of the command-line contract.
    pub fn code(&self) -> &'static str {
        match self {
            UpdateError::NoBaseline(_) | UpdateError::TruncatedBaseline(_) => "no_baseline",
            UpdateError::NotInBundle { .. } => "not_in_bundle",
            UpdateError::Conflicts { .. } => "conflict",
            UpdateError::WouldGoStale { .. } => "would_go_stale",
            _ if !self.is_refusal() => "io_failure",
            _ => "refused",
        }
    }
}

fn names_in(names: &[String]) -> String {
    match names {
        [] => " (it holds no skill at all)".to_owned(),
        names => format!(" (it holds {})", names.join(", ")),
    }
}

/// The skill of `bundle` (read from `source`) that updates the skill folder `dir`: the one of
/// the same folder name.
///
/// # Errors
/// [`UpdateError::NotInBundle`] naming the skills it holds.
pub fn pick<'b>(
    bundle: &'b Bundle,
    source: &Path,
    dir: &Path,
) -> Result<&'b BundledSkill, UpdateError> {
    let name = folder_name(dir);
    bundle
        .skills
        .iter()
        .find(|skill| skill.name == name)
        .ok_or_else(|| UpdateError::NotInBundle {
            name,
            bundle: source.display().to_string(),
            names: bundle.skills.iter().map(|s| s.name.clone()).collect(),
        })
}

/// What updating `skill` to `upstream` would do, reading only.
///
/// # Errors
/// No baseline to merge against, or a folder or snapshot that cannot be read.
pub fn plan(
    machine: &Machine,
    skill: &Skill,
    upstream: &BundledSkill,
) -> Result<Plan, UpdateError> {
    let dir = skill.real_dir.clone();
    let store = Store::open(&machine.env);
    let (baseline, base) = baseline(&store, skill)?;
    let ours = read_ours(&dir)?;
    let record = ours
        .get(SKILL_FILE)
        .and_then(|file| record::parse(&file.bytes));
    let reseal = record
        .as_ref()
        .is_some_and(|record| record.installed_by == INSTALLED_BY);
    let theirs = if reseal {
        sealed(upstream)
            .map_err(|error| match error {
                InstallError::Record { error, .. } => UpdateError::Record {
                    dir: dir.clone(),
                    error,
                },
                other => UpdateError::Install(other),
            })?
            .into_iter()
            .map(|file| {
                (
                    file.path.to_owned(),
                    merge::File::new(file.bytes.into_owned(), file.executable),
                )
            })
            .collect()
    } else {
        bundled(upstream)
    };
    let stale = if reseal {
        Vec::new()
    } else {
        stale(skill, record.as_ref())
    };
    let merge = match &record {
        _ if reseal => merge::merge(&blanked(&base), &blanked(&ours), &blanked(&theirs)),
        // Another installer's record stands as it is: the baseline and the upstream are given
        // the same lines, so that the merge leaves them alone.
        Some(record) => merge::merge(
            &recorded_as(&base, record),
            &ours,
            &recorded_as(&theirs, record),
        ),
        None => merge::merge(&base, &ours, &theirs),
    };
    Ok(Plan {
        name: skill.name.clone(),
        dir,
        baseline,
        merge,
        stale,
        reseal,
        ours,
        theirs,
        upstream: None,
    })
}

/// Update the skill as `plan` says, each conflict settled by `resolve`; `yes` lets it leave
/// another installer's record stale. [`apply`] runs it for every skill of an update.
///
/// # Errors
/// A conflict `resolve` left unsettled, a record that would go stale, the folder changed since
/// the plan, or the write that failed; in each case the folder is as it was.
fn write(
    machine: &Machine,
    plan: &Plan,
    resolve: &dyn Fn(&str) -> Option<Resolution>,
    yes: bool,
) -> Result<Updated, UpdateError> {
    let dir = &plan.dir;
    let mut written = plan.settled(resolve, yes)?;
    if plan.reseal {
        reseal(dir, &mut written, &plan.theirs)?;
    }
    let name = folder_name(dir);
    let root = dir.parent().unwrap_or(dir);
    let lock = RootLock::acquire(root)?;
    // Judged again under the lock: what the merge read is what is replaced.
    if read_ours(dir)? != plan.ours {
        return Err(UpdateError::ChangedSince(dir.clone()));
    }
    let store = Store::open(&machine.env);
    let rewrite = written != plan.ours;
    let mut before = None;
    if rewrite {
        let kept = store.take_before_overwrite(dir, Reason::BeforeUpdate)?;
        before = Some(kept.snapshot.id);
        let mut staged = lock.stage(&name)?;
        for (path, file) in &written {
            staged.write(Path::new(path), &file.bytes, file.executable)?;
        }
        sync_together(std::slice::from_mut(&mut staged))?;
        lock.replace(staged, &name)?;
    }
    drop(lock);
    // What is in place, for undo to check it is still there; then the upstream, kept last
    // so that it is what diffs compare against: the local edits kept show as changes.
    let after = if rewrite && written != plan.theirs {
        Some(store.take(dir, Reason::Updated)?.snapshot.id)
    } else {
        None
    };
    let upstream = if written == plan.theirs {
        store.take(dir, Reason::Upstream)?
    } else {
        let staging = tempfile::tempdir().map_err(|source| UpdateError::Write {
            path: std::env::temp_dir(),
            source,
        })?;
        write_files(staging.path(), &plan.theirs)?;
        store.take_of(dir, staging.path(), Reason::Upstream)?
    };
    let mut entry = Entry::now(Operation::Update, Vec::new());
    if let Some(before) = &before {
        entry.changes.push(Change {
            dir: dir.clone(),
            was: Was::Kept(before.clone()),
            snapshot: Some(
                after
                    .clone()
                    .unwrap_or_else(|| upstream.snapshot.id.clone()),
            ),
            link: None,
        });
    }
    // Undo holds the new baseline aside, so the one before is the baseline again.
    if upstream.fresh {
        entry.store.push(StoreChange::Added {
            dir: dir.clone(),
            id: upstream.snapshot.id.clone(),
        });
    }
    // A record that cannot be written here is written by `Fetched::remember`, which says so.
    if let Some(upstream) = &plan.upstream
        && let Ok(change) = upstream_record::set(machine, dir, Some(upstream))
    {
        entry.upstream.extend(change);
    }
    let lock = lock_upkeep::keep_current(machine, &mut entry);
    let unjournalled = Journal::record_entry(machine, entry);
    Ok(Updated {
        name: plan.name.clone(),
        dir: dir.clone(),
        written: rewrite,
        before,
        baseline: upstream.snapshot.id,
        unjournalled,
        lock,
    })
}

/// Write skilldeck's record into the merged `SKILL.md` again, with the digest of the upstream
/// as installed (`theirs`, sealed).
fn reseal(dir: &Path, files: &mut Files, theirs: &Files) -> Result<(), UpdateError> {
    let manifest = files
        .get_mut(SKILL_FILE)
        .ok_or_else(|| UpdateError::NoManifest(dir.to_path_buf()))?;
    let text = String::from_utf8_lossy(&manifest.bytes).into_owned();
    let stamped =
        stamp(&text, INSTALLED_BY, INSTALLED_VERSION).map_err(|error| UpdateError::Record {
            dir: dir.to_path_buf(),
            error,
        })?;
    let digest = digest_of(
        theirs
            .iter()
            .map(|(path, file)| (Path::new(path.as_str()), file.bytes.as_slice())),
    );
    manifest.bytes = stamped.seal(&digest).into_bytes();
    Ok(())
}

/// Each of `files` with the content digest of its `SKILL.md` blanked: the one line of
/// skilldeck's record that differs between the sides for no edit of anyone's.
fn blanked(files: &Files) -> Files {
    let mut files = files.clone();
    if let Some(manifest) = files.get_mut(SKILL_FILE) {
        manifest.bytes = record::blanked(&manifest.bytes).into_owned();
    }
    files
}

/// `files` with the record in their `SKILL.md` written as `record` says, where it can be.
fn recorded_as(files: &Files, record: &record::Record) -> Files {
    let mut files = files.clone();
    if let Some(manifest) = files.get_mut(SKILL_FILE)
        && let Ok(text) = std::str::from_utf8(&manifest.bytes)
        && let Ok(stamped) = stamp(text, &record.installed_by, &record.installed_version)
    {
        let empty = "  content-digest: \"\"";
        let digest = format!("  content-digest: \"{}\"", record.content_digest);
        manifest.bytes = stamped.text().replacen(empty, &digest, 1).into_bytes();
    }
    files
}

/// What another installer keeps of `skill` that an update would leave describing other files.
fn stale(skill: &Skill, record: Option<&record::Record>) -> Vec<String> {
    if let Some(owner) = &skill.owner
        && owner.installer != Installer::Program(INSTALLED_BY.to_owned())
        && (owner.hash.is_some() || owner.pristine.is_some() || record.is_some())
    {
        return vec![format!(
            "{} installed it and keeps its record in {}, which would no longer match the updated files",
            owner.installer,
            owner.recorded_in.display()
        )];
    }
    match record {
        Some(record) => vec![format!(
            "{} installed it and its record in SKILL.md would no longer match the updated files",
            record.installed_by
        )],
        None => Vec::new(),
    }
}

/// The baseline of `skill`: skilldeck's latest snapshot of an install or of an update's
/// upstream, else the untouched copy its installer keeps.
fn baseline(store: &Store, skill: &Skill) -> Result<(Baseline, Files), UpdateError> {
    let dir = &skill.real_dir;
    if let Some(snapshot) = kept_baseline(store, dir)? {
        if snapshot.info.truncated {
            return Err(UpdateError::TruncatedBaseline(dir.clone()));
        }
        let files = snapshot
            .read_kept(dir)?
            .into_iter()
            .map(|kept| (kept.rel, merge::File::new(kept.bytes, kept.executable)))
            .collect();
        return Ok((Baseline::Snapshot(snapshot.id), files));
    }
    match skill
        .owner
        .as_ref()
        .and_then(|owner| owner.pristine.clone())
    {
        Some(pristine) => {
            let files = read_listing(&Listing::read(&pristine)?)?;
            Ok((Baseline::Pristine(pristine), files))
        }
        None => Err(UpdateError::NoBaseline(dir.clone())),
    }
}

/// skilldeck's latest snapshot of `dir` as installed or as an update's upstream: what an
/// update merges against.
fn kept_baseline(store: &Store, dir: &Path) -> Result<Option<Snapshot>, SnapshotError> {
    Ok(store
        .history(dir)?
        .into_iter()
        .rev()
        .find(|snapshot| matches!(snapshot.info.reason, Reason::Installed | Reason::Upstream)))
}

/// Give `to`, the folder `from` was moved to, the baseline `from` had, so an update at the new
/// place merges against what was installed; nothing when it had none. Taken before any other
/// snapshot of `to`, so a later one of the same content is not taken twice and the folder's
/// latest snapshot stays what it holds.
///
/// # Errors
/// The baseline could not be read or kept: `to` then has none, which `update` says.
pub fn carry_baseline(store: &Store, from: &Path, to: &Path) -> Result<(), UpdateError> {
    let Some(snapshot) = kept_baseline(store, from)?.filter(|s| !s.info.truncated) else {
        return Ok(());
    };
    let files: Files = snapshot
        .read_kept(from)?
        .into_iter()
        .map(|kept| (kept.rel, merge::File::new(kept.bytes, kept.executable)))
        .collect();
    let staging = tempfile::tempdir().map_err(|source| UpdateError::Write {
        path: std::env::temp_dir(),
        source,
    })?;
    write_files(staging.path(), &files)?;
    store.take_of(to, staging.path(), snapshot.info.reason)?;
    Ok(())
}

/// The skill's files now; refused when replacing the folder would lose what a snapshot keeps
/// not (a `.git` folder, a link out).
fn read_ours(dir: &Path) -> Result<Files, UpdateError> {
    let listing = Listing::read(dir)?;
    nothing_lost_in(UPDATING, &listing)?;
    read_listing(&listing)
}

fn read_listing(listing: &Listing) -> Result<Files, UpdateError> {
    let mut files = Files::new();
    for entry in &listing.files {
        let bytes = read_bounded(&entry.source, Links::Follow, COPY_BOUND).map_err(|source| {
            SnapshotError::Read {
                path: entry.source.clone(),
                source,
            }
        })?;
        files.insert(entry.rel.clone(), merge::File::new(bytes, entry.executable));
    }
    Ok(files)
}

fn bundled(skill: &BundledSkill) -> Files {
    skill
        .files
        .iter()
        .map(|file| {
            (
                file.path.clone(),
                merge::File::new(file.content.clone(), file.executable),
            )
        })
        .collect()
}

/// Lay `files` out under `dir`, for a snapshot of them.
fn write_files(dir: &Path, files: &Files) -> Result<(), UpdateError> {
    for (path, file) in files {
        let target = dir.join(path);
        let write = |target: &Path| -> io::Result<()> {
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(target, &file.bytes)?;
            set_executable(target, file.executable)
        };
        write(&target).map_err(|source| UpdateError::Write {
            path: target.clone(),
            source,
        })?;
    }
    Ok(())
}

#[cfg(unix)]
fn set_executable(path: &Path, executable: bool) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = if executable { 0o700 } else { 0o600 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_executable(_path: &Path, _executable: bool) -> io::Result<()> {
    Ok(())
}

fn folder_name(dir: &Path) -> String {
    dir.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}
