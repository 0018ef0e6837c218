//! The diff's keys reach the end (issue 14.4): `n`/`N` and `]`/`[` land on every hunk and every
//! file, the last included, for diffs of one, two and many hunks and files, at heights where
//! the diff scrolls far and where it hardly scrolls at all; the position the keys are at is
//! said at the foot of the pane even when the last hunk cannot become the top line. Driven by
//! `update` and drawn on a `TestBackend` frame by frame, as the runtime does.

use std::path::PathBuf;

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use skilldeck::snapshot::diff::{Blob, Body, FileDiff, Hunk, Line, LineKind, SkillDiff, lines_of};
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::diff::{Against, DiffView};
use skilldeck::tui::msg::{Action, Msg};
use skilldeck::tui::update::update;
use skilldeck::tui::view;
use skilldeck::tui::views::{DiffState, Loading};

/// One hunk made by hand (a line diff has a deadline, and a busy machine would merge hunks):
/// line `at` replaced, with three lines of context on each side.
fn hunk(at: usize) -> Hunk {
    let line = |kind, old: Option<usize>, new: Option<usize>, text: String| Line {
        kind,
        old_number: old,
        new_number: new,
        text,
        changed: Vec::new(),
        no_newline: false,
    };
    let context = |n: usize| line(LineKind::Context, Some(n), Some(n), format!("line {n}"));
    let mut lines: Vec<Line> = (at - 3..at).map(context).collect();
    lines.push(line(
        LineKind::Removed,
        Some(at),
        None,
        format!("line {at}"),
    ));
    lines.push(line(LineKind::Added, None, Some(at), format!("LINE {at}")));
    lines.extend((at + 1..=at + 3).map(context));
    Hunk {
        old_start: at - 3,
        old_len: 7,
        new_start: at - 3,
        new_len: 7,
        lines,
    }
}

/// A diff of `files` files, each with `hunks_each` hunks.
fn diff_of(files: usize, hunks_each: usize) -> DiffView {
    let blob = Blob {
        size: 1,
        sha256: "00".repeat(32),
        executable: false,
    };
    let files = (0..files)
        .map(|f| {
            let hunks: Vec<Hunk> = (0..hunks_each).map(|h| hunk(10 * h + 5)).collect();
            FileDiff {
                path: format!("file{f}.md"),
                old: Some(blob.clone()),
                new: Some(blob.clone()),
                added: lines_of(&hunks, LineKind::Added),
                removed: lines_of(&hunks, LineKind::Removed),
                body: Body::Hunks(hunks),
            }
        })
        .collect();
    let diff = SkillDiff {
        files,
        frontmatter: None,
        truncated: false,
        not_compared: Vec::new(),
    };
    let against = Against::Snapshot {
        id: "snap".to_owned(),
        age: None,
    };
    let mut view = DiffView::new(
        "demo",
        PathBuf::from("/s/demo"),
        "~/s/demo".to_owned(),
        against,
    );
    view.push(None, &diff);
    view
}

/// The app with `view` open, drawn once on a terminal of `height` rows.
struct Open {
    app: App,
    terminal: Terminal<TestBackend>,
}

impl Open {
    fn new(view: DiffView, height: u16) -> Self {
        let mut app = App::new(Setup::default());
        update(&mut app, Msg::Started);
        app.views.open_diff(DiffState {
            request: 1,
            name: "demo".to_owned(),
            dir: PathBuf::from("/s/demo"),
            pristine: None,
            view: Loading::Ready(Box::new(view)),
            scroll: 0,
        });
        let mut open = Self {
            app,
            terminal: Terminal::new(TestBackend::new(80, height)).unwrap(),
        };
        open.draw();
        open
    }

    /// Draw, and give the frame's geometry back to `update`, as the runtime does.
    fn draw(&mut self) {
        let mut laid = None;
        self.terminal
            .draw(|frame| laid = Some(view::draw(frame, &self.app)))
            .unwrap();
        update(&mut self.app, Msg::Laid(Box::new(laid.unwrap())));
    }

    fn press(&mut self, action: Action) {
        self.app.status = None;
        update(&mut self.app, Msg::Action(action));
        self.draw();
    }

    fn at(&self) -> usize {
        self.app.views.diff().unwrap().scroll
    }

    fn view(&self) -> &DiffView {
        let Loading::Ready(view) = &self.app.views.diff().unwrap().view else {
            panic!("no diff")
        };
        view
    }

    fn said(&self) -> Option<&str> {
        self.app.status.as_ref().map(|s| s.text.as_str())
    }

    fn screen(&self) -> String {
        let buffer = self.terminal.backend().buffer();
        let width = usize::from(buffer.area.width);
        buffer
            .content
            .chunks(width)
            .map(|row| row.iter().map(|c| c.symbol()).collect::<String>() + "\n")
            .collect()
    }
}

/// The shapes every case runs: one hunk in one file, two hunks in two files (one each), and
/// many of both; at the smallest height the app draws, a middling one, and one where the
/// whole diff fits.
fn every_case(check: impl Fn(&mut Open, &str)) {
    for (files, hunks_each) in [(1, 1), (2, 1), (1, 2), (6, 4)] {
        for height in [15, 24, 200] {
            let mut open = Open::new(diff_of(files, hunks_each), height);
            let case = format!("{files} files of {hunks_each} hunks at height {height}");
            check(&mut open, &case);
        }
    }
}

