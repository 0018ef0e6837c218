//! The skill list at 60×15, 80×24, 120×40 and 200×50 (issue 18): columns as wide as what they
//! hold and the rest to the name; long names cut in the middle so similar ones stay apart; the
//! query in the pane's title; the modified column when the list is sorted by it. Recorded
//! with insta, on the demo machine (its real runtime) and on a deck made for it.

use std::path::PathBuf;

use crate::common::app::{demo, settings};
use crate::common::deck::{root, skill};
use skilldeck::record::State;
use skilldeck::roots::{AgentId, Source};
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::headless::test_terminal;
use skilldeck::tui::model::{Deck, OwnerView};
use skilldeck::tui::msg::{Action, Changes, Msg};
use skilldeck::tui::update::update;
use skilldeck::tui::view;

const SIZES: [(u16, u16); 4] = [(60, 15), (80, 24), (120, 40), (200, 50)];

/// Snapshot the demo after `keys` at every size; then `check` the screen's text.
fn snapshot_demo(name: &str, keys: &str, check: impl Fn((u16, u16), &str)) {
    for size in SIZES {
        let (_sandbox, mut screen) = demo(size);
        screen.press(keys);
        settings().bind(|| {
            insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen.backend());
        });
        check(size, &screen.text());
    }
}

/// The rows of the list pane in `text`: what is left of its right border, on lines with a
/// state marker.
fn list_rows(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim_matches('"'))
        .filter(|l| l.starts_with('│'))
        .filter_map(|l| l.split('│').nth(1).map(str::to_owned))
        .filter(|cell| cell.contains(['○', '●', '▲', '◇', '◐', '✕']))
        // Not the detail's state line, below the list on a narrow terminal.
        .filter(|cell| !cell.starts_with("State "))
        .collect()
}

#[test]
fn the_demo_list_at_every_size() {
    snapshot_demo("list_demo", "", |size, text| {
        if size.0 >= 200 {
            // Room for every column: the agents whole, then who installed it.
            assert!(text.contains("INSTALLED BY"), "{text}");
            assert!(text.contains("claude-code,opencode,cursor"), "{text}");
        }
        let rows = list_rows(text);
        assert!(!rows.is_empty(), "{text}");
        // No two rows look the same, however narrow (the copies of one name differ in their
        // markers).
        let mut shown: Vec<&str> = rows.iter().map(String::as_str).collect();
        shown.sort_unstable();
        shown.dedup();
        assert_eq!(shown.len(), rows.len(), "{size:?}: {rows:#?}");
    });
}

#[test]
fn the_query_is_in_the_title_and_descriptions_are_searched() {
    snapshot_demo("list_search", "/review\n", |size, text| {
        // The title is cut at the narrowest, after the query's start.
        assert!(text.contains("“review"), "{size:?}: {text}");
    });
}

#[test]
fn sorted_by_modified_the_list_shows_when() {
    snapshot_demo("list_recent", "ooo", |size, text| {
        if size.0 >= 80 {
            assert!(text.contains("MODIFIED"), "{size:?}: {text}");
        }
        if size.0 >= 120 {
            assert!(text.contains("sort: recently modified"), "{size:?}: {text}");
        }
    });
}

