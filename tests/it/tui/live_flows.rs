//! The live app's messages through `update` (issue 17.1): a change seen starts a rescan of the
//! skills it lies in, one at a time; what is seen during a scan waits for it, so a burst of
//! events from skilldeck's own writes never starts a second full scan; the rescanned deck keeps
//! the cursor, filters, marks and the uses read, loses a skill gone and gains one made; and the
//! status line says once that folders are polled where the system's limit ran out, drawn at
//! 60×15, 80×24, 120×40 and 200×50.

use std::path::PathBuf;

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::common::app::settings;
use crate::common::deck::{deck, dir, skill};
use skilldeck::record::State;
use skilldeck::roots::{AgentId, Source};
use skilldeck::tui::app::{App, Scan, Setup};
use skilldeck::tui::budget::Uses;
use skilldeck::tui::changes::{ChangeView, SinceView};
use skilldeck::tui::failed::Stopped;
use skilldeck::tui::model::Deck;
use skilldeck::tui::msg::{Action, Changes, Effect, Msg, Rescan, RescanError};
use skilldeck::tui::update::update;
use skilldeck::tui::view;

const SIZES: [(u16, u16); 4] = [(60, 15), (80, 24), (120, 40), (200, 50)];

/// The app after a scan of the small deck, its changes compared.
fn scanned() -> App {
    let mut app = App::new(Setup::default());
    update(&mut app, Msg::Started);
    update(&mut app, Msg::ScanDone(Box::new(deck())));
    update(&mut app, Msg::Changes(Ok(Changes::default())));
    app
}

fn changed(dirs: &[&str]) -> Msg {
    Msg::Changed {
        dirs: dirs.iter().map(|name| dir(name)).collect(),
    }
}

fn rescan_of(dirs: &[&str]) -> Effect {
    Effect::Rescan {
        dirs: dirs.iter().map(|name| dir(name)).collect(),
    }
}

fn rescanned(dirs: &[&str], deck: Deck, compared: Vec<(PathBuf, Option<ChangeView>)>) -> Msg {
    Msg::Rescanned {
        dirs: dirs.iter().map(|name| dir(name)).collect(),
        result: Ok(Box::new(Rescan { deck, compared })),
    }
}

/// The small deck with alpha drifted, beta gone and `zeta` made.
fn deck_after() -> Deck {
    let mut skills = deck().skills;
    skills[0].state = State::Modified;
    skills.retain(|s| s.name != "beta");
    let at = skills.iter().position(|s| s.name == "漢字").unwrap();
    skills.insert(
        at,
        skill(
            "zeta",
            Source::User,
            State::Unrecorded,
            &[AgentId::CLAUDE_CODE],
            0,
        ),
    );
    Deck::from_views(skills, deck().roots)
}

fn names(app: &App) -> Vec<&str> {
    app.visible
        .iter()
        .map(|&i| app.deck.skills[i].name.as_str())
        .collect()
}

#[test]
fn a_change_starts_a_rescan_of_its_skills_and_one_seen_meanwhile_waits_for_it() {
    let mut app = scanned();
    assert!(!app.live.rescanning);
    assert_eq!(
        update(&mut app, changed(&["alpha"])),
        [rescan_of(&["alpha"])]
    );
    assert!(
        app.live.rescanning && app.waiting(),
        "the rescan is awaited"
    );
    // Seen during the rescan: no second one alongside.
    assert_eq!(update(&mut app, changed(&["gamma"])), []);
    assert_eq!(update(&mut app, changed(&["delta", "gamma"])), []);
    // The first back, the next takes everything seen meanwhile, once each.
    let effects = update(&mut app, rescanned(&["alpha"], deck(), Vec::new()));
    assert!(
        effects.contains(&rescan_of(&["delta", "gamma"])),
        "{effects:?}"
    );
    let effects = update(&mut app, rescanned(&["delta", "gamma"], deck(), Vec::new()));
    assert!(!effects.iter().any(|e| matches!(e, Effect::Rescan { .. })));
    assert!(!app.live.rescanning);
}

