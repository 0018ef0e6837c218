//! Files skilldeck did not write, read the way a hostile or broken machine leaves them: a
//! `SKILL.md`, an installer's lock file, a marketplace clone's git files, a snapshot's
//! `info.json`, a transcript — each a FIFO with no writer, a device, a socket, a folder, a link
//! to `/dev/zero`, or a sparse file of gigabytes. None hangs a command, costs its memory, or is
//! opened when it is not a regular file; each is named with what it is. A skill beyond the
//! digest's budget is listed with the file named, and a root that is a mount point is imported
//! into like any other.
//!
//! A command that hangs is caught by a watchdog, never by a timed assertion: the test fails
//! only when the command is still running after a minute.

#![cfg(target_os = "linux")]

use std::fs;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::archive::{Tar, skill_md};
use crate::common::mount::Mount;
use crate::common::{Machine, fifo, listed as skill, symlink, write_files, write_skill};
use skilldeck::limits::{
    DIGEST_FILE_BYTES, DIGEST_SKILL_BYTES, GIT_REF_BYTES, RECORD_FILE_BYTES, SNAPSHOT_INFO_BYTES,
};

/// How long a command may run before it is taken to hang.
const PATIENCE: Duration = Duration::from_secs(60);

/// Run `command` to its end, failing the test if it is still running after [`PATIENCE`].
fn finishes(mut command: Command) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The pipes are drained beside the wait, so a full pipe cannot pass for a hang.
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).unwrap();
            bytes
        })
    };
    let (out, err) = (drain(Box::new(stdout)), drain(Box::new(stderr)));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > PATIENCE {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{command:?} was still running after {PATIENCE:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn list(machine: &Machine) -> Value {
    let output = finishes(machine.command(&["list", "--json"]));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The problem of a file that is there and could not be read, as the listing words it.
fn unreadable(path: &Path, reason: &str) -> String {
    format!("{} could not be read: {reason}", path.display())
}

/// `listing` names `expected` among the problems of the installers' files.
fn assert_problem(listing: &Value, expected: &str, context: &str) {
    assert!(
        problems(listing).iter().any(|p| p == expected),
        "{context}: {expected} not in {:?}",
        problems(listing)
    );
}

fn problems(value: &Value) -> Vec<String> {
    value["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_owned())
        .collect()
}

fn char_device(path: &Path, major: u32, minor: u32) -> bool {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::CharacterDevice,
        rustix::fs::Mode::from_raw_mode(0o666),
        rustix::fs::makedev(major, minor),
    )
    .is_ok()
}

fn sparse(path: &Path, size: u64) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::File::create(path).unwrap().set_len(size).unwrap();
}

/// What a planted file is: each way a path that should be a small regular file may not be.
#[derive(Clone, Copy, Debug)]
enum Plant {
    Fifo,
    LinkToDevZero,
    Socket,
    Folder,
    Sparse(u64),
}

impl Plant {
    /// Put it at `path`; a socket's listener is returned, to keep it open.
    fn at(self, path: &Path) -> Option<UnixListener> {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let _ = fs::remove_file(path);
        match self {
            Plant::Fifo => fifo(path),
            Plant::LinkToDevZero => symlink(Path::new("/dev/zero"), path),
            Plant::Socket => return Some(UnixListener::bind(path).unwrap()),
            Plant::Folder => fs::create_dir(path).unwrap(),
            Plant::Sparse(size) => sparse(path, size),
        }
        None
    }

    /// The reason a refusal of it gives, for a file read within `limit` bytes.
    fn reason(self, limit: u64) -> String {
        let what = match self {
            Plant::Fifo => "a FIFO",
            Plant::LinkToDevZero => "a character device",
            Plant::Socket => "a socket",
            Plant::Folder => "a folder",
            Plant::Sparse(_) => return format!("it is larger than {limit} bytes"),
        };
        format!("it is {what}, not a regular file")
    }
}

// ---------------------------------------------------------------------------------------------
// A SKILL.md that is not a regular file.

#[test]
fn a_skill_md_that_is_not_a_regular_file_is_named_and_the_listing_goes_on() {
    let machine = Machine::new();
    let skills = machine.home.join(".claude/skills");
    write_skill(&skills.join("fine"), &[]);
    let mut keep = Vec::new();
    let mut cases: Vec<(&str, &str)> = vec![
        ("fifo", "a FIFO"),
        ("socket", "a socket"),
        ("folder", "a folder"),
        ("dev-null", "a character device"),
        ("dev-zero", "a character device"),
    ];
    fs::create_dir_all(skills.join("fifo")).unwrap();
    fifo(&skills.join("fifo/SKILL.md"));
    keep.push(Plant::Socket.at(&skills.join("socket/SKILL.md")));
    fs::create_dir_all(skills.join("folder/SKILL.md")).unwrap();
    symlink(Path::new("/dev/null"), &skills.join("dev-null/SKILL.md"));
    symlink(Path::new("/dev/zero"), &skills.join("dev-zero/SKILL.md"));
    // A device node made here (root may): /dev/null's numbers.
    fs::create_dir_all(skills.join("made-null")).unwrap();
    if char_device(&skills.join("made-null/SKILL.md"), 1, 3) {
        cases.push(("made-null", "a character device"));
    }
    let listing = list(&machine);
    assert_eq!(skill(&listing, "fine")["state"], "unrecorded");
    for (name, what) in cases {
        let listed = skill(&listing, name);
        assert_eq!(listed["state"], "unreadable", "{name}: {listed}");
        assert_eq!(
            problems(listed),
            [format!(
                "SKILL.md could not be read: it is {what}, not a regular file"
            )],
            "{name}"
        );
    }
    // check and snapshot read the same files, and finish too.
    assert_eq!(finishes(machine.command(&["check"])).status.code(), Some(0));
    finishes(machine.command(&["snapshot"]));
}

/// A character device node whose numbers no driver has: opening it fails with "No such device
/// or address" from the driver lookup, which only an open reaches. A refusal that names it as
/// a device shows it was judged without being opened.
fn driverless_device(path: &Path) -> bool {
    let devices = fs::read_to_string("/proc/devices").unwrap();
    let taken: Vec<u32> = devices
        .lines()
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.split_whitespace().next()?.parse().ok())
        .collect();
    let major = (3000..4095).find(|m| !taken.contains(m)).unwrap();
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let made = char_device(path, major, 0);
    assert!(
        made || std::env::var("CI").as_deref() != Ok("true"),
        "CI must be able to make a device node (run the tests as root)"
    );
    if made {
        let opened = fs::File::open(path).unwrap_err();
        assert_eq!(
            opened.raw_os_error(),
            Some(6),
            "{opened}: the probe opens nothing"
        );
    }
    made
}

#[test]
fn a_device_is_judged_by_what_it_is_and_never_opened() {
    let machine = Machine::new();
    let device = machine.root().join("devices/driverless");
    if !driverless_device(&device) {
        eprintln!("cannot make a device node here (not root): this test checks nothing");
        return;
    }
    let skills = machine.home.join(".claude/skills");
    symlink(&device, &skills.join("linked/SKILL.md"));
    let made = skills.join("made/SKILL.md");
    driverless_device(&made);
    write_skill(&skills.join("holder"), &[]);
    symlink(&device, &machine.home.join(".agents/.skill-lock.json"));
    symlink(&device, &machine.home.join(".skillkit/lock.json"));
    let clone = machine.home.join(".claude/plugins/marketplaces/mkt");
    write_files(
        &clone,
        &[(
            ".claude-plugin/marketplace.json",
            r#"{"name": "mkt", "plugins": []}"#,
        )],
    );
    symlink(&device, &clone.join(".git/HEAD"));

    let listing = list(&machine);
    let said = listing.to_string();
    assert!(
        !said.contains("No such device"),
        "a device was opened: {listing:#}"
    );
    let device_refused = "it is a character device, not a regular file";
    for name in ["linked", "made"] {
        assert_eq!(
            problems(skill(&listing, name))[0],
            format!("SKILL.md could not be read: {device_refused}"),
            "{name}"
        );
    }
    for file in [".agents/.skill-lock.json", ".skillkit/lock.json"] {
        let expected = unreadable(&machine.home.join(file), device_refused);
        assert_problem(&listing, &expected, file);
        assert!(problems(skill(&listing, "holder")).contains(&expected));
    }
    let head = unreadable(&clone.join(".git/HEAD"), device_refused);
    assert_problem(&listing, &head, "HEAD");

    let transcript = machine.root().join("session.jsonl");
    symlink(&device, &transcript);
    for args in [
        &["check"][..],
        &["snapshot"],
        &[
            "snapshot",
            "--from-transcript",
            transcript.to_str().unwrap(),
        ],
    ] {
        let output = finishes(machine.command(args));
        let said = format!("{output:?}");
        assert!(
            !said.contains("No such device"),
            "{args:?} opened a device: {said}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Installers' files.

/// Each installer file in turn, as each kind of thing that is not a small regular file: the
/// listing names the file and why, and the skills it could be about say so too.
#[test]
fn installer_files_that_are_not_small_regular_files_are_named_on_the_listing() {
    let plants = [
        Plant::Fifo,
        Plant::LinkToDevZero,
        Plant::Socket,
        Plant::Folder,
        Plant::Sparse(RECORD_FILE_BYTES + 1),
        Plant::Sparse(8 << 30),
    ];
    let files = [
        ".agents/.skill-lock.json",
        ".skillkit/lock.json",
        ".claude/plugins/installed_plugins.json",
        ".claude/plugins/known_marketplaces.json",
        ".skillport/indexes/main/meta/origins.json",
    ];
    for plant in plants {
        for file in files {
            let machine = Machine::new();
            // Copied by an installer straight into an agent's folder, as the skills CLI and
            // SkillKit do: only their lock could say so.
            write_skill(&machine.home.join(".claude/skills/copied"), &[]);
            write_skill(
                &machine
                    .home
                    .join(".claude/plugins/cache/mkt/tools/1.0.0/skills/lint"),
                &[],
            );
            let path = machine.home.join(file);
            let _socket = plant.at(&path);
            let listing = list(&machine);
            let expected = unreadable(&path, &plant.reason(RECORD_FILE_BYTES));
            assert_problem(&listing, &expected, &format!("{plant:?} {file}"));
            let copied = skill(&listing, "copied");
            if file.contains("skill-lock") || file.contains("skillkit") {
                assert_eq!(copied["state"], "unrecorded");
                assert_eq!(
                    problems(copied),
                    std::slice::from_ref(&expected),
                    "{plant:?} {file}"
                );
            }
            if file.contains("installed_plugins") {
                let cached = skill(&listing, "tools:lint");
                assert_eq!(cached["state"], "unverifiable", "{plant:?} {file}");
                let note = cached["record"]["note"].as_str().unwrap_or_default();
                assert!(note.contains(&expected), "{plant:?} {file}: {cached:#}");
            }
        }
    }
}

/// A project's skills CLI lock, as a FIFO or a device: the project's skills say so.
#[test]
fn a_project_lock_that_is_a_fifo_or_a_device_is_a_problem_of_the_projects_skills() {
    for plant in [Plant::Fifo, Plant::LinkToDevZero, Plant::Sparse(1 << 40)] {
        let machine = Machine::new();
        write_skill(&machine.repo.join(".agents/skills/local"), &[]);
        write_skill(&machine.home.join(".claude/skills/mine"), &[]);
        let lock = machine.repo.join("skills-lock.json");
        plant.at(&lock);
        let listing = list(&machine);
        let expected = unreadable(&lock, &plant.reason(RECORD_FILE_BYTES));
        assert_eq!(problems(skill(&listing, "local")), [expected], "{plant:?}");
        assert_eq!(problems(skill(&listing, "mine")), Vec::<String>::new());
    }
}

/// A Claude Code marketplace clone whose git files are each hostile in turn.
#[test]
fn a_marketplace_clones_git_files_never_hang_or_cost_memory() {
    let cases: [(&str, Plant, u64); 7] = [
        (".git/HEAD", Plant::Fifo, GIT_REF_BYTES),
        (".git/HEAD", Plant::LinkToDevZero, GIT_REF_BYTES),
        (".git/HEAD", Plant::Sparse(4 << 30), GIT_REF_BYTES),
        (".git/refs/heads/main", Plant::Fifo, GIT_REF_BYTES),
        (
            ".git/packed-refs",
            Plant::Sparse(8 << 30),
            skilldeck::limits::PACKED_REFS_BYTES,
        ),
        (".git", Plant::Sparse(8 << 30), GIT_REF_BYTES),
        (".git", Plant::Fifo, GIT_REF_BYTES),
    ];
    for (file, plant, limit) in cases {
        let machine = Machine::new();
        let plugins = machine.home.join(".claude/plugins");
        let clone = plugins.join("marketplaces/mkt");
        write_files(
            &clone,
            &[
                (
                    ".claude-plugin/marketplace.json",
                    r#"{"name": "mkt", "plugins": [{"name": "tools", "source": "./plugins/tools", "version": "1.0.0"}]}"#,
                ),
                (".git/HEAD", "ref: refs/heads/main\n"),
            ],
        );
        write_skill(&clone.join("plugins/tools/skills/lint"), &[]);
        let path = clone.join(file);
        if file == ".git" {
            fs::remove_dir_all(&path).unwrap();
        }
        plant.at(&path);
        let listing = list(&machine);
        let expected = unreadable(&path, &plant.reason(limit));
        assert_problem(&listing, &expected, &format!("{file} {plant:?}"));
    }
}

// ---------------------------------------------------------------------------------------------
// The snapshot store's records and a transcript.

#[test]
fn a_snapshots_info_json_that_is_not_a_small_regular_file_is_a_sentence_not_a_hang() {
    for plant in [
        Plant::Fifo,
        Plant::LinkToDevZero,
        Plant::Folder,
        Plant::Sparse(SNAPSHOT_INFO_BYTES + 1),
        Plant::Sparse(16 << 30),
    ] {
        let machine = Machine::new();
        write_skill(&machine.home.join(".claude/skills/demo"), &[]);
        let taken = finishes(machine.command(&["snapshot", "demo"]));
        assert!(taken.status.success(), "{taken:?}");
        let store = machine.home.join(".local/share/skilldeck");
        let info = walkdir::WalkDir::new(&store)
            .into_iter()
            .map(|e| e.unwrap().into_path())
            .find(|p| p.file_name().is_some_and(|n| n == "info.json"))
            .unwrap_or_else(|| panic!("no info.json under {}", store.display()));
        if matches!(plant, Plant::Folder) {
            fs::remove_file(&info).unwrap();
        }
        plant.at(&info);
        // The store's files are never read through a link.
        let reason = match plant {
            Plant::LinkToDevZero => "it is a symbolic link, not a regular file".to_owned(),
            _ => plant.reason(SNAPSHOT_INFO_BYTES),
        };
        for args in [
            &["snapshots", "--json"][..],
            &["diff", "demo"],
            &["snapshot", "demo"],
        ] {
            let output = finishes(machine.command(args));
            let said = format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            assert!(!said.contains("panicked"), "{plant:?} {args:?}: {said}");
            assert!(said.contains(&reason), "{plant:?} {args:?}: {said}");
        }
    }
}

#[test]
fn a_transcript_that_is_not_a_regular_file_is_refused_with_a_sentence() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/demo"), &[]);
    for plant in [
        Plant::Fifo,
        Plant::LinkToDevZero,
        Plant::Socket,
        Plant::Folder,
    ] {
        let transcript = machine.root().join("session.jsonl");
        let _ = fs::remove_dir(&transcript);
        let _socket = plant.at(&transcript);
        let output = finishes(machine.command(&[
            "snapshot",
            "--from-transcript",
            transcript.to_str().unwrap(),
        ]));
        assert_eq!(output.status.code(), Some(3), "{plant:?}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!("{} could not be read", transcript.display()))
                && stderr.contains(&plant.reason(0)),
            "{plant:?}: {stderr}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The digest's budget.

/// A skill imported by skilldeck (so it carries a record), then given `extra`.
fn recorded_skill(machine: &Machine, name: &str) -> PathBuf {
    let bundle = machine.root().join(format!("{name}.tar"));
    fs::write(&bundle, Tar::new().skill(name).end().bytes()).unwrap();
    let output =
        finishes(machine.command(&["import", bundle.to_str().unwrap(), "--agent", "claude-code"]));
    assert!(output.status.success(), "{output:?}");
    machine.home.join(".claude/skills").join(name)
}

#[test]
fn skills_beyond_the_digest_budget_are_named_and_the_scan_goes_on() {
    let machine = Machine::new();
    let skills = machine.home.join(".claude/skills");
    write_skill(&skills.join("fine"), &[]);
    // Unrecorded: a file over the budget by one byte, by 32 GiB, by 8 TiB.
    let sizes = [DIGEST_FILE_BYTES + 1, 32 << 30, 8 << 40];
    for (i, size) in sizes.iter().enumerate() {
        let dir = skills.join(format!("big-{i}"));
        write_skill(&dir, &[]);
        sparse(&dir.join("assets/huge.bin"), *size);
    }
    // Many files each within a file's budget, past the skill's together.
    let many = skills.join("many");
    write_skill(&many, &[]);
    let each = DIGEST_SKILL_BYTES / 4;
    for name in ["a", "b", "c", "d", "e"] {
        sparse(&many.join(format!("data/{name}.bin")), each);
    }
    // Recorded: skilldeck's own import, with an 8 TiB file added since.
    let intact = recorded_skill(&machine, "intact");
    let grown = recorded_skill(&machine, "grown");
    sparse(&grown.join("cache.bin"), 8 << 40);

    let listing = list(&machine);
    assert_eq!(skill(&listing, "fine")["state"], "unrecorded");
    assert_eq!(
        skill(&listing, "intact")["state"],
        "intact",
        "{}",
        intact.display()
    );
    for (i, size) in sizes.iter().enumerate() {
        let listed = skill(&listing, &format!("big-{i}"));
        assert_eq!(listed["state"], "unrecorded");
        assert_eq!(listed["digest"], Value::Null);
        let problems = problems(listed);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("assets/huge.bin is ")
                && problems[0].contains("more than the 64.0 MiB"),
            "{size}: {problems:?}"
        );
    }
    let listed = skill(&listing, "many");
    assert_eq!(
        problems(listed),
        [
            "data/d.bin takes the skill past the 256.0 MiB the content digest reads of one skill; the skill's digest is not computed"
        ]
    );
    let listed = skill(&listing, "grown");
    assert_eq!(listed["state"], "unverifiable", "{listed:#}");
    assert!(
        problems(listed)[0].starts_with("cache.bin is 8.0 TiB"),
        "{listed:#}"
    );

    // check: unverifiable is not drift.
    let output = finishes(machine.command(&["check"]));
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("unverifiable  grown"), "{stdout}");
    assert!(stdout.contains("cache.bin is 8.0 TiB"), "{stdout}");
}

/// Another installer's hash (the skills CLI's, recomputed as a git tree id) holds to the same
/// budget: its skill is unverifiable, not read for hours.
#[test]
fn another_installers_hash_holds_to_the_same_budget() {
    for size in [DIGEST_FILE_BYTES + 1, 8 << 40] {
        let machine = Machine::new();
        let dir = machine.home.join(".agents/skills/treed");
        write_skill(&dir, &[]);
        sparse(&dir.join("big.bin"), size);
        let lock = json!({"version": 3, "skills": {"treed": {
            "source": "example/skills", "sourceType": "github",
            "skillPath": "skills/treed/SKILL.md",
            "skillFolderHash": "1111111111111111111111111111111111111111",
            "installedAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z"}}});
        write_files(
            &machine.home,
            &[(".agents/.skill-lock.json", &lock.to_string())],
        );
        let listing = list(&machine);
        let listed = skill(&listing, "treed");
        assert_eq!(listed["state"], "unverifiable", "{listed:#}");
        let note = listed["record"]["note"].as_str().unwrap();
        assert!(
            note.starts_with("big.bin is ") && note.contains("more than the 64.0 MiB"),
            "{note}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// A root that is a mount point.

fn import_to(machine: &Machine, root: &Path, name: &str, content: &str, force: bool) -> Output {
    let bundle = machine.root().join(format!("{name}-{}.tar", content.len()));
    let tar = Tar::new()
        .file(&format!("{name}/SKILL.md"), skill_md(name))
        .file(&format!("{name}/notes.md"), content);
    fs::write(&bundle, tar.end().bytes()).unwrap();
    let mut args = vec![
        "import",
        bundle.to_str().unwrap(),
        "--to",
        root.to_str().unwrap(),
    ];
    if force {
        args.push("--force");
    }
    finishes(machine.command(&args))
}

/// Everything in and beside the root that is not a skill.
fn leftovers(root: &Path) -> Vec<String> {
    let inside = fs::read_dir(root).unwrap();
    let beside = fs::read_dir(root.parent().unwrap()).unwrap();
    inside
        .chain(beside)
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect()
}

#[test]
fn a_root_that_is_a_mount_point_is_imported_into_and_left_clean() {
    let machine = Machine::new();
    let root = machine.home.join(".claude/skills");
    fs::create_dir_all(&root).unwrap();
    let elsewhere = machine.root().join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    // A tmpfs (another device) and a bind mount (the same device, another mount).
    type Mounter = fn(&Path, &Path) -> Option<Mount>;
    let mounters: [(&str, Mounter); 2] = [
        ("tmpfs", |root, _| Mount::tmpfs_on(root, "8m")),
        ("bind", |root, elsewhere| Mount::bind(elsewhere, root)),
    ];
    for (kind, mount) in mounters {
        let Some(_mount) = mount(&root, &elsewhere) else {
            return;
        };
        let output = import_to(&machine, &root, "fresh", "one", false);
        assert!(output.status.success(), "{kind}: {output:?}");
        assert_eq!(
            fs::read_to_string(root.join("fresh/notes.md")).unwrap(),
            "one"
        );
        assert_eq!(leftovers(&root), Vec::<String>::new(), "{kind}");
        // A replacement: the old copy is snapshotted, then swapped for the new one.
        let output = import_to(&machine, &root, "fresh", "two two", true);
        assert!(output.status.success(), "{kind}: {output:?}");
        assert_eq!(
            fs::read_to_string(root.join("fresh/notes.md")).unwrap(),
            "two two"
        );
        assert_eq!(leftovers(&root), Vec::<String>::new(), "{kind}");
        // What a crashed import left inside the root is swept by the next one.
        let crashed = root.join(".skilldeck-staging/.skills.skilldeck-staging-old-1-2");
        write_skill(&crashed, &[]);
        let output = import_to(&machine, &root, "other", "three", false);
        assert!(output.status.success(), "{kind}: {output:?}");
        assert_eq!(leftovers(&root), Vec::<String>::new(), "{kind}");
        let listing = list(&machine);
        for name in ["fresh", "other"] {
            assert_eq!(skill(&listing, name)["state"], "intact", "{kind} {name}");
        }
        assert_eq!(listing["skills"].as_array().unwrap().len(), 2, "{kind}");
        for name in ["fresh", "other"] {
            fs::remove_dir_all(root.join(name)).unwrap();
        }
    }
}

/// A snapshot, its comparison with the folder and a diff hold to the same budget: a sparse file
/// of terabytes is known by its size, never read, and the commands finish; a `SKILL.md` past
/// it is never copied into the store.
#[test]
fn snapshots_and_diffs_of_skills_beyond_the_budget_finish_without_reading_them() {
    for size in [DIGEST_FILE_BYTES + 1, 32 << 30, 8 << 40] {
        let machine = Machine::new();
        let dir = machine.home.join(".claude/skills/big");
        write_skill(&dir, &[]);
        sparse(&dir.join("assets/huge.bin"), size);
        let taken = finishes(machine.command(&["snapshot", "big"]));
        let stdout = String::from_utf8_lossy(&taken.stdout);
        assert!(
            taken.status.success(),
            "{size}: {stdout}{}",
            String::from_utf8_lossy(&taken.stderr)
        );
        assert!(stdout.contains("truncated"), "{size}: {stdout}");
        // Unchanged: the second snapshot finds the same digest and keeps nothing new.
        let again = finishes(machine.command(&["snapshot", "big"]));
        assert!(
            String::from_utf8_lossy(&again.stdout).contains("unchanged"),
            "{size}"
        );
        let diff = finishes(machine.command(&["diff", "big"]));
        assert_eq!(
            diff.status.code(),
            Some(0),
            "{size}: {}",
            String::from_utf8_lossy(&diff.stdout)
        );
        // Its size changed: the digest, which holds the size, sees it.
        fs::OpenOptions::new()
            .write(true)
            .open(dir.join("assets/huge.bin"))
            .unwrap()
            .set_len(size + 1)
            .unwrap();
        let changed = finishes(machine.command(&["snapshot", "big"]));
        assert!(
            String::from_utf8_lossy(&changed.stdout).contains("kept"),
            "{size}"
        );
    }
    for size in [DIGEST_FILE_BYTES + 1, 8 << 40] {
        let machine = Machine::new();
        let dir = machine.home.join(".claude/skills/big");
        write_skill(&dir, &[]);
        let manifest = fs::OpenOptions::new()
            .append(true)
            .open(dir.join("SKILL.md"))
            .unwrap();
        manifest.set_len(size).unwrap();
        let refused = finishes(machine.command(&["snapshot", "big"]));
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(!refused.status.success(), "{size}");
        assert!(
            stderr.contains("more than the 64.0 MiB a snapshot reads"),
            "{size}: {stderr}"
        );
        let store = machine.home.join(".local/share/skilldeck/snapshots");
        let kept: u64 = walkdir::WalkDir::new(&store)
            .into_iter()
            .filter_map(Result::ok)
            .filter_map(|e| e.metadata().ok())
            .filter(|m| m.is_file())
            .map(|m| m.len())
            .sum();
        assert!(
            kept < DIGEST_FILE_BYTES,
            "{size}: {kept} bytes copied into the store"
        );
    }
}

/// Every agent setting and record skilldeck now reads to tell what an agent loads, each hostile
/// in turn (a FIFO with no writer, a link to `/dev/zero`, a sparse file of terabytes): the
/// listing finishes, lists the skills, and reads the setting as saying nothing.
#[test]
fn the_agents_settings_never_hang_or_cost_memory() {
    let settings = [
        ".codex/config.toml",
        ".claude/settings.json",
        ".copilot/settings.json",
        ".copilot/config.json",
        ".gemini/settings.json",
        ".gemini/trustedFolders.json",
        ".claude/plugins/installed_plugins.json",
    ];
    for file in settings {
        for plant in [Plant::Fifo, Plant::LinkToDevZero, Plant::Sparse(1 << 40)] {
            let machine = Machine::new();
            write_skill(&machine.home.join(".agents/skills/shared"), &[]);
            let path = machine.home.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            plant.at(&path);
            let listing = list(&machine);
            let shared = skill(&listing, "shared");
            assert!(
                shared["left_out"].as_array().unwrap().is_empty(),
                "{file} {plant:?}: {shared}"
            );
        }
    }
    // A policy file that is hostile is no policy.
    for plant in [Plant::Fifo, Plant::LinkToDevZero, Plant::Sparse(1 << 40)] {
        let machine = Machine::new();
        write_skill(&machine.home.join(".agents/skills/quiet"), &[]);
        let policy = machine.home.join(".agents/skills/quiet/agents/openai.yaml");
        std::fs::create_dir_all(policy.parent().unwrap()).unwrap();
        plant.at(&policy);
        let listing = list(&machine);
        let quiet = skill(&listing, "quiet");
        let codex_left_out = quiet["left_out"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["agent"] == "codex");
        assert!(!codex_left_out, "{plant:?}: {quiet}");
    }
}
