//! The app as it draws: every view and overlay at 80×24 and 120×40, driven through the real
//! runtime (its scan and SKILL.md workers included) on the demo machine with `TestBackend`,
//! recorded with insta. Temporary paths and digests are filtered out of the snapshots; colour
//! is checked cell by cell where it carries meaning.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::{Color, Modifier};

use crate::common::app::{SIZES, Screen, demo, demo_with, settings};
use skilldeck::roots;
use skilldeck::roots::Environment;
use skilldeck::scan::Progress;
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::headless::{self, Headless};
use skilldeck::tui::msg::Msg;
use skilldeck::tui::theme::Theme;

/// Snapshot the screen after `keys` on the demo machine, at both sizes.
fn snapshot_demo(name: &str, keys: &str) {
    for size in SIZES {
        let (_sandbox, mut screen) = demo(size);
        screen.press(keys);
        settings().bind(|| {
            insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen.backend());
        });
    }
}

#[test]
fn skill_list_with_detail_and_preview() {
    snapshot_demo("skills", "");
}

#[test]
fn drifted_filter() {
    snapshot_demo("drifted", "d");
}

#[test]
fn search_line_while_typing() {
    snapshot_demo("search", "/re");
}

#[test]
fn lint_problems_in_the_detail() {
    snapshot_demo("problems", "/meeting\n");
}

#[test]
fn a_plugin_skill_sorted_by_source_with_the_preview_scrolled() {
    snapshot_demo("sorted_preview", "o\tjjj\tjj");
}

#[test]
fn roots_view() {
    snapshot_demo("roots", "2jj");
}

#[test]
fn help_overlay() {
    snapshot_demo("help", "?");
}

#[test]
fn message_overlay() {
    for size in SIZES {
        let (_sandbox, mut screen) = demo(size);
        screen.send(Msg::Failed(
            "The scan stopped: a worker thread panicked".to_owned(),
        ));
        settings().bind(|| {
            insta::assert_snapshot!(format!("message_{}x{}", size.0, size.1), screen.backend());
        });
    }
}

/// A failure that arrives while a path is being typed is drawn over the prompt, which is still
/// there, with what was typed, once the message is closed.
#[test]
fn a_message_over_the_export_prompt() {
    for size in SIZES {
        let (_sandbox, mut screen) = demo(size);
        screen.press("e-v2");
        screen.send(Msg::Failed(
            "The scan stopped: a worker thread panicked".to_owned(),
        ));
        settings().bind(|| {
            insta::assert_snapshot!(
                format!("message_over_export_{}x{}", size.0, size.1),
                screen.backend()
            );
        });
        screen.press("\x1b");
        let text = screen.text();
        assert!(text.contains(".tar.gz-v2"), "{text}");
        assert!(!text.contains("a worker thread panicked"), "{text}");
    }
}

#[test]
fn scan_in_progress() {
    for size in SIZES {
        let tmp = tempfile::tempdir().unwrap();
        let machine = roots::Machine::new(Environment::new(tmp.path()), tmp.path());
        let mut screen = Headless::new(
            headless::test_terminal(size.0, size.1),
            App::new(Setup::default()),
            machine,
        )
        .unwrap();
        // The scan's own messages are not taken in: the screen is the one of a scan under way.
        screen.runtime.start();
        screen
            .send(Msg::ScanProgress(Progress {
                done: 1200,
                total: 4800,
            }))
            .unwrap();
        settings().bind(|| {
            insta::assert_snapshot!(format!("scanning_{}x{}", size.0, size.1), screen.backend());
        });
    }
}

#[test]
fn a_terminal_too_small_says_so() {
    let (_sandbox, mut screen) = demo((50, 12));
    screen.press("");
    settings().bind(|| {
        insta::assert_snapshot!("too_small_50x12", screen.backend());
    });
}

#[test]
fn no_skills_found() {
    for size in SIZES {
        let tmp = tempfile::tempdir().unwrap();
        let machine = roots::Machine::new(Environment::new(tmp.path()), tmp.path());
        let screen = Screen::open(machine, Setup::default(), size);
        settings().bind(|| {
            insta::assert_snapshot!(format!("empty_{}x{}", size.0, size.1), screen.backend());
        });
    }
}

