//! The frontmatter nearly every skill has, read without a YAML parser: top-level `key: value`
//! lines whose values are plain or simply quoted text, and keys with no value, or with one
//! level of such lines indented below them (`metadata:`). A scan reads 20,000 of these, and a
//! full YAML parse was an eighth of its time.
//!
//! This is a check, not a second parser: it answers only for text whose meaning under YAML
//! 1.2's core schema (as serde-saphyr reads it, strict booleans) is beyond doubt, and gives
//! up (`None`) on anything else (a number, a word YAML resolves to `null` or a boolean, a
//! comment, an escape, a tab, a continuation line, a repeated key), which then goes to
//! serde-saphyr as before. A differential test holds the two to the same answer.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// The most keys read here; past it serde-saphyr, whose budget (nodes, events) decides.
const MOST_KEYS: usize = 256;
/// The longest key read here (YAML bounds an implicit key at 1,024 characters).
const LONGEST_KEY: usize = 128;

/// The mapping `yaml` holds, when it is of the plain shape; `None` for anything else.
pub(super) fn parse(yaml: &str) -> Option<BTreeMap<String, Value>> {
    let mut lines = yaml
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .filter(|line| !line.is_empty())
        .peekable();
    let mut map = BTreeMap::new();
    let mut keys = 0usize;
    while let Some(line) = lines.next() {
        let (key, rest) = pair(line)?;
        let value = if rest.is_empty() {
            // A key with no value: a mapping of the indented lines below it, or null.
            let indent = lines.peek().map_or(0, |next| indent_of(next));
            if indent == 0 {
                Value::Null
            } else {
                let mut inner = Map::new();
                while let Some(next) = lines.next_if(|next| indent_of(next) > 0) {
                    if indent_of(next) != indent {
                        return None;
                    }
                    let (key, rest) = pair(&next[indent..])?;
                    keys += 1;
                    if keys > MOST_KEYS || inner.contains_key(key) {
                        return None;
                    }
                    inner.insert(key.to_owned(), Value::String(scalar(rest)?.to_owned()));
                }
                Value::Object(inner)
            }
        } else {
            Value::String(scalar(rest)?.to_owned())
        };
        keys += 1;
        if keys > MOST_KEYS || map.contains_key(key) {
            return None;
        }
        map.insert(key.to_owned(), value);
    }
    Some(map)
}

/// The spaces a line opens with; 0 for a line at the margin.
fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// A line `key:` or `key: rest` at its own margin, the key a plain word that YAML reads as
/// text; `rest` with the spaces around it taken off.
fn pair(line: &str) -> Option<(&str, &str)> {
    let (key, rest) = line.split_once(':')?;
    if key.is_empty() || key.len() > LONGEST_KEY || !is_plain_word(key) {
        return None;
    }
    let first = key.as_bytes()[0];
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    // `key:value` is one scalar, not a pair; a tab is left to the parser.
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    Some((key, rest.trim_matches(' ')))
}

/// Letters, digits, `_` and `-`, and not a word YAML could read as anything but text.
fn is_plain_word(word: &str) -> bool {
    word.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        && !special_word(word)
}

/// A word that is, or in some YAML schema may be, a null, a boolean or a number.
fn special_word(word: &str) -> bool {
    const WORDS: [&str; 10] = [
        "null", "true", "false", "yes", "no", "on", "off", "y", "n", "~",
    ];
    WORDS.iter().any(|w| word.eq_ignore_ascii_case(w)) || word.parse::<f64>().is_ok()
}

/// The text of a value: plain, or in quotes with no escape and no quote inside.
fn scalar(value: &str) -> Option<&str> {
    if !value.chars().all(printable) {
        return None;
    }
    for quote in ['"', '\''] {
        if let Some(open) = value.strip_prefix(quote) {
            let inner = open.strip_suffix(quote)?;
            return (!inner.contains([quote, '\\'])).then_some(inner);
        }
    }
    let first = value.chars().next()?;
    let plain = (first.is_ascii_alphabetic() || !first.is_ascii())
        && !value.contains(": ")
        && !value.contains(" #")
        && !value.ends_with(':')
        && !special_word(value);
    plain.then_some(value)
}

