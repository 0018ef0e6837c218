//! The app's flows on the demo machine, drawn with `TestBackend` and recorded with insta at
//! 80×24 and 120×40: the changed view, the diff (against a snapshot and against a plugin's
//! marketplace clone), restore with its question, accept, snapshot, export; the installer
//! filter; and every step of an import, from the picker to the result, with Esc at each step
//! leaving the machine byte for byte as it was. The keys go through the real keymap and
//! runtime, and the workers do the real work on the sandbox.

use ratatui::crossterm::event::KeyCode;
use ratatui::style::{Color, Modifier};

use crate::common::app::{SIZES, Screen, demo, settings};
use skilldeck::demo::Sandbox;
use skilldeck::tui::diff::RowKind;
use skilldeck::tui::import::Step;
use skilldeck::tui::msg::{ImportEvent, Msg};
use skilldeck::tui::views::Loading;

/// Snapshot the screen after `keys` on the demo machine, at both sizes; then `check` it.
fn snapshot_keys(name: &str, keys: &str, check: impl Fn(&Sandbox, &Screen)) {
    for size in SIZES {
        let (sandbox, mut screen) = demo(size);
        screen.press(keys);
        settings().bind(|| {
            insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen.backend());
        });
        check(&sandbox, &screen);
    }
}

/// The added lines of the diff shown (the diff view's, or an import's replacements').
fn added(screen: &Screen) -> Vec<String> {
    let app = screen.runtime.app();
    let view = match (app.views.diff(), app.import.as_ref().map(|i| &i.step)) {
        (Some(diff), _) => match &diff.view {
            Loading::Ready(view) => view.as_ref().clone(),
            other => panic!("no diff: {other:?}"),
        },
        (None, Some(Step::Replace { diff, .. })) => diff.as_ref().clone(),
        _ => panic!("no diff is shown"),
    };
    view.rows
        .iter()
        .filter(|r| r.kind == RowKind::Added)
        .map(|r| r.parts.iter().map(|(t, _)| t.as_str()).collect())
        .collect()
}

fn snap(name: &str, size: (u16, u16), screen: &Screen) {
    settings().bind(|| {
        insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen.backend());
    });
}

#[test]
fn the_changed_view_lists_what_differs_from_its_snapshot() {
    snapshot_keys("changed", "3", |_, screen| {
        let text = screen.text();
        for name in ["code-review", "docs-kit:api-docs", "release-notes"] {
            assert!(text.contains(name), "{name} is not listed:\n{text}");
        }
        assert!(!text.contains("pdf-forms"), "{text}");
    });
}

#[test]
fn the_diff_of_a_skill_against_its_snapshot() {
    snapshot_keys("diff", "3\n", |_, screen| {
        let text = screen.text();
        assert!(text.contains("checklist.md"), "{text}");
        assert!(text.contains("+Go through `checklist.md` last."), "{text}");
        assert!(
            added(screen)
                .iter()
                .any(|l| l.ends_with("what the author can act on."))
        );
    });
}

/// Changed words stand out inside a changed line: reversed, in the line's colour.
#[test]
fn changed_words_are_highlighted_inside_changed_lines() {
    let (_sandbox, mut screen) = demo((120, 40));
    screen.press("3\n");
    let text = screen.text();
    let y = text
        .lines()
        .position(|l| l.contains("+Go through") && l.contains("the author can act on"))
        .unwrap();
    let line: Vec<&str> = text.lines().collect();
    let x = line[y].find("author").unwrap();
    let buffer = screen.buffer();
    let cell = |x: usize| &buffer[(u16::try_from(x).unwrap(), u16::try_from(y).unwrap())];
    // The line's text by the character: `x` is a byte offset, the cells are characters.
    let column = line[y][..x].chars().count();
    assert_eq!(cell(column).fg, Color::Green);
    assert!(cell(column).modifier.contains(Modifier::REVERSED));
    let unchanged = line[y][..line[y].find("Go through").unwrap()]
        .chars()
        .count();
    assert_eq!(cell(unchanged).fg, Color::Green);
    assert!(!cell(unchanged).modifier.contains(Modifier::REVERSED));
}

