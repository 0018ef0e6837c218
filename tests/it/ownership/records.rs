//! Ownership across installers: fixture machines holding the records of the `skills` CLI (a
//! real install, committed under tests/fixtures/skills-cli), gh skill, Claude Code's plugin
//! manager, SkillKit, OpenSkills and SkillPort, written from their documented formats (old
//! versions and corrupt files included). `list --json` must name each skill's installer,
//! upstream and state, and an edit must flip `intact` to `modified` wherever the record carries
//! a content hash.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
#[cfg(unix)]
use std::time::SystemTime;

#[cfg(unix)]
use crate::common::symlink;
use crate::common::{Machine, copy_tree, hex, set_modified, write_files, write_skill};
use serde_json::{Value, json};
use sha1::Sha1;
use sha2::{Digest, Sha256};

#[cfg(unix)]
fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The listed skill at `dir`.
fn at(listing: &Value, dir: &Path) -> Value {
    listing["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["dir"] == dir.to_str().unwrap())
        .unwrap_or_else(|| panic!("{} is not listed: {listing:#}", dir.display()))
        .clone()
}

fn problems(listing: &Value) -> String {
    listing["problems"].to_string()
}

/// A version 3 global lock of the skills CLI with these entries, as the CLI and gh skill write it.
fn write_global_lock(machine: &Machine, skills: Value) {
    let lock = json!({"version": 3, "skills": skills});
    write_files(
        &machine.home,
        &[(".agents/.skill-lock.json", &lock.to_string())],
    );
}

/// A day before the skills CLI fixture's install, for files that must predate it.
#[cfg(unix)]
fn before_install() -> SystemTime {
    humantime::parse_rfc3339("2026-11-28T16:16:12Z").unwrap()
}

/// The skills the skills CLI fixture installed, each linked from Claude Code's folder to the
/// copy in `.agents/skills`, in the home and in the project.
#[cfg(unix)]
const SKILLS_CLI_LINKED: &[&str] = &["greet", "tidy"];

/// The real skills CLI install, laid on a machine: its home as the machine's home, its project
/// as the repository, and the source folder beside the repository where the lock says it is.
/// The CLI's links are made again as it made them: a published crate holds no links (cargo
/// packs one as a copy of what it points to), so the fixture does not commit them.
/// The committed install, with the links the skills CLI made (Unix links here).
#[cfg(unix)]
fn skills_cli_machine() -> Machine {
    let machine = Machine::new();
    let from = fixture("skills-cli");
    copy_tree(&from.join("home"), &machine.home);
    copy_tree(&from.join("project"), &machine.repo);
    for base in [&machine.home, &machine.repo] {
        for name in SKILLS_CLI_LINKED {
            symlink(
                &Path::new("../../.agents/skills").join(name),
                &base.join(".claude/skills").join(name),
            );
        }
    }
    copy_tree(
        &from.join("demo-skills"),
        &machine.root().join("work/demo-skills"),
    );
    // A checkout or copy gives every file today's time; the install was recorded earlier.
    set_modified(&machine.home.join(".agents/skills"), before_install());
    machine
}

#[cfg(unix)]
#[test]
fn a_real_skills_cli_install_is_recognised_and_verified() {
    let machine = skills_cli_machine();
    let listing = machine.list_json();
    let global = machine.home.join(".agents/skills");
    let project = machine.repo.join(".agents/skills");

    let greet = at(&listing, &global.join("greet"));
    assert_eq!(greet["state"], "intact", "{greet:#}");
    let record = &greet["record"];
    assert_eq!(record["installer"], "skills-cli");
    assert_eq!(
        record["recorded_in"],
        machine
            .home
            .join(".agents/.skill-lock.json")
            .to_str()
            .unwrap()
    );
    assert_eq!(
        record["hash"],
        "4a797f1fbd4982503fec7b1a51faba8b178364622c848d39e5ad92036b7cceb3"
    );
    assert_eq!(record["verified_by"], "skills-cli-folder-hash");
    assert_eq!(
        record["upstream"],
        json!({"repository": "http://127.0.0.1:8765/fixture/demo-skills.git",
               "ref": null, "path": "skills/greet", "commit": null})
    );
    assert!(record.get("installed_by").is_none(), "{record}");
    // Reached through ~/.claude/skills too: one skill, both agents.
    assert!(
        greet["agents"]
            .as_array()
            .unwrap()
            .contains(&json!("claude-code"))
    );

    // The CLI hashed tidy's metadata.json and did not copy it: not drift, and said why.
    let tidy = at(&listing, &global.join("tidy"));
    assert_eq!(tidy["state"], "unverifiable", "{tidy:#}");
    let note = tidy["record"]["note"].as_str().unwrap();
    assert!(note.contains("metadata.json"), "{note}");
    assert!(
        note.contains("nothing in it changed after the install"),
        "{note}"
    );

    // In the project the source folder is still there: tidy is checked against it.
    let greet = at(&listing, &project.join("greet"));
    assert_eq!(greet["state"], "intact", "{greet:#}");
    assert_eq!(greet["record"]["upstream"]["repository"], "../demo-skills");
    assert_eq!(
        greet["record"]["recorded_in"],
        machine.repo.join("skills-lock.json").to_str().unwrap()
    );
    let tidy = at(&listing, &project.join("tidy"));
    assert_eq!(tidy["state"], "intact", "{tidy:#}");
    assert_eq!(tidy["record"]["verified_by"], "source-folder");
    let source = machine.root().join("work/demo-skills/skills/tidy");
    assert_eq!(tidy["record"]["pristine"], source.to_str().unwrap());
    assert_eq!(problems(&listing), "[]");
    assert_eq!(machine.run(&["check"]).status.code(), Some(0));
}

#[cfg(unix)]
#[test]
fn editing_a_skills_cli_install_flips_it_to_modified() {
    let machine = skills_cli_machine();
    let global = machine.home.join(".agents/skills");
    let project = machine.repo.join(".agents/skills");
    fs::write(
        global.join("greet/references/Usage.md"),
        "# Usage\n\nSay hi.\n",
    )
    .unwrap();
    fs::write(global.join("tidy/extra.md"), "added\n").unwrap();
    fs::write(project.join("greet/scripts/hello.sh"), "echo changed\n").unwrap();
    let listing = machine.list_json();

    let greet = at(&listing, &global.join("greet"));
    assert_eq!(greet["state"], "modified", "{greet:#}");
    let tidy = at(&listing, &global.join("tidy"));
    assert_eq!(tidy["state"], "modified", "{tidy:#}");
    assert_eq!(tidy["record"]["verified_by"], "changed-since-install");
    let greet = at(&listing, &project.join("greet"));
    assert_eq!(greet["state"], "modified", "{greet:#}");
    assert_eq!(
        greet["record"]["pristine"],
        machine
            .root()
            .join("work/demo-skills/skills/greet")
            .to_str()
            .unwrap()
    );
    let at_project = at(&listing, &project.join("tidy"));
    assert_eq!(at_project["state"], "intact");

    let output = machine.run(&["check"]);
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("modified  greet  ~/.agents/skills/greet"),
        "{text}"
    );
    assert!(
        text.contains("installed by skills-cli from http://127.0.0.1:8765/fixture/demo-skills.git"),
        "{text}"
    );
    assert!(text.contains("3 of 4 recorded skills modified"), "{text}");
}