/// A deck with long names that share their start, a skill that many agents load, and
/// installers with repositories.
fn crowded() -> App {
    let many: Vec<AgentId> = AgentId::all().take(9).collect();
    let mut skills = vec![
        skill(
            "docs-kit:api-reference-generator",
            Source::Plugin,
            State::Intact,
            &many,
            3,
        ),
        skill(
            "docs-kit:api-reference-validator",
            Source::Plugin,
            State::Modified,
            &many[..2],
            30,
        ),
        skill(
            "docs-kit:diagrams-mermaid",
            Source::Plugin,
            State::Intact,
            &many[..4],
            72,
        ),
        skill(
            "docs-kit:diagrams-plantuml",
            Source::Plugin,
            State::Unrecorded,
            &many[..1],
            400,
        ),
        skill("pdf", Source::User, State::Intact, &many[..3], 1),
        skill(
            "a-skill-with-a-name-far-longer-than-any-column-would-give-it",
            Source::Project,
            State::Intact,
            &many[1..2],
            0,
        ),
    ];
    let owner = |installer: &str, repository: &str| OwnerView {
        installer: installer.to_owned(),
        upstream: None,
        repository: Some(repository.to_owned()),
        note: None,
        pristine: None,
        shown_pristine: None,
    };
    for skill in &mut skills[..4] {
        skill.owner = Some(owner("claude-plugin", "github.com/acme/docs-kit"));
    }
    skills[4].owner = Some(owner("skills-cli", "github.com/anthropics/skills"));
    for skill in &mut skills {
        skill.dir = PathBuf::from(format!("/skills/{}", skill.name.replace(':', "-")));
    }
    skills.sort_by(|a, b| a.name.cmp(&b.name));
    let mut app = App::new(Setup::default());
    update(&mut app, Msg::Started);
    let deck = Deck::from_views(skills, vec![root("~/.claude/skills", 6)]);
    update(&mut app, Msg::ScanDone(Box::new(deck)));
    update(&mut app, Msg::Changes(Ok(Changes::default())));
    app
}

fn snapshot_app(name: &str, app: &App, check: impl Fn((u16, u16), &str)) {
    for (width, height) in SIZES {
        let mut terminal = test_terminal(width, height);
        terminal
            .draw(|frame| {
                view::draw(frame, app);
            })
            .unwrap();
        settings().bind(|| {
            insta::assert_snapshot!(format!("{name}_{width}x{height}"), terminal.backend());
        });
        let text: String = format!("{}", terminal.backend());
        check((width, height), &text);
    }
}

#[test]
fn long_similar_names_and_many_agents_share_the_width() {
    let app = crowded();
    snapshot_app("list_crowded", &app, |size, text| {
        let rows = list_rows(text);
        // Every row where the list is high enough for them (on a narrow terminal the list is
        // above the detail, so 15 rows show four).
        let all = if size.1 >= 24 { 6 } else { 3 };
        assert_eq!(rows.len(), all, "{size:?}: {text}");
        let mut shown: Vec<&str> = rows.iter().map(|r| r.trim_end()).collect();
        shown.sort_unstable();
        shown.dedup();
        assert_eq!(shown.len(), all, "{size:?}: rows read alike: {rows:#?}");
        // The ends that tell the names apart are kept.
        let ends: &[&str] = if size.1 >= 24 {
            &["generator", "validator", "mermaid", "plantuml"]
        } else {
            &["generator", "validator"]
        };
        for end in ends {
            assert!(
                rows.iter().any(|r| r.contains(&end[end.len() - 4..])),
                "{size:?}: {end} lost: {rows:#?}"
            );
        }
        if size.0 >= 120 {
            // Wide enough for every name whole but the far longer one, and the agents.
            assert!(text.contains("docs-kit:api-reference-generator"), "{text}");
            assert!(text.contains("AGENTS"), "{text}");
        }
        if size.0 >= 200 {
            let agents = rows.iter().find(|r| r.contains("generator")).unwrap();
            assert!(agents.contains("+6"), "the agents are cut: {agents}");
        }
    });
}

#[test]
fn the_crowded_list_sorted_by_modified_and_searched() {
    let mut app = crowded();
    for action in [Action::CycleSort, Action::CycleSort, Action::CycleSort] {
        update(&mut app, Msg::Action(action));
    }
    for action in [Action::StartSearch, Action::Type('d'), Action::Type('o')] {
        update(&mut app, Msg::Action(action));
    }
    snapshot_app("list_crowded_recent", &app, |size, text| {
        assert!(text.contains("“do”"), "{size:?}: {text}");
        // Sorted by it, the modified time comes right after the name, where there is room.
        if size.0 >= 80 {
            assert!(text.contains("MODIFIED"), "{size:?}: {text}");
            assert!(text.contains("3 h"), "{size:?}: {text}");
        }
    });
}

