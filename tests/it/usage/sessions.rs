//! Usage read from synthetic session logs of each format, built here in a temporary home:
//! Claude Code's project transcripts (and its subagents'), Codex's rollouts in dated folders
//! and archived, Gemini CLI's chats (and its subagents'), OpenCode's session database; the bounds (newest first, per file, in all); and logs that are malformed in
//! every way a disk allows. Each test asserts exact counts, times and what was read.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::sessions::{
    DAY0, at, claude_line, claude_tool_result, codex_injection, codex_read, codex_turn,
    gemini_activation, gemini_header, opencode_db, stamp, write_bytes, write_log,
};
use skilldeck::limits::{USAGE, UsageBounds};
use skilldeck::roots::{AgentId, Environment};
use skilldeck::usage::{self, Reading, Use};

fn used(count: u64, last: u64) -> Option<Use> {
    Some(Use {
        count,
        last: Some(at(last)),
    })
}

fn reading(files: usize, bytes: u64, unread: usize, broken: usize) -> Reading {
    Reading {
        // No counters in these homes: every file read is a session file.
        sessions: files,
        files,
        bytes,
        unread,
        cached: 0,
        broken,
    }
}

fn len(path: &Path) -> u64 {
    fs::metadata(path).unwrap().len()
}

struct Home {
    _tmp: tempfile::TempDir,
    home: PathBuf,
}

impl Home {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().canonicalize().unwrap();
        Self { _tmp: tmp, home }
    }

    fn env(&self) -> Environment {
        Environment::new(&self.home)
    }

    fn claude(&self, rel: &str) -> PathBuf {
        self.home.join(".claude/projects").join(rel)
    }

    fn codex(&self, rel: &str) -> PathBuf {
        self.home.join(".codex").join(rel)
    }
}

#[test]
fn claude_code_transcripts_count_each_load_with_its_time() {
    let h = Home::new();
    let pdf = Path::new("/s/pdf");
    let docx = Path::new("/s/docx");
    let first = h.claude("-home-me-a/1111.jsonl");
    write_log(
        &first,
        &[
            claude_tool_result(),
            claude_line(pdf, Some(at(DAY0 + 10))),
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"done"}]}}"#.into(),
            claude_line(pdf, Some(at(DAY0 + 30))),
            claude_line(docx, None),
        ],
        at(DAY0 + 100),
    );
    // A subagent's transcript, under the session's folder.
    let sub = h.claude("-home-me-b/2222/subagents/agent-a1.jsonl");
    write_log(
        &sub,
        &[claude_line(pdf, Some(at(DAY0 + 50)))],
        at(DAY0 + 60),
    );
    let found = usage::read(&h.env(), &USAGE, None);
    assert_eq!(found.logged(AgentId::CLAUDE_CODE, pdf), used(3, DAY0 + 50));
    // No `timestamp`: the log's modification time.
    assert_eq!(
        found.logged(AgentId::CLAUDE_CODE, docx),
        used(1, DAY0 + 100)
    );
    assert_eq!(found.logged(AgentId::CODEX, pdf), None);
    assert_eq!(found.reading, reading(2, len(&first) + len(&sub), 0, 0));
}

#[test]
fn claude_config_dir_moves_the_transcripts() {
    let h = Home::new();
    let config = h.home.join("elsewhere");
    write_log(
        &config.join("projects/p/s.jsonl"),
        &[claude_line(Path::new("/s/a"), Some(at(DAY0)))],
        at(DAY0),
    );
    write_log(
        &h.claude("p/ignored.jsonl"),
        &[claude_line(Path::new("/s/b"), Some(at(DAY0)))],
        at(DAY0),
    );
    let env = h.env().with_var("CLAUDE_CONFIG_DIR", &config);
    let found = usage::read(&env, &USAGE, None);
    assert_eq!(
        found.logged(AgentId::CLAUDE_CODE, Path::new("/s/a")),
        used(1, DAY0)
    );
    assert_eq!(found.logged(AgentId::CLAUDE_CODE, Path::new("/s/b")), None);
}

