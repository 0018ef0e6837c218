//! The README's table of keys is the keymap's: this test writes the table from the keymap and
//! fails, printing the table to paste, when the README's copy differs. And the app's own
//! sentences that name a key ("2 shows them") take it from the keymap: a test reads `src/tui`
//! and fails on a key written into a sentence, or asked for where the keymap does not bind it.

use skilldeck::tui::keymap;

const BEGIN: &str =
    "<!-- keys: generated from src/tui/keymap.rs by tests/it/cli/readme_keys.rs -->\n";
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
    if readme[start..end] != expected && std::env::var_os("SKILLDECK_WRITE_README").is_some() {
        let written = format!("{}{expected}{}", &readme[..start], &readme[end..]);
        std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"), written).unwrap();
        return;
    }
    assert!(
        readme[start..end] == expected,
        "README.md's keys differ from the keymap; paste this between the markers (or run it with SKILLDECK_WRITE_README=1):\n\n{expected}"
    );
}

/// The words that follow a key in a sentence that says what it does: `2 shows them`,
/// `s takes a snapshot`.
const DOES: &[&str] = &[
    "accepts",
    "brings",
    "cancels",
    "clears",
    "closes",
    "compares",
    "exports",
    "goes",
    "keeps",
    "moves",
    "opens",
    "picks",
    "puts",
    "quits",
    "replaces",
    "restores",
    "scrolls",
    "selects",
    "shows",
    "snapshots",
    "takes",
    "turns",
    "writes",
];

/// The keys of the keymap, as sentences write them.
fn key_names() -> Vec<String> {
    let mut names: Vec<String> = keymap::BINDINGS
        .iter()
        .flat_map(|b| {
            b.key_names()
                .split(' ')
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The key a piece of text names the way a sentence does, if it names one.
fn names_a_key(text: &str, keys: &[String]) -> Option<String> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let bare = |word: &str| {
        word.trim_matches(|c: char| matches!(c, '(' | ')' | ',' | '.' | ';' | ':' | '"'))
            .to_owned()
    };
    for (i, word) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        let before = if i == 0 { "" } else { words[i - 1] };
        let key = keys.iter().find(|k| {
            let trimmed = bare(word);
            // A one-character word is a key only where a sentence uses it as one (`→` also
            // says "becomes"); the longer names (Esc, Enter, Ctrl-c) are keys wherever they
            // stand.
            if k.chars().count() == 1 {
                (trimmed == **k || *word == format!("({k}") || *word == format!("{k}:"))
                    && (DOES.contains(&next)
                        || next.starts_with("(or")
                        || before.eq_ignore_ascii_case("press")
                        || word.ends_with(':'))
            } else {
                trimmed == **k || trimmed.split(['/', '-']).any(|part| part == **k)
            }
        });
        if let Some(key) = key {
            return Some(key.clone());
        }
    }
    None
}

/// The string literals of a Rust source, its tests left out (they may type keys as text).
fn literals(source: &str) -> Vec<String> {
    let code = source.split("#[cfg(test)]").next().unwrap_or(source);
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            // A character literal (`'"'`, `'\''`) is skipped whole; a lifetime is left be.
            '\'' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                    chars.next();
                    for c in chars.by_ref() {
                        if c == '\'' {
                            break;
                        }
                    }
                } else if chars.clone().nth(1) == Some('\'') {
                    chars.next();
                    chars.next();
                }
            }
            '"' => {
                let mut text = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                            text.push(' ');
                        }
                        '"' => break,
                        c => text.push(c),
                    }
                }
                out.push(text);
            }
            _ => {}
        }
    }
    out
}

