//! `skilldeck list --json` with each skill's uses per agent (`usage`, `last_used`), `--unused
//! DAYS` in the table and in JSON, and `--no-usage`, on the real binary over a machine whose
//! Claude Code counters, Claude Code transcripts and Codex rollouts the test writes.

use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use crate::common::sessions::{claude_line, codex_injection, write_log};
use crate::common::{Machine, write_skill};

const DAY: u64 = 86_400;

fn seconds(time: SystemTime) -> String {
    humantime::format_rfc3339_seconds(time).to_string()
}

struct Fixture {
    machine: Machine,
    now: SystemTime,
}

/// Claude Code's `alpha` (its counter: 3 uses, 40 days ago), `pdf` (a transcript: used 2 days
/// ago) and `idle` (never used); `gamma` in `~/.agents/skills`, which Codex injected 5 days
/// ago and Claude Code loaded 60 days ago.
fn fixture() -> Fixture {
    let machine = Machine::new();
    let home = machine.home.clone();
    for name in ["alpha", "pdf", "idle"] {
        write_skill(&home.join(".claude/skills").join(name), &[]);
    }
    write_skill(&home.join(".agents/skills/gamma"), &[]);
    std::fs::create_dir_all(home.join(".codex")).unwrap();
    // Whole seconds, as the JSON gives times.
    let now = SystemTime::UNIX_EPOCH
        + Duration::from_secs(
            SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap()
                .as_secs(),
        );
    let ago = |days: u64| now - Duration::from_secs(days * DAY);
    let alpha_ms = ago(40)
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    std::fs::write(
        home.join(".claude.json"),
        json!({"skillUsage": {"alpha": {"usageCount": 3, "lastUsedAt": alpha_ms}}}).to_string(),
    )
    .unwrap();
    write_log(
        &home.join(".claude/projects/-work-repo/1.jsonl"),
        &[
            claude_line(&home.join(".claude/skills/pdf"), Some(ago(3))),
            claude_line(&home.join(".claude/skills/pdf"), Some(ago(2))),
            claude_line(&home.join(".agents/skills/gamma"), Some(ago(60))),
        ],
        ago(2),
    );
    write_log(
        &home.join(".codex/sessions/2026/01/01/rollout-1.jsonl"),
        &[codex_injection(&home.join(".agents/skills/gamma"), ago(5))],
        ago(5),
    );
    Fixture { machine, now }
}

fn listed(machine: &Machine, args: &[&str], code: i32) -> Value {
    let mut all = vec!["list", "--json"];
    all.extend_from_slice(args);
    serde_json::from_slice(&machine.run_expecting(&all, code).stdout).unwrap()
}

fn skill<'a>(listing: &'a Value, name: &str) -> &'a Value {
    listing["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("{name} listed"))
}

