//! Git sources: `skilldeck import REPOSITORY[@REF] [--path SUB]` fetches with the user's own
//! git, shallow, into a temporary folder, judges the bundle as any other, and records where
//! each skill came from. Repositories are built here (`git init`, commits, tags, branches in
//! temporary folders) and served over a loopback smart-HTTP server (`git_hostile::server`,
//! `git http-backend` behind a small CGI bridge), never the internet.

#![cfg(unix)]

use std::path::{Path, PathBuf};

use crate::common::git::{commit, git, repository};
use crate::common::{Machine, snapshot, write_files, write_skill};
use crate::import::git_hostile::server::{Play, Server};
use serde_json::Value;
use skilldeck::record::upstream;

fn skill_md(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill, for tests.\n---\n{body}\n")
}

/// The upstream of most tests: `alpha` at `v1` (tagged), then `alpha` changed and `beta`
/// added on `main`, and `gamma` on the branch `feature`.
struct Upstream {
    dir: PathBuf,
    first: String,
    head: String,
    feature: String,
}

fn upstream(root: &Path) -> Upstream {
    let dir = root.join("upstream");
    let first = repository(
        &dir,
        &[
            ("README.md", "skills for tests"),
            ("skills/alpha/SKILL.md", &skill_md("alpha", "one")),
        ],
    );
    git(&dir, &["tag", "v1"]);
    write_files(
        &dir,
        &[
            ("skills/alpha/SKILL.md", &skill_md("alpha", "two")),
            ("skills/beta/SKILL.md", &skill_md("beta", "b")),
        ],
    );
    let head = commit(&dir, "second");
    git(&dir, &["checkout", "--quiet", "-b", "feature"]);
    write_files(&dir, &[("skills/gamma/SKILL.md", &skill_md("gamma", "g"))]);
    let feature = commit(&dir, "feature");
    git(&dir, &["checkout", "--quiet", "main"]);
    Upstream {
        dir,
        first,
        head,
        feature,
    }
}

