//! The skill folders an agent session used, read from its transcript
//! (skill-format-and-roots.md §3.6): what `snapshot --from-transcript` snapshots, and what the
//! usage reader counts in Claude Code's session logs (`sessions`).
//!
//! When an agent loads a skill it writes a line `Base directory for this skill: DIR` into the
//! conversation: Claude Code with a path, OpenCode with a `file://` URL. A transcript is read
//! line by line; a line that cannot hold the marker is passed over with a cheap byte search
//! before anything is decoded. A line that holds it is decoded as JSON when it is JSON (Claude
//! Code's and OpenCode's JSON Lines), and every string in it searched; otherwise the JSON
//! string literals in it (a pretty-printed export) and the line itself (plain output) are.
//! Only absolute folders are taken.

use std::io::{self, BufRead};
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

/// The words that open the line naming a skill's folder.
pub const BASE_DIR_MARKER: &str = "Base directory for this skill:";

/// The longest transcript line read; a longer one (a huge tool output) is passed over.
pub const MAX_LINE: usize = 64 << 20;

/// Whether `text` can hold a base directory line: the test run on every line before any is
/// decoded (seed 003's `HasBaseDir`).
pub fn has_base_dir(text: &[u8]) -> bool {
    memchr::memmem::find(text, BASE_DIR_MARKER.as_bytes()).is_some()
}

/// Every skill folder the "Base directory for this skill:" lines of `text` name, in order
/// (seed 003's `BaseDir`, for every line rather than the first).
pub fn base_dirs(text: &str) -> impl Iterator<Item = PathBuf> + '_ {
    text.lines().filter_map(|line| {
        line.trim()
            .strip_prefix(BASE_DIR_MARKER)
            .and_then(parse_dir)
    })
}

/// A skill folder as an agent gives it: a path, or a `file://` URL with percent-escapes
/// (seed 003's `ParseDir`). Only an absolute path on this machine is accepted.
pub fn parse_dir(text: &str) -> Option<PathBuf> {
    let text = text.trim();
    let path = match text.strip_prefix("file://") {
        Some(rest) => {
            // `file:///p` and `file://localhost/p` are this machine; `file://host/p` is not.
            let path = rest.strip_prefix("localhost").unwrap_or(rest);
            let path = path.split(['?', '#']).next().unwrap_or(path);
            let decoded = percent_encoding::percent_decode_str(path)
                .decode_utf8()
                .ok()?;
            windows_drive(&decoded).unwrap_or(&decoded).to_owned()
        }
        None => text.to_owned(),
    };
    let path = Path::new(&path);
    if !path.is_absolute() || path.as_os_str().is_empty() {
        return None;
    }
    Some(clean(path))
}

/// `/C:/x` from a Windows file URL is `C:/x`.
fn windows_drive(path: &str) -> Option<&str> {
    let rest = path.strip_prefix('/')?;
    let bytes = rest.as_bytes();
    (cfg!(windows) && bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':')
        .then_some(rest)
}

/// The path with `.` parts dropped and `..` parts applied, without touching the disk.
fn clean(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Every skill folder a transcript names, each once, in the order first named.
///
/// # Errors
/// When the transcript cannot be read.
pub fn skill_dirs(mut reader: impl BufRead) -> io::Result<Vec<PathBuf>> {
    let mut found: Vec<PathBuf> = Vec::new();
    let mut line = Vec::new();
    while read_line(&mut reader, &mut line)? != Line::End {
        if !has_base_dir(&line) {
            continue;
        }
        for dir in dirs_in_line(&line) {
            if !found.contains(&dir) {
                found.push(dir);
            }
        }
    }
    Ok(found)
}

/// The folders one line names, whatever form the line has.
fn dirs_in_line(line: &[u8]) -> Vec<PathBuf> {
    if let Ok(value) = serde_json::from_slice::<Value>(line) {
        return dirs_in_value(&value);
    }
    let mut dirs = Vec::new();
    let text = String::from_utf8_lossy(line);
    for literal in string_literals(&text) {
        dirs.extend(base_dirs(&literal));
    }
    dirs.extend(base_dirs(&text));
    dirs
}

/// The folders the "Base directory" lines of every string in a decoded JSON line name, each
/// once, in order.
pub fn dirs_in_value(value: &Value) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    each_string(value, &mut |text| {
        for dir in base_dirs(text) {
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
    });
    dirs
}

fn each_string(value: &Value, visit: &mut impl FnMut(&str)) {
    match value {
        Value::String(text) => visit(text),
        Value::Array(items) => items.iter().for_each(|item| each_string(item, visit)),
        Value::Object(map) => map.values().for_each(|item| each_string(item, visit)),
        _ => {}
    }
}

/// The JSON string literals in a line that is not JSON on its own, such as `"output": "…",`
/// in a pretty-printed export, decoded.
fn string_literals(text: &str) -> Vec<String> {
    let mut literals = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('"') {
        let after = &rest[start + 1..];
        let mut escaped = false;
        let end = after.char_indices().find_map(|(at, c)| match (escaped, c) {
            (true, _) => {
                escaped = false;
                None
            }
            (false, '\\') => {
                escaped = true;
                None
            }
            (false, '"') => Some(at),
            _ => None,
        });
        let Some(end) = end else { break };
        let literal = &rest[start..start + end + 2];
        if let Ok(decoded) = serde_json::from_str::<String>(literal) {
            literals.push(decoded);
        }
        rest = &rest[start + end + 2..];
    }
    literals
}

/// What [`read_line`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line that ended with a newline.
    Whole,
    /// The last line, with no newline after it (cut short, or still being written).
    Unterminated,
    /// A line over [`MAX_LINE`], read past rather than held: `line` is empty.
    TooLong,
    /// Nothing more to read.
    End,
}