#[test]
fn old_and_corrupt_skills_cli_locks_are_problems_on_the_listing() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".agents/skills/old"), &[]);
    let old_lock = json!({"version": 2, "skills": {"old": {
        "source": "example/skills", "sourceType": "github",
        "skillPath": "skills/old/SKILL.md", "skillFolderHash": ""}}});
    write_files(
        &machine.home,
        &[(".agents/.skill-lock.json", &old_lock.to_string())],
    );
    write_skill(&machine.repo.join(".agents/skills/kept"), &[]);
    write_files(
        &machine.repo,
        &[("skills-lock.json", "{\"version\": 1, \"skills\": {")],
    );
    let listing = machine.list_json();

    let old = at(&listing, &machine.home.join(".agents/skills/old"));
    assert_eq!(old["record"]["installer"], "skills-cli");
    assert_eq!(old["record"]["upstream"]["repository"], "example/skills");
    assert_eq!(old["state"], "unverifiable");
    assert!(
        old["record"]["note"]
            .as_str()
            .unwrap()
            .contains("recorded no hash")
    );
    let all = problems(&listing);
    assert!(all.contains("of version 2"), "{all}");
    // A plugin's skill of the same name in a user root is not the lock's.
    let plugin = machine.home.join(".claude/skills/toolbox");
    write_files(
        &plugin,
        &[(".claude-plugin/plugin.json", r#"{"name": "toolbox"}"#)],
    );
    write_skill(&plugin.join("skills/old"), &[]);
    let listed = at(&machine.list_json(), &plugin.join("skills/old"));
    assert!(listed["record"].is_null(), "{listed}");
    assert!(all.contains("skills-lock.json could not be read"), "{all}");
    // The skill the broken lock recorded is listed, with the reason its record is lost.
    let kept = at(&listing, &machine.repo.join(".agents/skills/kept"));
    assert_eq!(kept["state"], "unrecorded");
    assert!(
        kept["problems"]
            .to_string()
            .contains("skills-lock.json could not be read"),
        "{kept}"
    );
}

/// The git tree id of a folder, from git itself.
fn git_tree_id(dir: &Path) -> String {
    let scratch = tempfile::tempdir().unwrap();
    copy_tree(dir, scratch.path());
    let git = |args: &[&str]| {
        let output = Command::new("git")
            .args(args)
            .current_dir(scratch.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", scratch.path())
            .output()
            .expect("git runs (apt-get install git)");
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["write-tree"])
}

#[test]
fn a_github_installs_tree_id_is_recomputed_as_git_computes_it() {
    let machine = Machine::new();
    let dir = machine.home.join(".agents/skills/treed");
    write_skill(
        &dir,
        &[
            ("references/b.md", "b\n"),
            ("references-x.md", "x\n"),
            ("a/b/c.md", "c\n"),
        ],
    );
    write_files(&dir, &[("scripts/run.sh", "#!/bin/sh\n")]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(
            dir.join("scripts/run.sh"),
            fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        std::os::unix::fs::symlink("references/b.md", dir.join("b-link")).unwrap();
    }
    let tree = git_tree_id(&dir);
    write_global_lock(
        &machine,
        json!({"treed": {
        "source": "example/skills", "sourceType": "github", "ref": "main",
        "sourceUrl": "https://github.com/example/skills.git",
        "skillPath": "skills/treed/SKILL.md", "skillFolderHash": tree,
        "installedAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z"}}),
    );
    let skill = at(&machine.list_json(), &dir);
    assert_eq!(skill["state"], "intact", "{skill:#}");
    assert_eq!(skill["record"]["verified_by"], "git-tree");
    assert_eq!(skill["record"]["upstream"]["ref"], "main");

    fs::write(dir.join("a/b/c.md"), "changed\n").unwrap();
    let skill = at(&machine.list_json(), &dir);
    assert_eq!(skill["state"], "modified", "{skill:#}");
}

/// A SKILL.md as gh skill writes it: the frontmatter re-serialised by yaml.v3, keys sorted,
/// four-space indent, its metadata added.
fn gh_skill_md(metadata: &str) -> String {
    format!(
        "---\ndescription: Reviews a change.\nmetadata:\n{metadata}name: review\n---\n# Review\n\nRead the diff.\n"
    )
}

#[test]
fn gh_skill_provenance_is_read_and_a_later_edit_is_modified() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/review");
    let tree = "0123456789abcdef0123456789abcdef01234567";
    let metadata = format!(
        "    github-path: skills/review\n    github-ref: v1.2.0\n    github-repo: https://github.com/example/skills\n    github-tree-sha: {tree}\n"
    );
    write_files(
        &dir,
        &[("SKILL.md", &gh_skill_md(&metadata)), ("notes.md", "n\n")],
    );
    // gh writes the global lock too, with no ref and its install time.
    write_global_lock(
        &machine,
        json!({"review": {
        "source": "example/skills", "sourceType": "github",
        "sourceUrl": "https://github.com/example/skills.git",
        "skillPath": "skills/review/SKILL.md", "skillFolderHash": tree,
        "installedAt": "2026-04-16T10:00:00Z", "updatedAt": "2026-04-16T10:00:00Z"}}),
    );
    set_modified(
        &dir,
        humantime::parse_rfc3339("2026-04-16T09:59:59Z").unwrap(),
    );

    let skill = at(&machine.list_json(), &dir);
    assert_eq!(skill["state"], "unverifiable", "{skill:#}");
    let record = &skill["record"];
    assert_eq!(record["installer"], "gh-skill");
    assert_eq!(
        record["upstream"],
        json!({"repository": "https://github.com/example/skills", "ref": "v1.2.0",
               "path": "skills/review", "commit": null})
    );
    assert_eq!(record["hash"], tree);
    assert!(
        record["note"]
            .as_str()
            .unwrap()
            .contains("rewrote SKILL.md"),
        "{record}"
    );

    fs::write(dir.join("notes.md"), "edited\n").unwrap();
    let skill = at(&machine.list_json(), &dir);
    assert_eq!(skill["state"], "modified", "{skill:#}");
    assert!(
        skill["record"]["note"]
            .as_str()
            .unwrap()
            .starts_with("notes.md changed after the install"),
        "{skill:#}"
    );
}

#[test]
fn a_gh_skill_local_install_names_its_folder_and_has_nothing_to_verify() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/review");
    write_files(
        &dir,
        &[(
            "SKILL.md",
            &gh_skill_md("    local-path: /src/skills/review\n"),
        )],
    );
    let skill = at(&machine.list_json(), &dir);
    assert_eq!(skill["record"]["installer"], "gh-skill");
    assert_eq!(
        skill["record"]["upstream"]["repository"],
        "/src/skills/review"
    );
    assert_eq!(skill["state"], "unverifiable");
}

/// A Claude Code plugins folder: the marketplace clone `mkt` at commit `head`, listing plugin
/// `tools` at version 1.0.0, the cached copy of it, and the plugin list as `installed`.
fn claude_plugins(machine: &Machine, installed: Option<&str>) -> (PathBuf, PathBuf) {
    let plugins = machine.home.join(".claude/plugins");
    let clone = plugins.join("marketplaces/mkt");
    let head = "1111111111111111111111111111111111111111";
    write_files(
        &clone,
        &[
            (
                ".claude-plugin/marketplace.json",
                r#"{"name": "mkt", "plugins": [{"name": "tools", "source": "./plugins/tools", "version": "1.0.0"}]}"#,
            ),
            (".git/HEAD", "ref: refs/heads/main\n"),
            (".git/refs/heads/main", &format!("{head}\n")),
            (
                "plugins/tools/.claude-plugin/plugin.json",
                r#"{"name": "tools"}"#,
            ),
        ],
    );
    let pristine = clone.join("plugins/tools/skills/lint");
    write_skill(&pristine, &[("rules.md", "rules\n")]);
    let cached = plugins.join("cache/mkt/tools/1.0.0");
    copy_tree(&clone.join("plugins/tools"), &cached);
    write_files(
        &plugins,
        &[(
            "known_marketplaces.json",
            r#"{"mkt": {"source": {"source": "github", "repo": "example/mkt"}, "installLocation": "", "lastUpdated": "2026-01-01T00:00:00.000Z"}}"#,
        )],
    );
    if let Some(installed) = installed {
        let installed = installed
            .replace("{path}", cached.to_str().unwrap())
            .replace("{head}", head);
        write_files(&plugins, &[("installed_plugins.json", &installed)]);
    }
    (cached.join("skills/lint"), pristine)
}

const INSTALLED_V2: &str = r#"{"version": 2, "plugins": {"tools@mkt": [{"scope": "user",
    "installPath": "{path}", "version": "1.0.0", "installedAt": "2026-01-01T00:00:00.000Z",
    "lastUpdated": "2026-01-01T00:00:00.000Z", "gitCommitSha": "{head}"}]}}"#;

