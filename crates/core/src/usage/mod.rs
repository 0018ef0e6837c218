//! How often each skill was used, and when last, per agent: read from what the agents keep on
//! this machine — Claude Code's own counters (`counters`), the session logs of Claude Code,
//! Codex and Gemini CLI (`logs` finds them, `sessions` reads them, one `reader::LineReader`
//! per agent saying what a use looks like: `transcript`, `codex`, `gemini_cli`), and
//! OpenCode's session database (`opencode`). Reading is bounded by `limits::USAGE` (newest
//! files first, byte caps) and cached (`cache`), so the app can run it on a worker and the
//! command line on every `list --json`. Knows nothing of the terminal.

mod cache;
mod codex;
pub mod counters;
mod gemini_cli;
pub mod logs;
pub mod opencode;
mod reader;
mod sessions;
pub mod transcript;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::limits::UsageBounds;
use crate::roots::{AgentId, Environment, SessionLogs};
use crate::scan::Skill;

/// Every use the agents' counters and session logs on this machine record, read within
/// `bounds`; `cache`, when given, is a folder where what was read is kept (the callers pass
/// [`cache_dir`]), so a file unchanged since is not read again.
pub fn read(env: &Environment, bounds: &UsageBounds, cache: Option<&Path>) -> Usage {
    let mut usage = Usage::default();
    for agent in AgentId::all() {
        match agent.agent().session_logs() {
            SessionLogs::ClaudeCode => counters::add_claude_code(env, agent, &mut usage),
            SessionLogs::OpenCode => opencode::add(env, agent, bounds, &mut usage),
            SessionLogs::Codex | SessionLogs::GeminiCli | SessionLogs::Unread => {}
        }
    }
    sessions::add(env, bounds, cache, &mut usage);
    usage
}

/// The folder skilldeck keeps its usage cache in: `usage/` in its data folder.
pub fn cache_dir(env: &Environment) -> PathBuf {
    env.data_dir().join("usage")
}

/// One agent's uses of one skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Use {
    pub count: u64,
    /// The latest use, when the evidence says when.
    pub last: Option<SystemTime>,
}

impl Use {
    fn merge(&mut self, other: Use) {
        self.count += other.count;
        self.last = self.last.max(other.last);
    }
}

/// Where an agent's count comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// The agent's own counter (Claude Code's `skillUsage`): a lifetime total.
    Counter,
    /// The session logs read: uses within the files read, which the bounds may have cut.
    Sessions,
}

impl Evidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Evidence::Counter => "counter",
            Evidence::Sessions => "sessions",
        }
    }
}

/// One agent's uses of a skill, with where the count comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentUse {
    pub agent: AgentId,
    pub uses: Use,
    pub from: Evidence,
}

/// What was read to find the uses, for people ("412 session files, 1.2 GiB, 30 left unread").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// The session files whose uses count: the logs and databases read now, and the logs the
    /// cache holds unchanged (not read again, but their uses are there). What "read from N
    /// session files" says.
    pub sessions: usize,
    /// The files read from disk this time (in part or whole), counters included.
    pub files: usize,
    pub bytes: u64,
    /// Files found and not read because a bound was reached.
    pub unread: usize,
    /// Files not read again because the cache holds them unchanged; their uses count.
    pub cached: usize,
    /// Files (or lines) that could not be read or decoded, each passed over.
    pub broken: usize,
}

/// Every use found, per agent: by skill folder (session logs name the folder) and by name
/// (Claude Code's counters name the skill as it lists it).
#[derive(Clone, Debug, Default)]
pub struct Usage {
    // Keyed by agent first, so an agent with no uses costs a listing one lookup per skill, and a
    // folder or name is looked up as it is borrowed, not copied (20,000 skills × 78 agents).
    by_dir: HashMap<AgentId, HashMap<PathBuf, Use>>,
    by_name: HashMap<AgentId, HashMap<String, Use>>,
    pub reading: Reading,
}

impl Usage {
    /// A use of the skill in `dir`, as a session log names it.
    pub fn add_dir(&mut self, agent: AgentId, dir: PathBuf, uses: Use) {
        self.by_dir
            .entry(agent)
            .or_default()
            .entry(dir)
            .and_modify(|u| u.merge(uses))
            .or_insert(uses);
    }

    /// An agent's own counter for the skill it lists as `name`.
    pub fn add_counter(&mut self, agent: AgentId, name: String, uses: Use) {
        self.by_name
            .entry(agent)
            .or_default()
            .entry(name)
            .and_modify(|u| u.merge(uses))
            .or_insert(uses);
    }

    /// Every agent's uses of `skill`, in agent order: the agent's counter when it keeps one for
    /// the skill (its lifetime total; the latest use is the later of the counter's and the
    /// logs'), else what the session logs say about its folder, reached by any path.
    pub fn of(&self, skill: &Skill) -> Vec<AgentUse> {
        let mut found: Vec<AgentUse> = Vec::new();
        let dirs: Vec<&Path> = std::iter::once(skill.dir.as_path())
            .chain(std::iter::once(skill.real_dir.as_path()))
            .chain(skill.reached_by.iter().map(PathBuf::as_path))
            .collect();
        for agent in AgentId::all() {
            let by_dir = self.by_dir.get(&agent);
            let by_name = self.by_name.get(&agent);
            if by_dir.is_none() && by_name.is_none() {
                continue;
            }
            let mut logged: Option<Use> = None;
            let mut seen: Vec<&Path> = Vec::new();
            for dir in &dirs {
                if seen.contains(dir) {
                    continue;
                }
                seen.push(dir);
                if let Some(uses) = by_dir.and_then(|uses| uses.get(*dir)) {
                    logged
                        .get_or_insert(Use {
                            count: 0,
                            last: None,
                        })
                        .merge(*uses);
                }
            }
            let counter = by_name
                .and_then(|counted| counted.get(skill.name_for(agent).as_ref()))
                .copied();
            let entry = match (counter, logged) {
                (Some(counted), logged) => AgentUse {
                    agent,
                    uses: Use {
                        count: counted.count,
                        last: counted.last.max(logged.and_then(|l| l.last)),
                    },
                    from: Evidence::Counter,
                },
                (None, Some(logged)) => AgentUse {
                    agent,
                    uses: logged,
                    from: Evidence::Sessions,
                },
                (None, None) => continue,
            };
            found.push(entry);
        }
        found
    }

    /// The latest use of `skill` by any agent.
    pub fn last_used(&self, skill: &Skill) -> Option<SystemTime> {
        self.of(skill).iter().filter_map(|u| u.uses.last).max()
    }

    /// Whether no agent used `skill` at `since` or later: never used, or used only before.
    pub fn unused_since(&self, skill: &Skill, since: SystemTime) -> bool {
        self.last_used(skill).is_none_or(|last| last < since)
    }

    /// What the session logs say `agent` did with the skill folder `dir`, as they name it.
    pub fn logged(&self, agent: AgentId, dir: &Path) -> Option<Use> {
        self.by_dir.get(&agent)?.get(dir).copied()
    }
}
