//! Writing the record into a `SKILL.md`, in the exact shape agent-skill-installer 0.2.1 renders
//! (ownership-record-and-digest.md §2.8) and its strict parser reads (§2.6).
//!
//! Only the frontmatter's `metadata:` block is rewritten: its existing keys, each value as a
//! YAML double-quoted string (the strict parser voids a record beside any unquoted value), then
//! `installed-by`, `installed-version` and `content-digest`. Every other line is kept byte for
//! byte. The result is proved rather than trusted: a YAML parse of the new frontmatter must give
//! the old data plus the record, and the strict parser must read the record back; a `SKILL.md`
//! for which either fails is refused, never written.

use std::ops::Range;

use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::Value;

use super::{Digest, RECORD_KEYS, Record, parse};
use crate::skill::{Frontmatter, FrontmatterError};

/// The name skilldeck writes as `installed-by`.
pub const INSTALLED_BY: &str = "skilldeck";

/// The version skilldeck writes as `installed-version`.
pub const INSTALLED_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Why a `SKILL.md` cannot carry a record without changing what it says.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StampError {
    #[error("cannot carry the installer's record: {0}")]
    Frontmatter(FrontmatterError),
    #[error(
        "has a closing --- line with trailing spaces, which the installer's parser does not read as the end of its frontmatter"
    )]
    LooseClosingLine,
    #[error(
        "has metadata that is not a map of text values, so the installer's record cannot be added to it"
    )]
    MetadataNotText,
    #[error(
        "has the metadata key {0:?}, which cannot be written in the plain form the installer's parser reads"
    )]
    MetadataKey(String),
    #[error("has metadata skilldeck could not find the block of, to add the installer's record to")]
    MetadataNotFound,
    #[error("would say something else with the installer's record added to its frontmatter")]
    WouldChange,
}

/// A `SKILL.md` with the record written in and its `content-digest` still empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamped {
    text: String,
    /// Where the empty `""` of the `content-digest` line sits in `text`.
    digest_value: Range<usize>,
}

impl Stamped {
    /// The text with the digest empty: what the content digest is computed over.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The final text, with `digest` written into the record.
    pub fn seal(&self, digest: &Digest) -> String {
        let mut sealed = String::with_capacity(self.text.len() + digest.as_str().len());
        sealed.push_str(&self.text[..self.digest_value.start]);
        sealed.push_str(&quoted(digest.as_str()));
        sealed.push_str(&self.text[self.digest_value.end..]);
        sealed
    }
}

/// Write the record of `installed_by` at `version` into `skill_md`, the digest left empty.
///
/// A byte-order mark is dropped: the installer's parser reads no record behind one.
///
/// # Errors
/// When the text has no frontmatter that reads, or its metadata cannot take the record in the
/// installer's shape without its data changing.
pub fn stamp(skill_md: &str, installed_by: &str, version: &str) -> Result<Stamped, StampError> {
    let text = skill_md.strip_prefix('\u{feff}').unwrap_or(skill_md);
    let before = Frontmatter::parse(text).map_err(StampError::Frontmatter)?;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let newline = if lines.first().is_some_and(|l| l.ends_with("\r\n")) {
        "\r\n"
    } else {
        "\n"
    };
    let close = closing_line(&lines)?;
    let pairs = metadata_in_order(&lines[1..close].concat())?;
    let kept: Vec<&(String, String)> = pairs
        .iter()
        .filter(|(key, _)| !RECORD_KEYS.contains(&key.as_str()))
        .collect();
    let record = Rendered {
        kept: &kept,
        installed_by,
        version,
        newline,
    };
    // A `metadata:` with no value is a block too: writing a second one beside it would give
    // YAML two keys, of which one reader takes the last and another refuses.
    let blocks: Vec<Option<Range<usize>>> = match before.fields.get("metadata") {
        None => vec![None],
        Some(_) => metadata_blocks(&lines, close)
            .into_iter()
            .map(Some)
            .collect(),
    };
    if blocks.is_empty() {
        return Err(StampError::MetadataNotFound);
    }
    // A line that reads as the block's start may sit inside a multi-line string: each one is
    // tried, and the proof decides.
    blocks
        .into_iter()
        .map(|block| record.written_into(&lines, close, block.as_ref()))
        .find(|stamped| prove(&before, &kept, stamped, installed_by, version).is_ok())
        .ok_or(StampError::WouldChange)
}

/// The record's block as it is written.
struct Rendered<'a> {
    kept: &'a [&'a (String, String)],
    installed_by: &'a str,
    version: &'a str,
    newline: &'a str,
}

