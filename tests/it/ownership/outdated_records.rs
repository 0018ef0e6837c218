//! `skilldeck outdated` for skills other installers put there, by what each records: the skills
//! CLI's global lock and gh skill's metadata (the git tree of the skill's folder: a commit
//! elsewhere in the repository is no move), Claude Code's plugin installs (the commit), Codex
//! (only the version: said, not guessed), a record naming no repository (said), and a
//! repository that cannot be asked (a sentence, nothing written). Records are written the way
//! the installers write them (see tests/it/ownership/records.rs); repositories are built here.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::{Value, json};

use crate::common::git::{commit, git, repository};
use crate::common::{Machine, copy_tree, set_modified, snapshot, write_files};

fn skill_md(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill, for tests.\n---\n{body}\n")
}

/// A repository with `skills/greet` and `skills/other`; its folder.
fn upstream(root: &Path) -> PathBuf {
    let dir = root.join("upstream");
    repository(
        &dir,
        &[
            ("skills/greet/SKILL.md", &skill_md("greet", "one")),
            ("skills/other/SKILL.md", &skill_md("other", "one")),
        ],
    );
    dir
}

fn tree(repo: &Path, folder: &str) -> String {
    git(repo, &["rev-parse", &format!("HEAD:{folder}")])
}

/// A long time before now: the install time the records give.
fn installed_at() -> (&'static str, SystemTime) {
    let text = "2026-01-01T00:00:00Z";
    (text, humantime::parse_rfc3339(text).unwrap())
}

fn outdated(machine: &Machine, code: i32) -> Value {
    machine.run_json(&["outdated", "--json"], code)
}

