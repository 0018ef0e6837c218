//! `skilldeck link`, `copy` and `move`: the skill lands where the agent reads it, a plan that
//! would change which copy an agent loads is shown and refused unless forced.

use std::fs;

use super::{agents_of, json, refused_changing_nothing, rich_skill, stderr, stdout, tree};
use crate::common::{Machine, write_skill};

#[test]
fn link_makes_the_skill_visible_to_another_agent_with_an_absolute_link() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/demo");
    rich_skill(&dir);
    let dry = machine.run_expecting(&["link", "demo", "--agent", "codex", "--dry-run"], 0);
    assert!(
        // From the source to the destination, as every arrow skilldeck draws.
        stdout(&dry).contains("Would link ~/.claude/skills/demo -> ~/.agents/skills/demo"),
        "{}",
        stdout(&dry)
    );
    assert!(fs::symlink_metadata(machine.home.join(".agents")).is_err());
    let output = machine.run_expecting(&["link", "demo", "--agent", "codex"], 0);
    assert!(
        stdout(&output).contains("Linked ~/.claude/skills/demo -> ~/.agents/skills/demo"),
        "{}",
        stdout(&output)
    );
    assert!(
        stdout(&output).contains("skilldeck undo"),
        "{}",
        stdout(&output)
    );
    let link = machine.home.join(".agents/skills/demo");
    assert_eq!(fs::read_link(&link).unwrap(), dir);
    let agents = agents_of(&machine, &dir);
    assert!(agents.iter().any(|a| a == "codex"), "{agents:?}");
    assert!(agents.iter().any(|a| a == "claude-code"), "{agents:?}");
    // Something already there: refused.
    refused_changing_nothing(&machine, &["link", "demo", "--agent", "codex"], 1);
}

#[test]
fn copy_puts_an_independent_recorded_copy_and_leaves_the_original() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/demo");
    rich_skill(&dir);
    let original = tree(&dir);
    let done = json(&machine.run_expecting(&["copy", "demo", "--agent", "copilot", "--json"], 0));
    let copy = machine.home.join(".copilot/skills/demo");
    assert_eq!(done["done"]["to"], copy.to_str().unwrap());
    assert_eq!(done["undo"], "skilldeck undo");
    assert!(!fs::symlink_metadata(&copy).unwrap().is_symlink());
    assert_eq!(tree(&dir), original);
    assert_eq!(
        fs::read(copy.join("scripts/run.sh")).unwrap(),
        fs::read(dir.join("scripts/run.sh")).unwrap()
    );
    let list = machine.list_json();
    let listed = list["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["dir"] == copy.to_str().unwrap())
        .unwrap();
    assert_eq!(listed["record"]["installed_by"], "skilldeck", "{listed}");
    assert_eq!(listed["state"], "intact");
}

#[test]
fn move_renames_the_folder_into_the_project_keeping_every_byte() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/demo");
    rich_skill(&dir);
    let before = tree(&dir);
    let output = machine.run_expecting(&["move", "demo", "--scope", "project"], 0);
    assert!(
        stdout(&output).contains("Moved ~/.claude/skills/demo"),
        "{}",
        stdout(&output)
    );
    let moved = machine.repo.join(".claude/skills/demo");
    assert_eq!(tree(&moved), before);
    assert!(fs::symlink_metadata(&dir).is_err());
    let agents = agents_of(&machine, &moved);
    assert!(agents.iter().any(|a| a == "claude-code"), "{agents:?}");
}

#[test]
fn a_plan_that_would_shadow_is_shown_and_refused_until_forced() {
    let machine = Machine::new();
    let user = machine.home.join(".claude/skills/demo");
    write_skill(&user, &[("which.md", "user\n")]);
    let project_copy = machine.repo.join(".claude/skills/other");
    write_skill(&project_copy, &[]);
    // Claude Code loads its user copy over a project one of the same name: linking the
    // project's `demo` in would lose to it.
    let project = machine.repo.join(".claude/skills/demo");
    fs::create_dir_all(machine.repo.join(".codex/skills")).unwrap();
    let codex_demo = machine.home.join(".codex/skills/demo");
    write_skill(&codex_demo, &[("which.md", "codex\n")]);
    let output = refused_changing_nothing(
        &machine,
        &[
            "copy",
            user.to_str().unwrap(),
            "--agent",
            "claude-code",
            "--scope",
            "project",
        ],
        1,
    );
    let text = stderr(&output);
    assert!(text.contains("claude-code:"), "{text}");
    assert!(text.contains("would win over"), "{text}");
    assert!(text.contains("--force"), "{text}");
    let output = refused_changing_nothing(
        &machine,
        &[
            "copy",
            user.to_str().unwrap(),
            "--agent",
            "claude-code",
            "--scope",
            "project",
            "--json",
        ],
        1,
    );
    let refused = json(&output);
    assert_eq!(refused["refused"]["code"], "would_shadow");
    let shadowing = &refused["refused"]["plan"]["shadowing"];
    assert!(
        shadowing
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["agent"] == "claude-code"
                && s["winner"] == user.to_str().unwrap()
                && s["loser"] == project.to_str().unwrap()),
        "{refused}"
    );
    // The dry run shows the same plan and changes nothing.
    let dry = refused_changing_nothing(
        &machine,
        &[
            "copy",
            user.to_str().unwrap(),
            "--agent",
            "claude-code",
            "--scope",
            "project",
            "--dry-run",
        ],
        0,
    );
    assert!(stdout(&dry).contains("wins over"), "{}", stdout(&dry));
    machine.run_expecting(
        &[
            "copy",
            user.to_str().unwrap(),
            "--agent",
            "claude-code",
            "--scope",
            "project",
            "--force",
        ],
        0,
    );
    assert!(project.join("SKILL.md").is_file());
}

