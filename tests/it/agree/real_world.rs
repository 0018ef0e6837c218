//! Real skill repositories laid where people put them, every agent asked: the two archives in
//! `shared/real-world` (other people's, never committed; `$SKILLDECK_REAL_WORLD` names the folder) unpacked into the agents' folders,
//! flat and as whole checkouts, so the rules meet frontmatter, folders and files nobody wrote
//! for this suite.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{Agent, Check, Lab};

fn archive(name: &str) -> Option<PathBuf> {
    crate::common::outside::real_world_archive(name, "the agreement suite's real-world cases")
}

/// The archive unpacked under `into`, with GNU tar (not skilldeck's reader).
fn unpack(archive: &Path, into: &Path) {
    std::fs::create_dir_all(into).expect("folder");
    let status = Command::new("tar")
        .arg("-xzf")
        .arg(archive)
        .arg("-C")
        .arg(into)
        .status()
        .expect("run tar");
    assert!(status.success(), "tar -xzf {}", archive.display());
}

/// Move every skill folder of `checkout/skills` into `root`.
fn skills_into(checkout: &Path, root: &Path) {
    std::fs::create_dir_all(root).expect("root");
    for entry in std::fs::read_dir(checkout.join("skills")).expect("skills folder") {
        let entry = entry.expect("entry");
        std::fs::rename(entry.path(), root.join(entry.file_name())).expect("move skill");
    }
}

fn lab() -> Option<(Lab, PathBuf, PathBuf)> {
    let anthropic = archive("anthropics-skills-main.tar.gz")?;
    let superpowers = archive("superpowers-main.tar.gz")?;
    let lab = Lab::new()?;
    lab.warm(&Agent::ALL);
    Some((lab, anthropic, superpowers))
}

/// anthropics/skills flat in the shared user folder and superpowers flat in Claude Code's;
/// both again as whole checkouts inside project folders, where only the agents that look
/// deep find their skills.
#[test]
fn every_agent_real_repositories_flat_and_as_checkouts() {
    let Some((lab, anthropic, superpowers)) = lab() else {
        return;
    };
    let unpacked = lab.root.join("unpacked");
    unpack(&anthropic, &unpacked.join("a"));
    skills_into(
        &unpacked.join("a/skills-main"),
        &lab.home.join(".agents/skills"),
    );
    unpack(&superpowers, &unpacked.join("s"));
    skills_into(
        &unpacked.join("s/superpowers-main"),
        &lab.home.join(".claude/skills"),
    );
    unpack(&anthropic, &lab.project.join(".agents/skills"));
    unpack(&superpowers, &lab.project.join(".github/skills"));
    lab.check(Check::new(
        super::here!(),
        "real repositories",
        &Agent::ALL,
        &[&lab.project, &lab.sub],
    ));
}
