//! The history view: `update` driven by messages alone (opening it from the list, the changed
//! screen and the diff; moving, marking, diffing one or two snapshots, restoring, deleting,
//! undoing, closing; reading it again after a task or a scan), and the view drawn on a
//! `TestBackend` at 80×24 and 60×15 against a fixed clock, recorded with insta.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::common::app::settings;
use crate::common::deck::{deck, dir, laid, pane};
use skilldeck::snapshot::history::{Step, Summary};
use skilldeck::snapshot::{Info, Reason, Snapshot, SnapshotError, StoreUsage};
use skilldeck::tui::app::{App, Overlay, Screen, Setup};
use skilldeck::tui::changes::{ChangeView, SinceView};
use skilldeck::tui::diff::{Against, DiffView};
use skilldeck::tui::geometry::Panes;
use skilldeck::tui::history::HistoryView;
use skilldeck::tui::keymap::Mode;
use skilldeck::tui::msg::{Action, Changes, Effect, Msg};
use skilldeck::tui::update::update;
use skilldeck::tui::view;
use skilldeck::tui::views::Loading;
use skilldeck::tui::workers::history::HistoryFailed;

use Action::*;

/// The clock every test draws against: 2027-01-15T08:00:00Z.
fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000)
}

const MIN: u64 = 60;
const HOUR: u64 = 3_600;
const DAY: u64 = 86_400;

fn snapshot(id: &str, before: u64, reason: Reason) -> Snapshot {
    let digest =
        serde_json::from_value(serde_json::json!(format!("sha256:{}", "0".repeat(64)))).unwrap();
    Snapshot {
        id: id.to_owned(),
        path: PathBuf::from(format!("/store/alpha/{id}")),
        info: Info {
            digest,
            truncated: false,
            skipped_links: 0,
            changed: false,
            accepted: false,
            dir: dir("alpha"),
            taken_at: now() - Duration::from_secs(before),
            reason,
        },
    }
}

fn summary(added: usize, modified: usize, removed: usize, lines: (usize, usize)) -> Summary {
    Summary {
        files_added: added,
        files_removed: removed,
        files_modified: modified,
        lines_added: lines.0,
        lines_removed: lines.1,
    }
}

/// Alpha's history, oldest first as the domain gives it: installed 12 days ago, edited by hand,
/// a damaged one, and the accepted baseline 3 minutes ago.
fn steps() -> Vec<Step> {
    vec![
        Step {
            snapshot: snapshot("s1-installed", 12 * DAY, Reason::Installed),
            size: 2_048,
            since_previous: None,
            damaged: false,
        },
        Step {
            snapshot: snapshot("s2-by-hand", 2 * DAY + HOUR, Reason::Manual),
            size: 3_100,
            since_previous: Some(summary(1, 1, 0, (14, 3))),
            damaged: false,
        },
        Step {
            snapshot: snapshot("s3-damaged", 5 * HOUR, Reason::BeforeRestore),
            size: 3_100,
            since_previous: None,
            damaged: true,
        },
        Step {
            snapshot: snapshot("s4-accepted", 3 * MIN, Reason::Accepted),
            size: 3_300,
            since_previous: Some(summary(0, 2, 1, (6, 9))),
            damaged: false,
        },
    ]
}

fn usage() -> StoreUsage {
    StoreUsage {
        snapshots: 9,
        bytes: 9_600_000,
        held_bytes: 1_200_000,
    }
}

/// The app after a scan of the small deck, alpha changed since its snapshot, the clock fixed.
fn loaded() -> App {
    let mut app = App::new(Setup::default());
    update(&mut app, Msg::Started);
    update(&mut app, Msg::ScanDone(Box::new(deck())));
    update(
        &mut app,
        Msg::Changes(Ok(Changes {
            skills: vec![ChangeView {
                name: "alpha".to_owned(),
                dir: dir("alpha"),
                shown_dir: "~/skills/alpha".to_owned(),
                source: None,
                since: SinceView::Snapshot {
                    id: "s4-accepted".to_owned(),
                    age: None,
                },
                pristine: None,
            }],
            unreadable: 0,
        })),
    );
    update(
        &mut app,
        laid(Panes {
            list: pane(3, 0),
            changed: pane(3, 0),
            diff: pane(4, 12),
            history: pane(3, 0),
            ..Panes::default()
        }),
    );
    update(&mut app, Msg::Tick(now()));
    app
}

