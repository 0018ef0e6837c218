//! Uses read from the agents' session logs, within `limits::USAGE`: the logs (`logs`) newest
//! first, each read up to `file_bytes`, until `files` logs are taken or `total_bytes` would be
//! passed (the log that reaches it read up to what is left); every other log is counted
//! unread. A log the cache holds unchanged is not read again.
//!
//! A log is read a line at a time, and a line is decoded only when a cheap byte search says it
//! can name a skill. What counts as a use:
//!
//! - Claude Code: a line naming a folder after "Base directory for this skill:" (Claude Code
//!   2.1.332 writes it at the head of the skill's text, each time the Skill tool loads it):
//!   one use per folder per line (`transcript`), but for the skills a compaction puts back.
//! - Codex: a `<skill>` injection, or a reader command on a skill's `SKILL.md` (`codex`).
//! - Gemini CLI: a successful `activate_skill` call, once per call id (`gemini_cli`).
//!
//! Each agent's rule is one `reader::LineReader`.
//!
//! A use's time is its line's `timestamp` (RFC 3339, as the three agents write it), else the log's
//! modification time. A line that can name a skill and does not decode as JSON, and a line
//! longer than `transcript::MAX_LINE`, are counted broken and passed over; so is a log that
//! cannot be opened or read (a broken log is not cached, so it is tried again next time). The
//! last line of a log cut short by a bound is not read; the last line of a log read whole
//! is, newline or not. A log naming more skill folders than `skills_per_file` is read up to
//! the line that names one more, and counted broken.

use std::collections::BTreeMap;
use std::io::{BufReader, Read as _};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rayon::prelude::*;
use serde_json::Value;

use crate::fs::{Links, open_regular};
use crate::limits::UsageBounds;
use crate::roots::{AgentId, Environment};

use super::cache::{self, Cache, Held};
use super::logs::{self, LogFile};
use super::reader::LineReader;
use super::transcript::{self, Line};
use super::{Usage, Use};

/// The read buffer of one log: large, since logs are read whole and most lines are passed over.
const READ_BUFFER: usize = 256 << 10;

/// Adds the uses the session logs record to `usage`, and what was read to find them.
pub fn add(env: &Environment, bounds: &UsageBounds, cache_dir: Option<&Path>, usage: &mut Usage) {
    let found = logs::find(env);
    usage.reading.broken += found.broken;
    if found.files.is_empty() {
        // No logs: nothing to read, and no cache to write (`list` costs nothing more).
        return;
    }
    let before = cache_dir.map_or_else(Cache::default, |dir| cache::load(dir, bounds.cache_bytes));
    let index = before.by_path();
    let mut after = Cache::default();
    // Which logs are taken, and how far each is read, is decided from their metadata alone,
    // before any is read; then the logs the cache does not hold are read on every core.
    let mut budget = bounds.total_bytes;
    let mut taken: Vec<(&LogFile, u64, Option<Held>)> = Vec::new();
    for log in &found.files {
        if taken.len() == bounds.files || budget == 0 {
            usage.reading.unread += 1;
            continue;
        }
        let limit = log.len.min(bounds.file_bytes).min(budget);
        budget -= limit;
        taken.push((log, limit, before.held(&index, log, limit)));
    }
    let outcomes: Vec<(&LogFile, u64, Outcome)> = taken
        .into_par_iter()
        .map(|(log, limit, cached)| {
            let outcome = match cached {
                Some(held) => Outcome::Cached(held),
                None => Outcome::Read(read_log(log, limit, bounds.skills_per_file)),
            };
            (log, limit, outcome)
        })
        .collect();
    for (log, limit, outcome) in outcomes {
        usage.reading.sessions += 1;
        let held = match outcome {
            Outcome::Cached(held) => {
                usage.reading.cached += 1;
                held
            }
            Outcome::Read(Ok((held, bytes))) => {
                usage.reading.files += 1;
                usage.reading.bytes += bytes;
                held
            }
            Outcome::Read(Err(Partial { held, bytes })) => {
                usage.reading.files += 1;
                usage.reading.bytes += bytes;
                usage.reading.broken += 1;
                add_held(usage, log.agent, &held);
                continue;
            }
        };
        add_held(usage, log.agent, &held);
        after.keep(log, limit, &held);
    }
    if let Some(dir) = cache_dir
        && after != before
    {
        // The cache only saves work: a failure to write it leaves the last one.
        let _ = after.save(dir);
    }
}

fn add_held(usage: &mut Usage, agent: AgentId, held: &Held) {
    usage.reading.broken += held.broken;
    for (dir, uses) in &held.uses {
        usage.add_dir(agent, dir.clone(), *uses);
    }
}

