//! What the benchmark harnesses share: one command timed under GNU time (wall time and peak
//! resident memory), and the medians of many.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Wall time and peak resident memory (KiB) of one run of `argv` with `env` added, its
/// standard output discarded. Needs /usr/bin/time (`apt-get install -y time`).
pub fn timed(argv: &[String], env: &[(&str, &Path)]) -> (Duration, u64) {
    let run = run(argv, env);
    (run.wall, run.rss_kib)
}

/// What one run of a command cost.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    pub wall: Duration,
    /// User and system time on every core, as GNU time counts it (to 10 ms): what a machine
    /// whose other cores are busy pays, where wall time also rewards using idle ones.
    pub cpu: Duration,
    pub rss_kib: u64,
}

/// One run of `argv` with `env` added under GNU time, its standard output discarded.
pub fn run(argv: &[String], env: &[(&str, &Path)]) -> Run {
    let report = tempfile::NamedTempFile::new().expect("temp file");
    let started = Instant::now();
    let status = Command::new("/usr/bin/time")
        .args(["-f", "%M %U %S", "-o"])
        .arg(report.path())
        .args(argv)
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .status()
        .expect("/usr/bin/time runs (apt-get install -y time)");
    let wall = started.elapsed();
    assert!(status.success(), "{argv:?} failed");
    let text = std::fs::read_to_string(report.path()).expect("time wrote its output");
    let fields: Vec<&str> = text
        .lines()
        .last()
        .expect("a line from time")
        .split_whitespace()
        .collect();
    let number = |i: usize| -> f64 { fields[i].parse().expect("time's figures") };
    Run {
        wall,
        cpu: Duration::from_secs_f64(number(1) + number(2)),
        rss_kib: fields[0].parse().expect("peak RSS in KiB"),
    }
}

/// One run of `argv` with `env` added, timed by bash's `time` (`getrusage` of the command
/// alone, to the millisecond) rather than GNU time's 10 ms steps: its wall time and its CPU
/// time (user and system on every core). Its peak memory is not read (`rss_kib` is 0): take
/// that from [`run`], whose own process would otherwise be counted here.
pub fn clocked(argv: &[String], env: &[(&str, &Path)]) -> Run {
    let report = tempfile::NamedTempFile::new().expect("temp file");
    // The command's own error output stays on descriptor 3, so the report holds only time's.
    let script = "TIMEFORMAT='%3R %3U %3S'; { time \"$@\" >/dev/null 2>&3; } 3>&2 2>\"$REPORT\"";
    let status = Command::new("bash")
        .args(["-c", script, "bash"])
        .args(argv)
        .envs(env.iter().copied())
        .env("REPORT", report.path())
        .stdout(Stdio::null())
        .status()
        .expect("bash runs");
    assert!(status.success(), "{argv:?} failed");
    let text = std::fs::read_to_string(report.path()).expect("bash wrote its timing");
    let seconds: Vec<f64> = text
        .split_whitespace()
        .map(|field| field.parse().expect("bash's figures"))
        .collect();
    assert_eq!(seconds.len(), 3, "bash's timing: {text:?}");
    Run {
        wall: Duration::from_secs_f64(seconds[0]),
        cpu: Duration::from_secs_f64(seconds[1] + seconds[2]),
        rss_kib: 0,
    }
}

/// The median of `values`.
pub fn median<T: Ord + Copy>(mut values: Vec<T>) -> T {
    values.sort_unstable();
    values[values.len() / 2]
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
