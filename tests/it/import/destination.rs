//! An agent's project skills folder is the project's own files' to aim: a link committed to a
//! cloned repository can lead anywhere (into `~/.vim/pack/…/start`, which Vim loads). An
//! import refuses a project folder that resolves outside the project, dry run included, and
//! writes into the folder the links really lead to when they stay inside.
//! Every case is a symbolic link planted by the test, made here with Unix links.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use skilldeck::operations::import;
use skilldeck::roots::{self, AgentId, Scope};

use crate::common::{Machine, write_skill};

fn on(machine: &Machine) -> roots::Machine {
    roots::Machine::sandbox(&machine.home, &machine.system, &machine.start)
}

fn project_root(machine: &Machine) -> PathBuf {
    on(machine)
        .install_root(AgentId::CLAUDE_CODE, Scope::Project)
        .unwrap()
}

fn bundle(machine: &Machine) -> String {
    let bundle = machine.root().join("bundle/demo");
    write_skill(&bundle, &[]);
    bundle.to_str().unwrap().to_owned()
}

fn import_to_project(machine: &Machine, extra: &[&str]) -> std::process::Output {
    let source = bundle(machine);
    let mut args = vec![
        "import",
        source.as_str(),
        "--agent",
        "claude-code",
        "--scope",
        "project",
    ];
    args.extend_from_slice(extra);
    machine.run(&args)
}

/// Each way a project folder can lead out: the skills folder or the folder above it a link,
/// relative or absolute, to a folder that is there or not yet.
fn leads_out(machine: &Machine, case: &str) -> PathBuf {
    let root = project_root(machine);
    let outside = machine.home.join(".vim/pack/evil/start");
    let link_at = |at: &Path, to: &Path| {
        fs::create_dir_all(at.parent().unwrap()).unwrap();
        symlink(to, at).unwrap();
    };
    match case {
        "relative" => {
            fs::create_dir_all(&outside).unwrap();
            let up = "../".repeat(
                root.parent()
                    .unwrap()
                    .strip_prefix(machine.root())
                    .unwrap()
                    .components()
                    .count(),
            );
            let to = PathBuf::from(format!("{up}home/.vim/pack/evil/start"));
            link_at(&root, &to);
        }
        "absolute" => {
            fs::create_dir_all(&outside).unwrap();
            link_at(&root, &outside);
        }
        "parent" => {
            fs::create_dir_all(outside.join("skills")).unwrap();
            link_at(root.parent().unwrap(), &outside);
            return outside.join("skills");
        }
        "dangling" => link_at(&root, &outside),
        other => panic!("{other}"),
    }
    outside
}

#[test]
fn a_project_folder_that_leads_out_of_the_project_is_refused() {
    for case in ["relative", "absolute", "parent", "dangling"] {
        let machine = Machine::new();
        let outside = leads_out(&machine, case);
        for extra in [
            &["--dry-run"][..],
            &[],
            &["--force"],
            &["--dry-run", "--json"],
        ] {
            let output = import_to_project(&machine, extra);
            let stdout = String::from_utf8_lossy(&output.stdout);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(
                output.status.code(),
                Some(1),
                "{case} {extra:?}: {stdout}{stderr}"
            );
            assert!(
                format!("{stdout}{stderr}").contains("leads out of the project"),
                "{case} {extra:?}: {stdout}{stderr}"
            );
            assert!(
                !outside.join("demo").exists(),
                "{case} {extra:?} wrote outside"
            );
        }
        assert!(
            import::destinations(&on(&machine))
                .iter()
                .all(|d| !(d.agent == AgentId::CLAUDE_CODE && d.scope == Scope::Project)),
            "{case}: the app would offer it"
        );
    }
}

#[test]
fn a_link_that_stays_inside_the_project_is_followed_and_named() {
    let machine = Machine::new();
    let root = project_root(&machine);
    let shared = machine.repo.join("shared-skills");
    fs::create_dir_all(&shared).unwrap();
    fs::create_dir_all(root.parent().unwrap()).unwrap();
    symlink(&shared, &root).unwrap();
    let dry = import_to_project(&machine, &["--dry-run"]);
    assert!(
        dry.status.success(),
        "{}",
        String::from_utf8_lossy(&dry.stderr)
    );
    assert!(
        String::from_utf8_lossy(&dry.stdout).contains(&shared.join("demo").display().to_string()),
        "the preview names where the files land: {}",
        String::from_utf8_lossy(&dry.stdout)
    );
    let last = String::from_utf8_lossy(&dry.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_owned();
    assert!(
        last.starts_with("Dry run: 1 skill (")
            && last.contains("would be installed into ")
            && last.ends_with("; nothing was written."),
        "{last}"
    );
    let done = import_to_project(&machine, &[]);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert!(shared.join("demo/SKILL.md").is_file());
    let offered = import::destinations(&on(&machine));
    assert!(
        offered
            .iter()
            .any(|d| d.scope == Scope::Project && d.root == shared)
    );
}

#[test]
fn a_user_folder_may_lead_where_its_user_linked_it() {
    let machine = Machine::new();
    let dotfiles = machine.root().join("dotfiles/skills");
    fs::create_dir_all(&dotfiles).unwrap();
    fs::create_dir_all(machine.home.join(".claude")).unwrap();
    symlink(&dotfiles, machine.home.join(".claude/skills")).unwrap();
    let source = bundle(&machine);
    let output = machine.run(&["import", &source, "--agent", "claude-code"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(dotfiles.join("demo/SKILL.md").is_file());
}