/// A character that stands for itself in any scalar: no control character, no tab, nothing
/// YAML treats as a line break or a byte-order mark.
fn printable(c: char) -> bool {
    !(c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
        ))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::frontmatter::{Block, parse_with_saphyr};
    use super::*;

    /// Whenever the plain reading answers, serde-saphyr gives the very same mapping.
    fn agrees(yaml: &str) -> bool {
        let Some(plain) = parse(yaml) else {
            return false;
        };
        if yaml.trim().is_empty() {
            assert!(plain.is_empty(), "{yaml:?}");
            return true;
        }
        match parse_with_saphyr(yaml) {
            Ok(parsed) => assert_eq!(plain, parsed.fields, "{yaml:?}"),
            Err(error) => panic!("{yaml:?}: read plainly as {plain:?}, but YAML says {error}"),
        }
        true
    }

    #[test]
    fn the_usual_frontmatter_is_read_plainly_as_yaml_reads_it() {
        for yaml in [
            "name: pdf\ndescription: Read PDFs, fill forms; and more.\n",
            "name: \"skill-00001\"\ndescription: \"Synthetic skill number 1 for the bench.\"\nmetadata:\n",
            "name: a\nmetadata:\n  installed-by: \"bench\"\n  content-digest: \"sha256:ab\"\nlicense: MIT\n",
            "name: a\r\ndescription: 'single: quoted'\r\n",
            "name: a\n\ndescription: http://x.y/z?q=1&r=[2] {3}, ok - yes!\n",
            "name: é\ndescription: Ünïcode — dashes “quotes” ok\n",
            "description: \"\"\nname: ''\n",
        ] {
            assert!(agrees(yaml), "{yaml:?} should be read plainly");
        }
    }

    #[test]
    fn anything_past_the_plain_shape_is_left_to_the_parser() {
        for yaml in [
            "name: 123\n",
            "name: true\n",
            "name: Null\n",
            "name: ~\n",
            "name: inf\n",
            "name: a # comment\n",
            "name: a: b\n",
            "name: a\n  continued\n",
            "name: \"a\\tb\"\n",
            "name:\ta\n",
            "name: a\nname: b\n",
            "name: [a]\n",
            "name: >\n  folded\n",
            "metadata:\n  a: b\n    c: d\n",
            "metadata:\n  a: b\n c: d\n",
            "metadata:\n  a:\n",
            "key:value\n",
            "- a\n",
            "name: a\u{85}b\n",
            "  name: a\n",
            "true: a\n",
            "name: a:\n",
        ] {
            assert_eq!(parse(yaml), None, "{yaml:?}");
        }
    }

    /// Every frontmatter the fuzzer grew: where the plain reading answers, it agrees.
    #[test]
    fn the_fuzz_corpus_is_read_alike() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        // The corpora stay at the repository's top (fuzz/ is a package of its own, two levels
        // above this crate); the published crate, which `cargo package` marks with its
        // Cargo.toml.orig, has none to read. In the repository a missing corpus fails below.
        if root.join("Cargo.toml.orig").is_file() {
            eprintln!("the fuzz corpora are not in the published crate: not replayed here");
            return;
        }
        let dir = root.join("../../fuzz/corpus/frontmatter");
        let mut read_plainly = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            let Ok(text) = std::str::from_utf8(&bytes) else {
                continue;
            };
            let text = text.strip_prefix('\u{feff}').unwrap_or(text);
            let yamls = [
                Block::of(text).ok().map(|block| block.yaml),
                Block::trimmed(text).map(|block| block.yaml),
                Block::rest(text),
                Some(text),
            ];
            for yaml in yamls.into_iter().flatten() {
                read_plainly += usize::from(agrees(yaml));
            }
        }
        assert!(read_plainly > 100, "only {read_plainly} read plainly");
    }

    /// Pieces that sit at the edges of YAML's plain scalars and keys.
    const PIECES: &[&str] = &[
        "a", "b c", "Use", "x-y", "_k", "#", " #", "# ", ": ", ":", "::", "\"", "'", "\\", "true",
        "True", "false", "null", "NULL", "~", "yes", "no", "on", "y", "1", "0x1f", "1e3", ".5",
        "-1", "+1", ".inf", "inf", "NaN", "é", "€", "\u{85}", "\u{a0}", "\u{2028}", "\u{feff}",
        "\t", ",", "[", "]", "{", "}", "-", "- ", "?", "? ", "&a", "*a", "!", "!!str ", "|", ">",
        "%", "@", "`", " ", "  ", "<<", "=", "\r", "...", "---",
    ];
    const KEYS: &[&str] = &[
        "name",
        "description",
        "metadata",
        "allowed-tools",
        "_x",
        "k1",
        "true",
        "null",
        "y",
        "1",
        "a b",
        "\"q\"",
        "'s'",
        "-a",
        "a-",
        "inf",
        "",
    ];
    const SEPARATORS: &[&str] = &[": ", ":", ":  ", " : ", ":\t", "=", ": \"", ": '"];

    /// Pieces a plain value is made of.
    const PLAIN: &[&str] = &[
        "a", "b c", "Use", "x-y", "é", "€", ",", "-", "?", "!", "&a", "*a", "%", "@", "`", " ",
        "  ", "[", "]", "{", "}", ":", "=", "|", ">", "<<", "/", "#",
    ];

    /// Mostly values near the plain shape, some made of any piece.
    fn value() -> impl Strategy<Value = String> {
        let pieces = |from: &'static [&'static str], most| {
            prop::collection::vec(prop::sample::select(from), 0..most).prop_map(|p| p.concat())
        };
        prop_oneof![
            3 => (pieces(&["a", "Use", "é", "b c"][..], 2), pieces(PLAIN, 4))
                .prop_map(|(head, tail)| head + &tail),
            2 => pieces(PIECES, 5),
        ]
    }

    fn line() -> impl Strategy<Value = String> {
        let pair = (
            prop::sample::select(&[0usize, 0, 0, 0, 0, 1, 2, 2, 2, 4][..]),
            prop_oneof![3 => Just("name"), 2 => Just("metadata"), 2 => prop::sample::select(KEYS)],
            prop_oneof![4 => Just(": "), 1 => Just(":"), 2 => prop::sample::select(SEPARATORS)],
            value(),
            prop_oneof![4 => Just(""), 1 => prop::sample::select(&["\"", "'", " ", "\r"][..])],
        )
            .prop_map(|(indent, key, sep, value, end)| {
                format!("{}{key}{sep}{value}{end}", " ".repeat(indent))
            });
        prop_oneof![
            12 => pair,
            1 => Just(String::new()),
            1 => Just("   ".to_owned()),
            1 => value().prop_map(|v| format!("  {v}")),
            1 => Just("# a comment".to_owned()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]
        /// Generated frontmatter, mostly near the plain shape: where the plain reading
        /// answers, it agrees with serde-saphyr.
        #[test]
        fn generated_frontmatter_is_read_alike(lines in prop::collection::vec(line(), 0..6)) {
            let yaml: String = lines.iter().map(|line| format!("{line}\n")).collect();
            agrees(&yaml);
        }
    }

    /// The generator reaches the plain shape often enough to test it.
    #[test]
    fn the_generator_reaches_the_plain_shape() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        let strategy = prop::collection::vec(line(), 1..6);
        let plain = (0..2000)
            .filter(|_| {
                let lines = strategy.new_tree(&mut runner).unwrap().current();
                let yaml: String = lines.iter().map(|line| format!("{line}\n")).collect();
                agrees(&yaml)
            })
            .count();
        // About 4 % (many draws repeat a key or hold a piece no plain value may): over the
        // property's 20,000 cases, some 800 documents read plainly, each checked against YAML.
        assert!(plain > 40, "only {plain} of 2000 were read plainly");
    }
}
