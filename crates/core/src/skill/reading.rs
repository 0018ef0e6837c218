//! How agents part ways in reading a frontmatter. skilldeck parses a `SKILL.md` once, strictly
//! (see [`Frontmatter`]); when that strict reading is not the whole story (a byte-order mark, a
//! padded fence, YAML that fails, a `name` or `description` that is not text), it also keeps
//! what each other way of reading finds, computed then and only then. Each agent's [`Reader`]
//! (in the roots table) picks from these: the one place that says how that agent reads.

use serde::Deserialize;
use serde_json::Value as Json;
use std::borrow::Cow;

use super::frontmatter::{Block, Frontmatter, FrontmatterError, parse_yaml, yaml_options};

/// What one frontmatter key holds, as far as an agent's requirements go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Absent,
    /// The key with no value, or `null`.
    Null,
    Text(String),
    /// A number or a boolean: `text` as YAML renders it (then as it is written, where the
    /// line reader has it), `js` as JavaScript's `String()` renders the parsed value, `None`
    /// when JavaScript counts it false (`0`, `false`).
    Scalar {
        text: String,
        js: Option<String>,
    },
    /// A list or a mapping, and JavaScript's `String()` of it (`[a, b]` is `a,b`, a mapping
    /// `[object Object]`).
    Compound {
        js: String,
    },
}

impl Value {
    fn of(value: Option<&Json>) -> Value {
        match value {
            None => Value::Absent,
            Some(Json::Null) => Value::Null,
            Some(Json::String(text)) => Value::Text(text.clone()),
            Some(scalar @ (Json::Number(_) | Json::Bool(_))) => Value::Scalar {
                text: scalar.to_string(),
                js: js_truthy(scalar).then(|| js_string(scalar)),
            },
            Some(compound) => Value::Compound {
                js: js_string(compound),
            },
        }
    }

    fn is_text(&self) -> bool {
        matches!(self, Value::Text(_))
    }
}

/// What JavaScript's `String()` makes of a parsed YAML value (an array joins its items with
/// `,`, a `null` item as nothing; a mapping is `[object Object]`).
fn js_string(value: &Json) -> String {
    match value {
        Json::Null => String::new(),
        Json::Bool(b) => b.to_string(),
        Json::Number(number) => js_number(number),
        Json::String(text) => text.clone(),
        Json::Array(items) => items.iter().map(js_string).collect::<Vec<_>>().join(","),
        Json::Object(_) => "[object Object]".to_owned(),
    }
}

/// A number as JavaScript prints it: whole numbers without a fraction, `1e+21` and up with
/// an exponent.
fn js_number(number: &serde_json::Number) -> String {
    if number.is_i64() || number.is_u64() {
        return number.to_string();
    }
    let float = number.as_f64().unwrap_or(0.0);
    if float == 0.0 {
        "0".to_owned()
    } else if float.abs() >= 1e21 {
        let printed = format!("{float:e}");
        match printed.split_once('e') {
            Some((mantissa, exponent)) if !exponent.starts_with('-') => {
                format!("{mantissa}e+{exponent}")
            }
            _ => printed,
        }
    } else if float.fract() == 0.0 {
        format!("{float:.0}")
    } else {
        float.to_string()
    }
}

/// Whether JavaScript counts a number or a boolean true.
fn js_truthy(scalar: &Json) -> bool {
    match scalar {
        Json::Bool(b) => *b,
        Json::Number(number) => number.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        _ => true,
    }
}

/// The `name` and `description` one way of reading found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fields {
    pub name: Value,
    pub description: Value,
}

impl Fields {
    pub(super) fn of(frontmatter: &Frontmatter) -> Fields {
        Fields {
            name: Value::of(frontmatter.fields.get("name")),
            description: Value::of(frontmatter.fields.get("description")),
        }
    }

    const EMPTY: Fields = Fields {
        name: Value::Absent,
        description: Value::Absent,
    };

    fn both_text(&self) -> bool {
        self.name.is_text() && self.description.is_text()
    }

    /// A `name` or `description` that is a list or a mapping.
    fn holds_compound(&self) -> bool {
        [&self.name, &self.description]
            .iter()
            .any(|value| matches!(value, Value::Compound { .. }))
    }
}