#[test]
fn n_lands_on_every_hunk_the_last_included_and_n_back_on_each() {
    every_case(|open, case| {
        let starts = open.view().hunks.clone();
        let total = starts.len();
        for (i, &start) in starts.iter().enumerate() {
            open.press(Action::NextHunk);
            assert_eq!(open.at(), start, "{case}: hunk {}", i + 1);
            let foot = format!("hunk {}/{total}", i + 1);
            assert!(
                open.screen().contains(&foot),
                "{case}: {foot}\n{}",
                open.screen()
            );
            assert_eq!(open.said(), None, "{case}");
        }
        open.press(Action::NextHunk);
        assert_eq!(open.said(), Some("No more that way."), "{case}");
        assert_eq!(open.at(), *starts.last().unwrap(), "{case}");
        for (i, &start) in starts.iter().enumerate().rev().skip(1) {
            open.press(Action::PreviousHunk);
            assert_eq!(open.at(), start, "{case}: back to hunk {}", i + 1);
            assert!(
                open.screen().contains(&format!("hunk {}/{total}", i + 1)),
                "{case}"
            );
        }
        open.press(Action::PreviousHunk);
        assert_eq!(open.said(), Some("No more that way."), "{case}");
    });
}

#[test]
fn bracket_lands_on_every_file_the_last_included_and_back() {
    every_case(|open, case| {
        let starts: Vec<usize> = open.view().files.iter().map(|f| f.row).collect();
        let total = starts.len();
        // The first file starts at the top, where the diff opens.
        assert_eq!(starts[0], 0, "{case}");
        assert!(open.screen().contains(&format!("file 1/{total}")), "{case}");
        for (i, &start) in starts.iter().enumerate().skip(1) {
            open.press(Action::NextFile);
            assert_eq!(open.at(), start, "{case}: file {}", i + 1);
            let foot = format!("file {}/{total}", i + 1);
            assert!(
                open.screen().contains(&foot),
                "{case}: {foot}\n{}",
                open.screen()
            );
        }
        open.press(Action::NextFile);
        assert_eq!(open.said(), Some("No more that way."), "{case}");
        for (i, &start) in starts.iter().enumerate().rev().skip(1) {
            open.press(Action::PreviousFile);
            assert_eq!(open.at(), start, "{case}: back to file {}", i + 1);
        }
        open.press(Action::PreviousFile);
        assert_eq!(open.said(), Some("No more that way."), "{case}");
    });
}

#[test]
fn past_the_furthest_scroll_the_view_stays_at_the_end_and_scrolling_starts_from_it() {
    let mut open = Open::new(diff_of(6, 4), 15);
    let max = open.app.panes.diff.max;
    let last = *open.view().hunks.last().unwrap();
    assert!(last > max, "the last hunk is past the furthest scroll");
    for _ in 0..open.view().hunks.len() {
        open.press(Action::NextHunk);
    }
    assert_eq!(open.at(), last);
    assert_eq!(open.app.panes.diff.offset, max);
    let screen = open.screen();
    assert!(screen.contains("hunk 24/24 · file 6/6"), "{screen}");
    // The file landed on is the one the list beside the diff marks, and the hunk's header is
    // marked as the list's current row is.
    let selected = open.app.theme.selected;
    let buffer = open.terminal.backend().buffer();
    let row_of = |needle: &str| {
        screen
            .lines()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("{needle} not shown:\n{screen}"))
    };
    let style_at = |row: usize, column: usize| buffer[(column as u16, row as u16)].style();
    let file_row = row_of("M file5.md");
    assert_eq!(style_at(file_row, 1).bg, selected.bg);
    assert_ne!(style_at(row_of("M file4.md"), 1).bg, selected.bg);
    let header = screen
        .lines()
        .rev()
        .position(|l| l.contains("@@ -32,"))
        .unwrap_or_else(|| panic!("{screen}"));
    let header = screen.lines().count() - 1 - header;
    let column = screen
        .lines()
        .nth(header)
        .unwrap()
        .chars()
        .position(|c| c == '@')
        .unwrap();
    assert_eq!(style_at(header, column).bg, selected.bg, "{screen}");
    // A line up scrolls from where the view is, not from the hunk beyond it.
    open.press(Action::Up);
    assert_eq!(open.at(), max - 1);
}

// --- The "no snapshot yet" diff: every key the footer offers works, or is not offered ------

/// The footer's last line.
fn footer(open: &Open) -> String {
    open.screen().lines().last().unwrap().trim().to_owned()
}

/// The app with the diff of `demo` in `view` (a state of the diff view) open.
fn open_in(view: Loading<Box<DiffView>>) -> Open {
    let mut open = Open::new(diff_of(1, 1), 24);
    open.app.views.diff_mut().unwrap().view = view;
    open.draw();
    open
}

fn against_pristine() -> DiffView {
    let mut view = diff_of(2, 1);
    view.against = Against::Pristine("~/clone/demo".to_owned());
    view
}