fn names(listing: &Value) -> Vec<&str> {
    listing["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect()
}

#[test]
fn each_skill_has_its_uses_per_agent_and_its_last_use() {
    let f = fixture();
    let ago = |days: u64| seconds(f.now - Duration::from_secs(days * DAY));
    let listing = listed(&f.machine, &[], 0);
    let alpha = skill(&listing, "alpha");
    assert_eq!(
        alpha["usage"],
        json!([{"agent": "claude-code", "uses": 3, "last_used": ago(40), "from": "counter"}])
    );
    assert_eq!(alpha["last_used"], json!(ago(40)));
    let pdf = skill(&listing, "pdf");
    assert_eq!(
        pdf["usage"],
        json!([{"agent": "claude-code", "uses": 2, "last_used": ago(2), "from": "sessions"}])
    );
    assert_eq!(pdf["last_used"], json!(ago(2)));
    let gamma = skill(&listing, "gamma");
    assert_eq!(
        gamma["usage"],
        json!([
            {"agent": "claude-code", "uses": 1, "last_used": ago(60), "from": "sessions"},
            {"agent": "codex", "uses": 1, "last_used": ago(5), "from": "sessions"}
        ])
    );
    assert_eq!(gamma["last_used"], json!(ago(5)));
    let idle = skill(&listing, "idle");
    assert_eq!(idle["usage"], json!([]));
    assert_eq!(idle["last_used"], Value::Null);
    // The counters' file and the two logs were read; a second listing takes the logs from
    // the cache.
    assert_eq!(
        listing["usage_read"],
        json!({"sessions": 2, "files": 3, "bytes": listing["usage_read"]["bytes"], "unread": 0, "cached": 0, "broken": 0})
    );
    let again = listed(&f.machine, &[], 0);
    assert_eq!(again["usage_read"]["files"], 1, "only the counters");
    assert_eq!(again["usage_read"]["cached"], 2);
    // Read from the cache, the two sessions still count: "read from 2 session files", not 0.
    assert_eq!(again["usage_read"]["sessions"], 2);
    assert_eq!(again["skills"], listing["skills"]);
}

#[test]
fn unused_keeps_the_skills_no_agent_used_lately() {
    let f = fixture();
    assert_eq!(
        names(&listed(&f.machine, &["--unused", "30"], 0)),
        ["alpha", "idle"]
    );
    assert_eq!(
        names(&listed(&f.machine, &["--unused", "4"], 0)),
        ["alpha", "gamma", "idle"]
    );
    assert_eq!(
        names(&listed(&f.machine, &["--unused", "1"], 0)),
        ["alpha", "gamma", "idle", "pdf"]
    );
    // With the other filters; nothing left is exit 1.
    assert_eq!(
        names(&listed(&f.machine, &["--unused", "30", "--name", "a*"], 0)),
        ["alpha"]
    );
    assert_eq!(
        names(&listed(&f.machine, &["--unused", "30", "--name", "pdf"], 1)),
        Vec::<&str>::new()
    );
    // For people: the table says when each was last used.
    let table = f.machine.run_expecting(&["list", "--unused", "30"], 0);
    let table = String::from_utf8_lossy(&table.stdout);
    let day = |days: u64| seconds(f.now - Duration::from_secs(days * DAY))[..10].to_owned();
    assert!(table.contains("LAST USED"), "{table}");
    let row = |name: &str| {
        table
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {table}"))
            .to_owned()
    };
    assert!(row("alpha").contains(&day(40)), "{table}");
    assert!(row("idle").contains("never"), "{table}");
    assert!(!table.contains("pdf "), "{table}");
}

#[test]
fn no_usage_reads_nothing() {
    let f = fixture();
    let listing = listed(&f.machine, &["--no-usage"], 0);
    assert_eq!(skill(&listing, "pdf")["usage"], json!([]));
    assert_eq!(skill(&listing, "pdf")["last_used"], Value::Null);
    assert_eq!(listing["usage_read"], Value::Null);
    assert!(!f.machine.home.join(".local/share/skilldeck/usage").exists());
    let both = f
        .machine
        .run_expecting(&["list", "--unused", "3", "--no-usage"], 2);
    assert!(String::from_utf8_lossy(&both.stderr).contains("--no-usage"));
    // The table without --unused reads nothing either, and has no LAST USED column.
    let table = f.machine.run_expecting(&["list"], 0);
    assert!(!String::from_utf8_lossy(&table.stdout).contains("LAST USED"));
}

#[test]
fn the_help_says_what_reading_costs_by_the_bounds_it_reads_to() {
    let machine = Machine::new();
    let help = machine.run_expecting(&["list", "--help"], 0);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("the newest 2,000 logs, up to 64 MiB of each and 2 GiB in all"),
        "{help}"
    );
    let bounds = skilldeck::limits::USAGE;
    assert_eq!(
        (bounds.files, bounds.file_bytes, bounds.total_bytes),
        (2_000, 64 << 20, 2 << 30),
        "the help and the README name these bounds: change them there too"
    );
}
