//! `skilldeck import` of a real skills repository against GNU tar on the same archive, in the
//! same run: a dry run against `tar -tzf` (both read and inflate the whole archive; skilldeck
//! also checks every header, path and skill) and a real import against `tar -xzf` into an
//! empty directory (skilldeck also writes the record, syncs before its atomic renames, and keeps
//! a baseline snapshot of each skill it installed).
//!
//! Run: `cargo bench --bench import [-- ARCHIVE]`; the default archive is
//! `anthropics-skills-main.tar.gz` in the folder `$SKILLDECK_REAL_WORLD` names (the archives of
//! `shared/real-world`, never committed). Needs GNU time at /usr/bin/time for
//! peak memory (`apt-get install -y time`). Runs alternate between the two commands so a noisy
//! machine hurts both alike; medians and their ratio are printed as Markdown rows for
//! BENCHMARKS.md.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::timing::{medians, mib, ms, timed};

const RUNS: usize = 11;

fn main() {
    let archive = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("SKILLDECK_REAL_WORLD")
                .map(|dir| Path::new(&dir).join("anthropics-skills-main.tar.gz"))
        })
        .expect(
            "give an archive, or set SKILLDECK_REAL_WORLD to the folder of the real-world archives",
        );
    assert!(archive.is_file(), "{} is missing", archive.display());
    let archive = archive.display().to_string();
    let skilldeck = env!("CARGO_BIN_EXE_skilldeck");
    let tmp = tempfile::tempdir().expect("temp dir");

    println!("| command | median | peak RSS | baseline | median | peak RSS | ratio |");
    println!("|---|---:|---:|---|---:|---:|---:|");
    let dry_run = [skilldeck, "import", "--dry-run", "--json", &archive];
    let list = ["tar", "-tzf", &archive];
    compare(
        ("skilldeck import --dry-run --json", &|_| argv(&dry_run)),
        ("tar -tzf", &|_| argv(&list)),
        tmp.path(),
    );
    compare(
        ("skilldeck import --to EMPTY/skills", &|dir: &Path| {
            let to = dir.join("skills").display().to_string();
            argv(&[skilldeck, "import", &archive, "--to", &to])
        }),
        ("tar -xzf -C EMPTY", &|dir: &Path| {
            argv(&["tar", "-xzf", &archive, "-C", &dir.display().to_string()])
        }),
        tmp.path(),
    );
}

type Argv<'a> = &'a dyn Fn(&Path) -> Vec<String>;

fn argv(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|p| (*p).to_owned()).collect()
}

/// One warm-up each, then `RUNS` alternating runs, each in a new empty directory.
fn compare(ours: (&str, Argv<'_>), theirs: (&str, Argv<'_>), scratch: &Path) {
    let mut samples = (Vec::new(), Vec::new());
    for run in 0..=RUNS {
        let a = measure(&ours.1, scratch, &format!("ours-{run}"));
        let b = measure(&theirs.1, scratch, &format!("theirs-{run}"));
        if run > 0 {
            samples.0.push(a);
            samples.1.push(b);
        }
    }
    let (ours_time, ours_rss) = medians(&samples.0);
    let (their_time, their_rss) = medians(&samples.1);
    println!(
        "| `{}` | {:.1} ms | {:.1} MiB | `{}` | {:.1} ms | {:.1} MiB | {:.2}× |",
        ours.0,
        ms(ours_time),
        mib(ours_rss),
        theirs.0,
        ms(their_time),
        mib(their_rss),
        ms(ours_time) / ms(their_time)
    );
}

/// One run in a new empty directory, removed afterwards. The directory is also the run's home
/// and data directory: an import keeps a baseline snapshot of what it installed, which must
/// land there, not in the home of whoever runs the benchmark.
fn measure(argv: &Argv<'_>, scratch: &Path, name: &str) -> (Duration, u64) {
    let dir = scratch.join(name);
    std::fs::create_dir(&dir).expect("empty directory");
    let data = dir.join("data");
    let sample = timed(&argv(&dir), &[("HOME", &dir), ("XDG_DATA_HOME", &data)]);
    std::fs::remove_dir_all(&dir).expect("clean up");
    sample
}