#[test]
fn a_change_seen_during_a_full_scan_is_rescanned_after_it_and_starts_no_other_full_scan() {
    let mut app = scanned();
    // A task that changed skills on disk (an import, a remove) asks for the full scan; the
    // burst of events its writes made arrives while that scan runs.
    update(
        &mut app,
        Msg::TaskDone {
            result: Ok("Removed beta.".to_owned().into()),
            rescan: true,
        },
    );
    assert!(matches!(app.scan, Scan::Running(_)));
    for _ in 0..20 {
        assert_eq!(update(&mut app, changed(&["beta", "alpha"])), []);
    }
    let effects = update(&mut app, Msg::ScanDone(Box::new(deck())));
    assert!(!effects.contains(&Effect::StartScan), "{effects:?}");
    let rescans: Vec<&Effect> = effects
        .iter()
        .filter(|e| matches!(e, Effect::Rescan { .. }))
        .collect();
    assert_eq!(rescans, [&rescan_of(&["alpha", "beta"])]);
}

#[test]
fn the_rescanned_deck_keeps_the_cursor_filters_marks_and_uses() {
    let mut app = scanned();
    update(&mut app, Msg::Action(Action::ToggleMark));
    update(&mut app, Msg::Action(Action::ToggleMark));
    // Cursor on delta, alpha and beta marked; then only Claude Code's skills shown.
    assert_eq!(app.selected_skill().unwrap().name, "delta");
    update(&mut app, Msg::Action(Action::CycleAgent));
    assert_eq!(app.filter.agent, Some(AgentId::CLAUDE_CODE));
    app.deck.set_usage(Uses::Failed("not read".to_owned()));
    update(&mut app, changed(&["alpha", "beta", "zeta"]));
    let row = ChangeView {
        name: "alpha".to_owned(),
        dir: dir("alpha"),
        shown_dir: "~/skills/alpha".to_owned(),
        source: Some(Source::User),
        since: SinceView::Installed { installer: None },
        pristine: None,
    };
    update(
        &mut app,
        rescanned(
            &["alpha", "beta", "zeta"],
            deck_after(),
            vec![(dir("alpha"), Some(row)), (dir("beta"), None)],
        ),
    );
    assert_eq!(names(&app), ["alpha", "delta", "zeta"]);
    assert_eq!(app.selected_skill().unwrap().name, "delta");
    assert_eq!(app.filter.agent, Some(AgentId::CLAUDE_CODE));
    assert_eq!(app.marked.iter().collect::<Vec<_>>(), [&dir("alpha")]);
    assert_eq!(app.deck.skills[0].state, State::Modified);
    assert!(matches!(app.deck.usage, Uses::Failed(_)));
    let rows: Vec<&str> = app
        .changes
        .shown()
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(rows, ["alpha"]);
}

#[test]
fn a_rescan_that_failed_says_why_and_the_next_goes_on() {
    let mut app = scanned();
    update(&mut app, changed(&["alpha"]));
    update(&mut app, changed(&["gamma"]));
    let effects = update(
        &mut app,
        Msg::Rescanned {
            dirs: vec![dir("alpha")],
            result: Err(RescanError::Stopped(Stopped {
                work: "Scanning the changed skills",
                panic: "boom".to_owned(),
            })),
        },
    );
    assert_eq!(app.messages, ["Scanning the changed skills stopped: boom"]);
    assert_eq!(effects, [rescan_of(&["gamma"])]);
}

#[test]
fn polling_is_said_once_in_the_status_line() {
    let mut app = scanned();
    update(
        &mut app,
        Msg::Watched {
            told: 40,
            polled: 0,
        },
    );
    assert!(app.status.as_ref().unwrap().text.starts_with("Found"));
    update(
        &mut app,
        Msg::Watched {
            told: 40,
            polled: 7,
        },
    );
    let note = app.status.clone().unwrap().text;
    assert!(note.starts_with("7 folders are polled every 2 s"), "{note}");
    update(&mut app, Msg::Action(Action::Down));
    update(
        &mut app,
        Msg::Watched {
            told: 40,
            polled: 9,
        },
    );
    assert_eq!(app.status, None, "said once");
}

#[test]
fn the_polling_note_drawn() {
    for size in SIZES {
        let mut app = scanned();
        update(
            &mut app,
            Msg::Watched {
                told: 8192,
                polled: 1804,
            },
        );
        let mut terminal = Terminal::new(TestBackend::new(size.0, size.1)).unwrap();
        for _ in 0..2 {
            let mut laid = None;
            terminal
                .draw(|frame| laid = Some(view::draw(frame, &app)))
                .unwrap();
            update(&mut app, Msg::Laid(Box::new(laid.unwrap())));
        }
        settings().bind(|| {
            insta::assert_snapshot!(
                format!("live_polling_{}x{}", size.0, size.1),
                terminal.backend()
            );
        });
    }
}
