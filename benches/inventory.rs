//! `skilldeck list --json` on synthetic machines of N skills, against
//! `find HOME -type f -print0 | xargs -0 sha256sum` on the same tree in the same run.
//!
//! Run: `cargo bench --bench inventory -- 2000 20000` (sizes optional; default 2000 20000).
//! Needs GNU time at /usr/bin/time for peak memory (`apt-get install -y time`).
//! Runs alternate between the two commands so a noisy machine hurts both alike; medians and
//! their ratio are printed as Markdown rows for BENCHMARKS.md.

mod common;

use std::fs;
use std::path::Path;
use std::time::Duration;

use common::machine::generate;
use common::timing::{medians, mib, ms, timed};

const RUNS: usize = 7;

fn main() {
    let sizes = common::args::numbers_or(&[2000, 20000]);
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
            mib(ours_rss),
            ms(their_time),
            mib(their_rss),
            ms(ours_time) / ms(their_time)
        );
    }
}

/// Wall time and peak resident memory (KiB) of one run, stdout discarded.
fn measure(argv: &[String], home: &Path) -> (Duration, u64) {
    timed(argv, &[("HOME", home)])
}
