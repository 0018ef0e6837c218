//! skilldeck's verdict against agent-skill-installer 0.2.1's own, skill by skill: skills are
//! installed by the real crate, then changed the ways people and tools change them, and both
//! must call each one the same (intact, modified, or carrying no record).

use std::fs;
use std::path::Path;

use crate::common::{Installer, Machine};
use agent_skill_installer::{Found, Skill};
use skilldeck::record::State;
use skilldeck::scan::{self, Inventory};

const PROGRAM: &str = "fixture-installer";

fn skill(name: &str) -> Skill {
    Skill::new(
        name,
        "A skill to cross-check.",
        "# Body\n\nText with ümlauts.\n",
    )
    .unwrap()
    .with_field("license", "MIT")
    .unwrap()
    .with_metadata("author", "Jane \"JJ\" Doe")
    .unwrap()
    .with_file("references/cli.md", "# CLI\n")
    .unwrap()
    .with_file("a-b.md", "dash")
    .unwrap()
    .with_file("a.md", "plain")
    .unwrap()
    .with_file("a/x.md", "nested")
    .unwrap()
    .with_file("scripts/run.sh", "#!/bin/sh\necho hi\n")
    .unwrap()
}

fn scan(machine: &Machine) -> Inventory {
    scan::scan(&machine.env(), &machine.start, &|_| {})
}

fn state_of(inventory: &Inventory, dir: &Path) -> State {
    inventory
        .skills
        .iter()
        .find(|s| s.dir == dir)
        .unwrap_or_else(|| panic!("{} not listed", dir.display()))
        .state
}

/// The state the installer's verdict corresponds to.
fn expected(found: &Found) -> State {
    match found {
        Found::Ours {
            unmodified: true, ..
        } => State::Intact,
        Found::Ours {
            unmodified: false, ..
        } => State::Modified,
        Found::Foreign(reason) if reason == "carries no installation record" => State::Unrecorded,
        other => panic!("no skilldeck state corresponds to {other:?}"),
    }
}

type Mutation = fn(&Path);

/// Mode bits and links are Unix's: elsewhere those mutations are left out, in place.
fn mutations() -> Vec<(&'static str, Mutation)> {
    let mut all: Vec<(&'static str, Mutation)> = vec![
        ("untouched", |_| {}),
        ("edit a file", |dir| {
            fs::write(dir.join("references/cli.md"), "# CLI, edited\n").unwrap();
        }),
        ("edit the body of SKILL.md", |dir| {
            let text = fs::read_to_string(dir.join("SKILL.md")).unwrap();
            fs::write(dir.join("SKILL.md"), text + "One more line.\n").unwrap();
        }),
        ("add a file", |dir| {
            fs::write(dir.join("notes.txt"), "new").unwrap();
        }),
        ("remove a file", |dir| {
            fs::remove_file(dir.join("a.md")).unwrap();
        }),
        ("CRLF line endings in SKILL.md", |dir| {
            let text = fs::read_to_string(dir.join("SKILL.md")).unwrap();
            fs::write(dir.join("SKILL.md"), text.replace('\n', "\r\n")).unwrap();
        }),
    ];
    #[cfg(unix)]
    all.push(("chmod +x", |dir| {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir.join("a.md"), fs::Permissions::from_mode(0o755)).unwrap();
    }));
    all.extend::<Vec<(&'static str, Mutation)>>(vec![
        ("add .DS_Store", |dir| {
            fs::write(dir.join(".DS_Store"), [0u8, 1, 2]).unwrap();
            fs::write(dir.join("references/Thumbs.db"), "x").unwrap();
        }),
        ("an empty directory", |dir| {
            fs::create_dir_all(dir.join("empty/deeper")).unwrap();
        }),
        ("an unquoted metadata line", |dir| {
            let text = fs::read_to_string(dir.join("SKILL.md")).unwrap();
            let text = text.replacen("  author:", "  foo: bar\n  author:", 1);
            fs::write(dir.join("SKILL.md"), text).unwrap();
        }),
        ("a quoted metadata line", |dir| {
            let text = fs::read_to_string(dir.join("SKILL.md")).unwrap();
            let text = text.replacen("  author:", "  foo: \"bar\"\n  author:", 1);
            fs::write(dir.join("SKILL.md"), text).unwrap();
        }),
        ("the record rewritten unquoted", |dir| {
            let text = fs::read_to_string(dir.join("SKILL.md")).unwrap();
            let text = text.replace(
                &format!("installed-by: \"{PROGRAM}\""),
                &format!("installed-by: {PROGRAM}"),
            );
            fs::write(dir.join("SKILL.md"), text).unwrap();
        }),
    ]);
    #[cfg(unix)]
    all.extend::<Vec<(&'static str, Mutation)>>(vec![
        ("a symlink inside", |dir| {
            std::os::unix::fs::symlink("a.md", dir.join("alias.md")).unwrap();
        }),
        ("a symlink to a directory inside", |dir| {
            std::os::unix::fs::symlink("references", dir.join("refs")).unwrap();
        }),
    ]);
    all
}

