//! The README's table of agents is the roots table's: this test writes the table from
//! `roots::markdown()` and fails, printing the table to paste, when the README's copy differs.

const BEGIN: &str = "<!-- agents:begin -->\n";
const END: &str = "<!-- agents:end -->";

#[test]
fn the_readme_lists_the_agents_of_the_roots_table() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find(BEGIN)
        .expect("README.md has the agents:begin marker")
        + BEGIN.len();
    let end = readme[start..]
        .find(END)
        .expect("README.md has the agents:end marker")
        + start;
    let expected = skilldeck::roots::markdown();
    assert!(
        readme[start..end] == expected,
        "README.md's agents differ from the roots table; paste this between the markers:\n\n{expected}"
    );
}

/// `SKILLDECK_WRITE_README=1 cargo test readme_agents` writes the table into the README, for
/// the one who changed the roots table.
#[test]
fn write_the_table_when_asked() {
    if std::env::var_os("SKILLDECK_WRITE_README").is_none() {
        return;
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let start = readme.find(BEGIN).unwrap() + BEGIN.len();
    let end = readme[start..].find(END).unwrap() + start;
    let fresh = format!(
        "{}{}{}",
        &readme[..start],
        skilldeck::roots::markdown(),
        &readme[end..]
    );
    std::fs::write(path, fresh).unwrap();
}
