//! How each agent reads a JSON settings file, so that skilldeck reads and edits it the same
//! way: a file the agent cannot read is one it ignores, and skilldeck neither counts what it
//! says nor edits it; a key written twice is the last copy to the agent.

use serde_json::Value;

use super::js_json;
use crate::skill::js_space;

/// The parser an agent reads one of its JSON settings files with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// `JSON.parse` of the whole text: Claude Code's settings (a comment or a trailing comma
    /// makes 2.1.332 ignore the file, `agree::claude_code_settings_with_comments`).
    Json,
    /// Plain JSON as serde_json reads it, no byte-order mark: Copilot CLI 1.0.102's
    /// repository files, `.github/copilot/settings.json` and `settings.local.json`. Its
    /// native loader warns "Repository settings file '…' could not be loaded: Invalid JSON:
    /// expected value at line 1 column 1" (serde_json's own words) for a file that starts
    /// with a mark, and alike for a comment ("key must be a string"), a trailing comma, a
    /// single quote or a hexadecimal number; the file is skipped (generated class
    /// `copilot-repository`).
    SerdeJson,
    /// strip-json-comments 3.x, then `JSON.parse`: Gemini CLI 0.61.0 (`_doLoadSettings` in
    /// `bundle/chunk-2YTYPKEZ.js`: `JSON.parse((0, import_strip_json_comments.default)(content))`,
    /// no options, so a trailing comma, a single quote or a leading byte order mark is an
    /// error and the file is skipped).
    CommentsStripped,
    /// Comments and trailing commas, nothing looser: OpenCode 1.18.33 (Microsoft's
    /// jsonc-parser with `allowTrailingComma`, see `roots::table::opencode::config`).
    Jsonc,
    /// Copilot CLI 1.0.102's user `settings.json` (and its `config.json`): a native loader
    /// (`userSettingsLoad` in `runtime.node`, called from `cli-main.js`) whose dialect is
    /// [`copilot_user_options`]; a file it cannot parse is ignored without a word, the
    /// listing goes on (generated class `copilot-user-dialect`).
    CopilotUser,
}

impl Syntax {
    /// Whether the agent reads a file that starts with a byte-order mark as if it had none.
    /// Asked of each agent (`agree::claude_code_settings_with_a_byte_order_mark`,
    /// `agree::copilot_user_settings_with_a_byte_order_mark`,
    /// `agree::opencode_config_with_a_byte_order_mark`: Claude Code 2.1.332, Copilot
    /// 1.0.102 and OpenCode 1.18.33 honour such a file); Gemini CLI 0.61.0 reads it with
    /// `fs.readFileSync(path, "utf-8")`, which keeps the mark, and `JSON.parse` refuses it
    /// (`agree::gemini_cli_which_settings_files_it_can_read`); Copilot's repository files do
    /// not pass over it either ([`Syntax::SerdeJson`]).
    pub fn passes_over_a_mark(self) -> bool {
        match self {
            Syntax::Json | Syntax::Jsonc | Syntax::CopilotUser => true,
            Syntax::CommentsStripped | Syntax::SerdeJson => false,
        }
    }
}

