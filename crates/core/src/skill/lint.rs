//! The Agent Skills specification's rules, checked as the reference validator `skills-ref`
//! checks them (skill-format-and-roots.md §1.5). Every finding is a problem to show, never a
//! reason to hide a skill: agents load such skills anyway.

use std::borrow::Cow;
use std::fmt;

use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

use super::frontmatter::{Frontmatter, FrontmatterError};
use crate::text::escape;

pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

/// The keys the specification defines.
pub const SPEC_FIELDS: [&str; 6] = [
    "allowed-tools",
    "compatibility",
    "description",
    "license",
    "metadata",
    "name",
];

/// Keys an agent documents beyond the specification (§1.6), and who reads them.
const AGENT_FIELDS: [(&str, &str); 17] = [
    ("agent", "Claude Code"),
    ("argument-hint", "Claude Code, Copilot"),
    ("arguments", "Claude Code"),
    ("background", "Claude Code"),
    ("context", "Claude Code"),
    ("disable-model-invocation", "Claude Code, Copilot"),
    ("disallowed-tools", "Claude Code"),
    ("effort", "Claude Code"),
    ("hooks", "Claude Code"),
    ("model", "Claude Code"),
    ("paths", "Claude Code"),
    ("shell", "Claude Code"),
    ("user-invocable", "Claude Code"),
    ("user-invokable", "Copilot"),
    ("version", "several installers"),
    ("when_to_use", "Claude Code"),
    ("when-to-use", "Claude Code"),
];

