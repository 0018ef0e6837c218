//! A skill's use as OpenCode records it: OpenCode keeps its sessions in a SQLite database, not
//! in log files. Read from OpenCode 1.18.33's own code (the `opencode-linux-x64` binary
//! installed for the agreement suite, whose bundled JavaScript carries these):
//!
//! - The database is `opencode.db` in its data folder (`Global.Path.data`: `opencode` under
//!   `$XDG_DATA_HOME`, else `~/.local/share`, on every platform, by `xdg-basedir`); a build of
//!   another channel names it `opencode-<channel>.db`, so every `opencode*.db` there is read.
//!   (`OPENCODE_DB` can name another file; it is not followed.)
//! - A message's parts are rows of the table `part` (`id`, `message_id`, `session_id`,
//!   `time_created` in milliseconds, `time_updated`, `data` as JSON).
//! - A skill is used through the `skill` tool: `SessionProcessor.completeToolCall` writes the
//!   part `{type: "tool", tool: "skill", callID, state: {status: "completed", input: {name},
//!   output, …}}`, whose output (`toModelOutput` of `tool/skill`) holds the line
//!   "Base directory for this skill: DIR", DIR the skill's folder. One completed part is one
//!   use; an error (an unknown skill) is not.
//!
//! The database is opened read-only, so OpenCode running at the same time is not disturbed;
//! one that cannot be opened or queried (locked, another schema) is counted broken.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, OpenFlags};
use serde_json::Value;

use crate::limits::UsageBounds;
use crate::roots::{AgentId, Environment};

use super::transcript::{self, BASE_DIR_MARKER};
use super::{Usage, Use};

/// OpenCode's data folder.
pub fn data_dir(env: &Environment) -> PathBuf {
    env.var("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .unwrap_or_else(|| env.home().join(".local").join("share"))
        .join("opencode")
}

/// OpenCode's databases in its data folder, in name order.
pub fn databases(env: &Environment) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(data_dir(env)) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.starts_with("opencode") && name.ends_with(".db")
        })
        .filter(|entry| entry.path().is_file())
        .map(|entry| entry.path())
        .collect();
    found.sort();
    found
}

/// Adds the uses OpenCode's databases record to `usage` as `agent`'s, and what was read; a
/// database larger than all the bytes `bounds` lets usage read is left unread.
pub fn add(env: &Environment, agent: AgentId, bounds: &UsageBounds, usage: &mut Usage) {
    for db in databases(env) {
        let len = std::fs::metadata(&db).map_or(0, |m| m.len());
        if len > bounds.total_bytes {
            usage.reading.unread += 1;
            continue;
        }
        match uses_in(&db) {
            Ok(found) => {
                usage.reading.files += 1;
                usage.reading.sessions += 1;
                usage.reading.bytes += len;
                for (dir, uses) in found {
                    usage.add_dir(agent, dir, uses);
                }
            }
            Err(_) => usage.reading.broken += 1,
        }
    }
}

/// Each use the database at `path` records, by folder.
fn uses_in(path: &Path) -> rusqlite::Result<Vec<(PathBuf, Use)>> {
    let db = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    db.busy_timeout(Duration::from_secs(2))?;
    // Only rows that can hold the marker are decoded.
    let mut query = db.prepare("SELECT time_created, data FROM part WHERE instr(data, ?1) > 0")?;
    let rows = query.query_map([BASE_DIR_MARKER], |row| {
        Ok((row.get::<_, Option<i64>>(0)?, row.get::<_, String>(1)?))
    })?;
    let mut found = Vec::new();
    for row in rows {
        let (created, data) = row?;
        let Ok(part) = serde_json::from_str::<Value>(&data) else {
            continue;
        };
        let last = created
            .and_then(|ms| u64::try_from(ms).ok())
            .map(|ms| SystemTime::UNIX_EPOCH + Duration::from_millis(ms));
        found.extend(
            used(&part)
                .into_iter()
                .map(|dir| (dir, Use { count: 1, last })),
        );
    }
    Ok(found)
}

/// The skill folder a part uses: a completed call of the `skill` tool.
fn used(part: &Value) -> Option<PathBuf> {
    let text = |pointer: &str| part.pointer(pointer).and_then(Value::as_str);
    if text("/type") != Some("tool")
        || text("/tool") != Some("skill")
        || text("/state/status") != Some("completed")
    {
        return None;
    }
    transcript::base_dirs(text("/state/output")?).next()
}

// Written with Unix absolute paths (`/…`), which are not absolute on Windows.
#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;

    fn part(tool: &str, status: &str, dir: &str) -> Value {
        serde_json::json!({"type": "tool", "callID": "c", "tool": tool, "state": {"status": status,
            "input": {"name": "pdf"},
            "output": format!("<skill_content name=\"pdf\">\n# Skill: pdf\n\nBody\n\n{BASE_DIR_MARKER} {dir}\nRelative paths…\n</skill_content>")}})
    }

    #[test]
    fn a_completed_skill_call_uses_the_folder_its_output_names() {
        assert_eq!(
            used(&part(
                "skill",
                "completed",
                "/h/.config/opencode/skills/pdf"
            )),
            Some(PathBuf::from("/h/.config/opencode/skills/pdf"))
        );
        assert_eq!(used(&part("skill", "error", "/s/pdf")), None);
        assert_eq!(used(&part("read", "completed", "/s/pdf")), None);
        assert_eq!(
            used(&serde_json::json!({"type": "text", "text": format!("{BASE_DIR_MARKER} /s/pdf")})),
            None,
            "a message quoting the line is not a use"
        );
    }

    #[test]
    fn the_databases_are_found_in_opencodes_data_folder() {
        let home = tempfile::tempdir().unwrap();
        let env = Environment::new(home.path());
        assert_eq!(data_dir(&env), home.path().join(".local/share/opencode"));
        let data = data_dir(&env);
        std::fs::create_dir_all(&data).unwrap();
        for name in [
            "opencode.db",
            "opencode-dev.db",
            "opencode.db-wal",
            "other.db",
        ] {
            std::fs::write(data.join(name), "").unwrap();
        }
        assert_eq!(
            databases(&env),
            [data.join("opencode-dev.db"), data.join("opencode.db")]
        );
        let moved = env.with_var("XDG_DATA_HOME", "/x");
        assert_eq!(data_dir(&moved), PathBuf::from("/x/opencode"));
    }
}
