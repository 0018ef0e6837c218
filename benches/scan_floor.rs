//! How close `skilldeck list --json` comes to the floor: a minimal program that only walks the
//! same roots and SHA-256es every file on all cores, measured in the same run on synthetic
//! machines of N skills of one, two and three small files each: wall time, and CPU time (user
//! and system on every core), which is what a machine whose cores are busy pays. Also in the
//! table, on the same tree: `find | xargs sha256sum`, and skls's `--dump-json` (a peer Rust
//! TUI; it hashes nothing).
//!
//! Run: `cargo bench --bench scan_floor -- 2000 20000 --files=1,2,3` (sizes and shapes
//! optional; those are the defaults). Needs bash (its `time` gives wall and CPU time to the
//! millisecond) and GNU time at /usr/bin/time for peak memory (`apt-get install -y time`). skls
//! is run when `SKLS` names its binary or it is at /work/tools/skls/bin/skls
//! (`cargo install skls --version '^0.6' --root /work/tools/skls`). `SKILLDECK_BEFORE=PATH`
//! adds another skilldeck build (the one before a change) to the same interleaved runs.
//!
//! The floor is this same binary run as `scan_floor --floor ROOT...`; `--floor-trusted` is the
//! same walk opening each file as skilldeck's reading rule requires (no device's open run, no
//! FIFO waited on, whatever is swapped in after the listing), which is the least any safe
//! listing pays. Runs alternate between the commands so a noisy machine hurts each alike;
//! medians, and their ratio to the floor's median of the same run, are printed as Markdown
//! rows for BENCHMARKS.md.

mod common;

use std::cell::RefCell;
use std::fmt::Write as _;
use std::fs;
use std::io::{BufWriter, Read, Write as _};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sha2::{Digest, Sha256};
use walkdir::WalkDir;

use common::machine::{MOST_FILES, ROOTS, generate_with};
use common::timing::{Run, clocked, median, mib, ms, run};

/// Timed rounds of every command, after one warm-up of each.
const RUNS: usize = 11;
/// Rounds under GNU time for peak memory, which varies little.
const RSS_RUNS: usize = 3;
const DEFAULT_SKLS: &str = "/work/tools/skls/bin/skls";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--floor") => return floor(&args[1..], Open::Plain),
        Some("--floor-trusted") => return floor(&args[1..], Open::Trusted),
        Some("--tree") => return tree(&args[1..]),
        _ => {}
    }
    let sizes = common::args::numbers_or(&[2000, 20000]);
    let shapes = files_a_skill(&args);
    let skls = std::env::var_os("SKLS")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from(DEFAULT_SKLS)).filter(|p| p.is_file()));
    let before = std::env::var_os("SKILLDECK_BEFORE").map(PathBuf::from);
    let this = std::env::current_exe().expect("the bench's own path");

    println!(
        "| skills | files a skill | command | wall (median) | ÷ floor | CPU (median) | ÷ floor | peak RSS (median) |"
    );
    println!("|---:|---:|---|---:|---:|---:|---:|---:|");
    for &n in &sizes {
        for &per_skill in &shapes {
            let tmp = tempfile::tempdir().expect("temp dir");
            let home = tmp.path().join("home");
            generate_with(&home, n, per_skill);
            let project = tmp.path().join("project");
            fs::create_dir_all(&project).expect("project dir");
            let project_arg = project.display().to_string();
            let list = |bin: &Path| {
                vec![
                    bin.display().to_string(),
                    "list".into(),
                    "--json".into(),
                    "--project".into(),
                    project_arg.clone(),
                ]
            };
            let mut floor_argv = vec![this.display().to_string(), "--floor".into()];
            floor_argv.extend(ROOTS.iter().map(|r| home.join(r).display().to_string()));
            let mut trusted_argv = floor_argv.clone();
            trusted_argv[1] = "--floor-trusted".into();
            let mut commands: Vec<(String, Vec<String>)> = vec![
                ("floor: walkdir + sha2 on rayon".into(), floor_argv),
                (
                    "floor, each file opened as skilldeck must".into(),
                    trusted_argv,
                ),
                (
                    "skilldeck list --json".into(),
                    list(Path::new(env!("CARGO_BIN_EXE_skilldeck"))),
                ),
            ];
            if let Some(before) = &before {
                commands.push(("skilldeck list --json (before)".into(), list(before)));
            }
            commands.push((
                "find \\| xargs sha256sum".into(),
                vec![
                    "sh".into(),
                    "-c".into(),
                    "find \"$HOME\" -type f -print0 | xargs -0 sha256sum".into(),
                ],
            ));
            if let Some(skls) = &skls {
                commands.push((
                    "skls --dump-json (hashes nothing)".into(),
                    vec![
                        skls.display().to_string(),
                        "--dump-json".into(),
                        "--project-root".into(),
                        project_arg.clone(),
                    ],
                ));
            }
            let env = [("HOME", home.as_path())];
            // One warm-up of each, so all read from the page cache.
            for (_, argv) in &commands {
                clocked(argv, &env);
            }
            let mut samples: Vec<Vec<Run>> = vec![Vec::new(); commands.len()];
            for _ in 0..RUNS {
                for ((_, argv), samples) in commands.iter().zip(&mut samples) {
                    samples.push(clocked(argv, &env));
                }
            }
            let mut rss: Vec<Vec<u64>> = vec![Vec::new(); commands.len()];
            for _ in 0..RSS_RUNS {
                for ((_, argv), rss) in commands.iter().zip(&mut rss) {
                    rss.push(run(argv, &env).rss_kib);
                }
            }
            let wall = |runs: &[Run]| ms(median(runs.iter().map(|r| r.wall).collect()));
            let cpu = |runs: &[Run]| ms(median(runs.iter().map(|r| r.cpu).collect()));
            let (floor_wall, floor_cpu) = (wall(&samples[0]), cpu(&samples[0]));
            for (((name, _), runs), rss) in commands.iter().zip(&samples).zip(rss) {
                println!(
                    "| {n} | {per_skill} | {name} | {:.1} ms | {:.2}× | {:.1} ms | {:.2}× | {:.1} MiB |",
                    wall(runs),
                    wall(runs) / floor_wall,
                    cpu(runs),
                    cpu(runs) / floor_cpu,
                    mib(median(rss)),
                );
            }
        }
    }
}

