//! Where the agents keep their session logs on this machine, found by name and metadata alone
//! (nothing is opened here):
//!
//! - Claude Code: every `*.jsonl` under a project folder of `$CLAUDE_CONFIG_DIR/projects`
//!   (else `~/.claude/projects`): the session transcripts `<project>/<session>.jsonl`, and the
//!   subagents' `<project>/<session>/subagents/agent-<id>.jsonl` (2.1.332's binary builds that
//!   path, with the agent's own relative folders between `subagents` and the file).
//! - Codex: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` (else `~/.codex`), and the
//!   rollouts it archived under `$CODEX_HOME/archived_sessions` (0.171.0 keeps both).
//!
//! Links are not followed into folders, so a link loop costs nothing; a link to a file is
//! taken as that file. An entry with a log's name that is not a regular file (a FIFO, a
//! dangling link, a loop) is counted broken and passed over, as is a folder that cannot be
//! listed.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use walkdir::WalkDir;

use crate::roots::{AgentId, Environment, SessionLogs};

/// One session log, by the metadata its listing gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogFile {
    pub agent: AgentId,
    pub path: PathBuf,
    pub len: u64,
    pub modified: SystemTime,
}

/// Every log found, newest first, and how many entries could not be looked at.
#[derive(Debug, Default)]
pub struct Found {
    pub files: Vec<LogFile>,
    pub broken: usize,
}

/// How deep under Claude Code's `projects` folder a log may be: a subagent's transcript is
/// four parts down (`<project>/<session>/subagents/agent-<id>.jsonl`), with room for the
/// subagent's own folders.
const CLAUDE_CODE_DEPTH: usize = 8;

/// Claude Code's folder of project transcripts.
pub fn claude_code_projects(env: &Environment) -> PathBuf {
    env.var("CLAUDE_CONFIG_DIR")
        .map_or_else(|| env.home().join(".claude"), PathBuf::from)
        .join("projects")
}

/// Codex's home: `$CODEX_HOME`, else `~/.codex`.
pub fn codex_home(env: &Environment) -> PathBuf {
    env.var("CODEX_HOME")
        .map_or_else(|| env.home().join(".codex"), PathBuf::from)
}

/// Every session log of every agent read for usage, newest first (by modification time, then
/// by path, so the order is the same on every run).
pub fn find(env: &Environment) -> Found {
    let mut found = Found::default();
    let is_jsonl = |name: &str| name.ends_with(".jsonl");
    let is_rollout = |name: &str| name.starts_with("rollout-") && name.ends_with(".jsonl");
    for agent in AgentId::all() {
        match agent.agent().session_logs() {
            SessionLogs::ClaudeCode => collect(
                &mut found,
                agent,
                &claude_code_projects(env),
                (2, CLAUDE_CODE_DEPTH),
                is_jsonl,
            ),
            SessionLogs::Codex => {
                let codex = codex_home(env);
                collect(
                    &mut found,
                    agent,
                    &codex.join("sessions"),
                    (4, 4),
                    is_rollout,
                );
                collect(
                    &mut found,
                    agent,
                    &codex.join("archived_sessions"),
                    (1, 4),
                    is_rollout,
                );
            }
            SessionLogs::Unread => {}
        }
    }
    found.files.sort_by(|a, b| {
        b.modified
            .cmp(&a.modified)
            .then_with(|| a.path.cmp(&b.path))
    });
    found
}

/// The files under `root`, `depth` (least, most) parts down, whose names `wanted` takes.
fn collect(
    found: &mut Found,
    agent: AgentId,
    root: &Path,
    (min, max): (usize, usize),
    wanted: impl Fn(&str) -> bool,
) {
    if !root.is_dir() {
        return;
    }
    let walk = WalkDir::new(root)
        .min_depth(min)
        .max_depth(max)
        .follow_links(false);
    for entry in walk {
        let Ok(entry) = entry else {
            found.broken += 1;
            continue;
        };
        let kind = entry.file_type();
        if kind.is_dir() || entry.depth() < min {
            continue;
        }
        let name_wanted = entry.file_name().to_str().is_some_and(&wanted);
        if !name_wanted {
            continue;
        }
        // A link is taken as what it names; a loop or a dangling one is broken.
        let metadata = if kind.is_symlink() {
            std::fs::metadata(entry.path())
        } else {
            entry.metadata().map_err(std::io::Error::from)
        };
        match metadata {
            Ok(meta) if meta.is_file() => found.files.push(LogFile {
                agent,
                path: entry.path().to_path_buf(),
                len: meta.len(),
                modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            }),
            Ok(meta) if meta.is_dir() => {}
            _ => found.broken += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agents_own_variables_move_their_folders() {
        let env = Environment::new("/h");
        assert_eq!(
            claude_code_projects(&env),
            PathBuf::from("/h/.claude/projects")
        );
        assert_eq!(codex_home(&env), PathBuf::from("/h/.codex"));
        let env = env
            .with_var("CLAUDE_CONFIG_DIR", "/c")
            .with_var("CODEX_HOME", "/x");
        assert_eq!(claude_code_projects(&env), PathBuf::from("/c/projects"));
        assert_eq!(codex_home(&env), PathBuf::from("/x"));
    }

    #[test]
    fn only_logs_at_their_depth_are_found_newest_first() {
        let home = tempfile::tempdir().unwrap();
        let env = Environment::new(home.path());
        let projects = home.path().join(".claude/projects");
        let write = |path: &Path, age: u64| {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "{}\n").unwrap();
            let when = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000 - age);
            std::fs::File::options()
                .write(true)
                .open(path)
                .unwrap()
                .set_modified(when)
                .unwrap();
        };
        write(&projects.join("top.jsonl"), 0);
        write(&projects.join("p/s.jsonl"), 5);
        write(&projects.join("p/s/subagents/agent-a.jsonl"), 1);
        write(&projects.join("p/notes.txt"), 0);
        let sessions = home.path().join(".codex/sessions");
        write(&sessions.join("2025/01/02/rollout-a.jsonl"), 3);
        write(&sessions.join("2025/01/rollout-shallow.jsonl"), 0);
        write(&sessions.join("2025/01/02/other.jsonl"), 0);
        write(
            &home
                .path()
                .join(".codex/archived_sessions/rollout-old.jsonl"),
            9,
        );
        let found = find(&env);
        let names: Vec<String> = found
            .files
            .iter()
            .map(|f| crate::record::portable_path(f.path.strip_prefix(home.path()).unwrap()))
            .collect();
        assert_eq!(
            names,
            [
                ".claude/projects/p/s/subagents/agent-a.jsonl",
                ".codex/sessions/2025/01/02/rollout-a.jsonl",
                ".claude/projects/p/s.jsonl",
                ".codex/archived_sessions/rollout-old.jsonl",
            ]
        );
        assert_eq!(found.broken, 0);
    }
}
