//! One reader per agent whose session logs are JSON Lines, behind one interface: a cheap
//! byte test of a line (`may_say`), then, for a line that passes it, the skill folders the
//! decoded line uses (`dirs`). A reader lives for one log, so what it must remember within a
//! log (Codex's reads of a turn, Gemini CLI's calls already counted) is its own.

use std::collections::HashSet;
use std::path::PathBuf;

use serde_json::Value;

use crate::roots::SessionLogs;

use super::{codex, gemini_cli, transcript};

/// The reader of one log.
pub enum LineReader {
    /// Claude Code: "Base directory for this skill:" lines (`transcript`).
    ClaudeCode,
    /// Codex: injections and reader commands (`codex`); the skills read implicitly this turn.
    Codex { this_turn: HashSet<PathBuf> },
    /// Gemini CLI: `activate_skill` calls (`gemini_cli`); the ids of the calls counted.
    GeminiCli { calls: HashSet<String> },
}

impl LineReader {
    /// The reader of an agent's logs; none for an agent whose sessions are not JSON Lines.
    pub fn new(logs: SessionLogs) -> Option<Self> {
        match logs {
            SessionLogs::ClaudeCode => Some(LineReader::ClaudeCode),
            SessionLogs::Codex => Some(LineReader::Codex {
                this_turn: HashSet::new(),
            }),
            SessionLogs::GeminiCli => Some(LineReader::GeminiCli {
                calls: HashSet::new(),
            }),
            SessionLogs::OpenCode | SessionLogs::Unread => None,
        }
    }

    /// Whether the line can name a skill: run on every line before any is decoded.
    pub fn may_say(&self, line: &[u8]) -> bool {
        match self {
            LineReader::ClaudeCode => transcript::has_base_dir(line),
            LineReader::Codex { .. } => codex::may_say(line),
            LineReader::GeminiCli { .. } => gemini_cli::may_say(line),
        }
    }

    /// The skill folders the decoded line uses, each use once.
    pub fn dirs(&mut self, value: &Value) -> Vec<PathBuf> {
        match self {
            LineReader::ClaudeCode if reattached(value) => Vec::new(),
            LineReader::ClaudeCode => transcript::dirs_in_value(value),
            LineReader::Codex { this_turn } => match codex::said(value, this_turn) {
                codex::Said::TurnStarts => {
                    this_turn.clear();
                    Vec::new()
                }
                codex::Said::Used(dirs) => dirs,
            },
            LineReader::GeminiCli { calls } => gemini_cli::said(value, calls),
        }
    }
}

/// A Claude Code line that puts back skills already used: after compacting a conversation,
/// 2.1.332 writes an `attachment` of type `invoked_skills` holding each skill's text again
/// (its binary's `invoked_skills` with `skills.*.content`), which is not a new use.
fn reattached(value: &Value) -> bool {
    value.get("type").and_then(Value::as_str) == Some("attachment")
        && value.pointer("/attachment/type").and_then(Value::as_str) == Some("invoked_skills")
}
