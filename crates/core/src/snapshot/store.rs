//! The snapshot store: every kept copy of every skill, under the data directory.
//!
//! ```text
//! <data dir>/snapshots/<folder name>-<16 hex of the folder's path>/   one skill's history
//!     <id>/info.json     digest, truncated, skipped links, folder, time
//!     <id>/files/...     the copied files (0600, 0700 when executable)
//!     <id>/changed       present once a later snapshot found different content
//!     <id>/accepted      present once an accept found the content it already held
//! <data dir>/snapshots-held/<stamp>/<history>/<id>/   snapshots deleted or pruned, kept for undo
//! ```
//!
//! A snapshot is built in a staging directory beside its history and renamed into place, so it
//! is whole or absent; it is never replaced. Snapshots of one folder are taken one at a time,
//! under a lock on its history directory, so the staging directories a crash leaves are swept
//! by the next snapshot of that folder. Its id is the time it was taken (UTC, to the
//! millisecond) and the first digits of its digest, so ids sort by time. Taking a snapshot of
//! content the latest snapshot already holds makes no new copy: a hook that snapshots every
//! skill a session used, every turn, keeps one copy per change, not one per turn.
//!
//! Each snapshot records why it was taken ([`Reason`]). An accept of content the latest
//! snapshot already holds makes no copy either: it leaves an `accepted` marker in that
//! snapshot instead, so a prune keeps it as the baseline the user chose ([`Snapshot::is_accepted`]).
//!
//! Deleting or pruning a snapshot removes nothing: it is renamed, in one step, into the held
//! area beside the store (one folder per operation), where `undo` finds it to put it back. A
//! prune empties for good what earlier deletes and prunes held, and says how much that frees;
//! nothing else ever does.
//!
//! The store is the user's, but anything that can write their home can edit it, so nothing
//! read from it is taken on trust before it is used ([`Damage`]): a snapshot must sit in the
//! history of the folder its record names, under the id its record gives, reached through no
//! link, holding only files and folders; restoring or diffing it also names the folder, which
//! must be the one the record names; and its files must match its digest before a restore
//! stages any of them, or before a diff is shown.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::fs::{
    At, Links, create_new, dir_builder, is_executable, open_regular, read_bounded, set_path_mode,
    sync_dir,
};
use crate::limits::{DIGEST_FILE_BYTES, SNAPSHOT_INFO_BYTES};
use crate::record::{lower_hex, portable_path};
use crate::roots::Environment;
use crate::skill::SKILL_FILE;
use crate::text::human;

use super::digest::{
    DigestBuilder, HashBudget, SnapshotDigest, copy_hashing, digest_listing, unhashed,
};
use super::reason::Reason;
use super::walk::{Entry, Listing};
use super::{COPY_BOUND, SnapshotError};

const INFO_FILE: &str = "info.json";
const CHANGED_FILE: &str = "changed";
const ACCEPTED_FILE: &str = "accepted";
const FILES_DIR: &str = "files";
const STAGING_PREFIX: &str = ".staging-";
/// A history's note of where skilldeck moved its folder to (see `snapshot::moved`); a dot
/// name, as the store's own files are.
pub(super) const MOVED_FILE: &str = ".moved-to";

/// What a snapshot holds, as seed 003's `Info`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The content of the folder when it was copied. The same content gives the same digest on
    /// every machine. For a truncated snapshot it still covers every file of the folder.
    pub digest: SnapshotDigest,
    /// The folder was over the copy bound: only its `SKILL.md` was copied.
    pub truncated: bool,
    /// Links that point out of the folder or to a folder, and so were left out.
    pub skipped_links: usize,
    /// A later snapshot of the same folder found different content. The snapshot keeps the
    /// content it was taken with.
    pub changed: bool,
    /// The skill folder, with its links resolved.
    pub dir: PathBuf,
    pub taken_at: SystemTime,
    /// Why it was taken.
    pub reason: Reason,
    /// An accept found this content already kept here, and made it the baseline.
    pub accepted: bool,
}

/// `info.json` as written.
#[derive(Serialize, Deserialize)]
struct Stored {
    digest: SnapshotDigest,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    truncated: bool,
    #[serde(default, skip_serializing_if = "is_zero")]
    skipped_links: usize,
    dir: PathBuf,
    taken_at: String,
    #[serde(default)]
    reason: Reason,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One kept copy of a skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub id: String,
    /// The snapshot's own directory in the store.
    pub path: PathBuf,
    pub info: Info,
}

impl Snapshot {
    /// Where the copied files are: a folder that reads as the skill did.
    pub fn files(&self) -> PathBuf {
        self.path.join(FILES_DIR)
    }

    /// The folder name of the skill it copies.
    pub fn skill_name(&self) -> String {
        self.info
            .dir
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// Record that a later look at the folder found other content (seed 003's `MarkChanged`).
    ///
    /// # Errors
    /// When the marker cannot be written.
    pub fn mark_changed(&mut self) -> Result<(), SnapshotError> {
        let path = self.path.join(CHANGED_FILE);
        create_private(&path, false).at(&path, SnapshotError::write)?;
        self.info.changed = true;
        Ok(())
    }

    /// Read the snapshot at `path` (seed 003's `Load`).
    ///
    /// # Errors
    /// [`SnapshotError::Corrupt`] when its `info.json` is missing or unreadable.
    pub fn load(path: &Path) -> Result<Self, SnapshotError> {
        let corrupt = |reason: String| SnapshotError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        // Anyone who can write the data directory can put anything here: a FIFO, a link to a
        // device, a sparse file of gigabytes.
        let text = read_bounded(&path.join(INFO_FILE), Links::Refuse, SNAPSHOT_INFO_BYTES)
            .map_err(|e| corrupt(e.to_string()))?;
        let stored: Stored = serde_json::from_slice(&text).map_err(|e| corrupt(e.to_string()))?;
        let taken_at = humantime::parse_rfc3339(&stored.taken_at)
            .map_err(|e| corrupt(format!("taken_at: {e}")))?;
        let id = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Self {
            id,
            path: path.to_path_buf(),
            info: Info {
                digest: stored.digest,
                truncated: stored.truncated,
                skipped_links: stored.skipped_links,
                changed: path.join(CHANGED_FILE).exists(),
                dir: stored.dir,
                taken_at,
                reason: stored.reason,
                accepted: path.join(ACCEPTED_FILE).exists(),
            },
        })
    }

