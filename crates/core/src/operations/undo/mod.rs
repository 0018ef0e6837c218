//! Undo: revert the latest journalled operation not yet undone, from what the journal kept
//! (skill folders from their snapshots, settings files from their backups). What changed
//! since that operation is never overwritten: the undo refuses instead.
//!
//! Every change of the entry is checked before any is reverted, so a refusal leaves every
//! folder as it was. A folder the undo removes is snapshotted first, like any removal; a
//! folder it brings back is restored from its snapshot, atomically; the undo is journalled
//! in its turn, naming the entry it reverted.
//!
//! The journal is data, not orders: undo acts only on entries sealed with this installation's
//! key, never goes past one that is not, and acts only on paths that resolve, when it acts,
//! inside a root skilldeck knows or its own snapshot store ([`bounds`]).

mod bounds;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::fs::{At, sync_dir};
use crate::install::{RootLock, SwapError};
use crate::roots::Machine;
use crate::settings::{self, RevertError};
use crate::snapshot::losses::nothing_lost;
use crate::snapshot::restore::{self as restoring, RestoreError};
use crate::snapshot::{Reason, Snapshot, SnapshotError, Store, content_digest};

use super::journal::{
    Change, Entry, Journal, JournalError, Operation, Read, StoreChange, Was, ahead,
};
use super::remove::{self, RemoveError};
use super::upstream_record;
use bounds::Bounds;

/// One journal entry, as `undo --list` shows it.
#[derive(Debug)]
pub struct Listed {
    pub entry: Entry,
    /// Its line in the journal, from 1.
    pub line: usize,
    /// A later undo already reverted it.
    pub undone: bool,
}

/// What an undo did.
#[derive(Debug)]
pub struct Undone {
    /// The entry reverted.
    pub reverted: Entry,
    /// The entry the undo itself journalled.
    pub entry: Entry,
    /// Later entries passed over because they changed nothing (snapshots taken by hand):
    /// nothing of them needs undoing.
    pub skipped: Vec<Entry>,
    pub unjournalled: Option<JournalError>,
    /// The other operations of its batch, undone with it, latest first.
    pub with: Vec<Undone>,
    /// Why the rest of its batch was not undone, when it was not.
    pub stopped: Option<UndoError>,
    /// Operations a crash had stopped, journalled first as what they had done.
    pub recovered: Vec<Entry>,
}

