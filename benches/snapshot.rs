//! Snapshot speed, two figures for BENCHMARKS.md:
//!
//! 1. Diffing a skill whose 1 MiB text file changed: the diff model computed and its first
//!    screen (50 rows) rendered as text, in process. Two edits: one line in a hundred changed,
//!    and every line changed.
//! 2. `skilldeck snapshot` of 2,000 skills (three files each, in `~/.claude/skills`), end to
//!    end with the scan, into an empty data directory, against `cp -r` of the same skills
//!    folder into an empty directory, alternating runs in the same session.
//!
//! 3. One skill's history (`snapshots SKILL`, the app's history view) with 50 snapshots of a
//!    skill of three files and 100 KiB, each snapshot one edit apart: `history::history` in
//!    process, against `sha256sum` of the same snapshot files (the reading and hashing the
//!    history's digest checks cannot skip), alternating runs.
//!
//! Run: `cargo bench --bench snapshot -- 2000` (skill count optional; default 2000).

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::text;
use skilldeck::snapshot::Store;
use skilldeck::snapshot::diff;

const DIFF_RUNS: usize = 21;
const COPY_RUNS: usize = 7;
const SCREEN_ROWS: usize = 50;

fn main() {
    let skills = common::args::number_or(2000);
    diff_bench();
    snapshot_bench(skills);
    history_bench();
}

const HISTORY_SNAPSHOTS: usize = 50;

fn history_bench() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("skills/long-lived");
    fs::create_dir_all(&dir).expect("dir");
    fs::write(
        dir.join("SKILL.md"),
        "---\nname: long-lived\ndescription: d\n---\n",
    )
    .expect("write");
    let reference = "A line of reference text that the skill points its agent to.\n".repeat(1600);
    fs::write(dir.join("reference.md"), &reference).expect("write");
    let store = Store::at(tmp.path().join("snapshots"));
    for edit in 0..HISTORY_SNAPSHOTS {
        fs::write(dir.join("notes.md"), format!("edit {edit}\n")).expect("write");
        store
            .take(&dir, skilldeck::snapshot::Reason::Manual)
            .expect("snapshot");
    }
    let kept: Vec<std::path::PathBuf> = walkdir::WalkDir::new(tmp.path().join("snapshots"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_type().is_file() && e.path().components().any(|c| c.as_os_str() == "files")
        })
        .map(walkdir::DirEntry::into_path)
        .collect();
    let sha256sum = || {
        let mut command = Command::new("sha256sum");
        command.args(&kept);
        command
    };
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for _ in 0..COPY_RUNS {
        let started = Instant::now();
        let steps = skilldeck::snapshot::history::history(&store, &dir).expect("history");
        ours.push(started.elapsed());
        assert_eq!(steps.len(), HISTORY_SNAPSHOTS);
        assert!(steps.iter().all(|s| !s.damaged));
        theirs.push(time(sha256sum()));
    }
    ours.sort();
    theirs.sort();
    let (a, b) = (ours[COPY_RUNS / 2], theirs[COPY_RUNS / 2]);
    println!();
    println!(
        "| snapshots | files | history::history (median) | sha256sum of them (median) | ratio |"
    );
    println!("|---:|---:|---:|---:|---:|");
    println!(
        "| {HISTORY_SNAPSHOTS} | {} | {:.1} ms | {:.1} ms | {:.2}× |",
        kept.len(),
        ms(a),
        ms(b),
        ms(a) / ms(b)
    );
}

