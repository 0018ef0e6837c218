//! The README's table of keys is the keymap's: this test writes the table from the keymap and
//! fails, printing the table to paste, when the README's copy differs.

use skilldeck::tui::keymap;

const BEGIN: &str = "<!-- keys: generated from src/tui/keymap.rs by tests/it/readme_keys.rs -->\n";
const END: &str = "<!-- end of keys -->";

fn table() -> String {
    let mut out = String::new();
    for (title, bindings) in keymap::help_sections() {
        out.push_str(&format!("| **{title}** | |\n"));
        for binding in bindings {
            let keys: Vec<String> = binding
                .key_names()
                .split(' ')
                .map(|k| format!("`{k}`"))
                .collect();
            let help = match binding.also_in() {
                Some(also) => format!("{} ({also})", binding.help),
                None => binding.help.to_owned(),
            };
            out.push_str(&format!("| {} | {help} |\n", keys.join(" ")));
        }
    }
    format!("{BEGIN}| keys | |\n|---|---|\n{out}")
}

#[test]
fn the_readme_lists_the_keys_of_the_keymap() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find(BEGIN).expect("README.md has the keys marker");
    let end = readme[start..]
        .find(END)
        .expect("README.md has the end-of-keys marker")
        + start;
    let expected = table();
    assert!(
        readme[start..end] == expected,
        "README.md's keys differ from the keymap; paste this between the markers:\n\n{expected}"
    );
}