/// Why nothing was undone; everything is as it was.
#[derive(Debug, thiserror::Error)]
pub enum UndoError {
    #[error("the journal holds nothing left to undo")]
    Nothing,
    #[error(
        "{} changed since that {operation}; undoing it would overwrite the later change, so nothing was undone",
        .path.display()
    )]
    ChangedSince { path: PathBuf, operation: String },
    #[error(
        "the journal does not say what {} held after that {operation}, so undo cannot tell whether it changed since; nothing was undone",
        .path.display()
    )]
    Unverifiable { path: PathBuf, operation: String },
    #[error(
        "where {} came from was recorded again since that {operation}; undoing it would overwrite the later record, so nothing was undone",
        .dir.display()
    )]
    RecordChangedSince { dir: PathBuf, operation: String },
    #[error(
        "{} lies in no root skilldeck knows (its `..` and links resolved), so undo does not act on it; nothing was undone",
        .0.display()
    )]
    NotInARoot(PathBuf),
    #[error(
        "line {line} of the journal {} is not sealed by this installation's key: skilldeck did not write it, or not as it is, so undo neither acts on it nor goes back past it; nothing was undone (take that line out of the journal to undo what came before it)",
        .path.display()
    )]
    Unsealed { line: usize, path: PathBuf },
    #[error("{0}")]
    Journal(#[from] JournalError),
    #[error("{0}; nothing was undone")]
    Snapshot(#[from] SnapshotError),
    #[error("{0}")]
    Restore(#[from] RestoreError),
    #[error("{0}")]
    Remove(#[from] RemoveError),
    #[error("{0}")]
    Settings(#[from] RevertError),
    #[error(transparent)]
    Swap(#[from] SwapError),
    #[error("{} could not be written: {}", .path.display(), crate::fs::said(.source))]
    Io { path: PathBuf, source: io::Error },
}

impl UndoError {
    /// Whether skilldeck refused, rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        match self {
            UndoError::Nothing
            | UndoError::ChangedSince { .. }
            | UndoError::Unverifiable { .. }
            | UndoError::RecordChangedSince { .. }
            | UndoError::NotInARoot(_)
            | UndoError::Unsealed { .. } => true,
            UndoError::Snapshot(error) => error.is_refusal(),
            UndoError::Restore(error) => error.is_refusal(),
            UndoError::Remove(error) => error.is_refusal(),
            UndoError::Settings(error) => error.is_refusal(),
            UndoError::Journal(_) | UndoError::Swap(_) | UndoError::Io { .. } => false,
        }
    }

    fn io(path: PathBuf, source: io::Error) -> Self {
        Self::Io { path, source }
    }
}

/// The journal, oldest first, each entry marked when it was undone.
///
/// # Errors
/// When the journal cannot be read.
pub fn list(machine: &Machine) -> Result<Vec<Listed>, UndoError> {
    Ok(listed(Journal::of(machine).read()?))
}

/// The sealed entries of `read`, each marked when it was undone.
fn listed(read: Read) -> Vec<Listed> {
    // An intent is what an operation was about to do; its record says what it did.
    let mut listed: Vec<Listed> = read
        .entries
        .into_iter()
        .zip(read.lines)
        .filter(|(entry, _)| !entry.is_intent())
        .map(|(entry, line)| Listed {
            entry,
            line,
            undone: false,
        })
        .collect();
    // Each undo marks the latest entry before it with the time it names: two entries of one
    // millisecond are told apart by which one an earlier undo already took.
    for at in 0..listed.len() {
        let Some(undoes) = listed[at].entry.undoes.clone() else {
            continue;
        };
        if let Some(target) = listed[..at]
            .iter_mut()
            .rev()
            .find(|l| !l.undone && l.entry.operation != Operation::Undo && l.entry.at == undoes)
        {
            target.undone = true;
        }
    }
    listed
}

/// Whether undo passes over an entry: it changed no skill, settings file or kept snapshot
/// (a snapshot taken by hand), or it only held snapshots aside and a later prune emptied
/// them for good, so nothing of it can be undone and it must not stop undo going further.
fn changed_nothing(entry: &Entry) -> bool {
    let untouched = entry.settings.is_empty()
        && entry.upstream.is_empty()
        && entry.changes.iter().all(|c| c.was == Was::Untouched);
    untouched && (entry.store.is_empty() || emptied(entry))
}

/// Whether the entry only held snapshots aside, and every one of them was emptied since.
pub fn emptied(entry: &Entry) -> bool {
    !entry.store.is_empty()
        && entry.store.iter().all(|change| match change {
            StoreChange::Held { held, .. } => fs::symlink_metadata(held).is_err(),
            _ => false,
        })
}

/// The entry `undo` would revert now, for a question before doing it.
///
/// # Errors
/// When the journal cannot be read.
pub fn next(machine: &Machine) -> Result<Option<Entry>, UndoError> {
    Ok(pending(machine)?.map(|(entry, _)| entry))
}

/// The latest entry not yet undone, with the entries after it that changed nothing.
fn pending(machine: &Machine) -> Result<Option<(Entry, Vec<Entry>)>, UndoError> {
    let journal = Journal::of(machine);
    let read = journal.read()?;
    // The latest line skilldeck did not seal may stand for a later operation: nothing before
    // it is reverted, or undo could revert the wrong one.
    let unsealed = read.unsealed.last().copied();
    let refuse = |line: usize| UndoError::Unsealed {
        line,
        path: journal.path().to_path_buf(),
    };
    let mut skipped = Vec::new();
    for listed in listed(read).into_iter().rev() {
        if let Some(line) = unsealed.filter(|&unsealed| unsealed > listed.line) {
            return Err(refuse(line));
        }
        if listed.undone || listed.entry.operation == Operation::Undo {
            continue;
        }
        if changed_nothing(&listed.entry) {
            skipped.push(listed.entry);
            continue;
        }
        return Ok(Some((listed.entry, skipped)));
    }
    match unsealed {
        Some(line) => Err(refuse(line)),
        None => Ok(None),
    }
}

/// One change worked out and checked, ready to be reverted.
enum Step {
    /// Remove the folder the operation created, snapshotted first, while it holds `snapshot`.
    RemoveFolder { dir: PathBuf, snapshot: Snapshot },
    /// Put the folder back as the snapshot holds it.
    Restore { dir: PathBuf, snapshot: Snapshot },
    /// Remove the link the operation made.
    Unlink { path: PathBuf, target: PathBuf },
    /// Make again the link the operation removed.
    Relink { path: PathBuf, target: PathBuf },
}

/// What `undo` would revert now, latest first: the latest operation not yet undone and the
/// others of its batch (the skills one command or one question of the app acted on).
///
/// # Errors
/// When the journal cannot be read.
pub fn pending_batch(machine: &Machine) -> Result<Vec<Entry>, UndoError> {
    let mut batch: Vec<Entry> = Vec::new();
    for listed in list(machine)?.into_iter().rev() {
        if listed.undone || listed.entry.operation == Operation::Undo {
            continue;
        }
        if changed_nothing(&listed.entry) {
            continue;
        }
        match batch.first() {
            None => batch.push(listed.entry),
            Some(head) if head.batch.is_some() && head.batch == listed.entry.batch => {
                batch.push(listed.entry);
            }
            Some(_) => break,
        }
        if batch[0].batch.is_none() {
            break;
        }
    }
    Ok(batch)
}

/// Revert the latest operation not yet undone, and the others of its batch: each is checked
/// before it is reverted, and a refusal stops the batch there (what was undone stays undone,
/// and is said).
///
/// # Errors
/// [`UndoError`] says why not; nothing was changed.
pub fn undo(machine: &Machine) -> Result<Undone, UndoError> {
    let recovered = recover(machine)?;
    let batch = pending_batch(machine)?.len();
    let mut undone = undo_one(machine)?;
    undone.recovered = recovered;
    for _ in 1..batch {
        match undo_one(machine) {
            Ok(more) => undone.with.push(more),
            Err(error) => {
                undone.stopped = Some(error);
                break;
            }
        }
    }
    Ok(undone)
}

/// Revert the latest operation not yet undone.
fn undo_one(machine: &Machine) -> Result<Undone, UndoError> {
    let Some((entry, skipped)) = pending(machine)? else {
        return Err(UndoError::Nothing);
    };
    let store = Store::open(&machine.env);
    let bounds = Bounds::of(machine, &store);
    let operation = entry.operation.in_words().to_owned();
    // Every change checked before any is made: a refusal leaves everything as it was.
    let mut steps = Vec::new();
    for change in &entry.changes {
        if let Some(step) = check(&bounds, &store, change, &operation)? {
            steps.push(step);
        }
    }
    for change in &entry.settings {
        settings::check_revert(change)?;
    }
    let mut store_steps = Vec::new();
    for change in &entry.store {
        store_steps.push(check_store(&bounds, &store, change)?);
    }
    // A record of where a skill came from that changed since is a later import's or
    // update's: it is not overwritten.
    for change in &entry.upstream {
        if !upstream_record::holds(machine, change) {
            return Err(UndoError::RecordChangedSince {
                dir: change.dir.clone(),
                operation: operation.clone(),
            });
        }
    }
    let mut settings_done = Vec::new();
    let mut failure = None;
    for change in &entry.settings {
        match settings::revert(machine, change) {
            Ok(done) => settings_done.push(done),
            Err(error) => {
                failure = Some(error.into());
                break;
            }
        }
    }
    if failure.is_some() {
        steps.clear();
    }
    // Links last, so a link made again leads to the folder brought back before it.
    steps.sort_by_key(|step| matches!(step, Step::Relink { .. }));
    let mut changes = Vec::new();
    for step in steps {
        match apply(&bounds, &store, step) {
            Ok(change) => changes.push(change),
            Err(error) => {
                failure = Some(error);
                break;
            }
        }
    }
    let mut done = Entry::now(Operation::Undo, changes);
    if failure.is_none() {
        for step in store_steps {
            match apply_store(&bounds, &store, &done.at, step) {
                Ok(change) => done.store.push(change),
                Err(error) => {
                    failure = Some(error.into());
                    break;
                }
            }
        }
    }
    if failure.is_none() {
        // Last, so the folders are back (or gone) when their records are.
        for change in &entry.upstream {
            match upstream_record::revert(machine, change) {
                Ok(reverted) => done.upstream.extend(reverted),
                Err(source) => {
                    failure = Some(UndoError::io(
                        machine.data_dir().join(crate::record::upstream::FOLDER),
                        source,
                    ));
                    break;
                }
            }
        }
    }
    done.settings = settings_done;
    done.undoes = Some(entry.at.clone());
    // What was reverted is journalled even when a later step failed, so it is not reverted
    // twice.
    let unjournalled = Journal::of(machine).append(&done).err();
    if let Some(error) = failure {
        return Err(error);
    }
    Ok(Undone {
        reverted: entry,
        entry: done,
        skipped,
        unjournalled,
        with: Vec::new(),
        stopped: None,
        recovered: Vec::new(),
    })
}

/// Journal what each operation a crash stopped had done (its intent says what it was about
/// to do; the disk says how far it got), so the next undo reverts that operation and only
/// what of it was done. The records written, oldest first.
///
/// # Errors
/// When the journal cannot be read or written.
pub fn recover(machine: &Machine) -> Result<Vec<Entry>, UndoError> {
    let mut recovered = Vec::new();
    for intent in ahead::stopped(machine)? {
        let found = match intent.operation {
            Operation::Remove => remove::found_done(machine, &intent),
            Operation::Move => super::share::found_done(machine, &intent),
            // A sync installs as an import does, through the same watch.
            Operation::Import | Operation::Sync => {
                ahead::swapped_in(&Store::open(&machine.env), &intent, Reason::Installed)
            }
            Operation::Restore => {
                ahead::swapped_in(&Store::open(&machine.env), &intent, Reason::Restored)
            }
            // Only removals, moves, imports, syncs and restores write ahead; anything else is settled as
            // having done nothing.
            _ => Entry::now(intent.operation, Vec::new()),
        };
        recovered.push(ahead::settle(machine, &intent, found)?);
    }
    Ok(recovered)
}

/// Whether `change` can be reverted now, and how; `None` for one that changed nothing.
fn check(
    bounds: &Bounds,
    store: &Store,
    change: &Change,
    operation: &str,
) -> Result<Option<Step>, UndoError> {
    let path = &change.dir;
    if change.was != Was::Untouched {
        bounds.skill_path(path)?;
    }
    let changed = || UndoError::ChangedSince {
        path: path.clone(),
        operation: operation.to_owned(),
    };
    let now = fs::symlink_metadata(path).ok();
    let is_link = now.as_ref().is_some_and(|m| m.file_type().is_symlink());
    let step = match (&change.was, &change.link, &change.snapshot) {
        (Was::Untouched, _, _) => return Ok(None),
        (Was::Absent, Some(target), _) => {
            if !is_link || fs::read_link(path).ok().as_ref() != Some(target) {
                return Err(changed());
            }
            Step::Unlink {
                path: path.clone(),
                target: target.clone(),
            }
        }
        (Was::Absent, None, Some(after)) => {
            let snapshot = store.find(path, Some(after))?;
            if is_link || !holds(path, &snapshot)? {
                return Err(changed());
            }
            // What a snapshot would not keep (a link, a `.git`) is not in its digest.
            nothing_lost("removing", path).map_err(RemoveError::WouldLose)?;
            Step::RemoveFolder {
                dir: path.clone(),
                snapshot,
            }
        }
        (Was::Absent, None, None) => {
            return Err(UndoError::Unverifiable {
                path: path.clone(),
                operation: operation.to_owned(),
            });
        }
        (Was::Kept(id), _, after) => {
            let snapshot = store.find(path, Some(id))?;
            if snapshot.info.truncated {
                return Err(RestoreError::Truncated(snapshot.id).into());
            }
            // The snapshot's own checks first: they say what is wrong with a damaged one.
            snapshot.read_kept(path)?;
            match after {
                Some(after) => {
                    let left = store.find(path, Some(after))?;
                    if is_link || !holds(path, &left)? {
                        return Err(changed());
                    }
                    nothing_lost("restoring", path).map_err(RestoreError::WouldLose)?;
                }
                None => {
                    if now.is_some() {
                        return Err(changed());
                    }
                }
            }
            Step::Restore {
                dir: path.clone(),
                snapshot,
            }
        }
        (Was::Link(target), _, _) => {
            if now.is_some() {
                return Err(changed());
            }
            Step::Relink {
                path: path.clone(),
                target: target.clone(),
            }
        }
    };
    Ok(Some(step))
}

/// One change to the snapshot store, checked, ready to be reverted.
enum StoreStep {
    /// Move the held snapshot back into the store.
    PutBack {
        dir: PathBuf,
        id: String,
        history: String,
        held: PathBuf,
    },
    /// Hold aside the snapshot an accept added.
    HoldAside(Snapshot),
    /// Take the accepted mark off.
    Unmark(Snapshot),
}

/// Whether the store change can be reverted now, and how.
fn check_store(
    bounds: &Bounds,
    store: &Store,
    change: &StoreChange,
) -> Result<StoreStep, UndoError> {
    Ok(match change {
        StoreChange::Held {
            dir,
            id,
            history,
            held,
        } => {
            if !bounds.is_held(held) || !valid_name(history) || !valid_name(id) {
                return Err(SnapshotError::HeldGone(id.clone()).into());
            }
            if store.find(dir, Some(id)).is_ok_and(|found| found.id == *id) {
                return Err(SnapshotError::AlreadyBack(id.clone()).into());
            }
            StoreStep::PutBack {
                dir: dir.clone(),
                id: id.clone(),
                history: history.clone(),
                held: held.clone(),
            }
        }
        StoreChange::Added { dir, id } => StoreStep::HoldAside(exactly(store, dir, id)?),
        StoreChange::Marked { dir, id } => StoreStep::Unmark(exactly(store, dir, id)?),
        StoreChange::PutBack { .. } | StoreChange::Unmarked { .. } => {
            return Err(UndoError::Nothing);
        }
    })
}

/// The snapshot of `dir` whose id is exactly `id`.
fn exactly(store: &Store, dir: &Path, id: &str) -> Result<Snapshot, UndoError> {
    match store.find(dir, Some(id))? {
        found if found.id == id => Ok(found),
        _ => Err(SnapshotError::UnknownId {
            id: id.to_owned(),
            dir: dir.to_path_buf(),
        }
        .into()),
    }
}

/// Revert one checked store change, and say what the revert did.
fn apply_store(
    bounds: &Bounds,
    store: &Store,
    at: &str,
    step: StoreStep,
) -> Result<StoreChange, SnapshotError> {
    Ok(match step {
        StoreStep::PutBack {
            dir,
            id,
            history,
            held,
        } => {
            // Checked again as it is moved: nothing from outside the held area enters the store.
            if !bounds.is_held(&held) {
                return Err(SnapshotError::HeldGone(id));
            }
            store.put_back(&held, &history, &id)?;
            StoreChange::PutBack { dir, id }
        }
        StoreStep::HoldAside(snapshot) => {
            let hold = store.new_hold(&super::snapshot::stamp(at))?;
            let held = store.hold(&snapshot, &hold)?;
            StoreChange::Held {
                dir: snapshot.info.dir.clone(),
                history: snapshot.history_name(),
                id: snapshot.id,
                held,
            }
        }
        StoreStep::Unmark(mut snapshot) => {
            snapshot.unmark_accepted()?;
            StoreChange::Unmarked {
                dir: snapshot.info.dir,
                id: snapshot.id,
            }
        }
    })
}

/// Whether the folder at `dir` holds exactly what `snapshot` holds.
fn holds(dir: &Path, snapshot: &Snapshot) -> Result<bool, UndoError> {
    if !fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return Ok(false);
    }
    Ok(content_digest(dir)? == snapshot.info.digest)
}

/// Revert one checked change, and say what the revert did, for the undo's own entry.
fn apply(bounds: &Bounds, store: &Store, step: Step) -> Result<Change, UndoError> {
    // Checked again at the moment of acting: a link put in the way since the check leads
    // nowhere outside the roots.
    let (Step::RemoveFolder { dir: path, .. }
    | Step::Restore { dir: path, .. }
    | Step::Unlink { path, .. }
    | Step::Relink { path, .. }) = &step;
    bounds.skill_path(path)?;
    Ok(match step {
        Step::RemoveFolder { dir, snapshot } => {
            let kept =
                remove::take_out(store, &dir, Some(&snapshot.info.digest), Reason::BeforeUndo)?;
            Change {
                dir,
                was: Was::Kept(kept),
                snapshot: None,
                link: None,
            }
        }
        Step::Restore { dir, snapshot } => {
            let restored = restoring::restore_because(store, &dir, &snapshot, Reason::BeforeUndo)?;
            let (was, after) = match restored {
                Some(done) => (
                    done.replaced.map_or(Was::Absent, |kept| Was::Kept(kept.id)),
                    done.baseline.id,
                ),
                None => (Was::Untouched, snapshot.id),
            };
            Change {
                dir,
                was,
                snapshot: Some(after),
                link: None,
            }
        }
        Step::Unlink { path, target } => {
            remove::unlink(&path, &target)?;
            Change {
                dir: path,
                was: Was::Link(target),
                snapshot: None,
                link: None,
            }
        }
        Step::Relink { path, target } => {
            relink(&path, &target)?;
            Change {
                dir: path,
                was: Was::Absent,
                snapshot: None,
                link: Some(target),
            }
        }
    })
}

/// Make the link at `path` to `target` again, under its folder's lock, only where nothing is.
fn relink(path: &Path, target: &Path) -> Result<(), UndoError> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(UndoError::NotInARoot(path.to_path_buf()));
    };
    let lock = RootLock::acquire(parent)?;
    let at = lock.root().join(name);
    // The link's creation fails when anything is there: it never replaces.
    crate::fs::link_folder(target, &at).map_err(|source| match source.kind() {
        io::ErrorKind::AlreadyExists => UndoError::ChangedSince {
            path: path.to_path_buf(),
            operation: "remove".to_owned(),
        },
        _ => UndoError::io(at.clone(), source),
    })?;
    sync_dir(lock.root()).at(lock.root(), UndoError::io)
}