/// OpenCode's parser options (Microsoft's jsonc-parser with `allowTrailingComma`): comments
/// and trailing commas when `jsonc`, nothing looser, and neither for plain JSON (what
/// `JSON.parse` reads, as OpenCode reads a configuration given in a variable).
pub fn opencode_options(jsonc: bool) -> jsonc_parser::ParseOptions {
    jsonc_parser::ParseOptions {
        allow_comments: jsonc,
        allow_loose_object_property_names: false,
        allow_trailing_commas: jsonc,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Copilot CLI 1.0.102's user settings dialect, as its listing (`copilot skill list --json`)
/// showed it for `disabledSkills` in `~/.copilot/settings.json` (test
/// `copilot_user_dialect_as_copilot_read_it` below holds each probe): comments (a block left
/// open refuses the file), trailing commas, missing commas between values, hexadecimal and
/// `+` numbers, raw tabs and line breaks in strings are read; `.5`, `Infinity`, `NaN` and `\x`
/// escapes refuse the file. A bare or single-quoted name, or a single-quoted string, does not:
/// the top-level property holding it is passed over and the rest read
/// ([`copilot_passes_over`]). Its numbers are looser than any option here (`01`, `1.`, `1e`,
/// `0x`): [`super::copilot_numbers`] rewrites them before the parse.
pub fn copilot_user_options() -> jsonc_parser::ParseOptions {
    jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: true,
        allow_trailing_commas: true,
        allow_missing_commas: true,
        allow_single_quoted_strings: true,
        allow_hexadecimal_numbers: true,
        allow_unary_plus_numbers: true,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Whether Copilot CLI 1.0.102's user settings loader passes over this top-level property:
/// its name is not in double quotes, or its value holds a name or a string that is not. The
/// rest of the file is read all the same: `{x: 1, "ignoredSkillsLocations": [...]}` and
/// `{"x": 'a', ...}` honour the list, `{ignoredSkillsLocations: [...]}`,
/// `{'ignoredSkillsLocations': [...]}` and `{"ignoredSkillsLocations": ['...']}` do not (seed 33
/// of the 500-seed sweep, then probes of `copilot skill list --json`; the same with
/// `skillDirectories` and `disabledSkills`).
pub fn copilot_passes_over(prop: &jsonc_parser::cst::CstObjectProp) -> bool {
    use jsonc_parser::cst::{CstLeafNode, CstNode, ObjectPropName};
    fn loose(node: &CstNode) -> bool {
        match node {
            CstNode::Leaf(CstLeafNode::WordLit(_)) => true,
            CstNode::Leaf(CstLeafNode::StringLit(text)) => !text.raw_value().starts_with('"'),
            CstNode::Leaf(_) => false,
            CstNode::Container(_) => node.children().iter().any(loose),
        }
    }
    let quoted = matches!(prop.name(), Some(ObjectPropName::String(name)) if name.raw_value().starts_with('"'));
    !quoted || prop.value().is_some_and(|value| loose(&value))
}

/// `text` as the agent's parser starts on it: past a byte-order mark where it passes over one.
pub fn past_the_mark(text: &str, syntax: Syntax) -> &str {
    if syntax.passes_over_a_mark() {
        text.strip_prefix('\u{feff}').unwrap_or(text)
    } else {
        text
    }
}

/// An agent and the syntax it reads a settings file in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dialect {
    pub agent: &'static str,
    pub syntax: Syntax,
}

/// Where a file stops being readable in a syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    pub line: usize,
    pub column: usize,
    pub reason: String,
    /// Whether the agent itself fails there; otherwise it is skilldeck that stops (a file
    /// nested deeper than it follows).
    pub by_agent: bool,
}

/// `text` as a value, read as the agent reads it; an empty or blank file is an empty one
/// (`Null`), which every agent takes as no settings.
///
/// # Errors
/// [`Unreadable`] where the agent's own parser fails.
pub fn read(text: &str, syntax: Syntax) -> Result<Value, Unreadable> {
    let text = past_the_mark(text, syntax);
    if text.trim_matches([' ', '\t', '\n', '\r']).is_empty() {
        return Ok(Value::Null);
    }
    match syntax {
        Syntax::Json => js_json::parse(text).map_err(|failure| located(text, failure)),
        Syntax::SerdeJson => serde_json::from_str(text).map_err(|error| Unreadable {
            line: error.line(),
            column: error.column(),
            // serde_json stops at its own depth limit where Copilot does.
            by_agent: true,
            reason: error.to_string(),
        }),
        Syntax::CommentsStripped => {
            let stripped = strip_comments(text);
            js_json::parse(&stripped).map_err(|failure| located(&stripped, failure))
        }
        Syntax::Jsonc | Syntax::CopilotUser => {
            let options = if syntax == Syntax::CopilotUser {
                copilot_user_options()
            } else {
                opencode_options(true)
            };
            let text = if syntax == Syntax::CopilotUser {
                super::copilot_numbers::as_jsonc(text)
            } else {
                std::borrow::Cow::Borrowed(text)
            };
            jsonc_parser::cst::CstRootNode::parse(&text, &options)
                .map(|root| {
                    if syntax == Syntax::CopilotUser
                        && let Some(object) = root.object_value()
                    {
                        object
                            .properties()
                            .into_iter()
                            .filter(copilot_passes_over)
                            .for_each(|prop| prop.remove());
                    }
                    root.to_serde_value().unwrap_or(Value::Null)
                })
                .map_err(|error| Unreadable {
                    line: error.line_display(),
                    column: error.column_display(),
                    by_agent: !matches!(
                        error.kind(),
                        jsonc_parser::errors::ParseErrorKind::NestingDepthExceeded
                    ),
                    reason: error.kind().to_string(),
                })
        }
    }
}

fn located(text: &str, failure: js_json::Failure) -> Unreadable {
    let before = &text.as_bytes()[..failure.at.min(text.len())];
    let line_start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |at| at + 1);
    Unreadable {
        line: before.iter().filter(|b| **b == b'\n').count() + 1,
        column: String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count()
            + 1,
        reason: failure.reason.to_owned(),
        by_agent: !failure.too_deep,
    }
}

