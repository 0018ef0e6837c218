//! Every text field of the app takes every printable key typed into it (issue 34): the new
//! user typed a folder name holding a `j` into the import picker's filter and the cursor moved
//! instead. While a field has focus, a letter, digit or sign is text, whatever the same key
//! does in a list; only keys that are not characters (arrows, Enter, Esc, Ctrl-…) act.

use crate::common::app::{Screen, demo};
use skilldeck::tui::app::{App, Overlay};
use skilldeck::tui::keymap::{BINDINGS, Mode};
use skilldeck::tui::line::Edit;
use skilldeck::tui::msg::{Action, Msg};

/// Every printable ASCII character but the space, which the fields take too (below).
fn printable() -> String {
    ('!'..='~').collect()
}

fn search_text(app: &App) -> String {
    app.search.query.text().to_owned()
}

fn filter_text(app: &App) -> String {
    app.import
        .as_ref()
        .map(|import| import.picker.filter.text().to_owned())
        .unwrap_or_default()
}

fn export_text(app: &App) -> String {
    match &app.overlay {
        Overlay::Export(prompt) => prompt.text.text().to_owned(),
        _ => String::new(),
    }
}

/// Type `text` a key at a time into the field `opened` focused, asserting after each key that
/// the field holds what was typed so far and the app is still in `mode`.
fn types_everything(
    field: &str,
    mode: Mode,
    open: impl Fn(&mut Screen),
    read: impl Fn(&App) -> String,
) {
    let (_sandbox, mut screen) = demo((120, 40));
    open(&mut screen);
    assert_eq!(screen.app().mode(), mode, "{field}: {}", screen.text());
    let before = read(screen.app());
    let text = format!("{} a b", printable());
    let mut want = before.clone();
    for c in text.chars() {
        screen.press(&c.to_string());
        want.push(c);
        let app = screen.app();
        assert_eq!(app.mode(), mode, "{field}: {c:?} left the field");
        assert_eq!(read(app), want, "{field}: {c:?} was not typed");
    }
}

#[test]
fn the_search_line_takes_every_printable_key() {
    types_everything(
        "search",
        Mode::Search,
        |s| {
            s.press("/");
        },
        search_text,
    );
}

#[test]
fn the_import_pickers_filter_takes_every_printable_key() {
    types_everything(
        "picker filter",
        Mode::Picker,
        |s| {
            s.press("i");
        },
        filter_text,
    );
}

#[test]
fn the_export_path_takes_every_printable_key() {
    let open = |s: &mut Screen| {
        s.press("e");
        s.send(Msg::Action(Action::Edit(Edit::EraseToStart)));
    };
    types_everything("export path", Mode::Export, open, export_text);
}

#[test]
fn the_batch_export_folder_takes_every_printable_key() {
    let open = |s: &mut Screen| {
        s.press(" j ");
        assert_eq!(s.app().marked.len(), 2, "{}", s.text());
        s.press("e");
        s.send(Msg::Action(Action::Edit(Edit::EraseToStart)));
    };
    types_everything("batch export folder", Mode::Export, open, export_text);
}

/// The mechanism, for every mode with a text field, present and to come: no character key of
/// the table acts there, so none can be swallowed.
#[test]
fn no_character_key_is_bound_where_letters_are_text() {
    let modes = [Mode::Search, Mode::Picker, Mode::Export];
    for mode in modes {
        assert!(mode.types(), "{mode:?}");
        for c in printable().chars().chain([' ']) {
            let key = ratatui::crossterm::event::KeyEvent::from(
                ratatui::crossterm::event::KeyCode::Char(c),
            );
            assert_eq!(
                skilldeck::tui::keymap::resolve(mode, &key),
                Some(Action::Type(c)),
                "{mode:?} {c:?}"
            );
        }
    }
    // Nor does the table offer one there, so the footer and the help never name a key that
    // would be typed instead.
    for binding in BINDINGS {
        for mode in modes.iter().filter(|m| binding.modes.contains(m)) {
            let keys = binding.key_names();
            let letters = keys
                .split(' ')
                .filter(|k| k.len() == 1 && k.chars().all(|c| c.is_ascii_graphic()));
            assert_eq!(
                letters.count(),
                0,
                "{mode:?} binds {keys} to {:?}",
                binding.action
            );
        }
    }
}

/// Typed while the picker's folder is still being listed, a name is kept when the listing
/// arrives: the listing clears only what was typed to reach it (a path), not what came after.
#[test]
fn letters_typed_while_the_picker_lists_its_folder_are_kept() {
    use ratatui::crossterm::event::KeyCode;
    let (_sandbox, mut screen) = demo((120, 40));
    screen.handle_key(KeyCode::Char('i'));
    for c in "proj".chars() {
        screen.handle_key(KeyCode::Char(c));
    }
    screen.settle().unwrap();
    let app = screen.app();
    assert!(app.import.as_ref().unwrap().picker.place.is_some());
    assert_eq!(filter_text(app), "proj");
    // A path typed and entered is cleared once its folder is listed, and what was typed after
    // Enter is kept.
    screen.send(Msg::Action(Action::Edit(Edit::EraseToStart)));
    screen.press("~/");
    screen.handle_key(KeyCode::Enter);
    screen.handle_key(KeyCode::Char('s'));
    screen.settle().unwrap();
    let picker = &screen.app().import.as_ref().unwrap().picker;
    assert!(
        picker.place.as_ref().unwrap().dir.ends_with("home"),
        "{:?}",
        picker.place
    );
    assert_eq!(filter_text(screen.app()), "s");
}
