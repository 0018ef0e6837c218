//! The import's preview groups the skills by the folder of the bundle they came from, as the
//! command line lists them (`in skills/.curated/`), each folder's heading scrolling into view
//! with its first skill; a bundle whose skills all sit at its top shows no heading.

use std::fs;

use crate::common::Machine;
use crate::common::app::{Screen, settings};
use crate::common::archive::{Tar, skill_md};
use skilldeck::roots;
use skilldeck::tui::app::Setup;
use skilldeck::tui::import::{BundleView, BundledSkillView};
use skilldeck::tui::keymap::Mode;

const SIZES: [(u16, u16); 4] = [(60, 15), (80, 24), (120, 40), (200, 50)];

/// `~/Downloads/team.tar`: a skill below `skills/`, two in `skills/.curated/`, one in
/// `skills/.system/`, put in the archive out of their folders' order.
fn machine_with_grouped_bundle() -> Machine {
    let machine = Machine::new();
    let mut tar = Tar::new();
    for path in [
        "skills/.system/three",
        "skills/plain",
        "skills/.curated/one",
        "skills/.curated/two",
    ] {
        let name = path.rsplit('/').next().unwrap();
        tar = tar.file(&format!("{path}/SKILL.md"), skill_md(name));
    }
    let downloads = machine.home.join("Downloads");
    fs::create_dir_all(&downloads).unwrap();
    fs::write(downloads.join("team.tar"), tar.end().bytes()).unwrap();
    machine
}

#[test]
fn the_preview_groups_the_skills_by_the_folder_they_came_from() {
    let machine = machine_with_grouped_bundle();
    for size in SIZES {
        let on = roots::Machine::new(machine.env(), &machine.start);
        let mut screen = Screen::open(on, Setup::default(), size);
        screen.press("iteam\n");
        assert_eq!(screen.app().mode(), Mode::Bundle, "{}", screen.text());
        let text = screen.text();
        let at = |needle: &str| {
            text.find(needle)
                .unwrap_or_else(|| panic!("{needle} not shown at {size:?}:\n{text}"))
        };
        if size.1 >= 24 {
            // Each folder once, above its skills, the folders in order.
            let order = [
                "in skills/ ",
                "[x] plain",
                "in skills/.curated/",
                "[x] one",
                "[x] two",
                "in skills/.system/",
                "[x] three",
            ];
            for pair in order.windows(2) {
                assert!(at(pair[0]) < at(pair[1]), "{pair:?} at {size:?}:\n{text}");
            }
            assert_eq!(text.matches("in skills/.curated/").count(), 1, "{text}");
        }
        settings().bind(|| {
            insta::assert_snapshot!(
                format!("import_grouped_preview_{}x{}", size.0, size.1),
                screen.backend()
            );
        });
    }
}

fn skill(name: &str, folder: &str) -> BundledSkillView {
    BundledSkillView {
        name: name.to_owned(),
        shown_name: name.to_owned(),
        folder: folder.to_owned(),
        description: None,
        files: Vec::new(),
        size: 0,
        lints: Vec::new(),
        audit: Default::default(),
    }
}

fn view(skills: Vec<BundledSkillView>) -> BundleView {
    BundleView {
        source: "~/team".to_owned(),
        skills,
        left_out: Vec::new(),
        set_aside: 0,
        notes: Vec::new(),
    }
}

#[test]
fn a_folders_heading_is_a_line_of_its_first_skills_block() {
    let grouped = view(vec![
        skill("one", "skills/.curated"),
        skill("two", "skills/.curated"),
        skill("plain", "skills"),
    ]);
    assert_eq!(grouped.heading(0).as_deref(), Some("in skills/.curated/"));
    assert_eq!(grouped.heading(1), None);
    assert_eq!(grouped.heading(2).as_deref(), Some("in skills/"));
    let (blocks, total) = grouped.layout();
    // Three lines of head, then heading + one, two, heading + plain.
    assert_eq!(blocks, [3..5, 5..6, 6..8]);
    assert_eq!(total, 8);
    // Moving to the last skill shows its folder's heading with it.
    assert_eq!(grouped.scroll_to(2, 0, 2), 6);

    let at_top = view(vec![skill("a", ""), skill("b", "")]);
    assert_eq!(at_top.heading(0), None);
    assert_eq!(at_top.layout().1, 5);
    let mixed = view(vec![skill("a", ""), skill("b", "skills")]);
    assert_eq!(mixed.heading(0).as_deref(), Some("at the bundle's top"));
}
