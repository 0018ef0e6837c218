//! `sync` against the real skills CLI (pinned in scripts/install-agents), both ways, over a
//! repository served on loopback HTTP: the CLI's `experimental_install` restores a lock
//! skilldeck wrote, into the same folders `sync` uses and no others, and skilldeck verifies
//! and syncs it; a lock the CLI wrote (no commit) is synced by skilldeck after the upstream
//! moved on, to files that hash as the CLI's own install does.

#![cfg(unix)]

use std::fs;

use serde_json::Value;

use crate::common::{Machine, snapshot};

use super::skills_cli::{run_skills, skills_cli};
use super::sync::{Upstream, fresh_clone, locked_project, skill_md};

fn json(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn skill<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("{name} not in {report:#}"))
}

#[test]
fn the_skills_cli_restores_a_lock_skilldeck_wrote_where_sync_does() {
    let Some(program) = skills_cli() else { return };
    let machine = Machine::new();
    let upstream = Upstream::new(&machine);
    locked_project(&machine, &upstream);
    let restored = fresh_clone(&machine);
    let synced = fresh_clone(&machine);
    // Claude Code is set up in both projects: the restore links no agent's folder even so.
    for clone in [&restored, &synced] {
        fs::create_dir_all(clone.repo.join(".claude")).unwrap();
    }
    run_skills(
        &program,
        &restored.repo,
        &restored.home,
        &["experimental_install"],
    );
    synced.run_expecting(&["sync", "--frozen"], 0);
    for clone in [&restored, &synced] {
        for name in ["alpha", "beta"] {
            assert!(
                clone
                    .repo
                    .join(format!(".agents/skills/{name}/SKILL.md"))
                    .is_file()
            );
            assert!(!clone.repo.join(format!(".claude/skills/{name}")).exists());
        }
    }
    // What the CLI restored is what the lock says: skilldeck verifies it and sync leaves it.
    restored.run_expecting(&["verify"], 0);
    let report = json(&restored.run_expecting(&["sync", "--frozen", "--json"], 0));
    for name in ["alpha", "beta"] {
        assert_eq!(skill(&report, name)["state"], "matching", "{report:#}");
    }
    // The two differ only by skilldeck's record in each SKILL.md.
    let cli = snapshot(&restored.repo.join(".agents/skills/alpha"));
    let ours = snapshot(&synced.repo.join(".agents/skills/alpha"));
    assert_eq!(
        cli.keys().collect::<Vec<_>>(),
        ours.keys().collect::<Vec<_>>()
    );
    for (path, entry) in &cli {
        if path != "SKILL.md" {
            assert_eq!(entry, &ours[path], "{path}");
        }
    }
}