fn request(app: &App) -> u64 {
    app.views.history().unwrap().request
}

fn arrive(app: &mut App, steps: Vec<Step>) {
    let request = request(app);
    update(
        app,
        Msg::History {
            request,
            history: Ok(Box::new(HistoryView::new(steps, Ok(usage())))),
        },
    );
}

/// Alpha's history open, read.
fn browsing() -> App {
    let mut app = loaded();
    update(&mut app, Msg::Action(OpenHistory));
    arrive(&mut app, steps());
    app
}

fn keys(actions: &[Action]) -> Vec<Msg> {
    actions.iter().copied().map(Msg::Action).collect()
}

fn selected_id(app: &App) -> &str {
    app.views
        .history()
        .and_then(|h| h.selected())
        .map_or("", |r| r.id.as_str())
}

fn question(app: &App) -> &skilldeck::tui::app::Confirm {
    match &app.overlay {
        Overlay::Confirm(question) => question,
        other => panic!("no question: {other:?}"),
    }
}

fn status(app: &App) -> &str {
    app.status.as_ref().map_or("", |s| s.text.as_str())
}

struct Case {
    name: &'static str,
    start: fn() -> App,
    msgs: fn(&App) -> Vec<Msg>,
    check: fn(&App, &[Effect]),
}

const CASES: &[Case] = &[
    Case {
        name: "h in the list opens the selected skill's history, read on a worker",
        start: loaded,
        msgs: |_| keys(&[OpenHistory]),
        check: |app, effects| {
            assert_eq!(app.mode(), Mode::History);
            let history = app.views.history().unwrap();
            assert_eq!(history.name, "alpha");
            assert_eq!(history.view, Loading::Waiting);
            assert!(app.waiting());
            assert_eq!(
                effects,
                [Effect::ReadHistory {
                    request: history.request,
                    dir: dir("alpha"),
                }]
            );
        },
    },
    Case {
        name: "h on the changed screen opens the history of the changed skill selected",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, OpenHistory]),
        check: |app, effects| {
            assert_eq!(app.mode(), Mode::History);
            assert_eq!(app.views.history().unwrap().shown_dir, "~/skills/alpha");
            assert!(matches!(effects, [Effect::ReadHistory { .. }]));
        },
    },
    Case {
        name: "h in the diff opens the history of the skill diffed over the diff",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, OpenDiff, OpenHistory]),
        check: |app, _| {
            assert!(app.views.diff().is_some());
            assert_eq!(app.mode(), Mode::History);
            assert_eq!(app.views.history().unwrap().dir, dir("alpha"));
        },
    },
    Case {
        name: "Esc steps back one level: from the history to the diff it came from, then to the screen",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, OpenDiff, OpenHistory, Back]),
        check: |app, _| {
            assert!(app.views.history().is_none());
            assert_eq!(app.mode(), Mode::Diff);
            assert_eq!(app.views.diff().unwrap().dir, dir("alpha"));
        },
    },
    Case {
        name: "q steps back as Esc does, from the history, the diff and the changed screen, and never quits",
        start: loaded,
        msgs: |_| {
            let q = |mode| {
                let event = ratatui::crossterm::event::KeyEvent::new(
                    ratatui::crossterm::event::KeyCode::Char('q'),
                    ratatui::crossterm::event::KeyModifiers::NONE,
                );
                Msg::Action(skilldeck::tui::keymap::resolve(mode, &event).unwrap())
            };
            let mut msgs = keys(&[ShowChanged, OpenDiff, OpenHistory]);
            msgs.extend([q(Mode::History), q(Mode::Diff), q(Mode::Changed)]);
            msgs
        },
        check: |app, _| {
            assert!(app.running);
            assert!(app.views.order().is_empty());
            assert_eq!(app.mode(), Mode::Skills);
        },
    },
    Case {
        name: "the history arrives newest first, the latest tagged, the first selected",
        start: browsing,
        msgs: |_| Vec::new(),
        check: |app, _| {
            let history = app.views.history().unwrap();
            let ids: Vec<&str> = history.rows().iter().map(|r| r.id.as_str()).collect();
            assert_eq!(
                ids,
                ["s4-accepted", "s3-damaged", "s2-by-hand", "s1-installed"]
            );
            assert!(history.rows()[0].latest);
            assert!(!history.rows()[1].latest && history.rows()[1].damaged);
            assert!(history.rows()[3].first);
            assert_eq!(history.rows()[0].reason, "accepted baseline");
            assert_eq!(selected_id(app), "s4-accepted");
            assert!(matches!(
                app.views.history().unwrap().view,
                Loading::Ready(_)
            ));
        },
    },
    Case {
        name: "an answer to an older request is dropped",
        start: loaded,
        msgs: |_| {
            vec![
                Msg::Action(OpenHistory),
                Msg::History {
                    request: 0,
                    history: Err(skilldeck::tui::workers::Stopped {
                        work: "Reading the history",
                        panic: "old".to_owned(),
                    }
                    .into()),
                },
            ]
        },
        check: |app, _| assert_eq!(app.views.history().unwrap().view, Loading::Waiting),
    },
    Case {
        name: "a history that cannot be read says why, and Esc still closes it",
        start: loaded,
        msgs: |app| {
            let mut app = app.clone();
            update(&mut app, Msg::Action(OpenHistory));
            vec![
                Msg::Action(OpenHistory),
                Msg::History {
                    request: request(&app),
                    history: Err(HistoryFailed::Unreadable {
                        shown: "~/skills/alpha".to_owned(),
                        source: SnapshotError::Read {
                            path: "/store/alpha".into(),
                            source: std::io::Error::other("denied"),
                        },
                    }),
                },
            ]
        },
        check: |app, _| {
            assert_eq!(
                app.views.history().unwrap().view,
                Loading::Failed(
                    "The history of ~/skills/alpha could not be read: /store/alpha could not be read: denied"
                        .into()
                )
            );
            let mut app = app.clone();
            update(&mut app, Msg::Action(Restore));
            assert_eq!(app.overlay, Overlay::None);
            update(&mut app, Msg::Action(Back));
            assert!(app.views.history().is_none());
        },
    },
    Case {
        name: "j, k, G and g move within the snapshots",
        start: browsing,
        msgs: |_| keys(&[Down, Down, Up, Bottom, Down]),
        check: |app, _| {
            assert_eq!(selected_id(app), "s1-installed");
            let mut app = app.clone();
            update(&mut app, Msg::Action(Top));
            assert_eq!(selected_id(&app), "s4-accepted");
            update(&mut app, Msg::Action(PageDown));
            assert_eq!(
                selected_id(&app),
                "s2-by-hand",
                "a page is the 3 rows shown, less one"
            );
        },
    },
    Case {
        name: "Enter diffs the snapshot against the files now, in the diff; Esc is back in the history",
        start: browsing,
        msgs: |_| keys(&[Down, Down, OpenDiff]),
        check: |app, effects| {
            assert_eq!(app.mode(), Mode::Diff);
            let diff = app.views.diff().unwrap();
            assert_eq!(
                effects,
                [Effect::DiffSnapshots {
                    request: diff.request,
                    name: "alpha".to_owned(),
                    dir: dir("alpha"),
                    old: "s2-by-hand".to_owned(),
                    new: None,
                }]
            );
            let mut app = app.clone();
            update(&mut app, Msg::Action(Back));
            assert_eq!(app.mode(), Mode::History);
            assert_eq!(selected_id(&app), "s2-by-hand");
        },
    },
    Case {
        name: "Space marks one, Enter on another diffs the two, older to newer",
        start: browsing,
        msgs: |_| keys(&[ToggleMark, Bottom, OpenDiff]),
        check: |app, effects| {
            assert!(matches!(
                effects.last(),
                Some(Effect::DiffSnapshots { old, new: Some(new), .. })
                    if old == "s1-installed" && new == "s4-accepted"
            ));
            assert_eq!(app.views.history().unwrap().marked, None);
            assert_eq!(app.mode(), Mode::Diff);
        },
    },
    Case {
        name: "marking the newer one second gives the same order",
        start: browsing,
        msgs: |_| keys(&[Bottom, ToggleMark, Top, OpenDiff]),
        check: |app, effects| {
            assert!(matches!(
                effects.last(),
                Some(Effect::DiffSnapshots { old, new: Some(new), .. })
                    if old == "s1-installed" && new == "s4-accepted"
            ));
            assert!(app.views.diff().is_some());
        },
    },
    Case {
        name: "Space twice unmarks, and Enter then diffs against the files now",
        start: browsing,
        msgs: |_| keys(&[ToggleMark, ToggleMark, OpenDiff]),
        check: |app, effects| {
            assert!(matches!(
                effects.last(),
                Some(Effect::DiffSnapshots { old, new: None, .. }) if old == "s4-accepted"
            ));
            assert!(app.views.diff().is_some());
        },
    },
    Case {
        name: "a damaged snapshot is neither diffed nor restored, and says so",
        start: browsing,
        msgs: |_| keys(&[Down, OpenDiff]),
        check: |app, effects| {
            assert!(effects.is_empty());
            assert!(app.views.diff().is_none());
            assert!(status(app).contains("damaged"), "{}", status(app));
            let mut app = app.clone();
            update(&mut app, Msg::Action(Restore));
            assert_eq!(app.overlay, Overlay::None);
        },
    },
    Case {
        name: "R asks first, naming the snapshot and what is snapshotted first; y restores it",
        start: browsing,
        msgs: |_| keys(&[Bottom, Restore]),
        check: |app, effects| {
            assert!(effects.is_empty());
            let asked = question(app);
            assert_eq!(asked.title, "Restore alpha to snapshot s1-installed?");
            assert_eq!(
                asked.lines[0],
                "~/skills/alpha goes back to snapshot s1-installed, taken on 2027-01-03 (installed baseline)."
            );
            assert!(asked.lines[1].contains("snapshotted first, so u brings it back"));
            let mut app = app.clone();
            let effects = update(&mut app, Msg::Action(Confirm));
            assert_eq!(
                effects,
                [Effect::Restore {
                    name: "alpha".to_owned(),
                    dir: dir("alpha"),
                    snapshot: "s1-installed".to_owned(),
                }]
            );
            assert_eq!(app.tasks, 1);
            assert_eq!(app.mode(), Mode::History);
        },
    },
    Case {
        name: "n at the restore question changes nothing",
        start: browsing,
        msgs: |_| keys(&[Restore, Back]),
        check: |app, effects| {
            assert!(effects.is_empty());
            assert_eq!(app.mode(), Mode::History);
            assert_eq!(status(app), "Nothing was changed.");
        },
    },
    Case {
        name: "x asks first, saying undo brings it back; y deletes it",
        start: browsing,
        msgs: |_| keys(&[Remove]),
        check: |app, _| {
            let asked = question(app);
            assert_eq!(asked.title, "Delete snapshot s4-accepted of alpha?");
            assert_eq!(
                asked.lines,
                [
                    "Taken 3 min ago (accepted baseline), 3.2 KiB.",
                    "It is the latest: diffs and the changed screen then compare against the one before it.",
                    "It is held aside, not erased: u brings it back.",
                ]
            );
            let mut app = app.clone();
            let effects = update(&mut app, Msg::Action(Confirm));
            assert_eq!(
                effects,
                [Effect::DeleteSnapshot {
                    name: "alpha".to_owned(),
                    dir: dir("alpha"),
                    snapshot: "s4-accepted".to_owned(),
                }]
            );
            assert_eq!(status(&app), "Deleting snapshot s4-accepted of alpha…");
        },
    },
    Case {
        name: "u asks the journal what an undo would revert, from the history",
        start: browsing,
        msgs: |_| keys(&[Undo]),
        check: |app, effects| {
            assert_eq!(effects, [Effect::AskUndo]);
            let mut app = app.clone();
            update(
                &mut app,
                Msg::UndoNext(Ok(Some(vec!["the restore of …".to_owned()]))),
            );
            assert_eq!(app.mode(), Mode::Confirm);
            assert_eq!(update(&mut app, Msg::Action(Confirm)), [Effect::Undo]);
        },
    },
    Case {
        name: "a task done reads the history again, keeping the snapshot selected",
        start: browsing,
        msgs: |_| {
            let mut msgs = keys(&[Down, Down]);
            msgs.push(Msg::TaskDone {
                result: Ok("What alpha held is kept as snapshot s5; it is back to snapshot s2-by-hand (u undoes that).".to_owned().into()),
                rescan: true,
            });
            msgs
        },
        check: |app, effects| {
            let request = request(app);
            assert!(effects.contains(&Effect::ReadHistory {
                request,
                dir: dir("alpha")
            }));
            assert!(effects.contains(&Effect::StartScan));
            assert!(status(app).contains("kept as snapshot s5"));
            let mut app = app.clone();
            // The scan the restore asked for ends without hiding what the restore said.
            update(&mut app, Msg::ScanDone(Box::new(deck())));
            assert!(
                status(&app).contains("kept as snapshot s5"),
                "{}",
                status(&app)
            );
            let mut newer = steps();
            newer.push(Step {
                snapshot: snapshot("s5-before-restore", 0, Reason::BeforeRestore),
                size: 1,
                since_previous: None,
                damaged: false,
            });
            arrive(&mut app, newer);
            assert_eq!(selected_id(&app), "s2-by-hand");
            assert_eq!(app.views.history().unwrap().rows().len(), 5);
        },
    },
    Case {
        name: "a task done over a diff the history opened makes that diff again",
        start: browsing,
        msgs: |_| {
            let mut msgs = keys(&[ToggleMark, Bottom, OpenDiff]);
            msgs.push(Msg::TaskDone {
                result: Ok("done".to_owned().into()),
                rescan: false,
            });
            msgs
        },
        check: |app, effects| {
            let request = app.views.diff().unwrap().request;
            assert!(effects.contains(&Effect::DiffSnapshots {
                request,
                name: "alpha".to_owned(),
                dir: dir("alpha"),
                old: "s1-installed".to_owned(),
                new: Some("s4-accepted".to_owned()),
            }));
            assert!(
                !effects
                    .iter()
                    .any(|e| matches!(e, Effect::ComputeDiff { .. }))
            );
        },
    },
    Case {
        name: "a scan done while it is open reads it again",
        start: browsing,
        msgs: |_| vec![Msg::ScanDone(Box::new(deck()))],
        check: |app, effects| {
            let request = request(app);
            assert!(effects.contains(&Effect::ReadHistory {
                request,
                dir: dir("alpha")
            }));
            // The rows stay while the new ones are read.
            assert_eq!(app.views.history().unwrap().rows().len(), 4);
        },
    },
    Case {
        name: "a deleted marked snapshot is no longer marked",
        start: browsing,
        msgs: |_| keys(&[Bottom, ToggleMark]),
        check: |app, _| {
            let mut app = app.clone();
            assert_eq!(
                app.views.history().unwrap().marked.as_deref(),
                Some("s1-installed")
            );
            update(&mut app, Msg::ScanDone(Box::new(deck())));
            arrive(&mut app, steps().split_off(1));
            assert_eq!(app.views.history().unwrap().marked, None);
            assert_eq!(selected_id(&app), "s2-by-hand");
        },
    },
    Case {
        name: "an empty history says how to take a snapshot",
        start: loaded,
        msgs: |_| keys(&[OpenHistory]),
        check: |app, _| {
            let mut app = app.clone();
            arrive(&mut app, Vec::new());
            update(&mut app, Msg::Action(OpenDiff));
            assert_eq!(
                status(&app),
                "alpha has no snapshot yet: s in the skill list takes one."
            );
        },
    },
    Case {
        name: "Esc and q close the history, back on the screen it was opened from",
        start: browsing,
        msgs: |_| keys(&[Back]),
        check: |app, _| {
            assert!(app.views.history().is_none());
            assert_eq!(app.mode(), Mode::Skills);
            assert_eq!(app.screen, Screen::Skills);
        },
    },
    Case {
        name: "? opens the help over the history, and Esc gives it back",
        start: browsing,
        msgs: |_| keys(&[ToggleHelp, Back]),
        check: |app, _| assert_eq!(app.mode(), Mode::History),
    },
    Case {
        name: "a click picks the row, the wheel moves the selection",
        start: browsing,
        msgs: |_| {
            vec![
                Msg::Select(2),
                Msg::Scroll(skilldeck::tui::msg::Pane::List, 3),
            ]
        },
        check: |app, _| assert_eq!(selected_id(app), "s1-installed"),
    },
];

