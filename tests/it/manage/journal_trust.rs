//! The journal as an attacker or a full disk leaves it: `undo` must act only on entries
//! skilldeck wrote and only inside the roots and store it knows (paths resolved when it acts),
//! a line cut short must never swallow the next entry, and the journal and the data directory
//! must be the user's alone whatever the umask.

#![cfg(unix)]

use std::fs;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use skilldeck::operations::{Change, Entry, Journal, Operation, Was};

use super::{rich_skill, stderr, stdout, tree};
use crate::common::{Machine, symlink};

fn data_dir(machine: &Machine) -> PathBuf {
    machine.home.join(".local/share/skilldeck")
}

fn journal_path(machine: &Machine) -> PathBuf {
    data_dir(machine).join("journal.jsonl")
}

fn library_machine(machine: &Machine) -> skilldeck::roots::Machine {
    skilldeck::roots::Machine::sandbox(&machine.home, &machine.system, &machine.start)
}

/// A machine with the skill `demo` in Claude Code's root, and a folder outside every root
/// that holds what an attacker would like gone.
fn machine_with_victim() -> (Machine, PathBuf) {
    let machine = Machine::new();
    rich_skill(&machine.home.join(".claude/skills/demo"));
    let victim = machine.root().join("victim");
    fs::create_dir_all(&victim).unwrap();
    fs::write(victim.join("precious.txt"), "mine\n").unwrap();
    symlink(&victim, &victim.join("a-link"));
    (machine, victim)
}

/// Run `undo`, insist it was refused (exit 1) and that nothing outside skilldeck's data
/// folder changed: no root, no victim.
fn undo_refused(machine: &Machine, why: &str) -> String {
    let outside = |machine: &Machine| {
        tree(&machine.root())
            .into_iter()
            .filter(|(path, _)| !path.starts_with("home/.local"))
            .collect::<Vec<_>>()
    };
    let before = outside(machine);
    let output = machine.run(&["undo"]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{why}: undo was not refused\nstdout: {}\nstderr: {}",
        stdout(&output),
        stderr(&output)
    );
    assert_eq!(before, outside(machine), "{why}: undo changed the machine");
    stderr(&output)
}

fn change(dir: &Path, was: Was, link: Option<&Path>) -> Change {
    Change {
        dir: dir.to_path_buf(),
        was,
        snapshot: None,
        link: link.map(Path::to_path_buf),
    }
}

/// Lines a hand (not skilldeck) wrote into the journal: plain JSON, as the journal was.
fn plant(machine: &Machine, entries: &[Entry]) {
    fs::create_dir_all(data_dir(machine)).unwrap();
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(journal_path(machine))
        .unwrap();
    for entry in entries {
        let mut line = serde_json::to_vec(entry).unwrap();
        line.push(b'\n');
        file.write_all(&line).unwrap();
    }
}

#[test]
fn undo_refuses_entries_skilldeck_did_not_write() {
    let (machine, victim) = machine_with_victim();
    let root = machine.home.join(".claude/skills");
    let cases = [
        // A link the operation "made", outside every root: undo would delete it.
        Entry::now(
            Operation::Link,
            vec![change(&victim.join("a-link"), Was::Absent, Some(&victim))],
        ),
        // A link the operation "removed", inside a root by its text only.
        Entry::now(
            Operation::Remove,
            vec![change(
                &root.join("../../../victim/planted"),
                Was::Link(victim.clone()),
                None,
            )],
        ),
        // A plain-looking entry inside a root: still not sealed, still refused.
        Entry::now(
            Operation::Remove,
            vec![change(
                &root.join("planted"),
                Was::Link(victim.clone()),
                None,
            )],
        ),
    ];
    for entry in cases {
        let machine_case = {
            let (machine, _) = machine_with_victim();
            plant(&machine, std::slice::from_ref(&entry));
            machine
        };
        let said = undo_refused(&machine_case, "an unsealed entry");
        assert!(said.contains("not sealed"), "{said}");
    }
    // An entry skilldeck wrote, edited afterwards to point elsewhere, is refused too, and the
    // genuine entry before it is not reverted past it.
    machine.run_expecting(&["link", "demo", "--agent", "copilot"], 0);
    let journal = journal_path(&machine);
    let text = fs::read_to_string(&journal).unwrap();
    let copilot = machine.home.join(".copilot/skills/demo");
    let edited = text.replace(
        copilot.to_str().unwrap(),
        victim.join("a-link").to_str().unwrap(),
    );
    assert_ne!(edited, text);
    fs::write(&journal, format!("{text}{edited}")).unwrap();
    let said = undo_refused(&machine, "an edited entry");
    assert!(said.contains("line 2"), "{said}");
    assert!(victim.join("a-link").symlink_metadata().is_ok());
    assert!(copilot.symlink_metadata().is_ok());
}

