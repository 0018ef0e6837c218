//! Issue 5's diff machine measured through the app: a skill whose 1 MiB text file changed is
//! diffed as the app's diff worker does it (the domain's diff model, made into the app's
//! display-safe rows), then the message carrying it is handled and the first screen drawn on a
//! 120×40 `TestBackend`, as the UI thread does when it arrives. Two edits of the 1 MiB file
//! (one line in a hundred; every line), every line of a 7.6 MiB file changed (past the diff's
//! bound for one file, so summarised by size and digest: issue 11.10), and, as the baseline in
//! the same run, a skill whose one-line `SKILL.md` changed.
//!
//! Run: `cargo bench --bench diff_view`; `-- WORDS` runs only the cases whose name holds
//! them (`-- 7.6`, `-- baseline`), so `/usr/bin/time -v` can give each case's peak memory.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::text::{self, Edit};

use skilldeck::roots;
use skilldeck::roots::Environment;
use skilldeck::snapshot::Store;
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::headless::{self, Headless};
use skilldeck::tui::msg::Msg;
use skilldeck::tui::views::{DiffState, Loading};
use skilldeck::tui::workers::tasks::make_diff;

const RUNS: usize = 21;
const WIDTH: u16 = 120;
const HEIGHT: u16 = 40;

fn main() {
    println!(
        "| skill | changed lines | diff rows | worker: model + rows (median) | UI: message handled + first screen drawn (median) | total (median) | total (max) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let original = text::one_mib();
    let [(hundred, one_in_a_hundred), (every, every_line)] = text::EDITS;
    // 7.6 MiB: the size of the file that took 20 s and 1.7 GB before the bound.
    let mut huge = original.repeat(7);
    let tail = &original[..original.len() * 6 / 10];
    huge.push_str(&tail[..tail.rfind('\n').map_or(0, |at| at + 1)]);
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let cases: [(String, &str, Edit); 4] = [
        (
            "one-line SKILL.md edited (baseline)".to_owned(),
            "",
            |_, l| l.to_owned(),
        ),
        (
            format!("1 MiB file, {hundred}"),
            &original,
            one_in_a_hundred,
        ),
        (format!("1 MiB file, {every}"), &original, every_line),
        (
            format!("7.6 MiB file, {every} (past the bound: summarised)"),
            &huge,
            every_line,
        ),
    ];
    for (label, big, edit) in cases {
        if !only.is_empty() && !only.iter().any(|word| label.contains(word.as_str())) {
            continue;
        }
        let tmp = tempfile::tempdir().expect("temp dir");
        let home = tmp.path().join("home");
        let dir = home.join(".claude/skills/big");
        fs::create_dir_all(&dir).expect("dir");
        fs::write(
            dir.join("SKILL.md"),
            "---\nname: big\ndescription: d\n---\nbefore\n",
        )
        .expect("write");
        if !big.is_empty() {
            fs::write(dir.join("big.md"), big).expect("write");
        }
        let machine = roots::Machine::new(Environment::new(&home), tmp.path());
        Store::open(&machine.env)
            .take(&dir, skilldeck::snapshot::Reason::Manual)
            .expect("snapshot");
        if big.is_empty() {
            fs::write(
                dir.join("SKILL.md"),
                "---\nname: big\ndescription: d\n---\nafter\n",
            )
            .expect("write");
        } else {
            fs::write(dir.join("big.md"), text::edited(big, edit)).expect("write");
        }
        measure(&label, &machine, &dir);
    }
}

fn measure(label: &str, machine: &roots::Machine, dir: &Path) {
    let (mut model, mut screen, mut total) = (Vec::new(), Vec::new(), Vec::new());
    let (mut changed, mut rows) = (0, 0);
    for _ in 0..RUNS {
        let mut app = diff_waiting(machine, dir);
        let started = Instant::now();
        let view = make_diff(machine, "big", dir, None).expect("diff");
        let made = started.elapsed();
        changed = view.added;
        rows = view.rows.len();
        app.send(Msg::Diff {
            request: 1,
            diff: Ok(Box::new(view)),
        })
        .expect("draw");
        let all = started.elapsed();
        let text = app.text();
        assert!(
            text.contains("+++ b/"),
            "the first screen shows no diff:\n{text}"
        );
        model.push(made);
        screen.push(all - made);
        total.push(all);
    }
    println!(
        "| {label} | {changed} | {rows} | {} | {} | {} | {} |",
        ms(median(&mut model)),
        ms(median(&mut screen)),
        ms(median(&mut total)),
        ms(*total.iter().max().expect("runs"))
    );
}

/// The app with the diff view open on the skill at `dir`, waiting for its diff (request 1).
fn diff_waiting(machine: &roots::Machine, dir: &Path) -> Headless {
    let mut app = App::new(Setup::default());
    app.views.open_diff(DiffState {
        request: 1,
        name: "big".to_owned(),
        dir: PathBuf::from(dir),
        pristine: None,
        view: Loading::Waiting,
        scroll: 0,
    });
    let mut screen = Headless::new(headless::test_terminal(WIDTH, HEIGHT), app, machine.clone())
        .expect("runtime");
    screen.draw().expect("draw");
    screen
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(duration: Duration) -> String {
    format!("{:.1} ms", duration.as_secs_f64() * 1000.0)
}