    /// Whether the user chose it as a baseline: taken by an accept, or found by one.
    pub fn is_accepted(&self) -> bool {
        self.info.reason.is_baseline() || self.info.accepted
    }

    /// Record that an accept found this content already kept here.
    ///
    /// # Errors
    /// When the marker cannot be written.
    pub fn mark_accepted(&mut self) -> Result<(), SnapshotError> {
        let path = self.path.join(ACCEPTED_FILE);
        match create_private(&path, false) {
            Ok(_) => {}
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            Err(source) => return Err(SnapshotError::write(path, source)),
        }
        self.info.accepted = true;
        Ok(())
    }

    /// Take back [`Snapshot::mark_accepted`] (an undo of the accept that wrote it).
    ///
    /// # Errors
    /// When the marker is there but cannot be removed.
    pub fn unmark_accepted(&mut self) -> Result<(), SnapshotError> {
        let path = self.path.join(ACCEPTED_FILE);
        match fs::remove_file(&path) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            Err(source) => return Err(SnapshotError::write(path, source)),
        }
        self.info.accepted = false;
        Ok(())
    }

    /// The bytes its copied files take.
    pub fn size(&self) -> u64 {
        bytes_under(&self.files())
    }

    /// The name of the history directory it is kept in.
    pub fn history_name(&self) -> String {
        self.path
            .parent()
            .and_then(Path::file_name)
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// What makes a snapshot in the store one skilldeck will not use: the store was edited, or
/// damaged, since the snapshot was taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Damage {
    #[error("it was taken of {}, not of {}", .recorded.display(), .named.display())]
    OtherFolder { recorded: PathBuf, named: PathBuf },
    #[error("its record names {}, whose snapshots are kept elsewhere", .0.display())]
    Misplaced(PathBuf),
    #[error("its id is not the one its record gives")]
    Id,
    #[error("it is reached through a link, which the store never makes")]
    Link,
    #[error("its files are missing")]
    NoFiles,
    #[error("{0} in it is a link or a special file, which the store never keeps")]
    NotAFile(String),
    #[error("it holds no SKILL.md")]
    NoSkillFile,
    #[error("it says it kept only SKILL.md but holds other files")]
    Truncated,
    #[error("it holds more than the copy bound a snapshot can")]
    TooLarge,
    #[error("its files do not match the digest it was taken with")]
    Digest,
}

/// One file of a snapshot, read and checked against the snapshot's digest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The path below the skill folder, `/`-separated.
    pub rel: String,
    pub bytes: Vec<u8>,
    pub executable: bool,
}

impl Snapshot {
    /// The error saying this snapshot is damaged, and how.
    pub fn damaged(&self, damage: Damage) -> SnapshotError {
        SnapshotError::Damaged {
            id: self.id.clone(),
            damage,
        }
    }

    /// Check what can be checked without reading the snapshot's files: that its id is the
    /// one its record gives, that it is kept in the history of the folder its record names,
    /// and that no link leads from the store to it or its files.
    ///
    /// # Errors
    /// [`SnapshotError::Damaged`] saying what is wrong; [`SnapshotError::Read`] when the store
    /// cannot be read.
    pub fn check_place(&self) -> Result<(), SnapshotError> {
        if self.id != snapshot_id(self.info.taken_at, &self.info.digest) {
            return Err(self.damaged(Damage::Id));
        }
        let name = history_name(&self.info.dir);
        let (Some(history), Some(store)) = (
            self.path.parent(),
            self.path.parent().and_then(Path::parent),
        ) else {
            return Err(self.damaged(Damage::Misplaced(self.info.dir.clone())));
        };
        if history.file_name() != Some(name.as_ref()) {
            return Err(self.damaged(Damage::Misplaced(self.info.dir.clone())));
        }
        let info = self.path.join(INFO_FILE);
        if !fs::symlink_metadata(&info).is_ok_and(|m| m.is_file()) {
            return Err(self.damaged(Damage::NotAFile(INFO_FILE.to_owned())));
        }
        // Resolved, the files must be where the store puts them: a link anywhere between the
        // store and them (the history, the snapshot, its files folder) leads somewhere else.
        let store = crate::fs::canonical(store).at(store, SnapshotError::read)?;
        let files = match crate::fs::canonical(self.files()) {
            Ok(files) => files,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Err(self.damaged(Damage::NoFiles));
            }
            Err(source) => return Err(SnapshotError::read(self.files(), source)),
        };
        if files != store.join(name).join(&self.id).join(FILES_DIR) {
            return Err(self.damaged(Damage::Link));
        }
        Ok(())
    }

    /// The files this snapshot keeps, listed for a restore or a diff of the folder at `dir`
    /// (the one the user named): refused unless the snapshot is one of that folder's, in its
    /// place ([`Snapshot::check_place`]), and holds only files and folders. Nothing is read.
    ///
    /// # Errors
    /// [`SnapshotError::Damaged`] saying what is wrong; [`SnapshotError::Read`] when the store
    /// cannot be read.
    pub fn kept(&self, dir: &Path) -> Result<Vec<Entry>, SnapshotError> {
        let named = crate::fs::canonical(dir).unwrap_or_else(|_| dir.to_path_buf());
        if named != self.info.dir {
            return Err(self.damaged(Damage::OtherFolder {
                recorded: self.info.dir.clone(),
                named,
            }));
        }
        self.check_place()?;
        let root = self.files();
        let mut files = Vec::new();
        for entry in walkdir::WalkDir::new(&root)
            .min_depth(1)
            .follow_links(false)
        {
            let entry = entry.map_err(|error| SnapshotError::Read {
                path: error.path().map_or_else(|| root.clone(), Path::to_path_buf),
                source: io::Error::from(error),
            })?;
            let kind = entry.file_type();
            if kind.is_dir() {
                continue;
            }
            let rel = portable_path(entry.path().strip_prefix(&root).unwrap_or(entry.path()));
            if !kind.is_file() {
                return Err(self.damaged(Damage::NotAFile(rel)));
            }
            let meta = entry.metadata().map_err(|error| SnapshotError::Read {
                path: entry.path().to_path_buf(),
                source: io::Error::from(error),
            })?;
            files.push(Entry {
                rel,
                source: entry.into_path(),
                size: meta.len(),
                executable: is_executable(&meta),
            });
        }
        files.sort_by(|a, b| a.rel.cmp(&b.rel));
        if !files.iter().any(|f| f.rel == SKILL_FILE) {
            return Err(self.damaged(Damage::NoSkillFile));
        }
        if self.info.truncated && files.len() > 1 {
            return Err(self.damaged(Damage::Truncated));
        }
        Ok(files)
    }

    /// Every file this snapshot keeps, read into memory and checked against its digest, for a
    /// restore of the folder at `dir`: [`Snapshot::kept`], then each file read without
    /// following a link. A truncated snapshot's digest covers files it does not hold, so its
    /// files cannot be checked; a restore refuses it before asking.
    ///
    /// # Errors
    /// [`SnapshotError::Damaged`] saying what is wrong, [`SnapshotError::Read`] when a file
    /// cannot be read.
    pub fn read_kept(&self, dir: &Path) -> Result<Vec<Kept>, SnapshotError> {
        let mut digest = DigestBuilder::default();
        let mut total = 0u64;
        let mut kept = Vec::new();
        for entry in self.kept(dir)? {
            let mut bytes = Vec::new();
            open_regular(&entry.source, Links::Refuse)
                .and_then(|file| file.take(COPY_BOUND - total + 1).read_to_end(&mut bytes))
                .at(&entry.source, SnapshotError::read)?;
            total += bytes.len() as u64;
            if total > COPY_BOUND {
                return Err(self.damaged(Damage::TooLarge));
            }
            digest.add(&entry.rel, entry.executable, &Sha256::digest(&bytes));
            kept.push(Kept {
                rel: entry.rel,
                bytes,
                executable: entry.executable,
            });
        }
        if !self.info.truncated && digest.finish() != self.info.digest {
            return Err(self.damaged(Damage::Digest));
        }
        Ok(kept)
    }
}