/// Text from disk with escape sequences, tabs, a bidi override and wide characters reaches the
/// screen as plain, aligned text.
#[test]
fn hostile_and_wide_text_is_sanitised() {
    let machine = crate::common::Machine::new();
    let skills = machine.home.join(".claude/skills");
    crate::common::write_files(
        &skills.join("翻訳ツール"),
        &[
            (
                "SKILL.md",
                "---\nname: 翻訳ツール\ndescription: \"\\e[31mRED\\e[0m\\ttabbed \\u202Eevil\"\n---\n# 見出し\n\tindented\x1b[2J\x1b]0;title\x07 after\r\nprogress 50%\rprogress 100%\n",
            ),
            ("evil\x1b[2Jname.txt", "x"),
        ],
    );
    crate::common::write_files(
        &skills.join("plain"),
        &[("SKILL.md", "---\nname: plain\ndescription: ok\n---\nbody\n")],
    );
    for size in SIZES {
        let setup = Setup::default();
        let machine = roots::Machine::new(machine.env(), &machine.start);
        let mut screen = Screen::open(machine, setup, size);
        screen.press("j");
        let text = screen.text();
        assert_no_controls(screen.buffer());
        // The escapes YAML decoded in the description, and the raw ones in the body, are gone;
        // the frontmatter's own text (`\e[31m` written out) is shown as the text it is.
        assert!(text.contains("RED tabbed evil"), "{text}");
        // (A narrow terminal shows the SKILL.md below the list once it has the keyboard.)
        if size.0 >= 110 {
            assert!(text.contains("indented after"), "{text}");
        }
        // (A file name holding one is drawn escaped, so only that `[2J` may remain.)
        let unescaped = text.replace("\\u{1b}[2J", "");
        assert!(
            !unescaped.contains("[2J") && !text.contains("]0;"),
            "{text}"
        );
        // What was dropped is not hidden: the skill says its description holds such characters.
        assert!(text.contains("the description holds invisible"), "{text}");
        settings().bind(|| {
            insta::assert_snapshot!(format!("sanitised_{}x{}", size.0, size.1), screen.backend());
        });
        // The end of the SKILL.md: a lone CR starts a line rather than vanishing, and the file
        // whose name holds an escape is listed with it escaped, never as another name.
        screen.press("\tG");
        let text = screen.text();
        assert_no_controls(screen.buffer());
        assert!(text.contains("evil\\u{1b}[2Jname.txt"), "{text}");
        screen.press("\t");
        assert!(
            screen.text().contains("indented after"),
            "{}",
            screen.text()
        );
        screen.press("G");
        let text = screen.text();
        assert_no_controls(screen.buffer());
        assert!(text.contains("progress 50%"), "{text}");
        assert!(text.contains("progress 100%"), "{text}");
    }
}

fn assert_no_controls(buffer: &Buffer) {
    for cell in buffer.content() {
        assert!(
            !cell.symbol().chars().any(|c| c.is_control()),
            "a control character reached the screen: {:?}",
            cell.symbol()
        );
    }
}

/// The first cell on screen whose symbol is `symbol`.
fn find(buffer: &Buffer, symbol: &str) -> (u16, u16) {
    let area = buffer.area;
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            if buffer[(x, y)].symbol() == symbol {
                return (x, y);
            }
        }
    }
    panic!("{symbol:?} is not on screen");
}

#[test]
fn state_markers_carry_their_colour() {
    let (_sandbox, screen) = demo((120, 40));
    let buffer = screen.buffer();
    let modified = &buffer[find(buffer, "▲")];
    assert_eq!(modified.fg, Color::Red);
    assert!(modified.modifier.contains(Modifier::BOLD));
    assert_eq!(buffer[find(buffer, "●")].fg, Color::Green);
    assert_eq!(buffer[find(buffer, "○")].fg, Color::Gray);
    // The selected row stands out from the rest.
    let (_, row) = find(buffer, "○");
    assert_eq!(buffer[(2, row)].bg, Color::DarkGray);
    assert_eq!(buffer[(2, row + 1)].bg, Color::Reset);
    // The record verdict of the drifted skill is red as well (release-notes, the second: the
    // first is a plugin's skill, which records no digest).
    let (_sandbox, mut screen) = demo((120, 40));
    screen.press("dj");
    let buffer = screen.buffer();
    let text = screen.text();
    let line = text.lines().position(|l| l.contains("differs")).unwrap();
    let y = u16::try_from(line).unwrap();
    let x = (0..120)
        .find(|&x| buffer[(x, y)].symbol() == "d" && buffer[(x + 1, y)].symbol() == "i")
        .unwrap();
    assert_eq!(buffer[(x, y)].fg, Color::Red);
}