/// Whether `name` (a snapshot id or a history's name from the journal) names one entry of
/// a folder and nothing else.
fn valid_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['/', '\\']) && !name.starts_with('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(at: &str, operation: Operation, undoes: Option<&str>) -> Entry {
        let mut entry = Entry::now(
            operation,
            vec![Change {
                dir: PathBuf::from("/r/a"),
                was: Was::Absent,
                snapshot: Some("s".into()),
                link: None,
            }],
        );
        entry.at = at.to_owned();
        entry.undoes = undoes.map(str::to_owned);
        entry
    }

    #[test]
    fn each_undo_marks_one_entry_even_when_two_share_a_millisecond() {
        let tmp = tempfile::tempdir().unwrap();
        let machine = Machine::sandbox(tmp.path(), tmp.path(), tmp.path());
        let journal = Journal::of(&machine);
        for e in [
            entry("t1", Operation::Import, None),
            entry("t1", Operation::Remove, None),
            entry("t2", Operation::Undo, Some("t1")),
        ] {
            journal.append(&e).unwrap();
        }
        let undone: Vec<bool> = list(&machine).unwrap().iter().map(|l| l.undone).collect();
        assert_eq!(undone, [false, true, false]);
        let next = next(&machine).unwrap().unwrap();
        assert_eq!(next.operation, Operation::Import);
    }

    #[test]
    fn snapshots_are_passed_over_and_an_empty_journal_has_nothing_to_undo() {
        let tmp = tempfile::tempdir().unwrap();
        let machine = Machine::sandbox(tmp.path(), tmp.path(), tmp.path());
        assert!(matches!(undo(&machine), Err(UndoError::Nothing)));
        let journal = Journal::of(&machine);
        let mut snapshot = entry("t2", Operation::Snapshot, None);
        snapshot.changes[0].was = Was::Untouched;
        journal.append(&entry("t1", Operation::Link, None)).unwrap();
        journal.append(&snapshot).unwrap();
        let (next, skipped) = pending(&machine).unwrap().unwrap();
        assert_eq!(next.operation, Operation::Link);
        assert_eq!(skipped, [snapshot]);
    }

    #[test]
    fn an_accept_that_changed_the_baseline_is_not_passed_over() {
        let tmp = tempfile::tempdir().unwrap();
        let machine = Machine::sandbox(tmp.path(), tmp.path(), tmp.path());
        let mut accept = entry("t2", Operation::Accept, None);
        accept.changes[0].was = Was::Untouched;
        let mut old_accept = accept.clone();
        old_accept.at = "t3".into();
        // Written before accepts were journalled with their store change: passed over.
        accept.store.push(StoreChange::Added {
            dir: PathBuf::from("/r/a"),
            id: "s".into(),
        });
        let journal = Journal::of(&machine);
        journal.append(&entry("t1", Operation::Link, None)).unwrap();
        journal.append(&accept).unwrap();
        journal.append(&old_accept).unwrap();
        let (next, skipped) = pending(&machine).unwrap().unwrap();
        assert_eq!(next, accept);
        assert_eq!(skipped, [old_accept]);
    }
}
