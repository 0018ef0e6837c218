//! The live app's refresh (issue 17.1) on a machine of N skills (default 2,000): how long an
//! edit to one skill's file takes to show on screen as drift, and what the app costs while
//! nothing happens.
//!
//! Run: `cargo bench --bench live -- 2000` (size optional).
//!
//! The app runs through its real runtime, live (the watching thread, the rescan worker), turn
//! by turn as its own loop runs it, on a terminal with no input (each turn waits its poll
//! timeout, as the terminal's poll would). One recorded skill's file is edited from outside
//! (written and closed, as an editor saves), and the time is taken until the frame drawn shows
//! its row drifted (`▲`); then it is written back, and the time taken until the row shows it
//! intact again (`●`). Medians and p90 over every edit. Then the app is left alone for 10 s and
//! the process's CPU time over that span is read from /proc/self/stat (every thread of it:
//! the watcher's, the workers', the loop's), beside the same app not live.

mod common;

use std::fs;
use std::io;
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::Event;

use skilldeck::record::State;
use skilldeck::roots::{Environment, Machine};
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::headless::{Headless, test_terminal};
use skilldeck::tui::runtime::Events;
use skilldeck::tui::theme::state_marker;

const EDITS: usize = 40;
const IDLE: Duration = Duration::from_secs(10);
const PATIENCE: Duration = Duration::from_secs(120);
const TARGET: &str = "skill-00000";

/// A terminal nobody types on: each poll waits its whole timeout.
struct NoInput;

impl Events for NoInput {
    fn next(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
        thread::sleep(timeout);
        Ok(None)
    }
}

fn main() {
    let n = common::args::number_or(2000);
    let tmp = tempfile::tempdir().expect("temp dir");
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    fs::create_dir_all(&project).expect("project");
    let files = common::machine::generate(&home, n);
    let _ = std::process::Command::new("sync").status();
    println!(
        "{n} skills ({files} files), terminal 120×40, {} cores\n",
        thread::available_parallelism().map_or(1, |n| n.get())
    );

    let mut app = open(&home, &project, true);
    // The first (recorded) skill, first in the list by name.
    let guide = home
        .join(".claude/skills")
        .join(TARGET)
        .join("references/guide.md");
    let original = fs::read(&guide).expect("the guide");
    let mut drift = Vec::with_capacity(EDITS);
    let mut back = Vec::with_capacity(EDITS);
    for i in 0..EDITS {
        let edited = format!("edited from outside, edit {i}\n");
        drift.push(edit(&mut app, &guide, edited.as_bytes(), State::Modified));
        back.push(edit(&mut app, &guide, &original, State::Intact));
    }
    println!("| edit → drawn ({EDITS} edits each) | median | p90 | worst |");
    println!("|---|---:|---:|---:|");
    row("a file edited: the row shows it drifted", &mut drift);
    row("written back: the row shows it intact", &mut back);

    where_the_time_goes(&home, &project, &guide);

    let live = idle_cpu(&mut app);
    drop(app);
    let mut still = open(&home, &project, false);
    let not_live = idle_cpu(&mut still);
    println!(
        "\n| idle for {} s | CPU time | of one core |",
        IDLE.as_secs()
    );
    println!("|---|---:|---:|");
    for (label, cpu) in [("live (watching)", live), ("not live (baseline)", not_live)] {
        println!(
            "| {label} | {:.0} ms | {:.2} % |",
            cpu.as_secs_f64() * 1000.0,
            cpu.as_secs_f64() / IDLE.as_secs_f64() * 100.0
        );
    }
}

