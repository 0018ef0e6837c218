//! `skilldeck outdated`: for each skill imported from a git repository, whether the ref it was
//! imported at has moved (asked with `git ls-remote`), whether the local copy was edited, a
//! commit id pinned, a repository that cannot be asked said so, and `--offline` showing the
//! last answers with their time without asking. Repositories are built here.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::git::{commit, git, repository};
use crate::common::{Machine, listed, write_files};

fn skill_md(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill, for tests.\n---\n{body}\n")
}

/// `skills/alpha` and `skills/beta`, tagged `v1` (an annotated tag); folder and commit.
fn upstream(root: &Path) -> (PathBuf, String) {
    let dir = root.join("upstream");
    let first = repository(
        &dir,
        &[
            ("skills/alpha/SKILL.md", &skill_md("alpha", "one")),
            ("skills/beta/SKILL.md", &skill_md("beta", "one")),
        ],
    );
    git(&dir, &["tag", "-a", "v1", "-m", "first"]);
    (dir, first)
}

fn outdated(machine: &Machine, args: &[&str], code: i32) -> Value {
    let mut all = vec!["outdated", "--json"];
    all.extend(args);
    machine.run_json(&all, code)
}

#[test]
fn a_new_commit_and_a_local_edit_are_told_apart_skill_by_skill() {
    let machine = Machine::new();
    let (repo, first) = upstream(&machine.root());
    let skills = machine.home.join(".claude/skills");
    machine.import_to(&repo, &skills);
    let json = outdated(&machine, &[], 0);
    assert_eq!(listed(&json, "alpha")["moved"], false, "{json:#}");
    assert_eq!(listed(&json, "alpha")["commit"], first.as_str());
    assert_eq!(listed(&json, "alpha")["edited"], false);
    let manifest = skills.join("beta/SKILL.md");
    let edited = fs::read_to_string(&manifest).unwrap() + "mine\n";
    fs::write(&manifest, edited).unwrap();
    write_files(
        &repo,
        &[("skills/alpha/SKILL.md", &skill_md("alpha", "two"))],
    );
    let head = commit(&repo, "second");
    let json = outdated(&machine, &[], 1);
    let alpha = listed(&json, "alpha");
    assert_eq!(alpha["moved"], true, "{json:#}");
    assert_eq!(alpha["latest"], head.as_str());
    assert_eq!(alpha["edited"], false);
    let beta = listed(&json, "beta");
    assert_eq!(beta["edited"], true, "{json:#}");
    // One repository, one question: both skills are answered with the same commit.
    assert_eq!(beta["latest"], head.as_str());
    let text =
        String::from_utf8_lossy(&machine.run_expecting(&["outdated"], 1).stdout).into_owned();
    assert!(
        text.contains(&format!("moved: {} → {}", &first[..12], &head[..12])),
        "{text}"
    );
}

#[test]
fn an_annotated_tag_is_read_as_its_commit_and_a_commit_id_is_pinned() {
    let machine = Machine::new();
    let (repo, first) = upstream(&machine.root());
    let source = repo.to_str().unwrap();
    let tagged = machine.home.join(".claude/skills");
    machine.run_expecting(
        &[
            "import",
            &format!("{source}@v1"),
            "--to",
            tagged.to_str().unwrap(),
            "--skill",
            "alpha",
        ],
        0,
    );
    let pinned = machine.home.join(".agents/skills");
    machine.run_expecting(
        &[
            "import",
            &format!("{source}@{first}"),
            "--to",
            pinned.to_str().unwrap(),
            "--skill",
            "beta",
        ],
        0,
    );
    let json = outdated(&machine, &[], 0);
    assert_eq!(
        listed(&json, "alpha")["moved"],
        false,
        "the tag's commit, not its object: {json:#}"
    );
    assert_eq!(listed(&json, "beta")["pinned"], true);
    assert_eq!(listed(&json, "beta")["moved"], Value::Null);
    write_files(
        &repo,
        &[("skills/alpha/SKILL.md", &skill_md("alpha", "re"))],
    );
    commit(&repo, "retag");
    git(&repo, &["tag", "-f", "-a", "v1", "-m", "moved"]);
    let json = outdated(&machine, &[], 1);
    assert_eq!(listed(&json, "alpha")["moved"], true, "{json:#}");
    assert_eq!(listed(&json, "beta")["pinned"], true);
}