/// What the other ways of reading found in a `SKILL.md` the strict reading alone does not
/// settle. Each is `None` where it does not apply or finds nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Readings {
    /// The file could not be read (a link to nothing): no agent lists it.
    pub unread: bool,
    /// The `SKILL.md` is a symbolic link.
    pub linked: bool,
    /// A byte-order mark stands before the opening `---`.
    pub bom: bool,
    /// The opening `---` has spaces or tabs after it.
    pub padded_fence: bool,
    /// The block is YAML but not a mapping.
    pub not_a_mapping: bool,
    /// The strict reading, when it parsed.
    pub strict: Option<Fields>,
    /// YAML where tabs before a key are not indentation (js-yaml's scanner).
    pub tab_blind: Option<Fields>,
    /// The same, after every top-level value holding a `:` is made a block scalar.
    pub tab_blind_quoted: Option<Fields>,
    /// After every top-level value holding a `:` before white space is made a block scalar.
    pub quoted: Option<Fields>,
    /// Only `name` and `description` deserialised, so repeats of other keys pass.
    pub known_keys: Option<Fields>,
    /// The line reader's `name:` and `description:` lines.
    pub lines: Option<Fields>,
    /// A block never closed: the rest of the file read as the YAML.
    pub rest: Option<Fields>,
    /// When an indented `---` line makes a fence for readers that trim both sides, the block
    /// those readers see, read strictly (`None` inside when that does not parse).
    pub trimmed: Option<Option<Fields>>,
}

/// One way to read a frontmatter the strict YAML refuses, tried in a [`Reader`]'s order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    TabBlind,
    TabBlindQuoted,
    Quoted,
    KnownKeys,
    /// Also taken when the YAML parses but holds no text `name` and `description`.
    Lines,
}

/// How an agent reads a `SKILL.md`'s frontmatter where agents differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reader {
    /// A `SKILL.md` that is a symbolic link is read.
    pub follows_link: bool,
    /// A `---` line with white space before it is a fence too.
    pub indented_fence: bool,
    /// A byte-order mark before the opening `---` is passed over.
    pub skips_bom: bool,
    /// An opening `---` with spaces after it still opens the block.
    pub padded_fence: bool,
    /// A block that never closes runs to the end of the file.
    pub unclosed_runs_on: bool,
    /// A block that is YAML but not a mapping counts as an empty one.
    pub any_yaml: bool,
    /// How a value that is not text, or is blank, reads.
    pub values: Values,
    /// What it tries when the strict YAML fails, in order.
    pub fallbacks: &'static [Fallback],
    /// Each run of white space in a name or a description is one space, none at either end,
    /// before the reader checks or lists it.
    pub folds_white_space: bool,
    /// `name` and `description` are deserialised as text, so a list or a mapping in either
    /// fails the reading as invalid YAML does, and the fallbacks are tried (and a fallback
    /// that still finds one fails too).
    pub typed_text: bool,
}

impl Reader {
    /// The strict reading and nothing else.
    pub const STRICT: Reader = Reader {
        follows_link: true,
        indented_fence: false,
        skips_bom: true,
        padded_fence: true,
        unclosed_runs_on: false,
        any_yaml: false,
        values: Values::Yaml,
        fallbacks: &[],
        folds_white_space: false,
        typed_text: false,
    };
}

/// How a reader takes a `name` or `description` that is not plain text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// As YAML types it: only text is text.
    Yaml,
    /// `null` counts as absent, numbers and booleans as their text as written, and a value of
    /// only white space as absent.
    Lenient,
    /// As a JavaScript loader that tests `!value` and then takes `String(value)`: `null`, `0`,
    /// `false` and `""` are absent, anything else is its `String()` (`12`, `0x1f` is `31`,
    /// `[ab]` is `ab`, a mapping `[object Object]`).
    Js,
}

/// What an agent reading with some [`Reader`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading<'a> {
    /// Whether the reader reads the `SKILL.md` at all.
    pub file: File,
    /// A frontmatter block the reader takes.
    pub frontmatter: bool,
    pub name: Field<'a>,
    pub description: Field<'a>,
    /// The reader folds runs of white space ([`Reader::folds_white_space`]).
    pub folds: bool,
}

