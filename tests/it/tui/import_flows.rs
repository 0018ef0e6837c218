//! `update` for the import's newer moves, driven by messages alone: taking every skill or
//! none, moving through a long preview to its end with the selected skill kept in view,
//! keeping one skill of those it would replace while the rest installs, and a destination
//! refused in one sentence (kept on the destination step until another is chosen).

use std::path::PathBuf;

use skilldeck::roots::{AgentId, Scope};
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::geometry::PaneGeometry;
use skilldeck::tui::import::{
    BundleView, BundledSkillView, ConflictView, DestinationView, FileView, Step,
};
use skilldeck::tui::keymap::Mode;
use skilldeck::tui::msg::{Action, Effect, ImportEvent, Msg};
use skilldeck::tui::update::update;

use Action::*;

fn keys(actions: &[Action]) -> Vec<Msg> {
    actions.iter().copied().map(Msg::Action).collect()
}

/// `count` skills of three files each; the fourth with a lint problem; ten files left out.
fn bundle(count: usize) -> BundleView {
    let skill = |i: usize| BundledSkillView {
        name: format!("s{i}"),
        shown_name: format!("s{i}"),
        folder: String::new(),
        description: Some("a skill".to_owned()),
        files: ["SKILL.md", "a.md", "b.md"]
            .map(|path| FileView {
                path: path.to_owned(),
                size: 1,
                executable: false,
            })
            .to_vec(),
        size: 3,
        lints: if i == 3 {
            vec!["a problem".to_owned()]
        } else {
            Vec::new()
        },
        audit: Default::default(),
    };
    BundleView {
        source: "~/dl/big.tar".to_owned(),
        skills: (0..count).map(skill).collect(),
        left_out: (0..10).map(|i| format!("extra/{i}.md")).collect(),
        set_aside: 0,
        notes: Vec::new(),
    }
}

fn destinations() -> Vec<DestinationView> {
    let at = |agent, scope, root: &str| DestinationView {
        agent,
        scope,
        root: PathBuf::from(root),
        shown_root: root.to_owned(),
        readers: vec![agent],
        shadows: Vec::new(),
        distrusting: Vec::new(),
    };
    vec![
        at(AgentId::CLAUDE_CODE, Scope::User, "/h/.claude/skills"),
        at(AgentId::CODEX, Scope::User, "/h/.agents/skills"),
    ]
}

fn session(app: &App) -> u64 {
    app.import.as_ref().unwrap().session
}

fn event(app: &App, event: ImportEvent) -> Msg {
    Msg::Import {
        session: session(app),
        event,
    }
}

/// The preview of `bundle(count)`, drawn once in a pane of ten rows.
fn previewing(count: usize) -> App {
    let mut app = App::new(Setup::default());
    update(&mut app, Msg::Action(Import));
    update(&mut app, Msg::Action(Choose));
    // The picker has no folder yet: read the bundle as a worker would answer.
    let read = event(
        &app,
        ImportEvent::Read(Ok((Box::new(bundle(count)), destinations()))),
    );
    if let Some(import) = &mut app.import {
        import.step = Step::Reading("big.tar".to_owned());
    }
    update(&mut app, read);
    app.panes.bundle = PaneGeometry {
        page: 10,
        ..PaneGeometry::default()
    };
    assert_eq!(app.mode(), Mode::Bundle);
    app
}

fn import(app: &App) -> &skilldeck::tui::import::Import {
    app.import.as_ref().unwrap()
}

fn press(app: &mut App, actions: &[Action]) -> Vec<Effect> {
    keys(actions)
        .into_iter()
        .flat_map(|msg| update(app, msg))
        .collect()
}

#[test]
fn all_and_none_take_and_leave_every_skill() {
    let mut app = previewing(14);
    press(&mut app, &[TakeNone]);
    assert!(import(&app).chosen_names().is_empty());
    press(&mut app, &[Down, Down, ToggleSkill]);
    assert_eq!(import(&app).chosen_names(), ["s2"]);
    press(&mut app, &[TakeAll]);
    assert_eq!(import(&app).chosen_names().len(), 14);
    // None taken, Enter stays with a warning naming the keys.
    press(&mut app, &[TakeNone, Choose]);
    assert_eq!(app.mode(), Mode::Bundle);
    assert!(app.status.as_ref().unwrap().warning);
}

