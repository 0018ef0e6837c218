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

use common::{medians, mib, ms, timed};

use skilldeck::record::digest_of;

const RUNS: usize = 7;

/// Where the synthetic skills go, round-robin: the roots people actually fill.
const ROOTS: [&str; 4] = [
    ".claude/skills",
    ".agents/skills",
    ".codex/skills",
    ".config/opencode/skills",
];

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
            mib(ours_rss),
            ms(their_time),
            mib(their_rss),
            ms(ours_time) / ms(their_time)
        );
    }
}

/// `n` skills of three files each; every fourth carries an installer's record that matches.
fn generate(home: &Path, n: usize) -> usize {
    let guide = "Some reference text for the skill. ".repeat(60);
    let mut files = 0;
    for i in 0..n {
        let name = format!("skill-{i:05}");
        let dir = home.join(ROOTS[i % ROOTS.len()]).join(&name);
        fs::create_dir_all(dir.join("references")).expect("dirs");
        fs::create_dir_all(dir.join("scripts")).expect("dirs");
        let body = format!("# {name}\n\nUse this skill when the task mentions item {i}.\n");
        let script = format!("#!/bin/sh\necho {i}\n");
        let mut skill_md = format!(
            "---\nname: \"{name}\"\ndescription: \"Synthetic skill number {i} for the inventory benchmark.\"\nmetadata:\n"
        );
        if i % 4 == 0 {
            skill_md.push_str("  installed-by: \"bench\"\n  installed-version: \"1.0.0\"\n  content-digest: \"\"\n");
        }
        skill_md.push_str("---\n");
        skill_md.push_str(&body);
        if i % 4 == 0 {
            let digest = digest_of([
                (Path::new("SKILL.md"), skill_md.as_bytes()),
                (Path::new("references/guide.md"), guide.as_bytes()),
                (Path::new("scripts/run.sh"), script.as_bytes()),
            ]);
            skill_md = skill_md.replacen(
                "content-digest: \"\"",
                &format!("content-digest: \"{digest}\""),
                1,
            );
        }
        fs::write(dir.join("SKILL.md"), skill_md).expect("write");
        fs::write(dir.join("references/guide.md"), &guide).expect("write");
        fs::write(dir.join("scripts/run.sh"), script).expect("write");
        files += 3;
    }
    files
}

/// Wall time and peak resident memory (KiB) of one run, stdout discarded.
fn measure(argv: &[String], home: &Path) -> (Duration, u64) {
    timed(argv, &[("HOME", home)])
}
