//! The `${key}` substitution Gemini CLI 0.61.0 makes in its extensions' skills: after reading
//! a skill (its name already sanitized), `loadExtension` passes the skill through
//! `recursivelyHydrateStrings` with `{extensionPath, workspacePath, "/", pathSeparator,
//! ...customEnv}` (bundle/chunk-4GP6HFBO.js, packages/cli/src/config/extensions/variables.ts
//! and extension-manager.ts), so a skill's name and description may hold the extension's own
//! folder, the start folder, or a value of the extension's `.env` files.
//!
//! `hydrateString` replaces each `/\${(.*?)}/g` with `String(context[key])` unless that is
//! `null` or `undefined`: the context is a plain JavaScript object, so the names of
//! `Object.prototype`'s members resolve too (`${toString}` gives `function toString() {
//! [native code] }`). `customEnv` is the extension's `.env` under `~/.gemini/extensions/<name>`,
//! then the start folder's `.env` when Gemini CLI trusts that folder, read by dotenv's `parse`
//! (the later wins), and only while `experimental.extensionConfig` is not turned off.
//! Asked of Gemini CLI by agree::gemini_cli::gemini_cli_extension_skills_are_hydrated.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::folder_trust;
use crate::roots::{Environment, Project};

/// The values one extension's skills are hydrated with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hydration {
    /// By key; a later entry of one key replaces an earlier one, as JavaScript's spread does.
    values: Vec<(String, String)>,
    /// The `.env` files whose keys come after them, the later winning.
    env_files: Vec<PathBuf>,
    /// Their keys, read the first time a text asks for a key: a `.env` holds secrets, so it is
    /// read only for a skill that names one of its keys (and then shows what Gemini CLI shows).
    custom: OnceLock<Vec<(String, String)>>,
}

/// `String()` of each member a plain object inherits from `Object.prototype`, in Node 20.
const INHERITED: &[(&str, &str)] = &[
    ("constructor", "function Object() { [native code] }"),
    ("__proto__", "[object Object]"),
    (
        "__defineGetter__",
        "function __defineGetter__() { [native code] }",
    ),
    (
        "__defineSetter__",
        "function __defineSetter__() { [native code] }",
    ),
    (
        "__lookupGetter__",
        "function __lookupGetter__() { [native code] }",
    ),
    (
        "__lookupSetter__",
        "function __lookupSetter__() { [native code] }",
    ),
    (
        "hasOwnProperty",
        "function hasOwnProperty() { [native code] }",
    ),
    (
        "isPrototypeOf",
        "function isPrototypeOf() { [native code] }",
    ),
    (
        "propertyIsEnumerable",
        "function propertyIsEnumerable() { [native code] }",
    ),
    (
        "toLocaleString",
        "function toLocaleString() { [native code] }",
    ),
    ("toString", "function toString() { [native code] }"),
    ("valueOf", "function valueOf() { [native code] }"),
];

/// What the contexts of every extension of one run share, read once for the run: the start
/// folder, and where the `.env` files are when Gemini CLI reads them.
pub struct Contexts {
    start: PathBuf,
    /// `~/.gemini/extensions`, while `experimental.extensionConfig` is not turned off.
    extensions: Option<PathBuf>,
    /// The start folder's `.env`, when Gemini CLI also trusts the folder.
    workspace_env: Option<PathBuf>,
}

impl Contexts {
    /// For a run started in `project`.
    pub fn new(env: &Environment, project: &Project) -> Self {
        let start =
            crate::fs::canonical(project.start()).unwrap_or_else(|_| project.start().to_path_buf());
        let read = folder_trust::read(env, project);
        let configurable = read
            .merged
            .pointer("/experimental/extensionConfig")
            .is_none_or(super::merged::truthy);
        let extensions =
            configurable.then(|| crate::roots::homes::gemini_cli(env, project).join("extensions"));
        let workspace_env = (configurable && read.skills_trusted).then(|| start.join(".env"));
        Self {
            start,
            extensions,
            workspace_env,
        }
    }

    /// The context of the extension named `name` read from `extension_path` (as Gemini CLI
    /// spells it: a linked extension's `source` as written).
    pub fn for_extension(&self, extension_path: &Path, name: &str) -> Hydration {
        let values = vec![
            (
                "extensionPath".to_owned(),
                extension_path.to_string_lossy().into_owned(),
            ),
            (
                "workspacePath".to_owned(),
                self.start.to_string_lossy().into_owned(),
            ),
            ("/".to_owned(), "/".to_owned()),
            ("pathSeparator".to_owned(), "/".to_owned()),
        ];
        let user_env = self
            .extensions
            .as_ref()
            .map(|extensions| extensions.join(name).join(".env"));
        Hydration {
            values,
            env_files: user_env
                .into_iter()
                .chain(self.workspace_env.clone())
                .collect(),
            custom: OnceLock::new(),
        }
    }
}

impl Hydration {
    fn value(&self, key: &str) -> Option<&str> {
        let custom = self
            .custom
            .get_or_init(|| self.env_files.iter().flat_map(|f| env_file(f)).collect());
        custom
            .iter()
            .rev()
            .chain(self.values.iter().rev())
            .find(|(there, _)| there == key)
            .map(|(_, value)| value.as_str())
            .or_else(|| {
                INHERITED
                    .iter()
                    .find(|(there, _)| *there == key)
                    .map(|(_, value)| *value)
            })
    }

