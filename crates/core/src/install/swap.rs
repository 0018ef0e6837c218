//! Putting a skill folder into a root in one step.
//!
//! A folder is built in a staging directory beside the root (in the root's parent, so agents
//! that scan the root never see it half-written, and on the same file system as the root once
//! its links are resolved), every file and directory is synced, and then one rename puts it in
//! place: a no-replace rename for a new skill, an exchange for a replacement. A root that is a
//! mount point (a tmpfs, a bind mount, a network share mounted on `~/.claude/skills`) is on
//! another mount than its parent, where no rename reaches: its staging directories go inside
//! it, in a hidden folder skilldeck's scan and Claude Code and Codex pass over, removed once
//! empty. A crash leaves either the old folder or the new one, never a mix; the staging
//! directory it leaves behind is swept by the next writer. Every write happens under a lock on
//! the root folder itself (no lock file is left behind), so two imports into one root take
//! turns, and a writer only sweeps staging directories while it holds the lock.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::fs::{
    At, create_new, exchange, rename_no_replace, same_mount, set_mode, set_path_mode, sync_dir,
    sync_tree,
};

/// The hidden folder inside a root that is a mount point, where its staging directories go.
const INSIDE_STAGING: &str = ".skilldeck-staging";

/// Why a folder could not be put into a root. Whatever the step, the root is as it was.
#[derive(Debug, thiserror::Error)]
pub enum SwapError {
    #[error("the skills folder {} could not be created: {}", .path.display(), crate::fs::said(.source))]
    CreateRoot { path: PathBuf, source: io::Error },
    #[error("the lock {} could not be taken: {}", .path.display(), crate::fs::said(.source))]
    Lock { path: PathBuf, source: io::Error },
    #[error("{} could not be written: {}", .path.display(), crate::fs::said(.source))]
    Write { path: PathBuf, source: io::Error },
    #[error("{} is not a relative path inside the skill", .0.display())]
    UnsafePath(PathBuf),
    #[error("{} already exists; nothing was replaced", .0.display())]
    AlreadyExists(PathBuf),
    #[error("{} no longer exists, so there is nothing to replace", .0.display())]
    Vanished(PathBuf),
    #[error(
        "{} is on another file system than its staging folder {}; skilldeck only replaces skills in one atomic rename",
        .to.display(),
        .from.display()
    )]
    OtherFileSystem { from: PathBuf, to: PathBuf },
    #[error("{} could not be renamed to {}: {}", .from.display(), .to.display(), crate::fs::said(.source))]
    Rename {
        from: PathBuf,
        to: PathBuf,
        source: io::Error,
    },
}

impl SwapError {
    fn create_root(path: PathBuf, source: io::Error) -> Self {
        Self::CreateRoot { path, source }
    }

    fn write(path: PathBuf, source: io::Error) -> Self {
        Self::Write { path, source }
    }

    fn lock(path: PathBuf, source: io::Error) -> Self {
        Self::Lock { path, source }
    }
}

/// The exclusive right to write into one root, held until dropped.
#[derive(Debug)]
pub struct RootLock {
    root: PathBuf,
    parent: PathBuf,
    prefix: String,
    /// Where staging directories are made: the root's parent, or [`INSIDE_STAGING`] in a root
    /// on a mount of its own.
    staging: PathBuf,
    /// The folders [`RootLock::acquire`] created, deepest first.
    created: Vec<PathBuf>,
    _lock: File,
}

impl RootLock {
    /// Create `root` if needed, wait for the lock on it, and sweep what earlier writers that
    /// crashed left behind.
    ///
    /// # Errors
    /// When the root cannot be created or resolved, or the lock file cannot be taken.
    pub fn acquire(root: &Path) -> Result<Self, SwapError> {
        // The folders this writer creates on the way, deepest first: removed again when it
        // lets go and they are still empty (a cancelled import leaves no empty skills folder),
        // and never a folder that was there before.
        let created: Vec<PathBuf> = root
            .ancestors()
            .take_while(|path| path.symlink_metadata().is_err())
            .map(Path::to_path_buf)
            .collect();
        fs::create_dir_all(root).at(root, SwapError::create_root)?;
        let root = crate::fs::canonical(root).at(root, SwapError::create_root)?;
        let (Some(parent), Some(name)) = (root.parent(), root.file_name()) else {
            return Err(SwapError::CreateRoot {
                source: io::Error::new(io::ErrorKind::InvalidInput, "a root needs a parent"),
                path: root,
            });
        };
        let parent = parent.to_path_buf();
        let prefix = format!(".{}.skilldeck-", name.to_string_lossy());
        let lock = lock_root(&root, &parent, &prefix)?;
        if root.symlink_metadata().is_err() {
            // The writer this one waited for created the folder, and removed it empty as it
            // let go: this lock is on a folder no longer there, so the folder is made again.
            drop(lock);
            return Self::acquire(&root);
        }
        let staging = if same_mount(&root, &parent).at(&root, SwapError::create_root)? {
            parent.clone()
        } else {
            root.join(INSIDE_STAGING)
        };
        let held = Self {
            root,
            parent,
            prefix,
            staging,
            created,
            _lock: lock,
        };
        held.sweep();
        Ok(held)
    }

