//! A skill's use as Gemini CLI records it in a session
//! (`${GEMINI_CLI_HOME:-~}/.gemini/tmp/<project>/chats/session-*.jsonl`). Read from Gemini CLI
//! 0.61.0's own code, `@google/gemini-cli/bundle/chunk-JDPZ4CE3.js` as installed for the
//! agreement suite:
//!
//! - `ChatRecordingService.initialize` writes `<project temp dir>/chats/session-<time>-<id>.jsonl`
//!   (a subagent's under `chats/<parent id>/<id>.jsonl`), the project temp dir being
//!   `Storage.getProjectTempDir()`: `<global gemini dir>/tmp/<project identifier>`, and the
//!   global gemini dir `.gemini` under `GEMINI_CLI_HOME`, else the home.
//! - Each line is one JSON record (`appendRecord`); a message is `{id, timestamp, type,
//!   content, toolCalls}`, and a message is written again, whole, each time it changes
//!   (`pushMessage` after `recordToolCalls`, `recordMessageTokens`), so one tool call can be on
//!   several lines under the same `id`.
//! - A skill is used through the `activate_skill` tool (`ACTIVATE_SKILL_TOOL_NAME`): its call
//!   is recorded by `recordCompletedToolCalls` as `{id, name: "activate_skill", args: {name},
//!   status, timestamp, resultDisplay}`, where a successful call's `resultDisplay` is
//!   `ActivateSkillToolInvocation.execute`'s "Skill **NAME** activated. Resources loaded from
//!   `DIR`:" — DIR the skill's folder (`path.dirname(skill.location)`). One call (by its `id`)
//!   with `status` `success` is one use; an unknown skill's call is an error and is not.
//!
//! Sessions Gemini CLI wrote before it kept JSON Lines (`session-*.json`, one document) are
//! not read: 0.61.0 rewrites such a session as `.jsonl` when it is resumed.

use std::collections::HashSet;
use std::path::PathBuf;

use serde_json::Value;

use super::transcript::parse_dir;

/// The tool a skill is activated by.
const TOOL: &str = "activate_skill";

/// What a successful activation says before the skill's folder, and after it.
const LOADED_FROM: &str = "Resources loaded from `";
const LOADED_END: &str = "`:";

/// Whether the line can say anything: the cheap test run on every line before any is decoded.
pub fn may_say(line: &[u8]) -> bool {
    memchr::memmem::find(line, b"\"activate_skill\"").is_some()
}

/// The skill folders the decoded session line `value` activates, each call once: `calls`
/// holds the ids of the calls already counted in this session.
pub fn said(value: &Value, calls: &mut HashSet<String>) -> Vec<PathBuf> {
    let Some(tool_calls) = value.get("toolCalls").and_then(Value::as_array) else {
        return Vec::new();
    };
    tool_calls
        .iter()
        .filter(|call| call.get("name").and_then(Value::as_str) == Some(TOOL))
        .filter(|call| call.get("status").and_then(Value::as_str) == Some("success"))
        .filter_map(|call| {
            let dir = call
                .get("resultDisplay")
                .and_then(Value::as_str)
                .and_then(loaded_from)?;
            // A call without an id cannot be told from its repeats: each line is one use.
            let id = call.get("id").and_then(Value::as_str);
            id.is_none_or(|id| calls.insert(id.to_owned()))
                .then_some(dir)
        })
        .collect()
}

/// The folder an activation's display names.
fn loaded_from(display: &str) -> Option<PathBuf> {
    let start = display.find(LOADED_FROM)? + LOADED_FROM.len();
    let end = display[start..].find(LOADED_END)? + start;
    parse_dir(&display[start..end])
}

// Written with Unix absolute paths (`/…`), which are not absolute on Windows.
#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;

    fn message(calls: Value) -> Value {
        serde_json::json!({"id": "m1", "timestamp": "2026-01-02T03:04:05.000Z", "type": "gemini",
            "content": "", "toolCalls": calls})
    }

    fn call(id: &str, status: &str, dir: &str) -> Value {
        serde_json::json!({"id": id, "name": "activate_skill", "args": {"name": "pdf"},
            "status": status, "timestamp": "2026-01-02T03:04:05.000Z",
            "resultDisplay": format!("Skill **pdf** activated. Resources loaded from `{dir}`:\n\npdf/\n└── SKILL.md")})
    }

    #[test]
    fn a_successful_activation_is_one_use_however_often_its_message_is_written() {
        let line = message(serde_json::json!([call(
            "c1",
            "success",
            "/h/.gemini/skills/pdf"
        )]));
        assert!(may_say(line.to_string().as_bytes()));
        let mut calls = HashSet::new();
        assert_eq!(
            said(&line, &mut calls),
            [PathBuf::from("/h/.gemini/skills/pdf")]
        );
        // The same message written again (its tokens arrived): the same call, no new use.
        assert!(said(&line, &mut calls).is_empty());
        // A second call in a later message is another use.
        let later = message(serde_json::json!([
            call("c1", "success", "/h/.gemini/skills/pdf"),
            call("c2", "success", "/p/.agents/skills/my skill")
        ]));
        assert_eq!(
            said(&later, &mut calls),
            [PathBuf::from("/p/.agents/skills/my skill")]
        );
    }

    #[test]
    fn failed_calls_and_other_tools_are_not_uses() {
        let mut calls = HashSet::new();
        let failed = message(serde_json::json!([call("e", "error", "/s/pdf")]));
        assert!(said(&failed, &mut calls).is_empty());
        let other = message(
            serde_json::json!([{"id": "r", "name": "read_file", "status": "success",
            "resultDisplay": "Resources loaded from `/s/pdf`:"}]),
        );
        assert!(!may_say(other.to_string().as_bytes()));
        assert!(said(&other, &mut calls).is_empty());
        let relative = message(serde_json::json!([call("r2", "success", "skills/pdf")]));
        assert!(
            said(&relative, &mut calls).is_empty(),
            "only absolute folders"
        );
        assert!(
            said(
                &serde_json::json!({"$set": {"lastUpdated": "x"}}),
                &mut calls
            )
            .is_empty()
        );
    }
}
