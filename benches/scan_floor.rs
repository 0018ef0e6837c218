//! How close `skilldeck list --json` comes to the floor: a minimal program that only walks the
//! same roots and SHA-256es every file on all cores (rayon + walkdir + sha2, nothing else),
//! measured in the same run on synthetic machines of N skills: wall time, and CPU time (user
//! and system on every core), which is what a machine whose cores are busy pays. Also in the table, on the same
//! tree: `find | xargs sha256sum`, and skls's `--dump-json` (a peer Rust TUI; it hashes
//! nothing).
//!
//! Run: `cargo bench --bench scan_floor -- 2000 20000` (sizes optional; default 2000 20000).
//! Needs GNU time at /usr/bin/time for peak memory (`apt-get install -y time`). skls is run
//! when `SKLS` names its binary or it is at /work/tools/skls/bin/skls
//! (`cargo install skls --version '^0.6' --root /work/tools/skls`). `SKILLDECK_BEFORE=PATH`
//! adds another skilldeck build (the one before a change) to the same interleaved runs.
//!
//! The floor is this same binary run as `scan_floor --floor ROOT...`. Runs alternate between
//! the commands so a noisy machine hurts each alike; medians, and their ratio to the floor's
//! median of the same run, are printed as Markdown rows for BENCHMARKS.md.

mod common;

use std::fmt::Write as _;
use std::fs;
use std::io::{BufWriter, Read, Write as _};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sha2::{Digest, Sha256};
use walkdir::WalkDir;

use common::machine::{ROOTS, generate};
use common::timing::{Run, median, mib, ms, run};

const RUNS: usize = 9;
const DEFAULT_SKLS: &str = "/work/tools/skls/bin/skls";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--floor") {
        floor(&args[1..]);
        return;
    }
    let sizes = common::args::numbers_or(&[2000, 20000]);
    let skls = std::env::var_os("SKLS")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from(DEFAULT_SKLS)).filter(|p| p.is_file()));
    let before = std::env::var_os("SKILLDECK_BEFORE").map(PathBuf::from);
    let this = std::env::current_exe().expect("the bench's own path");

    println!(
        "| skills | files | command | wall (median) | ÷ floor | CPU (median) | ÷ floor | peak RSS (median) |"
    );
    println!("|---:|---:|---|---:|---:|---:|---:|---:|");
    for n in sizes {
        let tmp = tempfile::tempdir().expect("temp dir");
        let home = tmp.path().join("home");
        let files = generate(&home, n);
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
        let mut commands: Vec<(String, Vec<String>)> = vec![
            ("floor: walkdir + sha2 on rayon".into(), floor_argv),
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
            run(argv, &env);
        }
        let mut samples: Vec<Vec<Run>> = vec![Vec::new(); commands.len()];
        for _ in 0..RUNS {
            for ((_, argv), samples) in commands.iter().zip(&mut samples) {
                samples.push(run(argv, &env));
            }
        }
        let wall = |runs: &[Run]| median(runs.iter().map(|r| r.wall).collect());
        let cpu = |runs: &[Run]| median(runs.iter().map(|r| r.cpu).collect());
        let (floor_wall, floor_cpu) = (wall(&samples[0]), cpu(&samples[0]));
        for ((name, _), runs) in commands.iter().zip(&samples) {
            let rss = median(runs.iter().map(|r| r.rss_kib).collect());
            println!(
                "| {n} | {files} | {name} | {:.1} ms | {:.2}× | {:.0} ms | {:.2}× | {:.1} MiB |",
                ms(wall(runs)),
                ms(wall(runs)) / ms(floor_wall),
                ms(cpu(runs)),
                ms(cpu(runs)) / ms(floor_cpu),
                mib(rss),
            );
        }
    }
}

/// The floor: every regular file below `roots`, SHA-256ed on all cores, printed as
/// `sha256sum` prints. Nothing else: no parsing, no sorting, no per-skill framing.
fn floor(roots: &[String]) {
    let lines: Vec<String> = roots
        .iter()
        .flat_map(|root| WalkDir::new(root).into_iter())
        .par_bridge()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .filter_map(|entry| {
            let mut file = fs::File::open(entry.path()).ok()?;
            let mut hasher = Sha256::new();
            let mut buffer = [0u8; 64 * 1024];
            loop {
                match file.read(&mut buffer) {
                    Ok(0) => break,
                    Ok(read) => hasher.update(&buffer[..read]),
                    Err(_) => return None,
                }
            }
            let mut line = String::with_capacity(128);
            for byte in hasher.finalize() {
                let _ = write!(line, "{byte:02x}");
            }
            let _ = writeln!(line, "  {}", entry.path().display());
            Some(line)
        })
        .collect();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for line in lines {
        out.write_all(line.as_bytes()).expect("stdout");
    }
}