/// `--tree HOME N FILES`: the machine of `N` skills of `FILES` files each, written to `HOME` and
/// kept, for profiling one command on it (`HOME=HOME perf record skilldeck list --json`).
fn tree(args: &[String]) {
    let [home, n, per_skill] = args else {
        panic!("--tree HOME N FILES");
    };
    let number = |arg: &str| -> usize { arg.parse().expect("--tree HOME N FILES: numbers") };
    let files = generate_with(Path::new(home), number(n), number(per_skill));
    println!("{files} files in {home}");
}

/// The shapes asked for with `--files=1,2,3` (files a skill), else all of them.
fn files_a_skill(args: &[String]) -> Vec<usize> {
    let given: Vec<usize> = args
        .iter()
        .filter_map(|arg| arg.strip_prefix("--files="))
        .flat_map(|list| list.split(','))
        .map(|n| {
            n.trim()
                .parse()
                .expect("--files=N,M: numbers of files a skill")
        })
        .collect();
    if given.is_empty() {
        (1..=MOST_FILES).collect()
    } else {
        given
    }
}

thread_local! {
    /// One read buffer per thread, allocated once: a small file is read whole in one call.
    static BUFFER: RefCell<Vec<u8>> = RefCell::new(vec![0; 64 * 1024]);
}

/// The floor: every regular file below `roots`, SHA-256ed on all cores, printed as
/// `sha256sum` prints. Nothing else: no parsing, no sorting, no per-skill framing. The walk
/// itself is spread over the cores too: each entry of a root (a skill folder) is walked by
/// whichever thread takes it, as skilldeck reads each skill.
fn floor(roots: &[String], open: Open) {
    let tops: Vec<PathBuf> = roots
        .iter()
        .filter_map(|root| fs::read_dir(root).ok())
        .flatten()
        .filter_map(|entry| Some(entry.ok()?.path()))
        .collect();
    let lines: Vec<String> = tops
        .par_iter()
        .map(|top| {
            let mut lines = String::new();
            BUFFER.with_borrow_mut(|buffer| {
                for entry in WalkDir::new(top).into_iter().filter_map(Result::ok) {
                    if entry.file_type().is_file()
                        && let Some(hash) = sha256(entry.path(), open, buffer)
                    {
                        for byte in hash {
                            let _ = write!(lines, "{byte:02x}");
                        }
                        let _ = writeln!(lines, "  {}", entry.path().display());
                    }
                }
            });
            lines
        })
        .collect();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for line in lines {
        out.write_all(line.as_bytes()).expect("stdout");
    }
}

/// The SHA-256 of the file at `path`, read through `buffer`; none if it cannot be read.
fn sha256(path: &Path, open: Open, buffer: &mut [u8]) -> Option<[u8; 32]> {
    let mut file = match open {
        Open::Plain => fs::File::open(path).ok()?,
        Open::Trusted => trusted_open(path)?,
    };
    let mut hasher = Sha256::new();
    loop {
        match file.read(buffer) {
            Ok(0) => break,
            Ok(read) => hasher.update(&buffer[..read]),
            Err(_) => return None,
        }
    }
    Some(hasher.finalize().into())
}

/// How the floor opens each file.
#[derive(Clone, Copy)]
enum Open {
    /// `open(2)` by path, as `sha256sum` does.
    Plain,
    /// The sequence skilldeck's rule asks of every file it reads (`fs::read::open_checked`):
    /// an `O_PATH` handle, which runs no device's open and waits on no FIFO, its type read
    /// from that handle, and only a regular file reopened through `/proc/self/fd`. The floor
    /// run this way is what the reading alone costs, whatever else a listing does.
    Trusted,
}

#[cfg(target_os = "linux")]
fn trusted_open(path: &Path) -> Option<fs::File> {
    use rustix::fs::{FileType, Mode, OFlags, openat};
    use std::os::fd::AsRawFd;
    use std::sync::OnceLock;
    static FDS: OnceLock<rustix::fd::OwnedFd> = OnceLock::new();
    let fds = FDS.get_or_init(|| {
        rustix::fs::open(
            "/proc/self/fd",
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .expect("/proc/self/fd")
    });
    let handle = openat(
        rustix::fs::CWD,
        path,
        OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .ok()?;
    let stat = rustix::fs::fstat(&handle).ok()?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return None;
    }
    let name = handle.as_raw_fd().to_string();
    let read = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    openat(fds, name.as_str(), read, Mode::empty())
        .ok()
        .map(fs::File::from)
}

#[cfg(not(target_os = "linux"))]
fn trusted_open(path: &Path) -> Option<fs::File> {
    fs::File::open(path).ok()
}
