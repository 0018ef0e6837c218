//! `skilldeck sync [--frozen]`: a project's locked skills installed from their sources, served
//! here over loopback HTTP by git's own `http-backend` (`common::http`), at the locked commit or
//! the one a search of the ref's history finds; byte for byte what the project had, nothing
//! written by `--frozen` unless all match, hostile locks refused, and undone by `undo`.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use skilldeck::lock::{Locked, SkillsLock};

use crate::common::git::{commit, repository};
use crate::common::http::GitServer;
use crate::common::{Machine, snapshot, write_files, write_skill};

pub fn skill_md(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\n# {name}\n{body}\n")
}

/// An upstream repository of two skills, served over loopback HTTP.
pub struct Upstream {
    pub server: GitServer,
    pub work: PathBuf,
    pub url: String,
    pub head: String,
}

impl Upstream {
    pub fn new(machine: &Machine) -> Self {
        let work = machine.root().join("upstream-work");
        let alpha = skill_md("alpha", "Alpha's steps.");
        let beta = skill_md("beta", "Beta's steps.");
        let head = repository(
            &work,
            &[
                ("skills/alpha/SKILL.md", alpha.as_str()),
                ("skills/alpha/scripts/run.sh", "echo alpha\n"),
                ("skills/beta/SKILL.md", beta.as_str()),
                ("README.md", "Two skills.\n"),
            ],
        );
        let server = GitServer::serve(&machine.root().join("served"));
        let url = server.publish(&work, "skills.git");
        Self {
            server,
            work,
            url,
            head,
        }
    }

    /// Commit `files` upstream and publish it; the new commit.
    pub fn change(&self, files: &[(&str, &str)], message: &str) -> String {
        write_files(&self.work, files);
        let head = commit(&self.work, message);
        self.server.publish(&self.work, "skills.git");
        head
    }
}

/// The project of `machine` with both upstream skills imported into `.agents/skills` and a
/// team skill committed under `.claude/skills`, then locked.
pub fn locked_project(machine: &Machine, upstream: &Upstream) -> String {
    let to = machine.repo.join(".agents/skills");
    machine.run_expecting(&["import", &upstream.url, "--to", to.to_str().unwrap()], 0);
    write_skill(
        &machine.repo.join(".claude/skills/team-notes"),
        &[("notes.md", "n\n")],
    );
    machine.run_expecting(&["lock"], 0);
    fs::read_to_string(machine.repo.join("skills-lock.json")).unwrap()
}

/// A fresh clone of `from`'s project on another machine: only what a repository holds (the
/// lock and the team's committed skill), none of the installed skills.
pub fn fresh_clone(from: &Machine) -> Machine {
    let clone = Machine::new();
    fs::copy(
        from.repo.join("skills-lock.json"),
        clone.repo.join("skills-lock.json"),
    )
    .unwrap();
    crate::common::copy_tree(
        &from.repo.join(".claude/skills"),
        &clone.repo.join(".claude/skills"),
    );
    clone
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn json(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(output), stderr(output)))
}

fn state<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("{name} not in {report:#}"))
}

/// Write the lock `edit` makes of the one at `path`, through skilldeck's own reader and writer
/// (so the file stays in the skills CLI's format).
pub fn edit_lock(path: &Path, edit: impl Fn(&str, Locked) -> Locked) {
    let text = fs::read(path).unwrap();
    let mut lock = SkillsLock::parse(&text, path).unwrap();
    for (name, entry) in lock.skills.iter_mut() {
        let locked = edit(name, entry.locked());
        *entry = entry.updated(&locked);
    }
    fs::write(path, lock.render()).unwrap();
}

