//! `skilldeck update SKILL` without `--from`: the new upstream is the repository the skill was
//! imported from, fetched again at the ref it was imported at — a branch's new commit, a moved
//! tag — and merged keeping the local edits; a commit id stays where it is; the recorded
//! commit follows; a repository that cannot be fetched writes nothing; a skill that came from
//! no repository is told to name one. Repositories are built here, never fetched from the
//! internet.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use skilldeck::record::upstream;

use crate::common::git::{commit, git, repository};
use crate::common::{Machine, snapshot, write_files};

fn skill_md(body: &str) -> String {
    format!("---\nname: alpha\ndescription: The alpha skill, for tests.\n---\n{body}\n")
}

const GUIDE: &str = "line one\nline two\nline three\n";

/// A repository with `skills/alpha` (SKILL.md and a guide), tagged `v1`; its folder and commit.
fn upstream(root: &Path) -> (PathBuf, String) {
    let dir = root.join("upstream");
    let first = repository(
        &dir,
        &[
            ("skills/alpha/SKILL.md", &skill_md("first")),
            ("skills/alpha/guide.md", GUIDE),
        ],
    );
    git(&dir, &["tag", "v1"]);
    (dir, first)
}

/// Upstream changes SKILL.md's body to `body`; the new commit.
fn change_upstream(dir: &Path, body: &str) -> String {
    write_files(dir, &[("skills/alpha/SKILL.md", &skill_md(body))]);
    commit(dir, body)
}

/// Claude Code's user skills folder, where the scan finds what is installed.
fn skills(machine: &Machine) -> PathBuf {
    machine.home.join(".claude/skills")
}

fn import(machine: &Machine, source: &str, to: &Path) {
    machine.run_expecting(&["import", source, "--to", to.to_str().unwrap()], 0);
}

fn update_json(machine: &Machine, code: i32) -> Value {
    machine.run_json(&["update", "alpha", "--json"], code)
}

fn recorded_commit(machine: &Machine, dir: &Path) -> String {
    upstream::of(&machine.env().data_dir(), dir)
        .expect("an upstream is recorded")
        .commit
}

#[test]
fn a_new_commit_on_the_branch_is_merged_with_the_local_edit_and_recorded() {
    let machine = Machine::new();
    let (repo, _) = upstream(&machine.root());
    let to = skills(&machine);
    import(&machine, repo.to_str().unwrap(), &to);
    let skill = to.join("alpha");
    fs::write(
        skill.join("guide.md"),
        "line one\nline two, mine\nline three\n",
    )
    .unwrap();
    let head = change_upstream(&repo, "second");
    let json = update_json(&machine, 0);
    assert_eq!(json["skills"][0]["status"], "updated", "{json:#}");
    let manifest = fs::read_to_string(skill.join("SKILL.md")).unwrap();
    assert!(manifest.contains("second"), "{manifest}");
    assert_eq!(
        fs::read_to_string(skill.join("guide.md")).unwrap(),
        "line one\nline two, mine\nline three\n",
        "the local edit is kept"
    );
    assert_eq!(recorded_commit(&machine, &skill), head);
    // Nothing new upstream: up to date, and nothing written.
    let before = snapshot(&skill);
    let json = update_json(&machine, 0);
    assert_eq!(json["skills"][0]["status"], "up_to_date", "{json:#}");
    assert_eq!(snapshot(&skill), before);
}

#[test]
fn a_moved_tag_is_followed_and_a_commit_id_stays_where_it_is() {
    let machine = Machine::new();
    let (repo, first) = upstream(&machine.root());
    let source = repo.to_str().unwrap();
    let tagged = skills(&machine);
    import(&machine, &format!("{source}@v1"), &tagged);
    let moved = change_upstream(&repo, "retagged");
    git(&repo, &["tag", "-f", "v1"]);
    let json = update_json(&machine, 0);
    assert_eq!(json["skills"][0]["status"], "updated", "{json:#}");
    let manifest = fs::read_to_string(tagged.join("alpha/SKILL.md")).unwrap();
    assert!(manifest.contains("retagged"), "{manifest}");
    assert_eq!(recorded_commit(&machine, &tagged.join("alpha")), moved);

    let other = Machine::new();
    let pinned = skills(&other);
    import(&other, &format!("{source}@{first}"), &pinned);
    change_upstream(&repo, "later");
    let before = snapshot(&pinned);
    let json = update_json(&other, 0);
    assert_eq!(json["skills"][0]["status"], "up_to_date", "{json:#}");
    assert_eq!(snapshot(&pinned), before, "a commit id does not move");
    assert_eq!(recorded_commit(&other, &pinned.join("alpha")), first);
}

#[test]
fn a_repository_that_cannot_be_fetched_writes_nothing_and_says_so() {
    let machine = Machine::new();
    let (repo, _) = upstream(&machine.root());
    let to = skills(&machine);
    import(&machine, repo.to_str().unwrap(), &to);
    fs::rename(&repo, machine.root().join("gone")).unwrap();
    let before = snapshot(&machine.home);
    let output = machine.run_expecting(&["update", "alpha"], 1);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("skilldeck:") && said.contains("git"),
        "{said}"
    );
    assert_eq!(snapshot(&machine.home), before, "nothing is written");
}

#[test]
fn a_skill_from_no_repository_is_told_to_name_its_upstream() {
    let machine = Machine::new();
    let folder = machine.root().join("plain/alpha");
    write_files(&folder, &[("SKILL.md", &skill_md("plain"))]);
    let to = skills(&machine);
    import(&machine, folder.to_str().unwrap(), &to);
    let json = update_json(&machine, 1);
    assert_eq!(json["refused"]["code"], "no_upstream", "{json:#}");
    let output = machine.run_expecting(&["update", "alpha"], 1);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("--from SOURCE"), "{said}");
}

#[test]
fn from_a_repository_given_with_a_ref_and_a_path() {
    let machine = Machine::new();
    let (repo, _) = upstream(&machine.root());
    let folder = machine.root().join("plain/alpha");
    write_files(
        &folder,
        &[("SKILL.md", &skill_md("first")), ("guide.md", GUIDE)],
    );
    let to = skills(&machine);
    import(&machine, folder.to_str().unwrap(), &to);
    let head = change_upstream(&repo, "from git");
    let from = format!("{}@main", repo.display());
    let output = machine.run_expecting(
        &["update", "alpha", "--from", &from, "--path", "skills/alpha"],
        0,
    );
    assert!(
        fs::read_to_string(to.join("alpha/SKILL.md"))
            .unwrap()
            .contains("from git"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        recorded_commit(&machine, &to.join("alpha")),
        head,
        "from now on the repository is its upstream"
    );
}