/// What strip-json-comments 3.x makes of `text`: each comment outside a string is replaced by
/// its own length of spaces, keeping the characters JavaScript's `\s` matches (line breaks,
/// but also a no-break space or a byte order mark, which `JSON.parse` then refuses). A block
/// comment left open runs to the end of the text.
pub fn strip_comments(text: &str) -> String {
    #[derive(PartialEq)]
    enum Comment {
        Line,
        Block,
    }
    let chars: Vec<char> = text.chars().collect();
    let blank = |from: usize, to: usize| -> String {
        chars[from..to]
            .iter()
            .map(|c| if js_space(*c) { *c } else { ' ' })
            .collect()
    };
    let kept = |from: usize, to: usize| -> String { chars[from..to].iter().collect() };
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut comment: Option<Comment> = None;
    let mut offset = 0;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if comment.is_none() && c == '"' && !escaped(&chars, i) {
            in_string = !in_string;
        }
        if in_string {
            i += 1;
            continue;
        }
        if comment.is_none() && c == '/' && next == Some('/') {
            out.push_str(&kept(offset, i));
            offset = i;
            comment = Some(Comment::Line);
            i += 1;
        } else if comment == Some(Comment::Line) && c == '\r' && next == Some('\n') {
            i += 1;
            comment = None;
            out.push_str(&blank(offset, i));
            offset = i;
        } else if comment == Some(Comment::Line) && c == '\n' {
            comment = None;
            out.push_str(&blank(offset, i));
            offset = i;
        } else if comment.is_none() && c == '/' && next == Some('*') {
            out.push_str(&kept(offset, i));
            offset = i;
            comment = Some(Comment::Block);
            i += 1;
        } else if comment == Some(Comment::Block) && c == '*' && next == Some('/') {
            i += 1;
            comment = None;
            out.push_str(&blank(offset, i + 1));
            offset = i + 1;
        }
        i += 1;
    }
    if comment.is_some() {
        out.push_str(&blank(offset, chars.len()));
    } else {
        out.push_str(&kept(offset, chars.len()));
    }
    out
}