#[test]
fn a_claude_plugin_cache_is_checked_against_its_marketplace_clone() {
    let machine = Machine::new();
    let (cached, pristine) = claude_plugins(&machine, Some(INSTALLED_V2));
    let skill = at(&machine.list_json(), &cached);
    assert_eq!(skill["name"], "tools:lint");
    assert_eq!(skill["state"], "intact", "{skill:#}");
    let record = &skill["record"];
    assert_eq!(record["installer"], "claude-plugin");
    assert_eq!(record["verified_by"], "marketplace-clone");
    assert_eq!(record["pristine"], pristine.to_str().unwrap());
    assert_eq!(
        record["upstream"],
        json!({"repository": "example/mkt", "ref": null,
               "path": "plugins/tools/skills/lint",
               "commit": "1111111111111111111111111111111111111111"})
    );
    // The clone itself is Claude Code's too, and records no hash.
    let clone = at(&machine.list_json(), &pristine);
    assert_eq!(clone["record"]["installer"], "claude-plugin");
    assert_eq!(clone["state"], "unverifiable");

    fs::write(cached.join("rules.md"), "rules, edited\n").unwrap();
    let skill = at(&machine.list_json(), &cached);
    assert_eq!(skill["state"], "modified", "{skill:#}");
    assert_eq!(skill["record"]["pristine"], pristine.to_str().unwrap());
    let output = machine.run(&["check"]);
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("modified  tools:lint  ~/.claude/plugins/cache/mkt/tools/1.0.0/skills/lint\n          installed by claude-plugin from example/mkt; the cached copy differs from the marketplace clone's, ~/.claude/plugins/marketplaces/mkt/plugins/tools/skills/lint\n"),
        "{text}"
    );

    // Once the clone moves on, it is no longer the copy the cache came from.
    write_files(
        &machine.home.join(".claude/plugins/marketplaces/mkt"),
        &[(
            ".git/refs/heads/main",
            "2222222222222222222222222222222222222222\n",
        )],
    );
    let skill = at(&machine.list_json(), &cached);
    assert_eq!(skill["state"], "unverifiable", "{skill:#}");
    assert!(
        skill["record"]["note"]
            .as_str()
            .unwrap()
            .contains("moved to commit")
    );
}

