//! Running a program whose output skilldeck does not trust: git, which prints what a server
//! sends it (`remote: ...`) and waits as long as a server keeps it waiting.
//!
//! Every child process skilldeck runs to read something goes through [`run`], which holds it
//! to four rules: its standard input is closed (or is the bytes given, then closed), so it
//! cannot wait on a person; its standard output goes to the caller a chunk at a time, never
//! gathered whole here, and the caller can stop it; its standard error is kept only as a
//! bounded head and tail ([`STDERR_KEPT`] bytes each), however much it prints; and it ends by
//! a [`Deadline`] — when it has printed nothing for `idle`, or has run for `total` — or when
//! the folder it writes into grows past its [`Writes`] bound, killed with every process it
//! started (it runs in a process group of its own on Unix). The pipes
//! are read by two threads into a channel of a few chunks, so a child that prints faster than
//! the caller reads waits for the caller, and memory stays bounded.
//!
//! The editor the app opens is not run here: it is the person's own program, on their
//! terminal, for as long as they keep it open.

use std::io::{self, Read, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

/// The bytes of standard error kept at each end: what a sentence needs, whatever was printed.
pub const STDERR_KEPT: usize = 8 * 1024;

/// The chunks in flight between the pipe readers and the caller.
const CHUNKS_IN_FLIGHT: usize = 4;

/// The size of one read from a pipe.
const CHUNK_BYTES: usize = 64 * 1024;

/// How long a child may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    /// The longest it may print nothing, on either stream.
    pub idle: Duration,
    /// The longest it may run, however much it prints.
    pub total: Duration,
}

/// The folder a child writes into and the most it may hold: what a server sends git lands on
/// disk, where no pipe bound sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Writes {
    pub dir: PathBuf,
    /// Bytes of all the files below `dir`.
    pub most: u64,
}

/// How often the folder of a [`Writes`] is measured.
const MEASURED_EVERY: Duration = Duration::from_millis(200);

/// The most entries a measure of the folder walks: past them it counts as over its bound (a
/// fetch writes a pack and its index, or at most a hundred loose objects).
const MEASURED_ENTRIES: usize = 100_000;

impl Writes {
    /// Whether the folder holds more than it may.
    fn over(&self) -> bool {
        let mut bytes = 0u64;
        for (seen, entry) in walkdir::WalkDir::new(&self.dir).into_iter().enumerate() {
            if seen > MEASURED_ENTRIES {
                return true;
            }
            let meta = entry.and_then(|entry| entry.metadata());
            if let Ok(meta) = meta
                && meta.is_file()
            {
                bytes = bytes.saturating_add(meta.len());
            }
            if bytes > self.most {
                return true;
            }
        }
        false
    }
}

/// How a child ended.
#[derive(Debug, PartialEq, Eq)]
pub enum End {
    /// It exited (or was ended by a signal) by itself.
    Exited(ExitStatus),
    /// The caller's reader asked it to stop; it was killed.
    Stopped,
    /// It printed nothing for the deadline's `idle`; it was killed.
    Silent(Duration),
    /// It ran for the deadline's `total`; it was killed.
    TooLong(Duration),
    /// The folder it writes into held more than its bound (those bytes); it was killed.
    Overgrown(u64),
}

/// What a run gave, besides the standard output handed to the caller.
#[derive(Debug)]
pub struct Ran {
    pub end: End,
    /// Standard error: its first and last [`STDERR_KEPT`] bytes.
    pub stderr: Kept,
}

/// A stream kept as a bounded head and tail.
#[derive(Debug, Default)]
pub struct Kept {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    /// Bytes between the head and the tail that were not kept.
    dropped: u64,
}

impl Kept {
    /// Keep what `bytes` adds, at most [`STDERR_KEPT`] bytes at each end.
    pub fn push(&mut self, mut bytes: &[u8]) {
        let room = STDERR_KEPT.saturating_sub(self.head.len());
        let (to_head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(to_head);
        bytes = rest;
        if bytes.len() > STDERR_KEPT {
            let skip = bytes.len() - STDERR_KEPT;
            self.dropped += (self.tail.len() + skip) as u64;
            self.tail.clear();
            bytes = &bytes[skip..];
        }
        let over = (self.tail.len() + bytes.len()).saturating_sub(STDERR_KEPT);
        self.tail.drain(..over);
        self.dropped += over as u64;
        self.tail.extend(bytes);
    }

    /// The head, then the tail, as text; the bytes left out between them are said to be.
    pub fn text(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.head).into_owned();
        if self.dropped > 0 {
            text.push_str(&format!("\n[{} bytes left out]\n", self.dropped));
        }
        let (a, b) = self.tail.as_slices();
        text.push_str(&String::from_utf8_lossy(&[a, b].concat()));
        text
    }
}

