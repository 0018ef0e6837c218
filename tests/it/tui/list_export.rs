//! The export prompt on the demo machine, its worker doing the real export (issue 18): a
//! folder typed means into it, under a name no file there has; a missing folder, a taken
//! name or a name that is not `.tar.gz` is a sentence naming the path as typed, never a
//! temporary file's, with the status line cleared and the prompt asked again with what was
//! typed.

use crate::common::app::{Screen, demo};
use skilldeck::tui::app::Overlay;
use skilldeck::tui::line::Edit;
use skilldeck::tui::msg::{Action, Msg};

/// The export prompt opened on the skill under the cursor, its line emptied, `typed` typed
/// and Enter pressed.
fn export_to(screen: &mut Screen, typed: &str) {
    screen.press("e");
    screen.send(Msg::Action(Action::Edit(Edit::EraseToStart)));
    screen.press(typed).press("\n");
}

fn prompt_text(screen: &Screen) -> Option<String> {
    match &screen.runtime.app().overlay {
        Overlay::Export(prompt) => Some(prompt.text.text().to_owned()),
        _ => None,
    }
}

#[test]
fn a_folder_typed_means_into_it_under_a_free_name() {
    let (sandbox, mut screen) = demo((120, 40));
    screen.press("/pdf\n");
    let folder = sandbox.home().join("exports");
    std::fs::create_dir(&folder).unwrap();
    for (typed, written) in [
        ("~/exports/", "pdf-forms.tar.gz"),
        ("~/exports", "pdf-forms-2.tar.gz"),
    ] {
        export_to(&mut screen, typed);
        let archive = folder.join(written);
        let bundle = skilldeck::bundle::read(&archive).unwrap();
        assert_eq!(bundle.skills[0].name, "pdf-forms", "{typed}");
        let app = screen.runtime.app();
        assert!(app.messages.is_empty(), "{typed}: {:?}", app.messages);
        let said = &app.status.as_ref().unwrap().text;
        assert!(said.contains(&format!("~/exports/{written}")), "{said}");
    }
}

#[test]
fn a_failed_export_says_why_naming_what_was_typed_and_asks_again() {
    let cases = [
        (
            "~/nope/pdf.tar.gz",
            "There is no folder ~/nope, so pdf-forms",
        ),
        (
            "~/nope/deeper/",
            "There is no folder ~/nope/deeper, so pdf-forms",
        ),
        ("~/pdf.zip", "~/pdf.zip is not a .tar.gz name, so pdf-forms"),
    ];
    for (typed, sentence) in cases {
        let (_sandbox, mut screen) = demo((120, 40));
        screen.press("/pdf\n");
        export_to(&mut screen, typed);
        let app = screen.runtime.app();
        assert_eq!(app.messages.len(), 1, "{typed}");
        assert!(app.messages[0].starts_with(sentence), "{}", app.messages[0]);
        assert!(app.status.is_none(), "{typed}: {:?}", app.status);
        let text = screen.text();
        assert!(!text.contains(".skilldeck-export"), "{text}");
        assert!(!text.contains("Exporting"), "{text}");
        assert!(!text.contains("os error"), "{text}");
        // Closing the message shows the prompt with the path as it was typed.
        screen.press("\n");
        assert_eq!(prompt_text(&screen).as_deref(), Some(typed));
    }
}

#[test]
fn a_name_typed_that_is_taken_is_refused_and_kept_while_the_offer_is_numbered() {
    let (sandbox, mut screen) = demo((80, 24));
    let first = sandbox.project().join("pdf-forms.tar.gz");
    std::fs::write(&first, "mine").unwrap();
    screen.press("/pdf\n");
    // Typed, a name already taken is not replaced: it is said, and asked again.
    export_to(&mut screen, "pdf-forms.tar.gz");
    let app = screen.runtime.app();
    assert!(
        app.messages[0].starts_with("There is already a file at ~/src/acme-app/pdf-forms.tar.gz"),
        "{:?}",
        app.messages
    );
    assert_eq!(std::fs::read(&first).unwrap(), b"mine");
    screen.press("\n");
    assert_eq!(prompt_text(&screen).as_deref(), Some("pdf-forms.tar.gz"));
    screen.press("\u{1b}");
    // The name the prompt offers, kept, takes the next free one.
    for next in ["pdf-forms-2.tar.gz", "pdf-forms-3.tar.gz"] {
        screen.press("e\n");
        assert!(sandbox.project().join(next).is_file(), "{next}");
        assert_eq!(std::fs::read(&first).unwrap(), b"mine");
    }
}

/// The prompt offers what `skilldeck export SKILL` writes with no `-o`: FOLDER-VERSION.tar.gz
/// in the folder the app works in, the version as SKILL.md declares it (`version`, else
/// `metadata.version`; none, or one a file name cannot hold, no `-VERSION`); kept, that is
/// the file written.
#[test]
fn the_offer_is_the_command_lines_default_name_with_the_version() {
    let cases = [
        ("version: 1.4.0\n", "pdf-forms-1.4.0.tar.gz"),
        ("metadata:\n  version: \"2.1\"\n", "pdf-forms-2.1.tar.gz"),
        ("version: ../up\n", "pdf-forms.tar.gz"),
        ("", "pdf-forms.tar.gz"),
    ];
    for (front, file) in cases {
        let sandbox = skilldeck::demo::Sandbox::create().unwrap();
        let dir = sandbox.home().join(".claude/skills/pdf-forms");
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: pdf-forms\ndescription: Fills PDF forms.\n{front}---\nbody\n"),
        )
        .unwrap();
        let setup = skilldeck::tui::app::Setup {
            banner: None,
            mouse: false,
            theme: skilldeck::tui::theme::Theme::colored(),
            work_dir: "~/src/acme-app".to_owned(),
        };
        let mut screen = crate::common::app::Screen::open(sandbox.machine(), setup, (120, 40));
        screen.press("/pdf\n").press("e");
        assert_eq!(
            prompt_text(&screen),
            Some(format!("~/src/acme-app/{file}")),
            "{front}"
        );
        assert_eq!(
            skilldeck::operations::export::offered_name(&dir, front_version(front)),
            file
        );
        screen.press("\n");
        let app = screen.runtime.app();
        assert!(
            sandbox.project().join(file).is_file(),
            "{file}: {:?} {:?} {:?}",
            app.messages,
            app.status,
            std::fs::read_dir(sandbox.project())
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect::<Vec<_>>()
        );
    }
}

/// The version a case's frontmatter lines declare, as written.
fn front_version(front: &str) -> Option<&str> {
    front
        .rsplit_once("version: ")
        .map(|(_, v)| v.trim().trim_matches('"'))
}
