//! The managing flows of the app (marks, one question and one progress for every marked skill,
//! the agent and scope pickers, the plan of a link with its shadowing, the copies of a name,
//! undo, the turned-off filter), driven through `update` by messages alone: the operations'
//! answers are injected as the workers would send them, so each flow is checked (and drawn,
//! with `TestBackend`) without touching a file.

use std::path::PathBuf;

use crate::common::app::settings;
use crate::common::deck::{dir, laid, managed_deck, pane};
use skilldeck::operations::undo::UndoError;
use skilldeck::roots::{AgentId, Scope};
use skilldeck::tui::app::{App, Overlay, Setup};
use skilldeck::tui::failed::{PlanError, TaskError};
use skilldeck::tui::geometry::Panes;
use skilldeck::tui::headless::test_terminal;
use skilldeck::tui::keymap::Mode;
use skilldeck::tui::manage::{
    Batch, BatchEvent, Destination, How, Job, PlanView, Summary, Target, Then, Value,
};
use skilldeck::tui::msg::{Action, Changes, Effect, Msg};
use skilldeck::tui::theme::Theme;
use skilldeck::tui::update::update;
use skilldeck::tui::view;

use Action::*;

/// The app after a scan of [`managed_deck`], drawn once at 100×30.
fn loaded() -> App {
    let mut app = App::new(Setup {
        work_dir: "~/work".to_owned(),
        theme: Theme::plain(),
        ..Setup::default()
    });
    update(&mut app, Msg::Started);
    update(&mut app, Msg::ScanDone(Box::new(managed_deck())));
    update(&mut app, Msg::Changes(Ok(Changes::default())));
    update(
        &mut app,
        laid(Panes {
            list: pane(10, 0),
            detail: pane(8, 0),
            preview: pane(6, 0),
            ..Panes::default()
        }),
    );
    app
}

fn press(app: &mut App, actions: &[Action]) -> Vec<Effect> {
    actions
        .iter()
        .flat_map(|&a| update(app, Msg::Action(a)))
        .collect()
}

fn dirs(skills: &[Target]) -> Vec<PathBuf> {
    skills.iter().map(|t| t.dir.clone()).collect()
}

fn target(name: &str, dir: PathBuf) -> Target {
    let shown_dir = format!("~{}", dir.display());
    Target {
        name: name.to_owned(),
        dir,
        shown_dir,
    }
}

fn project_alpha() -> PathBuf {
    PathBuf::from("/project/skills/alpha")
}

/// The screen as the app draws it at `width` × `height`.
fn drawn_at(app: &App, (width, height): (u16, u16)) -> String {
    let mut terminal = test_terminal(width, height);
    terminal
        .draw(|frame| {
            view::draw(frame, app);
        })
        .unwrap();
    terminal.backend().to_string()
}

/// The screen at 80×24 and 120×40.
fn snapshot(name: &str, app: &App) {
    for size in crate::common::app::SIZES {
        let text = drawn_at(app, size);
        settings().bind(|| insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), text));
    }
}

/// Alpha (the user's copy) and its project copy marked with Space, the cursor gone past them.
fn two_marked() -> App {
    let mut app = loaded();
    press(&mut app, &[ToggleMark, ToggleMark]);
    app
}

#[test]
fn space_marks_and_moves_on_and_the_list_says_how_many() {
    let mut app = loaded();
    press(&mut app, &[ToggleMark]);
    assert_eq!(app.marked.len(), 1);
    assert!(app.marked.contains(&dir("alpha")));
    assert_eq!(app.selected, 1, "the cursor goes to the next skill");
    press(&mut app, &[ToggleMark, Up]);
    assert_eq!(app.marked.len(), 2);
    snapshot("manage_two_marked", &app);
    // Space on a marked skill unmarks it.
    press(&mut app, &[ToggleMark]);
    assert_eq!(app.marked.len(), 1);
    press(&mut app, &[ClearMarks]);
    assert!(app.marked.is_empty());
    assert_eq!(app.status.as_ref().unwrap().text, "1 skill unmarked.");
}