#[test]
fn a_version_1_plugin_list_is_read_by_version() {
    let machine = Machine::new();
    let v1 = r#"{"version": 1, "plugins": {"tools@mkt": {"version": "1.0.0",
        "installedAt": "2025-10-01T00:00:00.000Z", "lastUpdated": "2025-10-01T00:00:00.000Z",
        "installPath": "{path}", "isLocal": true}}}"#;
    let (cached, _) = claude_plugins(&machine, Some(v1));
    let listing = machine.list_json();
    let skill = at(&listing, &cached);
    assert_eq!(skill["state"], "intact", "{skill:#}");
    assert_eq!(problems(&listing), "[]");
}

#[test]
fn a_missing_or_corrupt_plugin_list_is_a_problem_not_silence() {
    let machine = Machine::new();
    let (cached, _) = claude_plugins(&machine, None);
    let listing = machine.list_json();
    assert!(
        problems(&listing).contains("installed_plugins.json is missing"),
        "{}",
        problems(&listing)
    );
    let skill = at(&listing, &cached);
    assert_eq!(skill["state"], "unverifiable");
    assert_eq!(skill["record"]["installer"], "claude-plugin");

    write_files(
        &machine.home.join(".claude/plugins"),
        &[("installed_plugins.json", "{\"version\": 2, \"plugins\": [")],
    );
    let listing = machine.list_json();
    assert!(
        problems(&listing).contains("installed_plugins.json could not be read"),
        "{}",
        problems(&listing)
    );
    let skill = at(&listing, &cached);
    assert!(
        skill["problems"].to_string().contains("could not be read"),
        "{skill}"
    );
}