fn json_of(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "not JSON: {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// `import SOURCE --dry-run --json` and extra arguments, expected to succeed.
fn preview(machine: &Machine, source: &str, extra: &[&str]) -> Value {
    let mut args = vec!["import", source, "--dry-run", "--json"];
    args.extend(extra);
    json_of(&machine.run_expecting(&args, 0))
}

fn names(preview: &Value) -> Vec<String> {
    preview["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect()
}

fn manifest_of(preview: &Value, name: &str) -> usize {
    let skill = preview["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap();
    skill["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "SKILL.md")
        .unwrap()["size"]
        .as_u64()
        .unwrap() as usize
}

/// What a refused import said, after checking nothing on the machine changed.
fn refused(machine: &Machine, args: &[&str], path: Option<&str>) -> Value {
    let before = snapshot(&machine.home);
    let mut command = machine.command(args);
    if let Some(path) = path {
        command.env("PATH", path);
    }
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", json_of(&output));
    assert_eq!(snapshot(&machine.home), before, "nothing is written");
    json_of(&output)["refused"].clone()
}

#[test]
fn a_local_repository_at_its_default_branch_a_tag_a_branch_and_a_commit() {
    let machine = Machine::new();
    let up = upstream(&machine.root());
    let repo = up.dir.to_str().unwrap();

    let at_head = preview(&machine, repo, &[]);
    assert_eq!(names(&at_head), ["alpha", "beta"]);
    assert_eq!(at_head["upstream"]["repository"], repo);
    assert_eq!(at_head["upstream"]["ref"], Value::Null);
    assert_eq!(at_head["upstream"]["commit"], up.head.as_str());
    assert_eq!(at_head["upstream"]["path"], "");
    assert_eq!(at_head["skills"][0]["folder"], "skills");
    // The repository's own `.git` is no part of what was fetched.
    assert_eq!(at_head["set_aside"], serde_json::json!([]));
    // The fetched commit, not the work tree: an uncommitted file is not imported.
    write_files(
        &up.dir,
        &[("skills/draft/SKILL.md", &skill_md("draft", "d"))],
    );
    assert_eq!(names(&preview(&machine, repo, &[])), ["alpha", "beta"]);

    let at_tag = preview(&machine, &format!("{repo}@v1"), &[]);
    assert_eq!(names(&at_tag), ["alpha"]);
    assert_eq!(at_tag["upstream"]["ref"], "v1");
    assert_eq!(at_tag["upstream"]["commit"], up.first.as_str());
    assert_eq!(
        manifest_of(&at_tag, "alpha"),
        skill_md("alpha", "one").len()
    );

    let at_branch = preview(&machine, &format!("{repo}@feature"), &[]);
    assert_eq!(names(&at_branch), ["alpha", "beta", "gamma"]);
    assert_eq!(at_branch["upstream"]["commit"], up.feature.as_str());

    let at_commit = preview(&machine, &format!("{repo}@{}", up.first), &[]);
    assert_eq!(names(&at_commit), ["alpha"]);
    assert_eq!(at_commit["upstream"]["ref"], up.first.as_str());
    assert_eq!(at_commit["upstream"]["commit"], up.first.as_str());
}

#[test]
fn a_folder_of_the_repository_with_path() {
    let machine = Machine::new();
    let up = upstream(&machine.root());
    let repo = up.dir.to_str().unwrap();
    let one = preview(&machine, repo, &["--path", "skills/beta"]);
    assert_eq!(names(&one), ["beta"]);
    assert_eq!(one["upstream"]["path"], "skills/beta");
    let folder = preview(&machine, &format!("{repo}@feature"), &["--path", "skills/"]);
    assert_eq!(names(&folder), ["alpha", "beta", "gamma"]);
    assert_eq!(folder["upstream"]["path"], "skills");

    let said = refused(
        &machine,
        &["import", repo, "--path", "nowhere", "--dry-run", "--json"],
        None,
    );
    assert_eq!(said["code"], "no_such_path", "{said}");
    assert!(
        said["message"].as_str().unwrap().contains(&up.head),
        "{said}"
    );
    let said = refused(
        &machine,
        &[
            "import",
            repo,
            "--path",
            "../upstream",
            "--json",
            "--dry-run",
        ],
        None,
    );
    assert_eq!(said["code"], "no_such_path", "{said}");
}

#[test]
fn a_link_in_the_repository_cannot_lead_the_path_out_of_it() {
    let machine = Machine::new();
    let secret = machine.root().join("secret");
    write_skill(&secret.join("stolen"), &[]);
    let dir = machine.root().join("linking");
    std::fs::create_dir_all(&dir).unwrap();
    git(&dir, &["init", "--quiet"]);
    std::os::unix::fs::symlink(&secret, dir.join("out")).unwrap();
    write_files(&dir, &[("skills/ok/SKILL.md", &skill_md("ok", "x"))]);
    commit(&dir, "links");
    let said = refused(
        &machine,
        &[
            "import",
            dir.to_str().unwrap(),
            "--path",
            "out",
            "--dry-run",
            "--json",
        ],
        None,
    );
    assert_eq!(said["code"], "no_such_path", "{said}");
}

#[test]
fn a_repository_that_fails_to_fetch_a_missing_ref_and_no_git_are_sentences() {
    let machine = Machine::new();
    let up = upstream(&machine.root());
    let repo = up.dir.to_str().unwrap();
    let to = machine.root().join("installed");
    let to_arg = to.to_str().unwrap();

    let gone = machine.root().join("gone");
    let url = format!("file://{}", gone.display());
    let said = refused(&machine, &["import", &url, "--to", to_arg, "--json"], None);
    assert_eq!(said["code"], "fetch_failed", "{said}");
    let message = said["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("git could not fetch {url}: ")),
        "{message}"
    );
    assert!(
        message.contains("does not appear to be a git repository"),
        "{message}"
    );
    assert!(!to.exists());

    let said = refused(
        &machine,
        &[
            "import",
            &format!("{repo}@no-such-ref"),
            "--to",
            to_arg,
            "--json",
        ],
        None,
    );
    assert_eq!(said["code"], "fetch_failed", "{said}");
    assert!(
        said["message"].as_str().unwrap().contains("no-such-ref"),
        "{said}"
    );
    let said = refused(
        &machine,
        &[
            "import",
            &format!("{repo}@{}", &up.first[..8]),
            "--to",
            to_arg,
            "--json",
        ],
        None,
    );
    assert!(
        said["message"]
            .as_str()
            .unwrap()
            .contains("full 40-character id"),
        "{said}"
    );

    let empty = machine.root().join("no-git-here");
    std::fs::create_dir_all(&empty).unwrap();
    let said = refused(
        &machine,
        &["import", repo, "--to", to_arg, "--json"],
        empty.to_str(),
    );
    assert_eq!(said["code"], "git_missing", "{said}");
    assert!(
        said["message"]
            .as_str()
            .unwrap()
            .contains("none was found on PATH"),
        "{said}"
    );
    assert!(!to.exists());

    // In sentences, on stderr.
    let mut command = machine.command(&["import", &url, "--to", to_arg]);
    let output = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("skilldeck: fetching ")
            && stderr.contains("refused (fetch_failed): git could not fetch"),
        "{stderr}"
    );
}

#[test]
fn the_temporary_folder_is_removed_after_a_fetch_and_after_a_refusal() {
    let machine = Machine::new();
    let up = upstream(&machine.root());
    let tmp = machine.root().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let run = |source: &str| {
        machine
            .command(&["import", source, "--dry-run", "--json"])
            .env("TMPDIR", &tmp)
            .output()
            .unwrap()
    };
    assert!(run(up.dir.to_str().unwrap()).status.success());
    // A repository whose bundle is refused: no skill in it.
    let empty = machine.root().join("empty");
    repository(&empty, &[("README.md", "nothing")]);
    let output = run(empty.to_str().unwrap());
    assert_eq!(json_of(&output)["refused"]["code"], "no_skills");
    assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 0);
}

#[test]
fn the_upstream_is_recorded_for_each_skill_and_read_back() {
    let machine = Machine::new();
    let up = upstream(&machine.root());
    let repo = up.dir.to_str().unwrap();
    let to = machine.root().join("installed");
    let output = machine.run_expecting(
        &[
            "import",
            &format!("{repo}@v1"),
            "--to",
            to.to_str().unwrap(),
        ],
        0,
    );
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("fetched commit"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let data = machine.env().data_dir();
    let recorded = upstream::of(&data, &to.join("alpha")).expect("recorded");
    assert_eq!(
        recorded,
        upstream::Upstream {
            repository: repo.to_owned(),
            reference: Some("v1".into()),
            commit: up.first.clone(),
            path: "skills/alpha".into(),
        }
    );
    // Updated from the default branch: the record follows.
    machine.run_expecting(&["import", repo, "--to", to.to_str().unwrap()], 0);
    let recorded = upstream::of(&data, &to.join("beta")).expect("recorded");
    assert_eq!(recorded.commit, up.head);
    assert_eq!(recorded.reference, None);
    assert_eq!(
        upstream::of(&data, &to.join("alpha")).unwrap().commit,
        up.head
    );
    // Replaced from a folder on disk: no longer from the repository.
    let folder = machine.root().join("plain/alpha");
    write_skill(&folder, &[]);
    machine.run_expecting(
        &[
            "import",
            folder.to_str().unwrap(),
            "--to",
            to.to_str().unwrap(),
            "--force",
        ],
        0,
    );
    assert_eq!(upstream::of(&data, &to.join("alpha")), None);
    assert!(upstream::of(&data, &to.join("beta")).is_some());
}

#[test]
fn a_repository_served_over_smart_http() {
    let machine = Machine::new();
    let up = upstream(&machine.root());
    let served = machine.root().join("served");
    std::fs::create_dir_all(&served).unwrap();
    git(
        &served,
        &[
            "clone",
            "--quiet",
            "--bare",
            up.dir.to_str().unwrap(),
            "skills.git",
        ],
    );
    let server = Server::start(&served, Play::Honest);
    let url = server.url("skills.git");

    let at_head = preview(&machine, &url, &[]);
    assert_eq!(names(&at_head), ["alpha", "beta"]);
    assert_eq!(at_head["upstream"]["repository"], url.as_str());
    assert_eq!(at_head["upstream"]["commit"], up.head.as_str());
    let at_tag = preview(&machine, &format!("{url}@v1"), &[]);
    assert_eq!(names(&at_tag), ["alpha"]);
    let at_commit = preview(
        &machine,
        &format!("{url}@{}", up.feature),
        &["--path", "skills/gamma"],
    );
    assert_eq!(names(&at_commit), ["gamma"]);
    assert_eq!(at_commit["upstream"]["path"], "skills/gamma");

    let said = refused(
        &machine,
        &["import", &server.url("missing.git"), "--dry-run", "--json"],
        None,
    );
    assert_eq!(said["code"], "fetch_failed", "{said}");

    let to = machine.root().join("installed");
    machine.run_expecting(
        &[
            "import",
            &format!("{url}@feature"),
            "--to",
            to.to_str().unwrap(),
        ],
        0,
    );
    let recorded = upstream::of(&machine.env().data_dir(), &to.join("gamma")).unwrap();
    assert_eq!(recorded.repository, url);
    assert_eq!(recorded.reference.as_deref(), Some("feature"));
    assert_eq!(recorded.commit, up.feature);
    assert_eq!(recorded.path, "skills/gamma");
}
