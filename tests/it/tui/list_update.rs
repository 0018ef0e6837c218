//! `update` for the skill list's finding and leaving (issue 18): Esc clears the search, then
//! the filters, and never quits; `q` answers a question as no; the filters cycle both ways
//! through only the values some skill has; the search reads descriptions as well as names and
//! edits like a shell line; the export prompt hands a failed export back with what was typed.
//! Driven by messages alone, keys resolved through the real keymap where the key is the point.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::common::deck::{deck, dir, laid, pane};
use skilldeck::record::State;
use skilldeck::roots::{AgentId, Source};
use skilldeck::tui::app::{App, By, Confirm, Overlay, Screen, Setup};
use skilldeck::tui::failed::{Stopped, TaskError};
use skilldeck::tui::geometry::Panes;
use skilldeck::tui::keymap::{self, Mode};
use skilldeck::tui::line::Edit;
use skilldeck::tui::model::{Deck, OwnerView};
use skilldeck::tui::msg::{Action, Changes, Effect, Msg};
use skilldeck::tui::update::update;

use Action::*;

/// The app after a scan of [`deck`]; delta's description speaks of PDF forms, alpha's of
/// alpine; alpha was installed by skilldeck, gamma by skills-cli.
fn loaded() -> App {
    let mut app = App::new(Setup {
        work_dir: "~/work".to_owned(),
        ..Setup::default()
    });
    let mut skills = deck().skills;
    skills[2].description = Some("Fills in PDF forms".to_owned());
    skills[0].description = Some("Alpine hikes, and a DELTA of rivers".to_owned());
    let owner = |installer: &str| OwnerView {
        installer: installer.to_owned(),
        upstream: None,
        repository: None,
        note: None,
        pristine: None,
        shown_pristine: None,
    };
    skills[0].owner = Some(owner("skilldeck"));
    skills[4].owner = Some(owner("skills-cli"));
    let deck = Deck::from_views(skills, deck().roots);
    update(&mut app, Msg::Started);
    update(&mut app, Msg::ScanDone(Box::new(deck)));
    update(&mut app, Msg::Changes(Ok(Changes::default())));
    update(
        &mut app,
        laid(Panes {
            list: pane(3, 0),
            picker: pane(5, 0),
            ..Panes::default()
        }),
    );
    app
}

fn run(app: &mut App, actions: &[Action]) -> Vec<Effect> {
    actions
        .iter()
        .flat_map(|&a| update(app, Msg::Action(a)))
        .collect()
}

/// Press `code` (with `modifiers`) as the keymap resolves it in the mode the app is in.
fn press(app: &mut App, code: KeyCode, modifiers: KeyModifiers) -> Vec<Effect> {
    let action = keymap::resolve(app.mode(), &KeyEvent::new(code, modifiers))
        .unwrap_or_else(|| panic!("{code:?} does nothing in {:?}", app.mode()));
    update(app, Msg::Action(action))
}

fn names(app: &App) -> Vec<&str> {
    app.visible
        .iter()
        .map(|&i| app.deck.skills[i].name.as_str())
        .collect()
}

fn status(app: &App) -> &str {
    app.status.as_ref().map_or("", |s| s.text.as_str())
}

// Esc never quits.