fn skillkit_checksum(skill_md: &[u8]) -> String {
    hex(&Sha256::digest(skill_md))[..16].to_owned()
}

#[test]
fn skillkit_checks_skill_md_only_and_says_so() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/kit");
    write_skill(&dir, &[("extra.md", "extra\n")]);
    let checksum = skillkit_checksum(&fs::read(dir.join("SKILL.md")).unwrap());
    let metadata = json!({"name": "kit", "description": "", "source": "example/kit",
        "sourceType": "github", "subpath": "kit", "installedAt": "2026-01-01T00:00:00.000Z",
        "enabled": true, "checksum": checksum});
    write_files(&dir, &[(".skillkit.json", &metadata.to_string())]);
    let skill = at(&machine.list_json(), &dir);
    assert_eq!(skill["state"], "intact", "{skill:#}");
    let record = &skill["record"];
    assert_eq!(record["installer"], "skillkit");
    assert_eq!(record["verified_by"], "skillkit-checksum");
    assert_eq!(record["upstream"]["repository"], "example/kit");
    assert!(record["note"].as_str().unwrap().contains("SKILL.md only"));

    fs::write(dir.join("extra.md"), "not covered\n").unwrap();
    assert_eq!(at(&machine.list_json(), &dir)["state"], "intact");
    fs::write(
        dir.join("SKILL.md"),
        "---\nname: kit\ndescription: edited\n---\n",
    )
    .unwrap();
    assert_eq!(at(&machine.list_json(), &dir)["state"], "modified");
    let text = String::from_utf8(machine.run(&["check"]).stdout).unwrap();
    assert!(
        text.contains(&format!("installed by skillkit from example/kit; its files no longer hash to the recorded {checksum} (SkillKit's checksum covers SKILL.md only")),
        "{text}"
    );
}