/// The search line draws its cursor where the edits put it, and a query longer than the line
/// scrolls to keep it in view.
#[test]
fn the_search_line_shows_its_cursor() {
    use ratatui::backend::Backend;
    use skilldeck::tui::line::Edit;

    let cases: &[(&str, usize, usize)] = &[
        // Typed, then the cursor moved left twice: two columns before the end.
        ("docs", 2, 1 + 2),
        ("do", 0, 1 + 2),
        // Home: right after the slash.
        ("plantuml", 8, 1),
    ];
    for &(typed, lefts, column) in cases {
        let mut app = crowded();
        update(&mut app, Msg::Action(Action::StartSearch));
        for c in typed.chars() {
            update(&mut app, Msg::Action(Action::Type(c)));
        }
        for _ in 0..lefts {
            update(&mut app, Msg::Action(Action::Edit(Edit::Left)));
        }
        let mut terminal = test_terminal(80, 24);
        terminal
            .draw(|frame| drop(view::draw(frame, &app)))
            .unwrap();
        let text = format!("{}", terminal.backend());
        let (y, line) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains(&format!("│/{typed}")))
            .unwrap_or_else(|| panic!("no search line:\n{text}"));
        // The line as drawn has a quote before the first column.
        let slash = line.chars().position(|c| c == '/').unwrap() - 1;
        let at = terminal.backend_mut().get_cursor_position().unwrap();
        assert_eq!(
            (usize::from(at.x), usize::from(at.y)),
            (slash + column, y),
            "{typed} with {lefts} moves left"
        );
    }
    // A long query: the cursor at its end stays on the line, in the list pane.
    let mut app = crowded();
    update(&mut app, Msg::Action(Action::StartSearch));
    for c in "a-skill-with-a-name-far-longer".chars() {
        update(&mut app, Msg::Action(Action::Type(c)));
    }
    let mut terminal = test_terminal(60, 15);
    terminal
        .draw(|frame| drop(view::draw(frame, &app)))
        .unwrap();
    let text = format!("{}", terminal.backend());
    // The list pane has the 60 columns (a narrow terminal puts it above the detail): the query
    // shows whole, the cursor after it, inside the pane.
    let line = text
        .lines()
        .find(|l| l.contains("far-longer"))
        .unwrap_or_else(|| panic!("no search line:\n{text}"));
    assert!(line.contains("│/a-skill-with-a-name-far-longer "), "{line}");
    let at = terminal.backend_mut().get_cursor_position().unwrap();
    assert_eq!(at.x, 1 + 1 + 30, "{at:?}");
}

/// The list's column widths are measured once and kept until the skills shown change: after a
/// search, a filter or a toggle of every agent, the list is drawn as a fresh app draws it.
#[test]
fn the_kept_column_widths_follow_what_is_shown() {
    let draw = |app: &App| {
        let mut terminal = test_terminal(200, 50);
        terminal.draw(|frame| drop(view::draw(frame, app))).unwrap();
        format!("{}", terminal.backend())
    };
    let steps: &[&[Action]] = &[
        &[Action::StartSearch, Action::Type('b'), Action::AcceptSearch],
        &[Action::ToggleAllAgents],
        &[Action::CycleSource, Action::CycleSource],
        &[Action::ClearFilters],
    ];
    let mut kept = crowded();
    draw(&kept);
    let mut done: Vec<Action> = Vec::new();
    for step in steps {
        for &action in *step {
            update(&mut kept, Msg::Action(action));
            done.push(action);
        }
        let mut fresh = crowded();
        for &action in &done {
            update(&mut fresh, Msg::Action(action));
        }
        assert_eq!(draw(&kept), draw(&fresh), "after {done:?}");
    }
}