    /// The root, with its links resolved.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A new, empty staging folder for a skill that will be named `name`.
    ///
    /// # Errors
    /// When the folder cannot be created beside the root (or inside it, for a mount point).
    pub fn stage(&self, name: &str) -> Result<Staged, SwapError> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        if self.staging != self.parent {
            match fs::create_dir(&self.staging) {
                Err(error) if error.kind() != io::ErrorKind::AlreadyExists => {
                    return Err(SwapError::write(self.staging.clone(), error));
                }
                _ => {}
            }
        }
        let dir = self.staging.join(format!(
            "{}staging-{}-{}-{nanos}",
            self.prefix,
            name.replace(['/', '\\'], "_"),
            std::process::id()
        ));
        fs::create_dir(&dir).at(&dir, SwapError::write)?;
        Ok(Staged {
            dir,
            committed: false,
            synced: false,
        })
    }

    /// Rename `staged` into the root as `name`, which must not exist.
    ///
    /// # Errors
    /// [`SwapError::AlreadyExists`] when something is at `name`; the staged folder is removed.
    pub fn put_new(&self, mut staged: Staged, name: &str) -> Result<PathBuf, SwapError> {
        let target = self.root.join(name);
        if !staged.synced {
            sync_together(std::slice::from_mut(&mut staged))?;
        }
        rename_no_replace(&staged.dir, &target)
            .map_err(|source| rename_failed(&staged.dir, &target, source))?;
        staged.committed = true;
        sync_dir(&self.root).at(&self.root, SwapError::write)?;
        Ok(target)
    }

    /// Exchange `staged` with the folder at `name`, then delete the old content.
    ///
    /// # Errors
    /// [`SwapError::Vanished`] when nothing is at `name`; the staged folder is removed.
    pub fn replace(&self, mut staged: Staged, name: &str) -> Result<PathBuf, SwapError> {
        let target = self.root.join(name);
        if !staged.synced {
            sync_together(std::slice::from_mut(&mut staged))?;
        }
        exchange(&staged.dir, &target)
            .map_err(|source| rename_failed(&staged.dir, &target, source))?;
        // The staging path now holds the old content; the Drop below removes it, and a crash
        // before that leaves it for the next writer's sweep.
        sync_dir(&self.root).at(&self.root, SwapError::write)?;
        Ok(target)
    }

    /// Remove every staging folder of this root, beside it and inside it (a root mounted or
    /// unmounted since a crash keeps its leftovers on either side). Only called with the lock
    /// held, so none of them belongs to a live writer.
    fn sweep(&self) {
        let staging = format!("{}staging-", self.prefix);
        for dir in [&self.parent, &self.root.join(INSIDE_STAGING)] {
            let Ok(entries) = fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.filter_map(Result::ok) {
                if entry.file_name().to_string_lossy().starts_with(&staging) {
                    let _ = fs::remove_dir_all(entry.path());
                }
            }
        }
        self.remove_inside_staging();
    }

    /// The hidden staging folder inside the root goes once empty; one still holding a staging
    /// directory (a writer that crashed) is left for the next sweep.
    fn remove_inside_staging(&self) {
        let _ = fs::remove_dir(self.root.join(INSIDE_STAGING));
    }
}

impl Drop for RootLock {
    fn drop(&mut self) {
        // Still under the lock: the fields, the lock's handle among them, drop after this.
        self.remove_inside_staging();
        // Only an empty folder is removed, so one that took a skill (or anything another
        // program put there meanwhile) stays; and the first that stays keeps those above it.
        for dir in &self.created {
            if fs::remove_dir(dir).is_err() {
                break;
            }
        }
    }
}

/// A staging folder being filled. Dropped uncommitted, it is removed with all it holds.
#[derive(Debug)]
pub struct Staged {
    dir: PathBuf,
    committed: bool,
    synced: bool,
}