#[test]
fn a_skillkit_lock_entry_names_its_folder() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/locked");
    write_skill(&dir, &[]);
    let lock = json!({"version": 1, "skills": {"example/kit:locked": {
        "source": "example/kit", "sourceType": "github",
        "installedAt": "2026-01-01T00:00:00.000Z", "agents": ["claude-code"],
        "path": dir, "checksum": skillkit_checksum(&fs::read(dir.join("SKILL.md")).unwrap())}}});
    write_files(&machine.home, &[(".skillkit/lock.json", &lock.to_string())]);
    let skill = at(&machine.list_json(), &dir);
    assert_eq!(skill["record"]["installer"], "skillkit");
    assert_eq!(
        skill["record"]["recorded_in"],
        machine.home.join(".skillkit/lock.json").to_str().unwrap()
    );
    assert_eq!(skill["state"], "intact");
}

#[test]
fn corrupt_per_skill_records_are_problems_of_their_skill() {
    let machine = Machine::new();
    let kit = machine.home.join(".claude/skills/kit");
    write_skill(&kit, &[(".skillkit.json", "{broken")]);
    let open = machine.home.join(".claude/skills/open");
    write_skill(&open, &[(".openskills.json", "[1, 2")]);
    let listing = machine.list_json();
    for (dir, installer) in [(&kit, "skillkit"), (&open, "openskills")] {
        let skill = at(&listing, dir);
        assert_eq!(skill["record"]["installer"], installer);
        assert_eq!(skill["state"], "unverifiable");
        assert!(
            skill["problems"].to_string().contains("could not be read"),
            "{skill}"
        );
    }
}

#[test]
fn openskills_records_where_from_but_nothing_to_verify() {
    let machine = Machine::new();
    let dir = machine.repo.join(".claude/skills/opened");
    let metadata = json!({"source": "example/open", "sourceType": "git",
        "repoUrl": "https://github.com/example/open", "subpath": "skills/opened",
        "installedAt": "2026-01-01T00:00:00.000Z"});
    write_skill(&dir, &[(".openskills.json", &metadata.to_string())]);
    let skill = at(&machine.list_json(), &dir);
    assert_eq!(skill["state"], "unverifiable");
    assert_eq!(
        skill["record"]["upstream"],
        json!({"repository": "https://github.com/example/open", "ref": null,
               "path": "skills/opened", "commit": null})
    );
    assert!(skill["record"]["hash"].is_null());
}

/// SkillPort's content hash, written from its documented algorithm (peer-tools.md §4.6).
fn skillport_hash(dir: &Path) -> String {
    let mut files: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let relative = e
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned();
            (relative, fs::read(e.path()).unwrap())
        })
        .filter(|(path, _)| {
            !path
                .split('/')
                .any(|part| part.starts_with('.') || part == "__pycache__")
        })
        .collect();
    files.sort();
    zero_framed(files.into_iter().map(|(path, content)| {
        let mut blob = Sha1::new();
        blob.update(format!("blob {}\0", content.len()).as_bytes());
        blob.update(&content);
        (path, hex(&blob.finalize()).into_bytes())
    }))
}

/// `sha256:` over each path and value, each followed by a zero byte: the framing SkillPort's
/// content hash and the skills CLI's well-known digest share.
fn zero_framed(items: impl IntoIterator<Item = (String, Vec<u8>)>) -> String {
    let mut hasher = Sha256::new();
    for (path, value) in items {
        hasher.update(path.as_bytes());
        hasher.update([0]);
        hasher.update(value);
        hasher.update([0]);
    }
    format!("sha256:{}", hex(&hasher.finalize()))
}