/// What a rescan of the one skill costs, alone: the scan again, against the whole scan.
fn where_the_time_goes(home: &Path, project: &Path, guide: &Path) {
    let env = Environment::new(home);
    let inventory = skilldeck::scan::scan(&env, project, &|_| {});
    let mut whole = Vec::new();
    let mut again = Vec::new();
    let mut watched = Vec::new();
    let mut listings = Vec::new();
    let mut decks = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        let _ = skilldeck::scan::scan(&env, project, &|_| {});
        whole.push(started.elapsed());
    }
    for _ in 0..20 {
        let started = Instant::now();
        let _ = skilldeck::scan::again(&env, project, &inventory, &[guide.to_path_buf()]);
        again.push(started.elapsed());
        let started = Instant::now();
        let _ = skilldeck::scan::watched(&env, project, &inventory);
        watched.push(started.elapsed());
        let started = Instant::now();
        for agent in skilldeck::listing::agents() {
            if inventory.installed.contains(&agent) {
                let _ = skilldeck::listing::listing(
                    &inventory,
                    &env,
                    &skilldeck::roots::Project::locate(project),
                    agent,
                    Default::default(),
                );
            }
        }
        listings.push(started.elapsed());
        let started = Instant::now();
        let _ = skilldeck::tui::model::Deck::new(&inventory, home, std::time::SystemTime::now());
        decks.push(started.elapsed());
    }
    println!("\n| on the rescan worker | median | p90 | worst |");
    println!("|---|---:|---:|---:|");
    row("the whole scan (baseline: `r`)", &mut whole);
    row("`scan::again`, one skill changed", &mut again);
    row("what to watch, worked out again", &mut watched);
    row("each installed agent's listing", &mut listings);
    row("the deck made of the inventory", &mut decks);
}

/// The app on the machine, its scan done and drawn, and (when live) its watch in place.
fn open(home: &Path, project: &Path, live: bool) -> Headless {
    let machine = Machine::new(Environment::new(home), project);
    let app = Headless::new(test_terminal(120, 40), App::new(Setup::default()), machine)
        .expect("runtime")
        .patience(PATIENCE);
    let mut app = if live {
        app.live().expect("the watch")
    } else {
        app
    };
    app.start().expect("the scan finishes");
    while live && app.app().live.watch.is_none() {
        assert!(app.runtime.pump_waiting(PATIENCE), "the watch is placed");
    }
    quiet(&mut app);
    app
}

/// Write `bytes` to `file` and turn the loop until the target's row shows `state`: how long
/// that took.
fn edit(app: &mut Headless, file: &Path, bytes: &[u8], state: State) -> Duration {
    let started = Instant::now();
    fs::write(file, bytes).expect("edit");
    while !shows(app, state) {
        app.runtime.turn(&mut NoInput).expect("a turn");
        assert!(started.elapsed() < PATIENCE, "the edit never showed");
    }
    let took = started.elapsed();
    quiet(app);
    took
}

/// Turn the loop until nothing is awaited and a rescan's watch is placed again.
fn quiet(app: &mut Headless) {
    app.settle().expect("the workers answer");
    for _ in 0..4 {
        app.runtime.turn(&mut NoInput).expect("a turn");
    }
    app.settle().expect("the workers answer");
}

/// Whether the list's row of the target, as last drawn, carries the marker of `state`.
fn shows(app: &Headless, state: State) -> bool {
    let text = app.text();
    // Its row in the list: the name there, left of the list's edge (the detail beside it
    // names the skill too, on the row of another).
    text.lines().any(|line| {
        line.find(TARGET).is_some_and(|at| {
            let before = &line[..at];
            !before.contains("││") && before.contains(state_marker(state))
        })
    })
}

/// The process's CPU time while the app's loop turns with nothing happening for [`IDLE`].
fn idle_cpu(app: &mut Headless) -> Duration {
    let before = cpu_time();
    let started = Instant::now();
    while started.elapsed() < IDLE {
        app.runtime.turn(&mut NoInput).expect("a turn");
    }
    cpu_time() - before
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
    let per_second: u64 = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(100);
    Duration::from_secs_f64(ticks as f64 / per_second as f64)
}

fn row(label: &str, times: &mut [Duration]) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "| {label} | {} | {} | {} |",
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(1.0))
    );
}

fn ms(duration: Duration) -> String {
    format!("{:.1} ms", duration.as_secs_f64() * 1000.0)
}
