//! The agents skilldeck knows, and the two facts about each that decide which copy of a skill
//! it runs: what it takes a skill's name from, and what it does with two skills of one name.

use std::fmt;

use serde::Serialize;

/// A program that reads skill roots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AgentId {
    ClaudeCode,
    Codex,
    Opencode,
    GeminiCli,
    Copilot,
    Cursor,
    Goose,
    Windsurf,
}

/// Where an agent takes the name it matches a skill by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameFrom {
    /// The skill's directory name (Claude Code: "the command comes from the directory name").
    Directory,
    /// The frontmatter `name`, or the directory name when there is none.
    Frontmatter,
}

/// What an agent does when two skills share a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnSameName {
    /// One copy wins: the one from the root with the best priority in the table.
    OneWins,
    /// Both stay loaded (Codex de-duplicates by path, not by name).
    KeepsAll,
}

impl AgentId {
    pub const ALL: [AgentId; 8] = [
        AgentId::ClaudeCode,
        AgentId::Codex,
        AgentId::Opencode,
        AgentId::GeminiCli,
        AgentId::Copilot,
        AgentId::Cursor,
        AgentId::Goose,
        AgentId::Windsurf,
    ];

    /// The identifier used on the command line and in JSON.
    pub fn id(self) -> &'static str {
        match self {
            AgentId::ClaudeCode => "claude-code",
            AgentId::Codex => "codex",
            AgentId::Opencode => "opencode",
            AgentId::GeminiCli => "gemini-cli",
            AgentId::Copilot => "copilot",
            AgentId::Cursor => "cursor",
            AgentId::Goose => "goose",
            AgentId::Windsurf => "windsurf",
        }
    }

    /// The agent's own name, for people.
    pub fn display_name(self) -> &'static str {
        match self {
            AgentId::ClaudeCode => "Claude Code",
            AgentId::Codex => "Codex",
            AgentId::Opencode => "OpenCode",
            AgentId::GeminiCli => "Gemini CLI",
            AgentId::Copilot => "GitHub Copilot",
            AgentId::Cursor => "Cursor",
            AgentId::Goose => "Goose",
            AgentId::Windsurf => "Windsurf",
        }
    }

    /// The agent named by `id`, as [`AgentId::id`] spells it.
    pub fn from_id(id: &str) -> Option<AgentId> {
        AgentId::ALL.into_iter().find(|agent| agent.id() == id)
    }

    /// skill-format-and-roots.md §1.6 and §2: Claude Code names a skill after its directory;
    /// the others read the frontmatter.
    pub fn name_from(self) -> NameFrom {
        match self {
            AgentId::ClaudeCode => NameFrom::Directory,
            _ => NameFrom::Frontmatter,
        }
    }

    /// skill-format-and-roots.md §2.2: current Codex keeps every skill, de-duplicated by path.
    pub fn on_same_name(self) -> OnSameName {
        match self {
            AgentId::Codex => OnSameName::KeepsAll,
            _ => OnSameName::OneWins,
        }
    }
}

impl fmt::Display for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_reads_back_from_its_id() {
        for agent in AgentId::ALL {
            assert_eq!(AgentId::from_id(agent.id()), Some(agent));
            let json = serde_json::to_string(&agent).unwrap();
            assert_eq!(json, format!("\"{}\"", agent.id()));
        }
        assert_eq!(AgentId::from_id("amp"), None);
    }
}
