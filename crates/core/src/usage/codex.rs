//! A skill's use as Codex records it in a rollout (`$CODEX_HOME/sessions/…/rollout-*.jsonl`).
//! Codex cannot be run offline to show it, so the evidence is its source (openai/codex,
//! `codex-rs`), and the binary 0.171.0 installed for the agreement suite still carries the
//! strings named below:
//!
//! - A rollout is JSON Lines of `RolloutLine { timestamp, type, payload }`
//!   (`protocol/src/protocol.rs`): `timestamp` is RFC 3339 in UTC, `type` is `session_meta`,
//!   `response_item`, `event_msg`, `turn_context` or `compacted`. A `turn_context` line opens
//!   every turn.
//! - **Explicit use** (`$skill` in the prompt, or a skill picked in the app): `run_turn`
//!   (`core/src/codex.rs`) calls `build_skill_injections` (`core/src/skills/injection.rs`),
//!   which reads the skill's `SKILL.md` into a `SkillInstructions { name, path, contents }`;
//!   `From<SkillInstructions> for ResponseItem` (`core/src/instructions/user_instructions.rs`)
//!   makes it a user message whose text is `<skill>\n<name>NAME</name>\n<path>PATH</path>\n…
//!   </skill>`, with PATH the skill's `SKILL.md`; `Session::record_conversation_items` writes it
//!   to the rollout (`persist_rollout_response_items`), and `should_persist_response_item`
//!   (`rollout/policy.rs`) keeps every `Message`. One such message is one use.
//! - **Implicit use** (the model opens a skill itself): `maybe_emit_implicit_skill_invocation`
//!   (`core/src/skills/invocation_utils.rs`) counts a shell command whose first word is a
//!   reader (`cat`, `sed`, `head`, `tail`, `less`, `more`, `bat`, `awk`) and one of whose
//!   later words is a skill's `SKILL.md` (`detect_skill_doc_read`, words split by `shlex`, a
//!   relative path taken from the command's working folder), once per skill per turn. Codex
//!   sends that count only to its telemetry; the rollout keeps the command, as a
//!   `function_call` (`arguments`: `{"cmd": …}` or `{"command": […]}`, `workdir`) or a
//!   `local_shell_call` (`action.command`, `action.working_directory`), so the same rule is
//!   applied to it here. Codex also counts running a skill's `scripts/`; a rollout does not
//!   say which folders are skills, so that is not counted.
//!
//! Items inside a `compacted` line's replacement history repeat earlier ones and are not
//! counted; only `response_item` lines are.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::transcript::parse_dir;

/// The programs Codex takes as reading a file (`command_reads_file`).
const READERS: [&str; 8] = ["cat", "sed", "head", "tail", "less", "more", "bat", "awk"];

/// The shells whose `-c` / `-lc` script is the command the model meant.
const SHELLS: [&str; 4] = ["bash", "sh", "zsh", "pwsh"];

/// What one rollout line says.
#[derive(Debug, PartialEq, Eq)]
pub enum Said {
    /// A turn begins: implicit uses are counted once per skill again.
    TurnStarts,
    /// The skill folders used, each once.
    Used(Vec<PathBuf>),
}

/// Whether the line can say anything: the cheap test run on every line before any is decoded.
pub fn may_say(line: &[u8]) -> bool {
    memchr::memmem::find(line, b"SKILL.md").is_some() || starts_turn(line)
}

fn starts_turn(line: &[u8]) -> bool {
    memchr::memmem::find(line, br#""type":"turn_context""#).is_some()
}

/// The folders the decoded rollout line `value` uses a skill of. `seen` holds the skills the
/// turn has already read implicitly; the caller clears it when a turn starts.
pub fn said(value: &Value, seen: &mut HashSet<PathBuf>) -> Said {
    match value.get("type").and_then(Value::as_str) {
        Some("turn_context") => return Said::TurnStarts,
        Some("response_item") => {}
        _ => return Said::Used(Vec::new()),
    }
    let Some(payload) = value.get("payload") else {
        return Said::Used(Vec::new());
    };
    let mut used = Vec::new();
    match payload.get("type").and_then(Value::as_str) {
        Some("message") if payload.get("role").and_then(Value::as_str) == Some("user") => {
            for text in texts(payload) {
                used.extend(injected(text));
            }
        }
        Some("function_call") => {
            let arguments = payload
                .get("arguments")
                .and_then(Value::as_str)
                .and_then(|a| serde_json::from_str::<Value>(a).ok());
            if let Some(arguments) = arguments {
                let command = arguments.get("cmd").or_else(|| arguments.get("command"));
                let workdir = arguments.get("workdir").and_then(Value::as_str);
                used.extend(command.and_then(|c| read_doc(c, workdir)));
            }
        }
        Some("local_shell_call") => {
            let action = payload.get("action");
            let command = action.and_then(|a| a.get("command"));
            let workdir = action
                .and_then(|a| a.get("working_directory"))
                .and_then(Value::as_str);
            used.extend(command.and_then(|c| read_doc(c, workdir)));
        }
        _ => {}
    }
    // Implicit reads count once per turn; an injection is a use each time.
    let implicit = !matches!(payload.get("type").and_then(Value::as_str), Some("message"));
    if implicit {
        used.retain(|dir| seen.insert(dir.clone()));
    }
    Said::Used(used)
}

/// The texts of a message's content.
fn texts(payload: &Value) -> impl Iterator<Item = &str> {
    payload
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|item| item.get("text").and_then(Value::as_str))
}