/// One snapshot folder of a history: its id, and its snapshot or why it could not be read.
pub type Loaded = (String, Result<Snapshot, SnapshotError>);

/// What taking a snapshot did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    pub snapshot: Snapshot,
    /// A new copy was made; false when the latest snapshot already held this content.
    pub fresh: bool,
}

/// Whether a skill's content differs from its latest snapshot: what the "changed" view lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// No snapshot of the folder yet.
    NoSnapshot,
    /// The folder holds what its latest snapshot holds.
    Same(Snapshot),
    /// The folder's content is not its latest snapshot's.
    Changed {
        latest: Snapshot,
        now: SnapshotDigest,
    },
    /// The folder is gone, or no longer a skill.
    Gone(Snapshot),
}

/// How hard a snapshot is pushed to disk before it counts as taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Durability {
    /// As `cp -r` leaves files: written, synced by the system when it likes.
    Written,
    /// Every file and directory synced: the copy must outlive a crash that follows.
    Synced,
}

/// How much the store holds, for the app's status and `snapshots prune`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreUsage {
    pub snapshots: usize,
    /// Bytes of every snapshot's files and record.
    pub bytes: u64,
    /// Bytes of deleted or pruned snapshots held so `undo` can bring them back.
    pub held_bytes: u64,
}

