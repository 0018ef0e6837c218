//! Reading a skill, by `update` alone (no terminal, no threads, no files): the detail pane's
//! scroll, the viewer of a skill's files, the editor and the clipboard asked for with the
//! right paths, and the import picker's typed paths, hidden folders and help.

use std::path::PathBuf;

use crate::common::deck::{deck, every_action, laid, pane};
use skilldeck::bundle::browse::FoundKind;
use skilldeck::operations::peek::PeekError;
use skilldeck::tui::app::{App, Overlay, Setup};
use skilldeck::tui::editor::EditorFailed;
use skilldeck::tui::failed::ListingFailed;
use skilldeck::tui::geometry::Panes;
use skilldeck::tui::import::picker::EntryView;
use skilldeck::tui::import::{PlaceView, Step};
use skilldeck::tui::keymap::Mode;
use skilldeck::tui::line::Edit;
use skilldeck::tui::model::{Entry, TreeLine};
use skilldeck::tui::msg::{Action, Effect, Msg, Pane};
use skilldeck::tui::update::update;
use skilldeck::tui::viewer::{Body, FileText, Reading};
use skilldeck::tui::workers::viewer::ReadFailed;

use Action::*;

fn file(depth: usize, name: &str, path: &str, size: u64) -> TreeLine {
    TreeLine {
        depth,
        name: name.to_owned(),
        entry: Entry::File {
            size,
            executable: false,
        },
        path: PathBuf::from(path),
    }
}

fn folder(depth: usize, name: &str, path: &str) -> TreeLine {
    TreeLine {
        depth,
        name: name.to_owned(),
        entry: Entry::Folder,
        path: PathBuf::from(path),
    }
}

/// The app after a scan of [`deck`], alpha (selected) holding `SKILL.md`, a script in a folder
/// with a space, and a picture.
pub fn loaded() -> App {
    let mut app = App::new(Setup::default());
    update(&mut app, Msg::Started);
    let mut deck = deck();
    deck.skills[0].tree = vec![
        file(0, "SKILL.md", "SKILL.md", 120),
        folder(0, "assets", "assets"),
        file(1, "logo.png", "assets/logo.png", 4096),
        folder(0, "my scripts", "my scripts"),
        file(1, "run.sh", "my scripts/run.sh", 33),
    ];
    update(&mut app, Msg::ScanDone(Box::new(deck)));
    app
}

/// The viewer open on alpha's files, the file `run.sh` read.
pub fn reading() -> App {
    let mut app = loaded();
    update(&mut app, Msg::Action(OpenFiles));
    for _ in 0..2 {
        update(&mut app, Msg::Action(Down));
    }
    update(&mut app, Msg::Action(Choose));
    app
}

fn read_request(app: &App) -> u64 {
    app.views.viewer().unwrap().open.as_ref().unwrap().request
}

fn text(lines: usize) -> FileText {
    FileText {
        size: 10,
        body: Body::Text {
            lines: (0..lines).map(|i| format!("line {i}")).collect(),
            cut: false,
        },
    }
}

#[test]
fn the_files_of_a_skill_open_from_the_list_and_read_on_a_worker() {
    let mut app = loaded();
    assert!(update(&mut app, Msg::Action(OpenFiles)).is_empty());
    assert_eq!(app.mode(), Mode::Files);
    let viewer = app.views.viewer().unwrap();
    let shown: Vec<&str> = viewer.files.iter().map(|f| f.shown.as_str()).collect();
    assert_eq!(shown, ["SKILL.md", "assets/logo.png", "my scripts/run.sh"]);
    assert_eq!(viewer.selected, 0, "the cursor starts on SKILL.md");
    // Past the end stays at the end.
    for _ in 0..5 {
        update(&mut app, Msg::Action(Down));
    }
    assert_eq!(app.views.viewer().unwrap().selected, 2);
    let effects = update(&mut app, Msg::Action(Choose));
    let request = read_request(&app);
    assert_eq!(
        effects,
        [Effect::ReadFile {
            request,
            dir: PathBuf::from("/skills/alpha"),
            file: PathBuf::from("my scripts/run.sh"),
        }]
    );
    assert_eq!(app.mode(), Mode::Reading);
    assert!(app.waiting(), "the runtime looks for the answer");
    // An answer to an older request is dropped; the one asked for is shown.
    update(
        &mut app,
        Msg::FileRead {
            request: request - 1,
            file: Ok(text(3)),
        },
    );
    let opened = |app: &App| app.views.viewer().unwrap().open.clone().unwrap();
    assert_eq!(opened(&app).text, Reading::Waiting);
    update(
        &mut app,
        Msg::FileRead {
            request,
            file: Ok(text(100)),
        },
    );
    assert_eq!(opened(&app).text, Reading::Ready(text(100)));
}