#[cfg(unix)]
#[test]
fn a_folder_links_lead_to_and_a_plugins_skill_are_not_moved() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/demo");
    rich_skill(&dir);
    crate::common::symlink(&dir, &machine.home.join(".agents/skills/demo"));
    let output = refused_changing_nothing(&machine, &["move", "demo", "--scope", "project"], 1);
    assert!(
        stderr(&output).contains("leading nowhere"),
        "{}",
        stderr(&output)
    );
    let output =
        refused_changing_nothing(&machine, &["move", "demo", "--scope", "user", "--json"], 1);
    assert_eq!(json(&output)["refused"]["code"], "refused");
    // Linking it where it already is: refused, nothing changed.
    refused_changing_nothing(&machine, &["link", "demo", "--agent", "claude-code"], 1);
}

/// Across mounts no rename reaches: the folder is copied (with skilldeck's record), the
/// original removed after its snapshot, and undo still puts it back byte for byte.
#[cfg(target_os = "linux")]
#[test]
fn a_move_to_another_mount_copies_then_removes_and_undo_puts_it_back() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/demo");
    rich_skill(&dir);
    let root = machine.repo.join(".claude/skills");
    fs::create_dir_all(&root).unwrap();
    let Some(_mount) = crate::common::mount::Mount::tmpfs_on(&root, "8m") else {
        return;
    };
    let before = super::skills_tree(&machine);
    let original = tree(&dir);
    machine.run_expecting(&["move", "demo", "--scope", "project"], 0);
    let moved = root.join("demo");
    assert!(fs::symlink_metadata(&dir).is_err());
    assert_eq!(
        fs::read(moved.join("scripts/run.sh")).unwrap(),
        b"#!/bin/sh\necho hi\n"
    );
    machine.run_expecting(&["undo"], 0);
    assert_eq!(tree(&dir), original);
    assert!(fs::symlink_metadata(&moved).is_err());
    assert_eq!(super::skills_tree(&machine), before);
}

/// The plan's word on who would win is the scan's word once it is done: both come from one
/// rule, checked here on a copy into a project root that several agents read beside the user
/// copy.
#[test]
fn the_shadowing_a_plan_predicts_is_what_the_listing_finds_after_it() {
    let machine = Machine::new();
    let user = machine.home.join(".claude/skills/demo");
    write_skill(&user, &[]);
    let args = [
        "copy",
        "demo",
        "--agent",
        "claude-code",
        "--scope",
        "project",
        "--json",
    ];
    let dry: Vec<&str> = args.iter().copied().chain(["--dry-run"]).collect();
    let plan = json(&machine.run_expecting(&dry, 0))["plan"]["shadowing"].clone();
    assert!(!plan.as_array().unwrap().is_empty(), "{plan}");
    let forced: Vec<&str> = args.iter().copied().chain(["--force"]).collect();
    machine.run_expecting(&forced, 0);
    let list = json(&machine.run_expecting(&["list", "--json", "--all-agents"], 0));
    for predicted in plan.as_array().unwrap() {
        if predicted["unsettled"] == true {
            continue;
        }
        let loser = list["skills"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["dir"] == predicted["loser"])
            .unwrap_or_else(|| panic!("{predicted} names a loser not listed"));
        assert!(
            loser["shadowing"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["agent"] == predicted["agent"] && s["winner"] == predicted["winner"]),
            "predicted {predicted}, listed {loser}"
        );
    }
}

