//! The journal: one line of JSON per operation that changed a root or the snapshot store,
//! appended to `journal.jsonl` in the data directory. Each says what was done, when, to which
//! folders, and which snapshot holds what each folder held before, so `undo` can put it back
//! without guessing. Lines are only ever appended; a line that does not parse is reported and
//! the others are still read.
//!
//! What a line is trusted for, and why (SECURITY.md, "The journal"):
//! - each line is sealed with the installation's key ([`seal`]): `undo` acts only on entries
//!   skilldeck wrote;
//! - an entry is a line only with its newline: a last line without one (a write cut short, a
//!   disk full) is torn, passed over by readers and set aside by the next writer before it
//!   appends ([`tail`]), so no entry is ever glued to it;
//! - the journal, its key and the data directory are the user's alone (0600, 0700).
pub mod ahead;
mod seal;
mod tail;

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use crate::fs::{Links, dir_builder, read_bounded, set_mode, set_path_mode};
use crate::record::upstream::Upstream;
use crate::roots::Machine;

/// The journal's file, in the data directory.
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// The most of the journal that is read: years of use at a few hundred bytes an entry.
const JOURNAL_BOUND: u64 = 64 << 20;

/// What kind of operation an entry records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    Import,
    /// An update: a new upstream merged with the local edits (`update`).
    Update,
    Restore,
    Snapshot,
    Accept,
    Remove,
    Disable,
    Enable,
    Link,
    Copy,
    Move,
    /// A snapshot deleted by hand: held aside, `Entry::store` says where.
    DeleteSnapshot,
    /// Snapshots a retention policy removed: held aside, `Entry::store` says where.
    Prune,
    /// A project's `skills-lock.json` written from its skills (`lock`).
    Lock,
    /// A project's skills installed from its `skills-lock.json` (`sync`), and the commits
    /// it found written into the lock.
    Sync,
    /// Put back what an earlier entry changed; `Entry::undoes` names it.
    Undo,
}

impl Operation {
    /// The operation in a sentence: `the import`, `the snapshot delete` (the journal and
    /// `undo --list` keep its one-word name).
    pub fn in_words(self) -> &'static str {
        match self {
            Operation::Import => "import",
            Operation::Update => "update",
            Operation::Restore => "restore",
            Operation::Snapshot => "snapshot",
            Operation::Accept => "accept",
            Operation::Remove => "remove",
            Operation::Disable => "disable",
            Operation::Enable => "enable",
            Operation::Link => "link",
            Operation::Copy => "copy",
            Operation::Move => "move",
            Operation::DeleteSnapshot => "snapshot delete",
            Operation::Prune => "prune",
            Operation::Lock => "lock",
            Operation::Sync => "sync",
            Operation::Undo => "undo",
        }
    }
}

/// What a folder held before the operation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Was {
    /// Nothing: the operation created it.
    Absent,
    /// What it held is kept in this snapshot, taken just before it was replaced.
    Kept(String),
    /// The operation did not change the folder (it took a snapshot of it).
    Untouched,
    /// A symbolic link to this target, which the operation removed.
    Link(PathBuf),
}

/// One folder an operation acted on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    pub dir: PathBuf,
    pub was: Was,
    /// The snapshot of what the folder holds after the operation, when one was taken.
    pub snapshot: Option<String>,
    /// After the operation the path is a symbolic link to this target (`link` made it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<PathBuf>,
}

impl Change {
    /// What undoing it did to its path, in words, paths as `shown` writes them, a link put
    /// back as `TARGET arrow LINK` (each front end makes a path display-safe and draws an arrow
    /// its own way; every arrow skilldeck draws points from the source to the destination).
    pub fn undone_in_words(&self, shown: &dyn Fn(&Path) -> String, arrow: &str) -> String {
        let path = shown(&self.dir);
        match (&self.was, &self.link) {
            (Was::Absent, Some(target)) => format!("linked {} {arrow} {path}", shown(target)),
            (Was::Link(_), _) => format!("removed the link {path}"),
            (Was::Kept(id), None) if self.snapshot.is_none() => {
                format!("removed {path} (kept in snapshot {id})")
            }
            (Was::Kept(id), _) => {
                format!("restored {path} (what it held is kept in snapshot {id})")
            }
            (Was::Absent, None) => format!("brought back {path}"),
            (Was::Untouched, _) => format!("{path} already held it"),
        }
    }
}

