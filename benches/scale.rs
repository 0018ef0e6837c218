//! What grows with a hostile input's size (issue 30, item 15), at N and at ten times N
//! (default 1,000 and 10,000), so the growth shows: linear work grows ten-fold, quadratic a
//! hundred-fold.
//!
//! - A session log line naming N skill folders ("Base directory for this skill:" N times in
//!   one message): `skilldeck list --json` reading it (the usage cache removed before each
//!   run), and `skilldeck snapshot --from-transcript` of it.
//! - N skill folders made, as fast as the file system takes them, in a root of the live app:
//!   the CPU time of the whole process (the watcher, the rescans, the loop) from the first
//!   folder made until the app lists them all, beside the CPU time of a whole scan of the
//!   same skills (what `r` costs).
//!
//! Run: `cargo bench --bench scale -- 1000 10000` (needs /usr/bin/time and bash). Three runs
//! of each; medians.

mod common;

use std::fs;
use std::io::Write as _;
use std::thread;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::Event;

use common::timing::{clocked, median, ms};
use skilldeck::roots::{Environment, Machine};
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::headless::{Headless, test_terminal};
use skilldeck::tui::runtime::Events;

const RUNS: usize = 3;
/// The skills there before the burst.
const BEFORE: usize = 100;
const PATIENCE: Duration = Duration::from_secs(900);

fn main() {
    let sizes = common::args::numbers_or(&[1_000, 10_000]);
    println!(
        "| N | list --json, a line of N folders | snapshot --from-transcript | N folders made live: CPU until listed | wall | whole scan of them: CPU |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        let (list, snapshot) = session_line(n);
        let (cpu, wall, scan) = burst(n);
        println!(
            "| {n} | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} ms |",
            ms(list),
            ms(snapshot),
            ms(cpu),
            ms(wall),
            ms(scan)
        );
    }
}

/// The median wall times of `list --json` and `snapshot --from-transcript` on a session log
/// whose one line names `n` skill folders.
fn session_line(n: usize) -> (Duration, Duration) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    fs::create_dir_all(&project).expect("project");
    let text: String = (0..n)
        .map(|i| format!("Base directory for this skill: /s/skills/skill-{i:06}\n"))
        .collect();
    let line = serde_json::json!({"type": "user", "timestamp": "2026-11-20T10:00:00Z",
        "message": {"role": "user", "content": [{"type": "text", "text": text}]}});
    let log = home.join(".claude/projects/p/s.jsonl");
    fs::create_dir_all(log.parent().expect("a folder")).expect("log folder");
    let mut file = fs::File::create(&log).expect("log");
    writeln!(file, "{line}").expect("write");
    let bin = env!("CARGO_BIN_EXE_skilldeck");
    let cache = home.join(".local/share/skilldeck/usage");
    let sh = |script: String| vec!["sh".to_owned(), "-c".to_owned(), script];
    let list = sh(format!(
        "rm -rf {} && {bin} list --json --project {}",
        cache.display(),
        project.display()
    ));
    // Past the bound a transcript is refused unread (exit 3): that refusal is what is timed.
    let refused = if n > skilldeck::limits::SESSION_SKILLS {
        " || [ $? -eq 3 ]"
    } else {
        ""
    };
    let snapshot = sh(format!(
        "{bin} snapshot --from-transcript {} --project {}{refused}",
        log.display(),
        project.display()
    ));
    let env = [("HOME", home.as_path())];
    let mut times = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        times.0.push(clocked(&list, &env).wall);
        times.1.push(clocked(&snapshot, &env).wall);
    }
    (median(times.0), median(times.1))
}

/// A terminal nobody types on: each poll waits its whole timeout.
struct NoInput;

impl Events for NoInput {
    fn next(&mut self, timeout: Duration) -> std::io::Result<Option<Event>> {
        thread::sleep(timeout);
        Ok(None)
    }
}

/// The medians of: the process's CPU time from the first of `n` folders made in the live
/// app's root until it lists them all, the wall time of the same, and a whole scan's CPU time.
fn burst(n: usize) -> (Duration, Duration, Duration) {
    let mut samples = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let tmp = tempfile::tempdir().expect("temp dir");
        let home = tmp.path().join("home");
        let project = home.join("project");
        fs::create_dir_all(project.join(".git")).expect("project");
        common::machine::generate(&home, BEFORE);
        let machine = Machine::new(Environment::new(&home), &project);
        let mut app = Headless::new(test_terminal(120, 40), App::new(Setup::default()), machine)
            .expect("runtime")
            .patience(PATIENCE)
            .live()
            .expect("the watch");
        app.start().expect("the scan finishes");
        while app.app().live.watch.is_none() {
            assert!(app.runtime.pump_waiting(PATIENCE), "the watch is placed");
        }
        let listed = app.app().deck.skills.len();
        let root = home.join(".claude/skills");
        let cpu = cpu_time();
        let started = Instant::now();
        for i in 0..n {
            let dir = root.join(format!("made-{i:06}"));
            fs::create_dir(&dir).expect("a folder");
            fs::write(
                dir.join("SKILL.md"),
                format!("---\nname: made-{i:06}\ndescription: Made in a burst.\n---\nBody.\n"),
            )
            .expect("SKILL.md");
        }
        while app.app().deck.skills.len() < listed + n
            || app.app().live.rescanning
            || !app.app().live.pending.is_empty()
        {
            app.runtime.turn(&mut NoInput).expect("a turn");
            assert!(started.elapsed() < PATIENCE, "the folders never showed");
        }
        samples.0.push(cpu_time() - cpu);
        samples.1.push(started.elapsed());
        drop(app);
        let env = Environment::new(&home);
        let cpu = cpu_time();
        let _ = skilldeck::scan::scan(&env, &project, &|_| {});
        samples.2.push(cpu_time() - cpu);
    }
    (median(samples.0), median(samples.1), median(samples.2))
}

/// User and system time of every thread of this process, from /proc/self/stat.
fn cpu_time() -> Duration {
    let stat = fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    // The command name may hold spaces; the fields counted from after its parenthesis.
    let fields: Vec<&str> = stat[stat.rfind(')').expect("stat") + 2..]
        .split(' ')
        .collect();
    let ticks: u64 =
        fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
    // Linux counts in hundredths of a second (USER_HZ) on every architecture it runs on.
    Duration::from_secs_f64(ticks as f64 / 100.0)
}
