//! skilldeck against git servers and repositories that mean it harm, in `import`, `update`
//! and `outdated`: a server that streams progress and error text without end costs bounded
//! memory and ends at the deadline; one that stops answering is left at the deadline; a small
//! repository whose files would expand to hundreds of megabytes is refused from its listing,
//! with nothing written; and no configuration of the user's or the system's runs a program.
//! The server is [`server`], on loopback only; each run is watched for its peak memory
//! (`VmHWM`), its time, and what it wrote to its temporary folder.

#![cfg(target_os = "linux")]

pub mod server;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::git::{commit, git, repository};
use crate::common::{Machine, snapshot, write_files};
use server::{Play, Server, served};

const MANIFEST: &str = "---\nname: alpha\ndescription: The alpha skill, for tests.\n---\nbody\n";

/// What a watched run did.
struct Watched {
    output: Output,
    elapsed: Duration,
    /// The process's peak resident memory, in KiB.
    peak_kib: u64,
    /// The most bytes and entries its temporary folder held at any moment seen.
    tmp_bytes: u64,
    tmp_entries: usize,
}

impl Watched {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.output.stdout).unwrap_or_else(|_| {
            panic!(
                "not JSON: {}\nstderr: {}",
                String::from_utf8_lossy(&self.output.stdout),
                String::from_utf8_lossy(&self.output.stderr)
            )
        })
    }

    /// The refusal's code and sentence.
    fn refused(&self) -> (String, String) {
        let json = self.json();
        let refused = &json["refused"];
        (
            refused["code"].as_str().unwrap_or_default().to_owned(),
            refused["message"].as_str().unwrap_or_default().to_owned(),
        )
    }
}

/// The most a watched run may take before the test gives up on it (and fails).
const GIVE_UP: Duration = Duration::from_secs(40);

/// Run `command` with its temporary folder `tmp`, watching it; killed (and the test failed)
/// past [`GIVE_UP`].
fn watch(mut command: Command, tmp: &Path) -> Watched {
    std::fs::create_dir_all(tmp).unwrap();
    command
        .env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = command.spawn().unwrap();
    let status_file = PathBuf::from(format!("/proc/{}/status", child.id()));
    let (mut peak_kib, mut tmp_bytes, mut tmp_entries) = (0, 0, 0);
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let read = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let (stdout, stderr) = (read(Box::new(stdout)), read(Box::new(stderr)));
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(kib) = text
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak_kib = peak_kib.max(kib);
        }
        let (bytes, entries) = usage(tmp);
        tmp_bytes = tmp_bytes.max(bytes);
        tmp_entries = tmp_entries.max(entries);
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        // Past four times the bound it has failed already: it is not left to take the machine.
        if started.elapsed() > GIVE_UP || peak_kib > 4 * MEMORY_KIB {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "stopped after {:?}: peak memory {peak_kib} KiB, temporary folder {tmp_bytes} bytes",
                started.elapsed()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Watched {
        output: Output {
            status,
            stdout: stdout.join().unwrap(),
            stderr: stderr.join().unwrap(),
        },
        elapsed: started.elapsed(),
        peak_kib,
        tmp_bytes,
        tmp_entries,
    }
}

/// The bytes of the files below `dir`, and its entries, as they are now.
fn usage(dir: &Path) -> (u64, usize) {
    walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .filter_map(Result::ok)
        .fold((0, 0), |(bytes, entries), entry| {
            let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
            (
                bytes + if entry.file_type().is_file() { size } else { 0 },
                entries + 1,
            )
        })
}

/// A machine with `alpha` imported into Claude Code's user skills from a repository served
/// over loopback: the machine, the server (honest until told otherwise), the served URL and
/// the installed folder.
fn imported_over_http() -> (Machine, Server, String, PathBuf) {
    let machine = Machine::new();
    let repo = machine.root().join("upstream");
    repository(&repo, &[("skills/alpha/SKILL.md", MANIFEST)]);
    let root = machine.root().join("served");
    served(&root, &repo, "skills.git");
    let server = Server::start(&root, Play::Honest);
    let url = server.url("skills.git");
    let to = machine.home.join(".claude/skills");
    machine.run_expecting(&["import", &url, "--to", to.to_str().unwrap()], 0);
    (machine, server, url, to.join("alpha"))
}