#[test]
fn a_batch_asks_once_shows_one_progress_and_ends_with_a_summary() {
    let mut app = two_marked();
    assert!(press(&mut app, &[Remove]).is_empty());
    let Overlay::Confirm(question) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert_eq!(question.title, "Remove 2 skills?");
    let Effect::Run(batch) = &question.effect else {
        panic!("{:?}", question.effect)
    };
    assert_eq!(batch.job, Job::Remove);
    assert_eq!(dirs(&batch.skills), [dir("alpha"), project_alpha()]);
    let id = batch.id;
    snapshot("manage_batch_confirm", &app);

    let effects = press(&mut app, &[Confirm]);
    assert!(matches!(effects.as_slice(), [Effect::Run(Batch { id: i, .. })] if *i == id));
    assert_eq!(app.mode(), Mode::Working);
    assert!(app.waiting());
    update(
        &mut app,
        Msg::Batch {
            id,
            event: BatchEvent::Progress {
                done: 1,
                current: "alpha".to_owned(),
            },
        },
    );
    snapshot("manage_batch_progress", &app);
    // Keys other than stop do nothing while it runs; stop is asked once.
    assert!(press(&mut app, &[Down, Remove]).is_empty());
    assert_eq!(press(&mut app, &[Back]), [Effect::StopBatch { id }]);
    assert!(press(&mut app, &[Back]).is_empty());

    // A batch's news for another batch is dropped.
    update(
        &mut app,
        Msg::Batch {
            id: id + 100,
            event: BatchEvent::Done(Summary::default()),
        },
    );
    assert_eq!(app.mode(), Mode::Working);
    let effects = update(
        &mut app,
        Msg::Batch {
            id,
            event: BatchEvent::Done(Summary {
                title: "Removing: 1 of 2 done".to_owned(),
                done: vec!["alpha: removed ~/skills/alpha; kept as snapshot s-1.".to_owned()],
                refused: vec![
                    "alpha: a project's skill under git is not removed here; remove it with git rm"
                        .to_owned(),
                ],
                ..Summary::default()
            }),
        },
    );
    assert!(
        effects.contains(&Effect::StartScan),
        "the skills are scanned again: {effects:?}"
    );
    assert!(app.marked.is_empty());
    assert_eq!(app.mode(), Mode::Summary);
    snapshot("manage_batch_summary", &app);
    let mut undoing = app.clone();
    press(&mut app, &[Back]);
    assert_eq!(app.mode(), Mode::Skills);

    // u in the summary, as its last line says, undoes what it did: it asks first.
    let u = ratatui::crossterm::event::KeyEvent::new(
        ratatui::crossterm::event::KeyCode::Char('u'),
        ratatui::crossterm::event::KeyModifiers::NONE,
    );
    let action = skilldeck::tui::keymap::resolve(Mode::Summary, &u).expect("u is bound");
    assert_eq!(press(&mut undoing, &[action]), [Effect::AskUndo]);
    update(
        &mut undoing,
        Msg::UndoNext(Ok(Some(vec!["the remove of alpha".to_owned()]))),
    );
    assert_eq!(undoing.mode(), Mode::Confirm);
}

#[test]
fn without_marks_an_action_is_on_the_skill_under_the_cursor() {
    let mut app = loaded();
    press(&mut app, &[Down, Remove]);
    let Overlay::Confirm(question) = &app.overlay else {
        panic!()
    };
    assert_eq!(question.title, "Remove 1 skill?");
    let Effect::Run(batch) = &question.effect else {
        panic!()
    };
    assert_eq!(dirs(&batch.skills), [project_alpha()]);
    // No is no: nothing is asked of a worker.
    assert!(press(&mut app, &[Back]).is_empty());
    assert_eq!(app.overlay, Overlay::None);
}

#[test]
fn snapshot_accept_and_export_of_marked_skills_are_one_batch() {
    let mut app = two_marked();
    press(&mut app, &[Snapshot]);
    let Overlay::Confirm(question) = &app.overlay else {
        panic!()
    };
    assert!(
        matches!(&question.effect, Effect::Run(b) if b.job == Job::Snapshot && b.skills.len() == 2)
    );
    press(&mut app, &[Back, Accept]);
    let Overlay::Confirm(question) = &app.overlay else {
        panic!()
    };
    assert!(matches!(&question.effect, Effect::Run(b) if b.job == Job::Accept));
    press(&mut app, &[Back, Export]);
    let Overlay::Export(prompt) = &app.overlay else {
        panic!()
    };
    assert_eq!(prompt.text.text(), "~/work");
    assert_eq!(prompt.batch.len(), 2);
    press(&mut app, &[Type('/'), Type('x'), Choose]);
    let Overlay::Confirm(question) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert!(
        matches!(&question.effect, Effect::Run(b) if b.job == Job::Export { folder: "~/work/x".to_owned() })
    );
    // With nothing marked, a snapshot is taken at once, as before.
    let mut app = loaded();
    assert_eq!(
        press(&mut app, &[Snapshot]),
        [Effect::TakeSnapshot {
            name: "alpha".to_owned(),
            dir: dir("alpha")
        }]
    );
}

