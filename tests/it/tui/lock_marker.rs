//! Each project skill's state against its project's `skills-lock.json` in the app: a marker
//! after the state's in the list (`≡` locked, `≠` differing, `∉` unlocked), a column shown
//! only where some skill has a state, and a `Lock` row in the detail pane saying it in words.
//! On a deck made for it (recorded with insta) and on a real machine with a lock.

use std::path::PathBuf;

use crate::common::app::{SIZES, Screen, settings};
use crate::common::deck::{root, skill};
use crate::common::{Machine, write_files, write_skill};
use skilldeck::operations::lock_state::LockState;
use skilldeck::record::State;
use skilldeck::roots::{self, AgentId, Source};
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::headless::test_terminal;
use skilldeck::tui::model::Deck;
use skilldeck::tui::msg::{Action, Changes, Msg};
use skilldeck::tui::theme;
use skilldeck::tui::update::update;
use skilldeck::tui::view;

/// The line of `text` that holds `needle`.
fn line_of<'a>(text: &'a str, needle: &str) -> &'a str {
    text.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle} not shown:\n{text}"))
}

/// The list's row of the skill `name`: the list pane's part of the line that has it there.
fn row_of<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines()
        .filter_map(|l| l.split('│').nth(1))
        .find(|cell| cell.contains(&format!(" {name} ")))
        .unwrap_or_else(|| panic!("{name} not listed:\n{text}"))
}

/// A project's skills in each lock state, and a user skill, which has none.
fn locked_deck(locks: bool) -> App {
    let agents = [AgentId::CLAUDE_CODE];
    let mut skills = vec![
        skill("api-docs", Source::Project, State::Intact, &agents, 2),
        skill("deploy", Source::Project, State::Modified, &agents, 1),
        skill("newcomer", Source::Project, State::Unrecorded, &agents, 0),
        skill("personal", Source::User, State::Intact, &agents, 5),
    ];
    if locks {
        skills[0].lock = Some(LockState::Locked);
        skills[1].lock = Some(LockState::Differing);
        skills[2].lock = Some(LockState::Unlocked);
    }
    for skill in &mut skills {
        skill.dir = PathBuf::from(format!("/work/app/.claude/skills/{}", skill.name));
    }
    let mut app = App::new(Setup::default());
    update(&mut app, Msg::Started);
    let deck = Deck::from_views(skills, vec![root("./.claude/skills", 4)]);
    update(&mut app, Msg::ScanDone(Box::new(deck)));
    update(&mut app, Msg::Changes(Ok(Changes::default())));
    app
}

fn drawn(app: &App, (width, height): (u16, u16)) -> ratatui::backend::TestBackend {
    let mut terminal = test_terminal(width, height);
    terminal
        .draw(|frame| {
            view::draw(frame, app);
        })
        .unwrap();
    terminal.backend().clone()
}

#[test]
fn the_list_marks_each_project_skill_and_the_detail_says_it() {
    let mut app = locked_deck(true);
    // The differing one selected: its detail says so.
    update(&mut app, Msg::Action(Action::Down));
    for size in SIZES {
        let backend = drawn(&app, size);
        settings().bind(|| {
            insta::assert_snapshot!(format!("lock_states_{}x{}", size.0, size.1), backend);
        });
        let text = backend.to_string();
        assert!(row_of(&text, "api-docs").contains("●≡"), "{text}");
        assert!(row_of(&text, "deploy").contains("▲≠"), "{text}");
        assert!(row_of(&text, "newcomer").contains("○∉"), "{text}");
        // No state for a user skill: a blank in the column, not a marker.
        let personal = row_of(&text, "personal");
        assert!(personal.contains("● "), "{text}");
        for marker in ["≡", "≠", "∉"] {
            assert!(!personal.contains(marker), "{text}");
        }
        assert!(line_of(&text, "Lock ").contains("≠ differing"), "{text}");
    }
}

#[test]
fn without_a_lock_the_list_has_no_lock_column_and_the_detail_no_lock_row() {
    let app = locked_deck(false);
    let with = drawn(&locked_deck(true), (120, 40)).to_string();
    let without = drawn(&app, (120, 40)).to_string();
    // The column takes one cell: the names start one later with it.
    let at = |text: &str| {
        let row = row_of(text, "api-docs");
        row[..row.find("api-docs").unwrap()].chars().count()
    };
    assert_eq!(at(&with), at(&without) + 1, "{with}\n{without}");
    assert!(!without.contains("Lock "), "{without}");
    for marker in ["≡", "≠", "∉"] {
        assert!(!without.contains(marker), "{without}");
    }
}

#[test]
fn the_markers_are_shapes_no_state_or_other_marker_uses() {
    let lock: Vec<&str> = [LockState::Locked, LockState::Differing, LockState::Unlocked]
        .into_iter()
        .map(theme::lock_marker)
        .collect();
    let mut others: Vec<&str> = State::ALL.into_iter().map(theme::state_marker).collect();
    others.extend([
        theme::CHANGED_MARKER,
        theme::GONE_MARKER,
        theme::SHADOWED_MARKER,
        theme::MARKED_MARKER,
        theme::UPSTREAM_MARKER,
        theme::PROBLEM_MARKER,
    ]);
    for marker in &lock {
        assert_eq!(skilldeck::text::width::of(marker), 1, "{marker}");
        assert!(!others.contains(marker), "{marker}");
    }
    assert_eq!(lock.len(), 3);
}

#[test]
fn on_a_machine_with_a_lock_the_app_shows_what_verify_finds() {
    let machine = Machine::new();
    write_skill(&machine.repo.join(".claude/skills/kept"), &[]);
    write_skill(&machine.repo.join(".claude/skills/edited"), &[]);
    machine.run_expecting(&["lock"], 0);
    write_files(
        &machine.repo.join(".claude/skills/edited"),
        &[("more.md", "x")],
    );
    write_skill(&machine.repo.join(".claude/skills/later"), &[]);
    let on = roots::Machine::new(machine.env(), &machine.start);
    let mut screen = Screen::open(on, Setup::default(), (120, 40));
    let text = screen.text();
    assert!(row_of(&text, "kept").contains('≡'), "{text}");
    assert!(row_of(&text, "edited").contains('≠'), "{text}");
    assert!(row_of(&text, "later").contains('∉'), "{text}");
    screen.press("/later\n");
    let text = screen.text();
    assert!(line_of(&text, "Lock ").contains("∉ unlocked"), "{text}");
}
