//! The YAML frontmatter at the top of a `SKILL.md`, read with a YAML parser that bounds the
//! work a hostile document can cause (serde-saphyr's default budget: aliases, nesting, events).

use std::collections::BTreeMap;

use serde_json::Value;

/// Why a `SKILL.md` has no frontmatter that can be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FrontmatterError {
    #[error("SKILL.md must start with YAML frontmatter (---)")]
    Missing,
    #[error("SKILL.md frontmatter is not closed with ---")]
    Unclosed,
    #[error("invalid YAML in frontmatter: {0}")]
    InvalidYaml(String),
    #[error("SKILL.md frontmatter must be a YAML mapping")]
    NotAMapping,
}

/// The top-level keys of a frontmatter and their values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frontmatter {
    pub fields: BTreeMap<String, Value>,
}

impl Frontmatter {
    /// The frontmatter of `text`, the whole content of a `SKILL.md`.
    ///
    /// # Errors
    /// When the text does not open with a `---` line, never closes it, or holds YAML that is
    /// invalid or not a mapping.
    pub fn parse(text: &str) -> Result<Self, FrontmatterError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        parse_yaml(Block::of(text)?.yaml)
    }

    /// The value of a key that holds a string.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.fields.get(key).and_then(Value::as_str)
    }

    /// The version the skill declares: its `version`, else its `metadata.version` (where the
    /// specification puts what it does not name), as text; a number (`version: 2`) is one.
    pub fn version(&self) -> Option<String> {
        let of = |value: &Value| match value {
            Value::String(text) => Some(text.trim().to_owned()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        };
        let top = self.fields.get("version").and_then(of);
        let nested = || {
            self.fields
                .get("metadata")
                .and_then(|m| m.get("version"))
                .and_then(of)
        };
        top.or_else(nested).filter(|v| !v.is_empty())
    }
}

/// The YAML of a frontmatter block, read into its keys.
pub(super) fn parse_yaml(yaml: &str) -> Result<Frontmatter, FrontmatterError> {
    if yaml.trim().is_empty() {
        return Ok(Frontmatter::default());
    }
    // Most frontmatter is a few `key: value` lines, read as YAML would read them without
    // paying for a YAML parser; anything else is parsed.
    if let Some(fields) = super::plain_yaml::parse(yaml) {
        return Ok(Frontmatter { fields });
    }
    parse_with_saphyr(yaml)
}

/// [`parse_yaml`] by serde-saphyr alone: what the plain reading must always agree with.
pub(super) fn parse_with_saphyr(yaml: &str) -> Result<Frontmatter, FrontmatterError> {
    if yaml.trim().is_empty() {
        return Ok(Frontmatter::default());
    }
    let value: Value = serde_saphyr::from_str_with_options(yaml, yaml_options())
        .map_err(|error| FrontmatterError::InvalidYaml(first_line(&error.to_string())))?;
    match value {
        Value::Object(map) => Ok(Frontmatter {
            fields: map.into_iter().collect(),
        }),
        Value::Null => Ok(Frontmatter::default()),
        _ => Err(FrontmatterError::NotAMapping),
    }
}

/// serde-saphyr's defaults but for booleans: YAML 1.2's core schema, which the agents' parsers
/// follow (js-yaml, serde_yaml, eemeli/yaml), knows only `true` and `false`, so `name: y` or
/// `name: no` is text, not a YAML 1.1 boolean.
pub(super) fn yaml_options() -> serde_saphyr::Options {
    let mut options = serde_saphyr::Options::default();
    options.strict_booleans = true;
    options
}

/// A frontmatter block in a text that no longer holds a byte-order mark.
pub(super) struct Block<'a> {
    /// The YAML between the opening `---` line and the closing one.
    pub yaml: &'a str,
}