/// Which pipe a chunk came from.
#[derive(Clone, Copy)]
enum Pipe {
    Out,
    Err,
}

/// Run `command` with `input` (or nothing) on its standard input, handing each chunk of its
/// standard output to `out` until `out` breaks, and holding it to `deadline`.
///
/// # Errors
/// When the program cannot be started (`NotFound` when there is no such program).
pub fn run(
    command: Command,
    input: Option<Vec<u8>>,
    deadline: Deadline,
    out: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
) -> io::Result<Ran> {
    run_writing(command, input, deadline, None, out)
}

/// [`run`], also killing the child when the folder of `writes` holds more than it may.
///
/// # Errors
/// As [`run`].
pub fn run_writing(
    mut command: Command,
    input: Option<Vec<u8>>,
    deadline: Deadline,
    writes: Option<&Writes>,
    out: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
) -> io::Result<Ran> {
    command
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    own_group(&mut command);
    let mut child = command.spawn()?;
    if let (Some(stdin), Some(input)) = (child.stdin.take(), input) {
        feed(stdin, input);
    }
    let (sender, chunks) = mpsc::sync_channel(CHUNKS_IN_FLIGHT);
    if let Some(stdout) = child.stdout.take() {
        drain(stdout, Pipe::Out, sender.clone());
    }
    if let Some(stderr) = child.stderr.take() {
        drain(stderr, Pipe::Err, sender);
    }
    let started = Instant::now();
    let mut heard = started;
    let mut stderr = Kept::default();
    let mut open = 2;
    let mut measured = started;
    let stopped = loop {
        if open == 0 {
            break None;
        }
        let now = Instant::now();
        if let Some(writes) = writes
            && now - measured >= MEASURED_EVERY
        {
            measured = now;
            if writes.over() {
                break Some(End::Overgrown(writes.most));
            }
        }
        let total_left = deadline.total.saturating_sub(now - started);
        let idle_left = deadline.idle.saturating_sub(now - heard);
        let wait = match writes {
            Some(_) => total_left.min(idle_left).min(MEASURED_EVERY),
            None => total_left.min(idle_left),
        };
        match chunks.recv_timeout(wait) {
            Ok((_, None)) => open -= 1,
            Ok((Pipe::Err, Some(chunk))) => {
                heard = Instant::now();
                stderr.push(&chunk);
            }
            Ok((Pipe::Out, Some(chunk))) => {
                heard = Instant::now();
                if out(&chunk).is_break() {
                    break Some(End::Stopped);
                }
            }
            // Woken only to measure the folder: neither deadline has passed.
            Err(RecvTimeoutError::Timeout) if wait < total_left.min(idle_left) => {}
            Err(RecvTimeoutError::Timeout) if total_left <= idle_left => {
                break Some(End::TooLong(deadline.total));
            }
            Err(RecvTimeoutError::Timeout) => break Some(End::Silent(deadline.idle)),
            Err(RecvTimeoutError::Disconnected) => break None,
        }
    };
    let end = match stopped {
        Some(end) => {
            kill(&mut child);
            let _ = child.wait();
            end
        }
        // Both pipes closed: it is ending, or holds on with its pipes closed.
        None => wait_within(&mut child, deadline.total.saturating_sub(started.elapsed()))?,
    };
    // Measured once more at the end: a fast child fills its folder between two measures.
    let end = match (end, writes) {
        (End::Exited(_), Some(writes)) if writes.over() => End::Overgrown(writes.most),
        (end, _) => end,
    };
    Ok(Ran { end, stderr })
}