    /// `text` with each `${key}` the context holds replaced (`hydrateString`).
    pub fn apply<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if !text.contains("${") {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find("${") {
            // `.` stops at a line terminator: the match then fails at this `$`, and the
            // search goes on from the next character.
            let after = &rest[at + 2..];
            let key_end = after.find(['}', '\n', '\r', '\u{2028}', '\u{2029}']);
            match key_end {
                Some(end) if after[end..].starts_with('}') => {
                    let key = &after[..end];
                    out.push_str(&rest[..at]);
                    match self.value(key) {
                        Some(value) => out.push_str(value),
                        None => out.push_str(&rest[at..at + 2 + end + 1]),
                    }
                    rest = &after[end + 1..];
                }
                _ => {
                    out.push_str(&rest[..at + 1]);
                    rest = &rest[at + 1..];
                }
            }
        }
        out.push_str(rest);
        Cow::Owned(out)
    }
}

/// A `.env` file's entries, in order, as dotenv 16's `parse` reads them; none when it cannot be
/// read (a folder, missing, larger than a settings file, not UTF-8 text).
fn env_file(path: &Path) -> Vec<(String, String)> {
    let bytes = crate::fs::read_bounded(
        path,
        crate::fs::Links::Follow,
        crate::limits::SETTINGS_FILE_BYTES,
    );
    match bytes.ok().map(String::from_utf8) {
        Some(Ok(text)) => dotenv(&text),
        _ => Vec::new(),
    }
}

/// dotenv's `LINE` expression, with JavaScript's ASCII `\w`.
fn line() -> &'static regex::Regex {
    static LINE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"(?m)^\s*(?:export\s+)?([A-Za-z0-9_.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?$"#,
        )
        .expect("dotenv's line expression")
    });
    &LINE
}

/// dotenv 16's `parse`: line ends made `\n`, each `LINE` match a key and its trimmed value,
/// the quotes around a value taken off, `\n` and `\r` written out in a double-quoted one.
fn dotenv(text: &str) -> Vec<(String, String)> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    line()
        .captures_iter(&text)
        .map(|found| {
            let key = found[1].to_owned();
            let value = found.get(2).map_or("", |v| v.as_str()).trim();
            let double = value.starts_with('"');
            let mut value = unquoted(value);
            if double {
                value = value.replace("\\n", "\n").replace("\\r", "\r");
            }
            (key, value)
        })
        .collect()
}

/// `value.replace(/^(['"`])([\s\S]*)\1$/mg, "$2")`: from a line start holding a quote, to the
/// last same quote that ends a line, the quotes dropped; the search goes on after it.
fn unquoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut at = 0;
    while at < value.len() {
        let line_start = at == 0 || value[..at].ends_with('\n');
        let quote = value[at..]
            .chars()
            .next()
            .filter(|c| matches!(c, '\'' | '"' | '`'));
        if let (true, Some(quote)) = (line_start, quote) {
            let inner = at + 1;
            let close = value[inner..]
                .match_indices(quote)
                .map(|(i, _)| inner + i)
                .rfind(|&i| i + 1 == value.len() || value[i + 1..].starts_with('\n'));
            if let Some(close) = close {
                out.push_str(&value[inner..close]);
                at = close + 1;
                continue;
            }
        }
        let next = value[at..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&value[at..at + next]);
        at += next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hydration(values: &[(&str, &str)]) -> Hydration {
        Hydration {
            values: values
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            env_files: Vec::new(),
            custom: OnceLock::new(),
        }
    }

    #[test]
    fn keys_the_context_holds_are_replaced_and_others_kept() {
        let h = hydration(&[("extensionPath", "/e"), ("X", "1"), ("X", "2")]);
        assert_eq!(h.apply("a ${extensionPath}/b"), "a /e/b");
        assert_eq!(h.apply("${X}${Y}"), "2${Y}");
        assert_eq!(
            h.apply("${toString}"),
            "function toString() { [native code] }"
        );
        assert_eq!(h.apply("${__proto__}"), "[object Object]");
        assert_eq!(h.apply("$X {X} ${X"), "$X {X} ${X");
        // A line end inside stops that match; the search goes on after its `$`.
        assert_eq!(h.apply("${a\n${X}"), "${a\n2");
        assert_eq!(h.apply("${${X}}"), "${${X}}");
        assert!(matches!(h.apply("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn env_files_read_as_dotenv_reads_them() {
        let parsed = dotenv(
            "# comment\nA=1\nexport B = two words # note\nC='single'\nD=\"dq\\nnl\"\n\
             E=`back`\nF:  colon\nbad line\nG=\nH=\"multi\nline\"\r\nI=x#y\n",
        );
        let get = |key: &str| {
            parsed
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get("A"), Some("1"));
        assert_eq!(get("B"), Some("two words"));
        assert_eq!(get("C"), Some("single"));
        assert_eq!(get("D"), Some("dq\nnl"));
        assert_eq!(get("E"), Some("back"));
        assert_eq!(get("F"), Some("colon"));
        assert_eq!(get("G"), Some(""));
        assert_eq!(get("H"), Some("multi\nline"));
        assert_eq!(get("I"), Some("x"));
        assert_eq!(get("bad"), None);
    }
}