/// The snapshots of every skill, under one directory.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// The store under `env`'s data directory.
    pub fn open(env: &Environment) -> Self {
        Self::at(env.data_dir().join("snapshots"))
    }

    /// The store at `dir` (created when the first snapshot is taken).
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// Snapshot the skill folder at `skill_dir` for `reason`: on demand, and at import as the
    /// baseline.
    ///
    /// When the latest snapshot of the folder holds the same content, no copy is made and
    /// that snapshot is returned with `fresh` false (keeping the reason it was taken for).
    /// Otherwise a new snapshot is kept beside the earlier ones, and the one that was latest
    /// is marked changed.
    ///
    /// # Errors
    /// When the folder is not a skill, a file cannot be read, or the store cannot be written.
    pub fn take(&self, skill_dir: &Path, reason: Reason) -> Result<Taken, SnapshotError> {
        self.take_with(skill_dir, reason, Durability::Written, SystemTime::now())
    }

    /// As [`Store::take`], dated `at` instead of now (and never before the latest snapshot):
    /// for a history laid out after the fact, as the demo's is.
    ///
    /// # Errors
    /// As [`Store::take`].
    pub fn take_dated(
        &self,
        skill_dir: &Path,
        reason: Reason,
        at: SystemTime,
    ) -> Result<Taken, SnapshotError> {
        self.take_with(skill_dir, reason, Durability::Written, at)
    }

    /// Snapshot the skill folder at `skill_dir` before skilldeck overwrites, updates or
    /// restores it: as [`Store::take`], with every file synced to disk before it returns, so
    /// what the user had survives a crash during the overwrite that follows.
    ///
    /// # Errors
    /// As [`Store::take`].
    pub fn take_before_overwrite(
        &self,
        skill_dir: &Path,
        reason: Reason,
    ) -> Result<Taken, SnapshotError> {
        self.take_with(skill_dir, reason, Durability::Synced, SystemTime::now())
    }

    /// Snapshot the skill files at `content` (a folder laid out as a skill) as a snapshot of
    /// the skill folder `skill_dir`, which holds something else: the upstream an update merged
    /// with the user's edits, kept as the baseline the next update merges against.
    ///
    /// # Errors
    /// As [`Store::take`]; `skill_dir` must exist.
    pub fn take_of(
        &self,
        skill_dir: &Path,
        content: &Path,
        reason: Reason,
    ) -> Result<Taken, SnapshotError> {
        let mut listing = Listing::read(content)?;
        listing.root = crate::fs::canonical(skill_dir).at(skill_dir, SnapshotError::read)?;
        self.take_listing(listing, reason, Durability::Written, SystemTime::now())
    }

    /// Accept the skill's current content as its new baseline (the app's `a`): the latest
    /// snapshot is what diffs and the changed view compare against, so this is taking one,
    /// [`Reason::Accepted`]. When the latest already holds the content, it is marked
    /// accepted instead ([`Snapshot::is_accepted`]).
    ///
    /// # Errors
    /// [`SnapshotError::Gone`] when the folder is gone or no longer a skill; else as
    /// [`Store::take`].
    pub fn accept(&self, skill_dir: &Path) -> Result<Taken, SnapshotError> {
        let mut taken = match self.take(skill_dir, Reason::Accepted) {
            Err(SnapshotError::NotSkill(_)) => {
                return Err(SnapshotError::Gone(skill_dir.to_path_buf()));
            }
            Err(SnapshotError::Read { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                return Err(SnapshotError::Gone(skill_dir.to_path_buf()));
            }
            other => other?,
        };
        if !taken.fresh && !taken.snapshot.is_accepted() {
            taken.snapshot.mark_accepted()?;
        }
        Ok(taken)
    }

    /// Every snapshot of the folder at `skill_dir`, oldest first.
    ///
    /// # Errors
    /// When the store cannot be read or holds a damaged snapshot.
    pub fn history(&self, skill_dir: &Path) -> Result<Vec<Snapshot>, SnapshotError> {
        let real = crate::fs::canonical(skill_dir).unwrap_or_else(|_| skill_dir.to_path_buf());
        self.history_in(&self.history_dir(&real))
    }

    /// The latest snapshot of the folder at `skill_dir`.
    ///
    /// # Errors
    /// As [`Store::history`].
    pub fn latest(&self, skill_dir: &Path) -> Result<Option<Snapshot>, SnapshotError> {
        Ok(self.history(skill_dir)?.pop())
    }

    /// One snapshot of the folder: the one whose id is `id` or starts with it, or the latest.
    ///
    /// # Errors
    /// [`SnapshotError::NoSnapshot`], [`SnapshotError::UnknownId`] or
    /// [`SnapshotError::AmbiguousId`] when none or several match.
    pub fn find(&self, skill_dir: &Path, id: Option<&str>) -> Result<Snapshot, SnapshotError> {
        let mut history = self.history(skill_dir)?;
        let Some(id) = id else {
            return history
                .pop()
                .ok_or_else(|| SnapshotError::NoSnapshot(skill_dir.to_path_buf()));
        };
        // An id is a folder name in the history, never a path: one with a separator, or a
        // dot first (`..`), names no snapshot, and nor does nothing, which every id starts with.
        if id.is_empty() || id.starts_with('.') || id.contains(['/', '\\']) {
            return Err(SnapshotError::UnknownId {
                id: id.to_owned(),
                dir: skill_dir.to_path_buf(),
            });
        }
        if let Some(exact) = history.iter().position(|s| s.id == id) {
            return Ok(history.swap_remove(exact));
        }
        let mut matching: Vec<Snapshot> = history
            .into_iter()
            .filter(|s| s.id.starts_with(id))
            .collect();
        match matching.len() {
            1 => Ok(matching.swap_remove(0)),
            0 => Err(SnapshotError::UnknownId {
                id: id.to_owned(),
                dir: skill_dir.to_path_buf(),
            }),
            _ => Err(SnapshotError::AmbiguousId {
                id: id.to_owned(),
                ids: matching.into_iter().map(|s| s.id).collect(),
            }),
        }
    }

    /// The skill folder whose snapshot has the id `id`, or one starting with it, among every
    /// snapshot in the store.
    ///
    /// # Errors
    /// [`SnapshotError::NoSuchId`] when none has it, [`SnapshotError::IdOfSeveral`] when
    /// snapshots of several folders do, [`SnapshotError::AmbiguousId`] when several of one do.
    pub fn dir_of(&self, id: &str) -> Result<PathBuf, SnapshotError> {
        if id.is_empty() || id.starts_with('.') || id.contains(['/', '\\']) {
            return Err(SnapshotError::NoSuchId(id.to_owned()));
        }
        let found: Vec<Snapshot> = self
            .each_history()?
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter(|s| s.id.starts_with(id))
            .collect();
        let exact: Vec<&Snapshot> = found.iter().filter(|s| s.id == id).collect();
        let chosen: Vec<&Snapshot> = if exact.is_empty() {
            found.iter().collect()
        } else {
            exact
        };
        let mut dirs: Vec<&Path> = chosen.iter().map(|s| s.info.dir.as_path()).collect();
        dirs.dedup();
        match (dirs.len(), chosen.len()) {
            (0, _) => Err(SnapshotError::NoSuchId(id.to_owned())),
            (1, 1) => Ok(dirs[0].to_path_buf()),
            (1, _) => Err(SnapshotError::AmbiguousId {
                id: id.to_owned(),
                ids: chosen.iter().map(|s| s.id.clone()).collect(),
            }),
            _ => Err(SnapshotError::IdOfSeveral {
                id: id.to_owned(),
                dirs: dirs.iter().map(|d| d.display().to_string()).collect(),
            }),
        }
    }

    /// Every snapshot in the store, grouped by skill folder, each group oldest first.
    ///
    /// # Errors
    /// When the store cannot be read or holds a damaged snapshot.
    pub fn all(&self) -> Result<Vec<Snapshot>, SnapshotError> {
        let mut all = Vec::new();
        for history in self.history_dirs()? {
            all.extend(self.history_in(&history)?);
        }
        Ok(all)
    }

    /// How many snapshots the store keeps and the bytes they take.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub fn usage(&self) -> Result<StoreUsage, SnapshotError> {
        let mut usage = StoreUsage::default();
        for history in self.history_dirs()? {
            for entry in fs::read_dir(&history)
                .at(&history, SnapshotError::read)?
                .filter_map(Result::ok)
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            {
                usage.snapshots += 1;
                usage.bytes += bytes_under(&entry.path());
            }
        }
        usage.held_bytes = bytes_under(&self.held_dir());
        Ok(usage)
    }

    /// Where deleted and pruned snapshots are held for `undo`: beside the store.
    pub fn held_dir(&self) -> PathBuf {
        let name = self
            .dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.dir.with_file_name(format!("{name}-held"))
    }

    /// A new folder in the held area for one operation's snapshots, named after `stamp`.
    ///
    /// # Errors
    /// When the held area cannot be written.
    pub fn new_hold(&self, stamp: &str) -> Result<PathBuf, SnapshotError> {
        let held = self.held_dir();
        create_private_dirs(&held)?;
        let dir = tempfile::Builder::new()
            .prefix(&format!("{stamp}-"))
            .rand_bytes(4)
            .tempdir_in(&held)
            .at(&held, SnapshotError::write)?;
        // tempfile makes its folders with the umask's mode: the store's are the user's alone.
        set_path_mode(dir.path(), 0o700).at(dir.path(), SnapshotError::write)?;
        Ok(dir.keep())
    }

    /// Move `snapshot` out of the store into `hold` (made by [`Store::new_hold`]), in one
    /// rename, under its history's lock: it is no longer listed, and nothing of it is lost.
    /// Returns where it is held.
    ///
    /// # Errors
    /// When it is not in this store or cannot be moved.
    pub fn hold(&self, snapshot: &Snapshot, hold: &Path) -> Result<PathBuf, SnapshotError> {
        let history_name = snapshot.history_name();
        let history = self.dir.join(&history_name);
        if snapshot.path != history.join(&snapshot.id) {
            return Err(snapshot.damaged(Damage::Misplaced(snapshot.info.dir.clone())));
        }
        let _lock = lock_history(&history)?;
        let into = hold.join(&history_name);
        create_private_dirs(&into)?;
        let held = into.join(&snapshot.id);
        fs::rename(&snapshot.path, &held).at(&snapshot.path, SnapshotError::write)?;
        sync_dir(&history).at(&history, SnapshotError::write)?;
        Ok(held)
    }

    /// Put back the snapshot `id` held at `held` into the history `history_name`, refusing
    /// when the held copy is gone or a snapshot of that id is in the store again.
    ///
    /// # Errors
    /// [`SnapshotError::HeldGone`], [`SnapshotError::AlreadyBack`], or a failure to move it.
    pub fn put_back(&self, held: &Path, history_name: &str, id: &str) -> Result<(), SnapshotError> {
        let plain =
            |name: &str| !name.is_empty() && !name.starts_with('.') && !name.contains(['/', '\\']);
        let in_hold = held.starts_with(self.held_dir())
            && !held
                .components()
                .any(|c| c == std::path::Component::ParentDir);
        if !plain(history_name) || !plain(id) || !in_hold {
            return Err(SnapshotError::HeldGone(id.to_owned()));
        }
        if !fs::symlink_metadata(held).is_ok_and(|m| m.is_dir()) {
            return Err(SnapshotError::HeldGone(id.to_owned()));
        }
        let history = self.dir.join(history_name);
        make_history(&self.dir, &history)?;
        let _lock = lock_history(&history)?;
        let target = history.join(id);
        if fs::symlink_metadata(&target).is_ok() {
            return Err(SnapshotError::AlreadyBack(id.to_owned()));
        }
        fs::rename(held, &target).at(held, SnapshotError::write)?;
        sync_dir(&history).at(&history, SnapshotError::write)
    }

    /// The folders of the held area, each one operation's, oldest first, with their bytes.
    ///
    /// # Errors
    /// When the held area cannot be read.
    pub fn holds(&self) -> Result<Vec<(PathBuf, u64)>, SnapshotError> {
        Ok(listed(&self.held_dir(), is_dir)?
            .into_iter()
            .map(|hold| {
                let bytes = bytes_under(&hold);
                (hold, bytes)
            })
            .collect())
    }

    /// Empty one folder of the held area for good.
    ///
    /// # Errors
    /// When it cannot be removed.
    pub fn empty_hold(&self, hold: &Path) -> Result<(), SnapshotError> {
        if hold.parent() != Some(self.held_dir().as_path()) {
            return Err(SnapshotError::write(
                hold.to_path_buf(),
                io::Error::other("it is not in the held area"),
            ));
        }
        fs::remove_dir_all(hold).at(hold, SnapshotError::write)
    }

    /// Every history in the store, each one skill folder's, as its snapshots (oldest first)
    /// or the failure to read them; a damaged record fails only its own snapshot.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub fn each_history(&self) -> Result<Vec<Vec<Result<Snapshot, SnapshotError>>>, SnapshotError> {
        Ok(self
            .history_dirs()?
            .iter()
            .map(|history| self.loaded_in(history))
            .collect())
    }

    /// Every snapshot of the folder at `skill_dir`, oldest first, each loaded or the failure
    /// to load it (with its id): what a history shows, damaged ones included.
    ///
    /// # Errors
    /// When the history cannot be read.
    pub fn history_lenient(&self, skill_dir: &Path) -> Result<Vec<Loaded>, SnapshotError> {
        let real = crate::fs::canonical(skill_dir).unwrap_or_else(|_| skill_dir.to_path_buf());
        let history = self.history_dir(&real);
        Ok(self
            .snapshot_dirs(&history)?
            .into_iter()
            .map(|path| {
                let id = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let loaded = load_unlinked(&path);
                (id, loaded)
            })
            .collect())
    }

    fn history_dirs(&self) -> Result<Vec<PathBuf>, SnapshotError> {
        listed(&self.dir, is_dir)
    }

    fn loaded_in(&self, history: &Path) -> Vec<Result<Snapshot, SnapshotError>> {
        match self.snapshot_dirs(history) {
            Ok(paths) => paths.iter().map(|path| load_unlinked(path)).collect(),
            Err(error) => vec![Err(error)],
        }
    }

    /// Whether the folder's content differs from its latest snapshot.
    ///
    /// # Errors
    /// When the store cannot be read, or the folder exists but a file of it cannot be read.
    pub fn compare(&self, skill_dir: &Path) -> Result<Comparison, SnapshotError> {
        let Some(latest) = self.latest(skill_dir)? else {
            return Ok(Comparison::NoSnapshot);
        };
        compare_with(latest, skill_dir)
    }

    fn take_with(
        &self,
        skill_dir: &Path,
        reason: Reason,
        durability: Durability,
        now: SystemTime,
    ) -> Result<Taken, SnapshotError> {
        self.take_listing(Listing::read(skill_dir)?, reason, durability, now)
    }

    fn take_listing(
        &self,
        listing: Listing,
        reason: Reason,
        durability: Durability,
        now: SystemTime,
    ) -> Result<Taken, SnapshotError> {
        let history = self.history_dir(&listing.root);
        let new_history = make_history(&self.dir, &history)?;
        let _lock = lock_history(&history)?;
        // A skill is at the folder again: it was not (only) moved away any more.
        let _ = fs::remove_file(history.join(MOVED_FILE));
        let mut latest = if new_history {
            None
        } else {
            sweep_staging(&history);
            self.history_in(&history)?.pop()
        };
        if let Some(latest) = &latest
            && digest_listing(&listing)? == latest.info.digest
        {
            return Ok(Taken {
                snapshot: latest.clone(),
                fresh: false,
            });
        }
        let staging = tempfile::Builder::new()
            .prefix(STAGING_PREFIX)
            .tempdir_in(&history)
            .at(&history, SnapshotError::write)?;
        set_path_mode(staging.path(), 0o700).at(staging.path(), SnapshotError::write)?;
        let copy = match copy_into(&listing, staging.path(), false, durability)? {
            // The folder grew past the bound while it was copied: copy it again, truncated.
            Some(copy) => copy,
            None => {
                fs::remove_dir_all(staging.path().join(FILES_DIR))
                    .at(staging.path(), SnapshotError::write)?;
                copy_into(&listing, staging.path(), true, durability)?
                    .ok_or(SnapshotError::Changed(listing.root.clone()))?
            }
        };
        let taken_at = next_time(latest.as_ref(), now);
        let info = Info {
            digest: copy.digest,
            truncated: copy.truncated,
            skipped_links: listing.skipped_links(),
            changed: false,
            dir: listing.root,
            taken_at,
            reason,
            accepted: false,
        };
        let stored = Stored {
            digest: info.digest.clone(),
            truncated: info.truncated,
            skipped_links: info.skipped_links,
            dir: info.dir.clone(),
            taken_at: humantime::format_rfc3339_millis(taken_at).to_string(),
            reason: info.reason,
        };
        write_info(staging.path(), &stored, durability)?;
        let id = snapshot_id(taken_at, &info.digest);
        let target = history.join(&id);
        if let Err(error) = fs::rename(staging.path(), &target) {
            // Another skilldeck took the same content at the same moment: its copy stands.
            return match Snapshot::load(&target) {
                Ok(existing) if existing.info.digest == info.digest => Ok(Taken {
                    snapshot: existing,
                    fresh: false,
                }),
                _ => Err(SnapshotError::write(target, error)),
            };
        }
        let _ = staging.keep();
        if durability == Durability::Synced {
            sync_dir(&history).at(&history, SnapshotError::write)?;
        }
        if let Some(latest) = &mut latest {
            latest.mark_changed()?;
        }
        Ok(Taken {
            snapshot: Snapshot {
                id,
                path: target,
                info,
            },
            fresh: true,
        })
    }

    /// Where the snapshot `id` of the folder `real_dir` (links resolved) is kept.
    pub(super) fn snapshot_path(&self, real_dir: &Path, id: &str) -> PathBuf {
        self.history_dir(real_dir).join(id)
    }

    /// The directory of one skill folder's snapshots.
    fn history_dir(&self, real_dir: &Path) -> PathBuf {
        self.dir.join(history_name(real_dir))
    }

    /// The history directory of the folder `skill_dir`, its links resolved when it is there.
    pub(super) fn history_of(&self, skill_dir: &Path) -> PathBuf {
        let real = crate::fs::canonical(skill_dir).unwrap_or_else(|_| skill_dir.to_path_buf());
        self.history_dir(&real)
    }

    fn history_in(&self, history: &Path) -> Result<Vec<Snapshot>, SnapshotError> {
        self.snapshot_dirs(history)?
            .iter()
            .map(|path| load_unlinked(path))
            .collect()
    }

    /// The snapshot folders of one history, sorted (so by time).
    fn snapshot_dirs(&self, history: &Path) -> Result<Vec<PathBuf>, SnapshotError> {
        if is_link(history) {
            return Err(link_damage(history));
        }
        // Dot names are the store's own: staging directories, a lock file.
        listed(history, |e| {
            !e.file_name().to_string_lossy().starts_with('.')
        })
    }
}

