//! Ctrl-C during `skilldeck sync`: the first one stops the sync at its next safe point (the
//! skill being fetched ends as its fetch ends; the skills after it are not fetched, and named
//! as cancelled), nothing is installed or written, and the command ends with its sentences and
//! exit code rather than killed; a second Ctrl-C stops it at once.

#![cfg(unix)]

use std::fs;
use std::io::Read;
use std::net::TcpListener;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::Machine;

/// A lock of two skills, each from its own repository at `base` (a server that answers no
/// request).
fn lock(machine: &Machine, base: &str) -> String {
    let entry = |repo: &str, name: &str| {
        format!(
            r#""{name}": {{"source": "{base}/{repo}.git", "sourceUrl": "{base}/{repo}.git", "ref": "main", "sourceType": "git", "skillPath": "skills/{name}/SKILL.md", "computedHash": "{}"}}"#,
            "ab".repeat(32)
        )
    };
    let text = format!(
        "{{\"version\": 1, \"skills\": {{{}, {}}}}}\n",
        entry("first", "one"),
        entry("second", "two")
    );
    fs::write(machine.repo.join("skills-lock.json"), &text).unwrap();
    text
}

/// A listener that tells `accepted` of each connection and holds it until told to let go
/// (then closes it unanswered, which fails the fetch).
fn silent_server() -> (String, mpsc::Receiver<()>, mpsc::Sender<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let (accepted, heard) = mpsc::channel();
    let (release, released) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            if accepted.send(()).is_err() {
                return;
            }
            // Held unanswered until released (or at most a minute), then closed.
            let _ = released.recv_timeout(Duration::from_secs(60));
            drop(stream);
        }
    });
    (base, heard, release)
}

fn interrupt(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Wait for `child` at most a minute; its status and what it wrote.
fn finish(mut child: Child) -> (ExitStatus, String) {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut said = String::new();
            child
                .stdout
                .take()
                .unwrap()
                .read_to_string(&mut said)
                .unwrap();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut said)
                .unwrap();
            return (status, said);
        }
        if Instant::now() > until {
            let _ = child.kill();
            panic!("sync did not end after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn start_sync(machine: &Machine) -> Child {
    machine
        .command(&["sync"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn ctrl_c_stops_the_sync_at_its_next_safe_point_and_says_so() {
    let machine = Machine::new();
    let (base, accepted, release) = silent_server();
    let locked = lock(&machine, &base);
    let child = start_sync(&machine);
    // The first skill's fetch is under way: Ctrl-C, then its fetch fails.
    accepted.recv_timeout(Duration::from_secs(30)).unwrap();
    interrupt(&child);
    std::thread::sleep(Duration::from_millis(300));
    let _ = release.send(());
    let (status, said) = finish(child);
    assert_eq!(
        status.code(),
        Some(1),
        "ended, not killed: {status:?}\n{said}"
    );
    assert!(said.contains("two") && said.contains("cancelled"), "{said}");
    // The second skill's source was never asked for.
    assert!(accepted.try_recv().is_err(), "{said}");
    assert!(!machine.repo.join(".agents/skills/one").exists());
    assert!(!machine.repo.join(".agents/skills/two").exists());
    assert_eq!(
        fs::read_to_string(machine.repo.join("skills-lock.json")).unwrap(),
        locked
    );
}

#[test]
fn a_second_ctrl_c_stops_it_at_once() {
    let machine = Machine::new();
    let (base, accepted, _release) = silent_server();
    lock(&machine, &base);
    let child = start_sync(&machine);
    accepted.recv_timeout(Duration::from_secs(30)).unwrap();
    interrupt(&child);
    std::thread::sleep(Duration::from_millis(200));
    interrupt(&child);
    let (status, said) = finish(child);
    assert_eq!(
        status.signal(),
        Some(2),
        "killed by the second Ctrl-C: {status:?}\n{said}"
    );
}