#[test]
fn next_hunk_and_next_file_move_through_the_diff() {
    for size in SIZES {
        let (_sandbox, mut screen) = demo(size);
        screen.press("3\n");
        let scroll = |screen: &Screen| screen.runtime.app().views.diff().unwrap().scroll;
        let Loading::Ready(view) = &screen.runtime.app().views.diff().unwrap().view else {
            panic!("no diff");
        };
        let (hunks, files) = (view.hunks.clone(), view.files.clone());
        assert_eq!(files.len(), 2);
        // The keys land on the hunk and the file even where the diff ends before either can be
        // its top line; the title says which.
        screen.press("n");
        assert_eq!(scroll(&screen), hunks[0]);
        screen.press("]");
        assert_eq!(scroll(&screen), files[1].row);
        screen.press("[");
        assert_eq!(scroll(&screen), files[0].row);
        snap("diff_next_file", size, screen.press("]"));
        let last = format!("hunk {n}/{n}", n = hunks.len());
        for _ in &hunks {
            screen.press("n");
        }
        assert_eq!(scroll(&screen), *hunks.last().unwrap());
        let text = screen.text();
        assert!(text.contains(&last) && text.contains("file 2/2"), "{text}");
    }
}

#[test]
fn a_modified_plugin_skill_is_diffed_against_its_marketplace_clone() {
    // From the skill list: the cached docs-kit:api-docs, the first drifted skill, and D.
    snapshot_keys("diff_pristine", "dD", |sandbox, screen| {
        let text = screen.text();
        assert!(text.contains("installer's copy"), "{text}");
        assert!(text.contains("+When the source has doc comments"), "{text}");
        let diff = screen.runtime.app().views.diff().unwrap();
        assert!(diff.pristine.as_ref().unwrap().starts_with(sandbox.home()));
    });
}

#[test]
fn restore_asks_first_and_then_puts_the_snapshot_back() {
    for size in SIZES {
        let (sandbox, mut screen) = demo(size);
        let checklist = sandbox
            .home()
            .join(".claude/skills/code-review/checklist.md");
        let edited = std::fs::read_to_string(&checklist).unwrap();
        screen.press("3\nR");
        snap("restore_confirm", size, &screen);
        assert_eq!(
            std::fs::read_to_string(&checklist).unwrap(),
            edited,
            "written before yes"
        );
        // No: nothing changes.
        screen.press("n");
        assert_eq!(std::fs::read_to_string(&checklist).unwrap(), edited);
        screen.press("Ry");
        snap("restored", size, &screen);
        let restored = std::fs::read_to_string(&checklist).unwrap();
        assert!(restored.contains("Names explain themselves"), "{restored}");
        let text = screen.text();
        assert!(text.contains("nothing changed"), "{text}");
        // Back on the changed view, code-review is no longer listed.
        screen.press("\u{1b}");
        let names: Vec<String> = screen
            .runtime
            .app()
            .changes
            .shown()
            .iter()
            .map(|c| c.name.clone())
            .collect();
        assert_eq!(names, ["docs-kit:api-docs", "release-notes"]);
    }
}

#[test]
fn accept_keeps_what_is_there_as_the_new_baseline() {
    for size in SIZES {
        let (sandbox, mut screen) = demo(size);
        let manifest = sandbox.home().join(".claude/skills/release-notes/SKILL.md");
        let before = std::fs::read(&manifest).unwrap();
        // release-notes is the third changed skill.
        screen.press("3jj");
        // Accept asks first, and nothing is done before yes.
        screen.press("a");
        snap("accept_question", size, &screen);
        assert_eq!(screen.runtime.app().changes.shown().len(), 3);
        screen.press("y");
        snap("accepted", size, &screen);
        assert_eq!(
            std::fs::read(&manifest).unwrap(),
            before,
            "accept changed the skill"
        );
        let names: Vec<String> = screen
            .runtime
            .app()
            .changes
            .shown()
            .iter()
            .map(|c| c.name.clone())
            .collect();
        assert_eq!(names, ["code-review", "docs-kit:api-docs"]);
        assert!(screen.text().contains("new baseline"), "{}", screen.text());
    }
}

/// The whole flow of issue 5 in one run: the changed list, the diff, restore after the
/// question, then accept of another skill from its diff.
#[test]
fn changed_then_diff_then_restore_then_accept() {
    let (_sandbox, mut screen) = demo((120, 40));
    screen.press("3");
    assert_eq!(screen.runtime.app().changes.shown().len(), 3);
    screen.press("\nRy\u{1b}");
    assert_eq!(screen.runtime.app().changes.shown().len(), 2);
    // Now release-notes is the second; its diff, then a.
    screen.press("j\nay");
    let text = screen.text();
    assert!(text.contains("nothing changed"), "{text}");
    screen.press("\u{1b}");
    assert_eq!(screen.runtime.app().changes.shown().len(), 1);
}