#[test]
fn update_cases() {
    for case in CASES {
        let mut app = (case.start)();
        let mut effects = Vec::new();
        for msg in (case.msgs)(&app) {
            effects.extend(update(&mut app, msg));
        }
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            (case.check)(&app, &effects);
        }));
        assert!(result.is_ok(), "case failed: {}", case.name);
    }
}

/// R in a diff the history opened (one snapshot against now) restores that snapshot.
#[test]
fn restore_from_a_history_diff_restores_that_snapshot() {
    let mut app = browsing();
    for msg in keys(&[Bottom, OpenDiff]) {
        update(&mut app, msg);
    }
    let request = app.views.diff().unwrap().request;
    let view = DiffView::new(
        "alpha",
        dir("alpha"),
        "~/skills/alpha".to_owned(),
        Against::Snapshot {
            id: "s1-installed".to_owned(),
            age: None,
        },
    );
    update(
        &mut app,
        Msg::Diff {
            request,
            diff: Ok(Box::new(view)),
        },
    );
    update(&mut app, Msg::Action(Restore));
    assert_eq!(
        update(&mut app, Msg::Action(Confirm)),
        [Effect::Restore {
            name: "alpha".to_owned(),
            dir: dir("alpha"),
            snapshot: "s1-installed".to_owned(),
        }]
    );
}