/// One change to the snapshot store itself (not to a skill folder).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "change")]
pub enum StoreChange {
    /// The snapshot `id` of the folder `dir` was moved out of the store, from the history
    /// named `history`, to `held` in the held area: undo moves it back.
    Held {
        dir: PathBuf,
        id: String,
        history: String,
        held: PathBuf,
    },
    /// The snapshot `id` of `dir` was added (an accept): undo holds it aside.
    Added { dir: PathBuf, id: String },
    /// The snapshot `id` of `dir`, which already held the content, was marked accepted:
    /// undo takes the mark away.
    Marked { dir: PathBuf, id: String },
    /// An undo put the held snapshot `id` of `dir` back in the store.
    PutBack { dir: PathBuf, id: String },
    /// An undo took the accepted mark off the snapshot `id` of `dir`.
    Unmarked { dir: PathBuf, id: String },
}

impl StoreChange {
    /// What undoing it did, in words, its skill's folder as `shown` writes it (each front end
    /// makes a path display-safe its own way).
    pub fn undone_in_words(&self, shown: &dyn Fn(&Path) -> String) -> String {
        let of = format!("snapshot {} of {}", self.id(), shown(self.dir()));
        match self {
            StoreChange::PutBack { .. } => format!("put back {of}"),
            StoreChange::Held { .. } => {
                format!("held aside {of}; the baseline before it is the latest again")
            }
            StoreChange::Unmarked { .. } => format!("{of} is no longer marked accepted"),
            StoreChange::Added { .. } | StoreChange::Marked { .. } => of,
        }
    }

    /// The skill folder whose snapshot it changed.
    pub fn dir(&self) -> &Path {
        match self {
            StoreChange::Held { dir, .. }
            | StoreChange::Added { dir, .. }
            | StoreChange::Marked { dir, .. }
            | StoreChange::PutBack { dir, .. }
            | StoreChange::Unmarked { dir, .. } => dir,
        }
    }

    /// The snapshot it changed.
    pub fn id(&self) -> &str {
        match self {
            StoreChange::Held { id, .. }
            | StoreChange::Added { id, .. }
            | StoreChange::Marked { id, .. }
            | StoreChange::PutBack { id, .. }
            | StoreChange::Unmarked { id, .. } => id,
        }
    }
}

/// One change to skilldeck's record of where a skill folder came from
/// (`record::upstream`): what the record said before the operation and after it, `None` for
/// no record. `dir` is the folder as the record is keyed (its links resolved), so the record
/// is found again after the folder is gone or back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpstreamChange {
    pub dir: PathBuf,
    pub was: Option<Upstream>,
    pub now: Option<Upstream>,
}

// What a settings file held and holds after an edit: defined with the settings editors,
// which sit below the operations, and journalled here.
pub use crate::settings::{SettingsChange, SettingsWas};

/// One operation, as the journal keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// When it was done, RFC 3339 in UTC.
    pub at: String,
    pub operation: Operation,
    pub changes: Vec<Change>,
    /// The agents' settings files it edited.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<SettingsChange>,
    /// What it changed in the snapshot store: snapshots held aside, added, marked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub store: Vec<StoreChange>,
    /// What it changed in skilldeck's upstream record (entries written before this was
    /// journalled have none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upstream: Vec<UpstreamChange>,
    /// For an undo: the `at` of the entry it undid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<String>,
    /// The batch it was done in, with other entries `undo` reverts with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<String>,
    /// Its place in a write-ahead pair: what an operation is about to do, or what it did
    /// (see [`ahead`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ahead: Option<Ahead>,
}