/// Read one line into `line` (without its newline), and say what it was. A line over
/// [`MAX_LINE`] comes back empty, its bytes read past rather than held.
///
/// # Errors
/// The reader's own error.
pub fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Line> {
    line.clear();
    let mut any = false;
    let mut too_long = false;
    let mut ended = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match memchr::memchr(b'\n', buffer) {
            Some(at) => (&buffer[..at], Some(at + 1)),
            None => (buffer, None),
        };
        if !too_long && line.len() + chunk.len() <= MAX_LINE {
            line.extend_from_slice(chunk);
        } else {
            too_long = true;
            line.clear();
        }
        let used = done.unwrap_or(buffer.len());
        reader.consume(used);
        if done.is_some() {
            ended = true;
            break;
        }
    }
    Ok(match (any, too_long, ended) {
        (false, _, _) => Line::End,
        (true, true, _) => Line::TooLong,
        (true, false, true) => Line::Whole,
        (true, false, false) => Line::Unterminated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    fn dirs(transcript: &str) -> Vec<PathBuf> {
        skill_dirs(transcript.as_bytes()).unwrap()
    }

    #[test]
    fn the_cheap_test_finds_the_marker_only() {
        assert!(has_base_dir(b"xx Base directory for this skill: /a"));
        assert!(!has_base_dir(b"Base directory for this: /a"));
    }

    // Written with Unix absolute paths (`/…`), which are not absolute on Windows.
    #[cfg(unix)]
    #[test]
    fn a_claude_code_line_names_a_path() {
        let line = r#"{"type":"user","isMeta":true,"message":{"role":"user","content":"Base directory for this skill: /Users/me/.claude/skills/asd-ste100\n\n# ASD"}}"#;
        assert_eq!(
            dirs(line),
            [PathBuf::from("/Users/me/.claude/skills/asd-ste100")]
        );
        let blocks = r#"{"type":"user","message":{"content":[{"type":"text","text":"Base directory for this skill: /home/me/.claude/skills/pdf\n\nBody"}]}}"#;
        assert_eq!(dirs(blocks), [PathBuf::from("/home/me/.claude/skills/pdf")]);
    }

    // Written with Unix absolute paths (`/…`), which are not absolute on Windows.
    #[cfg(unix)]
    #[test]
    fn an_opencode_line_names_a_file_url_decoded() {
        let output = "<skill_content name=\"git release\">\n# Skill\n\nBase directory for this skill: file:///home/me/.config/opencode/skills/git%20release\nRelative paths in this skill are relative to this base directory.";
        let event = serde_json::json!({"type": "tool", "part": {"state": {"output": output}}});
        assert_eq!(
            dirs(&event.to_string()),
            [PathBuf::from(
                "/home/me/.config/opencode/skills/git release"
            )]
        );
        // The same output printed as plain text, and inside a pretty-printed export.
        assert_eq!(
            dirs(output),
            [PathBuf::from(
                "/home/me/.config/opencode/skills/git release"
            )]
        );
        let pretty = serde_json::to_string_pretty(&event).unwrap();
        assert_eq!(
            dirs(&pretty),
            [PathBuf::from(
                "/home/me/.config/opencode/skills/git release"
            )]
        );
    }

    // Written with Unix absolute paths (`/…`), which are not absolute on Windows.
    #[cfg(unix)]
    #[test]
    fn relative_and_remote_folders_are_ignored() {
        for line in [
            "Base directory for this skill: skills/pdf",
            "Base directory for this skill: ./pdf",
            "Base directory for this skill: file://server/share/pdf",
            "Base directory for this skill: file://relative/x",
            "Base directory for this skill: ",
            "Base directory for this skill: file://%ZZ",
        ] {
            assert_eq!(dirs(line), Vec::<PathBuf>::new(), "{line}");
        }
        assert_eq!(
            parse_dir("file://localhost/srv/skills/a"),
            Some(PathBuf::from("/srv/skills/a"))
        );
    }

    // Written with Unix absolute paths (`/…`), which are not absolute on Windows.
    #[cfg(unix)]
    #[test]
    fn each_folder_is_named_once_in_first_order_and_cleaned() {
        let transcript = "\
Base directory for this skill: /s/b
noise
Base directory for this skill: /s/a/./x/..
Base directory for this skill: /s/b
";
        assert_eq!(
            dirs(transcript),
            [PathBuf::from("/s/b"), PathBuf::from("/s/a")]
        );
    }

    // Written with Unix absolute paths (`/…`), which are not absolute on Windows.
    #[cfg(unix)]
    #[test]
    fn an_overlong_line_is_passed_over_and_the_next_still_read() {
        let mut transcript = vec![b'x'; MAX_LINE + 10];
        transcript.extend_from_slice(b"Base directory for this skill: /lost\n");
        transcript.extend_from_slice(b"Base directory for this skill: /kept\n");
        let found = skill_dirs(io::BufReader::with_capacity(4096, &transcript[..])).unwrap();
        assert_eq!(found, [PathBuf::from("/kept")]);
    }

    #[test]
    fn each_line_says_how_it_ended() {
        let mut reader = io::BufReader::with_capacity(4, &b"ab\n\nlast"[..]);
        let mut line = Vec::new();
        let mut kinds = Vec::new();
        loop {
            let kind = read_line(&mut reader, &mut line).unwrap();
            kinds.push((kind, String::from_utf8(line.clone()).unwrap()));
            if kind == Line::End {
                break;
            }
        }
        assert_eq!(
            kinds,
            [
                (Line::Whole, "ab".to_owned()),
                (Line::Whole, String::new()),
                (Line::Unterminated, "last".to_owned()),
                (Line::End, String::new()),
            ]
        );
    }
}
