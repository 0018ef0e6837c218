//! What reading usage costs `skilldeck list --json`: a synthetic machine of 2,000 skills with
//! N MiB of session logs (Claude Code transcripts and Codex rollouts, one line in fifty naming
//! a skill), measured with the logs read from scratch (the cache removed before each run), with
//! the cache kept from the run before, and with `--no-usage`; the baseline is `grep -rcF` for
//! the marker over the same logs, which reads every byte once as a cold reading must.
//!
//! Run: `cargo bench --bench usage -- 400` (MiB of logs; default 400). Needs GNU time at
//! /usr/bin/time (`apt-get install -y time`). Runs alternate; medians are printed as Markdown.

mod common;

use std::fs;
use std::io::Write as _;
use std::path::Path;

use common::machine::generate;
use common::timing::{medians, mib, ms, timed};

const RUNS: usize = 7;
const SKILLS: usize = 2_000;
/// One log's size: a long session's transcript.
const LOG_BYTES: usize = 1 << 20;

fn main() {
    let mebibytes = common::args::number_or(400);
    let tmp = tempfile::tempdir().expect("temp dir");
    let home = tmp.path().join("home");
    generate(&home, SKILLS);
    let logs = write_logs(&home, mebibytes);
    let project = tmp.path().join("project");
    fs::create_dir_all(&project).expect("project dir");
    let bin = env!("CARGO_BIN_EXE_skilldeck");
    let cache = home.join(".local/share/skilldeck/usage");
    let list = format!("{bin} list --json --project {}", project.display());
    let shell = |script: String| vec!["sh".to_owned(), "-c".to_owned(), script];
    let commands = [
        (
            "list --json, logs read afresh",
            shell(format!("rm -rf {} && {list}", cache.display())),
        ),
        ("list --json, cache kept", shell(list.clone())),
        (
            "list --json --no-usage",
            shell(format!("{list} --no-usage")),
        ),
        (
            "grep -rcF marker (baseline)",
            shell(format!(
                "grep -rcF 'Base directory for this skill:' {} {} > /dev/null; grep -rcF '<skill>' {} > /dev/null; true",
                home.join(".claude/projects").display(),
                home.join(".codex/sessions").display(),
                home.join(".codex/sessions").display()
            )),
        ),
    ];
    for (_, argv) in &commands {
        timed(argv, &[("HOME", &home)]);
    }
    let mut samples = vec![Vec::new(); commands.len()];
    for _ in 0..RUNS {
        for (i, (_, argv)) in commands.iter().enumerate() {
            samples[i].push(timed(argv, &[("HOME", &home)]));
        }
    }
    let baseline = ms(medians(&samples[commands.len() - 1]).0);
    println!("{SKILLS} skills, {logs} logs, {mebibytes} MiB");
    println!("| command | median | peak RSS | ÷ grep |");
    println!("|---|---:|---:|---:|");
    for ((label, _), runs) in commands.iter().zip(&samples) {
        let (time, rss) = medians(runs);
        println!(
            "| {label} | {:.1} ms | {:.1} MiB | {:.2}× |",
            ms(time),
            mib(rss),
            ms(time) / baseline
        );
    }
}

/// `mebibytes` of logs, two Claude Code transcripts to one Codex rollout, each line of
/// ordinary conversation and one in fifty loading one of the synthetic skills.
fn write_logs(home: &Path, mebibytes: usize) -> usize {
    let filler = format!(
        "{{\"type\":\"assistant\",\"message\":{{\"content\":[{{\"type\":\"text\",\"text\":\"{}\"}}]}}}}\n",
        "Some ordinary words of a long answer. ".repeat(50)
    );
    for i in 0..mebibytes {
        let (path, claude) = if i % 3 == 2 {
            (
                home.join(format!(
                    ".codex/sessions/2026/11/{:02}/rollout-{i:05}.jsonl",
                    1 + i % 28
                )),
                false,
            )
        } else {
            (
                home.join(format!(".claude/projects/p{:03}/s{i:05}.jsonl", i % 40)),
                true,
            )
        };
        fs::create_dir_all(path.parent().expect("a log has a folder")).expect("log dir");
        let mut out = std::io::BufWriter::new(fs::File::create(&path).expect("log"));
        let mut written = 0;
        let mut line = 0;
        while written < LOG_BYTES {
            let text = if line % 50 == 49 {
                let skill = (i * 7 + line) % SKILLS;
                let dir = home
                    .join(".claude/skills")
                    .join(format!("skill-{:05}", skill - skill % 4));
                if claude {
                    format!(
                        "{{\"type\":\"user\",\"timestamp\":\"2026-11-20T10:00:00Z\",\"message\":{{\"content\":[{{\"type\":\"text\",\"text\":\"Base directory for this skill: {}\\n\\n# Skill\"}}]}}}}\n",
                        dir.display()
                    )
                } else {
                    format!(
                        "{{\"timestamp\":\"2026-11-20T10:00:00Z\",\"type\":\"response_item\",\"payload\":{{\"type\":\"message\",\"role\":\"user\",\"content\":[{{\"type\":\"input_text\",\"text\":\"<skill>\\n<name>x</name>\\n<path>{}/SKILL.md</path>\\n</skill>\"}}]}}}}\n",
                        dir.display()
                    )
                }
            } else {
                filler.clone()
            };
            out.write_all(text.as_bytes()).expect("write");
            written += text.len();
            line += 1;
        }
    }
    mebibytes
}