/// Wait for `child` to exit, at most `left`; killed past it.
fn wait_within(child: &mut Child, left: Duration) -> io::Result<End> {
    let until = Instant::now() + left;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(End::Exited(status));
        }
        if Instant::now() >= until {
            kill(child);
            let _ = child.wait();
            return Ok(End::TooLong(left));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Write `input` to the child on a thread of its own (it may read slowly, or not at all), then
/// close its standard input. A child that ends without reading it all is no error here.
fn feed(mut stdin: ChildStdin, input: Vec<u8>) {
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
}

/// Read `pipe` to its end on a thread, a chunk at a time; `None` says it ended. The thread
/// stops when the caller no longer listens.
fn drain(
    mut pipe: impl Read + Send + 'static,
    which: Pipe,
    sender: SyncSender<(Pipe, Option<Vec<u8>>)>,
) {
    std::thread::spawn(move || {
        let mut buffer = vec![0; CHUNK_BYTES];
        loop {
            match pipe.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => {
                    if sender.send((which, Some(buffer[..n].to_vec()))).is_err() {
                        return;
                    }
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = sender.send((which, None));
    });
}

/// The child leads a process group of its own, so that what it starts (git's transport
/// helpers, ssh) is killed with it, and a terminal's Ctrl-C reaches skilldeck, which ends it.
#[cfg(unix)]
fn own_group(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
}

#[cfg(not(unix))]
fn own_group(_: &mut Command) {}

/// Kill `child` and its process group. Called before it is reaped, so its id still names it.
#[cfg(unix)]
fn kill(child: &mut Child) {
    let group = rustix::process::Pid::from_child(child);
    if rustix::process::kill_process_group(group, rustix::process::Signal::KILL).is_err() {
        let _ = child.kill();
    }
}

#[cfg(not(unix))]
fn kill(child: &mut Child) {
    let _ = child.kill();
}

/// A reader for [`run`] that gathers standard output up to `limit` bytes, and stops the child
/// past it: what `over` then says.
pub struct Gathered {
    pub bytes: Vec<u8>,
    pub over: bool,
    limit: usize,
}

impl Gathered {
    pub fn new(limit: usize) -> Self {
        Self {
            bytes: Vec::new(),
            over: false,
            limit,
        }
    }

    pub fn take(&mut self, chunk: &[u8]) -> ControlFlow<()> {
        if self.bytes.len() + chunk.len() > self.limit {
            self.over = true;
            return ControlFlow::Break(());
        }
        self.bytes.extend_from_slice(chunk);
        ControlFlow::Continue(())
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    const SHORT: Deadline = Deadline {
        idle: Duration::from_secs(1),
        total: Duration::from_secs(3),
    };

    #[test]
    fn output_reaches_the_reader_and_the_status_is_kept() {
        let mut gathered = Gathered::new(1024);
        let ran = run(
            sh("printf hello; printf oops >&2; exit 3"),
            None,
            SHORT,
            &mut |c| gathered.take(c),
        )
        .unwrap();
        assert_eq!(gathered.bytes, b"hello");
        assert!(matches!(ran.end, End::Exited(s) if s.code() == Some(3)));
        assert_eq!(ran.stderr.text(), "oops");
    }

    #[test]
    fn input_is_given_then_closed() {
        let mut gathered = Gathered::new(1024);
        run(sh("cat"), Some(b"abc".to_vec()), SHORT, &mut |c| {
            gathered.take(c)
        })
        .unwrap();
        assert_eq!(gathered.bytes, b"abc");
        // No input: standard input is closed, never the terminal's.
        let mut gathered = Gathered::new(1024);
        let ran = run(sh("cat; echo end"), None, SHORT, &mut |c| gathered.take(c)).unwrap();
        assert_eq!(gathered.bytes, b"end\n");
        assert!(matches!(ran.end, End::Exited(_)));
    }

    #[test]
    fn endless_output_is_stopped_at_the_readers_bound_and_stderr_kept_bounded() {
        let mut gathered = Gathered::new(100_000);
        let ran = run(sh("yes out & yes err >&2"), None, SHORT, &mut |c| {
            gathered.take(c)
        })
        .unwrap();
        assert!(gathered.over);
        assert!(gathered.bytes.len() <= 100_000);
        assert_eq!(ran.end, End::Stopped);
        assert!(ran.stderr.text().len() <= 2 * STDERR_KEPT + 64);
        // Endless standard error alone runs into the total deadline, its memory bounded.
        let started = Instant::now();
        let ran = run(sh("yes err >&2"), None, SHORT, &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(ran.end, End::TooLong(SHORT.total));
        assert!(started.elapsed() < Duration::from_secs(6));
        let text = ran.stderr.text();
        assert!(text.contains("bytes left out"), "{}", &text[..100]);
        assert!(text.len() <= 2 * STDERR_KEPT + 64);
    }

    #[test]
    fn a_silent_child_and_what_it_started_are_killed_at_the_idle_deadline() {
        let tmp = tempfile::tempdir().unwrap();
        let marker = tmp.path().join("grandchild-lived");
        let started = Instant::now();
        // The grandchild holds the pipes open and would write the marker after the deadline.
        let script = format!("(sleep 4; touch '{}') & sleep 30", marker.display());
        let ran = run(sh(&script), None, SHORT, &mut |_| ControlFlow::Continue(())).unwrap();
        assert_eq!(ran.end, End::Silent(SHORT.idle));
        assert!(started.elapsed() < Duration::from_secs(3));
        std::thread::sleep(Duration::from_secs(4));
        assert!(!marker.exists(), "the process group was killed");
    }

    #[test]
    fn a_child_that_trickles_output_ends_at_the_total_deadline() {
        let started = Instant::now();
        let ran = run(
            sh("while true; do echo tick; sleep 0.2; done"),
            None,
            SHORT,
            &mut |_| ControlFlow::Continue(()),
        )
        .unwrap();
        assert_eq!(ran.end, End::TooLong(SHORT.total));
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_child_whose_folder_outgrows_its_bound_is_killed_quiet_or_fast() {
        let tmp = tempfile::tempdir().unwrap();
        let writes = Writes {
            dir: tmp.path().to_path_buf(),
            most: 1024 * 1024,
        };
        let quiet = Deadline {
            idle: Duration::from_secs(20),
            total: Duration::from_secs(20),
        };
        let file = tmp.path().join("pack");
        // Growing without a word on either pipe, long past the bound: stopped at a measure,
        // well before its deadline.
        let growing = format!(
            "while true; do head -c 65536 /dev/zero >> '{}'; sleep 0.01; done",
            file.display()
        );
        let started = Instant::now();
        let ran = run_writing(sh(&growing), None, quiet, Some(&writes), &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(ran.end, End::Overgrown(writes.most));
        assert!(started.elapsed() < Duration::from_secs(10));
        // Past the bound before the first measure, and exited: caught by the last one.
        std::fs::remove_file(&file).unwrap();
        let fast = format!("head -c 2000000 /dev/zero > '{}'", file.display());
        let ran = run_writing(sh(&fast), None, quiet, Some(&writes), &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(ran.end, End::Overgrown(writes.most));
        // Under the bound, a child ends as it would without one.
        std::fs::remove_file(&file).unwrap();
        let small = format!("head -c 1000 /dev/zero > '{}'", file.display());
        let ran = run_writing(sh(&small), None, quiet, Some(&writes), &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap();
        assert!(matches!(ran.end, End::Exited(status) if status.success()));
    }

    #[test]
    fn measuring_the_folder_keeps_the_idle_deadline() {
        let tmp = tempfile::tempdir().unwrap();
        let writes = Writes {
            dir: tmp.path().to_path_buf(),
            most: 1024,
        };
        let ran = run_writing(sh("sleep 30"), None, SHORT, Some(&writes), &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(ran.end, End::Silent(SHORT.idle));
    }

    #[test]
    fn the_kept_head_and_tail_are_bounded_whatever_the_chunks() {
        let mut kept = Kept::default();
        for size in [1, 7, 8191, 8192, 8193, 100_000, 3] {
            kept.push(&vec![b'x'; size]);
            assert!(kept.head.len() <= STDERR_KEPT && kept.tail.len() <= STDERR_KEPT);
        }
        let total: u64 = [1, 7, 8191, 8192, 8193, 100_000, 3].iter().sum::<usize>() as u64;
        assert_eq!(
            kept.head.len() as u64 + kept.tail.len() as u64 + kept.dropped,
            total
        );
        let mut kept = Kept::default();
        kept.push(b"start ");
        kept.push(&vec![b'.'; 50_000]);
        kept.push(b" end");
        let text = kept.text();
        assert!(text.starts_with("start ") && text.ends_with(" end"));
    }
}