#[test]
fn no_color_keeps_the_markers_and_drops_the_colours() {
    let (_sandbox, screen) = demo_with((120, 40), Theme::plain());
    let buffer = screen.buffer();
    for cell in buffer.content() {
        assert_eq!(cell.fg, Color::Reset, "{cell:?}");
        assert_eq!(cell.bg, Color::Reset, "{cell:?}");
    }
    let modified = &buffer[find(buffer, "▲")];
    assert!(modified.modifier.contains(Modifier::BOLD));
    let (_, row) = find(buffer, "○");
    assert!(buffer[(2, row)].modifier.contains(Modifier::REVERSED));
}

/// The runtime hands `update` key presses only: a release (Windows, or a terminal with the
/// kitty keyboard protocol reporting event types) must not move the cursor a second time.
#[test]
fn key_releases_and_repeats_are_not_presses() {
    use ratatui::crossterm::event::KeyEventKind;
    let (_sandbox, mut screen) = demo((120, 40));
    let selected = |screen: &Screen| screen.runtime.app().selected;
    let key = |kind| {
        Event::Key(KeyEvent::new_with_kind(
            KeyCode::Char('j'),
            KeyModifiers::NONE,
            kind,
        ))
    };
    assert!(!screen.runtime.handle(&key(KeyEventKind::Release)));
    assert_eq!(selected(&screen), 0);
    assert!(screen.runtime.handle(&key(KeyEventKind::Press)));
    assert_eq!(selected(&screen), 1);
}

/// The mouse does nothing until it is turned on; then a click selects the row under it.
#[test]
fn the_mouse_is_off_until_turned_on() {
    use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let (_sandbox, mut screen) = demo((120, 40));
    // Screen row 4 is the second skill: the header line, the border and the column heads come first.
    let click = Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 10,
        row: 4,
        modifiers: KeyModifiers::NONE,
    });
    assert!(!screen.runtime.handle(&click));
    assert_eq!(screen.runtime.app().selected, 0);
    screen.press("m");
    assert!(screen.runtime.app().mouse);
    assert!(screen.runtime.handle(&click));
    assert_eq!(screen.runtime.app().selected, 1);
}

/// A skill whose name holds what a terminal acts on is listed with it escaped, so it is never
/// drawn as the name of another skill.
#[test]
fn a_hostile_name_is_drawn_escaped_not_as_another_name() {
    let machine = crate::common::Machine::new();
    let skills = machine.home.join(".claude/skills");
    for (folder, name) in [
        ("pdf\u{200b}", "pdf\\u200b"),
        ("tidy\u{1b}[2J", "tidy\\e[2J"),
    ] {
        crate::common::write_files(
            &skills.join(folder),
            &[(
                "SKILL.md",
                &format!("---\nname: \"{name}\"\ndescription: ok\n---\n"),
            )],
        );
    }
    crate::common::write_files(
        &skills.join("pdf"),
        &[("SKILL.md", "---\nname: pdf\ndescription: ok\n---\n")],
    );
    let on = roots::Machine::new(machine.env(), &machine.start);
    let screen = Screen::open(on, Setup::default(), (120, 40));
    assert_no_controls(screen.buffer());
    let text = screen.text();
    assert!(text.contains("pdf\\u{200b}"), "{text}");
    assert!(text.contains("tidy\\u{1b}[2J"), "{text}");
}

#[test]
fn the_skills_an_agent_turns_off_with_the_detail_saying_for_whom() {
    // release-notes: Claude Code's skillOverrides sets it "off".
    snapshot_demo("turned_off", "O");
}

#[test]
fn the_copies_of_a_shadowed_name() {
    snapshot_demo("copies", "S");
}

#[test]
fn two_marked_skills_snapshotted_with_one_question_and_one_summary() {
    // pdf-forms and release-notes marked with Space, snapshotted, the summary up.
    snapshot_demo("batch_snapshot_confirm", "jjjjjjjjj  s");
    snapshot_demo("batch_snapshot_summary", "jjjjjjjjj  sy");
}