#[test]
fn codex_rollouts_count_injections_and_skill_reads_once_a_turn() {
    let h = Home::new();
    let pdf = Path::new("/h/.codex/skills/pdf");
    let notes = Path::new("/h/.agents/skills/notes");
    let rollout = h.codex("sessions/2025/06/01/rollout-2025-06-01T00-00-00-a.jsonl");
    write_log(
        &rollout,
        &[
            r#"{"timestamp":"2025-06-01T00:00:00.000Z","type":"session_meta","payload":{"id":"a","cwd":"/w"}}"#.into(),
            codex_turn(at(DAY0 + 1)),
            codex_injection(pdf, at(DAY0 + 2)),
            codex_read(notes, at(DAY0 + 3)),
            codex_read(notes, at(DAY0 + 4)),
            codex_turn(at(DAY0 + 5)),
            codex_read(notes, at(DAY0 + 6)),
            codex_injection(pdf, at(DAY0 + 7)),
        ],
        at(DAY0 + 10),
    );
    let archived = h.codex("archived_sessions/rollout-2025-05-01T00-00-00-b.jsonl");
    write_log(
        &archived,
        &[codex_injection(pdf, at(DAY0 - 100))],
        at(DAY0 - 90),
    );
    // Not where Codex writes rollouts: a shallower folder, another name.
    write_log(
        &h.codex("sessions/2025/06/rollout-x.jsonl"),
        &[codex_injection(pdf, at(DAY0))],
        at(DAY0),
    );
    write_log(
        &h.codex("sessions/2025/06/01/history.jsonl"),
        &[codex_injection(pdf, at(DAY0))],
        at(DAY0),
    );
    let found = usage::read(&h.env(), &USAGE, None);
    assert_eq!(found.logged(AgentId::CODEX, pdf), used(3, DAY0 + 7));
    assert_eq!(found.logged(AgentId::CODEX, notes), used(2, DAY0 + 6));
    assert_eq!(
        found.reading,
        reading(2, len(&rollout) + len(&archived), 0, 0)
    );
}

/// `n` Claude Code sessions, each using `/s/n<i>` once, the later ones newer.
fn sessions(h: &Home, n: u64) -> Vec<PathBuf> {
    (0..n)
        .map(|i| {
            let path = h.claude(&format!("p/{i:03}.jsonl"));
            let dir = PathBuf::from(format!("/s/n{i}"));
            write_log(
                &path,
                &[claude_line(&dir, Some(at(DAY0 + i)))],
                at(DAY0 + i),
            );
            path
        })
        .collect()
}

fn bounds(files: usize, file_bytes: u64, total_bytes: u64) -> UsageBounds {
    UsageBounds {
        files,
        file_bytes,
        total_bytes,
        ..USAGE
    }
}

#[test]
fn past_the_file_bound_only_the_newest_are_read() {
    let h = Home::new();
    let paths = sessions(&h, 5);
    let found = usage::read(
        &h.env(),
        &bounds(2, USAGE.file_bytes, USAGE.total_bytes),
        None,
    );
    let read: Vec<bool> = (0..5)
        .map(|i| {
            found
                .logged(AgentId::CLAUDE_CODE, &PathBuf::from(format!("/s/n{i}")))
                .is_some()
        })
        .collect();
    assert_eq!(read, [false, false, false, true, true]);
    assert_eq!(
        found.reading,
        reading(2, len(&paths[3]) + len(&paths[4]), 3, 0)
    );
}

#[test]
fn a_file_past_its_bound_is_read_to_it_and_the_total_stops_the_rest() {
    let h = Home::new();
    let big = h.claude("p/big.jsonl");
    let lines: Vec<String> = (0..10)
        .map(|i| claude_line(Path::new("/s/big"), Some(at(DAY0 + i))))
        .collect();
    write_log(&big, &lines, at(DAY0 + 100));
    let one = lines[0].len() as u64 + 1;
    // Three whole lines and part of a fourth: the part is not read as a line.
    let found = usage::read(&h.env(), &bounds(10, 3 * one + 10, USAGE.total_bytes), None);
    assert_eq!(
        found.logged(AgentId::CLAUDE_CODE, Path::new("/s/big")),
        used(3, DAY0 + 2)
    );
    assert_eq!(found.reading, reading(1, 3 * one + 10, 0, 0));
    // The total bound: the big file takes all of it, the older one is unread.
    let older = h.claude("p/older.jsonl");
    write_log(
        &older,
        &[claude_line(Path::new("/s/old"), Some(at(DAY0)))],
        at(DAY0),
    );
    let found = usage::read(&h.env(), &bounds(10, USAGE.file_bytes, 2 * one), None);
    assert_eq!(
        found.logged(AgentId::CLAUDE_CODE, Path::new("/s/big")),
        used(2, DAY0 + 1)
    );
    assert_eq!(
        found.logged(AgentId::CLAUDE_CODE, Path::new("/s/old")),
        None
    );
    assert_eq!(found.reading, reading(1, 2 * one, 1, 0));
}