/// Whether a reader reads a `SKILL.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum File {
    Read,
    /// It cannot be opened (a link to nothing).
    Unreadable,
    /// It is a symbolic link, which this reader does not follow.
    LinkNotFollowed,
}

/// One key as a reader sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field<'a> {
    Absent,
    Text(&'a str),
    /// There, but not text: the agents that read it drop the skill.
    NotText,
}

impl<'a> Field<'a> {
    pub fn text(self) -> Option<&'a str> {
        match self {
            Field::Text(text) => Some(text),
            _ => None,
        }
    }

    fn of(value: &'a Value, values: Values) -> Field<'a> {
        if values == Values::Js {
            return match value {
                Value::Text(text) if !text.is_empty() => Field::Text(text),
                Value::Scalar { js: Some(js), .. } | Value::Compound { js } => Field::Text(js),
                _ => Field::Absent,
            };
        }
        let lenient = values == Values::Lenient;
        match value {
            Value::Absent => Field::Absent,
            Value::Null if lenient => Field::Absent,
            Value::Text(text) if lenient && text.trim().is_empty() => Field::Absent,
            Value::Text(text) | Value::Scalar { text, .. } if lenient || value.is_text() => {
                Field::Text(text)
            }
            _ => Field::NotText,
        }
    }
}

impl Readings {
    /// The other readings of `text`, when the strict one (`strict`) does not settle every
    /// reader; `None` for the common file that every reader reads alike.
    pub(super) fn of(
        text: &str,
        block: &Result<Block<'_>, FrontmatterError>,
        strict: &Result<Frontmatter, FrontmatterError>,
        linked: bool,
    ) -> Option<Box<Readings>> {
        let bom = text.starts_with('\u{feff}');
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        let opening = body.split('\n').next().unwrap_or("");
        let padded_fence = opening.trim_end_matches('\r') != "---" && opening.trim_end() == "---";
        // Every reader reads a `name` and a `description` that are text with something besides
        // white space alike; anything else may part them.
        let filled = |frontmatter: &Frontmatter, key: &str| {
            frontmatter
                .text(key)
                .is_some_and(|text| !text.trim().is_empty())
        };
        let settled = strict
            .as_ref()
            .is_ok_and(|fm| filled(fm, "name") && filled(fm, "description"));
        // A `---` inside the block (or no closing one) may be an indented fence: rare, and
        // the only case where trimming both sides of a fence changes the block.
        let indented = match block {
            Ok(block) => block.yaml.contains("---"),
            Err(_) => opening.trim() == "---",
        };
        let trimmed = indented
            .then(|| Block::trimmed(text))
            .flatten()
            .filter(|trimmed| {
                block
                    .as_ref()
                    .map_or(true, |block| block.yaml != trimmed.yaml)
            })
            .map(|trimmed| parse_fields(trimmed.yaml).ok());
        if !bom && !padded_fence && !linked && trimmed.is_none() && settled {
            return None;
        }
        let fields = strict.as_ref().ok().map(Fields::of);
        let mut readings = Readings {
            linked,
            bom,
            padded_fence,
            strict: fields,
            trimmed,
            ..Readings::default()
        };
        match (strict, block) {
            (Err(FrontmatterError::NotAMapping), _) => readings.not_a_mapping = true,
            (Err(FrontmatterError::Unclosed), Err(_)) => {
                readings.rest = Block::rest(body).and_then(|yaml| parse_fields(yaml).ok());
            }
            (Err(FrontmatterError::InvalidYaml(_)), Ok(block)) => readings.retry(block.yaml),
            // A reader that takes the values as text fails on a list or a mapping as on
            // invalid YAML, and retries the same ways.
            (Ok(_), Ok(block)) if readings.strict.as_ref().is_some_and(Fields::holds_compound) => {
                readings.retry(block.yaml);
            }
            (Ok(_), Ok(block)) => readings.lines = Some(lines(block.yaml)),
            _ => {}
        }
        // A number or a boolean is read as text by some agents: as it is written, which the
        // line reader has (`1.0` stays `1.0`, `0x10` stays `0x10`).
        if let (Some(strict), Some(lines)) = (&mut readings.strict, &readings.lines) {
            as_written(&mut strict.name, &lines.name);
            as_written(&mut strict.description, &lines.description);
        }
        Some(Box::new(readings))
    }

