//! The crash harness: the real binary imports, force-replaces, restores and snapshots a skill
//! of a few hundred files in a child process that is SIGKILLed at a random moment of its run,
//! again and again. After every kill:
//!
//! - the skill folder is exactly what it was or exactly what the command makes of it (every
//!   path, byte and mode);
//! - whatever the kill replaced is kept as a snapshot (nothing a user had is lost);
//! - the snapshot store lists, and every snapshot in it holds exactly the content its digest
//!   names (a snapshot is whole or absent);
//! - the next run succeeds and leaves no staging folder beside the root or in the store.
//!
//! Where each kill landed is read from what it left on disk (a staging folder half or wholly
//! written, old content waiting for removal, a snapshot being copied) and from the system call
//! the child was in, so the run can say every phase was hit. No switch in skilldeck makes this
//! possible: the kills are real, at random delays scaled to each command's own measured time.
//!
//! `cargo test --test crash` kills 200 times, on a memory file system (`/dev/shm`) where there
//! is one. The long run, recorded in SECURITY.md, kills on the disk, where syncs take time:
//! `SKILLDECK_CRASH_KILLS=1200 SKILLDECK_CRASH_DIR=/var/tmp cargo test --locked --release
//! --test crash -- --nocapture`.

#![cfg(target_os = "linux")]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::archive::{Tar, skill_md};
use crate::common::{Machine, snapshot};
use skilldeck::snapshot::{SnapshotDigest, Store, content_digest};

/// Files of the skill: enough that writing, syncing and removing it take measurable time.
const FILES: usize = 160;

/// The kills of a default `cargo test` run.
const DEFAULT_KILLS: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Operation {
    /// `import` into a root that does not hold the skill.
    Import,
    /// `import --force` over someone else's copy of the skill.
    ForcedReplace,
    /// `restore` of an earlier snapshot over the skill.
    Restore,
    /// `snapshot` of the skill.
    Snapshot,
}

const OPERATIONS: [Operation; 4] = [
    Operation::Import,
    Operation::ForcedReplace,
    Operation::Restore,
    Operation::Snapshot,
];

/// Where a kill landed, read from what it left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    /// Nothing written yet: start-up, reading the bundle, planning, hashing.
    BeforeWriting,
    /// A staging folder beside the root, partly written.
    Staging,
    /// A staging folder wholly written, the child in a sync call.
    Sync,
    /// A staging folder wholly written, the child about to rename it in.
    Rename,
    /// The skill renamed in, its old content in the staging folder waiting for removal.
    Cleanup,
    /// A snapshot being copied into the store.
    SnapshotCopy,
    /// The skill in its new state and nothing left over: the baseline snapshot or exit.
    AfterCommit,
}

type Tree = BTreeMap<String, (String, u32, Vec<u8>)>;

/// One skill folder tree: (path, content, executable).
fn skill_files(prefix: &str, count: usize) -> Vec<(String, Vec<u8>, bool)> {
    let mut files = vec![("SKILL.md".to_owned(), skill_md("demo").into_bytes(), false)];
    for i in 1..count {
        let path = format!("{prefix}/part{}/file{i}.md", i % 7);
        let content = format!("{prefix} file {i}\n")
            .repeat(1 + i % 40)
            .into_bytes();
        files.push((path, content, i % 11 == 0));
    }
    files
}

/// A seeded generator, so a failing run can be repeated.
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % bound.max(1)
    }
}

/// One machine set up for one operation, before the command runs.
struct Scene {
    machine: Machine,
    root: PathBuf,
    skill: PathBuf,
    bundle: PathBuf,
    /// The skill's content before the command, `None` when absent.
    before: Option<SnapshotDigest>,
}

