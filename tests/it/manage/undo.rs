//! `skilldeck undo`: each operation reverted byte for byte (files, modes, links), refused when
//! what it left changed since, and `--list` marking what was undone.

use std::fs;

#[cfg(unix)]
use super::{json, refused_changing_nothing, stderr};
use super::{rich_skill, skills_tree, stdout};
#[cfg(unix)]
use crate::common::symlink;
use crate::common::{Machine, write_skill};

/// Run `args`, then `undo`, and insist the skill folders are back as they were.
fn undone_byte_for_byte(machine: &Machine, args: &[&str]) {
    let before = skills_tree(machine);
    machine.run_expecting(args, 0);
    assert_ne!(skills_tree(machine), before, "{args:?} changed nothing");
    let output = machine.run_expecting(&["undo"], 0);
    assert!(
        stdout(&output).starts_with("Undid the "),
        "{}",
        stdout(&output)
    );
    assert_eq!(skills_tree(machine), before, "undo of {args:?}");
}

/// A skill with a link to it: links are made with Unix links here.
#[cfg(unix)]
fn machine_with_demo() -> Machine {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/demo");
    rich_skill(&dir);
    symlink(&dir, &machine.home.join(".agents/skills/demo"));
    machine
}

#[cfg(unix)]
#[test]
fn undo_of_a_remove_brings_the_folder_and_its_links_back_byte_for_byte() {
    let machine = machine_with_demo();
    undone_byte_for_byte(&machine, &["remove", "demo"]);
}

#[cfg(unix)]
#[test]
fn undo_of_a_link_a_copy_and_a_move_each_put_things_back() {
    let machine = machine_with_demo();
    undone_byte_for_byte(&machine, &["link", "demo", "--agent", "copilot"]);
    // Copilot also reads ~/.agents/skills, where `demo` is linked: the copy is forced.
    undone_byte_for_byte(&machine, &["copy", "demo", "--agent", "copilot", "--force"]);
    let solo = Machine::new();
    rich_skill(&solo.home.join(".claude/skills/solo"));
    undone_byte_for_byte(&solo, &["move", "solo", "--scope", "project"]);
}

#[test]
fn undo_of_an_import_removes_what_it_installed() {
    let machine = Machine::new();
    let bundle = machine.root().join("bundle/fresh");
    write_skill(&bundle, &[]);
    let root = machine.home.join(".claude/skills");
    fs::create_dir_all(&root).unwrap();
    undone_byte_for_byte(
        &machine,
        &[
            "import",
            bundle.to_str().unwrap(),
            "--to",
            root.to_str().unwrap(),
        ],
    );
}

#[cfg(unix)]
#[test]
fn undo_refuses_when_the_target_changed_since_and_changes_nothing() {
    let machine = Machine::new();
    let bundle = machine.root().join("bundle/fresh");
    write_skill(&bundle, &[]);
    let root = machine.home.join(".claude/skills");
    machine.import_to(&bundle, &root);
    fs::write(root.join("fresh/mine.md"), "my later work\n").unwrap();
    let output = refused_changing_nothing(&machine, &["undo"], 1);
    assert!(
        stderr(&output).contains("changed since"),
        "{}",
        stderr(&output)
    );
    let output = refused_changing_nothing(&machine, &["undo", "--json"], 1);
    assert_eq!(json(&output)["refused"]["code"], "changed_since");

    // A removed link whose path is taken since is not made again over what is there.
    let linked = machine_with_demo();
    let link = linked.home.join(".agents/skills/demo");
    linked.run_expecting(&["remove", link.to_str().unwrap()], 0);
    write_skill(&link, &[]);
    refused_changing_nothing(&linked, &["undo"], 1);

    // A removed folder that came back otherwise is not overwritten.
    let removed = machine_with_demo();
    removed.run_expecting(&["remove", "demo"], 0);
    write_skill(&removed.home.join(".claude/skills/demo"), &[]);
    refused_changing_nothing(&removed, &["undo"], 1);
}