/// Whether the quote at `at` follows an odd run of backslashes.
fn escaped(chars: &[char], at: usize) -> bool {
    chars[..at].iter().rev().take_while(|c| **c == '\\').count() % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_become_spaces_outside_strings_only() {
        assert_eq!(
            strip_comments("{\"a//b\": 1, // x\n\"c\": /* y */ 2}"),
            "{\"a//b\": 1,     \n\"c\":         2}"
        );
        assert_eq!(strip_comments("// x\r\n{}"), "    \r\n{}");
        assert_eq!(strip_comments("{\"a\\\"//\": 1}"), "{\"a\\\"//\": 1}");
        assert_eq!(strip_comments("{} /* open"), "{}        ");
        assert_eq!(strip_comments("{} // a\u{a0}b"), "{}     \u{a0} ");
    }

    #[test]
    fn gemini_reads_comments_but_nothing_looser() {
        let gemini = |text: &str| read(text, Syntax::CommentsStripped);
        assert!(gemini("// mine\n{\"skills\": /* a */ {\"disabled\": [\"x\"]}}").is_ok());
        assert!(gemini("{} /* never closed").is_ok());
        for text in [
            "{\"skills\": {\"disabled\": [\"x\",]}}",
            "{\"skills\": {\"disabled\": ['x']}}",
            "{skills: {}}",
            "\u{feff}{}",
            "{} // no\u{a0}break",
            "{\"a\": 0x10}",
            "{\"a\": Infinity}",
        ] {
            assert!(gemini(text).is_err(), "{text:?}");
        }
    }

    /// Each probe and what Copilot CLI 1.0.102 made of it: `true` where `disabledSkills` in
    /// `~/.copilot/settings.json` turned the skill off (`copilot skill list --json`).
    #[test]
    fn copilot_user_dialect_as_copilot_read_it() {
        let probes: &[(&str, bool)] = &[
            ("{\"d\": [\"a\"]}", true),
            ("{// c\n\"d\": [\"a\"],}", true),
            ("/* b */{\"d\": [\"a\"]}", true),
            ("{\"d\": [\"a\"]} // end", true),
            ("\u{feff}{\"d\": [\"a\"]}", true),
            ("{\"d\": [\"a\"], \"x\": 0x10}", true),
            ("{\"d\": [\"a\"], \"x\": -0x10}", true),
            ("{\"d\": [\"a\"], \"x\": +1}", true),
            ("{\"d\": [\"a\"] \"x\": 1}", true),
            ("{\"d\": [\"a\"], \"x\": [1 2]}", true),
            ("{\"d\": [\"a\"], \"x\": \"a\tb\"}", true),
            ("{\"d\": [\"a\"], \"x\": \"a\nb\"}", true),
            ("{\"d\": [\"a\"], \"x\": \"\\u00e9\"}", true),
            ("\u{a0}{\"d\": [\"a\"]}", true),
            ("\u{c}{\"d\": [\"a\"]}", true),
            ("{\"d\": ['a']}", false),
            ("{d: [\"a\"]}", false),
            ("{'d': [\"a\"]}", false),
            ("{x: 1, \"d\": [\"a\"]}", true),
            ("{\"d\": [\"a\"], 'x': 1}", true),
            ("{\"x\": 'a', \"d\": [\"a\"]}", true),
            ("{$x_1: [1], 2: {y: 'z'}, \"d\": [\"a\"]}", true),
            ("{\"d\": [\"a\"]", false),
            ("{\"d\": [\"a\"]} x", false),
            ("{\"d\": [\"a\",,]}", false),
            ("{\"d\": [\"a\"]} /* open", false),
            ("{\"d\": [\"a\"], \"x\": .5}", false),
            ("{\"d\": [\"a\"], \"x\": Infinity}", false),
            ("{\"d\": [\"a\"], \"x\": NaN}", false),
            ("{\"d\": [\"al\\x70ha\"]}", false),
            ("{\"d\": [\"a\"], \"x\": \"\\q\"}", false),
        ];
        // Numbers as the value of `x` beside `"d": ["a"]`, and whether Copilot read the file.
        let numbers: &[(&str, bool)] = &[
            ("1.", true),
            ("01", true),
            ("00", true),
            ("-01", true),
            ("0.", true),
            ("-1.", true),
            ("1e", true),
            ("1e+", true),
            ("2e-", true),
            ("0e", true),
            ("0012", true),
            ("01.5", true),
            ("0x", true),
            ("-0x", true),
            ("0x1e5", true),
            ("+0x1", true),
            ("0X1F", true),
            ("1.5e3", true),
            ("1.5E", true),
            ("1.5e+", true),
            ("-0", true),
            ("[1.]", true),
            ("[01, 2]", true),
            ("[01 2]", true),
            ("[1e, 2]", true),
            ("{\"y\": 01}", true),
            ("1.e5", false),
            ("1.E+2", false),
            ("1..2", false),
            ("1.5.", false),
            ("1e5.", false),
            ("1ee", false),
            ("0x1.5", false),
            ("00x1", false),
            ("0xG", false),
            ("-", false),
            ("--1", false),
            ("+-1", false),
            ("-+1", false),
            ("- 1", false),
            ("0b1", false),
            ("0o7", false),
            ("1_000", false),
            ("1n", false),
            (".e1", false),
            ("1 .5", false),
            ("-.5", false),
            ("+.5", false),
            ("+Infinity", false),
            ("True", false),
            ("[True]", false),
            ("undefined", false),
            ("\"a\" 01", false),
        ];
        let numbers = numbers
            .iter()
            .map(|(value, read)| (format!("{{\"d\": [\"a\"], \"x\": {value}}}"), *read));
        let probes = probes
            .iter()
            .map(|(text, read)| ((*text).to_owned(), *read))
            .chain(numbers);
        for (text, read_by_copilot) in probes {
            let read_d =
                read(&text, Syntax::CopilotUser).is_ok_and(|value| value.get("d").is_some());
            assert_eq!(read_d, read_by_copilot, "{text:?}");
        }
    }

    /// Copilot's repository files: serde_json, no mark, nothing looser.
    #[test]
    fn copilot_repository_files_are_plain_json_without_a_mark() {
        assert!(read("{\"disabledSkills\": [\"a\"]}", Syntax::SerdeJson).is_ok());
        assert_eq!(read("  \n", Syntax::SerdeJson), Ok(Value::Null));
        for text in [
            "\u{feff}{\"disabledSkills\": [\"a\"]}",
            "{// c\n\"disabledSkills\": [\"a\"]}",
            "{\"disabledSkills\": [\"a\"],}",
            "{\"disabledSkills\": ['a']}",
            "{\"disabledSkills\": [\"a\"], \"x\": 0x10}",
            "{\"disabledSkills\": [\"a\"]} x",
        ] {
            assert!(read(text, Syntax::SerdeJson).is_err(), "{text:?}");
        }
    }
}