fn diff_bench() {
    println!(
        "| edit of a 1 MiB text file | lines | changed lines | diff model + first screen (median) | max |"
    );
    println!("|---|---:|---:|---:|---:|");
    let original = text::one_mib();
    let lines = original.lines().count();
    for (what, edit) in text::EDITS {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().join("skills/big");
        fs::create_dir_all(&dir).expect("dir");
        fs::write(
            dir.join("SKILL.md"),
            "---\nname: big\ndescription: d\n---\n",
        )
        .expect("write");
        fs::write(dir.join("big.md"), &original).expect("write");
        let store = Store::at(tmp.path().join("snapshots"));
        let snapshot = store
            .take(&dir, skilldeck::snapshot::Reason::Manual)
            .expect("snapshot")
            .snapshot;
        fs::write(dir.join("big.md"), text::edited(&original, edit)).expect("write");
        let mut times = Vec::new();
        let mut changed_lines = 0;
        for _ in 0..DIFF_RUNS {
            let started = Instant::now();
            let model = diff::diff(&snapshot, &dir).expect("diff");
            let screen: String = diff::rows(&model)
                .iter()
                .take(SCREEN_ROWS)
                .map(|row| row.text() + "\n")
                .collect();
            times.push(started.elapsed());
            assert_eq!(screen.lines().count(), SCREEN_ROWS);
            assert!(screen.lines().any(|l| l.starts_with('+')));
            changed_lines = model.counts().0;
            std::hint::black_box(&screen);
        }
        times.sort();
        println!(
            "| {what} | {lines} | {changed_lines} | {:.1} ms | {:.1} ms |",
            ms(times[times.len() / 2]),
            ms(times[times.len() - 1])
        );
    }
    println!();
}

fn snapshot_bench(n: usize) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let home = tmp.path().join("home");
    let files = generate(&home, n);
    let project = tmp.path().join("project");
    fs::create_dir_all(&project).expect("project");
    // Each run writes into a directory of its own: removing the last run's copy first would
    // time the file system catching up on the removal as much as the copy.
    let run_dir = |what: &str, run: usize| tmp.path().join(format!("{what}-{run}"));
    let skilldeck = |run: usize| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_skilldeck"));
        command
            .args(["snapshot", "--project"])
            .arg(&project)
            .env_clear()
            .env("HOME", &home)
            .env("XDG_DATA_HOME", run_dir("data", run));
        command
    };
    let cp = |run: usize| {
        let mut command = Command::new("cp");
        command
            .arg("-r")
            .arg(home.join(".claude/skills"))
            .arg(run_dir("copy", run));
        command
    };
    // One warm-up of each, so both read from the page cache.
    time(skilldeck(0));
    time(cp(0));
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for run in 1..=COPY_RUNS {
        ours.push(time(skilldeck(run)));
        theirs.push(time(cp(run)));
    }
    ours.sort();
    theirs.sort();
    let (a, b) = (ours[COPY_RUNS / 2], theirs[COPY_RUNS / 2]);
    println!("| skills | files | skilldeck snapshot (median) | cp -r (median) | ratio |");
    println!("|---:|---:|---:|---:|---:|");
    println!(
        "| {n} | {files} | {:.1} ms | {:.1} ms | {:.2}× |",
        ms(a),
        ms(b),
        ms(a) / ms(b)
    );
}

/// Wall time of one run, its output discarded.
fn time(mut command: Command) -> Duration {
    let started = Instant::now();
    let status = command
        .stdout(std::process::Stdio::null())
        .status()
        .expect("the command runs");
    let elapsed = started.elapsed();
    assert!(status.success(), "{command:?} failed");
    elapsed
}

/// `n` skills of three files each (SKILL.md, a 2 KiB reference, an executable script) in
/// `~/.claude/skills`.
fn generate(home: &Path, n: usize) -> usize {
    let guide = "Some reference text for the skill. ".repeat(60);
    for i in 0..n {
        let name = format!("skill-{i:05}");
        let dir = home.join(".claude/skills").join(&name);
        fs::create_dir_all(dir.join("references")).expect("dirs");
        fs::create_dir_all(dir.join("scripts")).expect("dirs");
        let skill_md = format!(
            "---\nname: {name}\ndescription: Synthetic skill number {i} for the snapshot benchmark.\n---\n# {name}\n"
        );
        fs::write(dir.join("SKILL.md"), skill_md).expect("write");
        fs::write(dir.join("references/guide.md"), &guide).expect("write");
        let script = dir.join("scripts/run.sh");
        fs::write(&script, format!("#!/bin/sh\necho {i}\n")).expect("write");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).expect("chmod");
        }
    }
    n * 3
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
