//! Installing what a bundle holds: where it goes, what happens to what is already there, the
//! one hook before a skill is swapped out, and the command line's shapes and exit codes.

use std::path::{Path, PathBuf};

use crate::common::archive::Tar;
use crate::common::{Machine, snapshot, write_files, write_skill};
use serde_json::Value;
use skilldeck::bundle;
use skilldeck::install::{self, Action, InstallError, Progress, Watch};

fn run(machine: &Machine, args: &[&str]) -> (Option<i32>, Value) {
    let output = machine.run(args);
    let json = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.code(), json)
}

/// A folder bundle of two skills.
fn two_skills(machine: &Machine) -> PathBuf {
    let source = machine.root().join("bundle");
    write_skill(&source.join("alpha"), &[("scripts/run.sh", "#!/bin/sh\n")]);
    write_skill(&source.join("beta"), &[]);
    source
}

fn actions(json: &Value) -> Vec<(String, String)> {
    json["installed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_owned(),
                s["action"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn pair(name: &str, action: &str) -> (String, String) {
    (name.to_owned(), action.to_owned())
}

#[test]
fn absent_is_installed_ours_unchanged_edited_or_foreign_conflicts_until_forced() {
    let machine = Machine::new();
    let source = two_skills(&machine);
    let root = machine.root().join("skills");
    let (source, root) = (source.to_str().unwrap(), root.to_str().unwrap());
    let args = ["import", source, "--to", root, "--json"];

    let (code, json) = run(&machine, &args);
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(
        actions(&json),
        [pair("alpha", "installed"), pair("beta", "installed")]
    );
    let (code, json) = run(&machine, &args);
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(
        actions(&json),
        [pair("alpha", "unchanged"), pair("beta", "unchanged")]
    );

    // Edited: the whole import is refused before anything is written, even alpha's update.
    let beta = Path::new(root).join("beta");
    write_files(&beta, &[("mine.md", "added by hand")]);
    let before = snapshot(&machine.root());
    let (code, json) = run(&machine, &args);
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(json["refused"]["code"], "destination_conflict");
    let message = json["refused"]["message"].as_str().unwrap();
    assert!(
        message.contains("beta was edited since skilldeck installed it"),
        "{message}"
    );
    assert!(message.contains("--force"), "{message}");
    // The refusal keeps the edit and names the merge that keeps it too.
    assert!(
        message.contains("the edit is kept: `skilldeck update beta --from SOURCE` merges"),
        "{message}"
    );
    assert!(message.contains("and the edit is lost"), "{message}");
    assert_eq!(snapshot(&machine.root()), before);

    let mut forced = args.to_vec();
    forced.push("--force");
    let (code, json) = run(&machine, &forced);
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(
        actions(&json),
        [pair("alpha", "unchanged"), pair("beta", "replaced")]
    );
    assert!(!beta.join("mine.md").exists());

    // Someone else's skill of the same name.
    std::fs::remove_dir_all(&beta).unwrap();
    write_skill(&beta, &[]);
    let (code, json) = run(&machine, &args);
    assert_eq!(code, Some(1), "{json}");
    assert!(
        json["refused"]["message"]
            .as_str()
            .unwrap()
            .contains("carries no installation record")
    );

    // A file where the skill would go is never replaced, not even with --force.
    std::fs::remove_dir_all(&beta).unwrap();
    std::fs::write(&beta, "a file").unwrap();
    let (code, json) = run(&machine, &forced);
    assert_eq!(code, Some(1), "{json}");
    assert!(
        json["refused"]["message"]
            .as_str()
            .unwrap()
            .contains("only replaces folders")
    );
    assert_eq!(std::fs::read_to_string(&beta).unwrap(), "a file");
}

#[test]
fn a_dry_run_with_a_destination_says_what_would_happen_and_writes_nothing() {
    let machine = Machine::new();
    let source = two_skills(&machine);
    let root = machine.root().join("skills");
    write_skill(&root.join("beta"), &[]);
    let before = snapshot(&machine.root());
    let (code, json) = run(
        &machine,
        &[
            "import",
            source.to_str().unwrap(),
            "--to",
            root.to_str().unwrap(),
            "--dry-run",
            "--json",
            "--force",
        ],
    );
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(json["skills"][0]["action"], "installed");
    assert_eq!(json["skills"][1]["action"], "replaced");
    assert_eq!(
        json["skills"][1]["dir"],
        root.join("beta").to_str().unwrap()
    );
    assert_eq!(snapshot(&machine.root()), before);
}

#[test]
fn skills_are_chosen_by_name_and_an_unknown_name_is_refused() {
    let machine = Machine::new();
    let source = two_skills(&machine);
    let source = source.to_str().unwrap();
    let (code, json) = run(
        &machine,
        &[
            "import",
            source,
            "--agent",
            "claude-code",
            "--skill",
            "beta",
            "--json",
        ],
    );
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(actions(&json), [pair("beta", "installed")]);
    assert!(machine.home.join(".claude/skills/beta/SKILL.md").is_file());
    assert!(!machine.home.join(".claude/skills/alpha").exists());

    let (code, json) = run(
        &machine,
        &["import", source, "--dry-run", "--skill", "gamma", "--json"],
    );
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(json["refused"]["code"], "no_skills");
    assert_eq!(
        json["refused"]["message"],
        "the source holds no skill named gamma; it holds alpha, beta"
    );
}

#[test]
fn each_agent_and_scope_has_its_folder() {
    let machine = Machine::new();
    let source = machine.root().join("bundle");
    write_skill(&source.join("demo"), &[]);
    let source = source.to_str().unwrap();
    for (agent, scope, dir) in [
        ("codex", "user", machine.home.join(".agents/skills")),
        (
            "claude-code",
            "project",
            machine.repo.join(".claude/skills"),
        ),
        ("cursor", "project", machine.start.join(".cursor/skills")),
        ("copilot", "user", machine.home.join(".copilot/skills")),
    ] {
        let (code, json) = run(
            &machine,
            &[
                "import", source, "--agent", agent, "--scope", scope, "--json",
            ],
        );
        assert_eq!(code, Some(0), "{agent} {scope}: {json}");
        assert_eq!(
            json["installed"][0]["dir"],
            dir.join("demo").to_str().unwrap()
        );
    }
    let listed = machine.list_json();
    let intact = listed["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["name"] == "demo" && s["state"] == "intact")
        .count();
    assert_eq!(intact, 4);
}

#[test]
fn usage_errors_exit_2() {
    let machine = Machine::new();
    let source = two_skills(&machine);
    let source = source.to_str().unwrap();
    let to = machine.root().join("skills");
    let to = to.to_str().unwrap();
    let before = snapshot(&machine.root());
    for args in [
        vec!["import", source],
        vec!["import", source, "--agent", "no-such-agent"],
        vec!["import", source, "--scope", "user", "--to", to],
        vec!["import", source, "--to", to, "--agent", "codex"],
    ] {
        let output = machine.run(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!output.stderr.is_empty());
    }
    assert_eq!(snapshot(&machine.root()), before);
}

#[test]
fn a_destination_that_is_a_file_is_named_and_left_alone() {
    let machine = Machine::new();
    let source = two_skills(&machine);
    let file = machine.root().join("not-a-folder");
    std::fs::write(&file, "kept").unwrap();
    for to in [file.clone(), file.join("skills")] {
        for dry_run in [false, true] {
            let mut args = vec![
                "import",
                source.to_str().unwrap(),
                "--to",
                to.to_str().unwrap(),
            ];
            if dry_run {
                args.push("--dry-run");
            }
            let output = machine.run(&args);
            assert_eq!(output.status.code(), Some(1), "{args:?}");
            assert_eq!(
                String::from_utf8(output.stderr).unwrap(),
                format!(
                    "skilldeck: refused (destination_conflict): {} is not a folder, so no skill can be installed below it; nothing was written\n",
                    file.display()
                ),
                "{args:?}"
            );
        }
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
}

#[test]
fn a_refusal_without_json_is_one_sentence_on_stderr() {
    let machine = Machine::new();
    let archive = machine.root().join("bad.tar");
    std::fs::write(
        &archive,
        Tar::new()
            .skill("demo")
            .file("demo/../x", "x")
            .end()
            .bytes(),
    )
    .unwrap();
    let output = machine.run(&["import", archive.to_str().unwrap(), "--dry-run"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "skilldeck: refused (unsafe_path): demo/../x cannot be stored: '..' would leave the skill folder\n"
    );
}

/// Records what an install tells its watch.
#[derive(Default)]
struct Recorder {
    progress: Vec<(String, usize, usize)>,
    replaced: Vec<(PathBuf, String)>,
    refuse: bool,
}

impl Watch for Recorder {
    fn wrote(&mut self, progress: Progress<'_>) {
        self.progress.push((
            progress.skill.to_owned(),
            progress.files_done,
            progress.files_total,
        ));
    }

    fn before_replace(&mut self, skill_dir: &Path) -> std::io::Result<()> {
        // What is there is still the old skill when the hook runs.
        let text = std::fs::read_to_string(skill_dir.join("SKILL.md"))?;
        self.replaced.push((skill_dir.to_path_buf(), text));
        if self.refuse {
            return Err(std::io::Error::other("no room for a snapshot"));
        }
        Ok(())
    }
}

#[test]
fn the_watch_hears_progress_and_is_asked_before_every_swap() {
    let machine = Machine::new();
    let source = two_skills(&machine);
    let root = machine.root().join("skills");
    let bundle = bundle::read(&source).unwrap();
    let skills = bundle.select(&[]).unwrap();

    let mut first = Recorder::default();
    let installed = install::install(&root, &skills, false, &mut first).unwrap();
    assert!(installed.iter().all(|s| s.action == Action::Install));
    assert!(first.replaced.is_empty(), "nothing was there to replace");
    assert_eq!(
        first.progress,
        [
            ("alpha".to_owned(), 1, 3),
            ("alpha".to_owned(), 2, 3),
            ("beta".to_owned(), 3, 3)
        ]
    );

    // The same again: nothing to swap, so the hook is not asked.
    let mut same = Recorder::default();
    let installed = install::install(&root, &skills, false, &mut same).unwrap();
    assert!(installed.iter().all(|s| s.action == Action::Unchanged));
    assert!(same.replaced.is_empty() && same.progress.is_empty());

    // Both changed in the bundle: each is swapped, the hook asked first.
    write_files(&source.join("alpha"), &[("new.md", "new")]);
    write_files(&source.join("beta"), &[("new.md", "new")]);
    let changed = bundle::read(&source).unwrap();
    let mut again = Recorder::default();
    install::install(&root, &changed.select(&[]).unwrap(), false, &mut again).unwrap();
    let dirs: Vec<&PathBuf> = again.replaced.iter().map(|(dir, _)| dir).collect();
    assert_eq!(dirs, [&root.join("alpha"), &root.join("beta")]);
    assert!(again.replaced[0].1.contains("installed-by: \"skilldeck\""));

    // A hook that fails stops the swap: the old skill stays whole.
    write_files(&root.join("alpha"), &[("SKILL.md", "mine")]);
    let before = snapshot(&root);
    let mut refusing = Recorder {
        refuse: true,
        ..Recorder::default()
    };
    let error = install::install(&root, &skills[..1], true, &mut refusing).unwrap_err();
    assert!(
        matches!(error, InstallError::BeforeReplace { .. }),
        "{error}"
    );
    assert_eq!(refusing.replaced[0].1, "mine");
    assert_eq!(snapshot(&root), before);
}

/// A watch that says stop after `go_on` answers of yes.
struct Stopping {
    go_on: usize,
    asked: usize,
}

impl Watch for Stopping {
    fn carry_on(&mut self) -> bool {
        self.asked += 1;
        self.asked <= self.go_on
    }
}

#[test]
fn a_watch_that_says_stop_cancels_before_anything_is_put_in_place() {
    let machine = Machine::new();
    let source = two_skills(&machine);
    let bundle = bundle::read(&source).unwrap();
    let skills = bundle.select(&[]).unwrap();

    // Asked first, before the root is even made.
    let root = machine.root().join("new-root");
    let mut at_once = Stopping { go_on: 0, asked: 0 };
    let error = install::install(&root, &skills, false, &mut at_once).unwrap_err();
    assert!(matches!(error, InstallError::Cancelled), "{error}");
    assert!(!root.exists(), "the root was made");

    // Asked again once everything is staged: the root holds what it held, and no staging is
    // left beside it.
    let root = machine.root().join("skills");
    write_files(&root.join("beta"), &[("SKILL.md", "mine")]);
    let before = snapshot(&machine.root());
    let mut staged = Stopping { go_on: 1, asked: 0 };
    let error = install::install(&root, &skills, true, &mut staged).unwrap_err();
    assert!(matches!(error, InstallError::Cancelled), "{error}");
    assert_eq!(staged.asked, 2);
    assert_eq!(snapshot(&machine.root()), before);
}

/// Into a folder no agent reads, the install is made and said to be unseen by every agent;
/// into an agent's own folder, no such warning.
#[test]
fn installing_where_no_agent_reads_says_so() {
    let machine = Machine::new();
    let source = two_skills(&machine);
    let nowhere = machine.root().join("skills");
    let output = machine.run(&[
        "import",
        source.to_str().unwrap(),
        "--to",
        nowhere.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("so no agent will load what was installed there"),
        "{stderr}"
    );
    assert!(nowhere.join("alpha/SKILL.md").is_file());

    let read = machine.home.join(".claude/skills");
    let output = machine.run(&[
        "import",
        source.to_str().unwrap(),
        "--to",
        read.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        !String::from_utf8_lossy(&output.stderr).contains("no agent will load"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
