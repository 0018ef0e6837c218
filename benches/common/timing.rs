//! What the benchmark harnesses share: one command timed under GNU time (wall time and peak
//! resident memory), and the medians of many.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Wall time and peak resident memory (KiB) of one run of `argv` with `env` added, its
/// standard output discarded. Needs /usr/bin/time (`apt-get install -y time`).
pub fn timed(argv: &[String], env: &[(&str, &Path)]) -> (Duration, u64) {
    let rss_file = tempfile::NamedTempFile::new().expect("temp file");
    let started = Instant::now();
    let status = Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o"])
        .arg(rss_file.path())
        .args(argv)
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .status()
        .expect("/usr/bin/time runs (apt-get install -y time)");
    let elapsed = started.elapsed();
    assert!(status.success(), "{argv:?} failed");
    let rss = std::fs::read_to_string(rss_file.path())
        .expect("time wrote its output")
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .expect("peak RSS in KiB");
    (elapsed, rss)
}

/// The median wall time and the median peak memory of `samples`.
pub fn medians(samples: &[(Duration, u64)]) -> (Duration, u64) {
    let mut times: Vec<Duration> = samples.iter().map(|s| s.0).collect();
    let mut rss: Vec<u64> = samples.iter().map(|s| s.1).collect();
    times.sort();
    rss.sort_unstable();
    (times[times.len() / 2], rss[rss.len() / 2])
}

pub fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

pub fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}