#[test]
fn snapshot_from_the_list() {
    let (_sandbox, mut screen) = demo((120, 40));
    // pdf-forms matches its snapshot; deploy-staging has none.
    screen.press("/deploy\n").press("s");
    assert!(screen.text().contains("Kept snapshot"), "{}", screen.text());
    screen.press("s");
    assert!(
        screen
            .text()
            .contains("already matches its latest snapshot"),
        "{}",
        screen.text()
    );
}

#[test]
fn export_asks_where_and_writes_an_archive_the_reader_accepts() {
    for size in SIZES {
        let (sandbox, mut screen) = demo(size);
        screen.press("/pdf\n").press("e");
        snap("export_prompt", size, &screen);
        screen.press("\n");
        let archive = sandbox.project().join("pdf-forms.tar.gz");
        let bundle = skilldeck::bundle::read(&archive).unwrap();
        assert_eq!(bundle.skills[0].name, "pdf-forms");
        assert!(
            screen.text().contains("Exported pdf-forms"),
            "{}",
            screen.text()
        );
        // A second export under the name offered replaces nothing: it takes the next name.
        let first = std::fs::read(&archive).unwrap();
        screen.press("e\n");
        assert!(
            screen.text().contains("pdf-forms-2.tar.gz"),
            "{}",
            screen.text()
        );
        assert!(sandbox.project().join("pdf-forms-2.tar.gz").is_file());
        assert_eq!(std::fs::read(&archive).unwrap(), first);
    }
}

#[test]
fn the_installer_filter_and_the_installer_in_list_and_detail() {
    snapshot_keys("by_installer", "ww", |_, screen| {
        let app = screen.runtime.app();
        let shown: Vec<&str> = app
            .visible
            .iter()
            .map(|&i| app.deck.skills[i].name.as_str())
            .collect();
        assert_eq!(
            shown,
            [
                "docs-kit:api-docs",
                "docs-kit:api-docs",
                "docs-kit:diagrams",
                "docs-kit:diagrams"
            ]
        );
        assert!(
            screen.text().contains("by claude-plugi"),
            "{}",
            screen.text()
        );
        assert!(
            app.deck.skills[app.visible[0]]
                .owner
                .as_ref()
                .unwrap()
                .upstream
                .as_ref()
                .unwrap()
                .contains("acme/claude-plugins")
        );
    });
}

// --- Import ---------------------------------------------------------------------------------

#[test]
fn import_picker() {
    snapshot_keys("import_picker", "i", |_, screen| {
        let text = screen.text();
        assert!(text.contains("team-skills-main.tar.gz"), "{text}");
        assert!(text.contains("handy-prompts.zip"), "{text}");
    });
}

#[test]
fn import_picker_filters_by_name() {
    snapshot_keys("import_picker_filtered", "iteam", |_, screen| {
        let text = screen.text();
        assert!(text.contains("team-skills-main.tar.gz"), "{text}");
        assert!(!text.contains("handy-prompts.zip"), "{text}");
    });
}

/// z gives the pane with the keyboard the whole screen; Tab changes which pane, Esc leaves the
/// zoom. On a narrow terminal the SKILL.md takes the detail's place below the list while it has
/// the keyboard.
#[test]
fn the_zoomed_list_shows_every_column() {
    snapshot_keys("zoomed_list", "z", |_, screen| {
        let text = screen.text();
        assert!(screen.app().zoomed);
        assert!(!text.contains("Detail"), "{text}");
        for column in ["NAME", "SOURCE", "AGENTS"] {
            assert!(text.contains(column), "{column}: {text}");
        }
        assert!(text.contains("docs-kit:api-docs"), "{text}");
    });
}

#[test]
fn the_zoomed_detail_has_the_whole_screen_and_esc_gives_the_list_back() {
    snapshot_keys("zoomed_detail", "\tz", |_, screen| {
        let text = screen.text();
        assert!(text.contains("Detail"), "{text}");
        assert!(!text.contains("NAME"), "{text}");
        assert!(
            text.contains("State     ○ unrecorded  no installer's record"),
            "{text}"
        );
    });
    let (_sandbox, mut screen) = demo((80, 24));
    screen.press("\tz\x1b");
    assert!(!screen.app().zoomed);
    assert!(screen.text().contains("NAME"), "{}", screen.text());
}