#[test]
fn the_preview_keeps_the_selected_block_in_view_and_scrolls_on_to_the_end() {
    // Three heading lines, then blocks of five lines (six for s3): s0 at 3..8, s1 8..13,
    // s2 13..18, s3 18..24; with 14 skills and the left-out part the preview has 86 lines.
    let (blocks, total) = bundle(14).layout();
    assert_eq!((blocks[0].clone(), blocks[3].clone()), (3..8, 18..24));
    assert_eq!(total, 3 + 14 * 5 + 1 + 2 + 10);
    let mut app = previewing(14);
    press(&mut app, &[Down]);
    assert_eq!((import(&app).cursor, import(&app).scroll), (1, 3));
    // s3 with its lint, whole: its last line on the last row.
    press(&mut app, &[Down, Down]);
    assert_eq!((import(&app).cursor, import(&app).scroll), (3, 14));
    // Back up: s1 whole, from its header.
    press(&mut app, &[Up, Up]);
    assert_eq!((import(&app).cursor, import(&app).scroll), (1, 8));

    // To the last skill, then on, one line at a time, to the end and no further.
    let furthest = total - 10;
    press(&mut app, &[Bottom]);
    assert_eq!((import(&app).cursor, import(&app).scroll), (13, furthest));
    press(&mut app, &[Down]);
    assert_eq!(import(&app).scroll, furthest);
    let mut app = previewing(14);
    for _ in 0..13 {
        press(&mut app, &[Down]);
    }
    let last_block_start = bundle(14).layout().0[13].start;
    assert_eq!(import(&app).scroll, last_block_start + 5 - 10);
    for _ in 0..40 {
        press(&mut app, &[Down]);
    }
    assert_eq!((import(&app).cursor, import(&app).scroll), (13, furthest));
    // Page by page from the top reaches it too.
    let mut app = previewing(14);
    for _ in 0..30 {
        press(&mut app, &[PageDown]);
    }
    assert_eq!(import(&app).scroll, furthest);
    // And the top comes back with the first skill.
    press(&mut app, &[Top]);
    assert_eq!((import(&app).cursor, import(&app).scroll), (0, 0));
}

#[test]
fn a_short_preview_never_scrolls() {
    let mut app = previewing(1);
    press(&mut app, &[Down, PageDown, Bottom]);
    // 3 + 5 + 2 + 10 = 20 lines in 10 rows: the end is reached, nothing past it.
    assert_eq!(import(&app).scroll, 10);
    press(&mut app, &[Top]);
    assert_eq!(import(&app).scroll, 0);
}

fn conflict(name: &str, row: usize, forcible: bool) -> ConflictView {
    ConflictView {
        skill: name.to_owned(),
        name: name.to_owned(),
        shown_dir: format!("/h/.claude/skills/{name}"),
        why: "carries no installation record".to_owned(),
        forcible,
        edited: false,
        row,
        files: 0..0,
    }
}

/// A skill of skilldeck's that the person edited since it was installed.
fn edited(name: &str, row: usize) -> ConflictView {
    ConflictView {
        why: "was edited since skilldeck installed it".to_owned(),
        edited: true,
        ..conflict(name, row, true)
    }
}

/// The replacements of s1, s2 (a file in the way) and s4, their diffs at rows 0, 10 and 20.
fn replacing() -> App {
    let mut app = previewing(6);
    press(&mut app, &[Choose, Choose]);
    let conflicts = event(
        &app,
        ImportEvent::Conflicts {
            conflicts: vec![
                conflict("s1", 0, true),
                conflict("s2", 10, false),
                conflict("s4", 20, true),
            ],
            diff: Box::new(skilldeck::tui::diff::DiffView::new(
                "",
                PathBuf::from("/h/.claude/skills"),
                "~/.claude/skills".to_owned(),
                skilldeck::tui::diff::Against::Import,
            )),
        },
    );
    update(&mut app, conflicts);
    assert_eq!(app.mode(), Mode::Replace);
    app
}

fn skipped(app: &App) -> Vec<bool> {
    match &import(app).step {
        Step::Replace { skipped, .. } => skipped.clone(),
        other => panic!("{other:?}"),
    }
}

fn scroll_to(app: &mut App, row: usize) {
    if let Some(Step::Replace { scroll, .. }) = app.import.as_mut().map(|i| &mut i.step) {
        *scroll = row;
    }
}

