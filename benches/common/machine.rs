//! The synthetic machine the benchmarks share: N skills spread over the roots people fill.

use std::fs;
use std::path::Path;

use skilldeck::record::digest_of;

/// Where the synthetic skills go, round-robin: the roots people actually fill.
pub const ROOTS: [&str; 4] = [
    ".claude/skills",
    ".agents/skills",
    ".codex/skills",
    ".config/opencode/skills",
];

/// The files a synthetic skill may hold, in the order a skill gains them: its `SKILL.md`, a
/// reference of about 2 KiB, and a script; small, as real skills' files are.
pub const MOST_FILES: usize = 3;

/// `n` skills of three files each; every fourth carries an installer's record that matches.
pub fn generate(home: &Path, n: usize) -> usize {
    generate_with(home, n, MOST_FILES)
}

/// `n` skills of `files` files each (1 to [`MOST_FILES`]: `SKILL.md`, then
/// `references/guide.md`, then `scripts/run.sh`); every fourth carries an installer's record
/// that matches. Returns the number of files written.
pub fn generate_with(home: &Path, n: usize, files: usize) -> usize {
    assert!(
        (1..=MOST_FILES).contains(&files),
        "a synthetic skill holds 1 to {MOST_FILES} files"
    );
    let guide = "Some reference text for the skill. ".repeat(60);
    for i in 0..n {
        let name = format!("skill-{i:05}");
        let dir = home.join(ROOTS[i % ROOTS.len()]).join(&name);
        let body = format!("# {name}\n\nUse this skill when the task mentions item {i}.\n");
        let script = format!("#!/bin/sh\necho {i}\n");
        let mut extra: Vec<(&Path, &[u8])> = Vec::new();
        if files >= 2 {
            extra.push((Path::new("references/guide.md"), guide.as_bytes()));
        }
        if files >= 3 {
            extra.push((Path::new("scripts/run.sh"), script.as_bytes()));
        }
        let mut skill_md = format!(
            "---\nname: \"{name}\"\ndescription: \"Synthetic skill number {i} for the inventory benchmark.\"\nmetadata:\n"
        );
        if i % 4 == 0 {
            skill_md.push_str("  installed-by: \"bench\"\n  installed-version: \"1.0.0\"\n  content-digest: \"\"\n");
        }
        skill_md.push_str("---\n");
        skill_md.push_str(&body);
        if i % 4 == 0 {
            let digest = digest_of(
                std::iter::once((Path::new("SKILL.md"), skill_md.as_bytes()))
                    .chain(extra.iter().copied()),
            );
            skill_md = skill_md.replacen(
                "content-digest: \"\"",
                &format!("content-digest: \"{digest}\""),
                1,
            );
        }
        fs::create_dir_all(&dir).expect("dirs");
        fs::write(dir.join("SKILL.md"), skill_md).expect("write");
        for (path, content) in &extra {
            let path = dir.join(path);
            fs::create_dir_all(path.parent().expect("a folder")).expect("dirs");
            fs::write(path, content).expect("write");
        }
    }
    n * files
}