#[test]
fn a_repository_that_cannot_be_asked_is_said_and_offline_shows_the_last_answers() {
    let machine = Machine::new();
    let output = machine.run_expecting(&["outdated", "--offline"], 1);
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("no answers are kept yet"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let (repo, _) = upstream(&machine.root());
    let skills = machine.home.join(".claude/skills");
    machine.import_to(&repo, &skills);
    let asked = outdated(&machine, &[], 0);
    fs::rename(&repo, machine.root().join("gone")).unwrap();
    let offline = outdated(&machine, &["--offline"], 0);
    assert_eq!(
        offline, asked,
        "the answers kept, with their time, and nobody asked"
    );
    let json = outdated(&machine, &[], 1);
    let alpha = listed(&json, "alpha");
    assert_eq!(alpha["moved"], Value::Null, "{json:#}");
    assert!(
        alpha["error"].as_str().unwrap().contains("git could not"),
        "{json:#}"
    );
}

#[test]
fn with_no_skill_from_a_repository_it_says_how_to_get_one() {
    let machine = Machine::new();
    let output = machine.run_expecting(&["outdated"], 0);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("skilldeck import OWNER/REPO"), "{text}");
}

#[test]
fn a_skill_updated_since_the_check_is_not_shown_behind_offline() {
    let machine = Machine::new();
    let (repo, _) = upstream(&machine.root());
    let skills = machine.home.join(".claude/skills");
    machine.import_to(&repo, &skills);
    write_files(
        &repo,
        &[("skills/alpha/SKILL.md", &skill_md("alpha", "two"))],
    );
    let head = commit(&repo, "second");
    let json = outdated(&machine, &[], 1);
    assert_eq!(listed(&json, "alpha")["moved"], true, "{json:#}");
    machine.run_expecting(&["update", "alpha"], 0);
    // The kept answers are read against where alpha is recorded now: at the head they named;
    // beta, from the same repository and not updated, is behind that commit, but its own
    // folder did not change.
    let json = outdated(&machine, &["--offline"], 0);
    let alpha = listed(&json, "alpha");
    assert_eq!(alpha["commit"], head.as_str(), "{json:#}");
    assert_eq!(alpha["moved"], false, "{json:#}");
    assert_eq!(listed(&json, "beta")["moved"], false, "{json:#}");
    assert_eq!(listed(&json, "beta")["folder_same"], true, "{json:#}");
}

/// A commit that changes one skill's folder moves that skill only: each skill is compared by
/// its own folder's tree at the commit recorded and at the new one, so a change elsewhere in
/// the repository (another skill, a README) leaves it up to date.
#[test]
fn only_the_skill_whose_folder_changed_is_moved() {
    let machine = Machine::new();
    let (repo, _) = upstream(&machine.root());
    let skills = machine.home.join(".claude/skills");
    machine.import_to(&repo, &skills);

    write_files(&repo, &[("README.md", "about these skills\n")]);
    let readme = commit(&repo, "a README");
    let json = outdated(&machine, &[], 0);
    for name in ["alpha", "beta"] {
        let checked = listed(&json, name);
        assert_eq!(checked["moved"], false, "{json:#}");
        assert_eq!(checked["folder_same"], true, "{json:#}");
        assert_eq!(checked["latest"], readme.as_str());
    }

    write_files(
        &repo,
        &[("skills/alpha/SKILL.md", &skill_md("alpha", "two"))],
    );
    commit(&repo, "alpha changes");
    let json = outdated(&machine, &[], 1);
    assert_eq!(listed(&json, "alpha")["moved"], true, "{json:#}");
    assert_eq!(listed(&json, "beta")["moved"], false, "{json:#}");
    let text =
        String::from_utf8_lossy(&machine.run_expecting(&["outdated"], 1).stdout).into_owned();
    let beta = text.lines().find(|l| l.starts_with("beta")).unwrap();
    assert!(
        beta.contains("up to date (its folder is unchanged)"),
        "{text}"
    );
}