/// Which half of a write-ahead pair an entry is, with the token that pairs them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ahead {
    /// Written before the operation changed anything: what it is about to do. Never undone
    /// itself; an intent with no done entry is an operation a crash stopped.
    Intent(String),
    /// The operation's record, once it is over (or what recovery found it had done).
    Done(String),
}

impl Entry {
    /// The operation and when it was done, for people, as seen at `now`: `the import made
    /// 5 min ago`, `the remove made on 2026-11-02` (`human::moment`); a time the journal
    /// holds that does not read as RFC 3339 is given as it is.
    pub fn in_words(&self, now: SystemTime) -> String {
        let when = humantime::parse_rfc3339_weak(&self.at).map_or_else(
            |_| format!("at {}", self.at),
            |at| crate::text::human::moment(at, now),
        );
        format!("the {} made {when}", self.operation.in_words())
    }

    /// When it was done, for people (`human::moment`), or as the journal holds it.
    pub fn when(&self, now: SystemTime) -> String {
        crate::text::human::moment_of(&self.at, now)
    }

    /// An entry for `operation`, done now.
    pub fn now(operation: Operation, changes: Vec<Change>) -> Self {
        Self {
            at: humantime::format_rfc3339_millis(SystemTime::now()).to_string(),
            operation,
            changes,
            settings: Vec::new(),
            store: Vec::new(),
            upstream: Vec::new(),
            undoes: None,
            batch: None,
            ahead: None,
        }
    }

    /// Whether it is what an operation was about to do, not a record of what it did.
    pub fn is_intent(&self) -> bool {
        matches!(self.ahead, Some(Ahead::Intent(_)))
    }
}

/// Why the journal could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("the journal {} could not be written: {}", .path.display(), crate::fs::said(.source))]
    Write { path: PathBuf, source: io::Error },
    #[error("the journal {} could not be read: {}", .path.display(), crate::fs::said(.source))]
    Read { path: PathBuf, source: io::Error },
}

/// What reading the journal found: its entries, oldest first, and the lines that were not
/// entries skilldeck wrote (by line number, from 1).
#[derive(Debug, Default)]
pub struct Read {
    /// The entries whose seal verifies.
    pub entries: Vec<Entry>,
    /// The line of each of `entries`.
    pub lines: Vec<usize>,
    /// Lines that are no entry at all.
    pub damaged: Vec<usize>,
    /// Entries whose seal does not verify: skilldeck did not write them, or not as they are.
    pub unsealed: Vec<usize>,
    /// The last line, when it lacks its newline: a write cut short.
    pub torn: Option<usize>,
}

impl Read {
    /// What was passed over, latest last, each in a sentence.
    pub fn passed_over(&self) -> Vec<PassedOver> {
        let mut passed: Vec<PassedOver> = self
            .damaged
            .iter()
            .map(|&line| PassedOver::Damaged(line))
            .chain(self.unsealed.iter().map(|&line| PassedOver::Unsealed(line)))
            .chain(self.torn.map(PassedOver::Torn))
            .collect();
        passed.sort_by_key(PassedOver::line);
        passed
    }
}

/// A line of the journal that was read past, not acted on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PassedOver {
    #[error("line {0} of the journal is not an entry; it was passed over")]
    Damaged(usize),
    #[error(
        "line {0} of the journal is not sealed by this installation's key (skilldeck did not write it, or not as it is); it was passed over"
    )]
    Unsealed(usize),
    #[error(
        "line {0} of the journal was cut short (a write that did not finish); it was passed over, and is set aside at the next write"
    )]
    Torn(usize),
}

impl PassedOver {
    pub fn line(&self) -> usize {
        match self {
            PassedOver::Damaged(line) | PassedOver::Unsealed(line) | PassedOver::Torn(line) => {
                *line
            }
        }
    }
}

/// The journal's folder and files are the user's alone: they name every skill folder and
/// what was done to it.
const DIR_MODE: u32 = 0o700;
const FILE_MODE: u32 = 0o600;

/// The journal of one machine.
#[derive(Clone, Debug)]
pub struct Journal {
    path: PathBuf,
    /// The batch every entry appended here belongs to.
    batch: Option<String>,
}