#[test]
fn the_skill_md_below_the_list_while_it_has_the_keyboard() {
    snapshot_keys("skill_md_focused", "\t\t", |_, screen| {
        let text = screen.text();
        assert!(text.contains("NAME"), "{text}");
        assert!(text.contains("name: code-review"), "{text}");
    });
}

/// In the picker's filter every letter is text, the vim keys and q included; only the arrows
/// move the cursor.
#[test]
fn letters_in_the_pickers_filter_are_typed_and_the_arrows_move() {
    let (_sandbox, mut screen) = demo((80, 24));
    screen.press("ijkgGq");
    let app = screen.app();
    let picker = &app.import.as_ref().expect("the picker is open").picker;
    assert_eq!(picker.filter.text(), "jkgGq");
    assert_eq!(app.mode(), skilldeck::tui::keymap::Mode::Picker);
    assert!(app.running);
    screen.press_code(KeyCode::Backspace);
    screen.press_code(KeyCode::Backspace);
    screen.press_code(KeyCode::Backspace);
    screen.press_code(KeyCode::Backspace);
    screen.press_code(KeyCode::Backspace);
    let before = screen.app().import.as_ref().unwrap().picker.selected;
    screen.press_code(KeyCode::Down);
    let picker = &screen.app().import.as_ref().unwrap().picker;
    assert_eq!(picker.filter.text(), "");
    assert_eq!(picker.selected, before + 1);
}

#[test]
fn import_refusal() {
    // The first archive is the hostile one.
    snapshot_keys("import_refused", "i\n", |_, screen| {
        let text = screen.text();
        assert!(text.contains("unsafe_path"), "{text}");
        assert!(text.contains("demo/../../../.bashrc"), "{text}");
    });
}

#[test]
fn import_preview() {
    snapshot_keys("import_preview", "iteam\n", |_, screen| {
        let text = screen.text();
        for name in [
            "changelog",
            "code-review",
            "shell-check",
            "README.md",
            "executable",
        ] {
            assert!(text.contains(name), "{name}:\n{text}");
        }
    });
}

#[test]
fn import_destination() {
    snapshot_keys("import_destination", "iteam\n\n", |_, screen| {
        assert!(
            screen.text().contains("~/.claude/skills"),
            "{}",
            screen.text()
        );
    });
}

#[test]
fn import_replacement_shows_the_diff_first() {
    snapshot_keys("import_replace", "iteam\n\n\n", |sandbox, screen| {
        let text = screen.text();
        assert!(text.contains("carries no installation record"), "{text}");
        assert!(
            added(screen)
                .iter()
                .any(|l| l.starts_with("4. Is anything written twice"))
        );
        // Nothing written yet.
        assert!(!sandbox.home().join(".claude/skills/changelog").exists());
    });
}

#[test]
fn import_progress() {
    for size in SIZES {
        let (_sandbox, mut screen) = demo(size);
        screen.press("iteam\n\n\n");
        let session = screen.runtime.app().import.as_ref().unwrap().session;
        // The install itself is over in milliseconds; its progress, as the worker reports it.
        screen.send(Msg::Import {
            session,
            event: ImportEvent::Progress {
                skill: "code-review".to_owned(),
                files_done: 3,
                files_total: 5,
            },
        });
        snap("import_progress", size, &screen);
    }
}

/// The import's two other steps, at both sizes (issue 34: every view has both): the bundle
/// being read, and an import that stopped with the sentence why.
#[test]
fn import_reading_and_stopped() {
    for size in SIZES {
        let (_sandbox, mut screen) = demo(size);
        screen.press("iteam");
        // Drawn before the worker's answer is taken in: the step that waits for it.
        screen.handle_key(KeyCode::Enter);
        screen.draw().unwrap();
        assert!(screen.text().contains("Reading team"), "{}", screen.text());
        snap("import_reading", size, &screen);

        let (_sandbox, mut screen) = demo(size);
        screen.press("iteam\n\n\n");
        let session = screen.runtime.app().import.as_ref().unwrap().session;
        let refusal = skilldeck::bundle::Refusal::UnreadableSource {
            path: "~/.claude/skills/code-review".to_owned(),
            error: "Permission denied".to_owned(),
        };
        screen.send(Msg::Import {
            session,
            event: ImportEvent::Done(Err(refusal.into())),
        });
        assert!(
            screen.text().contains("The import stopped"),
            "{}",
            screen.text()
        );
        snap("import_stopped", size, &screen);
    }
}

