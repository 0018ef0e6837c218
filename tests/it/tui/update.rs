//! `update`, driven by messages alone: no terminal, no threads, no files. Each case starts from
//! a small inventory, applies messages, and checks the state and the effects asked for.

use crate::common::deck::{deck, dir, every_action, laid, pane};
use skilldeck::record::State;
use skilldeck::roots::{AgentId, Source};
use skilldeck::scan::Progress;
use skilldeck::skill::ManifestError;
use skilldeck::tui::app::{App, Overlay, Preview, Scan, Screen, Setup};
use skilldeck::tui::geometry::Panes;
use skilldeck::tui::keymap::Mode;
use skilldeck::tui::model::{Deck, Sort};
use skilldeck::tui::msg::{Action, Changes, Effect, Msg, Pane};
use skilldeck::tui::update::update;
use skilldeck::tui::workers::PreviewFailed;

fn key(action: Action) -> Msg {
    Msg::Action(action)
}

fn keys(actions: &[Action]) -> Vec<Msg> {
    actions.iter().copied().map(Msg::Action).collect()
}

/// The app after a finished scan of [`deck`] (nothing changed since its snapshots), showing 3
/// list rows and 4 detail rows.
fn loaded() -> App {
    let mut app = App::new(Setup::default());
    update(&mut app, Msg::Started);
    let effects = update(&mut app, Msg::ScanDone(Box::new(deck())));
    crate::common::app::audited(&mut app, effects);
    update(&mut app, Msg::Changes(Ok(Changes::default())));
    update(
        &mut app,
        laid(Panes {
            list: pane(3, 0),
            roots: pane(2, 0),
            detail: pane(4, 5),
            preview: pane(4, 2),
            help: pane(10, 7),
            ..Panes::default()
        }),
    );
    app
}

fn names(app: &App) -> Vec<&str> {
    app.visible
        .iter()
        .map(|&i| app.deck.skills[i].name.as_str())
        .collect()
}

fn selected(app: &App) -> &str {
    app.selected_skill().map_or("", |s| s.name.as_str())
}

struct Case {
    name: &'static str,
    start: fn() -> App,
    msgs: fn() -> Vec<Msg>,
    check: fn(&App, &[Effect]),
}

fn fresh() -> App {
    App::new(Setup::default())
}

use Action::*;

