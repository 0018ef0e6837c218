//! One meaning of "changed" (issue 14.5): "modified" (`▲`, the state: the files differ from
//! their installer's record) and "changed since snapshot" (`±`: they differ from the latest
//! snapshot) are different words and different shapes in the list, the detail, the changed
//! screen and the help, and the gone marker is in the help's list of markers.

use crate::common::app::demo;
use skilldeck::record::State;
use skilldeck::tui::theme::{self, CHANGED_MARKER, GONE_MARKER};

/// The line of `text` that holds `needle`.
fn line_of<'a>(text: &'a str, needle: &str) -> &'a str {
    text.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle} not shown:\n{text}"))
}

#[test]
fn the_markers_of_modified_changed_and_gone_are_three_shapes_no_state_uses() {
    let states: Vec<&str> = State::ALL.into_iter().map(theme::state_marker).collect();
    assert!(!states.contains(&CHANGED_MARKER));
    assert!(!states.contains(&GONE_MARKER));
    assert_ne!(CHANGED_MARKER, GONE_MARKER);
    for marker in [
        theme::PROBLEM_MARKER,
        theme::SHADOWED_MARKER,
        theme::MARKED_MARKER,
        theme::AUDIT_MARKER,
    ] {
        assert_ne!(marker, CHANGED_MARKER);
        assert_ne!(marker, GONE_MARKER);
    }
    // The audit's marker shares the problems' column, so it has a shape of its own.
    assert_ne!(theme::AUDIT_MARKER, theme::PROBLEM_MARKER);
    assert!(!states.contains(&theme::AUDIT_MARKER));
}

#[test]
fn the_list_and_the_detail_tell_modified_from_changed_since_snapshot() {
    let (_sandbox, mut screen) = demo((120, 40));
    let text = screen.text();
    // code-review (the user's copy) has no installer's record and changed since its snapshot;
    // release-notes is modified and changed since its snapshot; pdf-forms matches both.
    assert!(line_of(&text, "◐ code-review").contains("○± ◐"), "{text}");
    assert!(line_of(&text, "release-notes").contains("▲±"), "{text}");
    assert!(
        !line_of(&text, "pdf-forms").contains(CHANGED_MARKER),
        "{text}"
    );
    // The marker has its own colour, not the modified one.
    let buffer = screen.buffer();
    let y = u16::try_from(
        text.lines()
            .position(|l| l.contains("release-notes"))
            .unwrap(),
    )
    .unwrap();
    let x = (0..120)
        .find(|&x| buffer[(x, y)].symbol() == CHANGED_MARKER)
        .unwrap();
    let modified = (0..120).find(|&x| buffer[(x, y)].symbol() == "▲").unwrap();
    assert_ne!(buffer[(x, y)].fg, buffer[(modified, y)].fg);
    // The selected skill's detail says it in words.
    assert!(
        line_of(&text, "Snapshot ").contains("± changed since its snapshot"),
        "{text}"
    );
    screen.press("/release\n");
    let text = screen.text();
    assert!(line_of(&text, "State ").contains("▲ modified"), "{text}");
    assert!(text.contains("files differ from its record"), "{text}");
}

#[test]
fn the_changed_screen_marks_changed_modified_and_gone_apart() {
    let (_sandbox, mut screen) = demo((120, 40));
    screen.press("3");
    let text = screen.text();
    assert!(
        line_of(&text, "code-review").contains("±  code-review"),
        "{text}"
    );
    assert!(
        line_of(&text, "release-notes").contains("±  release-notes"),
        "{text}"
    );
    // The plugin's skill was never snapshotted: modified, as the list's state says.
    assert!(
        line_of(&text, "docs-kit:api-docs").contains("▲  docs-kit:api-docs"),
        "{text}"
    );
    assert!(
        text.contains("Changed since their snapshots: 2 · 1 modified, never snapshotted"),
        "{text}"
    );
}

#[test]
fn the_help_names_every_marker_the_gone_one_included() {
    let (_sandbox, mut screen) = demo((120, 40));
    screen.press("?");
    let mut seen = String::new();
    // The markers are at the end of the help: scroll through all of it.
    for _ in 0..20 {
        seen.push_str(&screen.text());
        screen.press_code(ratatui::crossterm::event::KeyCode::PageDown);
    }
    for needle in [
        "▲ modified",
        "± changed",
        "✗ gone",
        "changed since snapshot: the files",
    ] {
        assert!(
            seen.contains(needle),
            "{needle} missing from the help:\n{seen}"
        );
    }
}