/// The skill folder a `<skill>` injection names.
fn injected(text: &str) -> Option<PathBuf> {
    let body = text.trim_start().strip_prefix("<skill>")?;
    let start = body.find("<path>")? + "<path>".len();
    let end = body[start..].find("</path>")? + start;
    skill_dir(&parse_dir(&body[start..end])?)
}

/// The folder of a `SKILL.md`.
fn skill_dir(doc: &Path) -> Option<PathBuf> {
    (doc.file_name()? == "SKILL.md").then(|| doc.parent().map(Path::to_path_buf))?
}

/// The skill folder a shell command reads the `SKILL.md` of, by Codex's rule.
fn read_doc(command: &Value, workdir: Option<&str>) -> Option<PathBuf> {
    let line = match command {
        Value::String(line) => line.clone(),
        Value::Array(words) => {
            let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
            match words.as_slice() {
                [shell, flag, script]
                    if SHELLS.contains(&basename(shell)) && flag.ends_with('c') =>
                {
                    (*script).to_owned()
                }
                _ => shlex::try_join(words.iter().copied()).ok()?,
            }
        }
        _ => return None,
    };
    let words =
        shlex::split(&line).unwrap_or_else(|| line.split_whitespace().map(str::to_owned).collect());
    let program = words.first()?;
    if !READERS.contains(&basename(program).to_ascii_lowercase().as_str()) {
        return None;
    }
    words
        .iter()
        .skip(1)
        .filter(|word| !word.starts_with('-'))
        .find_map(|word| {
            let path = Path::new(word);
            let path = if path.is_absolute() {
                path.to_path_buf()
            } else {
                Path::new(workdir?).join(path)
            };
            skill_dir(&parse_dir(path.to_str()?)?)
        })
}

fn basename(program: &str) -> &str {
    Path::new(program)
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or(program)
}

// Written with Unix absolute paths (`/…`), which are not absolute on Windows.
#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;

    fn used(line: &str, seen: &mut HashSet<PathBuf>) -> Vec<PathBuf> {
        assert!(may_say(line.as_bytes()), "{line}");
        match said(&serde_json::from_str(line).unwrap(), seen) {
            Said::Used(dirs) => dirs,
            Said::TurnStarts => panic!("a turn"),
        }
    }

    #[test]
    fn an_injection_names_the_skill_folder() {
        let text = "<skill>\n<name>pdf</name>\n<path>/h/.codex/skills/pdf/SKILL.md</path>\n# PDF\n</skill>";
        let line = serde_json::json!({"timestamp": "2025-01-02T03:04:05.000Z", "type": "response_item",
            "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}});
        let mut seen = HashSet::new();
        assert_eq!(
            used(&line.to_string(), &mut seen),
            [PathBuf::from("/h/.codex/skills/pdf")]
        );
        // Each injection is a use; the assistant quoting one is not.
        assert_eq!(used(&line.to_string(), &mut seen).len(), 1);
        let quoted = line.to_string().replace("\"user\"", "\"assistant\"");
        assert!(used(&quoted, &mut seen).is_empty());
        // The same message inside a compacted history is not counted again.
        let compacted = serde_json::json!({"type": "compacted", "payload": {"replacement_history": [line["payload"]]}});
        assert!(used(&compacted.to_string(), &mut seen).is_empty());
    }

    #[test]
    fn a_reader_command_on_skill_md_is_a_use_once_a_turn() {
        let call = |command: Value| {
            let arguments =
                serde_json::json!({"command": command, "workdir": "/w/skill"}).to_string();
            serde_json::json!({"type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": arguments}}).to_string()
        };
        let mut seen = HashSet::new();
        let bash = call(serde_json::json!([
            "bash",
            "-lc",
            "sed -n 1,200p /s/pdf/SKILL.md"
        ]));
        assert_eq!(used(&bash, &mut seen), [PathBuf::from("/s/pdf")]);
        assert!(used(&bash, &mut seen).is_empty(), "once a turn");
        let turn = r#"{"type":"turn_context","payload":{}}"#;
        assert!(may_say(turn.as_bytes()));
        assert_eq!(
            said(&serde_json::from_str(turn).unwrap(), &mut seen),
            Said::TurnStarts
        );
        seen.clear();
        assert_eq!(used(&bash, &mut seen), [PathBuf::from("/s/pdf")]);
        // A relative path is taken from the working folder; a writer is not a read.
        let relative = call(serde_json::json!(["cat", "SKILL.md"]));
        assert_eq!(used(&relative, &mut seen), [PathBuf::from("/w/skill")]);
        let mut other = HashSet::new();
        assert!(
            used(
                &call(serde_json::json!(["vim", "/s/pdf/SKILL.md"])),
                &mut other
            )
            .is_empty()
        );
        assert!(
            used(
                &call(serde_json::json!(["cat", "/s/pdf/README-SKILL.md"])),
                &mut other
            )
            .is_empty()
        );
        let exec = serde_json::json!({"type": "response_item", "payload": {"type": "function_call", "name": "exec_command",
            "arguments": serde_json::json!({"cmd": "cat '/s/my skill/SKILL.md' | head"}).to_string()}});
        assert_eq!(
            used(&exec.to_string(), &mut other),
            [PathBuf::from("/s/my skill")]
        );
        let local = serde_json::json!({"type": "response_item", "payload": {"type": "local_shell_call",
            "action": {"type": "exec", "command": ["head", "-n", "5", "/s/x/SKILL.md"]}}});
        assert_eq!(
            used(&local.to_string(), &mut other),
            [PathBuf::from("/s/x")]
        );
    }
}