impl<'a> Block<'a> {
    /// The block `text` opens with: fences are `---` lines, spaces after them allowed.
    pub fn of(text: &'a str) -> Result<Self, FrontmatterError> {
        let mut lines = text.split_inclusive('\n');
        let opening = lines.next().ok_or(FrontmatterError::Missing)?;
        if opening.trim_end() != "---" {
            return Err(FrontmatterError::Missing);
        }
        let start = opening.len();
        let mut offset = start;
        for line in lines {
            if line.trim_end() == "---" {
                return Ok(Self {
                    yaml: &text[start..offset],
                });
            }
            offset += line.len();
        }
        Err(FrontmatterError::Unclosed)
    }

    /// The block when a fence is any line that is `---` once trimmed on both sides, so that an
    /// indented `---` opens or closes it too (Codex's `line.trim() == "---"`).
    pub fn trimmed(text: &'a str) -> Option<Self> {
        let mut lines = text.split_inclusive('\n');
        let opening = lines.next()?;
        if opening.trim() != "---" {
            return None;
        }
        let start = opening.len();
        let mut offset = start;
        for line in lines {
            if line.trim() == "---" {
                return Some(Self {
                    yaml: &text[start..offset],
                });
            }
            offset += line.len();
        }
        None
    }

    /// Everything after the opening `---` line, for the readers that take a block never
    /// closed to run to the end of the file.
    pub fn rest(text: &'a str) -> Option<&'a str> {
        let (opening, rest) = text.split_once('\n')?;
        (opening.trim_end() == "---").then_some(rest)
    }
}

/// Parser errors may quote the document over several lines; a listing wants one.
fn first_line(message: &str) -> String {
    message.lines().next().unwrap_or(message).trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_keys_between_the_fences() {
        let fm = Frontmatter::parse("---\nname: pdf\ndescription: \"Read PDFs\"\n---\n# Body\n")
            .unwrap();
        assert_eq!(fm.text("name"), Some("pdf"));
        assert_eq!(fm.text("description"), Some("Read PDFs"));
        assert_eq!(fm.fields.len(), 2);
    }

    #[test]
    fn crlf_and_a_byte_order_mark_are_read() {
        let fm = Frontmatter::parse("\u{feff}---\r\nname: pdf\r\n---\r\nbody").unwrap();
        assert_eq!(fm.text("name"), Some("pdf"));
    }

    #[test]
    fn each_broken_shape_has_its_reason() {
        assert_eq!(
            Frontmatter::parse("# no fences\n"),
            Err(FrontmatterError::Missing)
        );
        assert_eq!(Frontmatter::parse(""), Err(FrontmatterError::Missing));
        assert_eq!(
            Frontmatter::parse("---\nname: x\n"),
            Err(FrontmatterError::Unclosed)
        );
        assert_eq!(
            Frontmatter::parse("---\n- a\n- b\n---\n"),
            Err(FrontmatterError::NotAMapping)
        );
        assert!(matches!(
            Frontmatter::parse("---\nname: [unclosed\n---\n"),
            Err(FrontmatterError::InvalidYaml(_))
        ));
        assert!(matches!(
            Frontmatter::parse("---\nname: a\nname: b\n---\n"),
            Err(FrontmatterError::InvalidYaml(_))
        ));
    }

    #[test]
    fn an_alias_bomb_is_refused_not_expanded() {
        let mut yaml = String::from("---\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..12 {
            let refs = vec![format!("*a{}", level - 1); 10].join(", ");
            yaml.push_str(&format!("a{level}: &a{level} [{refs}]\n"));
        }
        yaml.push_str("---\n");
        assert!(matches!(
            Frontmatter::parse(&yaml),
            Err(FrontmatterError::InvalidYaml(_))
        ));
    }

    #[test]
    fn only_true_and_false_are_booleans() {
        let fm = Frontmatter::parse("---\nname: y\ndescription: no\nx: true\n---\n").unwrap();
        assert_eq!(fm.text("name"), Some("y"));
        assert_eq!(fm.text("description"), Some("no"));
        assert_eq!(fm.fields.get("x"), Some(&Value::Bool(true)));
    }

    #[test]
    fn an_empty_frontmatter_has_no_keys() {
        assert_eq!(
            Frontmatter::parse("---\n---\nbody").unwrap(),
            Frontmatter::default()
        );
    }
}
