//! Agents' session logs written for tests: Claude Code's transcript lines, Codex's rollout
//! lines, Gemini CLI's session records and OpenCode's session database as the pinned versions
//! write them, each at a chosen time.

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

/// A Gemini CLI session record (0.61.0's message with its tool calls) in which the call `id`
/// activated the skill in `dir` at `time`; `status` is the call's (`success`, `error`).
pub fn gemini_activation(id: &str, dir: &Path, status: &str, time: SystemTime) -> String {
    serde_json::json!({"id": format!("m-{id}"), "timestamp": stamp(time), "type": "gemini",
        "content": "", "toolCalls": [{"id": id, "name": "activate_skill", "args": {"name": "x"},
            "status": status, "timestamp": stamp(time),
            "resultDisplay": format!("Skill **x** activated. Resources loaded from `{}`:\n\nx/\n└── SKILL.md", dir.display()),
            "displayName": "Activate Skill"}]})
    .to_string()
}

/// A Gemini CLI session's first record.
pub fn gemini_header(time: SystemTime) -> String {
    serde_json::json!({"sessionId": "s1", "projectHash": "h", "startTime": stamp(time),
        "lastUpdated": stamp(time), "kind": "main"})
    .to_string()
}

/// An OpenCode 1.18.33 database at `path` whose `part` table holds, for each `(tool, status,
/// dir, time)`, a tool part as its session processor writes it.
pub fn opencode_db(path: &Path, parts: &[(&str, &str, &Path, SystemTime)]) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let db = rusqlite::Connection::open(path).unwrap();
    db.execute_batch(
        "PRAGMA journal_mode = WAL;
         CREATE TABLE `part` (`id` text PRIMARY KEY, `message_id` text NOT NULL,
           `session_id` text NOT NULL, `time_created` integer NOT NULL,
           `time_updated` integer NOT NULL, `data` text NOT NULL);",
    )
    .unwrap();
    for (i, (tool, status, dir, time)) in parts.iter().enumerate() {
        let ms = time
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        let output = format!(
            "<skill_content name=\"x\">\n# Skill: x\n\nDo it.\n\nBase directory for this skill: {}\nRelative paths in this skill are relative to this base directory.\n</skill_content>",
            dir.display()
        );
        let data = serde_json::json!({"type": "tool", "callID": format!("c{i}"), "tool": tool,
            "state": {"status": status, "input": {"name": "x"}, "output": output, "title": "x",
                "metadata": {}, "time": {"start": ms, "end": ms}}});
        db.execute(
            "INSERT INTO part VALUES (?1, 'm', 's', ?2, ?2, ?3)",
            rusqlite::params![format!("p{i}"), ms, data.to_string()],
        )
        .unwrap();
    }
}
