//! The usage cache: a log unchanged since the last reading is not read again (what was read
//! says so: `Reading.files`, `bytes`, `cached`), one that changed is read again alone, and a
//! cache that does not parse is passed over and rewritten.

use std::fs;
use std::path::{Path, PathBuf};

use skilldeck::limits::USAGE;
use skilldeck::roots::{AgentId, Environment};
use skilldeck::usage::{self, Reading};

use crate::common::sessions::{DAY0, at, claude_line, codex_injection, write_log};

struct Logs {
    _tmp: tempfile::TempDir,
    env: Environment,
    cache: PathBuf,
    paths: Vec<PathBuf>,
}

/// Two Claude Code sessions and a Codex rollout, each using `/s/<i>` once.
fn logs() -> Logs {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().to_path_buf();
    let paths = vec![
        home.join(".claude/projects/p/a.jsonl"),
        home.join(".claude/projects/p/b.jsonl"),
        home.join(".codex/sessions/2025/06/01/rollout-c.jsonl"),
    ];
    for (i, path) in paths.iter().enumerate() {
        let dir = PathBuf::from(format!("/s/{i}"));
        let line = if i == 2 {
            codex_injection(&dir, at(DAY0 + i as u64))
        } else {
            claude_line(&dir, Some(at(DAY0 + i as u64)))
        };
        write_log(path, &[line], at(DAY0 + i as u64));
    }
    Logs {
        env: Environment::new(&home),
        cache: home.join("data/usage"),
        paths,
        _tmp: tmp,
    }
}

fn len(path: &Path) -> u64 {
    fs::metadata(path).unwrap().len()
}

fn count(usage: &usage::Usage, agent: AgentId, i: usize) -> u64 {
    usage
        .logged(agent, &PathBuf::from(format!("/s/{i}")))
        .map_or(0, |u| u.count)
}

#[test]
fn a_second_reading_reads_only_the_log_that_changed() {
    let logs = logs();
    let all: u64 = logs.paths.iter().map(|p| len(p)).sum();
    let first = usage::read(&logs.env, &USAGE, Some(&logs.cache));
    assert_eq!(
        first.reading,
        Reading {
            sessions: 3,
            files: 3,
            bytes: all,
            ..Reading::default()
        }
    );
    let second = usage::read(&logs.env, &USAGE, Some(&logs.cache));
    // Nothing read again from disk, but every session's uses count: three session files.
    assert_eq!(
        second.reading,
        Reading {
            sessions: 3,
            cached: 3,
            ..Reading::default()
        }
    );
    assert_eq!(count(&second, AgentId::CLAUDE_CODE, 0), 1);
    assert_eq!(count(&second, AgentId::CODEX, 2), 1);
    // One session grows by a use; only it is read again.
    let grown = &logs.paths[1];
    write_log(
        grown,
        &[
            claude_line(Path::new("/s/1"), Some(at(DAY0 + 1))),
            claude_line(Path::new("/s/1"), Some(at(DAY0 + 9))),
        ],
        at(DAY0 + 9),
    );
    let third = usage::read(&logs.env, &USAGE, Some(&logs.cache));
    assert_eq!(
        third.reading,
        Reading {
            sessions: 3,
            files: 1,
            bytes: len(grown),
            cached: 2,
            ..Reading::default()
        }
    );
    assert_eq!(count(&third, AgentId::CLAUDE_CODE, 1), 2);
    assert_eq!(count(&third, AgentId::CLAUDE_CODE, 0), 1);
    assert_eq!(count(&third, AgentId::CODEX, 2), 1);
    // A log that is gone is gone from the answer, and the rest still come from the cache.
    fs::remove_file(&logs.paths[0]).unwrap();
    let fourth = usage::read(&logs.env, &USAGE, Some(&logs.cache));
    assert_eq!(count(&fourth, AgentId::CLAUDE_CODE, 0), 0);
    assert_eq!(
        fourth.reading,
        Reading {
            sessions: 2,
            cached: 2,
            ..Reading::default()
        }
    );
}

#[test]
fn a_corrupt_cache_is_passed_over_and_rebuilt() {
    let logs = logs();
    fs::create_dir_all(&logs.cache).unwrap();
    let files = || -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = fs::read_dir(&logs.cache)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        files
    };
    for garbage in [
        &b"{\"version\": 1, \"files\": [{\"path\""[..],
        b"\xff\xfe\x00binary",
        b"[]",
    ] {
        for file in files() {
            fs::write(file, garbage).unwrap();
        }
        if files().is_empty() {
            fs::write(logs.cache.join("sessions.json"), garbage).unwrap();
        }
        let read = usage::read(&logs.env, &USAGE, Some(&logs.cache));
        assert_eq!(read.reading.files, 3, "{garbage:?}");
        assert_eq!(count(&read, AgentId::CLAUDE_CODE, 1), 1);
        // Rewritten whole: one file, which the next reading uses.
        assert_eq!(files().len(), 1, "no temporary file is left");
        let again = usage::read(&logs.env, &USAGE, Some(&logs.cache));
        assert_eq!((again.reading.files, again.reading.cached), (0, 3));
    }
}

#[test]
fn without_a_cache_folder_every_reading_reads_all() {
    let logs = logs();
    for _ in 0..2 {
        let read = usage::read(&logs.env, &USAGE, None);
        assert_eq!((read.reading.files, read.reading.cached), (3, 0));
    }
    assert!(!logs.cache.exists());
}