/// `skilldeck ARGS` on `machine`, git's deadline `deadline` (`IDLE,TOTAL` seconds).
fn run(machine: &Machine, args: &[&str], deadline: &str) -> Watched {
    let mut command = machine.command(args);
    command.env("SKILLDECK_GIT_TIMEOUT", deadline);
    watch(command, &machine.root().join("tmp"))
}

/// The memory a run may peak at while git prints without end: the binary's own working set
/// is a few tens of MiB; before the bound, two seconds of a hostile server cost over 1 GiB.
const MEMORY_KIB: u64 = 96 * 1024;

#[test]
fn a_server_streaming_progress_and_errors_without_end_costs_bounded_memory_and_ends_at_the_deadline()
 {
    let (machine, server, url, skill) = imported_over_http();
    let before = snapshot(&machine.home);
    server.play(Play::EndlessProgress);
    let cases: [(&str, Vec<&str>); 3] = [
        ("import", vec!["import", &url, "--dry-run", "--json"]),
        ("update", vec!["update", "alpha", "--json"]),
        (
            "update --from",
            vec!["update", "alpha", "--from", &url, "--json"],
        ),
    ];
    for (case, args) in cases {
        let watched = run(&machine, &args, "5,6");
        assert!(
            watched.peak_kib < MEMORY_KIB,
            "{case}: peak memory {} KiB",
            watched.peak_kib
        );
        assert!(
            watched.elapsed < Duration::from_secs(20),
            "{case}: {:?}",
            watched.elapsed
        );
        assert_ne!(watched.output.status.code(), Some(0), "{case}");
        let (code, message) = watched.refused();
        assert_eq!(code, "fetch_failed", "{case}: {message}");
        assert!(
            message.contains("still running after 6 seconds"),
            "{case}: {message}"
        );
        // What git said is kept, bounded, and safe: no carriage return reaches the terminal.
        assert!(message.len() < 40_000, "{case}: {} bytes", message.len());
        assert!(!message.contains('\r'), "{case}");
        assert_eq!(snapshot(&machine.home), before, "{case}: nothing written");
    }
    assert!(skill.join("SKILL.md").is_file());
    // A ref advertisement without end: `outdated` and `import` alike.
    server.play(Play::EndlessRefs);
    for (case, args) in [
        ("outdated", vec!["outdated", "--json"]),
        ("import", vec!["import", &url, "--dry-run", "--json"]),
    ] {
        let watched = run(&machine, &args, "5,6");
        assert!(
            watched.peak_kib < MEMORY_KIB,
            "{case}: peak memory {} KiB",
            watched.peak_kib
        );
        assert!(
            watched.elapsed < Duration::from_secs(20),
            "{case}: {:?}",
            watched.elapsed
        );
        // git holds the advertisement until it ends: silent, then stopped.
        let text = String::from_utf8_lossy(&watched.output.stdout);
        assert!(text.contains("so git was stopped"), "{case}: {text}");
    }
}

#[test]
fn a_server_that_stops_answering_is_left_at_the_deadline_with_a_sentence() {
    let (machine, server, url, _) = imported_over_http();
    let before = snapshot(&machine.home);
    let cases: [(&str, Play, Vec<&str>); 5] = [
        (
            "import, silent refs",
            Play::StallRefs,
            vec!["import", &url, "--dry-run", "--json"],
        ),
        (
            "import, silent mid-fetch",
            Play::StallMidFetch,
            vec!["import", &url, "--dry-run", "--json"],
        ),
        (
            "update, silent mid-fetch",
            Play::StallMidFetch,
            vec!["update", "alpha", "--json"],
        ),
        (
            "update, silent refs",
            Play::StallRefs,
            vec!["update", "alpha", "--json"],
        ),
        (
            "outdated, silent refs",
            Play::StallRefs,
            vec!["outdated", "--json"],
        ),
    ];
    for (case, play, args) in cases {
        server.play(play);
        let watched = run(&machine, &args, "2,30");
        assert!(
            watched.elapsed < Duration::from_secs(12),
            "{case}: {:?}",
            watched.elapsed
        );
        let text = String::from_utf8_lossy(&watched.output.stdout);
        assert!(
            text.contains("the server sent nothing for 2 seconds"),
            "{case}: {text}"
        );
        // `outdated` keeps its answers; nothing else is written.
        if !case.starts_with("outdated") {
            assert_eq!(snapshot(&machine.home), before, "{case}: nothing written");
        }
    }
}

