//! A count meets its noun in one place, `human::count` ("1 file", "2 files", "3 entries"): a
//! test reads both crates' sources and fails on a plural made by hand (`{} file{}` with an
//! `if n == 1 { "" } else { "s" }`), the shape that wrote "1 files" before (issue 34).

/// The hand-made plural's shapes, white space removed.
const BY_HAND: [&str; 3] = [r#"{""}else{"s"}"#, r#"==1{"1"#, r#"1=>"1"#];

fn by_hand(source: &str) -> Vec<&'static str> {
    let squeezed: String = source.chars().filter(|c| !c.is_whitespace()).collect();
    BY_HAND
        .into_iter()
        .filter(|shape| squeezed.contains(shape))
        .collect()
}

#[test]
fn no_plural_is_made_by_hand() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    // The published crate ships without the core's sources: those are checked in the repository.
    let published = root.join("Cargo.toml.orig").is_file();
    for dir in ["src", "crates/core/src"] {
        let dir = root.join(dir);
        if published && !dir.is_dir() {
            continue;
        }
        super::readme_keys::sources(&dir, &mut files);
    }
    assert!(files.len() > 50, "{} files read", files.len());
    // human.rs is where the rule is written.
    let elsewhere = ["text/human.rs"];
    let found: Vec<String> = files
        .iter()
        .filter(|(path, _)| !elsewhere.iter().any(|e| path.ends_with(e)))
        .flat_map(|(path, text)| {
            by_hand(text)
                .into_iter()
                .map(move |s| format!("{path}: {s}"))
        })
        .collect();
    assert!(found.is_empty(), "use human::count:\n{}", found.join("\n"));
}

#[test]
fn the_check_catches_each_shape() {
    let cases = [
        r#"format!("{} skill{}", n, if n == 1 { "" } else { "s" })"#,
        r#"if n == 1 { "1 skill".to_owned() } else { format!("{n} skills") }"#,
        r#"match n { 1 => "1 file".to_owned(), n => format!("{n} files") }"#,
    ];
    for case in cases {
        assert!(!by_hand(case).is_empty(), "{case}");
    }
    assert!(by_hand(r#"count(n, "skill")"#).is_empty());
}