impl Rendered<'_> {
    /// `lines` with the block written in place of `block`, or before the closing line at
    /// `close` when there is none.
    fn written_into(&self, lines: &[&str], close: usize, block: Option<&Range<usize>>) -> Stamped {
        let Self {
            kept,
            installed_by,
            version,
            newline,
        } = *self;
        let mut rendered = String::from("metadata:");
        rendered.push_str(newline);
        for (key, value) in kept {
            rendered.push_str(&format!("  {key}: {}{newline}", quoted(value)));
        }
        rendered.push_str(&format!(
            "  installed-by: {}{newline}  installed-version: {}{newline}",
            quoted(installed_by),
            quoted(version)
        ));
        let digest_line = "  content-digest: ";
        let (head, tail) = match block {
            Some(range) => (&lines[..range.start], &lines[range.end..]),
            None => (&lines[..close], &lines[close..]),
        };
        let mut out = head.concat();
        out.push_str(&rendered);
        let start = out.len() + digest_line.len();
        out.push_str(digest_line);
        out.push_str("\"\"");
        out.push_str(newline);
        out.push_str(&tail.concat());
        Stamped {
            text: out,
            digest_value: start..start + 2,
        }
    }
}

/// Check the stamped text says what the original said, plus the record, to both readers.
fn prove(
    before: &Frontmatter,
    kept: &[&(String, String)],
    stamped: &Stamped,
    installed_by: &str,
    version: &str,
) -> Result<(), StampError> {
    let after = Frontmatter::parse(&stamped.text).map_err(|_| StampError::WouldChange)?;
    let mut metadata: serde_json::Map<String, Value> = kept
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    for (key, value) in RECORD_KEYS.iter().zip([installed_by, version, ""]) {
        metadata.insert((*key).to_owned(), Value::String(value.to_owned()));
    }
    let mut expected = before.fields.clone();
    expected.insert("metadata".to_owned(), Value::Object(metadata));
    let record = Record {
        installed_by: installed_by.to_owned(),
        installed_version: version.to_owned(),
        content_digest: String::new(),
    };
    // Read back as stamping reads it, so that what is stamped once can be stamped again (a
    // repeated key, which YAML reads as the last one wins, is caught here).
    let written: Vec<String> = kept
        .iter()
        .map(|(key, _)| key.clone())
        .chain(RECORD_KEYS.iter().map(|key| (*key).to_owned()))
        .collect();
    let reread = frontmatter_yaml(&stamped.text)
        .and_then(|yaml| metadata_in_order(&yaml))
        .map(|pairs| pairs.into_iter().map(|(key, _)| key).collect::<Vec<_>>());
    if after.fields == expected
        && reread.as_ref() == Ok(&written)
        && parse(stamped.text.as_bytes()).as_ref() == Some(&record)
    {
        Ok(())
    } else {
        Err(StampError::WouldChange)
    }
}

/// Where the frontmatter of `lines` (a `SKILL.md` split after each line ending) closes.
fn closing_line(lines: &[&str]) -> Result<usize, StampError> {
    // Frontmatter::parse found an opening line and a closing one, so both exist here.
    let close = lines
        .iter()
        .skip(1)
        .position(|line| bare(line).trim_end() == "---")
        .map(|i| i + 1)
        .ok_or(StampError::Frontmatter(FrontmatterError::Unclosed))?;
    if bare(lines[close]) != "---" {
        return Err(StampError::LooseClosingLine);
    }
    Ok(close)
}

/// The YAML between a `SKILL.md`'s fences.
fn frontmatter_yaml(text: &str) -> Result<String, StampError> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let close = closing_line(&lines)?;
    Ok(lines[1..close].concat())
}

/// Each stretch of lines that may be the top-level `metadata:` key and everything indented
/// below it, before the frontmatter's closing line at `close`: a line that opens it may also
/// sit inside a multi-line string. Blank and comment lines that end a block belong to what
/// follows and are kept.
fn metadata_blocks(lines: &[&str], close: usize) -> Vec<Range<usize>> {
    // The key itself, not a longer key that starts with it (`metadata:x: y` is the key
    // `metadata:x`).
    let opens = |line: &str| {
        line.strip_prefix("metadata:")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
    };
    (1..close)
        .filter(|&i| opens(bare(lines[i])))
        .map(|start| {
            let mut end = start + 1;
            while end < close {
                let line = bare(lines[end]);
                let inside = line.trim().is_empty()
                    || line.starts_with([' ', '\t'])
                    || line.starts_with('#');
                if !inside {
                    break;
                }
                end += 1;
            }
            while end > start + 1 {
                let line = bare(lines[end - 1]).trim();
                if line.is_empty() || line.starts_with('#') {
                    end -= 1;
                } else {
                    break;
                }
            }
            start..end
        })
        .collect()
}

