//! The managing commands, asked of the real agents: after `skilldeck link X --agent B` agent
//! B loads X, after `skilldeck remove X` no agent does, and `skilldeck undo` brings X back byte
//! for byte so they load it again. Each step is also compared, agent by agent, with what
//! skilldeck's own listing claims.

use std::path::{Path, PathBuf};
use std::process::Output;

use super::{Agent, Check, Lab, here};

/// Claude Code owns the skill; Codex and Gemini CLI get it by a link in `~/.agents/skills`.
const AGENTS: &[Agent] = &[Agent::ClaudeCode, Agent::Codex, Agent::GeminiCli];

/// The name of the skill the case moves around, and of a skill that stays in place, so every
/// agent lists something at every step.
const SHARED: &str = "x-shared";
const STAYS: &str = "x-stays";

fn skilldeck(lab: &Lab, args: &[&str]) -> Output {
    let program = PathBuf::from(env!("CARGO_BIN_EXE_skilldeck"));
    let output = lab
        .command(&program, &lab.project)
        .args(args)
        .output()
        .expect("run skilldeck");
    assert!(
        output.status.success(),
        "skilldeck {args:?} failed:\nstdout: {}\nstderr: {}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Which of `AGENTS` list a skill named `name`, by asking each.
fn loading(lab: &Lab, name: &str) -> Vec<Agent> {
    AGENTS
        .iter()
        .copied()
        .filter(|&agent| lab.ask(agent, &lab.project).iter().any(|l| l.name == name))
        .collect()
}

/// Every file and link below `dir` with its bytes, mode or target.
fn picture(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
    {
        let entry = entry.expect("walk");
        let meta = entry.path().symlink_metadata().expect("stat");
        #[cfg(unix)]
        let mode = std::os::unix::fs::PermissionsExt::mode(&meta.permissions());
        // Elsewhere a file has no mode bits, only a read-only flag.
        #[cfg(not(unix))]
        let mode = if meta.permissions().readonly() {
            0o444
        } else {
            0o644
        };
        let what = if meta.file_type().is_symlink() {
            format!(
                "link {}",
                std::fs::read_link(entry.path()).expect("link").display()
            )
        } else if meta.is_file() {
            format!("{mode:o} {:?}", std::fs::read(entry.path()).expect("read"))
        } else {
            format!("dir {mode:o}")
        };
        out.push((entry.path().to_path_buf(), what));
    }
    out
}

#[test]
fn manage_link_remove_and_undo_as_the_agents_see_them() {
    let Some(lab) = Lab::new() else { return };
    let claude = lab.home.join(".claude/skills");
    lab.named(&claude.join(SHARED));
    lab.named(&claude.join(STAYS));
    lab.named(&lab.home.join(".agents/skills").join(STAYS));
    lab.warm(AGENTS);
    let check = |step: &str| {
        lab.check(Check::new(here!(), step, AGENTS, &[&lab.project]));
    };
    check("before link");
    assert_eq!(loading(&lab, SHARED), [Agent::ClaudeCode]);

    skilldeck(&lab, &["link", SHARED, "--agent", "codex"]);
    check("after link");
    // Codex was asked for; Gemini CLI reads the same folder, and loads it too.
    assert_eq!(
        loading(&lab, SHARED),
        [Agent::ClaudeCode, Agent::Codex, Agent::GeminiCli]
    );
    let before = (picture(&claude), picture(&lab.home.join(".agents/skills")));

    skilldeck(&lab, &["remove", SHARED]);
    check("after remove");
    assert_eq!(loading(&lab, SHARED), []);

    skilldeck(&lab, &["undo"]);
    assert_eq!(
        (picture(&claude), picture(&lab.home.join(".agents/skills"))),
        before,
        "undo did not bring the skill and its link back byte for byte"
    );
    check("after undo");
    assert_eq!(
        loading(&lab, SHARED),
        [Agent::ClaudeCode, Agent::Codex, Agent::GeminiCli]
    );
}