#[cfg(unix)]
#[test]
fn undo_list_marks_what_was_undone_and_undo_walks_back_past_snapshots() {
    let machine = machine_with_demo();
    machine.run_expecting(&["link", "demo", "--agent", "copilot"], 0);
    machine.run_expecting(&["snapshot", "demo"], 0);
    let output = machine.run_expecting(&["undo"], 0);
    // When, for people: not the journal's RFC 3339 stamp.
    assert!(
        stdout(&output).contains("Passed over the snapshot made just now"),
        "{}",
        stdout(&output)
    );
    assert!(
        stdout(&output).contains("Undid the link made just now:"),
        "{}",
        stdout(&output)
    );
    assert!(fs::symlink_metadata(machine.home.join(".copilot/skills/demo")).is_err());
    let listed = json(&machine.run_expecting(&["undo", "--list", "--json"], 0));
    let entries = listed["entries"].as_array().unwrap();
    let ops: Vec<(&str, bool)> = entries
        .iter()
        .map(|e| {
            (
                e["operation"].as_str().unwrap(),
                e["undone"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ops,
        [("link", true), ("snapshot", false), ("undo", false)],
        "{listed}"
    );
    assert_eq!(entries[2]["undoes"], entries[0]["at"]);
    let text = stdout(&machine.run_expecting(&["undo", "--list"], 0));
    assert!(text.contains("(undone)"), "{text}");
    assert!(text.lines().all(|l| l.starts_with("just now  ")), "{text}");
    assert!(!text.contains(entries[0]["at"].as_str().unwrap()), "{text}");
    let output = refused_changing_nothing(&machine, &["undo"], 1);
    assert!(
        stderr(&output).contains("nothing left to undo"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn undo_of_a_forced_import_puts_the_edit_it_replaced_back() {
    let machine = Machine::new();
    let bundle = machine.root().join("bundle/fresh");
    write_skill(&bundle, &[]);
    let root = machine.home.join(".claude/skills");
    let (source, to) = (bundle.to_str().unwrap(), root.to_str().unwrap());
    machine.run_expecting(&["import", source, "--to", to], 0);
    fs::write(root.join("fresh/mine.md"), "my edit\n").unwrap();
    undone_byte_for_byte(&machine, &["import", source, "--to", to, "--force"]);
    assert_eq!(
        fs::read_to_string(root.join("fresh/mine.md")).unwrap(),
        "my edit\n"
    );
}

#[test]
fn each_managing_command_teaches_itself_and_its_undo() {
    let machine = Machine::new();
    for command in ["remove", "link", "copy", "move", "undo"] {
        let text = stdout(&machine.run_expecting(&[command, "--help"], 0));
        assert!(text.contains("skilldeck undo"), "{command} --help:\n{text}");
        assert!(text.contains("Exit codes"), "{command} --help:\n{text}");
    }
    // A usage error is exit 2.
    machine.run_expecting(&["link", "demo"], 2);
    machine.run_expecting(&["move", "demo", "--scope", "elsewhere"], 2);
}

#[cfg(unix)]
#[test]
fn the_skills_one_remove_named_come_back_with_one_undo() {
    let machine = machine_with_demo();
    rich_skill(&machine.home.join(".claude/skills/other"));
    rich_skill(&machine.home.join(".claude/skills/third"));
    let before = skills_tree(&machine);
    machine.run_expecting(&["remove", "demo", "other"], 0);
    machine.run_expecting(&["remove", "third"], 0);
    // The later command first, alone: it was a batch of its own.
    let output = machine.run_expecting(&["undo", "--json"], 0);
    assert!(json(&output)["also_undone"].as_array().unwrap().is_empty());
    let output = machine.run_expecting(&["undo"], 0);
    assert_eq!(
        stdout(&output).matches("Undid the remove").count(),
        2,
        "{}",
        stdout(&output)
    );
    assert_eq!(skills_tree(&machine), before);
    let output = machine.run_expecting(&["undo"], 1);
    assert!(
        stderr(&output).contains("nothing left to undo"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_batch_whose_earlier_skill_changed_since_is_undone_as_far_as_it_can_and_says_so() {
    let machine = Machine::new();
    let first = machine.home.join(".claude/skills/first");
    let second = machine.home.join(".claude/skills/second");
    rich_skill(&first);
    rich_skill(&second);
    machine.run_expecting(&["remove", "first", "second"], 0);
    // Something new where `first` was: its undo must not replace it.
    write_skill(
        &first,
        &[("SKILL.md", "---\nname: first\ndescription: new\n---\n")],
    );
    let output = machine.run_expecting(&["undo"], 0);
    let said = stdout(&output);
    assert!(said.contains("not undone"), "{said}");
    assert!(
        second.join("SKILL.md").is_file(),
        "the second skill came back"
    );
    assert!(
        fs::read_to_string(first.join("SKILL.md"))
            .unwrap()
            .contains("description: new"),
        "the new first skill was replaced"
    );
}
