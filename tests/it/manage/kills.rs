//! Kills at random moments of a real command: whatever a kill left, one `undo` (or none, when
//! nothing changed) brings back exactly what was there, and the operation before it (a link of
//! `first` into Copilot's root, which every machine here starts with) is never undone in its
//! place. Shared by the write-ahead tests of each operation.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::stdout;
use crate::common::Machine;

/// Where kill rounds lay their machines: a memory file system where there is one (syncing a
/// disk would make each round seconds).
pub fn base() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// One kind of kill round: a fresh machine and the command to kill on it, what of the machine
/// is compared, and the operation `undo` must say it undid.
pub struct Rounds<'a> {
    pub operation: &'a str,
    pub make: &'a dyn Fn() -> (Machine, Vec<String>),
    pub tree: &'a dyn Fn(&Machine) -> BTreeMap<String, String>,
    pub rounds: usize,
    pub seed: u64,
}

impl Rounds<'_> {
    /// Kill the command at delays from a third of its own time on this machine to a third
    /// past it, and check each round.
    pub fn run(&self) {
        let took = {
            let (machine, args) = (self.make)();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let started = Instant::now();
            machine.run_expecting(&args, 0);
            started.elapsed()
        };
        let span = u64::try_from(took.as_micros()).unwrap().max(1);
        let mut seed = self.seed;
        let mut landed = [0usize; 2];
        for round in 0..self.rounds {
            let (machine, args) = (self.make)();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let before = (self.tree)(&machine);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let delay = Duration::from_micros(span / 3 + seed % span);
            let mut child = machine
                .command(&args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let started = Instant::now();
            while started.elapsed() < delay {
                if child.try_wait().unwrap().is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_micros(200));
            }
            let _ = child.kill();
            let _ = child.wait();
            let changed = (self.tree)(&machine) != before;
            landed[usize::from(changed)] += 1;
            if changed {
                let output = machine.run(&["undo"]);
                assert_eq!(
                    output.status.code(),
                    Some(0),
                    "{} round {round}: {}",
                    self.operation,
                    String::from_utf8_lossy(&output.stderr)
                );
                let undid = format!("Undid the {}", self.operation);
                assert!(
                    stdout(&output).contains(&undid),
                    "round {round}: {}",
                    stdout(&output)
                );
            }
            assert_eq!(
                (self.tree)(&machine),
                before,
                "{} round {round}",
                self.operation
            );
            assert!(
                machine.home.join(".copilot/skills/first").exists(),
                "{} round {round}: the operation before was undone",
                self.operation
            );
        }
        eprintln!(
            "{} took {took:?}; kills before any change: {}, after some: {}",
            self.operation, landed[0], landed[1]
        );
        assert!(
            landed[1] > 0,
            "no kill landed after the {} began to change the machine",
            self.operation
        );
    }
}