/// The entries of `dir` that `keep` keeps, sorted; none when `dir` is not there.
fn listed(dir: &Path, keep: impl Fn(&fs::DirEntry) -> bool) -> Result<Vec<PathBuf>, SnapshotError> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(SnapshotError::read(dir.to_path_buf(), source)),
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| keep(e))
        .map(|e| e.path())
        .collect();
    paths.sort();
    Ok(paths)
}

fn is_dir(entry: &fs::DirEntry) -> bool {
    entry.file_type().is_ok_and(|t| t.is_dir())
}

// The store never makes links: one here would have the records read from elsewhere.
fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink())
}

fn link_damage(path: &Path) -> SnapshotError {
    SnapshotError::Damaged {
        id: path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default(),
        damage: Damage::Link,
    }
}

fn load_unlinked(path: &Path) -> Result<Snapshot, SnapshotError> {
    if is_link(path) {
        return Err(link_damage(path));
    }
    Snapshot::load(path)
}

/// The bytes of the files under `dir`, links not followed; 0 when it cannot be read.
fn bytes_under(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum()
}

/// The name of one skill folder's history directory: its name for people, then the start of
/// the digest of its path, so two folders of one name never share a history.
fn history_name(real_dir: &Path) -> String {
    let name: String = real_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let key = lower_hex(&Sha256::digest(path_bytes(real_dir)));
    format!("{}-{}", name.trim_start_matches('.'), &key[..16])
}

