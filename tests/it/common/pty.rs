//! The real binary run on a pseudo-terminal, as a person's shell runs it: standard output and
//! error are a terminal (so anything that checks `isatty` takes its terminal path), and every
//! byte it wrote there is read back, exactly, for the tests to search.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::thread;

use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};

/// What a run on a terminal wrote, and how it ended.
pub struct OnTerminal {
    pub status: ExitStatus,
    /// Every byte written to the terminal, standard output and error together.
    pub bytes: Vec<u8>,
}

impl OnTerminal {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// Run `command` with its standard input, output and error on a new pseudo-terminal.
pub fn run_on_terminal(mut command: Command) -> OnTerminal {
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).expect("openpt");
    grantpt(&master).expect("grantpt");
    unlockpt(&master).expect("unlockpt");
    let name = ptsname(&master, Vec::new()).expect("ptsname");
    let slave = OpenOptions::new()
        .read(true)
        .write(true)
        .open(name.to_str().expect("pts path"))
        .expect("open the terminal's far end");
    command
        .stdin(Stdio::from(slave.try_clone().expect("dup")))
        .stdout(Stdio::from(slave.try_clone().expect("dup")))
        .stderr(Stdio::from(slave));
    let mut child = command.spawn().expect("run skilldeck on a terminal");
    // The command holds the only far ends now; read until it closes them, in a thread so a
    // full terminal buffer never stalls the command.
    drop(command);
    let mut master = File::from(master);
    let reader = thread::spawn(move || {
        let mut bytes = Vec::new();
        let mut chunk = [0u8; 8192];
        loop {
            match master.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => bytes.extend_from_slice(&chunk[..n]),
                // EIO: every far end is closed.
                Err(_) => break,
            }
        }
        bytes
    });
    let status = child.wait().expect("wait");
    let bytes = reader.join().expect("reader");
    OnTerminal { status, bytes }
}