#[test]
fn turning_off_asks_which_agent_and_says_which_have_no_setting() {
    let mut app = loaded();
    press(&mut app, &[Down, Disable]);
    let Overlay::Pick(pick) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    let labels: Vec<(&str, bool)> = pick
        .choices
        .iter()
        .map(|c| (c.label.as_str(), c.refused.is_some()))
        .collect();
    assert_eq!(labels, [("Claude Code", false), ("Cursor", true)]);
    snapshot("manage_agent_picker", &app);
    // Cursor cannot be chosen: the sentence says why, and the picker stays.
    press(&mut app, &[Down, Choose]);
    assert!(matches!(app.overlay, Overlay::Pick(_)));
    let status = app.status.clone().unwrap();
    assert!(status.warning && status.text.starts_with("Cursor has no setting"));
    press(&mut app, &[Up, Choose]);
    // Then which settings file: this copy of alpha is a project's, so the project's first.
    let Overlay::Pick(pick) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert_eq!(
        pick.title,
        "Turn 1 skill off for Claude Code: in which settings?"
    );
    assert_eq!(
        pick.choices[pick.selected].value,
        Value::Scope(Scope::Project)
    );
    press(&mut app, &[Choose]);
    let Overlay::Confirm(question) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert_eq!(question.title, "Turn 1 skill off for Claude Code?");
    assert!(
        question
            .lines
            .iter()
            .any(|l| l.starts_with("Only Claude Code's project settings change"))
    );
    assert!(matches!(
        &question.effect,
        Effect::Run(b) if b.job == Job::Switch {
            agent: AgentId::CLAUDE_CODE,
            off: true,
            scope: Scope::Project,
            whole_plugin: false,
        }
    ));
}

#[test]
fn turning_on_offers_the_agent_whose_settings_turn_it_off() {
    let mut app = loaded();
    // beta: alpha, alpha, beta.
    press(&mut app, &[Down, Down, Enable]);
    let Overlay::Pick(pick) = &app.overlay else {
        panic!()
    };
    assert!(matches!(pick.then, Then::Switch { off: false, .. }));
    // The cursor starts on Codex, whose settings turn beta off.
    assert_eq!(
        pick.choices[pick.selected].value,
        Value::Agent(Some(AgentId::CODEX))
    );
    press(&mut app, &[Choose, Choose]);
    let Overlay::Confirm(question) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert_eq!(question.title, "Turn 1 skill on for Codex?");
    assert_eq!(question.yes, "turn on");
}

#[test]
fn a_plugin_skill_is_said_to_go_off_with_its_plugin() {
    let mut app = loaded();
    // gamma, the plugin's skill, loaded by Codex.
    while app.selected_skill().unwrap().name != "gamma" {
        press(&mut app, &[Down]);
    }
    press(&mut app, &[Disable, Choose, Choose]);
    let Overlay::Confirm(question) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert!(question.lines.iter().any(|l| l.contains("whole plugin")));
    assert!(matches!(
        &question.effect,
        Effect::Run(b) if matches!(b.job, Job::Switch { whole_plugin: true, .. })
    ));
}

fn to_codex_user() -> Destination {
    Destination {
        how: How::Link,
        agent: Some(AgentId::CODEX),
        scope: Scope::User,
        all_agents: false,
    }
}

/// Link pressed on alpha, Codex and the user scope chosen: the plan asked for.
fn planning() -> (App, u64) {
    let mut app = loaded();
    press(&mut app, &[Link]);
    let Overlay::Pick(pick) = &app.overlay else {
        panic!()
    };
    let codex = pick
        .choices
        .iter()
        .position(|c| c.value == Value::Agent(Some(AgentId::CODEX)))
        .unwrap();
    for _ in 0..codex {
        press(&mut app, &[Down]);
    }
    press(&mut app, &[Choose]);
    let Overlay::Pick(pick) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert_eq!(pick.choices[0].value, Value::Scope(Scope::User));
    let effects = press(&mut app, &[Choose]);
    let [
        Effect::Plan {
            request,
            to,
            skills,
        },
    ] = effects.as_slice()
    else {
        panic!("{effects:?}")
    };
    assert_eq!(*to, to_codex_user());
    assert_eq!(dirs(skills), [dir("alpha")]);
    (app, *request)
}