/// The `metadata` map's entries in the order the author wrote them.
fn metadata_in_order(yaml: &str) -> Result<Vec<(String, String)>, StampError> {
    #[derive(Deserialize)]
    struct Head {
        #[serde(default)]
        metadata: Option<Ordered>,
    }
    if yaml.trim().is_empty() {
        return Ok(Vec::new());
    }
    let head: Head = serde_saphyr::from_str(yaml).map_err(|_| StampError::MetadataNotText)?;
    let pairs = head.metadata.map(|m| m.0).unwrap_or_default();
    let mut text = Vec::with_capacity(pairs.len());
    for (key, value) in pairs {
        let Value::String(value) = value else {
            return Err(StampError::MetadataNotText);
        };
        if !is_plain_key(&key) {
            return Err(StampError::MetadataKey(key));
        }
        text.push((key, value));
    }
    Ok(text)
}

/// A key YAML reads back unquoted as itself and the strict parser splits off cleanly.
fn is_plain_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
}

/// A YAML map kept in document order.
struct Ordered(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry::<String, Value>()? {
                    pairs.push(pair);
                }
                Ok(Ordered(pairs))
            }
        }
        deserializer.deserialize_map(Pairs)
    }
}

/// A YAML double-quoted string, escaped as the installer escapes it.
fn quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A line without its line ending.
fn bare(line: &str) -> &str {
    line.trim_end_matches(['\n', '\r'])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::digest_of;
    use std::path::Path;

    fn stamped(text: &str) -> String {
        stamp(text, "skilldeck", "0.1.0").unwrap().text
    }

    #[test]
    fn a_skill_without_metadata_gets_the_block_before_the_closing_line() {
        let text = "---\nname: demo\ndescription: d\n---\n# Body\n";
        assert_eq!(
            stamped(text),
            "---\nname: demo\ndescription: d\nmetadata:\n  installed-by: \"skilldeck\"\n  installed-version: \"0.1.0\"\n  content-digest: \"\"\n---\n# Body\n"
        );
    }

    #[test]
    fn existing_metadata_is_quoted_in_order_and_the_rest_kept_byte_for_byte() {
        let text = "---\nname: demo\nmetadata:\n  zeta: last one\n  # a comment: dropped\n  alpha: 'a \"q\"'\n\n# kept comment\nlicense: MIT\n---\nbody: not yaml\n";
        assert_eq!(
            stamped(text),
            "---\nname: demo\nmetadata:\n  zeta: \"last one\"\n  alpha: \"a \\\"q\\\"\"\n  installed-by: \"skilldeck\"\n  installed-version: \"0.1.0\"\n  content-digest: \"\"\n\n# kept comment\nlicense: MIT\n---\nbody: not yaml\n"
        );
    }

    #[test]
    fn a_folded_value_and_an_old_record_are_rewritten_as_the_installer_writes_them() {
        let text = "---\nname: demo\nmetadata:\n  note: >\n    two\n    lines\n  installed-by: other\n---\n";
        let out = stamped(text);
        assert!(out.contains("  note: \"two lines\\n\"\n"), "{out}");
        assert_eq!(out.matches("installed-by").count(), 1, "{out}");
        assert_eq!(parse(out.as_bytes()).unwrap().installed_by, "skilldeck");
    }

    /// Found by the frontmatter fuzz target: the record was added after a key that starts
    /// with `metadata:`, and stamping that text again took the key for the block.
    #[test]
    fn a_key_that_starts_with_metadata_is_not_the_block() {
        let text = "---\nname: demo\nmetadata:({k: v}\n---\n";
        let once = stamped(text);
        assert!(
            once.starts_with("---\nname: demo\nmetadata:({k: v}\nmetadata:\n"),
            "{once}"
        );
        assert_eq!(stamped(&once), once);
    }

    /// Found by the frontmatter fuzz target: a `metadata:` line inside a multi-line quoted
    /// string was taken for the block when the stamped text was stamped again.
    #[test]
    fn a_metadata_line_inside_a_string_is_not_the_block() {
        let text = "---\nname: \"sid\nmetadata:\n  more of the name\"\n---\n# Demo\n";
        let once = stamped(text);
        assert!(once.ends_with("  more of the name\"\nmetadata:\n  installed-by: \"skilldeck\"\n  installed-version: \"0.1.0\"\n  content-digest: \"\"\n---\n# Demo\n"), "{once}");
        assert_eq!(stamped(&once), once);
    }

    /// Found by the frontmatter fuzz target: a `metadata` key the block finder cannot see
    /// (behind a tag) got a second `metadata:` block, which YAML read as the last one wins and
    /// stamping again refused.
    #[test]
    fn a_metadata_key_the_finder_cannot_see_is_not_written_twice() {
        assert_eq!(
            stamp("---\n!!:a: metadata:\n\n---\n", "skilldeck", "0.1.0"),
            Err(StampError::MetadataNotFound)
        );
        let once = stamped("---\nname: demo\nmetadata:\n---\n");
        assert_eq!(
            once,
            "---\nname: demo\nmetadata:\n  installed-by: \"skilldeck\"\n  installed-version: \"0.1.0\"\n  content-digest: \"\"\n---\n"
        );
        assert_eq!(stamped(&once), once);
    }

    #[test]
    fn a_repeated_metadata_key_fails_the_proof() {
        let text = "---\nname: demo\n---\n";
        let before = Frontmatter::parse(text).unwrap();
        let mut twice = stamp(text, "skilldeck", "0.1.0").unwrap();
        twice.text = twice
            .text
            .replacen("name: demo\n", "name: demo\nmetadata:\n", 1);
        assert_eq!(
            prove(&before, &[], &twice, "skilldeck", "0.1.0"),
            Err(StampError::WouldChange)
        );
    }

    #[test]
    fn a_stamp_that_reads_differently_is_caught_by_the_proof() {
        let before = Frontmatter::parse("---\nname: demo\n---\n").unwrap();
        let kept: Vec<&(String, String)> = Vec::new();
        let good = stamp("---\nname: demo\n---\n", "skilldeck", "0.1.0").unwrap();
        prove(&before, &kept, &good, "skilldeck", "0.1.0").unwrap();
        for altered in [
            good.text.replace("name: demo", "name: other"),
            good.text.replace("name: demo", "name: demo\nextra: field"),
            good.text.replace(
                "  installed-version: \"0.1.0\"",
                "  installed-version: 0.1.0",
            ),
            good.text
                .replace("metadata:\n", "metadata:\n  more: \"x\"\n"),
        ] {
            let stamped = Stamped {
                text: altered,
                digest_value: good.digest_value.clone(),
            };
            assert_eq!(
                prove(&before, &kept, &stamped, "skilldeck", "0.1.0"),
                Err(StampError::WouldChange),
                "{}",
                stamped.text
            );
        }
    }

    #[test]
    fn crlf_files_stay_crlf() {
        let text = "---\r\nname: demo\r\n---\r\nbody\r\n";
        let out = stamped(text);
        assert!(out.contains("metadata:\r\n  installed-by: \"skilldeck\"\r\n"));
        assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
    }

    #[test]
    fn metadata_that_would_change_meaning_is_refused() {
        let cases = [
            ("---\nmetadata:\n  n: 3\n---\n", StampError::MetadataNotText),
            ("---\nmetadata: [a, b]\n---\n", StampError::MetadataNotText),
            (
                "---\nmetadata:\n  'a b': x\n---\n",
                StampError::MetadataKey("a b".into()),
            ),
            (
                "---\nmetadata: &m\n  a: x\nother: *m\n---\n",
                StampError::WouldChange,
            ),
            (
                "---\n\"metadata\":\n  a: x\n---\n",
                StampError::MetadataNotFound,
            ),
            ("---\nname: x\n--- \nbody\n", StampError::LooseClosingLine),
        ];
        for (text, expected) in cases {
            assert_eq!(
                stamp(text, "skilldeck", "0.1.0").unwrap_err(),
                expected,
                "{text}"
            );
        }
        assert!(matches!(
            stamp("no frontmatter", "s", "1.0.0"),
            Err(StampError::Frontmatter(FrontmatterError::Missing))
        ));
    }

    #[test]
    fn sealing_writes_a_digest_the_blanked_text_reproduces() {
        let text =
            "\u{feff}---\nname: demo\nmetadata:\n  author: \"Jane \\\"JJ\\\" Doe\"\n---\nbody\n";
        let stamp = stamp(text, "skilldeck", "0.1.0").unwrap();
        let other: &[u8] = b"# CLI\n";
        let digest = digest_of([
            (Path::new("SKILL.md"), stamp.text().as_bytes()),
            (Path::new("references/cli.md"), other),
        ]);
        let sealed = stamp.seal(&digest);
        assert!(
            sealed.starts_with("---\n"),
            "the byte-order mark is dropped"
        );
        let record = parse(sealed.as_bytes()).unwrap();
        assert_eq!(record.content_digest, digest.as_str());
        let again = digest_of([
            (Path::new("SKILL.md"), sealed.as_bytes()),
            (Path::new("references/cli.md"), other),
        ]);
        assert_eq!(again, digest);
    }

    #[test]
    fn control_characters_are_escaped_as_the_installer_escapes_them() {
        assert_eq!(quoted("a\u{7}b\tc"), "\"a\\u0007b\\tc\"");
        assert_eq!(quoted("é"), "\"é\"");
    }
}
