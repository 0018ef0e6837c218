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

/// `n` skills of three files each; every fourth carries an installer's record that matches.
pub fn generate(home: &Path, n: usize) -> usize {
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