#[test]
fn a_file_read_scrolls_by_key_and_wheel_and_steps_to_the_next_and_back() {
    let mut app = reading();
    let request = read_request(&app);
    update(
        &mut app,
        Msg::FileRead {
            request,
            file: Ok(text(100)),
        },
    );
    update(
        &mut app,
        laid(Panes {
            viewer: pane(20, 80),
            ..Panes::default()
        }),
    );
    let scroll = |app: &App| app.views.viewer().unwrap().open.as_ref().unwrap().scroll;
    let cases: &[(Msg, usize)] = &[
        (Msg::Action(Down), 1),
        (Msg::Action(PageDown), 20),
        (Msg::Scroll(Pane::Detail, 3), 23),
        (Msg::Action(Bottom), 80),
        (Msg::Action(Down), 80),
        (Msg::Action(PageUp), 61),
        (Msg::Action(Top), 0),
        (Msg::Action(Up), 0),
    ];
    for (msg, want) in cases {
        let shown = format!("{msg:?}");
        update(&mut app, clone_msg(msg));
        assert_eq!(scroll(&app), *want, "after {shown}");
    }
    // The last file has no next; the one before it is read next.
    assert!(update(&mut app, Msg::Action(NextFile)).is_empty());
    let effects = update(&mut app, Msg::Action(PreviousFile));
    assert!(
        matches!(&effects[..], [Effect::ReadFile { file, .. }] if file == &PathBuf::from("assets/logo.png")),
        "{effects:?}"
    );
    // Back to the list, the cursor on the file last read; back again closes the viewer.
    update(&mut app, Msg::Action(Back));
    assert_eq!(app.mode(), Mode::Files);
    assert_eq!(app.views.viewer().unwrap().selected, 1);
    update(&mut app, Msg::Action(Back));
    assert_eq!(app.mode(), Mode::Skills);
    assert!(app.running);
}

fn clone_msg(msg: &Msg) -> Msg {
    match msg {
        Msg::Action(action) => Msg::Action(*action),
        Msg::Scroll(pane, rows) => Msg::Scroll(*pane, *rows),
        other => panic!("not a case: {other:?}"),
    }
}

#[test]
fn a_file_that_cannot_be_read_says_why_and_a_skill_with_no_files_does_not_open() {
    let mut app = reading();
    let request = read_request(&app);
    update(
        &mut app,
        Msg::FileRead {
            request,
            file: Err(ReadFailed::Unreadable(PeekError::Unreadable {
                path: "my scripts/run.sh".to_owned(),
                source: std::io::Error::other("permission denied"),
            })),
        },
    );
    assert!(matches!(
        &app.views.viewer().unwrap().open.as_ref().unwrap().text,
        Reading::Failed(why) if why.contains("permission denied")
    ));
    // beta's tree is empty: nothing to open, and a sentence says so.
    let mut app = loaded();
    update(&mut app, Msg::Action(Down));
    update(&mut app, Msg::Action(OpenFiles));
    assert!(app.views.viewer().is_none());
    assert!(
        app.status.as_ref().unwrap().text.contains("no file"),
        "{:?}",
        app.status
    );
}