/// A copy that an agent not on this machine would pick over another changes nothing anyone
/// runs: only the installed agents' shadowing refuses (every agent's with --all-agents), and
/// the refusal names them. The same rule for link, copy and move.
#[test]
fn only_installed_agents_shadowing_refuses_and_the_refusal_names_them() {
    for verb in ["copy", "link", "move"] {
        let machine = Machine::new();
        let mine = machine.home.join(".claude/skills/demo");
        write_skill(&mine, &[("which.md", "mine\n")]);
        // Several agents (OpenCode, Copilot, Amp, ...) read both ~/.agents/skills and the
        // project's .agents/skills; none of them is installed yet (only Claude Code is, which
        // reads neither).
        write_skill(
            &machine.home.join(".agents/skills/demo"),
            &[("which.md", "shared\n")],
        );
        let mine_arg = mine.to_str().unwrap();
        let args = [verb, mine_arg, "--agent", "codex", "--scope", "project"];
        let with = |extra: &[&'static str]| -> Vec<&str> {
            args.iter().copied().chain(extra.iter().copied()).collect()
        };

        let every = refused_changing_nothing(&machine, &with(&["--all-agents"]), 1);
        assert!(
            stderr(&every).contains("GitHub Copilot"),
            "{}",
            stderr(&every)
        );

        fs::create_dir_all(machine.home.join(".config/amp")).unwrap();
        let refused = refused_changing_nothing(&machine, &args, 1);
        let text = stderr(&refused);
        assert!(
            text.contains(&format!(
                "after the {verb}, Amp would load another copy of demo than now"
            )),
            "{text}"
        );
        assert!(!text.contains("Copilot"), "{text}");
        let refused = json(&refused_changing_nothing(&machine, &with(&["--json"]), 1));
        let agents: Vec<&str> = refused["refused"]["plan"]["shadowing"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["agent"].as_str().unwrap())
            .collect();
        assert_eq!(agents, ["amp"], "{refused}");

        fs::remove_dir(machine.home.join(".config/amp")).unwrap();
        let done = machine.run_expecting(&args, 0);
        assert!(
            stdout(&done).contains("no agent installed here reads that folder"),
            "{}",
            stdout(&done)
        );
        assert!(machine.repo.join(".agents/skills/demo/SKILL.md").is_file());
    }
}

/// The skills the app's changed view lists on `machine`, as (folder, why).
fn changed_view(machine: &Machine) -> Vec<(std::path::PathBuf, &'static str)> {
    use skilldeck::snapshot::changes::{self, Since, Subject};
    let env = machine.env();
    let inventory = skilldeck::scan::scan(&env, &machine.start, &|_| {});
    let subjects: Vec<Subject<'_>> = inventory.skills.iter().map(Subject::of).collect();
    let store = skilldeck::snapshot::Store::open(&env);
    changes::changes(&store, &subjects)
        .unwrap()
        .changed
        .into_iter()
        .map(|c| {
            let why = match c.since {
                Since::Snapshot(_) => "changed",
                Since::Gone(_) => "gone",
                Since::Installed => "installed",
            };
            (c.dir, why)
        })
        .collect()
}

/// A moved skill is not gone: its old place is kept off the changed view while the skill is
/// where it went, on one mount and (through the copy) as the undo restores it; once the moved
/// skill is deleted, or the move undone and the skill removed, it is gone again.
#[test]
fn a_moved_skill_leaves_no_gone_entry_in_the_changed_view() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/demo");
    rich_skill(&dir);
    machine.run_expecting(&["snapshot", "demo"], 0);
    machine.run_expecting(&["move", "demo", "--scope", "project"], 0);
    let moved = machine.repo.join(".claude/skills/demo");
    assert!(moved.join("SKILL.md").is_file());
    assert_eq!(changed_view(&machine), []);

    // Undone: back where it was, nothing changed; removed there, it is gone from there.
    machine.run_expecting(&["undo"], 0);
    assert!(dir.join("SKILL.md").is_file());
    assert!(
        !changed_view(&machine).iter().any(|(d, _)| d == &dir),
        "{:?}",
        changed_view(&machine)
    );
    machine.run_expecting(&["remove", dir.to_str().unwrap()], 0);
    assert!(
        changed_view(&machine).contains(&(dir.clone(), "gone")),
        "{:?}",
        changed_view(&machine)
    );

    // Moved again and deleted by hand where it went: both places read as gone.
    let other = Machine::new();
    let dir = other.home.join(".claude/skills/demo");
    rich_skill(&dir);
    other.run_expecting(&["move", "demo", "--scope", "project"], 0);
    let moved = other.repo.join(".claude/skills/demo");
    fs::remove_dir_all(&moved).unwrap();
    let view = changed_view(&other);
    assert!(view.contains(&(dir.clone(), "gone")), "{view:?}");
    assert!(view.contains(&(moved, "gone")), "{view:?}");
}