fn at(json: &Value, dir: &Path) -> Value {
    json["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["dir"] == dir.to_str().unwrap())
        .unwrap_or_else(|| panic!("no {} in {json:#}", dir.display()))
        .clone()
}

/// `greet` installed by the skills CLI into `~/.agents/skills` from `repo`, its global lock
/// entry recording the folder's tree; the installed folder.
fn skills_cli_install(machine: &Machine, repo: &Path, source_url: Option<&str>) -> PathBuf {
    let dir = machine.home.join(".agents/skills/greet");
    copy_tree(&repo.join("skills/greet"), &dir);
    let (at, when) = installed_at();
    let mut entry = json!({
        "sourceType": "git",
        "skillPath": "skills/greet/SKILL.md", "skillFolderHash": tree(repo, "skills/greet"),
        "installedAt": at, "updatedAt": at});
    if let Some(url) = source_url {
        entry["source"] = json!(url);
        entry["sourceUrl"] = json!(url);
    }
    let lock = json!({"version": 3, "skills": {"greet": entry}});
    write_files(
        &machine.home,
        &[(".agents/.skill-lock.json", &lock.to_string())],
    );
    set_modified(&dir, when);
    dir
}

#[test]
fn a_skills_cli_skill_moves_with_its_folder_not_the_repository_and_an_edit_is_told() {
    let machine = Machine::new();
    let repo = upstream(&machine.root());
    let dir = skills_cli_install(&machine, &repo, Some(repo.to_str().unwrap()));
    let recorded = tree(&repo, "skills/greet");

    let json = outdated(&machine, 0);
    let greet = at(&json, &dir);
    assert_eq!(greet["record"], "skills-cli", "{json:#}");
    assert_eq!(greet["compares"], "tree");
    assert_eq!(greet["recorded"], recorded.as_str());
    assert_eq!(greet["moved"], false, "{json:#}");
    assert_eq!(greet["edited"], false);
    assert_eq!(greet["edits_known"], true);
    assert_eq!(greet["commit"], Value::Null);
    assert_eq!(greet["path"], "skills/greet");

    // Another skill's commit moves the repository, not this folder.
    write_files(
        &repo,
        &[("skills/other/SKILL.md", &skill_md("other", "two"))],
    );
    commit(&repo, "other");
    assert_eq!(at(&outdated(&machine, 0), &dir)["moved"], false);

    write_files(
        &repo,
        &[("skills/greet/SKILL.md", &skill_md("greet", "two"))],
    );
    commit(&repo, "greet");
    let json = outdated(&machine, 1);
    let greet = at(&json, &dir);
    assert_eq!(greet["moved"], true, "{json:#}");
    assert_eq!(greet["latest"], tree(&repo, "skills/greet").as_str());

    fs::write(dir.join("SKILL.md"), skill_md("greet", "mine")).unwrap();
    let json = outdated(&machine, 1);
    assert_eq!(at(&json, &dir)["edited"], true, "{json:#}");
    let text =
        String::from_utf8_lossy(&machine.run_expecting(&["outdated"], 1).stdout).into_owned();
    assert!(
        text.contains(&format!("moved: tree {} →", &recorded[..12])),
        "{text}"
    );
    assert!(text.contains("skills-cli"), "{text}");
}

#[test]
fn an_unreachable_repository_is_a_sentence_and_nothing_is_written() {
    let machine = Machine::new();
    let repo = upstream(&machine.root());
    let dir = skills_cli_install(&machine, &repo, Some(repo.to_str().unwrap()));
    fs::rename(&repo, machine.root().join("gone")).unwrap();
    let agents = snapshot(&machine.home.join(".agents"));
    let json = outdated(&machine, 1);
    let greet = at(&json, &dir);
    assert_eq!(greet["moved"], Value::Null, "{json:#}");
    assert!(
        greet["error"].as_str().unwrap().contains("git could not"),
        "{json:#}"
    );
    assert_eq!(
        snapshot(&machine.home.join(".agents")),
        agents,
        "neither the skill nor the lock written"
    );
}

#[test]
fn a_record_that_names_no_repository_is_said() {
    let machine = Machine::new();
    let repo = upstream(&machine.root());
    let dir = skills_cli_install(&machine, &repo, None);
    let json = outdated(&machine, 0);
    let greet = at(&json, &dir);
    assert_eq!(greet["compares"], "nothing", "{json:#}");
    assert_eq!(greet["moved"], Value::Null);
    assert!(
        greet["note"]
            .as_str()
            .unwrap()
            .contains("names no repository"),
        "{json:#}"
    );
    let text =
        String::from_utf8_lossy(&machine.run_expecting(&["outdated"], 0).stdout).into_owned();
    assert!(text.contains("cannot tell"), "{text}");
}

/// `review` installed by gh skill from `repo` at `main` (its metadata in the frontmatter, as
/// gh rewrites it; the global lock entry gh writes beside it dates the install).
fn gh_install(machine: &Machine, repo: &Path, pinned: bool) -> PathBuf {
    let dir = machine.home.join(".claude/skills/review");
    let recorded = tree(repo, "skills/greet");
    let pin = if pinned {
        "    github-pinned: main\n"
    } else {
        ""
    };
    let manifest = format!(
        "---\ndescription: Reviews a change.\nmetadata:\n    github-path: skills/greet\n{pin}    github-ref: main\n    github-repo: {}\n    github-tree-sha: {recorded}\nname: review\n---\none\n",
        repo.display()
    );
    write_files(&dir, &[("SKILL.md", &manifest)]);
    let (at, when) = installed_at();
    let lock = json!({"version": 3, "skills": {"review": {
        "source": repo.to_str().unwrap(), "sourceType": "github",
        "skillPath": "skills/greet/SKILL.md", "skillFolderHash": recorded,
        "installedAt": at, "updatedAt": at}}});
    write_files(
        &machine.home,
        &[(".agents/.skill-lock.json", &lock.to_string())],
    );
    set_modified(&dir, when);
    dir
}

#[test]
fn a_gh_skill_skill_compares_its_folders_tree_and_a_pin_never_moves() {
    let machine = Machine::new();
    let repo = upstream(&machine.root());
    let dir = gh_install(&machine, &repo, false);
    let json = outdated(&machine, 0);
    let review = at(&json, &dir);
    assert_eq!(review["record"], "gh-skill", "{json:#}");
    assert_eq!(review["moved"], false, "{json:#}");
    assert_eq!(review["ref"], "main");
    // gh rewrote SKILL.md, so only a change after the install tells an edit.
    assert_eq!(review["edited"], false);

    write_files(
        &repo,
        &[("skills/greet/SKILL.md", &skill_md("greet", "two"))],
    );
    commit(&repo, "greet");
    fs::write(dir.join("notes.md"), "mine\n").unwrap();
    let json = outdated(&machine, 1);
    let review = at(&json, &dir);
    assert_eq!(review["moved"], true, "{json:#}");
    assert_eq!(review["edited"], true, "{json:#}");

    let pinned = gh_install(&machine, &repo, true);
    let json = outdated(&machine, 0);
    let review = at(&json, &pinned);
    assert_eq!(review["pinned"], true, "{json:#}");
    assert_eq!(review["moved"], Value::Null);
}

/// A Claude Code marketplace `mkt` whose source is the repository `repo`, its clone holding
/// plugin `tools` with skill `lint`, installed from the clone's commit; the cached skill.
fn claude_install(machine: &Machine, repo: &Path) -> PathBuf {
    let plugins = machine.home.join(".claude/plugins");
    let clone = plugins.join("marketplaces/mkt");
    git(
        &machine.root(),
        &[
            "clone",
            "--quiet",
            repo.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    let head = git(&clone, &["rev-parse", "HEAD"]);
    let cached = plugins.join("cache/mkt/tools/1.0.0");
    copy_tree(&clone.join("plugins/tools"), &cached);
    let known = json!({"mkt": {"source": {"source": "git", "url": repo.to_str().unwrap()},
        "installLocation": clone.to_str().unwrap(), "lastUpdated": "2026-01-01T00:00:00.000Z"}});
    let installed = json!({"version": 2, "plugins": {"tools@mkt": [{"scope": "user",
        "installPath": cached.to_str().unwrap(), "version": "1.0.0",
        "installedAt": "2026-01-01T00:00:00.000Z", "lastUpdated": "2026-01-01T00:00:00.000Z",
        "gitCommitSha": head}]}});
    write_files(
        &plugins,
        &[
            ("known_marketplaces.json", &known.to_string()),
            ("installed_plugins.json", &installed.to_string()),
        ],
    );
    cached.join("skills/lint")
}

fn marketplace(root: &Path) -> PathBuf {
    let dir = root.join("mkt");
    repository(
        &dir,
        &[
            (
                ".claude-plugin/marketplace.json",
                r#"{"name": "mkt", "plugins": [{"name": "tools", "source": "./plugins/tools", "version": "1.0.0"}]}"#,
            ),
            (
                "plugins/tools/.claude-plugin/plugin.json",
                r#"{"name": "tools", "version": "1.0.0"}"#,
            ),
            (
                "plugins/tools/skills/lint/SKILL.md",
                &skill_md("lint", "one"),
            ),
        ],
    );
    dir
}

#[test]
fn a_claude_plugin_compares_the_marketplaces_commit_and_its_clone_tells_an_edit() {
    let machine = Machine::new();
    let repo = marketplace(&machine.root());
    let lint = claude_install(&machine, &repo);
    let json = outdated(&machine, 0);
    let skill = at(&json, &lint);
    assert_eq!(skill["record"], "claude-plugin", "{json:#}");
    assert_eq!(skill["compares"], "commit");
    assert_eq!(skill["moved"], false, "{json:#}");
    assert_eq!(skill["edited"], false);

    // A commit elsewhere in the marketplace leaves the skill's folder as it was.
    write_files(&repo, &[("README.md", "more\n")]);
    commit(&repo, "more");
    let json = outdated(&machine, 0);
    assert_eq!(at(&json, &lint)["moved"], false, "{json:#}");
    write_files(&repo, &[("plugins/tools/skills/lint/more.md", "more\n")]);
    let head = commit(&repo, "more in lint");
    fs::write(lint.join("SKILL.md"), skill_md("lint", "mine")).unwrap();
    let json = outdated(&machine, 1);
    let skill = at(&json, &lint);
    assert_eq!(skill["moved"], true, "{json:#}");
    assert_eq!(skill["latest"], head.as_str());
    assert_eq!(
        skill["edited"], true,
        "against the marketplace clone: {json:#}"
    );
}

#[test]
fn a_codex_plugin_records_only_its_version_which_is_said() {
    let machine = Machine::new();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agent-records/codex");
    crate::ownership::agents::lay(&from, &machine.root(), &machine.root());
    let greet = machine
        .home
        .join(".codex/plugins/cache/demo-mkt/alpha/1.2.3/skills/greet");
    let json = outdated(&machine, 0);
    let skill = at(&json, &greet);
    assert_eq!(skill["record"], "codex-plugin", "{json:#}");
    assert_eq!(skill["compares"], "nothing");
    assert_eq!(skill["moved"], Value::Null);
    assert_eq!(skill["ref"], Value::Null, "a version is no git ref");
    let note = skill["note"].as_str().unwrap();
    assert!(note.contains("the version it installed (1.2.3)"), "{note}");
}