impl Journal {
    /// The journal in `machine`'s data directory.
    pub fn of(machine: &Machine) -> Self {
        Self {
            batch: machine.batch.clone(),
            ..Self::at(machine.data_dir().join(JOURNAL_FILE))
        }
    }

    pub fn at(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            batch: None,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append `entry` as one sealed line, synced before this returns. A torn tail is set
    /// aside first, under the journal's lock, so the entry starts a line of its own.
    ///
    /// # Errors
    /// [`JournalError::Write`] when the data directory or the file cannot be written.
    pub fn append(&self, entry: &Entry) -> Result<(), JournalError> {
        let failed = |source| JournalError::Write {
            path: self.path.clone(),
            source,
        };
        let mut entry = entry.clone();
        if entry.batch.is_none() {
            entry.batch.clone_from(&self.batch);
        }
        let json = serde_json::to_vec(&entry).map_err(|e| failed(io::Error::other(e)))?;
        let dir = self.dir();
        private_dir(&dir).map_err(failed)?;
        let key = seal::Key::read_or_make(&dir).map_err(failed)?;
        let mut line = key.seal(&json);
        line.push(b'\n');
        let mut file = open_private(&self.path).map_err(failed)?;
        // Two skilldecks at once: one cuts a torn tail and appends while the other waits.
        file.lock().map_err(failed)?;
        tail::set_aside(&mut file, &self.path).map_err(failed)?;
        // One write of the whole line to a file opened for appending.
        file.write_all(&line).map_err(failed)?;
        file.sync_all().map_err(failed)
    }

    /// The folder the journal and its key live in.
    fn dir(&self) -> PathBuf {
        match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        }
    }

    /// Record `operation` on `machine`'s journal, when it changed anything: what each
    /// operation calls last, so an operation that changed nothing leaves no entry.
    ///
    /// The failure, if the journal could not be written; the operation is done all the same.
    pub fn record(
        machine: &Machine,
        operation: Operation,
        changes: Vec<Change>,
    ) -> Option<JournalError> {
        Self::record_entry(machine, Entry::now(operation, changes))
    }

    /// Record `entry` on `machine`'s journal, when it changed anything (a folder, a settings
    /// file, the snapshot store or the upstream record).
    pub fn record_entry(machine: &Machine, entry: Entry) -> Option<JournalError> {
        if entry.changes.is_empty()
            && entry.settings.is_empty()
            && entry.store.is_empty()
            && entry.upstream.is_empty()
        {
            return None;
        }
        Self::of(machine).append(&entry).err()
    }

    /// Every entry, oldest first; a missing journal has none.
    ///
    /// # Errors
    /// [`JournalError::Read`] when the file is there but cannot be read.
    pub fn read(&self) -> Result<Read, JournalError> {
        let bytes = match read_bounded(&self.path, Links::Refuse, JOURNAL_BOUND) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Read::default()),
            Err(source) => {
                return Err(JournalError::Read {
                    path: self.path.clone(),
                    source,
                });
            }
        };
        Ok(parse(&bytes, seal::Key::read(&self.dir()).as_ref()))
    }
}

/// The journal's bytes as entries, each line on its own: a line that is no entry, or whose
/// seal does not verify under `key`, is named and passed over, and never read with the next.
fn parse(bytes: &[u8], key: Option<&seal::Key>) -> Read {
    let mut read = Read::default();
    let (whole, torn) = match memchr::memrchr(b'\n', bytes) {
        Some(at) => bytes.split_at(at + 1),
        None => (&[][..], bytes),
    };
    let mut count = 0;
    for (index, line) in whole.split(|b| *b == b'\n').enumerate() {
        count = index;
        if line.is_empty() {
            continue;
        }
        match serde_json::from_slice::<Entry>(line) {
            Ok(entry) if key.is_some_and(|key| key.verifies(line)) => {
                read.entries.push(entry);
                read.lines.push(index + 1);
            }
            Ok(_) => read.unsealed.push(index + 1),
            Err(_) => read.damaged.push(index + 1),
        }
    }
    if !torn.is_empty() {
        read.torn = Some(count + 1);
    }
    read
}

