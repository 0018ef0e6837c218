//! Reading a skill as it draws, at every size the issue names (60×15 up to 200×50), through
//! the real runtime and its workers on a machine built here: the detail pane with a long
//! description and long paths (its state and problems held at the top, the rest scrolled),
//! the viewer of a skill's files (a text file, a binary one, one larger than the viewer reads),
//! and the import picker showing hidden folders and taking a typed path.

use ratatui::buffer::Buffer;

use crate::common::app::{Screen, settings};
use skilldeck::roots;
use skilldeck::tui::app::Setup;
use skilldeck::tui::msg::{Action, Msg};

const SIZES: [(u16, u16); 4] = [(60, 15), (80, 24), (120, 40), (200, 50)];

const NAME: &str = "brand-guidelines-for-the-marketing-team";

/// A machine with one skill whose description is 1,068 characters (over the spec's 1,024, so
/// it has a problem too), files in folders with long names and a space, a picture and a file
/// larger than the viewer reads; and a downloads folder with hidden entries.
fn machine() -> crate::common::Machine {
    let machine = crate::common::Machine::new();
    let description = "Applies the brand's colours, type and tone to anything made for the \
        marketing team. "
        .repeat(13);
    let description = &description[..1068];
    let skill = machine.home.join(".claude/skills").join(NAME);
    let manifest = format!(
        "---\nname: {NAME}\ndescription: {description}\n---\n# Brand\n\nUse the palette.\n"
    );
    let huge = "a line of the long reference file, to scroll through\n".repeat(25_000);
    crate::common::write_files(
        &skill,
        &[
            ("SKILL.md", manifest.as_str()),
            (
                "references/typography-and-colour/the-complete-palette-reference.md",
                "# Palette\n\n- Ink: #1b1b1b\n- Paper: #fafaf7\n\tTabbed \u{1b}[31mred\u{1b}[0m text\n",
            ),
            ("scripts/check contrast.sh", "#!/bin/sh\necho contrast\n"),
            ("references/huge.txt", huge.as_str()),
        ],
    );
    std::fs::write(
        skill.join("logo.png"),
        [0x89, b'P', b'N', b'G', 0, 0, 0, 13, 1, 2, 3],
    )
    .unwrap();
    let downloads = machine.home.join("Downloads");
    for dir in ["team-skills", ".cache", ".hidden-skills"] {
        std::fs::create_dir_all(downloads.join(dir)).unwrap();
    }
    std::fs::write(downloads.join("team.tar.gz"), "not really").unwrap();
    std::fs::write(downloads.join(".old.zip"), "not really").unwrap();
    machine
}

fn open(machine: &crate::common::Machine, size: (u16, u16)) -> Screen {
    let roots = roots::Machine::new(machine.env(), &machine.start);
    Screen::open(roots, Setup::default(), size)
}

fn assert_no_controls(buffer: &Buffer) {
    for cell in buffer.content() {
        assert!(
            !cell.symbol().chars().any(char::is_control),
            "a control character reached the screen: {:?}",
            cell.symbol()
        );
    }
}

fn snapshot(name: &str, size: (u16, u16), screen: &Screen) {
    assert_no_controls(screen.buffer());
    settings().bind(|| {
        insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen.backend());
    });
}

#[test]
fn the_detail_holds_state_and_problems_above_a_long_description() {
    let machine = machine();
    for size in SIZES {
        let mut screen = open(&machine, size);
        let text = screen.text();
        // Whatever the size, the state and the first problem are on screen.
        assert!(text.contains("unrecorded"), "{size:?}\n{text}");
        assert!(text.contains("Problems"), "{size:?}\n{text}");
        snapshot("reading_detail", size, &screen);
        // Scrolled: the description goes by under the state, which stays.
        screen.press("\tjjjjjj");
        let text = screen.text();
        assert!(text.contains("unrecorded"), "{size:?}\n{text}");
        snapshot("reading_detail_scrolled", size, &screen);
        screen.press("G");
        snapshot("reading_detail_end", size, &screen);
    }
}

/// Open the viewer and the file whose shown path ends with `ending`.
fn read_file(screen: &mut Screen, ending: &str) {
    screen.press("v");
    let index = screen
        .app()
        .views
        .viewer()
        .unwrap()
        .files
        .iter()
        .position(|f| f.shown.ends_with(ending))
        .unwrap();
    screen.press(&"j".repeat(index));
    screen.press("\n");
}

#[test]
fn the_files_of_a_skill_and_each_kind_of_file_read() {
    let machine = machine();
    for size in SIZES {
        let mut screen = open(&machine, size);
        screen.press("v");
        let text = screen.text();
        assert!(text.contains("logo.png"), "{size:?}\n{text}");
        snapshot("reading_files", size, &screen);

        let mut screen = open(&machine, size);
        read_file(&mut screen, "palette-reference.md");
        let text = screen.text();
        assert!(text.contains("Tabbed red text"), "{size:?}\n{text}");
        snapshot("reading_text", size, &screen);

        let mut screen = open(&machine, size);
        read_file(&mut screen, "logo.png");
        let text = screen.text();
        assert!(text.contains("A binary file of 11 B"), "{size:?}\n{text}");
        snapshot("reading_binary", size, &screen);

        let mut screen = open(&machine, size);
        read_file(&mut screen, "huge.txt");
        screen.press("G");
        let text = screen.text();
        assert!(text.contains("the first 1.0 MiB of"), "{size:?}\n{text}");
        snapshot("reading_huge_end", size, &screen);
    }
}

#[test]
fn the_picker_shows_hidden_folders_when_asked_and_takes_a_typed_path() {
    let machine = machine();
    for size in SIZES {
        let mut screen = open(&machine, size);
        screen.press("i");
        assert!(!screen.text().contains(".hidden-skills"));
        screen.send(Msg::Action(Action::ToggleHidden));
        let text = screen.text();
        assert!(text.contains(".hidden-skills/"), "{size:?}\n{text}");
        assert!(text.contains("hidden shown"), "{size:?}\n{text}");
        snapshot("reading_picker_hidden", size, &screen);

        let mut screen = open(&machine, size);
        screen.press("i");
        screen.press("~/Downloads/team-skills");
        let text = screen.text();
        assert!(
            text.contains("Path    ~/Downloads/team-skills"),
            "{size:?}\n{text}"
        );
        snapshot("reading_picker_typed", size, &screen);
        // Enter goes there, and the line is ready for the next.
        screen.press("\n");
        let text = screen.text();
        assert!(text.contains("~/Downloads/team-skills"), "{size:?}\n{text}");
        assert!(text.contains("type to filter"), "{size:?}\n{text}");
    }
}
