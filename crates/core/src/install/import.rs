//! Installing the skills of a bundle into a root, with skilldeck's record.
//!
//! Decided as agent-skill-installer decides: nothing there, install; skilldeck's copy and
//! intact, update; edited, or someone else's, a conflict unless forced. Every skill is judged
//! before anything is written, so a conflict on the last leaves the root untouched; under the
//! root's lock they are judged again (another import may have been first), then every skill is
//! staged, all are synced together, and each is renamed into place in one step by
//! [`RootLock`]. Each `SKILL.md` gets the
//! record and the content digest of exactly the files written.

use std::borrow::Cow;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::existing::{Existing, judge};
use super::swap::{RootLock, SwapError, sync_together};
use crate::bundle::BundledSkill;
use crate::fs::is_executable;
use crate::record::{INSTALLED_BY, INSTALLED_VERSION, StampError, digest_of, stamp};
use crate::skill::SKILL_FILE;

/// What an import does to one skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Action {
    /// Nothing was there.
    #[serde(rename = "installed")]
    Install,
    /// skilldeck's own intact copy was there.
    #[serde(rename = "updated")]
    Update,
    /// An edited copy, or someone else's, was there, and `--force` was given.
    #[serde(rename = "replaced")]
    Replace,
    /// skilldeck's own intact copy was there, byte for byte and mode for mode what the import
    /// would write: left as it is.
    #[serde(rename = "unchanged")]
    Unchanged,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Install => "installed",
            Action::Update => "updated",
            Action::Replace => "replaced",
            Action::Unchanged => "unchanged",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A skill the root already holds in a form an import may not replace.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} {why}; nothing was written{}", .dir.display(), match (*.forcible, *.edited) {
    (true, true) => " (--force replaces it, and the edit is lost)",
    (true, false) => " (--force replaces it)",
    (false, _) => "",
})]
pub struct Conflict {
    pub dir: PathBuf,
    pub why: String,
    /// Whether `--force` would replace it.
    pub forcible: bool,
    /// It is skilldeck's copy, edited since: an import keeps the edit unless told to replace
    /// it (the app keeps it unless the person picks it), and `update` merges the two.
    pub edited: bool,
}

impl Conflict {
    /// The refusal code of the command-line contract.
    pub fn code(&self) -> &'static str {
        "destination_conflict"
    }
}

/// What will happen to one skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step<'b> {
    pub skill: &'b BundledSkill,
    pub dir: PathBuf,
    pub action: Action,
}

/// One skill installed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Installed {
    pub name: String,
    pub dir: PathBuf,
    pub action: Action,
}

/// How far an install has got, after each file written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress<'a> {
    pub skill: &'a str,
    pub files_done: usize,
    pub files_total: usize,
}