fn installs(effects: &[Effect]) -> (Vec<String>, bool) {
    match effects {
        [Effect::Install { skills, force, .. }] => (skills.clone(), *force),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_skill_kept_as_it_is_is_left_out_of_the_install_and_the_rest_replaced() {
    let mut app = replacing();
    // What may not be replaced is kept from the start.
    assert_eq!(skipped(&app), [false, true, false]);
    // Space keeps the skill whose diff is shown: s4, at row 20 and below.
    scroll_to(&mut app, 23);
    press(&mut app, &[ToggleSkill]);
    assert_eq!(skipped(&app), [false, true, true]);
    let (skills, force) = installs(&press(&mut app, &[Confirm]));
    assert!(force);
    assert_eq!(skills, ["s0", "s1", "s3", "s5"]);

    // Space again takes it back; on the file in the way it warns and changes nothing.
    let mut app = replacing();
    scroll_to(&mut app, 20);
    press(&mut app, &[ToggleSkill, ToggleSkill]);
    scroll_to(&mut app, 12);
    press(&mut app, &[ToggleSkill]);
    assert!(app.status.as_ref().unwrap().warning);
    assert_eq!(skipped(&app), [false, true, false]);
    let (skills, _) = installs(&press(&mut app, &[Confirm]));
    assert_eq!(skills, ["s0", "s1", "s3", "s4", "s5"]);
}

/// A newer copy over the person's edit keeps the edit unless they pick it: `y` installs the
/// rest, and the edited skill is replaced only once toggled.
#[test]
fn an_edited_skill_is_kept_unless_picked() {
    let start = || {
        let mut app = previewing(6);
        press(&mut app, &[Choose, Choose]);
        let conflicts = event(
            &app,
            ImportEvent::Conflicts {
                conflicts: vec![conflict("s1", 0, true), edited("s4", 20)],
                diff: Box::new(skilldeck::tui::diff::DiffView::new(
                    "",
                    PathBuf::from("/h/.claude/skills"),
                    "~/.claude/skills".to_owned(),
                    skilldeck::tui::diff::Against::Import,
                )),
            },
        );
        update(&mut app, conflicts);
        app
    };
    let mut app = start();
    assert_eq!(skipped(&app), [false, true]);
    let (skills, _) = installs(&press(&mut app, &[Confirm]));
    assert_eq!(skills, ["s0", "s1", "s2", "s3", "s5"]);

    let mut app = start();
    scroll_to(&mut app, 21);
    press(&mut app, &[ToggleSkill]);
    assert_eq!(skipped(&app), [false, false]);
    let (skills, force) = installs(&press(&mut app, &[Confirm]));
    assert!(force);
    assert_eq!(skills, ["s0", "s1", "s2", "s3", "s4", "s5"]);
}

#[test]
fn every_skill_kept_and_none_else_taken_writes_nothing() {
    let mut app = previewing(6);
    // Only s1 and s4 taken.
    press(
        &mut app,
        &[TakeNone, Down, ToggleSkill, Down, Down, Down, ToggleSkill],
    );
    press(&mut app, &[Choose, Choose]);
    let conflicts = event(
        &app,
        ImportEvent::Conflicts {
            conflicts: vec![conflict("s1", 0, true), conflict("s4", 5, true)],
            diff: Box::new(skilldeck::tui::diff::DiffView::new(
                "",
                PathBuf::from("/h/.claude/skills"),
                "~/.claude/skills".to_owned(),
                skilldeck::tui::diff::Against::Import,
            )),
        },
    );
    update(&mut app, conflicts);
    press(&mut app, &[ToggleSkill]);
    scroll_to(&mut app, 5);
    press(&mut app, &[ToggleSkill]);
    let effects = press(&mut app, &[Confirm]);
    assert!(effects.is_empty(), "{effects:?}");
    assert!(app.import.is_none());
    assert!(
        app.status
            .as_ref()
            .unwrap()
            .text
            .contains("nothing was written")
    );
}

#[test]
fn a_refused_destination_is_said_on_the_destination_step_until_another_is_chosen() {
    for why in [
        "~/.claude/skills is not a folder, so no skill can be installed below it: choose another destination.",
        "~/.claude is not a folder, so no skill can be installed below it: choose another destination.",
    ] {
        let mut app = previewing(3);
        press(&mut app, &[Choose, Choose]);
        assert_eq!(import(&app).step, Step::Planning);
        let refused = event(&app, ImportEvent::DestinationRefused(why.to_owned()));
        update(&mut app, refused);
        assert_eq!(app.mode(), Mode::Destination);
        assert_eq!(import(&app).refused.as_deref(), Some(why));
        assert_eq!(app.status.as_ref().unwrap().text, why);
        // Another folder: the sentence goes, and Enter asks for that one.
        press(&mut app, &[Down]);
        assert_eq!(import(&app).refused, None);
        let (skills, force) = installs(&press(&mut app, &[Choose]));
        assert_eq!((skills.len(), force), (3, false));
    }
}

#[test]
fn a_refusal_after_esc_cancels() {
    let mut app = previewing(3);
    press(&mut app, &[Choose, Choose, Back]);
    let refused = event(
        &app,
        ImportEvent::DestinationRefused("x is not a folder".to_owned()),
    );
    update(&mut app, refused);
    assert!(app.import.is_none());
}