/// Whether the folder at `skill_dir` still holds what `latest`, its latest snapshot, holds.
///
/// # Errors
/// When the folder exists but a file of it cannot be read.
pub fn compare_with(latest: Snapshot, skill_dir: &Path) -> Result<Comparison, SnapshotError> {
    match super::content_digest(skill_dir) {
        Ok(now) if now == latest.info.digest => Ok(Comparison::Same(latest)),
        Ok(now) => Ok(Comparison::Changed { latest, now }),
        Err(SnapshotError::NotSkill(_)) => Ok(Comparison::Gone(latest)),
        Err(SnapshotError::Read { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
            Ok(Comparison::Gone(latest))
        }
        Err(error) => Err(error),
    }
}

/// What one copy into a staging directory gave.
struct Copy {
    digest: SnapshotDigest,
    truncated: bool,
}

/// Copy the listed files into `staging/files`, hashing them on the way; only `SKILL.md` when
/// the folder is over the copy bound. `None` when the folder turned out to be over the bound
/// only while it was being copied.
fn copy_into(
    listing: &Listing,
    staging: &Path,
    force_truncated: bool,
    durability: Durability,
) -> Result<Option<Copy>, SnapshotError> {
    let truncated = force_truncated || listing.total_size() > COPY_BOUND;
    let files = staging.join(FILES_DIR);
    create_private_dirs(&files)?;
    // Each directory is made once, by the first file in it: on a busy disk a mkdir costs as
    // much as copying a small file.
    let mut made: HashSet<&str> = HashSet::new();
    let mut digest = DigestBuilder::default();
    let mut budget = HashBudget::default();
    let mut copied = 0u64;
    for entry in &listing.files {
        let copy = !truncated || entry.rel == SKILL_FILE;
        let within = budget.spend(entry.size);
        if copy && !within {
            // Only a truncated snapshot's SKILL.md can be this large: never copied.
            return Err(SnapshotError::read(
                entry.source.clone(),
                io::Error::other(format!(
                    "it is {}, more than the {} a snapshot reads of one file",
                    human::size(entry.size),
                    human::size(DIGEST_FILE_BYTES)
                )),
            ));
        }
        let hash = if copy {
            let path = files.join(&entry.rel);
            if let Some((parent, _)) = entry.rel.rsplit_once('/')
                && made.insert(parent)
            {
                create_private_dirs(&files.join(parent))?;
            }
            let mut out =
                create_private(&path, entry.executable).at(&path, SnapshotError::write)?;
            let read = copy_hashing(entry, Some(&mut out))?;
            if durability == Durability::Synced {
                out.sync_all().at(&path, SnapshotError::write)?;
            }
            copied += read.bytes;
            if !truncated && copied > COPY_BOUND {
                return Ok(None);
            }
            read.hash
        } else if within {
            copy_hashing(entry, None)?.hash
        } else {
            unhashed(entry.size)
        };
        digest.add(&entry.rel, entry.executable, &hash);
    }
    if durability == Durability::Synced {
        for dir in walkdir::WalkDir::new(&files)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_dir())
        {
            sync_dir(dir.path()).at(dir.path(), SnapshotError::write)?;
        }
    }
    Ok(Some(Copy {
        digest: digest.finish(),
        truncated,
    }))
}