/// The sealed changes that name a path outside the roots, on `machine` whose victim is
/// `victim`; each with what it tries.
fn escapes(machine: &Machine, victim: &Path) -> Vec<(&'static str, Change)> {
    let root = machine.home.join(".claude/skills");
    let demo = root.join("demo");
    vec![
        (
            "`..` climbs out of the root while the text starts with it",
            change(
                &root.join("../../../victim/new-link"),
                Was::Link(demo.clone()),
                None,
            ),
        ),
        (
            "a link in the root through which the path leaves it",
            change(&root.join("escape/new-link"), Was::Link(demo.clone()), None),
        ),
        (
            "a link outside every root, that undo would delete",
            change(&victim.join("a-link"), Was::Absent, Some(victim)),
        ),
        (
            "the root itself, which is no skill folder of it",
            change(&root, Was::Link(victim.to_path_buf()), None),
        ),
        (
            "a relative path",
            change(
                Path::new("../victim/new-link"),
                Was::Link(victim.to_path_buf()),
                None,
            ),
        ),
    ]
}

#[test]
fn undo_acts_only_inside_the_roots_as_resolved_when_it_acts() {
    let count = {
        let (machine, victim) = machine_with_victim();
        escapes(&machine, &victim).len()
    };
    for at in 0..count {
        let (machine, victim) = machine_with_victim();
        symlink(&victim, &machine.home.join(".claude/skills/escape"));
        let (what, bad) = escapes(&machine, &victim).swap_remove(at);
        // Written through skilldeck's own journal, so sealed: the paths alone must refuse it.
        Journal::of(&library_machine(&machine))
            .append(&Entry::now(Operation::Remove, vec![bad]))
            .unwrap();
        let said = undo_refused(&machine, what);
        assert!(said.contains("lies in no root"), "{what}: {said}");
        assert!(victim.join("a-link").symlink_metadata().is_ok(), "{what}");
        assert!(
            fs::symlink_metadata(victim.join("new-link")).is_err(),
            "{what}"
        );
    }
}

/// Append the first `cut` bytes of a line, without its newline: a write a full disk cut short.
fn tear(machine: &Machine, cut: usize) {
    let journal = journal_path(machine);
    let text = fs::read(&journal).unwrap();
    let first = text.split(|b| *b == b'\n').next().unwrap().to_vec();
    let mut file = fs::OpenOptions::new().append(true).open(&journal).unwrap();
    file.write_all(&first[..cut.min(first.len() - 1)]).unwrap();
}

#[test]
fn a_torn_last_line_never_swallows_the_next_entry() {
    for cut in [1, 17, 60, 10_000] {
        let machine = Machine::new();
        rich_skill(&machine.home.join(".claude/skills/demo"));
        rich_skill(&machine.home.join(".claude/skills/other"));
        machine.run_expecting(&["link", "demo", "--agent", "copilot"], 0);
        tear(&machine, cut);
        machine.run_expecting(&["link", "other", "--agent", "copilot"], 0);
        // The latest operation is the one undone, not the one before it.
        let output = machine.run_expecting(&["undo"], 0);
        assert!(
            machine.home.join(".copilot/skills/demo").exists(),
            "cut {cut}: {}",
            stdout(&output)
        );
        assert!(
            fs::symlink_metadata(machine.home.join(".copilot/skills/other")).is_err(),
            "cut {cut}"
        );
        // The torn bytes are kept aside, and every line of the journal is whole.
        let aside: Vec<_> = fs::read_dir(data_dir(&machine))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with("journal.jsonl.torn-"))
            .collect();
        assert_eq!(aside.len(), 1, "cut {cut}: {aside:?}");
        let journal = fs::read_to_string(journal_path(&machine)).unwrap();
        for line in journal.lines() {
            serde_json::from_str::<serde_json::Value>(line)
                .unwrap_or_else(|e| panic!("cut {cut}: {e}: {line}"));
        }
        let listed = machine.run_expecting(&["undo", "--list", "--json"], 0);
        let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
        assert_eq!(listed["entries"].as_array().unwrap().len(), 3, "cut {cut}");
    }
}