#[test]
fn skilldeck_agrees_with_the_installer_after_every_mutation() {
    for (what, mutate) in mutations() {
        let machine = Machine::new();
        let installer = Installer::for_claude(&machine.home, PROGRAM, "1.0.0");
        let skill = skill("cross-check");
        let dir = installer.install(&skill);
        mutate(&dir);
        let verdict = installer.found(&skill);
        let inventory = scan(&machine);
        assert_eq!(
            state_of(&inventory, &dir),
            expected(&verdict),
            "{what}: the installer says {verdict:?}"
        );
    }
}

#[test]
fn the_record_and_digest_read_back_as_written() {
    let machine = Machine::new();
    let installer = Installer::for_claude(&machine.home, PROGRAM, "1.2.3");
    let dir = installer.install(&skill("read-back"));
    let inventory = scan(&machine);
    let listed = inventory.skills.iter().find(|s| s.dir == dir).unwrap();
    let record = listed.record.as_ref().expect("a record");
    assert_eq!(record.installed_by, PROGRAM);
    assert_eq!(record.installed_version, "1.2.3");
    assert_eq!(
        listed.digest.as_ref().map(|d| d.as_str()),
        Some(record.content_digest.as_str())
    );
    assert_eq!(record.content_digest, crate::common::oracle_digest(&dir));
}

#[test]
fn an_update_by_a_newer_version_reads_as_intact_at_that_version() {
    let machine = Machine::new();
    let skill = skill("updated");
    let dir = Installer::for_claude(&machine.home, PROGRAM, "1.0.0").install(&skill);
    Installer::for_claude(&machine.home, PROGRAM, "1.1.0").update(&skill);
    let inventory = scan(&machine);
    let listed = inventory.skills.iter().find(|s| s.dir == dir).unwrap();
    assert_eq!(listed.state, State::Intact);
    assert_eq!(listed.record.as_ref().unwrap().installed_version, "1.1.0");
}

#[test]
fn a_record_of_another_program_is_still_verified() {
    // The installer calls such a skill foreign and gives no verdict on its files; skilldeck is
    // not tied to one program and checks the digest all the same.
    let machine = Machine::new();
    let dir =
        Installer::for_claude(&machine.home, "other-program", "2.0.0").install(&skill("theirs"));
    let ours = Installer::for_claude(&machine.home, PROGRAM, "1.0.0");
    assert_eq!(
        ours.found(&skill("theirs")),
        Found::Foreign("was installed by other-program".into())
    );
    assert_eq!(state_of(&scan(&machine), &dir), State::Intact);
    fs::write(dir.join("a.md"), "changed").unwrap();
    assert_eq!(state_of(&scan(&machine), &dir), State::Modified);
}
