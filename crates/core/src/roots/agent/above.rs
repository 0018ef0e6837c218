//! Which rule of a module above `roots` applies to an agent, as values the agents'
//! `AgentRules` answer with: the listing, the settings writer, the session logs. Defined
//! here so `roots` depends on none of those modules; they match these without a catch-all arm,
//! so a new variant is a compile error in each until it is handled.

/// How an agent lists its skills to its model, each by the rule of `crate::listing` named
/// after the agent it was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptListing {
    /// A character budget of the context window, the descriptions of the least used skills
    /// dropped first (`listing::claude_code`, Claude Code 2.1.332).
    ClaudeCode,
    /// 2% of the context window in approximate tokens, descriptions shortened, then skills
    /// left out (`listing::codex`, Codex 0.171.0).
    Codex,
    /// Every skill, with no budget, as `<skill>` elements (`listing::plain`, Gemini CLI 0.61.0).
    GeminiCli,
    /// As Gemini CLI's, leaving out a skill without a description (`listing::plain`, OpenCode
    /// 1.18.33).
    OpenCode,
    /// Not known: skilldeck tells no listing for the agent.
    Unknown,
}

impl PromptListing {
    /// Whether skilldeck can tell the agent's listing.
    pub fn is_known(self) -> bool {
        match self {
            PromptListing::ClaudeCode
            | PromptListing::Codex
            | PromptListing::GeminiCli
            | PromptListing::OpenCode => true,
            PromptListing::Unknown => false,
        }
    }
}

/// Which of `crate::operations::switch`'s writers turns one of an agent's skills off in its
/// own settings, each named after the agent whose settings it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkillSwitch {
    /// `skillOverrides` (and `enabledPlugins` for a plugin's skill) in Claude Code's settings.
    ClaudeCode,
    /// `[[skills.config]]` in `$CODEX_HOME/config.toml`.
    Codex,
    /// `skills.disabled` in Gemini CLI's `settings.json`.
    GeminiCli,
    /// `disabledSkills` in Copilot CLI's `settings.json`.
    Copilot,
    /// A `permission.skill` rule in `opencode.json`.
    OpenCode,
    /// None: skilldeck knows no setting of the agent's that turns one skill off, and refuses,
    /// saying what works instead.
    NoSetting,
}

/// How an agent's session logs name a skill it used, for `crate::usage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionLogs {
    /// Transcripts under `$CLAUDE_CONFIG_DIR/projects` naming the skill's folder after "Base
    /// directory for this skill:", and the `skillUsage` counters of `~/.claude.json`
    /// (`usage::transcript`, `usage::counters`, Claude Code 2.1.332).
    ClaudeCode,
    /// Rollouts under `$CODEX_HOME/sessions` and `archived_sessions`: a `<skill>` injection, or
    /// a reader command on a skill's `SKILL.md` (`usage::codex`, Codex 0.171.0).
    Codex,
    /// Sessions under `${GEMINI_CLI_HOME:-~}/.gemini/tmp/*/chats`: a successful
    /// `activate_skill` call, whose display names the skill's folder (`usage::gemini_cli`,
    /// Gemini CLI 0.61.0).
    GeminiCli,
    /// The `part` table of OpenCode's database (`opencode*.db` in its data folder): a
    /// completed `skill` tool call, whose output names the folder after "Base directory for
    /// this skill:" (`usage::opencode`, OpenCode 1.18.33).
    OpenCode,
    /// Not read: the agent keeps no log skilldeck reads.
    Unread,
}
