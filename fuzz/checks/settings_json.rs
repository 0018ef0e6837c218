//! What must hold for any text in an agent's JSON settings file, for every way an agent reads
//! one (`JSON.parse`; strip-json-comments then `JSON.parse`; JSONC; jsonc-parser's loose
//! defaults) and every edit a switch makes (a name added to or taken out of a list of names, a
//! member set or taken out): no panic; a refusal is a refusal (never a read or write failure),
//! and says the agent cannot read the file only when the agent's parser indeed fails; and an
//! edit gives a file the agent's parser reads, showing the change, with every top-level key the
//! edit does not walk through exactly as the agent read it before. "Nothing to do" is only said
//! of a file the agent reads as already holding the change.
//!
//! The input's first byte picks the skill name among a few awkward ones, the rest is the file.

use std::path::Path;

use serde_json::Value;
use skilldeck_core::settings::EditError;
use skilldeck_core::settings::dialect::{self, Dialect, Syntax};
use skilldeck_core::settings::json;

const NAMES: [&str; 6] = ["pdf", "PDF", "p*", "a\"b\\c", "é\u{2028}", ""];

const SYNTAXES: [Syntax; 5] = [
    Syntax::Json,
    Syntax::CommentsStripped,
    Syntax::Jsonc,
    Syntax::CopilotUser,
    Syntax::SerdeJson,
];

pub fn check(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let name = NAMES[usize::from(pick) % NAMES.len()];
    let file = Path::new("settings.json");
    for syntax in SYNTAXES {
        let dialect = Dialect {
            agent: "the agent",
            syntax,
        };
        let before = dialect::read(text, syntax);
        let any_case = |a: &str, b: &str| a.to_lowercase() == b.to_lowercase();
        let exact = |a: &str, b: &str| a == b;
        for (keys, same) in [
            (
                &["skills", "disabled"][..],
                &any_case as &dyn Fn(&str, &str) -> bool,
            ),
            (&["disabledSkills"][..], &exact),
        ] {
            for add in [true, false] {
                let outcome = json::edit_list(file, text, dialect, keys, name, add, same);
                judge(text, syntax, &before, outcome, keys, |value| {
                    json::lists(value, keys, name, same) == add
                });
            }
        }
        for (parents, to) in [
            (&["skillOverrides"][..], Some("off")),
            (&["skillOverrides"][..], None),
            (&["permission", "skill"][..], Some("deny")),
            (&["permission", "skill"][..], None),
        ] {
            let outcome = json::edit_member(file, text, dialect, parents, name, to);
            let path: Vec<&str> = parents.iter().copied().chain([name]).collect();
            judge(text, syntax, &before, outcome, parents, |value| {
                json::at(value, &path).and_then(Value::as_str) == to
            });
        }
    }
}

fn judge(
    text: &str,
    syntax: Syntax,
    before: &Result<Value, dialect::Unreadable>,
    outcome: Result<Option<String>, EditError>,
    walked: &[&str],
    shows: impl Fn(&Value) -> bool,
) {
    match outcome {
        Err(error) => {
            assert!(error.is_refusal(), "{error}");
            if let EditError::AgentCannotRead { .. } = error {
                assert!(
                    before.as_ref().is_err_and(|at| at.by_agent),
                    "said unreadable, but the agent reads it ({syntax:?}): {text:?}"
                );
            }
        }
        Ok(None) => {
            let value = before
                .as_ref()
                .expect("nothing to do with a file the agent cannot read");
            assert!(shows(value), "nothing done, but the agent does not see it");
        }
        Ok(Some(edited)) => {
            let value = dialect::read(&edited, syntax)
                .unwrap_or_else(|at| panic!("the agent cannot read the edit ({at:?}): {edited:?}"));
            assert!(shows(&value), "the agent does not see the edit: {edited:?}");
            let before = before
                .as_ref()
                .expect("an edit of a file the agent cannot read");
            if let (Some(old), Some(new)) = (before.as_object(), value.as_object()) {
                for (key, old_value) in old {
                    if walked.first() != Some(&key.as_str()) {
                        assert_eq!(new.get(key), Some(old_value), "{key} changed: {edited:?}");
                    }
                }
            }
        }
    }
}