/// A repository on disk whose one commit holds `alpha/SKILL.md` and `entries` more files,
/// built from git objects directly (`mktree`, `commit-tree`) so the test writes none of the
/// bytes the checkout would: each file is the blob of `blob_bytes` zeros.
fn expanding(dir: &Path, entries: usize, blob_bytes: usize) {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "--quiet"]);
    let object = |input: &[u8]| {
        let mut child = Command::new("git")
            .args(["hash-object", "-w", "--stdin"])
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    let manifest = object(MANIFEST.as_bytes());
    let zeros = object(&vec![0; blob_bytes]);
    let mktree = |listing: String| {
        let mut child = Command::new("git")
            .args(["mktree"])
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(listing.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    let mut listing = format!("100644 blob {manifest}\tSKILL.md\n");
    for n in 0..entries {
        listing.push_str(&format!("100644 blob {zeros}\tdata-{n:05}.bin\n"));
    }
    let alpha = mktree(listing);
    let top = mktree(format!("040000 tree {alpha}\talpha\n"));
    let commit = git(dir, &["commit-tree", &top, "-m", "expands"]);
    git(dir, &["update-ref", "refs/heads/main", &commit]);
    git(dir, &["symbolic-ref", "HEAD", "refs/heads/main"]);
}

#[test]
fn a_repository_whose_files_would_expand_is_refused_from_its_listing_with_nothing_written() {
    const MIB: usize = 1024 * 1024;
    let machine = Machine::new();
    // (case, files, bytes of each, the code): hundreds of MB from one blob, one file over the
    // bound a file may hold, more files than a bundle may hold.
    let cases = [
        ("60 files of 12 MiB", 60, 12 * MIB, "too_large"),
        ("one file of 17 MiB", 1, 17 * MIB, "too_large"),
        ("12,000 files", 12_000, 1, "too_many_entries"),
    ];
    for (n, (case, files, each, code)) in cases.into_iter().enumerate() {
        let repo = machine.root().join(format!("expanding-{n}"));
        expanding(&repo, files, each);
        let before = snapshot(&machine.home);
        let tmp = machine.root().join(format!("tmp-{n}"));
        let mut command =
            machine.command(&["import", repo.to_str().unwrap(), "--dry-run", "--json"]);
        command.env("SKILLDECK_GIT_TIMEOUT", "60");
        let watched = watch(command, &tmp);
        let (said, message) = watched.refused();
        assert_eq!(said, code, "{case}: {message}");
        // The pack of a repository of zeros is a few kilobytes: nothing else is written.
        assert!(
            watched.tmp_bytes < 2 * MIB as u64,
            "{case}: the temporary folder held {} bytes",
            watched.tmp_bytes
        );
        assert!(
            watched.tmp_entries < 200,
            "{case}: the temporary folder held {} entries",
            watched.tmp_entries
        );
        assert_eq!(snapshot(&machine.home), before, "{case}");
        assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 0, "{case}");
    }
}

#[test]
fn a_repository_within_the_bounds_is_read_from_its_objects_whole() {
    let machine = Machine::new();
    let repo = machine.root().join("fits");
    expanding(&repo, 3, 1000);
    let mut command = machine.command(&["import", repo.to_str().unwrap(), "--dry-run", "--json"]);
    command.env("SKILLDECK_GIT_TIMEOUT", "60");
    let watched = watch(command, &machine.root().join("tmp"));
    let json = watched.json();
    let files = json["skills"][0]["files"].as_array().unwrap();
    assert_eq!(files.len(), 4, "{json:#}");
    assert!(
        files
            .iter()
            .any(|f| f["path"] == "data-00002.bin" && f["size"] == 1000)
    );
}

/// The user's git configuration, as an attacker who could write it once would leave it:
/// every setting that runs a program writes `marker` when it runs.
fn hostile_configuration(machine: &Machine, marker: &Path) {
    let script = machine.root().join("run-me");
    write_files(
        &machine.root(),
        &[(
            "run-me",
            &format!(
                "#!/bin/sh\necho \"$0 $*\" >> '{}'\nexit 1\n",
                marker.display()
            ),
        )],
    );
    let hooks = machine.root().join("hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    use std::os::unix::fs::PermissionsExt;
    let executable = std::fs::Permissions::from_mode(0o755);
    std::fs::set_permissions(&script, executable.clone()).unwrap();
    for hook in [
        "post-checkout",
        "reference-transaction",
        "post-index-change",
        "pre-auto-gc",
    ] {
        let path = hooks.join(hook);
        std::fs::copy(&script, &path).unwrap();
        std::fs::set_permissions(&path, executable.clone()).unwrap();
    }
    let script = script.display();
    write_files(
        &machine.home,
        &[(
            ".gitconfig",
            &format!(
                "[core]\n\thooksPath = {}\n\tfsmonitor = {script}\n\tsshCommand = {script}\n\taskPass = {script}\n[credential]\n\thelper = !{script}\n[protocol]\n\tallow = always\n",
                hooks.display()
            ),
        )],
    );
}

#[test]
fn no_configuration_of_the_users_runs_a_program_and_only_the_protocols_read_are_spoken() {
    let machine = Machine::new();
    let marker = machine.root().join("ran");
    hostile_configuration(&machine, &marker);
    let repo = machine.root().join("upstream");
    repository(&repo, &[("skills/alpha/SKILL.md", MANIFEST)]);
    let served_root = machine.root().join("served");
    served(&served_root, &repo, "skills.git");
    let server = Server::start(&served_root, Play::Unauthorized);
    let ext = format!("ext::sh -c touch% {}", marker.display());
    let private = server.url("skills.git");
    let cases: [(&str, &str, Option<&str>); 4] = [
        // Hooks, fsmonitor: a local repository fetched and read.
        ("a local repository", repo.to_str().unwrap(), Some("skills")),
        // `ext::` runs a command; the user's `protocol.allow = always` would let it.
        ("ext::", &ext, None),
        // A server asking for a password: the credential helper, askpass, a prompt.
        ("a password asked", &private, None),
        // ssh: the user's `core.sshCommand`.
        ("ssh", "ssh://127.0.0.1:9/skills.git", None),
    ];
    for (case, source, expect_ok) in cases {
        let output = machine
            .command(&["import", source, "--dry-run", "--json"])
            .env("SKILLDECK_GIT_TIMEOUT", "10")
            .output()
            .unwrap();
        assert!(
            !marker.exists(),
            "{case}: ran {}",
            std::fs::read_to_string(&marker).unwrap_or_default()
        );
        let json: Value = serde_json::from_slice(&output.stdout).unwrap();
        match expect_ok {
            Some(_) => assert_eq!(output.status.code(), Some(0), "{case}: {json:#}"),
            None => {
                assert_eq!(json["refused"]["code"], "fetch_failed", "{case}: {json:#}");
            }
        }
    }
    // `update` and `outdated` run git the same way.
    let to = machine.home.join(".claude/skills");
    machine.import_to(&repo, &to);
    write_files(&repo, &[("skills/alpha/notes.md", "new\n")]);
    commit(&repo, "notes");
    machine.run_expecting(&["update", "alpha", "--json"], 0);
    machine.run_expecting(&["outdated", "--json"], 0);
    assert!(
        !marker.exists(),
        "{}",
        std::fs::read_to_string(&marker).unwrap_or_default()
    );
}
