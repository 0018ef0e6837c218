//! Agents' session logs written for tests: Claude Code's transcript lines and Codex's rollout
//! lines as the pinned versions write them, each at a chosen time.

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// 2025-06-01T00:00:00Z.
pub const DAY0: u64 = 1_748_736_000;

pub fn at(secs: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(secs)
}

pub fn stamp(time: SystemTime) -> String {
    humantime::format_rfc3339_millis(time).to_string()
}

/// A Claude Code transcript line loading the skill in `dir` at `time` (no `timestamp` when
/// `None`), as 2.1.332 writes the skill's text after its Skill tool result.
pub fn claude_line(dir: &Path, time: Option<SystemTime>) -> String {
    let mut line = serde_json::json!({
        "type": "user", "isMeta": true, "sessionId": "s",
        "message": {"role": "user", "content": [{"type": "text",
            "text": format!("Base directory for this skill: {}\n\n# Skill\n\nDo it.", dir.display())}]}
    });
    if let Some(time) = time {
        line["timestamp"] = stamp(time).into();
    }
    line.to_string()
}

/// The Skill tool's own result line, which names no folder.
pub fn claude_tool_result() -> String {
    r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"Launching skill: pdf"}]},"toolUseResult":{"success":true,"commandName":"pdf"}}"#.to_owned()
}

/// A Codex rollout line injecting the skill in `dir` (its `<skill>` message) at `time`.
pub fn codex_injection(dir: &Path, time: SystemTime) -> String {
    let text = format!(
        "<skill>\n<name>x</name>\n<path>{}/SKILL.md</path>\n# X\n</skill>",
        dir.display()
    );
    serde_json::json!({"timestamp": stamp(time), "type": "response_item",
        "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})
    .to_string()
}

/// A Codex rollout line where the model reads `dir`'s `SKILL.md` with a shell command.
pub fn codex_read(dir: &Path, time: SystemTime) -> String {
    let arguments =
        serde_json::json!({"command": ["bash", "-lc", format!("cat {}/SKILL.md", dir.display())]});
    serde_json::json!({"timestamp": stamp(time), "type": "response_item",
        "payload": {"type": "function_call", "name": "shell", "arguments": arguments.to_string(), "call_id": "c"}})
    .to_string()
}

pub fn codex_turn(time: SystemTime) -> String {
    serde_json::json!({"timestamp": stamp(time), "type": "turn_context", "payload": {"cwd": "/w"}})
        .to_string()
}

/// Write a log of `lines` (each ended by a newline) at `path`, modified at `modified`.
pub fn write_log(path: &Path, lines: &[String], modified: SystemTime) {
    let mut text = lines.join("\n");
    text.push('\n');
    write_bytes(path, text.as_bytes(), modified);
}

pub fn write_bytes(path: &Path, bytes: &[u8], modified: SystemTime) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
    touch(path, modified);
}

pub fn touch(path: &Path, modified: SystemTime) {
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
}
