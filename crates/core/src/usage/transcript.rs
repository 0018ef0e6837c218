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
//! Only absolute folders are taken. Each folder is kept once, in the order first named, in a
//! hash set (`FirstNamed`): a line or a transcript naming n folders costs n lookups, however
//! the names are spread over lines.

use std::fmt;
use std::hash::Hash;
use std::io::{self, BufRead};
use std::path::{Component, Path, PathBuf};

use indexmap::IndexSet;
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

/// Items each once, in the order first named: what a transcript's folders are gathered in.
/// A set searched by hash, so naming n folders costs n lookups, where a list searched from
/// its start for each cost n²/2 comparisons (25,000 folders in one line: 17 s).
#[derive(Debug)]
struct FirstNamed<T = PathBuf> {
    items: IndexSet<T>,
}

impl<T: Hash + Eq> Default for FirstNamed<T> {
    fn default() -> Self {
        Self {
            items: IndexSet::new(),
        }
    }
}

impl<T: Hash + Eq> FirstNamed<T> {
    /// Keep `item` unless it was named before; whether it is new.
    fn add(&mut self, item: T) -> bool {
        self.items.insert(item)
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    /// The items, in the order first named.
    fn into_vec(self) -> Vec<T> {
        self.items.into_iter().collect()
    }
}

/// Why a transcript's folders could not be had.
#[derive(Debug)]
pub enum TranscriptError {
    Read(io::Error),
    /// It names more skill folders than a session is taken to use.
    TooMany(usize),
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptError::Read(error) => error.fmt(f),
            TranscriptError::TooMany(most) => write!(
                f,
                "it names more than {most} skill folders, the most skilldeck takes from one session"
            ),
        }
    }
}

impl std::error::Error for TranscriptError {}

/// Every skill folder a transcript names, each once, in the order first named; at most `most`
/// of them.
///
/// # Errors
/// When the transcript cannot be read, or names more than `most` folders.
pub fn skill_dirs(mut reader: impl BufRead, most: usize) -> Result<Vec<PathBuf>, TranscriptError> {
    let mut found = FirstNamed::default();
    let mut line = Vec::new();
    while read_line(&mut reader, &mut line).map_err(TranscriptError::Read)? != Line::End {
        if !has_base_dir(&line) {
            continue;
        }
        for dir in dirs_in_line(&line).into_vec() {
            if found.add(dir) && found.len() > most {
                return Err(TranscriptError::TooMany(most));
            }
        }
    }
    Ok(found.into_vec())
}

/// The folders one line names, whatever form the line has.
fn dirs_in_line(line: &[u8]) -> FirstNamed {
    if let Ok(value) = serde_json::from_slice::<Value>(line) {
        return named_in_value(&value);
    }
    let mut dirs = FirstNamed::default();
    let text = String::from_utf8_lossy(line);
    for literal in string_literals(&text) {
        base_dirs(&literal).for_each(|dir| {
            dirs.add(dir);
        });
    }
    base_dirs(&text).for_each(|dir| {
        dirs.add(dir);
    });
    dirs
}

/// The folders the "Base directory" lines of every string in a decoded JSON line name, each
/// once, in order.
pub fn dirs_in_value(value: &Value) -> Vec<PathBuf> {
    named_in_value(value).into_vec()
}

