//! Where the agents keep their session logs on this machine, found by name and metadata alone
//! (nothing is opened here):
//!
//! - Claude Code: every `*.jsonl` under a project folder of `$CLAUDE_CONFIG_DIR/projects`
//!   (else `~/.claude/projects`): the session transcripts `<project>/<session>.jsonl`, and the
//!   subagents' `<project>/<session>/subagents/agent-<id>.jsonl` (2.1.332's binary builds that
//!   path, with the agent's own relative folders between `subagents` and the file).
//! - Codex: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` (else `~/.codex`), and the
//!   rollouts it archived under `$CODEX_HOME/archived_sessions` (0.171.0 keeps both).
//! - Gemini CLI: `${GEMINI_CLI_HOME:-~}/.gemini/tmp/<project>/chats/session-*.jsonl`, and its
//!   subagents' `chats/<parent session>/<id>.jsonl` (0.61.0's `ChatRecordingService`, see
//!   `gemini_cli`).
//!
//! OpenCode keeps its sessions in a database, not in logs: `opencode` reads it.
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

/// Gemini CLI's global folder: `.gemini` under `$GEMINI_CLI_HOME`, else under the home.
pub fn gemini_cli_dir(env: &Environment) -> PathBuf {
    env.var("GEMINI_CLI_HOME")
        .filter(|v| !v.is_empty())
        .map_or_else(|| env.home().to_path_buf(), PathBuf::from)
        .join(".gemini")
}

/// Whether `relative` (under Gemini CLI's `tmp`) is a session: `<project>/chats/session-*.jsonl`,
/// or a subagent's `<project>/chats/<parent>/*.jsonl`.
fn is_gemini_session(relative: &Path) -> bool {
    let parts: Vec<&str> = relative.iter().filter_map(|p| p.to_str()).collect();
    match parts.as_slice() {
        [_, "chats", name] => name.starts_with("session-") && name.ends_with(".jsonl"),
        [_, "chats", _, name] => name.ends_with(".jsonl"),
        _ => false,
    }
}

/// Every session log of every agent read for usage, newest first (by modification time, then
/// by path, so the order is the same on every run).
pub fn find(env: &Environment) -> Found {
    let mut found = Found::default();
    let is_jsonl = |path: &Path| name_of(path).ends_with(".jsonl");
    let is_rollout =
        |path: &Path| name_of(path).starts_with("rollout-") && name_of(path).ends_with(".jsonl");
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
            SessionLogs::GeminiCli => collect(
                &mut found,
                agent,
                &gemini_cli_dir(env).join("tmp"),
                (3, 4),
                is_gemini_session,
            ),
            // OpenCode's sessions are rows of a database (`opencode`), not logs.
            SessionLogs::OpenCode | SessionLogs::Unread => {}
        }
    }
    found.files.sort_by(|a, b| {
        b.modified
            .cmp(&a.modified)
            .then_with(|| a.path.cmp(&b.path))
    });
    found
}

fn name_of(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// The files under `root`, `depth` (least, most) parts down, whose paths under `root`
/// `wanted` takes.
fn collect(
    found: &mut Found,
    agent: AgentId,
    root: &Path,
    (min, max): (usize, usize),
    wanted: impl Fn(&Path) -> bool,
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
        let name_wanted = entry.path().strip_prefix(root).is_ok_and(&wanted);
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

    #[test]
    fn gemini_sessions_are_found_under_its_home_and_chats_folders() {
        let home = tempfile::tempdir().unwrap();
        let gemini = home.path().join("gem");
        let env = Environment::new(home.path()).with_var("GEMINI_CLI_HOME", &gemini);
        let tmp = gemini.join(".gemini/tmp");
        for path in [
            "proj/chats/session-2026-01-02T03-04-abcd1234.jsonl",
            "proj/chats/parent-id/sub.jsonl",
            "proj/chats/notes.jsonl",
            "proj/session-x.jsonl",
            "proj/chats/session-old.json",
            "proj/logs.json",
        ] {
            let path = tmp.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "{}\n").unwrap();
        }
        // The home's own `.gemini` is not Gemini CLI's when GEMINI_CLI_HOME moves it.
        let ignored = home.path().join(".gemini/tmp/p/chats/session-a.jsonl");
        std::fs::create_dir_all(ignored.parent().unwrap()).unwrap();
        std::fs::write(&ignored, "{}\n").unwrap();
        let mut names: Vec<String> = find(&env)
            .files
            .iter()
            .map(|f| {
                assert_eq!(f.agent, AgentId::GEMINI_CLI);
                crate::record::portable_path(f.path.strip_prefix(&tmp).unwrap())
            })
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "proj/chats/parent-id/sub.jsonl",
                "proj/chats/session-2026-01-02T03-04-abcd1234.jsonl"
            ]
        );
    }
}