#[test]
fn the_diff_against_the_installers_copy_offers_no_restore_and_what_it_offers_works() {
    let mut open = open_in(Loading::Ready(Box::new(against_pristine())));
    let hints = footer(&open);
    assert_eq!(
        hints,
        "? help  h history  a accept  s snapshot  e export  n hunk  ] file  q close"
    );
    open.press(Action::Restore);
    assert!(
        open.said()
            .unwrap()
            .starts_with("Only a snapshot can be restored")
    );
    assert!(matches!(
        open.app.overlay,
        skilldeck::tui::app::Overlay::None
    ));
    // a asks, saying the first snapshot is taken.
    open.press(Action::Accept);
    let skilldeck::tui::app::Overlay::Confirm(question) = &open.app.overlay else {
        panic!("{:?}", open.app.overlay)
    };
    assert!(question.lines[0].starts_with("It has no snapshot yet"));
    let effects = update(&mut open.app, Msg::Action(Action::Confirm));
    assert!(
        matches!(&effects[..], [skilldeck::tui::msg::Effect::Accept { name, .. }] if name == "demo")
    );
}

#[test]
fn a_diff_with_nothing_to_compare_with_offers_snapshot_accept_and_export_and_they_work() {
    let mut open = open_in(Loading::Failed(
        "No snapshot of demo was taken, and its installer keeps no copy of it to compare with"
            .to_owned(),
    ));
    assert_eq!(
        footer(&open),
        "? help  h history  a accept  s snapshot  e export  q close"
    );
    let effects = update(&mut open.app, Msg::Action(Action::Snapshot));
    assert!(
        matches!(&effects[..], [skilldeck::tui::msg::Effect::TakeSnapshot { name, .. }] if name == "demo"),
        "{effects:?}"
    );
    let mut open = open_in(Loading::Failed("nothing".to_owned()));
    open.press(Action::Accept);
    assert!(matches!(
        open.app.overlay,
        skilldeck::tui::app::Overlay::Confirm(_)
    ));
    let mut open = open_in(Loading::Failed("nothing".to_owned()));
    open.press(Action::Export);
    assert!(matches!(
        open.app.overlay,
        skilldeck::tui::app::Overlay::Export(_)
    ));
    // What it does not offer says why, and changes nothing.
    for action in [
        Action::Restore,
        Action::NextHunk,
        Action::PreviousHunk,
        Action::NextFile,
        Action::PreviousFile,
    ] {
        let mut open = open_in(Loading::Failed("nothing".to_owned()));
        let effects = update(&mut open.app, Msg::Action(action));
        assert!(effects.is_empty(), "{action:?}");
        assert!(open.said().is_some(), "{action:?} says nothing");
        assert!(matches!(
            open.app.overlay,
            skilldeck::tui::app::Overlay::None
        ));
    }
    // Esc goes back.
    let mut open = open_in(Loading::Failed("nothing".to_owned()));
    open.press(Action::Back);
    assert!(open.app.views.diff().is_none());
}

#[test]
fn an_empty_diff_offers_no_jumps_and_one_being_made_offers_only_help_and_close() {
    let against = Against::Snapshot {
        id: "snap".to_owned(),
        age: None,
    };
    let empty = DiffView::new(
        "demo",
        PathBuf::from("/s/demo"),
        "~/s/demo".to_owned(),
        against,
    );
    let open = open_in(Loading::Ready(Box::new(empty)));
    assert_eq!(
        footer(&open),
        "? help  h history  R restore  a accept  s snapshot  e export  q close"
    );
    let mut open = open_in(Loading::Waiting);
    assert_eq!(footer(&open), "? help  h history  q close");
    for action in [
        Action::Accept,
        Action::Snapshot,
        Action::Export,
        Action::Restore,
    ] {
        let effects = update(&mut open.app, Msg::Action(action));
        assert!(effects.is_empty(), "{action:?}");
        assert!(matches!(
            open.app.overlay,
            skilldeck::tui::app::Overlay::None
        ));
    }
    // A single file at the top has nowhere to jump to between files.
    let open = open_in(Loading::Ready(Box::new(diff_of(1, 2))));
    assert_eq!(
        footer(&open),
        "? help  h history  R restore  a accept  s snapshot  e export  n hunk  q close"
    );
}

#[test]
fn the_no_snapshot_diffs_on_screen_offer_only_what_works() {
    use crate::common::app::{SIZES, demo, settings};
    for size in SIZES {
        // deploy-staging has no snapshot and no installer's copy: nothing to diff against.
        let (_sandbox, mut screen) = demo(size);
        screen.press("/deploy\n").press("D");
        let text = screen.text();
        assert!(
            text.contains("No snapshot of deploy-staging was taken"),
            "{text}"
        );
        settings().bind(|| {
            insta::assert_snapshot!(
                format!("diff_nothing_to_compare_{}x{}", size.0, size.1),
                screen.backend()
            );
        });
        // s, which the footer and the sentence offer, snapshots it.
        screen.press("s");
        assert!(screen.text().contains("Kept snapshot"), "{}", screen.text());
    }
}
