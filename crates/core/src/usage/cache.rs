//! What the session logs held, kept between runs in skilldeck's data folder
//! (`<data dir>/usage/sessions.json`, the folder the caller passes): per log file its path,
//! length, modification time and the bytes it was read to, with the uses and broken lines
//! found in it. A log whose length, time and bound are unchanged is not read again.
//!
//! The cache is skilldeck's own and only saves work: one that is missing, too large or does
//! not parse is ignored (and rewritten), and one that cannot be written is left as it was.
//! It is written atomically (a temporary file in the same folder, renamed over it), so a
//! reader never sees half of one.

use std::collections::HashMap;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::Use;
use super::logs::LogFile;

/// The cache's file in the folder it is kept in.
pub const FILE: &str = "sessions.json";

/// Bumped when what is kept changes meaning, so an older cache is read as none.
const VERSION: u32 = 1;

/// What one log held, read up to `limit` bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// Uses by skill folder, in folder order.
    pub uses: Vec<(PathBuf, Use)>,
    /// Lines that could not be decoded.
    pub broken: usize,
}

/// The cache as read, and as it will be written.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cache {
    version: u32,
    files: Vec<Entry>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Entry {
    path: PathBuf,
    agent: String,
    len: u64,
    modified: Stamp,
    limit: u64,
    broken: usize,
    uses: Vec<StoredUse>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct StoredUse {
    dir: PathBuf,
    count: u64,
    last: Option<Stamp>,
}

/// A time, to the nanosecond, as seconds and nanoseconds since 1970.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp(u64, u32);

impl Stamp {
    fn of(time: SystemTime) -> Self {
        let since = time
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default();
        Stamp(since.as_secs(), since.subsec_nanos())
    }

    fn time(self) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::new(self.0, self.1)
    }
}

/// The cache of the folder `dir`; empty when there is none or it cannot be used.
pub fn load(dir: &Path, limit: u64) -> Cache {
    crate::fs::read_bounded(&dir.join(FILE), crate::fs::Links::Refuse, limit)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Cache>(&bytes).ok())
        .filter(|cache| cache.version == VERSION)
        .unwrap_or_default()
}

impl Cache {
    /// The cache's entries by path, to look logs up in.
    pub fn by_path(&self) -> HashMap<&Path, usize> {
        self.files
            .iter()
            .enumerate()
            .map(|(at, entry)| (entry.path.as_path(), at))
            .collect()
    }

    /// What `log` held when it was last read up to `limit`, if it has not changed since.
    pub fn held(&self, index: &HashMap<&Path, usize>, log: &LogFile, limit: u64) -> Option<Held> {
        let entry = &self.files[*index.get(log.path.as_path())?];
        let same = entry.agent == log.agent.id()
            && entry.len == log.len
            && entry.modified == Stamp::of(log.modified)
            && entry.limit == limit;
        same.then(|| Held {
            uses: entry
                .uses
                .iter()
                .map(|u| {
                    (
                        u.dir.clone(),
                        Use {
                            count: u.count,
                            last: u.last.map(Stamp::time),
                        },
                    )
                })
                .collect(),
            broken: entry.broken,
        })
    }

    /// Keep what `log` held when read up to `limit`. A path that is not UTF-8 cannot be
    /// written as JSON text, so its log is read again each time instead.
    pub fn keep(&mut self, log: &LogFile, limit: u64, held: &Held) {
        let utf8 =
            log.path.to_str().is_some() && held.uses.iter().all(|(d, _)| d.to_str().is_some());
        if !utf8 {
            return;
        }
        self.version = VERSION;
        self.files.push(Entry {
            path: log.path.clone(),
            agent: log.agent.id().to_owned(),
            len: log.len,
            modified: Stamp::of(log.modified),
            limit,
            broken: held.broken,
            uses: held
                .uses
                .iter()
                .map(|(dir, uses)| StoredUse {
                    dir: dir.clone(),
                    count: uses.count,
                    last: uses.last.map(Stamp::of),
                })
                .collect(),
        });
    }

    /// Write the cache into `dir`, atomically.
    ///
    /// # Errors
    /// When the folder cannot be made or the file written.
    pub fn save(&self, dir: &Path) -> io::Result<()> {
        crate::fs::dir_builder(0o700).recursive(true).create(dir)?;
        let mut file = tempfile::Builder::new()
            .prefix(".sessions-")
            .tempfile_in(dir)?;
        serde_json::to_writer(&mut file, self)?;
        file.flush()?;
        file.persist(dir.join(FILE)).map_err(|e| e.error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roots::AgentId;

    fn log(len: u64) -> LogFile {
        LogFile {
            agent: AgentId::CODEX,
            path: PathBuf::from("/l/rollout-a.jsonl"),
            len,
            modified: SystemTime::UNIX_EPOCH + Duration::new(1_700_000_000, 123_456_789),
        }
    }

    #[test]
    fn a_log_kept_is_found_again_only_while_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let held = Held {
            uses: vec![(
                PathBuf::from("/s/pdf"),
                Use {
                    count: 2,
                    last: Some(SystemTime::UNIX_EPOCH + Duration::new(5, 6)),
                },
            )],
            broken: 1,
        };
        let mut cache = Cache::default();
        cache.keep(&log(10), 10, &held);
        cache.save(dir.path()).unwrap();
        let read = load(dir.path(), 1 << 20);
        assert_eq!(read, cache);
        let index = read.by_path();
        assert_eq!(read.held(&index, &log(10), 10), Some(held));
        assert_eq!(read.held(&index, &log(11), 10), None, "grew");
        assert_eq!(
            read.held(&index, &log(10), 5),
            None,
            "read to another bound"
        );
        let mut moved = log(10);
        // A microsecond: Windows keeps times to 100 ns, so one nanosecond would not move it.
        moved.modified += Duration::from_micros(1);
        assert_eq!(read.held(&index, &moved, 10), None, "touched");
    }

    #[test]
    fn a_cache_that_does_not_parse_or_is_too_large_is_none() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), "{\"version\": 1, \"files\": [").unwrap();
        assert_eq!(load(dir.path(), 1 << 20), Cache::default());
        std::fs::write(dir.path().join(FILE), r#"{"version":1,"files":[]}"#).unwrap();
        assert_eq!(load(dir.path(), 4), Cache::default());
        std::fs::write(dir.path().join(FILE), r#"{"version":99,"files":[]}"#).unwrap();
        assert_eq!(load(dir.path(), 1 << 20), Cache::default());
    }
}
