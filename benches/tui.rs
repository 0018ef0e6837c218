//! The terminal app's responsiveness on a machine of N skills (default 20,000): how soon the
//! first frame is drawn after the app starts, how soon the list is full, and how long a key
//! press takes to be handled and drawn while the list is full.
//!
//! Run: `cargo bench --bench tui -- 20000` (size optional).
//!
//! The app runs through its real runtime (scan and SKILL.md workers included) and draws through
//! crossterm's backend into a sink, so the escape sequences a terminal would receive are
//! produced and counted in. Baselines, measured in the same run: the first frame on a machine
//! with no skills, and a redraw in which nothing changed (the cost of drawing alone).
//! Every figure is a median of many runs; p99 and the worst are printed beside it.

mod common;

use std::fs;
use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};

use skilldeck::roots;
use skilldeck::roots::Environment;
use skilldeck::tui::app::{App, Scan, Setup};
use skilldeck::tui::headless::Headless;
use skilldeck::tui::model::Deck;

const WIDTH: u16 = 120;
const HEIGHT: u16 = 40;
const STARTS: usize = 9;
const PRESSES: usize = 200;
const PATIENCE: Duration = Duration::from_secs(120);

type Sink = CrosstermBackend<io::Sink>;

fn main() {
    let n = common::args::number_or(20_000);
    let tmp = tempfile::tempdir().expect("temp dir");
    let home = tmp.path().join("home");
    let files = common::machine::generate(&home, n);
    let drifted = drift(&home, n);
    let empty = tmp.path().join("empty");
    let project = tmp.path().join("project");
    fs::create_dir_all(&empty).expect("empty home");
    fs::create_dir_all(&project).expect("project");
    // Write the new files out before measuring, so the kernel's writeback does not run alongside.
    let _ = std::process::Command::new("sync").status();
    println!("{n} skills ({files} files, {drifted} drifted), terminal {WIDTH}×{HEIGHT}\n");

    println!("| start | first frame (median) | p99 | worst | list full (median) |");
    println!("|---|---:|---:|---:|---:|");
    for (label, machine) in [("no skills (baseline)", &empty), ("20,000 skills", &home)] {
        let label = if machine == &home && n != 20_000 {
            format!("{n} skills")
        } else {
            label.to_owned()
        };
        let mut first = Vec::new();
        let mut full = Vec::new();
        for _ in 0..STARTS {
            let started = Instant::now();
            let mut app = open(machine, &project);
            app.runtime.start();
            app.draw().expect("draw");
            first.push(started.elapsed());
            app.settle().expect("the scan finishes");
            full.push(started.elapsed());
            assert_eq!(app.app().scan, Scan::Done);
        }
        let (median, p99, worst) = stats(&mut first);
        let (full_median, _, _) = stats(&mut full);
        println!(
            "| {label} | {} | {} | {} | {} |",
            ms(median),
            ms(p99),
            ms(worst),
            ms(full_median)
        );
    }

    // What the list waits for: the library's scan alone, and the scan made into the app's model.
    let env = Environment::new(&home);
    let mut scans = Vec::new();
    let mut conversions = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let inventory = skilldeck::scan::scan(&env, &project, &|_| {});
        scans.push(started.elapsed());
        let started = Instant::now();
        let deck = Deck::new(&inventory, &home, std::time::SystemTime::now());
        conversions.push(started.elapsed());
        assert_eq!(deck.skills.len(), n);
    }
    println!(
        "\nscan alone (baseline): {} median; made into the app's model: {} median",
        ms(stats(&mut scans).0),
        ms(stats(&mut conversions).0)
    );

    let mut app = open(&home, &project);
    app.start().expect("the scan finishes");
    assert_eq!(app.app().visible.len(), n, "the list is full");

    println!("\n| with the list full | handled and drawn (median) | p99 | worst |");
    println!("|---|---:|---:|---:|");
    let redraw = measure(&mut app, &[]);
    row("redraw, nothing changed (baseline)", redraw);
    use KeyCode::{Backspace, Char, PageDown, Tab};
    // Each case: its label, keys pressed first (untimed), and the keys timed, in turn.
    let cases: &[(&str, &[KeyCode], &[KeyCode])] = &[
        ("`j` down", &[], &[Char('j')]),
        ("`k` up", &[Char('G')], &[Char('k')]),
        ("PgDn", &[], &[PageDown]),
        (
            "`G` to the bottom, `g` to the top",
            &[],
            &[Char('G'), Char('g')],
        ),
        ("`d` only drifted, and all again", &[], &[Char('d')]),
        ("`f` next source filter", &[], &[Char('f')]),
        ("`a` next agent filter", &[], &[Char('a')]),
        ("`o` next sort", &[], &[Char('o')]),
        (
            "search: a letter typed, then erased",
            &[Char('/')],
            &[Char('7'), Backspace],
        ),
        ("Tab to the next pane", &[], &[Tab]),
        ("`?` help open, and closed", &[], &[Char('?')]),
        ("`2` roots, `1` skills", &[], &[Char('2'), Char('1')]),
    ];
    for (label, setup, keys) in cases {
        // Each case starts from the full list, by name, the list focused.
        reset(&mut app);
        for &key in *setup {
            app.handle_key(key);
        }
        settle_and_draw(&mut app);
        row(label, measure(&mut app, keys));
    }
}