/// Where the machines live: `SKILLDECK_CRASH_DIR`, else a memory file system when there is
/// one (syncing a busy disk would make the default run take minutes), else the temp dir.
fn base_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SKILLDECK_CRASH_DIR") {
        return PathBuf::from(dir);
    }
    let shm = PathBuf::from("/dev/shm");
    if tempfile::tempdir_in(&shm).is_ok() {
        return shm;
    }
    std::env::temp_dir()
}

impl Scene {
    fn new(operation: Operation) -> Self {
        let machine = Machine::in_dir(&base_dir());
        let root = machine.home.join(".claude/skills");
        let skill = root.join("demo");
        fs::create_dir_all(&root).unwrap();
        let bundle = machine.root().join("demo.tar.gz");
        let mut tar = Tar::new().dir("demo/");
        for (path, content, executable) in skill_files("new", FILES) {
            let name = format!("demo/{path}");
            tar = if executable {
                tar.executable(&name, content)
            } else {
                tar.file(&name, content)
            };
        }
        fs::write(&bundle, tar.end().gz()).unwrap();
        let old = || {
            for (path, content, executable) in skill_files("old", FILES) {
                let path = skill.join(path);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(&path, content).unwrap();
                if executable {
                    use std::os::unix::fs::PermissionsExt;
                    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
                }
            }
        };
        match operation {
            Operation::Import => {}
            Operation::ForcedReplace | Operation::Snapshot => old(),
            Operation::Restore => {
                // A snapshot of the old content, then the skill edited since.
                old();
                store(&machine)
                    .take(&skill, skilldeck::snapshot::Reason::Manual)
                    .unwrap();
                fs::write(skill.join("SKILL.md"), skill_md("demo") + "edited\n").unwrap();
                fs::remove_dir_all(skill.join("old/part3")).unwrap();
            }
        }
        let before = skill.exists().then(|| content_digest(&skill).unwrap());
        Self {
            machine,
            root,
            skill,
            bundle,
            before,
        }
    }

    fn command(&self, operation: Operation) -> Command {
        let root = self.root.to_str().unwrap();
        let skill = self.skill.to_str().unwrap();
        let bundle = self.bundle.to_str().unwrap();
        let args: Vec<&str> = match operation {
            Operation::Import => vec!["import", bundle, "--to", root],
            Operation::ForcedReplace => vec!["import", bundle, "--to", root, "--force"],
            Operation::Restore => {
                let first = store(&self.machine).history(&self.skill).unwrap();
                let id = first.first().unwrap().id.clone();
                return self.with_args(&["restore", skill, "--snapshot", &id]);
            }
            Operation::Snapshot => vec!["snapshot", skill],
        };
        self.with_args(&args)
    }

    fn with_args(&self, args: &[&str]) -> Command {
        let mut command = self.machine.command(args);
        command.stdout(Stdio::null()).stderr(Stdio::piped());
        command
    }

    fn tree(&self) -> Option<Tree> {
        self.skill.exists().then(|| snapshot(&self.skill))
    }

    /// Staging folders beside the root.
    fn root_staging(&self) -> Vec<PathBuf> {
        let parent = self.root.parent().unwrap();
        fs::read_dir(parent)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                name.starts_with(".skills.skilldeck-")
            })
            .collect()
    }

    /// Staging folders inside the snapshot store.
    fn store_staging(&self) -> Vec<PathBuf> {
        let dir = store_dir(&self.machine);
        let Ok(histories) = fs::read_dir(&dir) else {
            return Vec::new();
        };
        histories
            .flat_map(|h| fs::read_dir(h.unwrap().path()).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with('.'))
            .collect()
    }
}

fn store_dir(machine: &Machine) -> PathBuf {
    machine.home.join(".local/share/skilldeck/snapshots")
}

fn store(machine: &Machine) -> Store {
    Store::at(store_dir(machine))
}

/// What a command leaves when it runs to its end, from a scene of its own.
struct Expected {
    after: Option<Tree>,
    /// How long the command took, the middle one of three runs.
    took: Duration,
}