#[test]
fn sync_installs_locked_skills_byte_for_byte_and_undo_takes_them_back() {
    let machine = Machine::new();
    let upstream = Upstream::new(&machine);
    locked_project(&machine, &upstream);
    let skills = machine.repo.join(".agents/skills");
    let before = snapshot(&skills);
    // Everything matches: nothing to do.
    let output = machine.run_expecting(&["sync", "--json"], 0);
    let report = json(&output);
    for name in ["alpha", "beta", "team-notes"] {
        assert_eq!(state(&report, name)["state"], "matching", "{report:#}");
    }
    assert_eq!(snapshot(&skills), before);
    // alpha gone, beta edited: alpha installed, beta replaced, both as the lock has them.
    fs::remove_dir_all(skills.join("alpha")).unwrap();
    write_files(&skills.join("beta"), &[("SKILL.md", "edited\n")]);
    let edited = snapshot(&skills.join("beta"));
    let output = machine.run_expecting(&["sync"], 0);
    let said = stdout(&output);
    assert!(
        said.contains(&format!(
            "alpha: installed .agents/skills/alpha at {}",
            &upstream.head[..12]
        )),
        "{said}"
    );
    assert!(
        said.contains("beta: replaced .agents/skills/beta"),
        "{said}"
    );
    assert!(
        said.contains("team-notes: matching .claude/skills/team-notes"),
        "{said}"
    );
    assert_eq!(snapshot(&skills), before);
    machine.run_expecting(&["verify"], 0);
    // One undo puts back what the one sync changed.
    machine.run_expecting(&["undo"], 0);
    assert!(!skills.join("alpha").exists());
    assert_eq!(snapshot(&skills.join("beta")), edited);
}

#[test]
fn sync_frozen_on_a_fresh_clone_reproduces_the_projects_skills_byte_for_byte() {
    let machine = Machine::new();
    let upstream = Upstream::new(&machine);
    let lock = locked_project(&machine, &upstream);
    let clone = fresh_clone(&machine);
    let output = clone.run_expecting(&["sync", "--frozen", "--json"], 0);
    let report = json(&output);
    assert_eq!(report["clean"], true, "{report:#}");
    assert_eq!(report["lock_written"], false);
    assert_eq!(state(&report, "alpha")["commit"], upstream.head.as_str());
    assert_eq!(state(&report, "team-notes")["state"], "matching");
    for dir in [".agents/skills", ".claude/skills"] {
        assert_eq!(
            snapshot(&clone.repo.join(dir)),
            snapshot(&machine.repo.join(dir)),
            "{dir}"
        );
    }
    assert_eq!(
        fs::read_to_string(clone.repo.join("skills-lock.json")).unwrap(),
        lock
    );
    clone.run_expecting(&["verify"], 0);
    // Again: everything matches, nothing fetched or written.
    let again = json(&clone.run_expecting(&["sync", "--frozen", "--json"], 0));
    assert_eq!(state(&again, "alpha")["state"], "matching");
}

#[test]
fn sync_frozen_with_an_edited_upstream_names_the_skill_and_writes_nothing() {
    let machine = Machine::new();
    let upstream = Upstream::new(&machine);
    locked_project(&machine, &upstream);
    let edited = upstream.change(
        &[(
            "skills/alpha/SKILL.md",
            &skill_md("alpha", "Edited upstream."),
        )],
        "edit alpha",
    );
    let clone = fresh_clone(&machine);
    let lock_path = clone.repo.join("skills-lock.json");
    // The lock says alpha is at the edited commit, with the hash of what it had before.
    edit_lock(&lock_path, |name, locked| match name {
        "alpha" => Locked {
            commit: Some(edited.clone()),
            ..locked
        },
        _ => locked,
    });
    let lock_before = fs::read(&lock_path).unwrap();
    let output = clone.run_expecting(&["sync", "--frozen"], 1);
    let said = stderr(&output);
    assert!(
        said.contains(&format!("alpha: its files at commit {edited} hash to")),
        "{said}"
    );
    assert!(said.contains("nothing was written"), "{said}");
    // beta matched, and was not installed either.
    assert!(!clone.repo.join(".agents").exists());
    assert_eq!(fs::read(&lock_path).unwrap(), lock_before);
    let report = json(&clone.run_expecting(&["sync", "--frozen", "--json"], 1));
    assert_eq!(state(&report, "alpha")["state"], "refused");
    assert_eq!(state(&report, "beta")["state"], "would_change");
    // An installed folder that differs from the lock is a mismatch too.
    let other = fresh_clone(&machine);
    write_skill(
        &other.repo.join(".agents/skills/beta"),
        &[("extra.md", "x")],
    );
    let output = other.run_expecting(&["sync", "--frozen"], 1);
    let said = stderr(&output);
    assert!(
        said.contains("beta: the installed folder") && said.contains("differs from the lock"),
        "{said}"
    );
    assert!(!other.repo.join(".agents/skills/alpha").exists());
}