#[test]
fn import_result_after_the_replacement_is_confirmed() {
    snapshot_keys("import_result", "iteam\n\n\ny", |sandbox, screen| {
        let skills = sandbox.home().join(".claude/skills");
        for name in ["changelog", "code-review", "shell-check"] {
            let manifest = std::fs::read_to_string(skills.join(name).join("SKILL.md")).unwrap();
            assert!(manifest.contains("installed-by: \"skilldeck\""), "{name}");
        }
        let text = screen.text();
        assert!(
            text.contains("replaced") && text.contains("installed"),
            "{text}"
        );
    });
}

#[test]
fn an_import_without_conflicts_goes_from_the_destination_to_the_result() {
    let (sandbox, mut screen) = demo((120, 40));
    // Leave code-review out, and install for the project.
    let kept = sandbox.project().join(".claude/skills/code-review");
    let before = crate::common::snapshot(&kept);
    screen
        .press("iteam\n")
        .press_code(KeyCode::Down)
        .press(" \n");
    let import = screen.runtime.app().import.as_ref().unwrap();
    let project = import
        .destinations
        .iter()
        .position(|d| d.agent.id() == "claude-code" && d.scope == skilldeck::roots::Scope::Project)
        .unwrap();
    for _ in import.destination..project {
        screen.press("j");
    }
    screen.press("\n");
    let import = screen.runtime.app().import.as_ref().unwrap();
    assert!(matches!(import.step, Step::Done(_)), "{:?}", import.step);
    let root = sandbox.project().join(".claude/skills");
    assert!(root.join("changelog/SKILL.md").is_file());
    assert!(root.join("shell-check/scripts/check.sh").is_file());
    assert_eq!(
        crate::common::snapshot(&kept),
        before,
        "the skill left out was touched"
    );
    // Closing the result scans again: the new skills are listed, intact, by skilldeck.
    screen.press("\n");
    let app = screen.runtime.app();
    let changelog = app
        .deck
        .skills
        .iter()
        .find(|s| s.name == "changelog")
        .unwrap();
    assert_eq!(changelog.state, skilldeck::record::State::Intact);
    assert_eq!(changelog.owner.as_ref().unwrap().installer, "skilldeck");
}

/// Esc at every step of an import closes it, and the machine is byte for byte as it was.
#[test]
fn cancel_at_each_step_writes_nothing() {
    let steps: &[(&str, &str)] = &[
        ("picker", "i"),
        ("picker, filtered", "iteam"),
        ("refusal", "i\n"),
        ("preview", "iteam\n"),
        ("destination", "iteam\n\n"),
        ("replacement", "iteam\n\n\n"),
    ];
    for (step, keys) in steps {
        let (sandbox, mut screen) = demo((120, 40));
        let before = crate::common::snapshot(sandbox.root());
        screen.press(keys);
        assert!(
            screen.runtime.app().import.is_some(),
            "{step}: no import open"
        );
        screen.press("\u{1b}");
        assert!(
            screen.runtime.app().import.is_none(),
            "{step}: Esc did not close it"
        );
        assert!(
            screen
                .text()
                .contains("Import cancelled; nothing was written."),
            "{step}:\n{}",
            screen.text()
        );
        assert_eq!(
            crate::common::snapshot(sandbox.root()),
            before,
            "{step}: something was written"
        );
    }
}

/// Esc while the install runs stops it before any skill is put in place.
#[test]
fn cancel_during_the_install_writes_nothing() {
    let (sandbox, mut screen) = demo((120, 40));
    screen.press("iteam\n\n\n");
    let before = crate::common::snapshot(sandbox.root());
    // `y`, then Esc before the worker's answer is taken in.
    use ratatui::crossterm::event::{Event, KeyEvent, KeyModifiers};
    let key = |c| Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    screen.runtime.handle(&key('y'));
    screen
        .runtime
        .handle(&Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)));
    assert!(screen.runtime.settle(crate::common::app::PATIENCE));
    screen.runtime.draw().unwrap();
    let app = screen.runtime.app();
    match &app.import {
        // The worker stopped before the renames: nothing written.
        None => {
            assert!(
                screen.text().contains("nothing was written"),
                "{}",
                screen.text()
            );
            assert_eq!(crate::common::snapshot(sandbox.root()), before);
        }
        // It had already put everything in place: the result says so.
        Some(import) => assert!(matches!(import.step, Step::Done(_)), "{:?}", import.step),
    }
}