#[test]
fn a_link_shows_its_plan_and_shadowing_needs_a_second_yes() {
    let (mut app, request) = planning();
    assert_eq!(app.tasks, 1, "the plan is awaited");
    update(
        &mut app,
        Msg::Planned {
            request,
            to: to_codex_user(),
            plans: vec![(
                target("alpha", dir("alpha")),
                Ok(PlanView {
                    from: "~/skills/alpha".to_owned(),
                    to: "~/.codex/skills/alpha".to_owned(),
                    shadowing: vec![
                        "Codex would run ~/.codex/skills/alpha instead of ~/.agents/skills/alpha"
                            .to_owned(),
                    ],
                }),
            )],
        },
    );
    assert_eq!(app.tasks, 0);
    snapshot("manage_link_plan_shadowing", &app);
    assert!(
        press(&mut app, &[Confirm]).is_empty(),
        "a second question first"
    );
    let Overlay::Confirm(again) = &app.overlay else {
        panic!()
    };
    snapshot("manage_link_force", &app);
    assert!(
        matches!(&again.effect, Effect::Run(b) if b.job == Job::Share { to: to_codex_user(), force: true })
    );
    let effects = press(&mut app, &[Confirm]);
    assert!(
        matches!(effects.as_slice(), [Effect::Run(b)] if b.job == Job::Share { to: to_codex_user(), force: true })
    );
}

#[test]
fn a_link_that_shadows_nothing_is_not_forced_and_a_refused_plan_is_said() {
    let (mut app, request) = planning();
    update(
        &mut app,
        Msg::Planned {
            request,
            to: to_codex_user(),
            plans: vec![(
                target("alpha", dir("alpha")),
                Ok(PlanView {
                    from: "~/skills/alpha".to_owned(),
                    to: "~/.codex/skills/alpha".to_owned(),
                    shadowing: Vec::new(),
                }),
            )],
        },
    );
    let effects = press(&mut app, &[Confirm]);
    assert!(
        matches!(effects.as_slice(), [Effect::Run(b)] if b.job == Job::Share { to: to_codex_user(), force: false })
    );

    let (mut app, request) = planning();
    // An answer to an older request is dropped.
    update(
        &mut app,
        Msg::Planned {
            request: request - 1,
            to: to_codex_user(),
            plans: Vec::new(),
        },
    );
    assert_eq!(app.overlay, Overlay::None);
    update(
        &mut app,
        Msg::Planned {
            request,
            to: to_codex_user(),
            plans: vec![(
                target("alpha", dir("alpha")),
                Err(PlanError::Gone("~/skills/alpha".to_owned())),
            )],
        },
    );
    let Overlay::Summary(summary) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert_eq!(
        summary.refused,
        ["alpha: not possible: no skill is at ~/skills/alpha any more"]
    );
}

#[test]
fn the_copies_of_a_name_show_who_runs_which_and_act_on_the_one_under_the_cursor() {
    let mut app = loaded();
    press(&mut app, &[ShowCopies]);
    assert_eq!(app.mode(), Mode::Copies);
    assert_eq!(app.copy_rows().len(), 2);
    assert_eq!(app.selected_copy().unwrap().dir, dir("alpha"));
    snapshot("manage_copies", &app);
    press(&mut app, &[Down, Remove]);
    let Overlay::Confirm(question) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    let Effect::Run(batch) = &question.effect else {
        panic!()
    };
    assert_eq!(dirs(&batch.skills), [project_alpha()]);
    press(&mut app, &[Back, MoveTo]);
    assert!(
        matches!(&app.overlay, Overlay::Pick(p) if matches!(p.then, Then::ShareAgent { how: How::Move, .. }))
    );
    press(&mut app, &[Back, Back]);
    assert_eq!(app.mode(), Mode::Skills);
    // A name with one copy has nothing to resolve.
    press(&mut app, &[Down, Down, ShowCopies]);
    assert_eq!(app.mode(), Mode::Skills);
    assert!(app.status.as_ref().unwrap().text.contains("only copy"));
}

#[test]
fn undo_asks_first_saying_what_it_puts_back() {
    let mut app = loaded();
    assert_eq!(press(&mut app, &[Undo]), [Effect::AskUndo]);
    update(
        &mut app,
        Msg::UndoNext(Ok(Some(vec![
            "the remove of 2026-12-01T12:00:00.000Z".to_owned(),
            "~/skills/alpha gets back what snapshot s-1 kept".to_owned(),
        ]))),
    );
    snapshot("manage_undo_question", &app);
    assert_eq!(press(&mut app, &[Confirm]), [Effect::Undo]);
    assert_eq!(app.tasks, 1, "the undo is awaited");
    let effects = update(
        &mut app,
        Msg::TaskDone {
            result: Ok("Undone: the remove of 2026-12-01T12:00:00.000Z"
                .to_owned()
                .into()),
            rescan: true,
        },
    );
    assert_eq!(effects, [Effect::StartScan]);

    let mut app = loaded();
    press(&mut app, &[Undo]);
    update(&mut app, Msg::UndoNext(Ok(None)));
    assert_eq!(app.overlay, Overlay::None);
    assert!(
        app.status
            .as_ref()
            .unwrap()
            .text
            .starts_with("Nothing to undo")
    );
    press(&mut app, &[Undo]);
    update(
        &mut app,
        Msg::UndoNext(Err(TaskError::UndoNext(UndoError::Nothing))),
    );
    assert_eq!(app.mode(), Mode::Message);
}