fn write_info(
    staging: &Path,
    stored: &Stored,
    durability: Durability,
) -> Result<(), SnapshotError> {
    let path = staging.join(INFO_FILE);
    let text = serde_json::to_vec_pretty(stored)
        .map_err(io::Error::from)
        .at(&path, SnapshotError::write)?;
    let mut file = create_private(&path, false).at(&path, SnapshotError::write)?;
    file.write_all(&text).at(&path, SnapshotError::write)?;
    if durability == Durability::Synced {
        file.sync_all().at(&path, SnapshotError::write)?;
        sync_dir(staging).at(staging, SnapshotError::write)?;
    }
    Ok(())
}

/// `now`, or just after the latest snapshot when the clock says otherwise, so ids keep the
/// order snapshots were taken in.
fn next_time(latest: Option<&Snapshot>, now: SystemTime) -> SystemTime {
    // To the millisecond, as `info.json` keeps it.
    let since_epoch = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let now = SystemTime::UNIX_EPOCH + Duration::from_millis(since_epoch.as_millis() as u64);
    match latest {
        Some(latest) if latest.info.taken_at >= now => {
            latest.info.taken_at + Duration::from_millis(1)
        }
        _ => now,
    }
}

/// `20261129-150000-123-ab12cd`: the time to the millisecond, then six digits of the digest.
fn snapshot_id(taken_at: SystemTime, digest: &SnapshotDigest) -> String {
    let stamp: String = humantime::format_rfc3339_millis(taken_at)
        .to_string()
        .chars()
        .filter_map(|c| match c {
            'T' | '.' => Some('-'),
            '-' | ':' | 'Z' => None,
            c => Some(c),
        })
        .collect();
    format!("{stamp}-{}", digest.short(6))
}