#[test]
fn a_journal_that_is_only_a_torn_line_is_set_aside_before_the_first_entry() {
    let machine = Machine::new();
    rich_skill(&machine.home.join(".claude/skills/demo"));
    fs::create_dir_all(data_dir(&machine)).unwrap();
    fs::write(journal_path(&machine), b"{\"at\":\"2026-").unwrap();
    machine.run_expecting(&["link", "demo", "--agent", "copilot"], 0);
    machine.run_expecting(&["undo"], 0);
    assert!(fs::symlink_metadata(machine.home.join(".copilot/skills/demo")).is_err());
    // A damaged line in the middle is passed over, never read with the next.
    let other = Machine::new();
    rich_skill(&other.home.join(".claude/skills/demo"));
    rich_skill(&other.home.join(".claude/skills/two"));
    other.run_expecting(&["link", "demo", "--agent", "copilot"], 0);
    let mut file = fs::OpenOptions::new()
        .append(true)
        .open(journal_path(&other))
        .unwrap();
    file.write_all(b"{\"at\": \xff\xfe not json\n").unwrap();
    other.run_expecting(&["link", "two", "--agent", "copilot"], 0);
    other.run_expecting(&["undo"], 0);
    assert!(other.home.join(".copilot/skills/demo").exists());
    assert!(fs::symlink_metadata(other.home.join(".copilot/skills/two")).is_err());
}

/// Run skilldeck under `umask`.
fn run_with_umask(machine: &Machine, umask: &str, args: &[&str]) {
    let command = machine.command(args);
    let program = command.get_program().to_owned();
    let mut shell = std::process::Command::new("sh");
    shell
        .arg("-c")
        .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
        .arg(program)
        .args(args)
        .env_clear()
        .envs(command.get_envs().filter_map(|(k, v)| Some((k, v?))))
        .current_dir(&machine.start);
    let output = shell.output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
}

/// Every folder and file under the data directory, with group or others' access.
fn shared_in_data_dir(machine: &Machine) -> Vec<String> {
    let data = data_dir(machine);
    walkdir::WalkDir::new(&data)
        .follow_links(false)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| !e.file_type().is_symlink())
        .filter_map(|e| {
            let mode = e.metadata().unwrap().permissions().mode() & 0o777;
            (mode & 0o077 != 0).then(|| format!("{} {mode:o}", e.path().display()))
        })
        .collect()
}

#[test]
fn the_data_directory_and_journal_are_owner_only_whatever_the_umask() {
    for umask in ["022", "000", "002"] {
        let machine = Machine::new();
        rich_skill(&machine.home.join(".claude/skills/demo"));
        run_with_umask(&machine, umask, &["link", "demo", "--agent", "copilot"]);
        run_with_umask(&machine, umask, &["snapshot", "demo"]);
        run_with_umask(&machine, umask, &["remove", "demo"]);
        let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&data_dir(&machine)), 0o700, "umask {umask}");
        assert_eq!(mode(&journal_path(&machine)), 0o600, "umask {umask}");
        assert_eq!(
            mode(&data_dir(&machine).join("journal.key")),
            0o600,
            "umask {umask}"
        );
        assert_eq!(
            shared_in_data_dir(&machine),
            Vec::<String>::new(),
            "umask {umask}"
        );
    }
    // What an older skilldeck left readable to all is taken back at the next write.
    let machine = Machine::new();
    rich_skill(&machine.home.join(".claude/skills/demo"));
    fs::create_dir_all(data_dir(&machine)).unwrap();
    fs::set_permissions(data_dir(&machine), fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(journal_path(&machine), "").unwrap();
    fs::set_permissions(journal_path(&machine), fs::Permissions::from_mode(0o644)).unwrap();
    run_with_umask(&machine, "022", &["link", "demo", "--agent", "copilot"]);
    assert_eq!(shared_in_data_dir(&machine), Vec::<String>::new());
}