/// A diff between two snapshots cannot be restored from: it is not a snapshot against now.
#[test]
fn a_diff_between_two_snapshots_refuses_r_with_a_sentence() {
    let mut app = browsing();
    for msg in keys(&[ToggleMark, Bottom, OpenDiff]) {
        update(&mut app, msg);
    }
    let request = app.views.diff().unwrap().request;
    let view = DiffView::new(
        "alpha",
        dir("alpha"),
        "~/skills/alpha".to_owned(),
        Against::Between {
            old: "s1-installed".to_owned(),
            new: "s4-accepted".to_owned(),
        },
    );
    update(
        &mut app,
        Msg::Diff {
            request,
            diff: Ok(Box::new(view)),
        },
    );
    assert!(update(&mut app, Msg::Action(Restore)).is_empty());
    assert_eq!(app.overlay, Overlay::None);
    assert!(
        status(&app).contains("between two snapshots"),
        "{}",
        status(&app)
    );
}

// --- Drawn ----------------------------------------------------------------------------------

fn drawn(app: &mut App, (width, height): (u16, u16)) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    // Twice, as the runtime does: the second frame knows where the first put each pane.
    for _ in 0..2 {
        let mut laid = None;
        terminal
            .draw(|frame| laid = Some(view::draw(frame, app)))
            .unwrap();
        update(app, Msg::Laid(Box::new(laid.unwrap())));
    }
    terminal
}