#[test]
fn malformed_lines_are_counted_broken_and_the_good_ones_kept() {
    let h = Home::new();
    let pdf = Path::new("/s/pdf");
    let good = claude_line(pdf, Some(at(DAY0 + 1)));
    let mut bytes = Vec::new();
    for line in [
        good.as_str(),
        // Broken JSON that names a skill: broken. Broken JSON that does not: never decoded.
        "{\"type\":\"user\",\"message\":\"Base directory for this skill: /s/pdf",
        "{not json at all",
        "",
    ] {
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    // Not UTF-8 inside a line that names a skill.
    bytes.extend_from_slice(b"{\"text\":\"Base directory for this skill: /s/\xff\xfe\"}\n");
    bytes.extend_from_slice(claude_line(pdf, Some(at(DAY0 + 2))).as_bytes());
    bytes.push(b'\n');
    // The last line cut short, as by a crash mid-write.
    let cut = claude_line(pdf, Some(at(DAY0 + 3)));
    bytes.extend_from_slice(&cut.as_bytes()[..cut.len() / 2 + 10]);
    let mixed = h.claude("p/mixed.jsonl");
    write_bytes(&mixed, &bytes, at(DAY0 + 50));
    // Binary garbage, with no marker in it.
    let garbage: Vec<u8> = (0..100_000_u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let binary = h.claude("p/binary.jsonl");
    write_bytes(&binary, &garbage, at(DAY0 + 40));
    // A folder named like a log is walked into, not read.
    fs::create_dir_all(h.claude("p/folder.jsonl")).unwrap();
    write_log(
        &h.claude("p/folder.jsonl/inner.jsonl"),
        &[claude_line(Path::new("/s/inner"), Some(at(DAY0)))],
        at(DAY0 + 30),
    );
    let found = usage::read(&h.env(), &USAGE, None);
    assert_eq!(found.logged(AgentId::CLAUDE_CODE, pdf), used(2, DAY0 + 2));
    assert_eq!(
        found.logged(AgentId::CLAUDE_CODE, Path::new("/s/inner")),
        used(1, DAY0)
    );
    let inner = len(&h.claude("p/folder.jsonl/inner.jsonl"));
    assert_eq!(
        found.reading,
        reading(3, len(&mixed) + len(&binary) + inner, 0, 3),
        "the broken JSON, the non-UTF-8 line and the cut last line"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_a_link_loop_and_a_dangling_link_are_broken_and_nothing_waits() {
    let h = Home::new();
    let good = h.claude("p/good.jsonl");
    write_log(
        &good,
        &[claude_line(Path::new("/s/a"), Some(at(DAY0)))],
        at(DAY0),
    );
    let fifo = h.claude("p/fifo.jsonl");
    crate::common::fifo(&fifo);
    let looped = h.claude("p/loop.jsonl");
    std::os::unix::fs::symlink(&looped, &looped).unwrap();
    std::os::unix::fs::symlink(h.claude("p/missing"), h.claude("p/dangling.jsonl")).unwrap();
    // A link to a folder is not followed: a loop through it costs nothing.
    std::os::unix::fs::symlink(h.claude("p"), h.claude("p/again")).unwrap();
    // A link to a log is that log.
    let linked = h.claude("q/linked.jsonl");
    fs::create_dir_all(linked.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&good, &linked).unwrap();
    let found = usage::read(&h.env(), &USAGE, None);
    assert_eq!(
        found.logged(AgentId::CLAUDE_CODE, Path::new("/s/a")),
        used(2, DAY0)
    );
    assert_eq!(found.reading, reading(2, 2 * len(&good), 0, 3));
}

#[test]
fn a_line_past_the_longest_read_is_passed_over_and_the_next_read() {
    let h = Home::new();
    let path = h.claude("p/huge.jsonl");
    let mut bytes = Vec::with_capacity(100 << 20);
    bytes.extend_from_slice(claude_line(Path::new("/s/a"), Some(at(DAY0))).as_bytes());
    bytes.push(b'\n');
    // A 100 MB tool output that also names a skill: too long to hold, so never decoded.
    bytes.extend_from_slice(b"{\"text\":\"Base directory for this skill: /s/lost ");
    bytes.resize(bytes.len() + (100 << 20), b'x');
    bytes.extend_from_slice(b"\"}\n");
    bytes.extend_from_slice(claude_line(Path::new("/s/b"), Some(at(DAY0 + 1))).as_bytes());
    bytes.push(b'\n');
    write_bytes(&path, &bytes, at(DAY0 + 5));
    let found = usage::read(&h.env(), &bounds(10, 1 << 30, 1 << 30), None);
    assert_eq!(
        found.logged(AgentId::CLAUDE_CODE, Path::new("/s/a")),
        used(1, DAY0)
    );
    assert_eq!(
        found.logged(AgentId::CLAUDE_CODE, Path::new("/s/lost")),
        None
    );
    assert_eq!(
        found.logged(AgentId::CLAUDE_CODE, Path::new("/s/b")),
        used(1, DAY0 + 1)
    );
    assert_eq!(found.reading, reading(1, bytes.len() as u64, 0, 1));
}

#[test]
fn no_logs_read_nothing_and_write_no_cache() {
    let h = Home::new();
    let cache = h.home.join("cache");
    let found = usage::read(&h.env(), &USAGE, Some(&cache));
    assert_eq!(found.reading, Reading::default());
    assert!(!cache.exists());
}

#[test]
fn any_bytes_in_any_log_read_without_a_panic_and_every_log_is_counted() {
    let h = Home::new();
    // Fragments that steer the reader into each of its paths, joined at random.
    let fragments: [&[u8]; 10] = [
        b"Base directory for this skill: /s/a\n",
        b"{\"timestamp\":\"2025-06-01T00:00:00Z\",\"text\":\"Base directory for this skill: ",
        b"<skill>\n<path>/s/b/SKILL.md</path>",
        b"{\"type\":\"turn_context\"}\n",
        b"{\"type\":\"response_item\",\"payload\":{\"type\":\"function_call\",\"arguments\":\"{\\\"cmd\\\":\\\"cat /s/c/SKILL.md\\\"}\"}}\n",
        b"\"}\n",
        b"\xff\xfe\x00\n",
        b"\n\n",
        b"SKILL.md",
        b"{\"type\":\"attachment\",\"attachment\":{\"type\":\"invoked_skills\"",
    ];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for i in 0..60 {
        let mut bytes = Vec::new();
        for _ in 0..next() % 40 {
            bytes.extend_from_slice(fragments[(next() % 10) as usize]);
        }
        let path = if i % 2 == 0 {
            h.claude(&format!("p/{i}.jsonl"))
        } else {
            h.codex(&format!("sessions/2025/06/01/rollout-{i}.jsonl"))
        };
        write_bytes(&path, &bytes, at(DAY0 + i));
    }
    let tiny = bounds(50, 300, 5_000);
    let found = usage::read(&h.env(), &tiny, Some(&h.home.join("cache")));
    assert_eq!(found.reading.files + found.reading.unread, 60);
    assert!(found.reading.bytes <= 5_000);
    // Read again from the cache: the same answer.
    let again = usage::read(&h.env(), &tiny, Some(&h.home.join("cache")));
    assert_eq!(again.reading.cached, found.reading.files);
    assert_eq!(again.reading.broken, found.reading.broken);
    for dir in ["/s/a", "/s/b", "/s/c"] {
        for agent in [AgentId::CLAUDE_CODE, AgentId::CODEX] {
            assert_eq!(
                again.logged(agent, Path::new(dir)),
                found.logged(agent, Path::new(dir))
            );
        }
    }
}

#[test]
fn a_log_naming_more_folders_than_a_session_uses_is_read_up_to_the_bound_and_counted_broken() {
    let h = Home::new();
    let bounds = UsageBounds {
        skills_per_file: 10,
        ..USAGE
    };
    let dir = |i: usize| PathBuf::from(format!("/s/many-{i}"));
    // Many folders in one line, after one line naming two; then a line the bound stopped before.
    let many: String = (0..30)
        .map(|i| format!("Base directory for this skill: {}\n", dir(i).display()))
        .collect();
    let line = serde_json::json!({"timestamp": stamp(at(DAY0)), "message": {"content": many}});
    let log = h.claude("p/many.jsonl");
    write_log(
        &log,
        &[
            claude_line(&dir(28), Some(at(DAY0))),
            claude_line(&dir(29), Some(at(DAY0))),
            line.to_string(),
            claude_line(&dir(0), Some(at(DAY0 + 5))),
        ],
        at(DAY0 + 10),
    );
    let found = usage::read(&h.env(), &bounds, None);
    // The two named first, then the first eight of the long line; the rest of it (which names
    // the first two again) and of the log unread.
    for i in 28..30 {
        assert_eq!(found.logged(AgentId::CLAUDE_CODE, &dir(i)), used(1, DAY0));
    }
    for i in 0..8 {
        assert_eq!(
            found.logged(AgentId::CLAUDE_CODE, &dir(i)),
            used(1, DAY0),
            "{i}"
        );
    }
    for i in 8..28 {
        assert_eq!(found.logged(AgentId::CLAUDE_CODE, &dir(i)), None, "{i}");
    }
    assert_eq!(found.reading.broken, 1);
    // Within the bound, every folder counts.
    let all = usage::read(&h.env(), &USAGE, None);
    assert_eq!(all.logged(AgentId::CLAUDE_CODE, &dir(0)), used(2, DAY0 + 5));
    assert_eq!(all.logged(AgentId::CLAUDE_CODE, &dir(20)), used(1, DAY0));
    assert_eq!(all.logged(AgentId::CLAUDE_CODE, &dir(29)), used(2, DAY0));
    assert_eq!(all.reading.broken, 0);
}

#[test]
fn gemini_cli_sessions_count_each_successful_activation_once() {
    let h = Home::new();
    let gemini = h.home.join("gem-home");
    let pdf = Path::new("/s/pdf");
    let docx = Path::new("/s/docx");
    let chats = gemini.join(".gemini/tmp/my-project/chats");
    let session = chats.join("session-2025-06-01T00-00-abcd1234.jsonl");
    write_log(
        &session,
        &[
            gemini_header(at(DAY0)),
            gemini_activation("c1", pdf, "success", at(DAY0 + 10)),
            // The same message written again when its tokens arrive: the same call.
            gemini_activation("c1", pdf, "success", at(DAY0 + 10)),
            gemini_activation("c2", pdf, "success", at(DAY0 + 40)),
            // An unknown skill's activation fails: not a use.
            gemini_activation("c3", docx, "error", at(DAY0 + 50)),
            r#"{"$set":{"lastUpdated":"2025-06-01T00:01:00.000Z"}}"#.into(),
        ],
        at(DAY0 + 100),
    );
    // A subagent's session, under its parent's folder.
    let sub = chats.join("parent-session/sub-1.jsonl");
    write_log(
        &sub,
        &[gemini_activation("c1", docx, "success", at(DAY0 + 70))],
        at(DAY0 + 80),
    );
    // The home's `.gemini` is not read when GEMINI_CLI_HOME moves it.
    write_log(
        &h.home.join(".gemini/tmp/p/chats/session-x.jsonl"),
        &[gemini_activation("c9", pdf, "success", at(DAY0))],
        at(DAY0),
    );
    let env = h.env().with_var("GEMINI_CLI_HOME", &gemini);
    let found = usage::read(&env, &USAGE, None);
    assert_eq!(found.logged(AgentId::GEMINI_CLI, pdf), used(2, DAY0 + 40));
    assert_eq!(found.logged(AgentId::GEMINI_CLI, docx), used(1, DAY0 + 70));
    assert_eq!(found.logged(AgentId::CLAUDE_CODE, pdf), None);
    assert_eq!(found.reading, reading(2, len(&session) + len(&sub), 0, 0));
}

#[test]
fn opencode_database_counts_each_completed_skill_call() {
    let h = Home::new();
    let data = h.home.join("xdg-data");
    let pdf = Path::new("/s/pdf");
    let docx = Path::new("/s/docx");
    let db = data.join("opencode/opencode.db");
    opencode_db(
        &db,
        &[
            ("skill", "completed", pdf, at(DAY0 + 5)),
            ("skill", "completed", pdf, at(DAY0 + 20)),
            ("skill", "error", docx, at(DAY0 + 30)),
            // Another tool whose output quotes the line is not a use.
            ("read", "completed", docx, at(DAY0 + 40)),
        ],
    );
    // Another channel's database is OpenCode's too.
    opencode_db(
        &data.join("opencode/opencode-dev.db"),
        &[("skill", "completed", docx, at(DAY0 + 60))],
    );
    let env = h.env().with_var("XDG_DATA_HOME", &data);
    let found = usage::read(&env, &USAGE, None);
    assert_eq!(found.logged(AgentId::OPENCODE, pdf), used(2, DAY0 + 20));
    assert_eq!(found.logged(AgentId::OPENCODE, docx), used(1, DAY0 + 60));
    assert_eq!(found.reading.sessions, 2);
    assert_eq!(found.reading.broken, 0);
    // A file by that name that is no database is counted broken, and the others still read.
    fs::write(data.join("opencode/opencode-broken.db"), "not sqlite").unwrap();
    let found = usage::read(&env, &USAGE, None);
    assert_eq!(found.logged(AgentId::OPENCODE, pdf), used(2, DAY0 + 20));
    assert_eq!((found.reading.sessions, found.reading.broken), (2, 1));
}