fn named_in_value(value: &Value) -> FirstNamed {
    let mut dirs = FirstNamed::default();
    each_string(value, &mut |text| {
        for dir in base_dirs(text) {
            dirs.add(dir);
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
        skill_dirs(transcript.as_bytes(), usize::MAX).unwrap()
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
        let found = skill_dirs(
            io::BufReader::with_capacity(4096, &transcript[..]),
            usize::MAX,
        )
        .unwrap();
        assert_eq!(found, [PathBuf::from("/kept")]);
    }

    /// A name whose comparisons and hashings are counted.
    #[derive(Clone, Debug)]
    struct Counted<'a>(u32, &'a std::cell::Cell<usize>);

    impl PartialEq for Counted<'_> {
        fn eq(&self, other: &Self) -> bool {
            self.1.set(self.1.get() + 1);
            self.0 == other.0
        }
    }

    impl Eq for Counted<'_> {}

    impl Hash for Counted<'_> {
        fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
            self.1.set(self.1.get() + 1);
            self.0.hash(state);
        }
    }

    /// The comparisons and hashings gathering `names` took, and what was kept.
    fn work(names: &[u32]) -> (usize, Vec<u32>) {
        let count = std::cell::Cell::new(0);
        let mut kept = FirstNamed::default();
        for &name in names {
            kept.add(Counted(name, &count));
        }
        let kept = kept.into_vec().into_iter().map(|c| c.0).collect();
        (count.get(), kept)
    }

    // Counted, not timed: a list searched from its start for each name took n²/2 comparisons,
    // so four times the names took sixteen times the work (25,000 in one line: 17 s).
    #[test]
    fn gathering_n_names_takes_work_in_proportion_to_n() {
        type Shape = fn(u32) -> Vec<u32>;
        let shapes: [(&str, Shape); 4] = [
            ("all different", |n| (0..n).collect()),
            ("each named twice", |n| (0..n).chain(0..n).collect()),
            ("one name again and again", |n| vec![7; n as usize]),
            ("few, interleaved", |n| (0..n).map(|i| i % 16).collect()),
        ];
        for (shape, names) in shapes {
            let (small, kept) = work(&names(2_000));
            let (large, _) = work(&names(8_000));
            assert!(
                large <= 5 * small,
                "{shape}: 2,000 names took {small}, 8,000 took {large}"
            );
            assert!(small <= 3 * 2 * 2_000, "{shape}: {small}");
            // Each once, in the order first named.
            let mut expected = Vec::new();
            for name in names(2_000) {
                if !expected.contains(&name) {
                    expected.push(name);
                }
            }
            assert_eq!(kept, expected, "{shape}");
        }
    }

    fn base_dir_lines(range: std::ops::Range<usize>) -> String {
        range
            .map(|i| format!("Base directory for this skill: /s/skill-{i}\\n"))
            .collect()
    }

    // Written with Unix absolute paths (`/…`), which are not absolute on Windows.
    #[cfg(unix)]
    #[test]
    fn many_folders_in_one_line_or_over_many_are_each_taken_once_in_order() {
        // A JSON line whose text holds `text` (its newlines escaped).
        let line = |text: String| {
            format!("{{\"type\":\"user\",\"message\":{{\"content\":\"{text}\"}}}}\n")
        };
        let expected: Vec<PathBuf> = (0..3_000)
            .map(|i| PathBuf::from(format!("/s/skill-{i}")))
            .collect();
        // One line naming them all, then again; one line each; a few to a line, repeating.
        let one = line(base_dir_lines(0..3_000)) + &line(base_dir_lines(0..3_000));
        let each: String = (0..3_000).map(|i| line(base_dir_lines(i..i + 1))).collect();
        let few: String = (0..3_000_usize)
            .step_by(3)
            .map(|i| line(base_dir_lines(i.saturating_sub(3)..i + 3)))
            .collect();
        for (shape, transcript) in [("one line", one), ("a line each", each), ("a few", few)] {
            assert_eq!(dirs(&transcript), expected, "{shape}");
            // The bound counts folders, not lines or names.
            assert!(skill_dirs(transcript.as_bytes(), 3_000).is_ok(), "{shape}");
            assert!(
                matches!(
                    skill_dirs(transcript.as_bytes(), 2_999),
                    Err(TranscriptError::TooMany(2_999))
                ),
                "{shape}"
            );
        }
        // A huge single name is one folder.
        let long = format!("/s/{}", "x".repeat(200_000));
        let huge = line(format!("Base directory for this skill: {long}"));
        assert_eq!(dirs(&huge), [PathBuf::from(long)]);
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