impl Staged {
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Write one file at `relative` (plain parts only), mode 0644, or 0755 when `executable`.
    ///
    /// # Errors
    /// [`SwapError::UnsafePath`] for a path that is not plain relative parts, or the write's
    /// own error.
    pub fn write(
        &self,
        relative: &Path,
        content: &[u8],
        executable: bool,
    ) -> Result<(), SwapError> {
        let plain = relative
            .components()
            .all(|part| matches!(part, Component::Normal(_)));
        if !plain || relative.as_os_str().is_empty() {
            return Err(SwapError::UnsafePath(relative.to_path_buf()));
        }
        let path = self.dir.join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).at(&path, SwapError::write)?;
        }
        let mode = if executable { 0o755 } else { 0o644 };
        let mut file = create_new(&path, mode).at(&path, SwapError::write)?;
        file.write_all(content).at(&path, SwapError::write)?;
        // Exactly the mode, whatever the umask took from it at creation.
        set_mode(&file, mode).at(&path, SwapError::write)
    }
}

/// Give every directory of the staging folders the mode a skill's folders have, then put them
/// on disk, so a rename publishes content that is already there. An import stages all its
/// skills and syncs them here together before renaming any.
///
/// Files are synced here, all at once, rather than one by one as they are written: a bundle of
/// a few hundred files would otherwise wait for a few hundred journal commits.
///
/// # Errors
/// The first mode or sync that failed.
pub fn sync_together(staged: &mut [Staged]) -> Result<(), SwapError> {
    let mut entries: Vec<(PathBuf, bool)> = Vec::new();
    for one in staged.iter() {
        let mut tree: Vec<(PathBuf, bool)> = walkdir::WalkDir::new(&one.dir)
            .into_iter()
            .filter_map(Result::ok)
            .map(|e| {
                let is_dir = e.file_type().is_dir();
                (e.into_path(), is_dir)
            })
            .collect();
        // Deepest first, so each directory is synced after what it holds.
        tree.reverse();
        entries.extend(tree);
    }
    for (path, is_dir) in &entries {
        if *is_dir {
            set_path_mode(path, 0o755).at(path, SwapError::write)?;
        }
    }
    let Some(first) = staged.first() else {
        return Ok(());
    };
    // The staging folders all sit in one place (the root's parent, or inside the root), on
    // the file system that holds the first.
    sync_tree(&first.dir, &entries).at(&first.dir, SwapError::write)?;
    for one in staged {
        one.synced = true;
    }
    Ok(())
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

fn rename_failed(from: &Path, to: &Path, source: io::Error) -> SwapError {
    let (from, to) = (from.to_path_buf(), to.to_path_buf());
    match source.kind() {
        io::ErrorKind::AlreadyExists => SwapError::AlreadyExists(to),
        io::ErrorKind::NotFound => SwapError::Vanished(to),
        io::ErrorKind::CrossesDevices => SwapError::OtherFileSystem { from, to },
        _ => SwapError::Rename { from, to, source },
    }
}

/// The root folder itself is what is locked, so no lock file is left in the user's folders.
#[cfg(unix)]
fn lock_root(root: &Path, _parent: &Path, _prefix: &str) -> Result<File, SwapError> {
    crate::fs::lock_folder(root).at(root, SwapError::lock)
}

/// Where a folder cannot be locked, a lock file beside the root stands in for it.
#[cfg(not(unix))]
fn lock_root(_root: &Path, parent: &Path, prefix: &str) -> Result<File, SwapError> {
    let path = parent.join(format!("{prefix}lock"));
    crate::fs::lock_file(&path).at(&path, SwapError::lock)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    fn skill(lock: &RootLock, name: &str, body: &str) -> Staged {
        let staged = lock.stage(name).unwrap();
        staged
            .write(Path::new("SKILL.md"), body.as_bytes(), false)
            .unwrap();
        staged
            .write(Path::new("scripts/run.sh"), b"#!/bin/sh\n", true)
            .unwrap();
        staged
    }

    fn staging_left(root: &Path) -> Vec<String> {
        fs::read_dir(root.parent().unwrap())
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("skilldeck-staging"))
            .collect()
    }

    #[test]
    fn a_new_skill_appears_whole_with_its_modes() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("skills");
        let lock = RootLock::acquire(&root).unwrap();
        let target = lock.put_new(skill(&lock, "demo", "one"), "demo").unwrap();
        assert_eq!(fs::read_to_string(target.join("SKILL.md")).unwrap(), "one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o7777;
            assert_eq!(mode(&target.join("SKILL.md")), 0o644);
            assert_eq!(mode(&target.join("scripts/run.sh")), 0o755);
            assert_eq!(mode(&target.join("scripts")), 0o755);
            assert_eq!(mode(&target), 0o755);
        }
        assert_eq!(staging_left(&root), Vec::<String>::new());
    }

    #[test]
    fn skills_synced_together_are_renamed_in_with_their_modes() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("skills");
        let lock = RootLock::acquire(&root).unwrap();
        let mut staged = vec![skill(&lock, "one", "1"), skill(&lock, "two", "2")];
        sync_together(&mut staged).unwrap();
        assert!(staged.iter().all(|s| s.synced));
        let two = staged.pop().unwrap();
        let one = staged.pop().unwrap();
        lock.put_new(one, "one").unwrap();
        lock.put_new(two, "two").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o7777;
            assert_eq!(mode(&root.join("two/scripts")), 0o755);
            assert_eq!(mode(&root.join("two/scripts/run.sh")), 0o755);
        }
        assert_eq!(fs::read_to_string(root.join("two/SKILL.md")).unwrap(), "2");
        assert_eq!(staging_left(&root), Vec::<String>::new());
    }

    #[test]
    fn a_new_skill_never_replaces_one_that_exists() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("skills");
        let lock = RootLock::acquire(&root).unwrap();
        lock.put_new(skill(&lock, "demo", "one"), "demo").unwrap();
        let error = lock
            .put_new(skill(&lock, "demo", "two"), "demo")
            .unwrap_err();
        assert!(matches!(error, SwapError::AlreadyExists(_)), "{error}");
        assert_eq!(
            fs::read_to_string(root.join("demo/SKILL.md")).unwrap(),
            "one"
        );
        assert_eq!(staging_left(&root), Vec::<String>::new());
    }

    #[test]
    fn a_replacement_swaps_the_whole_folder_and_leaves_no_old_content() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("skills");
        let lock = RootLock::acquire(&root).unwrap();
        lock.put_new(skill(&lock, "demo", "one"), "demo").unwrap();
        fs::write(root.join("demo/extra.md"), "only in the old one").unwrap();
        let staged = lock.stage("demo").unwrap();
        staged.write(Path::new("SKILL.md"), b"two", false).unwrap();
        lock.replace(staged, "demo").unwrap();
        assert_eq!(
            fs::read_to_string(root.join("demo/SKILL.md")).unwrap(),
            "two"
        );
        assert!(!root.join("demo/extra.md").exists());
        assert_eq!(staging_left(&root), Vec::<String>::new());
    }

    #[test]
    fn replacing_what_is_not_there_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("skills");
        let lock = RootLock::acquire(&root).unwrap();
        let error = lock.replace(skill(&lock, "demo", "x"), "demo").unwrap_err();
        assert!(matches!(error, SwapError::Vanished(_)), "{error}");
        assert!(!root.join("demo").exists());
        assert_eq!(staging_left(&root), Vec::<String>::new());
    }

    #[test]
    fn an_abandoned_staging_folder_is_removed_and_a_crashed_one_swept() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("skills");
        {
            let lock = RootLock::acquire(&root).unwrap();
            drop(skill(&lock, "demo", "dropped"));
            assert_eq!(staging_left(&root), Vec::<String>::new());
            // A crash leaves its staging folder: forget it instead of dropping.
            std::mem::forget(skill(&lock, "demo", "crashed"));
            assert_eq!(staging_left(&root).len(), 1);
        }
        let _lock = RootLock::acquire(&root).unwrap();
        assert_eq!(staging_left(&root), Vec::<String>::new());
    }

    #[test]
    fn nothing_but_the_root_is_left_beside_it() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("skills");
        {
            let lock = RootLock::acquire(&root).unwrap();
            lock.put_new(skill(&lock, "demo", "one"), "demo").unwrap();
            lock.replace(skill(&lock, "demo", "two"), "demo").unwrap();
        }
        let beside: Vec<String> = fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        // Where a folder cannot be locked (Windows), its lock is a file beside it, kept.
        #[cfg(unix)]
        assert_eq!(beside, ["skills"]);
        #[cfg(not(unix))]
        assert_eq!(beside, [".skills.skilldeck-lock", "skills"]);
    }

    #[test]
    fn paths_that_leave_the_staging_folder_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let lock = RootLock::acquire(&tmp.path().join("skills")).unwrap();
        let staged = lock.stage("demo").unwrap();
        for bad in ["../escape", "/abs", "", "a/../../b", "./x"] {
            assert!(
                matches!(
                    staged.write(Path::new(bad), b"x", false),
                    Err(SwapError::UnsafePath(_))
                ),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn two_writers_of_one_root_take_turns() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("skills");
        let first = RootLock::acquire(&root).unwrap();
        let (sender, receiver) = mpsc::channel();
        let second_root = root.clone();
        let waiter = std::thread::spawn(move || {
            let _second = RootLock::acquire(&second_root).unwrap();
            sender.send(()).unwrap();
        });
        assert!(
            receiver.recv_timeout(Duration::from_millis(200)).is_err(),
            "the second writer got the lock while the first held it"
        );
        drop(first);
        receiver.recv_timeout(Duration::from_secs(10)).unwrap();
        waiter.join().unwrap();
    }
}
