//! skilldeck against a file system that does not hold still or does not cooperate: skills
//! created, edited, renamed and deleted while they are scanned, digested and snapshotted; two
//! imports into one root at once; a root on a read-only mount, or one the user may not write;
//! the disk filling up half-way through an import. Never a panic, a sentence for every failure,
//! nothing half-written.
//!
//! The mounts are small tmpfs file systems the test mounts itself (`common::mount`), which
//! needs root: CI runs as root. Where mounting is impossible those tests say so and pass,
//! except under `CI=true`, where they fail.

#![cfg(target_os = "linux")]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::common::archive::{Tar, skill_md};
use crate::common::mount::Mount;
use crate::common::{Machine, snapshot, write_skill};
use skilldeck::snapshot::{Store, content_digest};

/// A failure the binary reports: exit status 3 (an I/O failure stopped the work) or 1 (a
/// refusal), and one sentence on standard error naming the folder and the cause.
fn assert_failed_with_a_sentence(output: &Output, naming: &[&str]) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{:?}: {stderr}", output.status.code());
    assert!(
        matches!(output.status.code(), Some(1 | 3)),
        "{:?}: {stderr}",
        output.status
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("os error"), "said in words: {stderr}");
    let text = stderr.trim();
    assert!(!text.is_empty() && text.lines().count() <= 2, "{stderr}");
    for word in naming {
        assert!(text.contains(word), "{word:?} missing from: {stderr}");
    }
}

/// A tar.gz bundle of one skill `name` with `files` files of `size` bytes each.
fn bundle(at: &Path, name: &str, files: usize, size: usize) -> PathBuf {
    let mut tar = Tar::new().skill(name);
    for i in 0..files {
        tar = tar.file(
            &format!("{name}/refs/file{i}.md"),
            format!("{name} {i}\n").repeat(size / 8 + 1),
        );
    }
    let path = at.join(format!("{name}-{files}.tar.gz"));
    fs::write(&path, tar.end().gz()).unwrap();
    path
}

fn import(machine: &Machine, source: &Path, root: &Path, force: bool) -> Command {
    let mut args = vec![
        "import",
        source.to_str().unwrap(),
        "--to",
        root.to_str().unwrap(),
    ];
    if force {
        args.push("--force");
    }
    machine.command(&args)
}

/// Staging folders beside a root.
fn staging_beside(root: &Path) -> Vec<String> {
    fs::read_dir(root.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".skilldeck-"))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Skills changing under the scan.

/// Create, edit, rename and delete files and folders of `root`'s skills, and put FIFOs and
/// links among them, until `stop`.
fn churn(root: PathBuf, stop: Arc<AtomicBool>) -> usize {
    let mut state = 0x2545_f491_u64;
    let mut next = |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    let mut changes = 0;
    while !stop.load(Ordering::Relaxed) {
        let skill = root.join(format!("skill{}", next(12)));
        let file = skill.join(format!("refs/f{}.md", next(20)));
        // Each change may fail because another undid what it needed: that is the point.
        let _ = match next(9) {
            0 => fs::write(&file, "created or edited\n".repeat(next(200) as usize)),
            1 => fs::rename(&file, skill.join(format!("refs/f{}.md", next(20)))),
            2 => fs::remove_file(&file),
            3 => fs::remove_dir_all(&skill).and_then(|()| {
                fs::create_dir_all(skill.join("refs"))?;
                fs::write(skill.join("SKILL.md"), skill_md("churned"))
            }),
            4 => fs::rename(&skill, root.join(format!("skill{}", next(12)))),
            5 => fs::write(skill.join("SKILL.md"), "---\nname: [unclosed\n"),
            6 => rustix::fs::mknodat(
                rustix::fs::CWD,
                skill.join(format!("refs/fifo{}", next(3))),
                rustix::fs::FileType::Fifo,
                rustix::fs::Mode::from_raw_mode(0o644),
                0,
            )
            .map_err(Into::into),
            7 => std::os::unix::fs::symlink("/etc", skill.join(format!("refs/l{}", next(3)))),
            _ => fs::create_dir_all(skill.join(format!("refs/d{}", next(5)))),
        };
        changes += 1;
    }
    changes
}

