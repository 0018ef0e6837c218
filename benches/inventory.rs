//! `skilldeck list --json` on synthetic machines of N skills, against
//! `find HOME -type f -print0 | xargs -0 sha256sum` on the same tree in the same run.
//!
//! Run: `cargo bench --bench inventory -- 2000 20000` (sizes optional; default 2000 20000).
//! Needs GNU time at /usr/bin/time for peak memory (`apt-get install -y time`).
//! Runs alternate between the two commands so a noisy machine hurts both alike; medians and
//! their ratio are printed as Markdown rows for BENCHMARKS.md.

use std::fs;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

mod common;

use common::generate;

const RUNS: usize = 7;

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![2000, 20000]
    } else {
        sizes
    };
    println!(
        "| skills | files | skilldeck list --json (median) | peak RSS | find+sha256sum (median) | peak RSS | ratio |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        let tmp = tempfile::tempdir().expect("temp dir");
        let home = tmp.path().join("home");
        let files = generate(&home, n);
        let project = tmp.path().join("project");
        fs::create_dir_all(&project).expect("project dir");
        let skilldeck = vec![
            env!("CARGO_BIN_EXE_skilldeck").to_owned(),
            "list".into(),
            "--json".into(),
            "--project".into(),
            project.display().to_string(),
        ];
        let pipeline = vec![
            "sh".into(),
            "-c".into(),
            "find \"$HOME\" -type f -print0 | xargs -0 sha256sum".into(),
        ];
        // One warm-up of each, so both read from the page cache.
        measure(&skilldeck, &home);
        measure(&pipeline, &home);
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        for _ in 0..RUNS {
            ours.push(measure(&skilldeck, &home));
            theirs.push(measure(&pipeline, &home));
        }
        let (ours_time, ours_rss) = medians(&ours);
        let (their_time, their_rss) = medians(&theirs);
        println!(
            "| {n} | {files} | {:.1} ms | {:.1} MiB | {:.1} ms | {:.1} MiB | {:.2}× |",
            ms(ours_time),
            ours_rss as f64 / 1024.0,
            ms(their_time),
            their_rss as f64 / 1024.0,
            ms(ours_time) / ms(their_time)
        );
    }
}

/// Wall time and peak resident memory (KiB) of one run, stdout discarded.
fn measure(argv: &[String], home: &PathBuf) -> (Duration, u64) {
    let rss_file = tempfile::NamedTempFile::new().expect("temp file");
    let started = Instant::now();
    let status = Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o"])
        .arg(rss_file.path())
        .args(argv)
        .env("HOME", home)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("/usr/bin/time runs (apt-get install -y time)");
    let elapsed = started.elapsed();
    assert!(status.success(), "{argv:?} failed");
    let rss = fs::read_to_string(rss_file.path())
        .expect("time wrote its output")
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .expect("peak RSS in KiB");
    (elapsed, rss)
}

fn medians(samples: &[(Duration, u64)]) -> (Duration, u64) {
    let mut times: Vec<Duration> = samples.iter().map(|s| s.0).collect();
    let mut rss: Vec<u64> = samples.iter().map(|s| s.1).collect();
    times.sort();
    rss.sort_unstable();
    (times[times.len() / 2], rss[rss.len() / 2])
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