#[test]
fn skillport_content_hashes_are_recomputed() {
    let machine = Machine::new();
    let skills_dir = machine.home.join(".claude/skills");
    let dir = skills_dir.join("port");
    write_skill(
        &dir,
        &[
            ("a/b.md", "b\n"),
            (".hidden", "skipped\n"),
            ("a-b.md", "ab\n"),
        ],
    );
    let legacy = skills_dir.join("legacy");
    write_skill(&legacy, &[]);
    let origins = json!({
        "port": {"source": "https://github.com/example/port", "kind": "github",
                 "ref": "main", "path": "skills/port", "commit_sha": "abc123",
                 "content_hash": skillport_hash(&dir), "skills_dir": skills_dir,
                 "local_modified": false, "update_history": []},
        "legacy": {"source": "/src/legacy", "kind": "local", "path": "",
                   "added_at": "2025-01-01T00:00:00+00:00", "skills_dir": skills_dir}});
    write_files(
        &machine.home,
        &[(
            ".skillport/indexes/0123456789/meta/origins.json",
            &origins.to_string(),
        )],
    );
    write_files(
        &machine.home,
        &[(".skillport/indexes/broken/meta/origins.json", "not json")],
    );
    let listing = machine.list_json();
    let skill = at(&listing, &dir);
    assert_eq!(skill["state"], "intact", "{skill:#}");
    assert_eq!(skill["record"]["installer"], "skillport");
    assert_eq!(skill["record"]["verified_by"], "skillport-content-hash");
    assert_eq!(
        skill["record"]["upstream"],
        json!({"repository": "https://github.com/example/port", "ref": "main",
               "path": "skills/port", "commit": "abc123"})
    );
    assert_eq!(at(&listing, &legacy)["state"], "unverifiable");
    assert!(
        problems(&listing).contains("indexes/broken/meta/origins.json could not be read"),
        "{}",
        problems(&listing)
    );

    fs::write(dir.join(".hidden"), "not covered\n").unwrap();
    assert_eq!(at(&machine.list_json(), &dir)["state"], "intact");
    fs::write(dir.join("a/b.md"), "edited\n").unwrap();
    assert_eq!(at(&machine.list_json(), &dir)["state"], "modified");
}

#[test]
fn check_lists_unverifiable_skills_apart_and_passes_without_drift() {
    let machine = Machine::new();
    let dir = machine.repo.join(".claude/skills/opened");
    write_skill(
        &dir,
        &[(".openskills.json", r#"{"source": "example/open"}"#)],
    );
    let output = machine.run(&["check"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("unverifiable  opened  "), "{text}");
    assert!(
        text.contains("installed by openskills from example/open"),
        "{text}"
    );
    assert!(
        text.ends_with("1 recorded skill: 0 intact, 1 unverifiable.\n"),
        "{text}"
    );
    let output = machine.run(&["check", "--json"]);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["unverifiable"][0]["name"], "opened");
    assert_eq!(json["recorded"], 1);
}

#[cfg(unix)]
#[test]
fn the_table_names_each_skills_installer() {
    let machine = skills_cli_machine();
    let output = machine.run(&["list"]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("NAME "), "{text}");
    assert!(text.contains(" INSTALLER "), "{text}");
    let tidy = text
        .lines()
        .find(|l| l.contains("~/.agents/skills/tidy"))
        .unwrap();
    assert!(tidy.contains("unverifiable  skills-cli"), "{tidy}");
    assert!(
        text.contains("unverifiable: its files do not hash"),
        "{text}"
    );
}

/// The skills CLI's digest of a well-known source, from its documented algorithm
/// (peer-tools.md §4.1): `sha256:` over sorted `path \0 bytes \0`.
fn well_known_digest(dir: &Path, files: &[&str]) -> String {
    let mut sorted = files.to_vec();
    sorted.sort();
    zero_framed(
        sorted
            .into_iter()
            .map(|path| (path.to_owned(), fs::read(dir.join(path)).unwrap())),
    )
}

#[test]
fn a_well_known_sources_digest_is_recomputed() {
    let machine = Machine::new();
    let dir = machine.home.join(".agents/skills/known");
    write_skill(&dir, &[("refs/a.md", "a\n"), ("B.md", "b\n")]);
    let digest = well_known_digest(&dir, &["SKILL.md", "refs/a.md", "B.md"]);
    write_global_lock(
        &machine,
        json!({"known": {
        "source": "example.com", "sourceType": "well-known",
        "sourceUrl": "https://example.com/.well-known/agent-skills/known/SKILL.md",
        "skillFolderHash": "", "sourceBaseUrl": "https://example.com",
        "wellKnownDigest": digest,
        "installedAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z"}}),
    );
    let skill = at(&machine.list_json(), &dir);
    assert_eq!(skill["state"], "intact", "{skill:#}");
    assert_eq!(skill["record"]["verified_by"], "well-known-digest");
    fs::write(dir.join("B.md"), "edited\n").unwrap();
    assert_eq!(at(&machine.list_json(), &dir)["state"], "modified");
}