    /// Every other way of reading `yaml` the strict reading failed on.
    fn retry(&mut self, yaml: &str) {
        let blind = tab_blind(yaml);
        self.tab_blind = parse_fields(&blind).ok();
        self.tab_blind_quoted = parse_fields(&quote_colons(&blind, Colon::Any)).ok();
        self.quoted = parse_fields(&quote_colons(yaml, Colon::BeforeWhiteSpace)).ok();
        self.known_keys = known_keys(yaml);
        self.lines = Some(lines(yaml));
    }

    /// The reading of a `SKILL.md` that could not be read.
    pub(super) fn unread() -> Box<Readings> {
        Box::new(Readings {
            unread: true,
            ..Readings::default()
        })
    }

    /// Whether `reader` reads the file at all.
    pub fn file(&self, reader: Reader) -> File {
        if self.unread {
            File::Unreadable
        } else if self.linked && !reader.follows_link {
            File::LinkNotFollowed
        } else {
            File::Read
        }
    }

    /// What `reader` finds.
    pub fn by(&self, reader: Reader) -> Option<(&Fields, Values)> {
        if self.bom && !reader.skips_bom || (self.padded_fence && !reader.padded_fence) {
            return None;
        }
        let values = reader.values;
        if let (Some(trimmed), true) = (&self.trimmed, reader.indented_fence) {
            return trimmed.as_ref().map(|fields| (fields, values));
        }
        let fails = |fields: &Fields| reader.typed_text && fields.holds_compound();
        if let Some(strict) = self.strict.as_ref().filter(|strict| !fails(strict)) {
            let lines_instead = reader.fallbacks.contains(&Fallback::Lines) && !strict.both_text();
            return match (&self.lines, lines_instead) {
                (Some(lines), true) => Some((lines, Values::Yaml)),
                _ => Some((strict, values)),
            };
        }
        if self.not_a_mapping {
            return reader.any_yaml.then_some((&Fields::EMPTY, Values::Yaml));
        }
        if let Some(rest) = &self.rest {
            return reader.unclosed_runs_on.then_some((rest, values));
        }
        reader.fallbacks.iter().find_map(|fallback| {
            let found = match fallback {
                Fallback::TabBlind => &self.tab_blind,
                Fallback::TabBlindQuoted => &self.tab_blind_quoted,
                Fallback::Quoted => &self.quoted,
                Fallback::KnownKeys => &self.known_keys,
                Fallback::Lines => &self.lines,
            };
            found
                .as_ref()
                .filter(|fields| !fails(fields))
                .map(|fields| (fields, values))
        })
    }
}