#[test]
fn the_turned_off_filter_shows_the_skills_an_agent_turns_off_and_the_detail_says_for_whom() {
    let mut app = loaded();
    press(&mut app, &[ToggleDisabled]);
    let names: Vec<&str> = app
        .visible
        .iter()
        .map(|&i| app.deck.skills[i].name.as_str())
        .collect();
    assert_eq!(names, ["beta"]);
    snapshot("manage_turned_off_filter", &app);
    press(&mut app, &[ToggleDisabled]);
    assert_eq!(app.visible.len(), 7);
}

#[test]
fn marks_of_skills_gone_after_a_scan_are_dropped() {
    let mut app = two_marked();
    let mut deck = managed_deck();
    deck.skills.retain(|s| s.dir != project_alpha());
    let deck = skilldeck::tui::model::Deck::from_views(deck.skills, deck.roots);
    update(&mut app, Msg::ScanDone(Box::new(deck)));
    assert_eq!(app.marked.len(), 1);
}

#[test]
fn the_wheel_moves_the_cursor_of_the_copies_and_the_picker_not_the_list_under_them() {
    let mut app = loaded();
    press(&mut app, &[ShowCopies]);
    update(&mut app, Msg::Scroll(skilldeck::tui::msg::Pane::List, 1));
    assert_eq!(app.views.copies().unwrap().selected, 1);
    assert_eq!(app.selected, 0);
    press(&mut app, &[Disable]);
    update(&mut app, Msg::Scroll(skilldeck::tui::msg::Pane::List, 1));
    let Overlay::Pick(pick) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert_eq!(pick.selected, 1);
    assert_eq!(app.selected, 0);
}

#[test]
fn the_copies_close_when_a_scan_finds_one_copy_left() {
    let mut app = loaded();
    press(&mut app, &[ShowCopies]);
    let mut deck = managed_deck();
    deck.skills.retain(|s| s.dir != project_alpha());
    let deck = skilldeck::tui::model::Deck::from_views(deck.skills, deck.roots);
    update(&mut app, Msg::ScanDone(Box::new(deck)));
    assert_eq!(app.views.copies(), None);
    assert_eq!(app.mode(), Mode::Skills);
}

/// A machine with Claude Code whose one skill, `mine`, is a link to a folder of the user's
/// that lies in no root; the folder.
fn linked_in_from_elsewhere() -> (crate::common::Machine, PathBuf) {
    let machine = crate::common::Machine::new();
    let mine = machine.root().join("elsewhere/mine");
    crate::common::write_skill(&mine, &[]);
    std::fs::create_dir_all(machine.home.join(".claude/skills")).unwrap();
    crate::common::symlink(&mine, &machine.home.join(".claude/skills/mine"));
    (machine, mine)
}

#[test]
fn a_remove_that_leaves_the_linked_folder_in_place_says_so_as_the_cli_does() {
    let (machine, mine) = linked_in_from_elsewhere();
    let on = skilldeck::roots::Machine::new(machine.env(), &machine.start);
    let mut screen = crate::common::app::Screen::open(on, Setup::default(), (200, 50));
    screen.press("x").press("y");
    let Overlay::Summary(summary) = &screen.app().overlay else {
        panic!("no summary: {}", screen.text());
    };
    assert_eq!(summary.done.len(), 1, "{summary:?}");
    let line = &summary.done[0];
    assert!(
        line.starts_with("mine: removed ~/.claude/skills/mine.")
            && line.ends_with("lies in no root and was left where it is."),
        "{line}"
    );
    assert!(line.contains(&format!("{}", mine.display())), "{line}");
    assert!(
        screen.text().contains("lies in no root"),
        "{}",
        screen.text()
    );
    assert!(mine.join("SKILL.md").is_file());
    assert!(
        std::fs::symlink_metadata(machine.home.join(".claude/skills/mine")).is_err(),
        "the link is gone"
    );
    // The command line says the same of the same removal.
    let (machine, _) = linked_in_from_elsewhere();
    let output = machine.run_expecting(&["remove", "mine"], 0);
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains("lies in no root and was left where it is"),
        "{said}"
    );
}
