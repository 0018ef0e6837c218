//! The app shows the agents installed on the machine, and `A` every agent: the update cases
//! (what the agent filter cycles, what the toggle resets), the destinations an import offers,
//! and snapshots of the list, the detail and the roots both ways.

use std::path::PathBuf;

use crate::common::app::{SIZES, demo, settings};
use crate::common::deck::{deck, root};
use skilldeck::roots::{AgentId, Scope};
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::import::{DestinationView, Import, Picker};
use skilldeck::tui::keymap::{self, Mode};
use skilldeck::tui::model::Deck;
use skilldeck::tui::msg::{Action, Msg};
use skilldeck::tui::update::update;

/// The test deck on a machine that has only Claude Code, with a root only Codex reads.
fn claude_only() -> App {
    let mut app = App::new(Setup::default());
    let base = deck();
    let mut roots = base.roots.clone();
    let mut codex_root = root("~/.codex/skills", 0);
    codex_root.agents = vec![AgentId::CODEX];
    codex_root.owners = vec![AgentId::CODEX];
    roots.push(codex_root);
    let deck =
        Deck::from_views(base.skills.clone(), roots).with_installed(vec![AgentId::CLAUDE_CODE]);
    update(&mut app, Msg::Started);
    update(&mut app, Msg::ScanDone(Box::new(deck)));
    app
}

fn act(app: &mut App, action: Action) {
    update(app, Msg::Action(action));
}

#[test]
fn the_agent_filter_cycles_only_the_agents_shown() {
    let mut app = claude_only();
    assert_eq!(app.shown_agents(), [AgentId::CLAUDE_CODE]);
    act(&mut app, Action::CycleAgent);
    assert_eq!(app.filter.agent, Some(AgentId::CLAUDE_CODE));
    act(&mut app, Action::CycleAgent);
    assert_eq!(app.filter.agent, None);

    act(&mut app, Action::ToggleAllAgents);
    assert!(app.all_agents);
    assert_eq!(app.shown_agents().len(), AgentId::all().count());
    act(&mut app, Action::CycleAgent);
    act(&mut app, Action::CycleAgent);
    assert_eq!(app.filter.agent, Some(AgentId::CODEX));
    // Back to the installed agents: a filter on one no longer shown goes.
    act(&mut app, Action::ToggleAllAgents);
    assert!(!app.all_agents);
    assert_eq!(app.filter.agent, None);
    assert!(app.status.as_ref().unwrap().text.contains("installed here"));
}

#[test]
fn a_root_of_an_agent_not_installed_is_hidden_unless_every_agent_is_shown() {
    let mut app = claude_only();
    let paths = |app: &App| -> Vec<String> {
        app.shown_roots()
            .iter()
            .map(|&i| app.deck.roots[i].shown_path.clone())
            .collect()
    };
    assert!(!paths(&app).contains(&"~/.codex/skills".to_owned()));
    act(&mut app, Action::ShowRoots);
    act(&mut app, Action::ToggleAllAgents);
    assert!(paths(&app).contains(&"~/.codex/skills".to_owned()));
    act(&mut app, Action::Bottom);
    assert_eq!(app.selected_root().unwrap().shown_path, "~/.codex/skills");
    act(&mut app, Action::ToggleAllAgents);
    assert!(app.root_selected < app.shown_roots().len());
}

#[test]
fn the_toggle_is_one_key_of_the_keymap_in_the_list_the_roots_and_the_destinations() {
    for mode in [Mode::Skills, Mode::Roots, Mode::Destination] {
        assert_eq!(keymap::key_for(mode, Action::ToggleAllAgents), "A");
    }
    assert!(!keymap::binds(Mode::Changed, Action::ToggleAllAgents));
    assert!(keymap::hints(Mode::Skills).contains(&("A".to_owned(), "all agents")));
}

fn destination(agent: AgentId, root: &str, readers: &[AgentId]) -> DestinationView {
    DestinationView {
        agent,
        scope: Scope::User,
        root: PathBuf::from(root),
        shown_root: root.to_owned(),
        readers: readers.to_vec(),
        shadows: Vec::new(),
        distrusting: Vec::new(),
    }
}

#[test]
fn an_import_offers_each_folder_of_the_agents_shown_once() {
    let cline = AgentId::from_id("cline").unwrap();
    let mut import = Import::new(1, Picker::default());
    import.every_destination = vec![
        destination(
            AgentId::CLAUDE_CODE,
            "/h/.claude/skills",
            &[AgentId::CLAUDE_CODE],
        ),
        destination(
            AgentId::CODEX,
            "/h/.agents/skills",
            &[AgentId::CODEX, cline],
        ),
        destination(cline, "/h/.agents/skills", &[AgentId::CODEX, cline]),
        destination(
            AgentId::WINDSURF,
            "/h/.codeium/windsurf/skills",
            &[AgentId::WINDSURF],
        ),
    ];
    let installed = [AgentId::CLAUDE_CODE, cline];
    import.show_destinations(false, Some(&installed));
    let roots: Vec<&str> = import
        .destinations
        .iter()
        .map(|d| d.shown_root.as_str())
        .collect();
    assert_eq!(roots, ["/h/.claude/skills", "/h/.agents/skills"]);
    import.destination = 1;
    import.show_destinations(true, Some(&installed));
    assert_eq!(import.destinations.len(), 3);
    // The folder under the cursor stays under it.
    assert_eq!(
        import.destinations[import.destination].shown_root,
        "/h/.agents/skills"
    );
    // A machine with none of them installed is offered every folder.
    import.show_destinations(false, Some(&[]));
    assert_eq!(import.destinations.len(), 3);
}

#[test]
fn every_agent_shown_in_the_list_the_detail_and_the_roots() {
    for (name, keys) in [("all_agents", "A"), ("all_agents_roots", "2A")] {
        for size in SIZES {
            let (_sandbox, mut screen) = demo(size);
            screen.press(keys);
            settings().bind(|| {
                insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen.backend());
            });
        }
    }
}