impl<'a> Reading<'a> {
    pub(super) fn of(found: Option<(&'a Fields, Values)>, file: File, folds: bool) -> Reading<'a> {
        match found {
            Some((fields, values)) => Reading {
                file,
                frontmatter: true,
                name: Field::of(&fields.name, values),
                description: Field::of(&fields.description, values),
                folds,
            },
            None => Reading {
                file,
                frontmatter: false,
                name: Field::Absent,
                description: Field::Absent,
                folds,
            },
        }
    }

    /// The name as the reader takes it: its text, folded where the reader folds white space.
    pub fn name_text(&self) -> Option<Cow<'a, str>> {
        self.name.text().map(|text| self.as_taken(text))
    }

    fn as_taken(&self, text: &'a str) -> Cow<'a, str> {
        // Most names have no run of white space to fold: told without building the folded
        // copy, as the shadowing asks every name of every skill.
        if !self.folds || folded_already(text) {
            return Cow::Borrowed(text);
        }
        let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if folded == text {
            Cow::Borrowed(text)
        } else {
            Cow::Owned(folded)
        }
    }
}

/// Whether folding `text`'s white space (split on every run, joined by one space) leaves it
/// as it is: no white space at either end, and every run a single plain space.
fn folded_already(text: &str) -> bool {
    let mut after_space = true;
    for c in text.chars() {
        if c.is_whitespace() {
            if c != ' ' || after_space {
                return false;
            }
            after_space = true;
        } else {
            after_space = false;
        }
    }
    !after_space || text.is_empty()
}

fn as_written(value: &mut Value, written: &Value) {
    if let (Value::Scalar { text, .. }, Value::Text(raw)) = (value, written) {
        raw.clone_into(text);
    }
}

fn parse_fields(yaml: &str) -> Result<Fields, FrontmatterError> {
    parse_yaml(yaml).map(|frontmatter| Fields::of(&frontmatter))
}

/// js-yaml counts only spaces as indentation: a tab after them is skipped as white space, so
/// `\tdescription: x` is a key at the left margin. Drop those tabs.
fn tab_blind(yaml: &str) -> String {
    yaml.split_inclusive('\n')
        .map(|line| {
            let spaces = line.len() - line.trim_start_matches(' ').len();
            let rest = &line[spaces..];
            let content = rest.trim_start_matches(['\t', ' ']);
            if content.is_empty() || content.starts_with(['\r', '\n']) {
                line.to_owned()
            } else {
                format!("{}{content}", &line[..spaces])
            }
        })
        .collect()
}

/// Which colons in a value make [`quote_colons`] quote it.
#[derive(Clone, Copy)]
enum Colon {
    /// Any `:` (OpenCode's `fallbackSanitization`).
    Any,
    /// A `:` with a space or a tab after it (Codex: `name: {a: 1}` is retried as the text
    /// `{a: 1}`, `name: {a:b}` and `name: ab:` are not; seen in `codex debug prompt-input`
    /// 0.171.0).
    BeforeWhiteSpace,
}

/// A top-level `key: value` whose unquoted value holds a colon (as `colon` says) becomes
/// `key: |-` with the value indented below it, so `description: Use when: asked` is text, not
/// a nested mapping.
fn quote_colons(yaml: &str, colon: Colon) -> String {
    let quotes = |value: &str| match colon {
        Colon::Any => value.contains(':'),
        Colon::BeforeWhiteSpace => value.contains(": ") || value.contains(":\t"),
    };
    let mut out = String::with_capacity(yaml.len() + 16);
    for line in yaml.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some((key, value)) = top_level_pair(line)
            && !value.is_empty()
            && !matches!(value, ">" | "|")
            && !value.starts_with(['"', '\''])
            && quotes(value)
        {
            out.push_str(key);
            out.push_str(": |-\n  ");
            out.push_str(value);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// `key: value` at the left margin, the key a word (`[A-Za-z_][A-Za-z0-9_]*`), the value
/// trimmed.
fn top_level_pair(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let key = key.trim_end();
    let mut chars = key.chars();
    let first = chars.next()?;
    let word = (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    word.then(|| (key, value.trim()))
}

/// Codex deserialises only the keys it knows, the way `serde_yaml` hands repeated keys to the
/// visitor: a repeated `name` or `description` fails, a repeated other key does not; numbers
/// and booleans are text.
fn known_keys(yaml: &str) -> Option<Fields> {
    #[derive(Deserialize)]
    struct Known {
        name: Option<Json>,
        description: Option<Json>,
    }
    let mut options = yaml_options();
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
    let known: Known = serde_saphyr::from_str_with_options(yaml, options).ok()?;
    Some(Fields {
        name: Value::of(known.name.as_ref()),
        description: Value::of(known.description.as_ref()),
    })
}

/// Gemini CLI's line reader (`parseSimpleFrontmatter`, packages/core/src/skills/skillLoader.ts
/// in bundle/chunk-JDPZ4CE3.js of @google/gemini-cli 0.61.0): the last line matching
/// `/^\s*name:\s*(.*)$/` gives the name, trimmed; the last `description:` line gives the
/// description, joined with the lines after it that match `/^[ \t]+\S/`, each trimmed, empty
/// ones dropped. `\s` and `trim` are JavaScript's white space (a no-break space and a
/// byte-order mark among them), and `.` stops at a lone `\r`, U+2028 or U+2029, so a value
/// holding one is no match.
fn lines(yaml: &str) -> Fields {
    let mut name = Value::Absent;
    let mut description = Value::Absent;
    let mut rows = yaml.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let mut next = rows.next();
    while let Some(line) = next {
        next = rows.next();
        if let Some(value) = js_key(line, "name:") {
            name = Value::Text(value.to_owned());
        } else if let Some(value) = js_key(line, "description:") {
            let mut parts = vec![value.to_owned()];
            while let Some(more) = next.filter(|l| continues(l)) {
                parts.push(js_trim(more).to_owned());
                next = rows.next();
            }
            parts.retain(|part| !part.is_empty());
            description = Value::Text(parts.join(" "));
        }
    }
    Fields { name, description }
}

/// `/^\s*KEY\s*(.*)$/` on one line: the value, trimmed.
fn js_key<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let value = line
        .trim_start_matches(js_space)
        .strip_prefix(key)?
        .trim_start_matches(js_space);
    (!value.contains(['\r', '\u{2028}', '\u{2029}'])).then(|| js_trim(value))
}

/// `^[ \t]+\S`: indented with spaces or tabs, and something not white space after them.
fn continues(line: &str) -> bool {
    let rest = line.trim_start_matches([' ', '\t']);
    rest.len() < line.len() && rest.chars().next().is_some_and(|c| !js_space(c))
}

fn js_trim(text: &str) -> &str {
    text.trim_matches(js_space)
}

/// JavaScript's `\s` (and what `String.prototype.trim` removes): Unicode's space separators,
/// the ASCII white space, the line terminators and the byte-order mark (U+0085 is not one).
pub(crate) fn js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_is_folded_already_exactly_when_folding_leaves_it_alone() {
        let texts = [
            "",
            " ",
            "a",
            "a b",
            "a  b",
            " a",
            "a ",
            "a\tb",
            "a\nb",
            "a\u{a0}b",
            "a\u{3000}b",
            "über name",
            "x y z",
            "x y  z",
            "\u{2028}",
            "a b\r",
            "plain-name",
        ];
        for text in texts {
            let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(
                super::folded_already(text),
                folded == text,
                "{text:?} folds to {folded:?}"
            );
        }
    }

    use super::*;

    fn readings(text: &str) -> Option<Box<Readings>> {
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        let block = Block::of(body);
        Readings::of(text, &block, &Frontmatter::parse(text), false)
    }

    fn text(value: &str) -> Value {
        Value::Text(value.to_owned())
    }

    #[test]
    fn a_plain_file_has_no_other_readings() {
        assert_eq!(readings("---\nname: a\ndescription: b\n---\n"), None);
        assert_eq!(
            readings("---\r\nname: a\r\ndescription: b\r\n---\r\n"),
            None
        );
    }

    #[test]
    fn a_bare_colon_fails_strictly_and_is_text_once_quoted() {
        let found = readings("---\nname: a\ndescription: Use when: asked.\n---\n").unwrap();
        assert_eq!(found.strict, None);
        let quoted = found.quoted.unwrap();
        assert_eq!(quoted.description, text("Use when: asked."));
        assert_eq!(quoted.name, text("a"));
        assert_eq!(found.lines.unwrap().description, text("Use when: asked."));
    }

    #[test]
    fn a_tab_before_a_key_is_read_by_the_tab_blind_reading_and_the_lines() {
        let found = readings("---\nname: a\n\tdescription: tabbed\n---\n").unwrap();
        assert_eq!(found.quoted, None);
        assert_eq!(found.tab_blind.unwrap().description, text("tabbed"));
        assert_eq!(found.lines.unwrap().description, text("tabbed"));
    }

    #[test]
    fn the_line_reader_keeps_quotes_joins_continuations_and_takes_the_last_line() {
        let lines = lines("name: \"q\ndescription:\n\tone\n  two\nname: b\n");
        assert_eq!(lines.name, text("b"));
        assert_eq!(lines.description, text("one two"));
        let raw = super::lines("name: \"q\ndescription: [x]\n");
        assert_eq!(raw.name, text("\"q"));
        assert_eq!(raw.description, text("[x]"));
        assert_eq!(super::lines("name: a\n").description, Value::Absent);
        assert_eq!(super::lines("description:\n").description, text(""));
        let js = super::lines("\u{feff}name:\u{a0}n\u{a0}\ndescription: d\n  \u{a0}x\n\t y\n");
        assert_eq!(js.name, text("n"));
        assert_eq!(
            js.description,
            text("d"),
            "a no-break space after the indent ends it"
        );
        let stopped = super::lines("name: a\rb\ndescription: c\u{2028}d\n");
        assert_eq!(
            (stopped.name, stopped.description),
            (Value::Absent, Value::Absent)
        );
    }

    #[test]
    fn repeated_keys_fail_only_where_the_known_keys_repeat() {
        let other = readings("---\nname: a\nx: 1\ndescription: d\nx: 2\n---\n").unwrap();
        assert_eq!(other.known_keys.unwrap().name, text("a"));
        let name = readings("---\nname: a\nname: b\ndescription: d\n---\n").unwrap();
        assert_eq!(name.known_keys, None);
        assert_eq!(name.lines.unwrap().name, text("b"));
    }

    #[test]
    fn values_that_are_not_text_keep_their_shape() {
        let found = readings("---\nname: 0x10\ndescription:\n---\n").unwrap();
        let strict = found.strict.as_ref().unwrap();
        assert_eq!(
            strict.name,
            Value::Scalar {
                text: "0x10".to_owned(),
                js: Some("16".to_owned())
            }
        );
        assert_eq!(strict.description, Value::Null);
        let list = readings("---\nname: [a]\ndescription: d\n---\n").unwrap();
        assert_eq!(
            list.strict.unwrap().name,
            Value::Compound { js: "a".to_owned() }
        );
    }

    #[test]
    fn a_javascript_reader_takes_what_string_makes_of_a_true_value() {
        const JS: Reader = Reader {
            values: Values::Js,
            ..Reader::STRICT
        };
        let name = |yaml: &str| {
            let found = readings(&format!("---\nname: {yaml}\ndescription: d\n---\n")).unwrap();
            match read(&found, JS).name {
                Field::Text(text) => Some(text.to_owned()),
                Field::Absent => None,
                Field::NotText => panic!("{yaml}: a JavaScript reader sees no value as not text"),
            }
        };
        for (yaml, js) in [
            ("12", "12"),
            ("007", "7"),
            ("0x1f", "31"),
            ("1e3", "1000"),
            ("1.5", "1.5"),
            ("true", "true"),
            ("[ab]", "ab"),
            ("[a, [b, c]]", "a,b,c"),
            ("{a: 1}", "[object Object]"),
        ] {
            assert_eq!(name(yaml).as_deref(), Some(js), "{yaml}");
        }
        for yaml in ["0", "false", "null", "\"\"", ""] {
            assert_eq!(name(yaml), None, "{yaml}");
        }
    }

    #[test]
    fn the_fences_and_the_mark_are_noted() {
        let bom = readings("\u{feff}---\nname: a\ndescription: b\n---\n").unwrap();
        assert!(bom.bom && !bom.padded_fence);
        let padded = readings("--- \nname: a\ndescription: b\n---\n").unwrap();
        assert!(padded.padded_fence && !padded.bom);
        let unclosed = readings("---\nname: a\ndescription: b\n\n# Body\n").unwrap();
        assert_eq!(unclosed.rest.unwrap().name, text("a"));
        let prose = readings("---\nname: a\ndescription: b\n\nProse, not YAML.\n").unwrap();
        assert_eq!(prose.rest, None);
        assert!(readings("---\n- a\n---\n").unwrap().not_a_mapping);
    }

    #[test]
    fn an_indented_fence_closes_the_block_only_for_readers_that_trim_it() {
        let text = "---\nname: a\ndescription: d\n  ---\nBody.\n";
        let found = readings(text).unwrap();
        assert_eq!(found.strict, None);
        assert_eq!(
            found.trimmed.clone().unwrap().unwrap().name,
            text_value("a")
        );
        let trims = Reader {
            indented_fence: true,
            ..Reader::STRICT
        };
        assert!(read(&found, trims).frontmatter);
        assert!(!read(&found, Reader::STRICT).frontmatter);
        // Where the trimmed block is the strict one, nothing is kept for it.
        assert_eq!(readings("---\nname: a\ndescription: d\n---\n---\n"), None);
    }

    fn text_value(value: &str) -> Value {
        Value::Text(value.to_owned())
    }

    const GEMINI_LIKE: Reader = Reader {
        skips_bom: false,
        padded_fence: false,
        fallbacks: &[Fallback::Lines],
        ..Reader::STRICT
    };

    const CODEX_LIKE: Reader = Reader {
        values: Values::Lenient,
        fallbacks: &[Fallback::KnownKeys, Fallback::Quoted],
        typed_text: true,
        ..Reader::STRICT
    };

    #[test]
    fn a_reader_that_folds_white_space_takes_each_run_as_one_space() {
        let reading = |folds| Reading {
            file: File::Read,
            frontmatter: true,
            name: Field::Text(" a  b\t\u{a0}c "),
            description: Field::Absent,
            folds,
        };
        assert_eq!(reading(true).name_text().as_deref(), Some("a b c"));
        assert_eq!(
            reading(false).name_text().as_deref(),
            Some(" a  b\t\u{a0}c ")
        );
        let plain = Reading {
            name: Field::Text("abc"),
            ..reading(true)
        };
        assert!(matches!(plain.name_text(), Some(Cow::Borrowed("abc"))));
    }

    fn read<'a>(found: &'a Readings, reader: Reader) -> Reading<'a> {
        Reading::of(
            found.by(reader),
            found.file(reader),
            reader.folds_white_space,
        )
    }

    #[test]
    fn each_reader_takes_its_own_reading() {
        let colon = readings("---\nname: a\ndescription: Use when: asked.\n---\n").unwrap();
        assert!(!read(&colon, Reader::STRICT).frontmatter);
        assert_eq!(
            read(&colon, CODEX_LIKE).description,
            Field::Text("Use when: asked.")
        );
        assert_eq!(read(&colon, GEMINI_LIKE).name, Field::Text("a"));

        let number = readings("---\nname: 123\ndescription: \"  \"\n---\n").unwrap();
        assert_eq!(read(&number, Reader::STRICT).name, Field::NotText);
        assert_eq!(read(&number, CODEX_LIKE).name, Field::Text("123"));
        assert_eq!(read(&number, CODEX_LIKE).description, Field::Absent);
        assert_eq!(read(&number, GEMINI_LIKE).name, Field::Text("123"));

        let bom = readings("\u{feff}---\nname: a\ndescription: b\n---\n").unwrap();
        assert!(read(&bom, Reader::STRICT).frontmatter);
        assert!(!read(&bom, GEMINI_LIKE).frontmatter);
    }

    #[test]
    fn a_reader_of_typed_text_retries_a_list_or_a_mapping_quoted_where_a_colon_has_space_after() {
        let name = |value: &str| {
            let found = readings(&format!("---\nname: {value}\ndescription: d\n---\n")).unwrap();
            let typed = read(&found, CODEX_LIKE).name_text().map(Cow::into_owned);
            let untyped = read(&found, Reader::STRICT).name == Field::NotText;
            (typed, untyped)
        };
        for (value, typed) in [
            ("{alpha: 1}", Some("{alpha: 1}")),
            ("{x: y, z: w}", Some("{x: y, z: w}")),
            ("[a: b]", Some("[a: b]")),
            ("{a:\tb}", Some("{a:\tb}")),
            ("{a:b}", None),
            ("{beta}", None),
            ("[a, b]", None),
        ] {
            assert_eq!(name(value), (typed.map(str::to_owned), true), "{value}");
        }
        let nested = readings("---\nname:\n  alpha: 1\ndescription: d\n---\n").unwrap();
        assert_eq!(read(&nested, CODEX_LIKE).name, Field::Absent);
        let described = readings("---\nname: n\ndescription: {k: v}\n---\n").unwrap();
        assert_eq!(
            read(&described, CODEX_LIKE).description,
            Field::Text("{k: v}")
        );
        assert_eq!(read(&described, Reader::STRICT).description, Field::NotText);
    }
}
