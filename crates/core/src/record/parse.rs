//! Reading the ownership record exactly as agent-skill-installer 0.2.1 reads it
//! (ownership-record-and-digest.md §2.6): a deliberately strict parser that only recognises the
//! shape the installer writes, so that skilldeck and the installer agree on which skills carry
//! a record. Any other YAML style reads as no record, which is the installer's safe way to be
//! wrong, and must be skilldeck's too.

use std::collections::BTreeMap;

use super::Record;

/// The record in the text of a `SKILL.md`, if it has one in the installer's shape.
pub fn parse(skill_md: &[u8]) -> Option<Record> {
    let text = std::str::from_utf8(skill_md).ok()?;
    let mut lines = text.lines();
    if lines.next()? != "---" {
        return None;
    }
    let mut in_metadata = false;
    let mut values: BTreeMap<&str, String> = BTreeMap::new();
    for line in lines.take_while(|line| *line != "---") {
        if !line.starts_with(' ') {
            // Any unindented line, an empty one included, opens or closes the metadata map.
            in_metadata = line == "metadata:";
        } else if in_metadata && let Some((key, value)) = line.trim_start().split_once(": ") {
            // One value the installer could not have written voids the whole record.
            values.insert(key, unquote(value)?);
        }
    }
    Some(Record {
        installed_by: values.remove("installed-by")?,
        installed_version: values.remove("installed-version")?,
        content_digest: values.remove("content-digest")?,
    })
}

/// A YAML double-quoted scalar with only the escapes the installer writes.
fn unquote(value: &str) -> Option<String> {
    let inner = value.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let unescaped = match chars.next()? {
            '"' => '"',
            '\\' => '\\',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'u' => {
                // Up to four characters, read as a hexadecimal number the way the installer
                // reads them (a shorter tail at the end of the value is accepted too).
                let digits: String = chars.by_ref().take(4).collect();
                char::from_u32(u32::from_str_radix(&digits, 16).ok()?)?
            }
            _ => return None,
        };
        out.push(unescaped);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WRITTEN: &str = "---\nname: \"demo-skill\"\ndescription: \"A tiny demo skill.\"\nlicense: \"MIT\"\nmetadata:\n  author: \"Jane \\\"JJ\\\" Doe\"\n  installed-by: \"demo-prog\"\n  installed-version: \"1.0.0\"\n  content-digest: \"sha256:bcfb24e86bef216d74147cffcb1cbfc1d5f536bf97966d86a99fe9566fbe30e5\"\n---\n# Demo\n";

    #[test]
    fn reads_the_record_the_installer_writes() {
        let record = parse(WRITTEN.as_bytes()).unwrap();
        assert_eq!(record.installed_by, "demo-prog");
        assert_eq!(record.installed_version, "1.0.0");
        assert_eq!(
            record.content_digest,
            "sha256:bcfb24e86bef216d74147cffcb1cbfc1d5f536bf97966d86a99fe9566fbe30e5"
        );
    }

    #[test]
    fn crlf_lines_still_parse() {
        let crlf = WRITTEN.replace('\n', "\r\n");
        assert!(parse(crlf.as_bytes()).is_some());
    }

    #[test]
    fn an_unquoted_metadata_line_voids_the_record() {
        let edited = WRITTEN.replace("  author:", "  foo: bar\n  author:");
        assert_eq!(parse(edited.as_bytes()), None);
        let unquoted = WRITTEN.replace("\"demo-prog\"", "demo-prog");
        assert_eq!(parse(unquoted.as_bytes()), None);
    }

    #[test]
    fn shapes_the_installer_never_writes_are_no_record() {
        let cases = [
            WRITTEN.replacen("---", "\u{feff}---", 1),
            WRITTEN.replace("metadata:\n", "metadata: \n"),
            WRITTEN.replace("  installed-by", "\tinstalled-by"),
            WRITTEN.replace("  content-digest: ", "  content-digest:"),
            WRITTEN.replace("Jane \\\"JJ\\\" Doe", "bad \\x escape"),
            WRITTEN.replace("  installed-version: \"1.0.0\"\n", ""),
            "no frontmatter".to_owned(),
        ];
        for case in cases {
            assert_eq!(parse(case.as_bytes()), None, "{case}");
        }
        assert_eq!(parse(b"---\nmetadata:\n  installed-by: \"\xff\"\n"), None);
    }

    #[test]
    fn the_block_ends_at_an_empty_line_and_deeper_keys_flatten() {
        let text = "---\nmetadata:\n  nested:\n    installed-by: \"a\"\n  installed-version: \"1.0.0\"\n\n  content-digest: \"x\"\n---\n";
        assert_eq!(parse(text.as_bytes()), None);
        let text = "---\nmetadata:\n  nested:\n    installed-by: \"a\"\n  installed-version: \"1.0.0\"\n  content-digest: \"x\"\n";
        let record = parse(text.as_bytes()).unwrap();
        assert_eq!(record.installed_by, "a");
    }

    #[test]
    fn the_last_of_a_repeated_key_wins() {
        let text = WRITTEN.replace(
            "  installed-by: \"demo-prog\"\n",
            "  installed-by: \"first\"\n  installed-by: \"second\"\n",
        );
        assert_eq!(parse(text.as_bytes()).unwrap().installed_by, "second");
    }

    #[test]
    fn escapes_unquote_as_the_installer_quotes_them() {
        assert_eq!(
            unquote(r#""a\"b\\c\nd\re\tf""#).unwrap(),
            "a\"b\\c\nd\re\tf"
        );
        assert_eq!(unquote(r#""\u00e9\u0007""#).unwrap(), "é\u{7}");
        assert_eq!(unquote(r#""\ud800""#), None);
        assert_eq!(unquote(r#""\q""#), None);
        assert_eq!(unquote(r#""unterminated"#), None);
        assert_eq!(unquote("\""), None);
    }
}