#[test]
fn esc_clears_the_search_then_the_filters_then_only_says_how_to_quit() {
    let mut app = loaded();
    run(
        &mut app,
        &[ToggleDrifted, StartSearch, Type('e'), AcceptSearch],
    );
    assert_eq!(names(&app), ["beta"]);
    press(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(app.search.query.text(), "");
    assert_eq!(app.filter.state, Some(State::Modified), "the filter stays");
    assert_eq!(status(&app), "Search cleared.");
    press(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(!app.is_narrowed());
    assert_eq!(names(&app).len(), 6);
    assert_eq!(status(&app), "Filters cleared.");
    for _ in 0..3 {
        press(&mut app, KeyCode::Esc, KeyModifiers::NONE);
        assert!(app.running);
        assert_eq!(status(&app), "Nothing to clear; q quits.");
    }
    press(&mut app, KeyCode::Char('q'), KeyModifiers::NONE);
    assert!(!app.running);
}

#[test]
fn d_then_esc_shows_everything_and_the_app_stays() {
    let mut app = loaded();
    press(&mut app, KeyCode::Char('d'), KeyModifiers::NONE);
    assert_eq!(names(&app), ["beta"]);
    press(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(app.running);
    assert_eq!(names(&app).len(), 6);
    // The cursor stayed on the skill it was on.
    assert_eq!(app.selected_skill().unwrap().name, "beta");
}

#[test]
fn esc_from_every_screen_comes_back_to_the_list_and_no_further() {
    for open in [ShowRoots, ShowChanged, NextPane] {
        let mut app = loaded();
        run(&mut app, &[open]);
        for _ in 0..3 {
            press(&mut app, KeyCode::Esc, KeyModifiers::NONE);
            assert!(app.running, "after {open:?}");
        }
        assert_eq!(app.screen, Screen::Skills, "after {open:?}");
        assert_eq!(app.mode(), Mode::Skills, "after {open:?}");
    }
}

#[test]
fn esc_esc_out_of_the_import_picker_leaves_the_app_open() {
    let mut app = loaded();
    press(&mut app, KeyCode::Char('i'), KeyModifiers::NONE);
    assert_eq!(app.mode(), Mode::Picker);
    press(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(app.mode(), Mode::Skills);
    press(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(app.running);
}

// `q` answers a question.

fn question(then: Option<Box<Confirm>>) -> Confirm {
    Confirm {
        title: "Remove alpha?".to_owned(),
        lines: Vec::new(),
        yes: "remove".to_owned(),
        effect: Effect::Undo,
        then,
    }
}

#[test]
fn q_answers_a_question_no_and_the_app_stays() {
    for asked in [question(None), question(Some(Box::new(question(None))))] {
        let mut app = loaded();
        app.overlay = Overlay::Confirm(asked);
        let effects = press(&mut app, KeyCode::Char('q'), KeyModifiers::NONE);
        assert!(effects.is_empty());
        assert!(app.running);
        assert_eq!(app.overlay, Overlay::None);
        assert_eq!(status(&app), "Nothing was changed.");
    }
    assert_eq!(keymap::keys_for(Mode::Confirm, Back), "n, Esc or q");
}

// The filters, both ways, through the values some skill has.

#[test]
fn each_filter_goes_both_ways_and_comes_round_to_all() {
    let mut app = loaded();
    run(&mut app, &[CycleSourceBack]);
    assert_eq!(app.filter.source, Some(Source::Project));
    run(&mut app, &[CycleSourceBack]);
    assert_eq!(app.filter.source, Some(Source::User));
    run(&mut app, &[CycleSource, CycleSource]);
    assert_eq!(app.filter.source, None);

    run(&mut app, &[CycleAgentBack]);
    assert_eq!(app.filter.agent, Some(AgentId::OPENCODE));
    assert_eq!(names(&app), ["漢字"]);
    run(&mut app, &[CycleAgentBack, CycleAgentBack]);
    assert_eq!(app.filter.agent, Some(AgentId::CLAUDE_CODE));
    run(&mut app, &[CycleAgentBack]);
    assert_eq!(app.filter.agent, None);

    run(&mut app, &[CycleStateBack]);
    assert_eq!(app.filter.state, Some(State::Unreadable));
    run(&mut app, &[CycleState]);
    assert_eq!(app.filter.state, None);

    run(&mut app, &[CycleInstallerBack]);
    assert_eq!(app.filter.installer, Some(By::Nobody));
    run(&mut app, &[CycleInstallerBack]);
    assert_eq!(
        app.filter.installer,
        Some(By::Installer("skills-cli".into()))
    );
    assert_eq!(names(&app), ["gamma"]);
}

#[test]
fn the_backward_keys_are_the_shifted_ones_and_ctrl_a_for_agents() {
    let mut app = loaded();
    for (code, modifiers) in [
        (KeyCode::Char('F'), KeyModifiers::SHIFT),
        (KeyCode::Char('T'), KeyModifiers::SHIFT),
        (KeyCode::Char('W'), KeyModifiers::SHIFT),
        (KeyCode::Char('a'), KeyModifiers::CONTROL),
    ] {
        press(&mut app, code, modifiers);
    }
    assert_eq!(app.filter.source, Some(Source::Project));
    assert_eq!(app.filter.state, Some(State::Unreadable));
    assert_eq!(app.filter.installer, Some(By::Nobody));
    assert_eq!(app.filter.agent, Some(AgentId::OPENCODE));
}

/// Every value a filter stops at shows at least one skill: sources, agents, states and
/// installers no skill has are passed over, either way round.
#[test]
fn no_filter_stops_at_a_value_no_skill_has() {
    let cycles = [
        (CycleSource, CycleSourceBack, 4),
        (CycleAgent, CycleAgentBack, 3),
        (CycleState, CycleStateBack, 4),
        (CycleInstaller, CycleInstallerBack, 3),
    ];
    for (forward, back, values) in cycles {
        for action in [forward, back] {
            let mut app = loaded();
            let mut stops = 0;
            loop {
                run(&mut app, &[action]);
                if !app.is_narrowed() {
                    break;
                }
                stops += 1;
                assert!(
                    !app.visible.is_empty(),
                    "{action:?} stopped at an empty value"
                );
                assert!(stops <= values, "{action:?} never came round");
            }
            assert_eq!(stops, values, "{action:?}");
        }
    }
}

#[test]
fn a_filter_left_on_a_value_gone_since_starts_again_from_an_end() {
    let mut app = loaded();
    app.filter.source = Some(Source::Builtin);
    run(&mut app, &[CycleSource]);
    assert_eq!(app.filter.source, Some(Source::Plugin));
    app.filter.source = Some(Source::Builtin);
    run(&mut app, &[CycleSourceBack]);
    assert_eq!(app.filter.source, Some(Source::Project));
}

// The search.

#[test]
fn the_search_reads_descriptions_in_any_case_keeping_the_sort() {
    let cases: &[(&str, &[&str])] = &[
        ("pdf", &["delta"]),
        ("forms", &["delta"]),
        // A name and a description: both, in the list's order (alpha's description, delta's
        // name).
        ("delta", &["alpha", "delta"]),
        ("alpine", &["alpha"]),
        ("nowhere", &[]),
    ];
    for &(query, want) in cases {
        let mut app = loaded();
        run(&mut app, &[StartSearch]);
        for c in query.chars() {
            run(&mut app, &[Type(c)]);
        }
        assert_eq!(names(&app), want, "{query}");
    }
}

#[test]
fn the_search_line_edits_like_a_shell_line() {
    let mut app = loaded();
    run(&mut app, &[StartSearch]);
    for c in "alp ha".chars() {
        run(&mut app, &[Type(c)]);
    }
    assert!(names(&app).is_empty());
    // Ctrl-W takes the last word; the list widens again.
    press(&mut app, KeyCode::Char('w'), KeyModifiers::CONTROL);
    assert_eq!(app.search.query.text(), "alp ");
    // The cursor moves, and typing goes in where it is.
    press(&mut app, KeyCode::Home, KeyModifiers::NONE);
    assert_eq!(app.search.query.cursor_chars(), 0);
    run(&mut app, &[Type('x')]);
    assert_eq!(app.search.query.text(), "xalp ");
    press(&mut app, KeyCode::Left, KeyModifiers::NONE);
    press(&mut app, KeyCode::Delete, KeyModifiers::NONE);
    assert_eq!(app.search.query.text(), "alp ");
    press(&mut app, KeyCode::End, KeyModifiers::NONE);
    press(&mut app, KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(app.search.query.text(), "alp");
    assert_eq!(names(&app), ["alpha"]);
    // A move alone narrows nothing, so it asks for nothing.
    assert!(press(&mut app, KeyCode::Right, KeyModifiers::NONE).is_empty());
    press(&mut app, KeyCode::Left, KeyModifiers::NONE);
    press(&mut app, KeyCode::Char('u'), KeyModifiers::CONTROL);
    assert_eq!(app.search.query.text(), "p");
    // Esc puts back what the line held before it was opened.
    press(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(app.search.query.text(), "");
    assert!(app.running);
}

// The export prompt.

fn export_text(app: &App) -> Option<&str> {
    match &app.overlay {
        Overlay::Export(prompt) => Some(prompt.text.text()),
        _ => None,
    }
}

#[test]
fn the_export_line_edits_like_a_shell_line() {
    let mut app = loaded();
    run(&mut app, &[Export]);
    assert_eq!(export_text(&app), Some("~/work/alpha.tar.gz"));
    press(&mut app, KeyCode::Char('w'), KeyModifiers::CONTROL);
    assert_eq!(export_text(&app), Some("~/work/"));
    press(&mut app, KeyCode::Home, KeyModifiers::NONE);
    press(&mut app, KeyCode::Right, KeyModifiers::NONE);
    press(&mut app, KeyCode::Right, KeyModifiers::NONE);
    for c in "out/".chars() {
        run(&mut app, &[Type(c)]);
    }
    assert_eq!(export_text(&app), Some("~/out/work/"));
    press(&mut app, KeyCode::End, KeyModifiers::NONE);
    press(&mut app, KeyCode::Left, KeyModifiers::NONE);
    press(&mut app, KeyCode::Char('u'), KeyModifiers::CONTROL);
    assert_eq!(export_text(&app), Some("/"));
    press(&mut app, KeyCode::Char('e'), KeyModifiers::CONTROL);
    run(&mut app, &[Type('x')]);
    assert_eq!(export_text(&app), Some("/x"));
}

#[test]
fn only_the_name_offered_is_numbered_when_taken() {
    let cases: &[(&[Action], &str, bool)] = &[
        (&[], "~/work/alpha.tar.gz", true),
        // Typed back to what was offered: still the offer.
        (&[Erase, Type('z')], "~/work/alpha.tar.gz", true),
        (
            &[Erase, Erase, Type('g'), Type('z'), Type('2')],
            "~/work/alpha.tar.gz2",
            false,
        ),
        (&[Edit(Edit::EraseWord)], "~/work/", false),
    ];
    for &(typed, to, numbered) in cases {
        let mut app = loaded();
        run(&mut app, &[Export]);
        run(&mut app, typed);
        let effects = run(&mut app, &[Choose]);
        assert_eq!(
            effects,
            [Effect::Export {
                name: "alpha".to_owned(),
                dir: dir("alpha"),
                to: to.to_owned(),
                numbered,
            }],
            "{typed:?}"
        );
        assert_eq!(status(&app), "Exporting alpha…");
    }
}

#[test]
fn a_failed_export_asks_again_with_what_was_typed() {
    for typed in ["~/nope/alpha.tar.gz", "~/work/"] {
        let mut app = loaded();
        run(&mut app, &[Export, Edit(Edit::EraseToStart)]);
        for c in typed.chars() {
            run(&mut app, &[Type(c)]);
        }
        run(&mut app, &[Choose]);
        assert_eq!(app.tasks, 1);
        let why = format!("There is no folder {typed}, so alpha was not exported.");
        update(
            &mut app,
            Msg::ExportFailed {
                name: "alpha".to_owned(),
                dir: dir("alpha"),
                to: typed.to_owned(),
                why: why.clone(),
            },
        );
        assert_eq!(app.messages, [why]);
        assert_eq!(
            app.status, None,
            "Exporting… is not left on the status line"
        );
        assert_eq!(app.tasks, 0);
        // The message first; closing it shows the prompt, with the path as typed.
        assert_eq!(app.mode(), Mode::Message);
        press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(app.mode(), Mode::Export);
        assert_eq!(export_text(&app), Some(typed));
    }
}

#[test]
fn a_failed_export_does_not_take_the_place_of_what_is_open() {
    let mut app = loaded();
    run(&mut app, &[Export, Choose, ToggleHelp]);
    update(
        &mut app,
        Msg::ExportFailed {
            name: "alpha".to_owned(),
            dir: dir("alpha"),
            to: "x.tar.gz".to_owned(),
            why: "no".to_owned(),
        },
    );
    assert_eq!(app.overlay, Overlay::Help);
    assert_eq!(app.messages.len(), 1);
}

#[test]
fn any_failed_task_clears_its_note_from_the_status_line() {
    let mut app = loaded();
    run(&mut app, &[Snapshot]);
    assert_eq!(status(&app), "Snapshotting alpha…");
    update(
        &mut app,
        Msg::TaskDone {
            result: Err(TaskError::Stopped(Stopped {
                work: "The snapshot",
                panic: "it failed".to_owned(),
            })),
            rescan: false,
        },
    );
    assert_eq!(app.status, None);
    assert_eq!(app.messages, ["The snapshot stopped: it failed"]);
}