#[test]
fn a_lock_the_skills_cli_wrote_is_synced_after_the_upstream_moved_on() {
    let Some(program) = skills_cli() else { return };
    let machine = Machine::new();
    let upstream = Upstream::new(&machine);
    let team = Machine::new();
    run_skills(
        &program,
        &team.repo,
        &team.home,
        &["add", &upstream.url, "--skill", "alpha", "--yes"],
    );
    let lock = fs::read_to_string(team.repo.join("skills-lock.json")).unwrap();
    assert!(!lock.contains("\"commit\""), "{lock}");
    let theirs = snapshot(&team.repo.join(".agents/skills/alpha"));
    upstream.change(
        &[("skills/alpha/SKILL.md", &skill_md("alpha", "Moved on."))],
        "alpha moves on",
    );
    upstream.change(&[("README.md", "And on.\n")], "readme");
    // A teammate's fresh clone: the lock alone.
    let clone = Machine::new();
    fs::write(clone.repo.join("skills-lock.json"), &lock).unwrap();
    let report = json(&clone.run_expecting(&["sync", "--json"], 0));
    let alpha = skill(&report, "alpha");
    assert_eq!(alpha["state"], "installed", "{report:#}");
    assert_eq!(alpha["found"], true);
    assert_eq!(alpha["commit"], upstream.head.as_str());
    clone.run_expecting(&["verify"], 0);
    // The CLI's install and skilldeck's differ only by skilldeck's record in SKILL.md.
    let ours = snapshot(&clone.repo.join(".agents/skills/alpha"));
    for (path, entry) in &theirs {
        if path != "SKILL.md" {
            assert_eq!(entry, &ours[path], "{path}");
        }
    }
    // The commit found is now in the lock, in a field the CLI keeps: it restores the lock
    // skilldeck rewrote.
    let rewritten = fs::read_to_string(clone.repo.join("skills-lock.json")).unwrap();
    assert!(rewritten.contains(&upstream.head), "{rewritten}");
    let again = Machine::new();
    fs::write(again.repo.join("skills-lock.json"), &rewritten).unwrap();
    run_skills(
        &program,
        &again.repo,
        &again.home,
        &["experimental_install"],
    );
    assert!(again.repo.join(".agents/skills/alpha/SKILL.md").is_file());
    // It restores the branch as it is today, not what the lock holds, and rewrites the lock
    // to match what it installed: the locked hash is replaced and the commit, no longer
    // true, dropped. skilldeck's sync of the same lock installed the locked content.
    let after = fs::read_to_string(again.repo.join("skills-lock.json")).unwrap();
    let hash = |text: &str| -> String {
        let lock: Value = serde_json::from_str(text).unwrap();
        lock["skills"]["alpha"]["computedHash"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_ne!(hash(&after), hash(&rewritten), "{after}");
    assert!(!after.contains(&upstream.head), "{after}");
}

/// An upstream that commits what an operating system leaves (`.DS_Store`, `Thumbs.db`, an
/// AppleDouble `._` file): the skills CLI installs and hashes them, so skilldeck's sync of the
/// CLI's lock must find and install them too, and skilldeck's own import and `lock` must give
/// the CLI's hash; both installs verify.
#[test]
fn committed_os_metadata_is_part_of_a_locked_skill() {
    let Some(program) = skills_cli() else { return };
    let machine = Machine::new();
    let upstream = Upstream::new(&machine);
    upstream.change(
        &[
            ("skills/alpha/.DS_Store", "Bud1 Finder"),
            ("skills/alpha/ref/Thumbs.db", "thumbs"),
            ("skills/alpha/._SKILL.md", "AppleDouble"),
        ],
        "metadata committed",
    );
    let team = Machine::new();
    run_skills(
        &program,
        &team.repo,
        &team.home,
        &["add", &upstream.url, "--skill", "alpha", "--yes"],
    );
    let installed = team.repo.join(".agents/skills/alpha");
    assert!(installed.join(".DS_Store").is_file(), "the CLI installs it");
    team.run_expecting(&["verify"], 0);
    let lock = fs::read_to_string(team.repo.join("skills-lock.json")).unwrap();
    let clone = Machine::new();
    fs::write(clone.repo.join("skills-lock.json"), &lock).unwrap();
    let report = json(&clone.run_expecting(&["sync", "--json"], 0));
    assert_eq!(skill(&report, "alpha")["state"], "installed", "{report:#}");
    clone.run_expecting(&["verify"], 0);
    let theirs = snapshot(&installed);
    let ours = snapshot(&clone.repo.join(".agents/skills/alpha"));
    for path in [".DS_Store", "ref/Thumbs.db", "._SKILL.md"] {
        assert_eq!(theirs.get(path), ours.get(path), "{path}");
        assert!(ours.contains_key(path), "{path} not synced: {ours:?}");
    }
    // skilldeck's import of the same skill, then `lock`: the CLI's hash.
    let imported = Machine::new();
    let to = imported.repo.join(".agents/skills");
    imported.run_expecting(
        &[
            "import",
            &upstream.url,
            "--skill",
            "alpha",
            "--to",
            to.to_str().unwrap(),
        ],
        0,
    );
    imported.run_expecting(&["lock"], 0);
    let hash = |text: &str| -> Value {
        serde_json::from_str::<Value>(text).unwrap()["skills"]["alpha"]["computedHash"].clone()
    };
    let written = fs::read_to_string(imported.repo.join("skills-lock.json")).unwrap();
    assert_eq!(hash(&written), hash(&lock), "{written}\n{lock}");
}