/// One log taken: what the cache held of it, or what reading it found.
enum Outcome {
    Cached(Held),
    Read(Result<(Held, u64), Partial>),
}

/// What a log that failed part way held up to the failure.
struct Partial {
    held: Held,
    bytes: u64,
}

/// The uses in `log`'s first `limit` bytes, of `most` skill folders at most, and the bytes
/// read.
fn read_log(log: &LogFile, limit: u64, most: usize) -> Result<(Held, u64), Partial> {
    let file = open_regular(&log.path, Links::Follow).map_err(|_| Partial {
        held: Held::default(),
        bytes: 0,
    })?;
    let cut = limit < log.len;
    let mut reader = BufReader::with_capacity(READ_BUFFER, file.take(limit));
    let mut found: BTreeMap<PathBuf, Use> = BTreeMap::new();
    let mut broken = 0;
    // `logs::find` lists only the logs of agents that have a line reader.
    let Some(mut lines) = LineReader::new(log.agent.agent().session_logs()) else {
        return Ok((Held::default(), 0));
    };
    let mut line = Vec::new();
    let failed = loop {
        let kind = match transcript::read_line(&mut reader, &mut line) {
            Ok(kind) => kind,
            Err(_) => break true,
        };
        match kind {
            Line::End => break false,
            Line::TooLong => {
                broken += 1;
                continue;
            }
            Line::Unterminated if cut => break false,
            Line::Whole | Line::Unterminated => {}
        }
        let Some((dirs, at)) = uses_in_line(&mut lines, &line) else {
            broken += 1;
            continue;
        };
        let last = Some(at.unwrap_or(log.modified));
        let mut over = false;
        for dir in dirs {
            if found.len() == most && !found.contains_key(&dir) {
                over = true;
                break;
            }
            found
                .entry(dir)
                .or_insert(Use {
                    count: 0,
                    last: None,
                })
                .merge(Use { count: 1, last });
        }
        if over {
            broken += 1;
            break false;
        }
    };
    let bytes = limit - reader.into_inner().limit();
    let held = held(found, broken);
    if failed {
        Err(Partial { held, bytes })
    } else {
        Ok((held, bytes))
    }
}

fn held(found: BTreeMap<PathBuf, Use>, broken: usize) -> Held {
    Held {
        uses: found.into_iter().collect(),
        broken,
    }
}

/// The skill folders one line uses and the line's time; `None` when the line can name a skill
/// and does not decode.
fn uses_in_line(
    reader: &mut LineReader,
    line: &[u8],
) -> Option<(Vec<PathBuf>, Option<SystemTime>)> {
    if !reader.may_say(line) {
        return Some((Vec::new(), None));
    }
    let value = serde_json::from_slice::<Value>(line).ok()?;
    let dirs = reader.dirs(&value);
    let at = value
        .get("timestamp")
        .and_then(Value::as_str)
        .and_then(|t| humantime::parse_rfc3339_weak(t).ok());
    Some((dirs, at))
}

// Written with Unix absolute paths (`/…`), which are not absolute on Windows.
#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use crate::roots::SessionLogs;

    #[test]
    fn a_line_is_decoded_only_when_it_can_name_a_skill() {
        let claude = &mut LineReader::ClaudeCode;
        assert_eq!(
            uses_in_line(claude, b"{broken"),
            Some((Vec::new(), None)),
            "no marker: never decoded, so not broken"
        );
        assert_eq!(
            uses_in_line(claude, b"{\"x\": \"Base directory for this skill: /a"),
            None
        );
        let line = br#"{"timestamp":"2025-06-01T00:00:01.500Z","text":"Base directory for this skill: /a"}"#;
        let (dirs, at) = uses_in_line(claude, line).unwrap();
        assert_eq!(dirs, [PathBuf::from("/a")]);
        assert_eq!(
            at,
            Some(SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(1_748_736_001_500))
        );
        // A time that is not RFC 3339 is none: the log's own time stands in.
        let line = br#"{"timestamp":"yesterday","text":"Base directory for this skill: /a"}"#;
        assert_eq!(uses_in_line(claude, line).unwrap().1, None);
        // Skills put back after a compaction are not used again.
        let line = br#"{"type":"attachment","attachment":{"type":"invoked_skills","skills":[{"name":"a","content":"Base directory for this skill: /a"}]}}"#;
        assert_eq!(uses_in_line(claude, line), Some((Vec::new(), None)));
        // Codex's marker is its own; Claude Code's line means nothing in a rollout.
        let line = br#"{"text":"Base directory for this skill: /a"}"#;
        assert_eq!(
            uses_in_line(&mut LineReader::new(SessionLogs::Codex).unwrap(), line),
            Some((Vec::new(), None))
        );
    }
}