/// Each call that asks the keymap for a key: its mode (`None` when it is worked out at run
/// time) and action, as written.
fn key_requests(source: &str) -> Vec<(Option<String>, String)> {
    let mut out = Vec::new();
    for call in ["key_for(", "keys_for("] {
        for (at, _) in source.match_indices(call) {
            if source[..at].ends_with("fn ") {
                continue;
            }
            let mut depth = 1;
            let args: String = source[at + call.len()..]
                .chars()
                .take_while(|&c| {
                    depth += match c {
                        '(' => 1,
                        ')' => -1,
                        _ => 0,
                    };
                    depth > 0
                })
                .filter(|c| !c.is_whitespace())
                .collect();
            let (mode, action) = args.split_once(',').unwrap();
            let last = |path: &str, kind: &str| {
                path.rsplit_once(&format!("{kind}::"))
                    .map(|(_, name)| name.to_owned())
            };
            let action = last(action, "Action")
                .unwrap_or_else(|| panic!("a key asked for with no action named: {args}"));
            out.push((last(mode, "Mode"), action));
        }
    }
    out
}

/// Every `.rs` file below `dir`, with its text (the plurals check reads them too).
pub(super) fn sources(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((
                path.display().to_string(),
                std::fs::read_to_string(&path).unwrap(),
            ));
        }
    }
}

#[test]
fn the_check_below_catches_a_key_written_into_a_sentence() {
    let keys = key_names();
    let written = [
        ("No skills found in any root (2 shows them).", "2"),
        ("No snapshot: s takes a snapshot now.", "s"),
        ("Esc goes back.", "Esc"),
        ("Make the window larger, or press q to quit.", "q"),
        ("Mouse is off; m (or --mouse) turns it on.", "m"),
        ("Nothing was written. Enter picks another.", "Enter"),
        ("y: replace them", "y"),
        ("Press → to go on.", "→"),
    ];
    for (sentence, key) in written {
        assert_eq!(
            names_a_key(sentence, &keys).as_deref(),
            Some(key),
            "{sentence}"
        );
    }
    for sentence in [
        "{} takes the first snapshot.",
        "a page down",
        "A snapshot keeps what a skill holds",
        "Reading skills…",
        "snapshot 3 → snapshot 5",
    ] {
        assert_eq!(names_a_key(sentence, &keys), None, "{sentence}");
    }
}

/// Every sentence of the app that names a key asks the keymap for it, so it says what the keys
/// do: no string in `src/tui` writes a key's name itself (the table's own help texts aside),
/// and every key asked for is bound to that action in that mode (or in every mode, where the
/// mode is only known when the app runs).
#[test]
fn sentences_name_only_keys_the_keymap_binds_to_what_they_say() {
    use skilldeck::tui::keymap::Mode;
    use skilldeck::tui::msg::Action;
    use strum::{IntoEnumIterator, VariantArray};

    let mut files = Vec::new();
    sources(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src/tui")),
        &mut files,
    );
    let keys = key_names();
    let mut written = Vec::new();
    let mut requests = Vec::new();
    for (path, source) in &files {
        if path.ends_with("keymap.rs") {
            continue;
        }
        for text in literals(source) {
            if let Some(key) = names_a_key(&text, &keys) {
                written.push(format!("{path}: {key} in {text:?}"));
            }
        }
        requests.extend(key_requests(source).into_iter().map(|r| (path.clone(), r)));
    }
    assert!(
        written.is_empty(),
        "sentences that write a key's name rather than ask keymap::key_for:\n{}",
        written.join("\n")
    );
    assert!(
        requests.len() >= 20,
        "the calls were not found: {requests:?}"
    );
    let action_named = |name: &str| {
        Action::iter()
            .find(|a| format!("{a:?}").split('(').next() == Some(name))
            .unwrap_or_else(|| panic!("no action {name}"))
    };
    let mode_named = |name: &str| {
        *Mode::VARIANTS
            .iter()
            .find(|m| format!("{m:?}") == name)
            .unwrap_or_else(|| panic!("no mode {name}"))
    };
    let mut unbound = Vec::new();
    for (path, (mode, action)) in &requests {
        let action = action_named(action);
        let bound = match mode {
            Some(mode) => keymap::binds(mode_named(mode), action),
            None => Mode::VARIANTS.iter().all(|&m| keymap::binds(m, action)),
        };
        if !bound {
            unbound.push(format!("{path}: {action:?} in {mode:?}"));
        }
    }
    assert!(
        unbound.is_empty(),
        "sentences name a key the keymap does not bind to what they say:\n{}",
        unbound.join("\n")
    );
}