/// One way a skill breaks the specification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lint {
    Frontmatter(FrontmatterError),
    MissingField(&'static str),
    NotAString(&'static str),
    EmptyField(&'static str),
    NameTooLong(usize),
    NameNotLowercase(String),
    NameEdgeHyphen,
    NameDoubleHyphen,
    NameInvalidChars(String),
    NameNotDirectory {
        name: String,
        dir: String,
    },
    DescriptionTooLong(usize),
    CompatibilityTooLong(usize),
    MetadataNotStrings,
    UnexpectedFields(Vec<String>),
    AgentField {
        field: String,
        readers: &'static str,
    },
    /// The field holds characters a terminal acts on or a reader cannot see, which an agent
    /// passes to its model as they are.
    HiddenCharacters(&'static str),
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lint::Frontmatter(error) => error.fmt(f),
            Lint::MissingField(field) => {
                write!(f, "missing required field in frontmatter: {field}")
            }
            Lint::NotAString(field) => write!(f, "field '{field}' must be a string"),
            Lint::EmptyField(field) => write!(f, "field '{field}' must be a non-empty string"),
            Lint::NameTooLong(chars) => write!(
                f,
                "skill name exceeds {MAX_NAME_CHARS} character limit ({chars} chars)"
            ),
            Lint::NameNotLowercase(name) => write!(f, "skill name '{name}' must be lowercase"),
            Lint::NameEdgeHyphen => f.write_str("skill name cannot start or end with a hyphen"),
            Lint::NameDoubleHyphen => f.write_str("skill name cannot contain consecutive hyphens"),
            Lint::NameInvalidChars(name) => write!(
                f,
                "skill name '{name}' contains invalid characters; only letters, digits and hyphens are allowed"
            ),
            Lint::NameNotDirectory { name, dir } => {
                write!(f, "directory name '{dir}' must match skill name '{name}'")
            }
            Lint::DescriptionTooLong(chars) => write!(
                f,
                "description exceeds {MAX_DESCRIPTION_CHARS} character limit ({chars} chars)"
            ),
            Lint::CompatibilityTooLong(chars) => write!(
                f,
                "compatibility exceeds {MAX_COMPATIBILITY_CHARS} character limit ({chars} chars)"
            ),
            Lint::MetadataNotStrings => {
                f.write_str("field 'metadata' must map string keys to string values")
            }
            Lint::UnexpectedFields(fields) => write!(
                f,
                "unexpected fields in frontmatter: {}; the specification allows only {}",
                fields.join(", "),
                SPEC_FIELDS.join(", ")
            ),
            Lint::HiddenCharacters(field) => {
                write!(f, "the {field} holds invisible or control characters")
            }
            Lint::AgentField { field, readers } => write!(
                f,
                "field '{field}' is not in the specification ({readers} reads it; other agents ignore it)"
            ),
        }
    }
}

/// Whether `text` holds a control character other than a line break or a tab (which a YAML
/// block keeps), or an invisible formatting character.
fn has_hidden_characters(text: &str) -> bool {
    text.chars()
        .any(|c| (c.is_control() && c != '\n' && c != '\t') || escape::is_invisible(c))
}

/// Every rule `frontmatter` breaks for a skill in the directory named `dir_name`.
pub fn lint(frontmatter: &Frontmatter, dir_name: &str) -> Vec<Lint> {
    let mut found = Vec::new();
    lint_name(frontmatter.fields.get("name"), dir_name, &mut found);
    for field in ["name", "description"] {
        if let Some(Value::String(text)) = frontmatter.fields.get(field)
            && has_hidden_characters(text)
        {
            found.push(Lint::HiddenCharacters(field));
        }
    }
    match frontmatter.fields.get("description") {
        None => found.push(Lint::MissingField("description")),
        Some(Value::String(text)) if text.trim().is_empty() => {
            found.push(Lint::EmptyField("description"));
        }
        Some(Value::String(text)) if text.chars().count() > MAX_DESCRIPTION_CHARS => {
            found.push(Lint::DescriptionTooLong(text.chars().count()));
        }
        Some(Value::String(_)) => {}
        Some(_) => found.push(Lint::NotAString("description")),
    }
    match frontmatter.fields.get("compatibility") {
        Some(Value::String(text)) if text.chars().count() > MAX_COMPATIBILITY_CHARS => {
            found.push(Lint::CompatibilityTooLong(text.chars().count()));
        }
        Some(Value::String(_)) | None => {}
        Some(_) => found.push(Lint::NotAString("compatibility")),
    }
    match frontmatter.fields.get("metadata") {
        Some(Value::Object(map)) if map.values().all(Value::is_string) => {}
        Some(Value::Null) | None => {}
        Some(_) => found.push(Lint::MetadataNotStrings),
    }
    let mut unexpected = Vec::new();
    for key in frontmatter.fields.keys() {
        if SPEC_FIELDS.contains(&key.as_str()) {
            continue;
        }
        match AGENT_FIELDS.iter().find(|(field, _)| field == key) {
            Some((_, readers)) => found.push(Lint::AgentField {
                field: key.clone(),
                readers,
            }),
            None => unexpected.push(key.clone()),
        }
    }
    if !unexpected.is_empty() {
        found.push(Lint::UnexpectedFields(unexpected));
    }
    found
}

fn lint_name(value: Option<&Value>, dir_name: &str, found: &mut Vec<Lint>) {
    let name = match value {
        None => return found.push(Lint::MissingField("name")),
        Some(Value::String(name)) => nfkc(name).trim().to_owned(),
        Some(_) => return found.push(Lint::NotAString("name")),
    };
    if name.is_empty() {
        return found.push(Lint::EmptyField("name"));
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        found.push(Lint::NameTooLong(chars));
    }
    if name != name.to_lowercase() {
        found.push(Lint::NameNotLowercase(name.clone()));
    }
    if name.starts_with('-') || name.ends_with('-') {
        found.push(Lint::NameEdgeHyphen);
    }
    if name.contains("--") {
        found.push(Lint::NameDoubleHyphen);
    }
    if !name.chars().all(|c| c.is_alphanumeric() || c == '-') {
        found.push(Lint::NameInvalidChars(name.clone()));
    }
    let dir = nfkc(dir_name);
    if dir != name {
        found.push(Lint::NameNotDirectory {
            name,
            dir: dir.into_owned(),
        });
    }
}

/// `text` in Unicode normalization form NFKC, as the validator compares names. ASCII text is
/// its own NFKC form, and nearly every name is ASCII: left as it is, not normalized character
/// by character into a new string for every skill a listing lints.
fn nfkc(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.nfkc().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lints(yaml: &str, dir: &str) -> Vec<Lint> {
        let fm = Frontmatter::parse(&format!("---\n{yaml}---\n")).unwrap();
        lint(&fm, dir)
    }

    #[test]
    fn a_skill_that_follows_the_specification_has_no_findings() {
        let yaml =
            "name: pdf-tools\ndescription: Reads PDFs.\nlicense: MIT\nmetadata:\n  author: me\n";
        assert_eq!(lints(yaml, "pdf-tools"), []);
    }

    #[test]
    fn hidden_characters_in_the_name_or_description_are_a_finding() {
        let hidden = Lint::HiddenCharacters("description");
        for description in [
            r#""Reads \e]0;title\a PDFs.""#,
            r#""Reads \u202e fdp.exe""#,
            r#""zero\u200bwidth""#,
            r#""a bell \a""#,
            r#""c1 \x9b2J""#,
        ] {
            let found = lints(&format!("name: pdf\ndescription: {description}\n"), "pdf");
            assert!(found.contains(&hidden), "{description}: {found:?}");
        }
        for fine in [
            "\"two\\nlines\\tand a tab\"",
            "|\n  a block\n  of lines\n",
            "Café, 日本語",
        ] {
            let found = lints(&format!("name: pdf\ndescription: {fine}\n"), "pdf");
            assert!(!found.contains(&hidden), "{fine}: {found:?}");
        }
        let found = lints("name: \"pdf\\e[2J\"\ndescription: ok\n", "pdf");
        assert!(found.contains(&Lint::HiddenCharacters("name")), "{found:?}");
        assert_eq!(
            hidden.to_string(),
            "the description holds invisible or control characters"
        );
    }

    #[test]
    fn each_name_rule_has_its_finding() {
        let cases: [(&str, &str, Lint); 7] = [
            ("PDF", "PDF", Lint::NameNotLowercase("PDF".into())),
            ("-pdf", "-pdf", Lint::NameEdgeHyphen),
            ("pdf--x", "pdf--x", Lint::NameDoubleHyphen),
            ("pdf_x", "pdf_x", Lint::NameInvalidChars("pdf_x".into())),
            (
                "pdf",
                "other",
                Lint::NameNotDirectory {
                    name: "pdf".into(),
                    dir: "other".into(),
                },
            ),
            ("''", "x", Lint::EmptyField("name")),
            ("[a]", "x", Lint::NotAString("name")),
        ];
        for (name, dir, expected) in cases {
            let found = lints(&format!("name: {name}\ndescription: d\n"), dir);
            assert!(found.contains(&expected), "{name}: {found:?}");
        }
        let long = "a".repeat(65);
        assert!(
            lints(&format!("name: {long}\ndescription: d\n"), &long)
                .contains(&Lint::NameTooLong(65))
        );
    }

    #[test]
    fn names_compare_after_unicode_normalisation() {
        // "café" composed in the frontmatter, decomposed in the directory name.
        let found = lints("name: caf\u{e9}\ndescription: d\n", "cafe\u{301}");
        assert_eq!(found, []);
        // Fullwidth letters are "pdf" in NFKC, whichever side is plain ASCII.
        assert_eq!(
            lints("name: \u{ff50}\u{ff44}\u{ff46}\ndescription: d\n", "pdf"),
            []
        );
        assert_eq!(
            lints("name: pdf\ndescription: d\n", "\u{ff50}\u{ff44}\u{ff46}"),
            []
        );
        assert_eq!(
            lints("name: pdf\ndescription: d\n", "pdx"),
            [Lint::NameNotDirectory {
                name: "pdf".into(),
                dir: "pdx".into()
            }]
        );
    }

    #[test]
    fn description_and_compatibility_limits() {
        assert!(lints("name: x\n", "x").contains(&Lint::MissingField("description")));
        assert!(
            lints("name: x\ndescription: '  '\n", "x").contains(&Lint::EmptyField("description"))
        );
        let long = "d".repeat(1025);
        assert!(
            lints(&format!("name: x\ndescription: {long}\n"), "x")
                .contains(&Lint::DescriptionTooLong(1025))
        );
        let compat = "c".repeat(501);
        assert!(
            lints(
                &format!("name: x\ndescription: d\ncompatibility: {compat}\n"),
                "x"
            )
            .contains(&Lint::CompatibilityTooLong(501))
        );
    }

    #[test]
    fn unknown_fields_are_named_and_agent_fields_say_who_reads_them() {
        let found = lints(
            "name: x\ndescription: d\nargument-hint: '[file]'\ncolour: red\n",
            "x",
        );
        assert!(found.contains(&Lint::UnexpectedFields(vec!["colour".into()])));
        assert!(found.contains(&Lint::AgentField {
            field: "argument-hint".into(),
            readers: "Claude Code, Copilot"
        }));
        assert!(found[0].to_string().contains("argument-hint"));
    }

    #[test]
    fn metadata_must_hold_strings() {
        assert!(
            lints("name: x\ndescription: d\nmetadata:\n  n: 3\n", "x")
                .contains(&Lint::MetadataNotStrings)
        );
    }
}