fn expected(operation: Operation) -> Expected {
    let mut took = Vec::new();
    let mut after = None;
    for _ in 0..3 {
        let scene = Scene::new(operation);
        let started = Instant::now();
        let output = scene.command(operation).output().unwrap();
        took.push(started.elapsed());
        assert!(
            output.status.success(),
            "{operation:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        after = scene.tree();
    }
    took.sort();
    Expected {
        after,
        took: took[1],
    }
}

/// The system call a process is in, from `/proc/<pid>/syscall` (`running` when in user space).
fn syscall_of(pid: u32) -> Option<u64> {
    let text = fs::read_to_string(format!("/proc/{pid}/syscall")).ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn same_files(a: &Tree, b: &Tree) -> bool {
    a.len() == b.len()
        && a.iter().all(|(path, (kind, _, content))| {
            b.get(path)
                .is_some_and(|(k, _, c)| k == kind && c == content)
        })
}

/// Read where a kill landed from what it left: the skill `now`, `before` the command and as
/// the command leaves it `after`.
fn phase(
    scene: &Scene,
    now: Option<&Tree>,
    before: Option<&Tree>,
    after: Option<&Tree>,
    syscall: Option<u64>,
) -> Phase {
    if !scene.store_staging().is_empty() {
        return Phase::SnapshotCopy;
    }
    let changed = now != before;
    let Some(staging) = scene.root_staging().into_iter().next() else {
        return if changed {
            Phase::AfterCommit
        } else {
            Phase::BeforeWriting
        };
    };
    if changed {
        return Phase::Cleanup;
    }
    let staged = snapshot(&staging);
    if !after.is_some_and(|after| same_files(&staged, after)) {
        return Phase::Staging;
    }
    // syncfs, fsync, fdatasync, sync.
    match syscall {
        Some(306 | 74 | 75 | 162) => Phase::Sync,
        _ => Phase::Rename,
    }
}

/// Check every promise after one kill, then run the command again to its end; how long that
/// run took.
fn check_after_kill(
    operation: Operation,
    scene: &Scene,
    before: Option<&Tree>,
    expected: &Expected,
) -> Duration {
    let now = scene.tree();
    assert!(
        now.as_ref() == before || now == expected.after,
        "{operation:?}: after the kill the skill is neither its old nor its new content: {:?}",
        now.as_ref().map(|t| t.len())
    );
    // Nothing lost: whatever was replaced is kept as a snapshot.
    if let (Some(old), true) = (&scene.before, now.as_ref() != before) {
        let history = store(&scene.machine).history(&scene.skill).unwrap();
        assert!(
            history.iter().any(|s| s.info.digest == *old),
            "{operation:?}: the replaced content was not kept as a snapshot"
        );
    }
    store_is_whole(operation, &scene.machine);
    // The next run sweeps and finishes.
    let started = Instant::now();
    let output = scene.command(operation).output().unwrap();
    let took = started.elapsed();
    assert!(
        output.status.success(),
        "{operation:?}: the run after the kill failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        scene.tree(),
        expected.after,
        "{operation:?}: the run after the kill"
    );
    assert_eq!(
        scene.root_staging(),
        Vec::<PathBuf>::new(),
        "{operation:?}: staging left beside the root after the next run"
    );
    assert_eq!(
        scene.store_staging(),
        Vec::<PathBuf>::new(),
        "{operation:?}: staging left in the store after the next run"
    );
    store_is_whole(operation, &scene.machine);
    took
}

/// The store lists, and every snapshot holds exactly the content its digest names.
fn store_is_whole(operation: Operation, machine: &Machine) {
    let all = store(machine)
        .all()
        .unwrap_or_else(|e| panic!("{operation:?}: the store cannot be listed: {e}"));
    for one in all {
        if one.info.truncated {
            continue;
        }
        let held = content_digest(&one.files())
            .unwrap_or_else(|e| panic!("{operation:?}: snapshot {} unreadable: {e}", one.id));
        assert_eq!(
            held, one.info.digest,
            "{operation:?}: snapshot {} is not whole",
            one.id
        );
    }
}

#[derive(Default)]
struct Tally {
    kills: usize,
    finished_first: usize,
    took: BTreeMap<Operation, Duration>,
    phases: BTreeMap<Operation, BTreeMap<Phase, usize>>,
}

fn run(kills: usize, seed: u64) -> Tally {
    let mut rng = Rng(seed | 1);
    let mut tally = Tally::default();
    let expectations: Vec<(Operation, Expected)> =
        OPERATIONS.iter().map(|op| (*op, expected(*op))).collect();
    // How long each command takes now: measured before the kills, then followed through every
    // run after a kill, since a busy disk makes syncs slower as the run goes on.
    tally.took = expectations.iter().map(|(op, e)| (*op, e.took)).collect();
    let mut turn = 0usize;
    while tally.kills < kills {
        let (operation, expected) = &expectations[turn % expectations.len()];
        turn += 1;
        let scene = Scene::new(*operation);
        let before = scene.tree();
        let span = u64::try_from(tally.took[operation].as_micros()).unwrap();
        // Every other kill lands in the run's second half, where the writing is: what comes
        // before it (the scan, the audit of what is imported) grew, and a kill there can lose
        // nothing, so uniform delays alone rarely reach a short staging.
        let delay = if turn.is_multiple_of(2) {
            Duration::from_micros(span / 2 + rng.below(span * 3 / 4))
        } else {
            Duration::from_micros(rng.below(span + span / 4))
        };
        let mut child = scene.command(*operation).spawn().unwrap();
        std::thread::sleep(delay);
        let syscall = syscall_of(child.id());
        let _ = child.kill();
        let status = child.wait().unwrap();
        if std::os::unix::process::ExitStatusExt::signal(&status) != Some(9) {
            assert!(
                status.success(),
                "{operation:?} failed on its own: {status}"
            );
            tally.finished_first += 1;
            continue;
        }
        tally.kills += 1;
        let landed = phase(
            &scene,
            scene.tree().as_ref(),
            before.as_ref(),
            expected.after.as_ref(),
            syscall,
        );
        *tally
            .phases
            .entry(*operation)
            .or_default()
            .entry(landed)
            .or_default() += 1;
        let took = check_after_kill(*operation, &scene, before.as_ref(), expected);
        let span = tally.took.get_mut(operation).unwrap();
        *span = (*span * 3 + took) / 4;
    }
    tally
}

#[test]
fn no_kill_loses_a_skill_or_leaves_half_of_one() {
    let kills = std::env::var("SKILLDECK_CRASH_KILLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_KILLS);
    let seed = std::env::var("SKILLDECK_CRASH_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x5eed_cafe);
    let started = Instant::now();
    let tally = run(kills, seed);
    println!(
        "{} kills (seed {seed:#x}) in {:?} under {}, violations 0, {} runs finished before their kill",
        tally.kills,
        started.elapsed(),
        base_dir().display(),
        tally.finished_first
    );
    let mut hit: BTreeSet<Phase> = BTreeSet::new();
    for (operation, phases) in &tally.phases {
        println!(
            "{operation:?} ({:?} a run): {phases:?}",
            tally.took[operation]
        );
        hit.extend(phases.keys());
    }
    // Kills must land inside the work, not only before or after it; a long run, in every
    // phase of it (syncs take time only on a disk).
    let needed: &[Phase] = if kills >= 1000 {
        &[
            Phase::Staging,
            Phase::Sync,
            Phase::Rename,
            Phase::Cleanup,
            Phase::SnapshotCopy,
            Phase::AfterCommit,
        ]
    } else {
        &[Phase::Staging, Phase::SnapshotCopy]
    };
    for phase in needed {
        assert!(hit.contains(phase), "no kill landed in {phase:?}: {hit:?}");
    }
}