#[test]
fn the_editor_is_asked_for_on_the_right_file() {
    // From the list: the skill's SKILL.md.
    let mut app = loaded();
    assert_eq!(
        update(&mut app, Msg::Action(OpenEditor)),
        [Effect::Edit(PathBuf::from("/skills/alpha/SKILL.md"))]
    );
    // From the list of files: the one under the cursor.
    let mut app = loaded();
    update(&mut app, Msg::Action(OpenFiles));
    update(&mut app, Msg::Action(Down));
    assert_eq!(
        update(&mut app, Msg::Action(OpenEditor)),
        [Effect::Edit(PathBuf::from("/skills/alpha/assets/logo.png"))]
    );
    // From a file read: that file, its folder with a space in its name.
    let mut app = reading();
    assert_eq!(
        update(&mut app, Msg::Action(OpenEditor)),
        [Effect::Edit(PathBuf::from(
            "/skills/alpha/my scripts/run.sh"
        ))]
    );
}

#[test]
fn back_from_the_editor_the_skills_are_scanned_again_and_the_file_read_again() {
    let mut app = reading();
    let request = read_request(&app);
    update(
        &mut app,
        Msg::FileRead {
            request,
            file: Ok(text(50)),
        },
    );
    update(&mut app, Msg::Action(PageDown));
    let effects = update(&mut app, Msg::Edited(Ok(())));
    assert!(effects.contains(&Effect::StartScan), "{effects:?}");
    assert!(
        effects.iter().any(
            |e| matches!(e, Effect::ReadFile { file, .. } if file == &PathBuf::from("my scripts/run.sh"))
        ),
        "{effects:?}"
    );
    assert!(app.messages.is_empty());
    // The scan's summary does not hide where the person is coming back from.
    update(&mut app, Msg::ScanDone(Box::new(deck())));
    assert!(
        app.status.as_ref().unwrap().text.contains("editor"),
        "{:?}",
        app.status
    );
    // An editor that could not start is a message, and the skills are scanned all the same.
    let mut app = loaded();
    let effects = update(
        &mut app,
        Msg::Edited(Err(EditorFailed::NotFound {
            editor: "nope".to_owned(),
        })),
    );
    assert_eq!(effects, [Effect::StartScan]);
    assert_eq!(app.messages.len(), 1);
    assert_eq!(app.mode(), Mode::Message);
}

#[test]
fn the_folder_path_is_copied_raw_and_said_safely() {
    let cases = [
        // (the folder, as shown, what the status line must say)
        (
            "/skills/a b",
            "~/skills/a b",
            "Copied ~/skills/a b to the clipboard.",
        ),
        // A control sequence in a shown path never reaches the status line: it is dropped.
        (
            "/skills/x\u{1b}]0;pwned\u{7}",
            "~/skills/x\u{1b}]0;pwned\u{7}",
            "Copied ~/skills/x to the clipboard.",
        ),
    ];
    for (dir, shown, said) in cases {
        let mut app = loaded();
        let index = app.visible[app.selected];
        app.deck.skills[index].dir = PathBuf::from(dir);
        app.deck.skills[index].shown_dir = shown.to_owned();
        let effects = update(&mut app, Msg::Action(CopyPath));
        assert_eq!(effects, [Effect::Copy(dir.to_owned())]);
        let status = app.status.clone().unwrap().text;
        assert!(!status.chars().any(char::is_control), "{status:?}");
        assert_eq!(status, said);
    }
    // From the viewer too.
    let mut app = reading();
    assert_eq!(
        update(&mut app, Msg::Action(CopyPath)),
        [Effect::Copy("/skills/alpha".to_owned())]
    );
}

#[test]
fn the_detail_pane_scrolls_by_key_and_wheel_within_its_text() {
    let mut app = loaded();
    update(
        &mut app,
        laid(Panes {
            detail: pane(6, 10),
            ..Panes::default()
        }),
    );
    update(&mut app, Msg::Action(NextPane));
    let cases: &[(Msg, usize)] = &[
        (Msg::Action(Down), 1),
        (Msg::Action(PageDown), 6),
        (Msg::Action(PageDown), 10),
        (Msg::Action(Up), 9),
        (Msg::Action(Top), 0),
        (Msg::Scroll(Pane::Detail, 4), 4),
        (Msg::Scroll(Pane::Detail, 40), 10),
        (Msg::Scroll(Pane::Detail, -3), 7),
    ];
    for (msg, want) in cases {
        let shown = format!("{msg:?}");
        update(&mut app, clone_msg(msg));
        assert_eq!(app.detail_scroll, *want, "after {shown}");
        assert_eq!(app.focus, Pane::Detail);
    }
    // Another skill starts at its top.
    update(&mut app, Msg::Scroll(Pane::List, 1));
    assert_eq!(app.detail_scroll, 0);
}