/// Remove what snapshots that crashed left in `history`. Only called under its lock, so no
/// staging directory there belongs to a snapshot being taken.
fn sweep_staging(history: &Path) {
    let Ok(entries) = fs::read_dir(history) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with(STAGING_PREFIX)
        {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// The right to add to `history`, held until dropped: the lock is on the directory itself.
#[cfg(unix)]
fn lock_history(history: &Path) -> Result<File, SnapshotError> {
    crate::fs::lock_folder(history).at(history, SnapshotError::write)
}

/// Where a folder cannot be locked, a lock file in the history stands in (a dot name, which
/// the listing of snapshots passes over).
#[cfg(not(unix))]
fn lock_history(history: &Path) -> Result<File, SnapshotError> {
    let path = history.join(".lock");
    crate::fs::lock_file(&path).at(&path, SnapshotError::write)
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> &[u8] {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes()
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Vec<u8> {
    path.to_string_lossy().into_owned().into_bytes()
}

/// A new file only its owner can read: snapshots may hold what the user keeps private.
fn create_private(path: &Path, executable: bool) -> io::Result<File> {
    create_new(path, if executable { 0o700 } else { 0o600 })
}

/// Make a skill's history directory; true when it is new (and so holds nothing to read).
fn make_history(store: &Path, history: &Path) -> Result<bool, SnapshotError> {
    match dir_builder(0o700).create(history) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            create_private_dirs(store)?;
            make_history(store, history)
        }
        Err(source) => Err(SnapshotError::write(history.to_path_buf(), source)),
    }
}

fn create_private_dirs(dir: &Path) -> Result<(), SnapshotError> {
    dir_builder(0o700)
        .recursive(true)
        .create(dir)
        .at(dir, SnapshotError::write)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_sort_by_time_and_carry_the_digest() {
        let digest = content_digest_of_nothing();
        let early = snapshot_id(
            SystemTime::UNIX_EPOCH + Duration::from_millis(1_500),
            &digest,
        );
        let late = snapshot_id(
            SystemTime::UNIX_EPOCH + Duration::from_secs(86_400),
            &digest,
        );
        assert_eq!(early, format!("19700101-000001-500-{}", digest.short(6)));
        assert!(early < late);
    }

    #[test]
    fn a_clock_that_went_back_still_gives_a_later_id() {
        let digest = content_digest_of_nothing();
        let future = SystemTime::now() + Duration::from_secs(3600);
        let latest = Snapshot {
            id: snapshot_id(future, &digest),
            path: PathBuf::new(),
            info: Info {
                digest: digest.clone(),
                truncated: false,
                skipped_links: 0,
                changed: false,
                dir: PathBuf::new(),
                taken_at: future,
                reason: Reason::Unrecorded,
                accepted: false,
            },
        };
        let next = next_time(Some(&latest), SystemTime::now());
        assert!(snapshot_id(next, &digest) > latest.id);
    }

    #[test]
    fn what_a_crashed_snapshot_left_is_swept_by_the_next_one() {
        let tmp = tempfile::tempdir().unwrap();
        let skill = tmp.path().join("demo");
        fs::create_dir_all(&skill).unwrap();
        fs::write(skill.join(SKILL_FILE), "---\nname: demo\n---\n").unwrap();
        let store = Store::at(tmp.path().join("store"));
        let first = store.take(&skill, Reason::Manual).unwrap().snapshot;
        let history = first.path.parent().unwrap().to_path_buf();
        // A snapshot killed half-way leaves its staging directory, however young.
        let crashed = history.join(format!("{STAGING_PREFIX}killed"));
        fs::create_dir_all(crashed.join(FILES_DIR)).unwrap();
        fs::write(skill.join(SKILL_FILE), "---\nname: demo\n---\nedited\n").unwrap();
        store.take(&skill, Reason::Manual).unwrap();
        assert!(!crashed.exists());
        assert_eq!(store.history(&skill).unwrap().len(), 2);
    }

    #[test]
    #[cfg(unix)]
    fn a_snapshot_waits_for_one_being_taken_of_the_same_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let skill = tmp.path().join("demo");
        fs::create_dir_all(&skill).unwrap();
        fs::write(skill.join(SKILL_FILE), "---\nname: demo\n---\n").unwrap();
        let store = Store::at(tmp.path().join("store"));
        let history = store.take(&skill, Reason::Manual).unwrap().snapshot.path;
        let history = history.parent().unwrap().to_path_buf();
        let held = lock_history(&history).unwrap();
        let (sender, receiver) = std::sync::mpsc::channel();
        let (store2, skill2) = (store.clone(), skill.clone());
        let waiter = std::thread::spawn(move || {
            sender
                .send(store2.take(&skill2, Reason::Manual).map(|t| t.fresh))
                .unwrap();
        });
        assert!(
            receiver.recv_timeout(Duration::from_millis(200)).is_err(),
            "a snapshot was taken while another held the history"
        );
        drop(held);
        let fresh = receiver.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(!fresh.unwrap());
        waiter.join().unwrap();
    }

    fn demo(tmp: &Path) -> (PathBuf, Store) {
        let skill = tmp.join("demo");
        fs::create_dir_all(&skill).unwrap();
        fs::write(skill.join(SKILL_FILE), "---\nname: demo\n---\n").unwrap();
        (skill, Store::at(tmp.join("store")))
    }

    #[test]
    fn an_accept_of_kept_content_marks_the_latest_and_records_no_copy() {
        let tmp = tempfile::tempdir().unwrap();
        let (skill, store) = demo(tmp.path());
        let first = store.take(&skill, Reason::Manual).unwrap().snapshot;
        assert!(!first.is_accepted());
        let accepted = store.accept(&skill).unwrap();
        assert!(!accepted.fresh);
        assert_eq!(accepted.snapshot.id, first.id);
        let again = store.latest(&skill).unwrap().unwrap();
        assert!(again.info.accepted && again.is_accepted());
        assert_eq!(again.info.reason, Reason::Manual);
        fs::write(skill.join("new.md"), "x").unwrap();
        let fresh = store.accept(&skill).unwrap();
        assert!(fresh.fresh);
        assert_eq!(fresh.snapshot.info.reason, Reason::Accepted);
        assert!(!fresh.snapshot.info.accepted && fresh.snapshot.is_accepted());
    }

    #[test]
    fn a_held_snapshot_is_counted_and_put_back_once() {
        let tmp = tempfile::tempdir().unwrap();
        let (skill, store) = demo(tmp.path());
        let snapshot = store.take(&skill, Reason::Manual).unwrap().snapshot;
        let bytes = store.usage().unwrap().bytes;
        assert!(bytes > 0);
        assert_eq!(store.usage().unwrap().snapshots, 1);
        let hold = store.new_hold("20261201-000000-000").unwrap();
        assert!(hold.starts_with(tmp.path().join("store-held")));
        let held = store.hold(&snapshot, &hold).unwrap();
        let usage = store.usage().unwrap();
        assert_eq!(
            (usage.snapshots, usage.bytes, usage.held_bytes),
            (0, 0, bytes)
        );
        let history = snapshot.history_name();
        store.put_back(&held, &history, &snapshot.id).unwrap();
        assert_eq!(store.latest(&skill).unwrap().unwrap(), snapshot);
        assert!(matches!(
            store.put_back(&held, &history, &snapshot.id),
            Err(SnapshotError::HeldGone(_))
        ));
        // Another copy of it, held: refused, the one in the store stands.
        let copy = hold.join(&history).join("copy");
        fs::create_dir_all(&copy).unwrap();
        assert!(matches!(
            store.put_back(&copy, &history, &snapshot.id),
            Err(SnapshotError::AlreadyBack(_))
        ));
        // An edited journal cannot aim a put-back outside the held area or the store.
        assert!(matches!(
            store.put_back(&skill, &history, &snapshot.id),
            Err(SnapshotError::HeldGone(_))
        ));
        assert!(matches!(
            store.put_back(&copy, "../elsewhere", "x"),
            Err(SnapshotError::HeldGone(_))
        ));
    }

    #[test]
    fn an_accept_of_a_gone_folder_is_a_sentence() {
        let tmp = tempfile::tempdir().unwrap();
        let (skill, store) = demo(tmp.path());
        store.take(&skill, Reason::Manual).unwrap();
        fs::remove_file(skill.join(SKILL_FILE)).unwrap();
        let error = store.accept(&skill).unwrap_err();
        assert!(matches!(error, SnapshotError::Gone(_)), "{error:?}");
        assert!(error.to_string().contains("there is nothing to accept"));
    }

    fn content_digest_of_nothing() -> SnapshotDigest {
        DigestBuilder::default().finish()
    }
}