const CASES: &[Case] = &[
    Case {
        name: "opening starts the scan",
        start: fresh,
        msgs: || vec![Msg::Started],
        check: |app, effects| {
            assert_eq!(effects, [Effect::StartScan]);
            assert!(matches!(app.scan, Scan::Running(_)));
            assert!(app.waiting());
        },
    },
    Case {
        name: "progress is kept while the scan runs",
        start: || {
            let mut app = fresh();
            update(&mut app, Msg::Started);
            app
        },
        msgs: || vec![Msg::ScanProgress(Progress { done: 3, total: 9 })],
        check: |app, _| {
            assert_eq!(app.scan, Scan::Running(Progress { done: 3, total: 9 }));
        },
    },
    Case {
        name: "a finished scan shows every skill by name and reads the first one's SKILL.md",
        start: || {
            let mut app = fresh();
            update(&mut app, Msg::Started);
            app
        },
        msgs: || vec![Msg::ScanDone(Box::new(deck()))],
        check: |app, effects| {
            assert_eq!(
                names(app),
                ["alpha", "beta", "delta", "epsilon", "gamma", "漢字"]
            );
            // The first one's SKILL.md, then every skill audited, on a worker.
            assert_eq!(effects[0], Effect::ReadPreview(dir("alpha")));
            let [_, Effect::Audit { skills, .. }] = effects else {
                panic!("{effects:?}")
            };
            assert_eq!(skills.len(), 6);
            assert_eq!(app.scan, Scan::Done);
            assert_eq!(app.preview, Preview::Loading(dir("alpha")));
            let status = app.status.as_ref().unwrap();
            assert_eq!(status.text, "Found 6 skills in 2 roots; 1 modified.");
        },
    },
    Case {
        name: "down moves the cursor and asks for the next SKILL.md",
        start: loaded,
        msgs: || keys(&[Down]),
        check: |app, effects| {
            assert_eq!(selected(app), "beta");
            assert_eq!(effects, [Effect::ReadPreview(dir("beta"))]);
        },
    },
    Case {
        name: "up at the top stays there and reads nothing",
        start: loaded,
        msgs: || keys(&[Up]),
        check: |app, effects| {
            assert_eq!(selected(app), "alpha");
            assert!(effects.is_empty());
        },
    },
    Case {
        name: "bottom and top",
        start: loaded,
        msgs: || keys(&[Bottom]),
        check: |app, _| assert_eq!(selected(app), "漢字"),
    },
    Case {
        name: "down at the bottom stays there",
        start: loaded,
        msgs: || keys(&[Bottom, Down, Down, Top, Bottom]),
        check: |app, _| assert_eq!(selected(app), "漢字"),
    },
    Case {
        name: "a page moves by the rows shown less one",
        start: loaded,
        msgs: || keys(&[PageDown]),
        check: |app, _| assert_eq!(selected(app), "delta"),
    },
    Case {
        name: "a page up from the bottom",
        start: loaded,
        msgs: || keys(&[Bottom, PageUp, PageUp]),
        check: |app, _| assert_eq!(selected(app), "beta"),
    },
    Case {
        name: "one key shows only the drifted skills",
        start: loaded,
        msgs: || keys(&[ToggleDrifted]),
        check: |app, effects| {
            assert_eq!(names(app), ["beta"]);
            assert_eq!(app.filter.state, Some(State::Modified));
            assert_eq!(effects, [Effect::ReadPreview(dir("beta"))]);
        },
    },
    Case {
        name: "the same key shows everything again, keeping the cursor on the skill",
        start: loaded,
        msgs: || keys(&[ToggleDrifted, ToggleDrifted]),
        check: |app, _| {
            assert_eq!(names(app).len(), 6);
            assert_eq!(selected(app), "beta");
            assert_eq!(app.filter.state, None);
        },
    },
    Case {
        name: "the source filter starts at plugin",
        start: loaded,
        msgs: || keys(&[CycleSource]),
        check: |app, _| {
            assert_eq!(app.filter.source, Some(Source::Plugin));
            assert_eq!(names(app), ["gamma"]);
        },
    },
    Case {
        name: "the source filter goes through every source back to all",
        start: loaded,
        msgs: || keys(&[CycleSource, CycleSource, CycleSource]),
        check: |app, _| {
            assert_eq!(app.filter.source, Some(Source::User));
            assert_eq!(names(app), ["alpha", "epsilon", "漢字"]);
        },
    },
    Case {
        name: "after the last source a skill has, the source filter is off",
        start: loaded,
        msgs: || {
            keys(&[
                CycleSource,
                CycleSource,
                CycleSource,
                CycleSource,
                CycleSource,
            ])
        },
        check: |app, _| {
            assert_eq!(app.filter.source, None);
            assert_eq!(names(app).len(), 6);
        },
    },
    Case {
        name: "a filter that matches nothing empties the preview",
        start: loaded,
        msgs: || keys(&[CycleSource, CycleState]),
        check: |app, effects| {
            assert_eq!(app.filter.source, Some(Source::Plugin));
            assert_eq!(app.filter.state, Some(State::Intact));
            assert!(app.visible.is_empty());
            assert!(app.selected_skill().is_none());
            assert_eq!(app.preview, Preview::Empty);
            // The first filter moved to a new skill; the second found none.
            assert_eq!(effects.len(), 1);
        },
    },
    Case {
        name: "the agent filter keeps the skills that agent loads",
        start: loaded,
        msgs: || keys(&[CycleAgent]),
        check: |app, _| {
            assert_eq!(app.filter.agent, Some(AgentId::CLAUDE_CODE));
            assert_eq!(names(app), ["alpha", "beta", "delta"]);
        },
    },
    Case {
        name: "the agent filter moves on to the next agent",
        start: loaded,
        msgs: || keys(&[CycleAgent, CycleAgent]),
        check: |app, _| assert_eq!(names(app), ["beta", "gamma"]),
    },
    Case {
        name: "the state filter starts at intact",
        start: loaded,
        msgs: || keys(&[CycleState]),
        check: |app, _| assert_eq!(names(app), ["alpha", "delta"]),
    },
    Case {
        name: "filters combine",
        start: loaded,
        msgs: || keys(&[CycleState, CycleSource, CycleSource]),
        check: |app, _| assert_eq!(names(app), ["delta"]),
    },
    Case {
        name: "sort by source",
        start: loaded,
        msgs: || keys(&[CycleSort]),
        check: |app, _| {
            assert_eq!(app.sort, Sort::Source);
            assert_eq!(
                names(app),
                ["gamma", "delta", "alpha", "epsilon", "漢字", "beta"]
            );
        },
    },
    Case {
        name: "sort by state puts drift first",
        start: loaded,
        msgs: || keys(&[CycleSort, CycleSort]),
        check: |app, _| {
            assert_eq!(app.sort, Sort::State);
            assert_eq!(
                names(app),
                ["beta", "epsilon", "gamma", "漢字", "alpha", "delta"]
            );
        },
    },
    Case {
        name: "sort by recent change",
        start: loaded,
        msgs: || keys(&[CycleSort, CycleSort, CycleSort]),
        check: |app, _| {
            assert_eq!(app.sort, Sort::Recent);
            assert_eq!(
                names(app),
                ["beta", "gamma", "漢字", "delta", "alpha", "epsilon"]
            );
            // The cursor stayed on the skill it was on.
            assert_eq!(selected(app), "alpha");
        },
    },
    Case {
        name: "sorting comes back to name",
        start: loaded,
        msgs: || {
            keys(&[
                CycleSort, CycleSort, CycleSort, CycleSort, CycleSort, CycleSort,
            ])
        },
        check: |app, _| assert_eq!(app.sort, Sort::Name),
    },
    Case {
        name: "search narrows as you type, ignoring case",
        start: loaded,
        msgs: || keys(&[StartSearch, Type('G'), Type('a')]),
        check: |app, effects| {
            assert_eq!(app.mode(), Mode::Search);
            assert_eq!(app.search.query.text(), "Ga");
            assert_eq!(names(app), ["gamma"]);
            assert_eq!(effects, [Effect::ReadPreview(dir("gamma"))]);
        },
    },
    Case {
        name: "search finds wide names",
        start: loaded,
        msgs: || keys(&[StartSearch, Type('字')]),
        check: |app, _| assert_eq!(names(app), ["漢字"]),
    },
    Case {
        name: "erasing widens the search again",
        start: loaded,
        msgs: || keys(&[StartSearch, Type('g'), Type('a'), Erase, Erase]),
        check: |app, _| {
            assert_eq!(app.search.query.text(), "");
            assert_eq!(names(app).len(), 6);
        },
    },
    Case {
        name: "Enter keeps the search and gives the keys back to the list",
        start: loaded,
        msgs: || keys(&[StartSearch, Type('e'), AcceptSearch]),
        check: |app, _| {
            assert_eq!(app.mode(), Mode::Skills);
            assert_eq!(names(app), ["beta", "delta", "epsilon"]);
            assert!(app.is_narrowed());
        },
    },
    Case {
        name: "Esc cancels the search and puts the last one back",
        start: loaded,
        msgs: || {
            keys(&[
                StartSearch,
                Type('e'),
                AcceptSearch,
                StartSearch,
                Type('x'),
                Back,
            ])
        },
        check: |app, _| {
            assert_eq!(app.mode(), Mode::Skills);
            assert_eq!(app.search.query.text(), "e");
            assert!(app.running);
        },
    },
    Case {
        name: "moving while typing moves in the matches",
        start: loaded,
        msgs: || keys(&[StartSearch, Type('a'), Down]),
        check: |app, _| assert_eq!(selected(app), "beta"),
    },
    Case {
        name: "c clears the search and every filter",
        start: loaded,
        msgs: || {
            keys(&[
                StartSearch,
                Type('a'),
                AcceptSearch,
                ToggleDrifted,
                CycleSource,
                ClearFilters,
            ])
        },
        check: |app, _| {
            assert!(!app.is_narrowed());
            assert_eq!(names(app).len(), 6);
        },
    },
    Case {
        name: "q quits",
        start: loaded,
        msgs: || keys(&[Quit]),
        check: |app, _| assert!(!app.running),
    },
    Case {
        name: "Esc from the list, with nothing to clear, does not quit",
        start: loaded,
        msgs: || keys(&[Back, Back]),
        check: |app, _| {
            assert!(app.running);
            assert_eq!(
                app.status.as_ref().unwrap().text,
                "Nothing to clear; q quits."
            );
        },
    },
    Case {
        name: "Esc from another pane goes back to the list",
        start: loaded,
        msgs: || keys(&[NextPane, Back]),
        check: |app, _| {
            assert!(app.running);
            assert_eq!(app.focus, Pane::List);
        },
    },
    Case {
        name: "Tab goes round the panes both ways",
        start: loaded,
        msgs: || keys(&[NextPane, NextPane]),
        check: |app, _| assert_eq!(app.focus, Pane::Preview),
    },
    Case {
        name: "Shift-Tab goes back",
        start: loaded,
        msgs: || keys(&[PreviousPane]),
        check: |app, _| assert_eq!(app.focus, Pane::Preview),
    },
    Case {
        name: "Enter opens the SKILL.md",
        start: loaded,
        msgs: || keys(&[OpenPreview]),
        check: |app, _| assert_eq!(app.focus, Pane::Preview),
    },
    Case {
        name: "the focused pane scrolls, within its text",
        start: loaded,
        msgs: || keys(&[NextPane, Down, Down, PageDown, PageDown, PageDown]),
        check: |app, effects| {
            assert_eq!(app.detail_scroll, 5);
            assert_eq!(selected(app), "alpha");
            assert!(effects.is_empty());
        },
    },
    Case {
        name: "the preview scrolls, and a new skill starts at its top",
        start: loaded,
        msgs: || {
            vec![
                key(OpenPreview),
                key(Down),
                key(Down),
                key(Down),
                Msg::Focus(Pane::List),
                key(Down),
            ]
        },
        check: |app, _| {
            assert_eq!(app.preview_scroll, 0);
            assert_eq!(selected(app), "beta");
        },
    },
    Case {
        name: "the preview scroll stops at its end",
        start: loaded,
        msgs: || keys(&[OpenPreview, Down, Down, Down, Down]),
        check: |app, _| assert_eq!(app.preview_scroll, 2),
    },
    Case {
        name: "? opens the help, which scrolls and closes with Esc",
        start: loaded,
        msgs: || keys(&[ToggleHelp, Down, Down]),
        check: |app, _| {
            assert_eq!(app.overlay, Overlay::Help);
            assert_eq!(app.mode(), Mode::Help);
            assert_eq!(app.help_scroll, 2);
            assert_eq!(selected(app), "alpha");
        },
    },
    Case {
        name: "closing the help leaves the app running",
        start: loaded,
        msgs: || keys(&[ToggleHelp, Back]),
        check: |app, _| {
            assert_eq!(app.overlay, Overlay::None);
            assert!(app.running);
        },
    },
    Case {
        name: "2 shows the roots, where the cursor moves over roots",
        start: loaded,
        msgs: || keys(&[ShowRoots, Down, Down, Down]),
        check: |app, effects| {
            assert_eq!(app.screen, Screen::Roots);
            assert_eq!(app.mode(), Mode::Roots);
            assert_eq!(app.root_selected, 2);
            assert_eq!(selected(app), "alpha");
            assert!(effects.is_empty());
        },
    },
    Case {
        name: "Esc from the roots goes back to the skills",
        start: loaded,
        msgs: || keys(&[ShowRoots, Back]),
        check: |app, _| {
            assert_eq!(app.screen, Screen::Skills);
            assert!(app.running);
        },
    },
    Case {
        name: "1 goes back to the skills",
        start: loaded,
        msgs: || keys(&[ShowRoots, ShowSkills]),
        check: |app, _| assert_eq!(app.screen, Screen::Skills),
    },
    Case {
        name: "r rescans",
        start: loaded,
        msgs: || keys(&[Rescan]),
        check: |app, effects| {
            assert_eq!(effects, [Effect::StartScan]);
            assert!(matches!(app.scan, Scan::Running(_)));
        },
    },
    Case {
        name: "r during a scan says so and starts no second one",
        start: loaded,
        msgs: || keys(&[Rescan, Rescan]),
        check: |app, effects| {
            assert_eq!(effects, [Effect::StartScan]);
            let status = app.status.as_ref().unwrap();
            assert!(status.warning);
            assert_eq!(status.text, "A scan is already running.");
        },
    },
    Case {
        name: "a rescan keeps the cursor on its skill and reads its SKILL.md again",
        start: loaded,
        msgs: || {
            let mut skills = deck().skills;
            skills.remove(0);
            let later = Deck::from_views(skills, deck().roots);
            vec![key(Down), key(Rescan), Msg::ScanDone(Box::new(later))]
        },
        check: |app, effects| {
            assert_eq!(selected(app), "beta");
            // Then the skills of the new scan audited again, on a worker.
            assert_eq!(
                effects[..3],
                [
                    Effect::ReadPreview(dir("beta")),
                    Effect::StartScan,
                    Effect::ReadPreview(dir("beta"))
                ]
            );
            assert!(matches!(&effects[3..], [Effect::Audit { skills, .. }] if skills.len() == 5));
        },
    },
    Case {
        name: "m turns the mouse on and off",
        start: loaded,
        msgs: || keys(&[ToggleMouse]),
        check: |app, effects| {
            assert!(app.mouse);
            assert_eq!(effects, [Effect::SetMouse(true)]);
            assert!(app.status.as_ref().unwrap().text.starts_with("Mouse on"));
        },
    },
    Case {
        name: "m again turns it off",
        start: loaded,
        msgs: || keys(&[ToggleMouse, ToggleMouse]),
        check: |app, effects| {
            assert!(!app.mouse);
            assert_eq!(effects, [Effect::SetMouse(true), Effect::SetMouse(false)]);
        },
    },
    Case {
        name: "a key clears the last note",
        start: loaded,
        msgs: || keys(&[Down]),
        check: |app, _| assert_eq!(app.status, None),
    },
    Case {
        name: "the SKILL.md asked for is shown",
        start: loaded,
        msgs: || {
            vec![Msg::Preview {
                dir: dir("alpha"),
                text: Ok(vec!["# alpha".to_owned()]),
            }]
        },
        check: |app, _| {
            assert_eq!(
                app.preview,
                Preview::Text {
                    dir: dir("alpha"),
                    lines: vec!["# alpha".to_owned()]
                }
            );
            assert!(!app.waiting());
            assert_eq!(app.preview_version, 1);
        },
    },
    Case {
        name: "a SKILL.md that arrives after the cursor moved on is dropped",
        start: loaded,
        msgs: || {
            vec![
                key(Down),
                Msg::Preview {
                    dir: dir("alpha"),
                    text: Ok(vec!["# alpha".to_owned()]),
                },
            ]
        },
        check: |app, _| {
            assert_eq!(app.preview, Preview::Loading(dir("beta")));
            assert_eq!(app.preview_version, 0);
        },
    },
    Case {
        name: "a SKILL.md that cannot be read says why",
        start: loaded,
        msgs: || {
            vec![Msg::Preview {
                dir: dir("alpha"),
                text: Err(PreviewFailed::Unreadable(ManifestError::Binary)),
            }]
        },
        check: |app, _| {
            assert!(
                matches!(&app.preview, Preview::Failed { reason, .. } if reason.contains("binary"))
            );
        },
    },
    Case {
        name: "a failure opens a message, which closes with Esc",
        start: || {
            let mut app = fresh();
            update(&mut app, Msg::Started);
            app
        },
        msgs: || vec![Msg::Failed("The scan stopped: boom".to_owned())],
        check: |app, _| {
            assert_eq!(app.messages, ["The scan stopped: boom"]);
            assert_eq!(app.mode(), Mode::Message);
            assert_eq!(app.scan, Scan::Done);
        },
    },
    Case {
        name: "closing the message",
        start: loaded,
        msgs: || vec![Msg::Failed("x".to_owned()), key(Back)],
        check: |app, _| {
            assert!(app.messages.is_empty());
            assert_eq!(app.mode(), Mode::Skills);
            assert!(app.running);
        },
    },
    Case {
        name: "a click selects a row and gives the list the keys",
        start: loaded,
        msgs: || vec![key(NextPane), Msg::Select(4)],
        check: |app, effects| {
            assert_eq!(selected(app), "gamma");
            assert_eq!(app.focus, Pane::List);
            assert_eq!(effects, [Effect::ReadPreview(dir("gamma"))]);
        },
    },
    Case {
        name: "a click past the end selects the last row",
        start: loaded,
        msgs: || vec![Msg::Select(99)],
        check: |app, _| assert_eq!(selected(app), "漢字"),
    },
    Case {
        name: "the wheel scrolls the pane under it",
        start: loaded,
        msgs: || vec![Msg::Scroll(Pane::Detail, 3)],
        check: |app, _| {
            assert_eq!(app.focus, Pane::Detail);
            assert_eq!(app.detail_scroll, 3);
        },
    },
    Case {
        name: "the wheel moves the list",
        start: loaded,
        msgs: || vec![Msg::Scroll(Pane::List, 3), Msg::Scroll(Pane::List, -1)],
        check: |app, _| assert_eq!(selected(app), "delta"),
    },
    Case {
        name: "the wheel over the help scrolls the help",
        start: loaded,
        msgs: || vec![key(ToggleHelp), Msg::Scroll(Pane::Preview, 3)],
        check: |app, _| {
            assert_eq!(app.help_scroll, 3);
            assert_eq!(app.preview_scroll, 0);
        },
    },
];

#[test]
fn update_cases() {
    for case in CASES {
        let mut app = (case.start)();
        let mut effects = Vec::new();
        for msg in (case.msgs)() {
            effects.extend(update(&mut app, msg));
        }
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            (case.check)(&app, &effects);
        }));
        assert!(result.is_ok(), "case failed: {}", case.name);
    }
}

/// Every action (derived from the enum, so a new one is never left out), twice, from a fresh
/// and from a loaded app: the cursor always stays on something shown.
#[test]
fn every_action_is_handled_without_a_panic_in_every_state() {
    let actions = every_action();
    for start in [fresh, loaded] {
        for &first in &actions {
            for &second in &actions {
                let mut app = start();
                update(&mut app, key(first));
                update(&mut app, key(second));
                if let Some(skill) = app.selected_skill() {
                    assert!(
                        app.visible.contains(
                            &app.deck
                                .skills
                                .iter()
                                .position(|s| s.dir == skill.dir)
                                .unwrap()
                        )
                    );
                }
                assert!(app.root_selected <= app.deck.roots.len());
            }
        }
    }
}