// --- The picker -----------------------------------------------------------------------------

fn place() -> PlaceView {
    let entry = |name: &str, kind| EntryView {
        name: name.to_owned(),
        key: name.to_lowercase(),
        path: PathBuf::from(format!("/dl/{name}")),
        kind,
        hidden: name.starts_with('.'),
    };
    PlaceView {
        dir: PathBuf::from("/dl"),
        shown_dir: "~/dl".to_owned(),
        parent: Some(PathBuf::from("/")),
        entries: vec![
            entry(".config", FoundKind::Folder),
            entry("repos", FoundKind::Folder),
            entry(".old.zip", FoundKind::Archive { size: 9 }),
            entry("team.tar.gz", FoundKind::Archive { size: 99 }),
        ],
    }
}

pub fn picking() -> App {
    let mut app = loaded();
    update(&mut app, Msg::Action(Import));
    let request = app.import.as_ref().unwrap().picker.request;
    update(
        &mut app,
        Msg::Listing {
            request,
            place: Ok(place()),
        },
    );
    app
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        update(app, Msg::Action(Type(c)));
    }
}

fn entries(app: &App) -> Vec<String> {
    let picker = &app.import.as_ref().unwrap().picker;
    let place = picker.place.as_ref().unwrap();
    picker
        .rows()
        .iter()
        .filter_map(|row| match row {
            skilldeck::tui::import::PickRow::Entry(i) => Some(place.entries[*i].name.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn hidden_folders_are_left_out_until_asked_for() {
    let mut app = picking();
    assert_eq!(entries(&app), ["repos", "team.tar.gz"]);
    update(&mut app, Msg::Action(ToggleHidden));
    assert_eq!(
        entries(&app),
        [".config", "repos", ".old.zip", "team.tar.gz"]
    );
    assert_eq!(
        app.status.as_ref().unwrap().text,
        "Hidden entries shown: 2 here."
    );
    // The filter finds them too, while they are shown.
    type_text(&mut app, "o");
    assert_eq!(entries(&app), [".config", "repos", ".old.zip"]);
    update(&mut app, Msg::Action(ToggleHidden));
    assert_eq!(entries(&app), ["repos"]);
    assert_eq!(
        app.status.as_ref().unwrap().text,
        "Hidden entries left out again."
    );
}

#[test]
fn a_typed_path_is_listed_or_read_by_its_ending() {
    let cases: &[(&str, Effect)] = &[
        (
            "/srv/team skills",
            Effect::Browse {
                request: 0,
                dir: Some(PathBuf::from("/srv/team skills")),
            },
        ),
        (
            "~/Downloads",
            Effect::Browse {
                request: 0,
                dir: Some(PathBuf::from("~/Downloads")),
            },
        ),
        (
            "../other",
            Effect::Browse {
                request: 0,
                dir: Some(PathBuf::from("/dl/../other")),
            },
        ),
        (
            "~/in/my skills.zip",
            Effect::ReadBundle {
                session: 0,
                source: PathBuf::from("~/in/my skills.zip"),
            },
        ),
    ];
    for (typed, want) in cases {
        let mut app = picking();
        type_text(&mut app, typed);
        let effects = update(&mut app, Msg::Action(Choose));
        let got = match effects.as_slice() {
            [Effect::Browse { dir, .. }] => Effect::Browse {
                request: 0,
                dir: dir.clone(),
            },
            [Effect::ReadBundle { source, .. }] => Effect::ReadBundle {
                session: 0,
                source: source.clone(),
            },
            other => panic!("{typed}: {other:?}"),
        };
        assert_eq!(&got, want, "{typed}");
    }
}

#[test]
fn a_typed_path_that_cannot_be_listed_stays_typed_and_one_that_can_is_cleared() {
    let mut app = picking();
    type_text(&mut app, "/nope");
    let effects = update(&mut app, Msg::Action(Choose));
    let [Effect::Browse { request, .. }] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    update(
        &mut app,
        Msg::Listing {
            request: *request,
            place: Err(ListingFailed::Unlistable {
                shown: "/nope".to_owned(),
                source: std::io::Error::other("no such folder"),
            }),
        },
    );
    let picker = &app.import.as_ref().unwrap().picker;
    assert_eq!(picker.filter.text(), "/nope");
    assert!(picker.error.is_some());
    // Ctrl-W takes the last folder off, and the line is typed on.
    update(&mut app, Msg::Action(Edit(Edit::EraseWord)));
    type_text(&mut app, "srv");
    let effects = update(&mut app, Msg::Action(Choose));
    let [Effect::Browse { request, dir }] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(dir.as_deref(), Some(std::path::Path::new("/srv")));
    let mut there = place();
    there.dir = PathBuf::from("/srv");
    update(
        &mut app,
        Msg::Listing {
            request: *request,
            place: Ok(there),
        },
    );
    assert!(app.import.as_ref().unwrap().picker.filter.is_empty());
}

#[test]
fn the_picker_edits_its_line_and_keeps_left_for_the_folder_above() {
    let mut app = picking();
    type_text(&mut app, "tam");
    update(&mut app, Msg::Action(Edit(Edit::Home)));
    update(&mut app, Msg::Action(Edit(Edit::EraseForward)));
    update(&mut app, Msg::Action(Type('t')));
    update(&mut app, Msg::Action(Edit(Edit::End)));
    let picker = &app.import.as_ref().unwrap().picker;
    assert_eq!(picker.filter.text(), "tam");
    let effects = update(&mut app, Msg::Action(Parent));
    assert!(
        matches!(&effects[..], [Effect::Browse { dir: Some(dir), .. }] if dir == &PathBuf::from("/")),
        "{effects:?}"
    );
}

#[test]
fn f1_opens_the_help_over_the_picker_and_esc_goes_back_to_it() {
    // `?` is typed there, as every character is (tests/it/tui/text_fields.rs).
    let mut app = picking();
    let f1 = ratatui::crossterm::event::KeyEvent::from(ratatui::crossterm::event::KeyCode::F(1));
    let action = skilldeck::tui::keymap::resolve(app.mode(), &f1).unwrap();
    update(&mut app, Msg::Action(action));
    assert_eq!(app.overlay, Overlay::Help);
    assert_eq!(app.mode(), Mode::Help);
    update(&mut app, Msg::Action(Back));
    assert_eq!(app.overlay, Overlay::None);
    assert_eq!(app.mode(), Mode::Picker);
    assert!(app.import.as_ref().unwrap().picker.filter.is_empty());
    assert!(matches!(app.import.as_ref().unwrap().step, Step::Picking));
}

#[test]
fn every_action_in_the_viewer_is_handled_without_a_panic() {
    let starts: [fn() -> App; 3] = [
        || {
            let mut app = loaded();
            update(&mut app, Msg::Action(OpenFiles));
            app
        },
        reading,
        picking,
    ];
    for start in starts {
        for &first in &every_action() {
            for &second in &every_action() {
                let mut app = start();
                update(&mut app, Msg::Action(first));
                update(&mut app, Msg::Action(second));
                if let Some(viewer) = app.views.viewer() {
                    assert!(viewer.selected < viewer.files.len().max(1));
                }
            }
        }
    }
}

#[test]
fn the_wheel_scrolls_the_viewer_wherever_the_pointer_is() {
    use ratatui::crossterm::event::{KeyModifiers, MouseEvent, MouseEventKind};
    let mut app = reading();
    app.mouse = true;
    for (kind, rows) in [
        (MouseEventKind::ScrollDown, 3),
        (MouseEventKind::ScrollUp, -3),
    ] {
        let event = MouseEvent {
            kind,
            column: 10,
            row: 5,
            modifiers: KeyModifiers::NONE,
        };
        let msg = skilldeck::tui::mouse::translate(&app, &event);
        assert!(
            matches!(msg, Some(Msg::Scroll(_, r)) if r == rows),
            "{msg:?}"
        );
    }
}
