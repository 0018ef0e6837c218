//! Bad input on disk is a problem on the listing, never a crash, a hang or a missing skill:
//! files where roots should be, binary, non-UTF-8 and oversized `SKILL.md`s, links that loop
//! or lead nowhere, FIFOs, and folders the user may not read.

#[cfg(unix)]
use std::fs;
#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
#[cfg(unix)]
use std::path::Path;

#[cfg(unix)]
use crate::common::symlink;
use crate::common::{Machine, listed as skill, write_files, write_skill};
#[cfg(unix)]
use serde_json::Value;

#[cfg(unix)]
fn problems(skill: &Value) -> String {
    skill["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect::<Vec<_>>()
        .join(" | ")
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}

// Links and FIFOs are what break these skills: Unix file kinds.
#[cfg(unix)]
#[test]
fn broken_skill_files_are_problems_and_the_rest_still_lists() {
    let machine = Machine::new();
    let skills = machine.home.join(".claude/skills");
    write_skill(&skills.join("fine"), &[]);
    write_files(
        &skills.join("binary"),
        &[("SKILL.md", "---\nname: binary\n\0\0\0")],
    );
    fs::create_dir_all(skills.join("latin1")).unwrap();
    fs::write(skills.join("latin1/SKILL.md"), b"---\nname: caf\xe9\n---\n").unwrap();
    fs::create_dir_all(skills.join("huge")).unwrap();
    fs::write(skills.join("huge/SKILL.md"), vec![b'a'; 1024 * 1024 + 1]).unwrap();
    write_files(
        &skills.join("no-frontmatter"),
        &[("SKILL.md", "# Just a body\n")],
    );
    symlink(Path::new("loop"), &skills.join("loop"));
    symlink(Path::new("/nonexistent/target"), &skills.join("dangling"));
    fs::create_dir_all(skills.join("fifo-manifest")).unwrap();
    mkfifo(&skills.join("fifo-manifest/SKILL.md"));
    write_skill(&skills.join("fifo-inside"), &[]);
    mkfifo(&skills.join("fifo-inside/pipe"));

    let listing = machine.list_json();
    assert_eq!(skill(&listing, "fine")["state"], "unrecorded");
    let cases = [
        ("binary", "unreadable", "binary file"),
        ("latin1", "unreadable", "not valid UTF-8"),
        ("huge", "unreadable", "more than the 1048576"),
        (
            "no-frontmatter",
            "unrecorded",
            "must start with YAML frontmatter",
        ),
        ("loop", "unreadable", "link loop"),
        ("dangling", "unreadable", "does not exist"),
        ("fifo-manifest", "unreadable", "not a regular file"),
        (
            "fifo-inside",
            "unrecorded",
            "pipe is neither a file nor a directory",
        ),
    ];
    for (name, state, problem) in cases {
        let listed = skill(&listing, name);
        assert_eq!(listed["state"], state, "{name}: {listed}");
        assert!(
            problems(listed).contains(problem),
            "{name}: {}",
            problems(listed)
        );
    }
}

#[test]
fn a_root_that_is_a_file_is_a_problem_of_the_root() {
    let machine = Machine::new();
    write_files(&machine.home, &[(".cursor/skills", "not a directory")]);
    write_skill(&machine.home.join(".claude/skills/fine"), &[]);
    let listing = machine.list_json();
    let root = listing["roots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["path"].as_str().unwrap().ends_with("home/.cursor/skills"))
        .unwrap();
    assert_eq!(root["exists"], false);
    assert!(
        root["problems"][0].as_str().unwrap().contains("is a file"),
        "{root}"
    );
    assert_eq!(skill(&listing, "fine")["state"], "unrecorded");
}

// Windows file names are UTF-16: only Unix names can be bytes that are not UTF-8.
#[cfg(unix)]
#[test]
fn a_name_that_is_not_utf8_still_lists_as_json() {
    use std::os::unix::ffi::OsStrExt;
    let machine = Machine::new();
    let name = std::ffi::OsStr::from_bytes(b"bad-\xff-name");
    write_skill(&machine.home.join(".claude/skills").join(name), &[]);
    let listing = machine.list_json();
    let listed = skill(&listing, "bad-\u{fffd}-name");
    assert!(
        listed["dir"]
            .as_str()
            .unwrap()
            .ends_with("bad-\u{fffd}-name")
    );
}

// Unix permission bits, and a user without privileges to read past them.
#[cfg(unix)]
#[test]
fn folders_the_user_may_not_read_are_problems() {
    let machine = Machine::new();
    let skills = machine.home.join(".claude/skills");
    write_skill(&skills.join("fine"), &[]);
    write_skill(&skills.join("locked"), &[]);
    write_skill(&skills.join("partial"), &[("secret.md", "s")]);
    write_skill(&machine.home.join(".agents/skills/hidden"), &[]);
    fs::set_permissions(skills.join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
    fs::set_permissions(
        skills.join("partial/secret.md"),
        fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    fs::set_permissions(
        machine.home.join(".agents/skills"),
        fs::Permissions::from_mode(0o300),
    )
    .unwrap();

    let output = machine.run_unprivileged(&["list", "--json"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let listing: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(skill(&listing, "fine")["state"], "unrecorded");
    let locked = skill(&listing, "locked");
    assert_eq!(locked["state"], "unreadable");
    assert!(problems(locked).contains("Permission denied"), "{locked}");
    let partial = skill(&listing, "partial");
    assert!(
        problems(partial).contains("secret.md could not be read"),
        "{partial}"
    );
    let agents_root = listing["roots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["path"].as_str().unwrap().ends_with("home/.agents/skills"))
        .unwrap();
    assert!(
        agents_root["problems"][0]
            .as_str()
            .unwrap()
            .contains("could not be read"),
        "{agents_root}"
    );
}