/// Make `dir` (and what is missing above it) owner-only, whatever the umask, and take the
/// group's and others' access off it when an older skilldeck left them.
fn private_dir(dir: &Path) -> io::Result<()> {
    dir_builder(DIR_MODE).recursive(true).create(dir)?;
    set_path_mode(dir, DIR_MODE)
}

/// The journal opened for appending (and reading its tail), created owner-only, never
/// through a link.
fn open_private(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).append(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(FILE_MODE)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits().cast_signed());
    }
    let file = options.open(path)?;
    set_mode(&file, FILE_MODE)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(dir: &str, was: Was, snapshot: Option<&str>) -> Change {
        Change {
            dir: PathBuf::from(dir),
            was,
            snapshot: snapshot.map(str::to_owned),
            link: None,
        }
    }

    #[test]
    fn entries_are_appended_and_read_back_in_order() {
        let tmp = tempfile::tempdir().unwrap();
        let journal = Journal::at(tmp.path().join("data/journal.jsonl"));
        assert!(journal.read().unwrap().entries.is_empty());
        let first = Entry::now(
            Operation::Import,
            vec![
                change("/r/a", Was::Absent, Some("s1")),
                change("/r/b", Was::Kept("s0".into()), Some("s2")),
            ],
        );
        let second = Entry::now(
            Operation::Snapshot,
            vec![change("/r/a", Was::Untouched, Some("s3"))],
        );
        journal.append(&first).unwrap();
        journal.append(&second).unwrap();
        let read = journal.read().unwrap();
        assert_eq!(read.entries, [first, second]);
        assert!(read.damaged.is_empty());
    }

    #[test]
    fn a_damaged_line_is_named_and_the_rest_still_read() {
        let tmp = tempfile::tempdir().unwrap();
        let journal = Journal::at(tmp.path().join("journal.jsonl"));
        let entry = Entry::now(
            Operation::Accept,
            vec![change("/r/a", Was::Untouched, None)],
        );
        journal.append(&entry).unwrap();
        let mut file = OpenOptions::new()
            .append(true)
            .open(journal.path())
            .unwrap();
        file.write_all(b"{\"at\": half a line\n").unwrap();
        journal.append(&entry).unwrap();
        let read = journal.read().unwrap();
        assert_eq!(read.entries.len(), 2);
        assert_eq!(read.damaged, [2]);
    }

    #[test]
    fn a_store_change_names_its_kind() {
        let mut entry = Entry::now(Operation::DeleteSnapshot, Vec::new());
        entry.at = "2026-12-01T00:00:00.000Z".into();
        entry.store.push(StoreChange::Held {
            dir: PathBuf::from("/r/a"),
            id: "s1".into(),
            history: "a-0123".into(),
            held: PathBuf::from("/d/snapshots-held/x/a-0123/s1"),
        });
        assert_eq!(
            serde_json::to_string(&entry).unwrap(),
            r#"{"at":"2026-12-01T00:00:00.000Z","operation":"delete_snapshot","changes":[],"store":[{"change":"held","dir":"/r/a","id":"s1","history":"a-0123","held":"/d/snapshots-held/x/a-0123/s1"}]}"#
        );
        let back: Entry = serde_json::from_str(&serde_json::to_string(&entry).unwrap()).unwrap();
        assert_eq!(back, entry);
    }

    #[test]
    fn the_line_format_is_plain_json() {
        let entry = Entry {
            at: "2026-12-01T00:00:00.000Z".into(),
            operation: Operation::Restore,
            changes: vec![change("/r/a", Was::Kept("s9".into()), Some("s10"))],
            settings: Vec::new(),
            store: Vec::new(),
            upstream: Vec::new(),
            undoes: None,
            batch: None,
            ahead: None,
        };
        assert_eq!(
            serde_json::to_string(&entry).unwrap(),
            r#"{"at":"2026-12-01T00:00:00.000Z","operation":"restore","changes":[{"dir":"/r/a","was":{"kept":"s9"},"snapshot":"s10"}]}"#
        );
    }
}