#[test]
fn scanning_digesting_and_snapshotting_skills_that_change_underneath() {
    let machine = Machine::new();
    let root = machine.home.join(".claude/skills");
    for i in 0..12 {
        let extra: Vec<(String, String)> = (0..20)
            .map(|f| (format!("refs/f{f}.md"), format!("file {f}\n")))
            .collect();
        let extra: Vec<(&str, &str)> = extra
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        write_skill(&root.join(format!("skill{i}")), &extra);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let churner = {
        let (root, stop) = (root.clone(), stop.clone());
        std::thread::spawn(move || churn(root, stop))
    };
    let store = Store::at(machine.root().join("store"));
    let env = machine.env();
    let started = Instant::now();
    let (mut scans, mut taken, mut refused) = (0, 0, 0);
    while started.elapsed() < Duration::from_secs(3) || scans < 3 {
        let inventory = skilldeck::scan::scan(&env, &machine.start, &|_| {});
        for skill in &inventory.skills {
            for problem in &skill.problems {
                assert!(!problem.to_string().trim().is_empty());
            }
            match store.take(&skill.dir, skilldeck::snapshot::Reason::Manual) {
                Ok(kept) => {
                    taken += 1;
                    // A snapshot is whole whatever happened to the folder meanwhile.
                    let held = content_digest(&kept.snapshot.files()).unwrap();
                    assert_eq!(held, kept.snapshot.info.digest, "{}", kept.snapshot.id);
                }
                Err(error) => {
                    refused += 1;
                    let sentence = error.to_string();
                    assert!(sentence.len() > 10, "{sentence}");
                }
            }
            let _ = content_digest(&skill.dir);
        }
        scans += 1;
        let output = machine.run(&["list", "--json"]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap();
    }
    stop.store(true, Ordering::Relaxed);
    let changes = churner.join().unwrap();
    assert!(
        changes > 100 && scans > 2,
        "{changes} changes, {scans} scans"
    );
    assert!(
        taken > 0,
        "no snapshot taken in {scans} scans ({refused} refused)"
    );
    store.all().unwrap();
}

// ---------------------------------------------------------------------------------------------
// Two imports at once.

/// Start both imports at once and wait for both.
fn both_at_once(first: Command, second: Command) -> [Output; 2] {
    let children = [first, second].map(|mut command| {
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
        command.spawn().unwrap()
    });
    children.map(|child| child.wait_with_output().unwrap())
}

#[test]
fn two_imports_into_one_root_at_once_both_end_well() {
    let machine = Machine::new();
    let root = machine.home.join(".claude/skills");
    let sources = machine.root();
    // Two bundles of different skills, and two versions of one skill.
    let alpha = bundle(&sources, "alpha", 300, 2000);
    let beta = bundle(&sources, "beta", 300, 2000);
    let shared_small = bundle(&sources, "shared", 10, 100);
    let shared_large = bundle(&sources, "shared", 300, 3000);
    for round in 0..6 {
        let (first, second) = if round % 2 == 0 {
            (&alpha, &beta)
        } else {
            (&shared_small, &shared_large)
        };
        let outputs = both_at_once(
            import(&machine, first, &root, false),
            import(&machine, second, &root, false),
        );
        for output in &outputs {
            assert!(
                output.status.success(),
                "round {round}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        assert_eq!(staging_beside(&root), Vec::<String>::new());
    }
    // Every skill is whole: exactly what one of the imports wrote, its record intact.
    let listing = machine.list_json();
    let skills = listing["skills"].as_array().unwrap();
    assert_eq!(skills.len(), 3, "{listing}");
    for skill in skills {
        assert_eq!(skill["state"], "intact", "{skill}");
    }
    for (name, counts) in [
        ("alpha", [300, 300]),
        ("beta", [300, 300]),
        ("shared", [10, 300]),
    ] {
        let files = snapshot(&root.join(name))
            .keys()
            .filter(|k| k.starts_with("refs/file"))
            .count();
        assert!(
            counts.contains(&files),
            "{name}: {files} files, a mix of two imports"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Mounts and permissions.

/// A machine whose whole home is on a tmpfs of `size`, with one skill `demo` in Claude
/// Code's root; its bundles are written outside it.
fn machine_on_tmpfs(size: &str) -> Option<(Machine, Mount, PathBuf)> {
    let mount = Mount::tmpfs(size)?;
    let machine = Machine::in_dir(&mount.dir);
    let root = machine.home.join(".claude/skills");
    write_skill(&root.join("demo"), &[("notes.md", "the user's own\n")]);
    Some((machine, mount, root))
}

#[test]
fn a_root_on_a_read_only_mount_is_refused_with_a_sentence_and_left_alone() {
    let Some((machine, mount, root)) = machine_on_tmpfs("8m") else {
        return;
    };
    let outside = tempfile::tempdir().unwrap();
    let fresh = bundle(outside.path(), "fresh", 5, 100);
    let demo = bundle(outside.path(), "demo", 5, 100);
    machine.run(&["snapshot", "demo"]);
    let before = snapshot(&machine.root());
    mount.remount_read_only();

    let output = import(&machine, &fresh, &root, false).output().unwrap();
    assert_failed_with_a_sentence(&output, &["the file system is read-only"]);
    let output = import(&machine, &demo, &root, true).output().unwrap();
    assert_failed_with_a_sentence(&output, &["the file system is read-only"]);
    fs::write(root.join("demo/notes.md"), "x").unwrap_err();
    let output = machine.run(&["restore", "demo"]);
    assert!(output.status.success(), "nothing to restore: {output:?}");
    let output = machine.run(&["snapshot", "demo"]);
    assert!(
        output.status.success(),
        "nothing new to snapshot: {output:?}"
    );
    assert_eq!(snapshot(&machine.root()), before);
}

#[test]
fn a_root_the_user_may_not_write_is_refused_with_a_sentence_and_left_alone() {
    let outer = tempfile::tempdir().unwrap();
    let machine = Machine::new();
    let root = machine.home.join(".claude/skills");
    write_skill(&root.join("demo"), &[("notes.md", "the user's own\n")]);
    let fresh = bundle(outer.path(), "fresh", 5, 100);
    fs::set_permissions(outer.path(), fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(&fresh, fs::Permissions::from_mode(0o644)).unwrap();
    let claude = root.parent().unwrap();
    let run = |what: &str| {
        let output = machine
            .unprivileged(&[
                "import",
                fresh.to_str().unwrap(),
                "--to",
                root.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert_failed_with_a_sentence(&output, &["permission denied"]);
        assert!(!root.join("fresh").exists(), "{what}");
        assert_eq!(staging_beside(&root), Vec::<String>::new(), "{what}");
    };
    // The root may not be written (so nothing can be renamed into it), its parent may (so a
    // staging folder can be made there, and must be removed again).
    fs::set_permissions(claude, fs::Permissions::from_mode(0o777)).unwrap();
    fs::set_permissions(&root, fs::Permissions::from_mode(0o555)).unwrap();
    let before = snapshot(&machine.home);
    run("root read-only to the user");
    assert_eq!(snapshot(&machine.home), before);
    // The parent may not be written: no staging folder can be made.
    fs::set_permissions(claude, fs::Permissions::from_mode(0o555)).unwrap();
    fs::set_permissions(&root, fs::Permissions::from_mode(0o777)).unwrap();
    let before = snapshot(&machine.home);
    run("parent read-only to the user");
    assert_eq!(snapshot(&machine.home), before);
}

#[test]
fn a_disk_that_fills_up_mid_import_leaves_the_root_as_it_was() {
    let Some((machine, _mount, root)) = machine_on_tmpfs("1m") else {
        return;
    };
    let outside = tempfile::tempdir().unwrap();
    // 2 MiB of files: more than the whole file system holds.
    let fresh = bundle(outside.path(), "fresh", 40, 50_000);
    let demo = bundle(outside.path(), "demo", 40, 50_000);
    let before = snapshot(&root);

    let output = import(&machine, &fresh, &root, false).output().unwrap();
    assert_failed_with_a_sentence(&output, &["the disk is full"]);
    assert_eq!(snapshot(&root), before);
    assert_eq!(staging_beside(&root), Vec::<String>::new());

    // A forced replacement: the disk fills up while the new content is staged, before
    // anything is swapped or snapshotted; the old skill stays, whole.
    let output = import(&machine, &demo, &root, true).output().unwrap();
    assert_failed_with_a_sentence(&output, &["the disk is full"]);
    assert_eq!(snapshot(&root), before);
    assert_eq!(staging_beside(&root), Vec::<String>::new());
    let store = Store::open(&machine.env());
    for kept in store.all().unwrap() {
        assert_eq!(content_digest(&kept.files()).unwrap(), kept.info.digest);
    }
    // Once there is room, the same import goes through.
    let small = bundle(outside.path(), "demo", 3, 100);
    let output = import(&machine, &small, &root, true).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