#[test]
fn the_history_view_at_every_size() {
    for size in [(80, 24), (120, 40), (60, 15)] {
        let mut app = browsing();
        update(&mut app, Msg::Action(Down));
        update(&mut app, Msg::Action(Down));
        let terminal = drawn(&mut app, size);
        settings().bind(|| {
            insta::assert_snapshot!(format!("history_{}x{}", size.0, size.1), terminal.backend());
        });
    }
}

#[test]
fn the_history_view_with_one_marked() {
    for size in [(80, 24), (120, 40)] {
        let mut app = browsing();
        for msg in keys(&[Bottom, ToggleMark, Top]) {
            update(&mut app, msg);
        }
        let terminal = drawn(&mut app, size);
        settings().bind(|| {
            insta::assert_snapshot!(
                format!("history_marked_{}x{}", size.0, size.1),
                terminal.backend()
            );
        });
    }
}

#[test]
fn the_history_while_it_is_read() {
    let mut app = loaded();
    update(&mut app, Msg::Action(OpenHistory));
    let terminal = drawn(&mut app, (60, 15));
    let text = terminal.backend().to_string();
    assert!(text.contains("Reading the history…"), "{text}");
}

/// The same frame drawn later says the snapshots are older: times are worked out at each draw,
/// from the clock, never kept as text.
#[test]
fn times_follow_the_clock() {
    let mut app = browsing();
    let text = drawn(&mut app, (80, 24)).backend().to_string();
    assert!(text.contains("3 min ago"), "{text}");
    update(&mut app, Msg::Tick(now() + Duration::from_secs(2 * HOUR)));
    let text = drawn(&mut app, (80, 24)).backend().to_string();
    assert!(!text.contains("3 min ago"), "{text}");
    assert!(text.contains("2 h ago"), "{text}");
    // Past a week, its day, as undo times and the command line say it.
    assert!(text.contains("on 2027-01-03"), "{text}");
}