/// Make one recorded skill in forty drift, so the drifted filter has something to show.
fn drift(home: &Path, n: usize) -> usize {
    let roots = [
        ".claude/skills",
        ".agents/skills",
        ".codex/skills",
        ".config/opencode/skills",
    ];
    let mut drifted = 0;
    for i in (0..n).step_by(40) {
        let guide = home
            .join(roots[i % roots.len()])
            .join(format!("skill-{i:05}"))
            .join("references/guide.md");
        fs::write(guide, "edited since it was installed\n").expect("edit");
        drifted += 1;
    }
    drifted
}

fn open(home: &Path, project: &Path) -> Headless<Sink> {
    let options = TerminalOptions {
        viewport: Viewport::Fixed(Rect::new(0, 0, WIDTH, HEIGHT)),
    };
    let terminal =
        Terminal::with_options(CrosstermBackend::new(io::sink()), options).expect("terminal");
    let machine = roots::Machine::new(Environment::new(home), project);
    Headless::new(terminal, App::new(Setup::default()), machine)
        .expect("runtime")
        .patience(PATIENCE)
}

/// Back to the whole list, by name, with the list focused and nothing open.
fn reset(app: &mut Headless<Sink>) {
    if app.app().search.typing {
        app.handle_key(KeyCode::Esc);
    }
    for _ in 0..8 {
        let state = app.app();
        if state.overlay != Default::default() || state.screen != Default::default() {
            app.handle_key(KeyCode::Esc);
        }
    }
    app.handle_key(KeyCode::Char('c'));
    while app.app().sort != Default::default() {
        app.handle_key(KeyCode::Char('o'));
    }
    while app.app().focus != Default::default() {
        app.handle_key(KeyCode::Tab);
    }
    settle_and_draw(app);
}

fn settle_and_draw(app: &mut Headless<Sink>) {
    app.settle().expect("the workers answer");
}

/// Time each key of `keys` in turn, cycling through them `PRESSES` times: the key handled
/// (`update` and its effects) and the frame drawn. The workers' answers are taken in between,
/// untimed, as the real loop would on its next turn.
fn measure(app: &mut Headless<Sink>, keys: &[KeyCode]) -> Vec<Duration> {
    let mut times = Vec::with_capacity(PRESSES);
    for i in 0..PRESSES {
        let started = Instant::now();
        if let Some(&key) = keys.get(i % keys.len().max(1)) {
            app.handle_key(key);
        }
        app.draw().expect("draw");
        times.push(started.elapsed());
        settle_and_draw(app);
    }
    times
}

fn row(label: &str, mut times: Vec<Duration>) {
    let (median, p99, worst) = stats(&mut times);
    println!("| {label} | {} | {} | {} |", ms(median), ms(p99), ms(worst));
}

fn stats(times: &mut [Duration]) -> (Duration, Duration, Duration) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), at(1.0))
}

fn ms(duration: Duration) -> String {
    format!("{:.2} ms", duration.as_secs_f64() * 1000.0)
}