#[test]
fn a_lock_without_commits_is_synced_after_the_upstream_moved_on() {
    let machine = Machine::new();
    let upstream = Upstream::new(&machine);
    locked_project(&machine, &upstream);
    let installed = snapshot(&machine.repo.join(".agents/skills/alpha"));
    // As the skills CLI writes it: a ref, no commit.
    let clone = fresh_clone(&machine);
    let lock_path = clone.repo.join("skills-lock.json");
    edit_lock(&lock_path, |_, locked| Locked {
        commit: None,
        reference: locked.reference.or(Some("main".into())),
        ..locked
    });
    assert!(
        !fs::read_to_string(&lock_path)
            .unwrap()
            .contains("\"commit\"")
    );
    // Upstream moves on: alpha edited twice, beta once, the README too.
    upstream.change(&[("README.md", "More.\n")], "readme");
    upstream.change(
        &[("skills/alpha/SKILL.md", &skill_md("alpha", "Second."))],
        "alpha 2",
    );
    upstream.change(
        &[("skills/beta/SKILL.md", &skill_md("beta", "Second."))],
        "beta 2",
    );
    upstream.change(
        &[("skills/alpha/SKILL.md", &skill_md("alpha", "Third."))],
        "alpha 3",
    );
    // --frozen finds the commits and installs, but leaves the lock as it is.
    let frozen = clone.run_expecting(&["sync", "--frozen", "--json"], 0);
    let report = json(&frozen);
    assert_eq!(state(&report, "alpha")["found"], true, "{report:#}");
    assert_eq!(state(&report, "alpha")["commit"], upstream.head.as_str());
    assert!(
        !fs::read_to_string(&lock_path)
            .unwrap()
            .contains("\"commit\"")
    );
    assert_eq!(
        snapshot(&clone.repo.join(".agents/skills/alpha")),
        installed
    );
    // Without it, the commits found are written into the lock.
    fs::remove_dir_all(clone.repo.join(".agents")).unwrap();
    let output = clone.run_expecting(&["sync"], 0);
    let said = stdout(&output);
    assert!(said.contains("found in the source's history"), "{said}");
    assert!(
        said.contains("commits found written into the lock"),
        "{said}"
    );
    let lock: Value = serde_json::from_slice(&fs::read(&lock_path).unwrap()).unwrap();
    assert_eq!(lock["skills"]["alpha"]["commit"], upstream.head.as_str());
    assert_eq!(lock["skills"]["beta"]["commit"], upstream.head.as_str());
    assert_eq!(
        snapshot(&clone.repo.join(".agents/skills/alpha")),
        installed
    );
    // The undo takes the skills and the lock's commits back.
    let undone = clone.run_expecting(&["undo"], 0);
    assert!(!clone.repo.join(".agents/skills/alpha").exists());
    let lock = fs::read_to_string(&lock_path).unwrap();
    assert!(
        !lock.contains("\"commit\""),
        "{lock}\n{}{}",
        stdout(&undone),
        stderr(&undone)
    );
}

#[test]
fn a_lock_whose_content_is_nowhere_in_the_history_is_refused_by_name() {
    let machine = Machine::new();
    let upstream = Upstream::new(&machine);
    locked_project(&machine, &upstream);
    let clone = fresh_clone(&machine);
    edit_lock(
        &clone.repo.join("skills-lock.json"),
        |name, locked| match name {
            "alpha" => Locked {
                commit: None,
                computed_hash: "ab".repeat(32),
                ..locked
            },
            _ => locked,
        },
    );
    let output = clone.run_expecting(&["sync"], 1);
    let said = stderr(&output);
    assert!(
        said.contains("alpha: no commit of") && said.contains("skills/alpha"),
        "{said}"
    );
    // Without --frozen the others are installed.
    assert!(clone.repo.join(".agents/skills/beta/SKILL.md").is_file());
    assert!(!clone.repo.join(".agents/skills/alpha").exists());
}

#[test]
fn an_unreachable_source_is_named() {
    let machine = Machine::new();
    let upstream = Upstream::new(&machine);
    locked_project(&machine, &upstream);
    let clone = fresh_clone(&machine);
    let gone = upstream.url.replace("skills.git", "gone.git");
    edit_lock(
        &clone.repo.join("skills-lock.json"),
        |name, locked| match name {
            "beta" => Locked {
                source: gone.clone(),
                source_url: Some(gone.clone()),
                ..locked
            },
            _ => locked,
        },
    );
    let output = clone
        .command(&["sync", "--frozen"])
        .env("SKILLDECK_GIT_TIMEOUT", "20")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let said = stderr(&output);
    assert!(
        said.contains("beta: its source could not be reached"),
        "{said}"
    );
    assert!(!clone.repo.join(".agents").exists());
}