/// A long history at both sizes: the selected snapshot is on screen wherever it is.
#[test]
fn the_selection_stays_in_view() {
    let many: Vec<Step> = (0..30)
        .map(|i| Step {
            snapshot: snapshot(&format!("s{i:02}"), (30 - i) * DAY, Reason::Manual),
            size: 100,
            since_previous: None,
            damaged: false,
        })
        .collect();
    for size in [(80, 24), (60, 15)] {
        let mut app = loaded();
        update(&mut app, Msg::Action(OpenHistory));
        arrive(&mut app, many.clone());
        for (moves, want) in [
            (vec![Bottom], "s00"),
            (vec![Top], "s29"),
            (vec![PageDown, PageDown, Down], ""),
        ] {
            for msg in keys(&moves) {
                update(&mut app, msg);
                drawn(&mut app, size);
            }
            let id = selected_id(&app).to_owned();
            if !want.is_empty() {
                assert_eq!(id, want);
            }
            let text = drawn(&mut app, size).backend().to_string();
            // The selected row is among those drawn, and its own line below names it.
            let geometry = app.panes.history;
            let selected = app.views.history().unwrap().selected;
            assert!(geometry.page > 0, "{size:?}: {text}");
            assert!(
                (geometry.offset..geometry.offset + geometry.page).contains(&selected),
                "{size:?}: row {selected} not in {geometry:?}"
            );
            assert!(text.contains(&format!("{id}: ")), "{size:?} {id}: {text}");
        }
    }
}

/// The selected row's "since the one before" is drawn in the selection's colours, not dimmed:
/// dark grey on the selection's dark grey could not be read.
#[test]
fn the_selected_rows_changes_can_be_read() {
    let mut app = browsing();
    update(&mut app, Msg::Action(Down));
    update(&mut app, Msg::Action(Down));
    let terminal = drawn(&mut app, (120, 24));
    let buffer = terminal.backend().buffer();
    let selected_row = (0..buffer.area.height)
        .find(|&y| {
            (0..buffer.area.width).any(|x| buffer[(x, y)].bg == ratatui::style::Color::DarkGray)
        })
        .expect("a selected row");
    let text: String = (0..buffer.area.width)
        .map(|x| buffer[(x, selected_row)].symbol().to_owned())
        .collect();
    let at = text
        .find("+1")
        .expect("the change column in the selected row") as u16;
    let cell = &buffer[(at, selected_row)];
    assert_ne!(cell.fg, cell.bg, "{text}");
}