/// What an install tells its caller on the way.
pub trait Watch {
    /// A file was written and synced into its skill's staging folder.
    fn wrote(&mut self, _progress: Progress<'_>) {}

    /// `skill_dir`, which an update or a replacement is about to swap out, still holds what
    /// was there before. The one place to keep a copy of it: an error stops the import before
    /// the skill changes.
    ///
    /// # Errors
    /// Whatever stops the replacement.
    fn before_replace(&mut self, _skill_dir: &Path) -> io::Result<()> {
        Ok(())
    }

    /// Every skill is staged, every folder about to be replaced is kept, and nothing in the
    /// root has changed yet: `dirs` are the folders about to be put in place, in order. The
    /// place to say ahead what is about to happen; an error stops the import here, with
    /// nothing in the root changed.
    ///
    /// # Errors
    /// Whatever stops the install before its first folder is put in place.
    fn about_to_swap(&mut self, _dirs: &[&Path]) -> io::Result<()> {
        Ok(())
    }

    /// `skill_dir` now holds the skill as installed; the place to keep it as a baseline.
    fn installed(&mut self, _skill_dir: &Path) {}

    /// Whether to go on: asked before the root is locked (and created), and again once every
    /// skill is staged and before the first is renamed into place. `false` stops the install
    /// with [`InstallError::Cancelled`] and nothing in the root changed.
    fn carry_on(&mut self) -> bool {
        true
    }
}

/// A watch that wants to hear nothing.
impl Watch for () {}

/// Why an install stopped.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error(transparent)]
    Conflict(#[from] Conflict),
    #[error(transparent)]
    Swap(#[from] SwapError),
    #[error("{} could not be kept before it was replaced: {}", .dir.display(), crate::fs::said(.source))]
    BeforeReplace { dir: PathBuf, source: io::Error },
    #[error("{name}/SKILL.md {error}")]
    Record { name: String, error: StampError },
    #[error("the import could not say ahead what it was about to do, so nothing was written: {0}")]
    NotAnnounced(io::Error),
    #[error("the import was cancelled before any skill was put in place; nothing was written")]
    Cancelled,
}

/// What installing `skills` into `root` would do, reading only.
///
/// # Errors
/// The first skill the root holds in a form that may not be replaced.
pub fn plan<'b>(
    root: &Path,
    skills: &[&'b BundledSkill],
    force: bool,
) -> Result<Vec<Step<'b>>, Conflict> {
    a_folder_on_the_way(root)?;
    skills
        .iter()
        .map(|skill| {
            let dir = root.join(&skill.name);
            let action = match decide(&dir, judge(&dir), force)? {
                Action::Update if holds_already(&dir, skill) => Action::Unchanged,
                action => action,
            };
            Ok(Step { skill, dir, action })
        })
        .collect()
}

/// Refuse a root that cannot hold folders: the nearest existing path on the way to it (itself
/// included) is not a folder (a file, or a link to anything but a folder). Said of that path,
/// not of each skill below it, which would read as a skill already there.
///
/// # Errors
/// The conflict naming that path; never forcible.
pub fn a_folder_on_the_way(root: &Path) -> Result<(), Conflict> {
    let nearest = root
        .ancestors()
        .find(|path| path.symlink_metadata().is_ok());
    match nearest {
        Some(path) if !path.is_dir() => Err(Conflict {
            dir: path.to_path_buf(),
            why: "is not a folder, so no skill can be installed below it".to_owned(),
            forcible: false,
            edited: false,
        }),
        _ => Ok(()),
    }
}

/// Whether `dir`, skilldeck's intact copy, already holds what installing `skill` would write.
/// Intact, its files are the ones its record's digest names; a `SKILL.md` equal to the one
/// the install would write carries the same record and digest, so the same files: only the
/// executable bits are left to compare.
fn holds_already(dir: &Path, skill: &BundledSkill) -> bool {
    let Ok(files) = sealed(skill) else {
        return false;
    };
    files.iter().all(|file| {
        let path = dir.join(file.path);
        let same_mode = path
            .symlink_metadata()
            .is_ok_and(|meta| meta.is_file() && is_executable(&meta) == file.executable);
        same_mode
            && (file.path != SKILL_FILE || std::fs::read(&path).is_ok_and(|b| b == *file.bytes))
    })
}

/// Why skilldeck's own copy, edited since, is kept: with the way to bring the new copy in
/// without losing the edit, the three-way `update`.
fn edited_why(dir: &Path) -> String {
    let name = dir
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    format!(
        "was edited since skilldeck installed it, so the edit is kept: `skilldeck update {name} --from SOURCE` merges the new copy into it, keeping the edit"
    )
}

fn decide(dir: &Path, existing: Existing, force: bool) -> Result<Action, Conflict> {
    let conflict = |why: String, forcible: bool| Conflict {
        dir: dir.to_path_buf(),
        why,
        forcible,
        edited: false,
    };
    match existing {
        Existing::Absent => Ok(Action::Install),
        Existing::Ours { intact: true } => Ok(Action::Update),
        Existing::Ours { intact: false }
        | Existing::Foreign {
            replaceable: true, ..
        } if force => Ok(Action::Replace),
        Existing::Ours { intact: false } => Err(Conflict {
            edited: true,
            ..conflict(edited_why(dir), true)
        }),
        Existing::Foreign { why, replaceable } => Err(conflict(why, replaceable)),
    }
}

/// Install `skills` into `root` (created when missing).
///
/// # Errors
/// A conflict, found before anything is written, or the write that failed; each skill already
/// renamed into place stays, whole, and no skill is ever left half-written.
pub fn install(
    root: &Path,
    skills: &[&BundledSkill],
    force: bool,
    watch: &mut dyn Watch,
) -> Result<Vec<Installed>, InstallError> {
    // What is in the root is judged only under its lock: judged before, a skill another
    // import is swapping at that moment reads as a mix of two versions, an edit.
    a_folder_on_the_way(root)?;
    let sealed: Vec<Vec<Sealed<'_>>> = skills
        .iter()
        .map(|skill| sealed(skill))
        .collect::<Result<_, _>>()?;
    if !watch.carry_on() {
        return Err(InstallError::Cancelled);
    }
    let lock = RootLock::acquire(root)?;
    let steps = plan(lock.root(), skills, force)?;
    // A skill there already as it would be written is left alone: nothing to stage or swap.
    let written = |step: &Step<'_>| step.action != Action::Unchanged;
    let files_total: usize = steps
        .iter()
        .zip(&sealed)
        .filter(|(step, _)| written(step))
        .map(|(_, files)| files.len())
        .sum();
    let mut files_done = 0;
    // Every skill is staged before any is renamed in, and all are synced in one go.
    let mut staged = Vec::with_capacity(steps.len());
    for (step, files) in steps.iter().zip(&sealed).filter(|(step, _)| written(step)) {
        let name = step.skill.name.as_str();
        let staging = lock.stage(name)?;
        for file in files {
            staging.write(Path::new(file.path), &file.bytes, file.executable)?;
            files_done += 1;
            watch.wrote(Progress {
                skill: name,
                files_done,
                files_total,
            });
        }
        staged.push(staging);
    }
    sync_together(&mut staged)?;
    if !watch.carry_on() {
        // The staged folders are removed as they are dropped.
        return Err(InstallError::Cancelled);
    }
    // Every folder to be replaced is kept before the first is swapped, so a failure to keep
    // one stops the import with nothing in the root changed.
    let replaced = |step: &&Step<'_>| written(step) && step.action != Action::Install;
    for step in steps.iter().filter(replaced) {
        watch
            .before_replace(&step.dir)
            .map_err(|source| InstallError::BeforeReplace {
                dir: step.dir.clone(),
                source,
            })?;
    }
    let dirs: Vec<&Path> = steps
        .iter()
        .filter(|step| written(step))
        .map(|step| step.dir.as_path())
        .collect();
    watch
        .about_to_swap(&dirs)
        .map_err(InstallError::NotAnnounced)?;
    let mut installed = Vec::with_capacity(steps.len());
    for (step, staging) in steps.iter().filter(|step| written(step)).zip(staged) {
        let name = step.skill.name.as_str();
        let dir = match step.action {
            Action::Install => lock.put_new(staging, name)?,
            Action::Update | Action::Replace | Action::Unchanged => lock.replace(staging, name)?,
        };
        watch.installed(&dir);
        installed.push(Installed {
            name: name.to_owned(),
            dir,
            action: step.action,
        });
    }
    // Said in the order the skills were asked for, those left alone among them.
    for step in steps.iter().filter(|step| !written(step)) {
        installed.push(Installed {
            name: step.skill.name.clone(),
            dir: step.dir.clone(),
            action: step.action,
        });
    }
    installed.sort_by_key(|one| steps.iter().position(|step| step.skill.name == one.name));
    Ok(installed)
}

/// One file as it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sealed<'b> {
    /// Its path below the skill's folder, `/`-separated.
    pub path: &'b str,
    pub bytes: Cow<'b, [u8]>,
    pub executable: bool,
}

/// The files of `skill` as an install writes them: its `SKILL.md` with the record and the
/// digest of all of them, the others byte for byte. What a replacement is diffed against.
///
/// # Errors
/// When the record cannot be written into its `SKILL.md`.
pub fn sealed(skill: &BundledSkill) -> Result<Vec<Sealed<'_>>, InstallError> {
    let stamped = stamp(skill.manifest(), INSTALLED_BY, INSTALLED_VERSION).map_err(|error| {
        InstallError::Record {
            name: skill.name.clone(),
            error,
        }
    })?;
    let digest = digest_of(skill.files.iter().map(|file| {
        let bytes = if file.path == SKILL_FILE {
            stamped.text().as_bytes()
        } else {
            file.content.as_slice()
        };
        (Path::new(file.path.as_str()), bytes)
    }));
    let mut manifest = Some(stamped.seal(&digest).into_bytes());
    Ok(skill
        .files
        .iter()
        .map(|file| Sealed {
            path: &file.path,
            bytes: match manifest.take_if(|_| file.path == SKILL_FILE) {
                Some(sealed) => Cow::Owned(sealed),
                None => Cow::Borrowed(file.content.as_slice()),
            },
            executable: file.executable,
        })
        .collect())
}
