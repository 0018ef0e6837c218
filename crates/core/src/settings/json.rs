//! Editing JSON and JSON-with-comments settings files in place, through jsonc-parser's concrete
//! syntax tree: comments, key order, indentation, trailing commas and line endings stay as the
//! user wrote them; only the keys asked for change.

use std::path::Path;

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstRootNode};

use super::dialect::{self, Dialect};
use super::{EditError, Unparsable};

/// `text` (the whole file) as a tree to edit, when the agent that reads it as `dialect` can:
/// an edit to a file the agent ignores would be one it never sees. An empty file is an empty
/// document.
///
/// # Errors
/// [`EditError::AgentCannotRead`] where the agent's parser fails, [`EditError::Unparsable`]
/// where skilldeck's editor does.
pub fn parse(file: &Path, text: &str, dialect: Dialect) -> Result<CstRootNode, EditError> {
    read(file, text, dialect)?;
    // Read past a byte-order mark only where the agent does (`read` refused it otherwise);
    // the write puts it back.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    CstRootNode::parse(text, &ParseOptions::default()).map_err(|error| {
        EditError::Unparsable(Unparsable {
            file: file.to_path_buf(),
            line: error.line_display(),
            column: error.column_display(),
            reason: error.kind().to_string(),
        })
    })
}

/// The file as the agent reads it (`Null` when it is empty).
///
/// # Errors
/// [`EditError::AgentCannotRead`] where the agent's parser fails.
pub fn read(file: &Path, text: &str, dialect: Dialect) -> Result<serde_json::Value, EditError> {
    dialect::read(text, dialect.syntax).map_err(|at| {
        if at.by_agent {
            EditError::AgentCannotRead {
                file: file.to_path_buf(),
                agent: dialect.agent,
                line: at.line,
                column: at.column,
                reason: at.reason,
            }
        } else {
            EditError::Unparsable(Unparsable {
                file: file.to_path_buf(),
                line: at.line,
                column: at.column,
                reason: at.reason,
            })
        }
    })
}

/// Refuse a file in which a key on the way to `keys` (the objects walked through, and the
/// last key itself) is written more than once: the editor would change the first copy, and
/// the agent reads the last (`JSON.parse`, and every JSONC reader here, keep the last).
/// Copies elsewhere (a sibling's, another object's) are no business of this edit.
///
/// # Errors
/// [`EditError::Duplicate`] naming the first key path that is ambiguous.
pub fn unique(
    root: &CstRootNode,
    file: &Path,
    dialect: Dialect,
    keys: &[&str],
) -> Result<(), EditError> {
    let Some(mut object) = root.object_value() else {
        return Ok(());
    };
    for (depth, key) in keys.iter().enumerate() {
        let copies: Vec<_> = object
            .properties()
            .into_iter()
            .filter(|prop| prop.name().and_then(|n| n.decoded_value().ok()).as_deref() == Some(key))
            .collect();
        if copies.len() > 1 {
            return Err(EditError::Duplicate {
                file: file.to_path_buf(),
                agent: dialect.agent,
                key: keys[..=depth].join("."),
            });
        }
        // Copilot passes over a top-level key spelt loosely: a change there would not reach it.
        if depth == 0
            && dialect.syntax == dialect::Syntax::CopilotUser
            && copies.first().is_some_and(dialect::copilot_passes_over)
        {
            return Err(EditError::Unseen {
                file: file.to_path_buf(),
                agent: dialect.agent,
                what: format!(
                    "it passes over {key} as written there, because its name or a string in it is not in double quotes"
                ),
            });
        }
        match copies.first().and_then(|prop| prop.object_value()) {
            Some(inner) => object = inner,
            None => return Ok(()),
        }
    }
    Ok(())
}

/// The object at `keys` below the document's top object, made (with every object on the way)
/// when missing.
///
/// # Errors
/// [`EditError::Shape`] when the top or a value on the way is there but is not an object.
pub fn object_at(root: &CstRootNode, file: &Path, keys: &[&str]) -> Result<CstObject, EditError> {
    let mut object = root
        .object_value_or_create()
        .ok_or_else(|| shape(file, "the file's top value", "an object"))?;
    for (depth, key) in keys.iter().enumerate() {
        object = object
            .object_value_or_create(key)
            .ok_or_else(|| shape(file, &keys[..=depth].join("."), "an object"))?;
    }
    Ok(object)
}

/// The object at `keys`, when every step is there and an object.
pub fn find_object(root: &CstRootNode, keys: &[&str]) -> Option<CstObject> {
    let mut object = root.object_value()?;
    for key in keys {
        object = object.object_value(key)?;
    }
    Some(object)
}

/// The array property `key` of `object`, made when missing.
///
/// # Errors
/// [`EditError::Shape`] when it is there but not an array.
pub fn array_in(
    object: &CstObject,
    file: &Path,
    path: &str,
    key: &str,
) -> Result<CstArray, EditError> {
    object
        .array_value_or_create(key)
        .ok_or_else(|| shape(file, path, "an array"))
}

/// Set `object[key]` to the string `value`, keeping the property's place when it is there.
pub fn set_string(object: &CstObject, key: &str, value: &str) {
    set(object, key, CstInputValue::String(value.to_owned()));
}

/// Set `object[key]` to `value`, keeping the property's place when it is there.
pub fn set(object: &CstObject, key: &str, value: CstInputValue) {
    match object.get(key) {
        Some(prop) => prop.set_value(value),
        None => {
            object.append(key, value);
        }
    }
}

/// The string `object[key]` holds, if it is one.
pub fn string_of(object: &CstObject, key: &str) -> Option<String> {
    object
        .get(key)?
        .value()?
        .as_string_lit()?
        .decoded_value()
        .ok()
}

/// Remove `object[key]`; whether it was there.
pub fn remove(object: &CstObject, key: &str) -> bool {
    match object.get(key) {
        Some(prop) => {
            prop.remove();
            true
        }
        None => false,
    }
}

/// The strings of `array`, in order.
pub fn strings(array: &CstArray) -> Vec<String> {
    array
        .elements()
        .iter()
        .filter_map(|element| element.as_string_lit()?.decoded_value().ok())
        .collect()
}

/// Append the string `value` to `array`.
pub fn push_string(array: &CstArray, value: &str) {
    array.append(CstInputValue::String(value.to_owned()));
}

/// Remove every string element of `array` that `drop` picks; how many went.
pub fn remove_strings(array: &CstArray, drop: impl Fn(&str) -> bool) -> usize {
    let doomed: Vec<CstNode> = array
        .elements()
        .into_iter()
        .filter(|element| {
            element
                .as_string_lit()
                .and_then(|s| s.decoded_value().ok())
                .is_some_and(|s| drop(&s))
        })
        .collect();
    let count = doomed.len();
    for element in doomed {
        // jsonc-parser keeps the space that followed the comma after the first element, which
        // would leave `[ "b"]` where the user wrote `["a", "b"]`.
        let opened_tight = element.previous_sibling().and_then(|n| n.token_char()) == Some('[');
        element.remove();
        if opened_tight {
            let after_open = array
                .children()
                .into_iter()
                .skip_while(|n| n.token_char() != Some('['))
                .nth(1);
            if let Some(space) = after_open.filter(CstNode::is_whitespace) {
                space.remove();
            }
        }
    }
    count
}

/// Remove the object property at `keys` when its object has become empty, and so on up: a
/// container skilldeck emptied does not linger. The top object stays.
pub fn prune_empty(root: &CstRootNode, keys: &[&str]) {
    for depth in (1..=keys.len()).rev() {
        let Some(parent) = find_object(root, &keys[..depth - 1]) else {
            return;
        };
        let Some(prop) = parent.get(keys[depth - 1]) else {
            return;
        };
        let empty = match prop.value() {
            Some(CstNode::Container(container)) => {
                container.children_exclude_trivia_and_tokens().is_empty()
                    && !container.children().iter().any(CstNode::is_comment)
            }
            _ => false,
        };
        if !empty {
            return;
        }
        prop.remove();
    }
}

fn shape(file: &Path, key: &str, expected: &'static str) -> EditError {
    EditError::Shape {
        file: file.to_path_buf(),
        key: key.to_owned(),
        expected,
    }
}

/// Add `name` to the list of names at `keys` (made when missing), or take every name `same`
/// matches out of it: the edit Gemini CLI's and Copilot's switches make, checked as the agent
/// reading the file in `dialect` will see it. `Ok(None)`: it already is as asked.
///
/// # Errors
/// A refusal ([`EditError::is_refusal`]): the agent cannot read the file, a key on the way is
/// written twice, a value on the way has another shape, or the agent would not see the change.
pub fn edit_list(
    file: &Path,
    text: &str,
    dialect: Dialect,
    keys: &[&str],
    name: &str,
    add: bool,
    same: &dyn Fn(&str, &str) -> bool,
) -> Result<Option<String>, EditError> {
    let Some((last, parents)) = keys.split_last() else {
        return Ok(None);
    };
    let root = parse(file, text, dialect)?;
    unique(&root, file, dialect, keys)?;
    if add {
        let object = object_at(&root, file, parents)?;
        let array = array_in(&object, file, &keys.join("."), last)?;
        if strings(&array).iter().any(|listed| same(listed, name)) {
            return Ok(None);
        }
        push_string(&array, name);
    } else {
        let Some(array) = find_object(&root, parents).and_then(|o| o.array_value(last)) else {
            return Ok(None);
        };
        if remove_strings(&array, |listed| same(listed, name)) == 0 {
            return Ok(None);
        }
        // A list skilldeck emptied, and the objects it leaves empty, go with it: after a
        // disable and an enable the file holds what it held before.
        prune_empty(&root, keys);
    }
    let what = format!(
        "{name} {} {}",
        if add { "added to" } else { "taken out of" },
        keys.join(".")
    );
    seen(file, root.to_string(), dialect, &what, |value| {
        lists(value, keys, name, same) == add
    })
}

/// Whether the list of names at `keys` in `value` holds one `same` matches with `name`.
pub fn lists(
    value: &serde_json::Value,
    keys: &[&str],
    name: &str,
    same: &dyn Fn(&str, &str) -> bool,
) -> bool {
    at(value, keys)
        .and_then(serde_json::Value::as_array)
        .is_some_and(|names| {
            names
                .iter()
                .filter_map(serde_json::Value::as_str)
                .any(|listed| same(listed, name))
        })
}

/// The value at `keys` below `value`'s top object.
pub fn at<'v>(value: &'v serde_json::Value, keys: &[&str]) -> Option<&'v serde_json::Value> {
    keys.iter().try_fold(value, |inner, key| inner.get(key))
}

/// Set the member `key` of the object at `parents` (made when missing) to the string `to`, or
/// take it out when `to` is `None` (and an object that empties with it): the edit Claude
/// Code's `skillOverrides` and OpenCode's `permission.skill` switches make, checked as the
/// agent will see it. `Ok(None)`: it already is as asked.
///
/// # Errors
/// A refusal, as [`edit_list`]'s.
pub fn edit_member(
    file: &Path,
    text: &str,
    dialect: Dialect,
    parents: &[&str],
    key: &str,
    to: Option<&str>,
) -> Result<Option<String>, EditError> {
    let root = parse(file, text, dialect)?;
    let path: Vec<&str> = parents.iter().copied().chain([key]).collect();
    unique(&root, file, dialect, &path)?;
    match to {
        Some(to) => {
            let object = object_at(&root, file, parents)?;
            if string_of(&object, key).as_deref() == Some(to) {
                return Ok(None);
            }
            set_string(&object, key, to);
        }
        None => {
            let Some(object) = find_object(&root, parents) else {
                return Ok(None);
            };
            if !remove(&object, key) {
                return Ok(None);
            }
            prune_empty(&root, parents);
        }
    }
    let what = match to {
        Some(to) => format!("{} set to {to:?}", path.join(".")),
        None => format!("{} taken out", path.join(".")),
    };
    seen(file, root.to_string(), dialect, &what, |value| {
        at(value, &path).and_then(serde_json::Value::as_str) == to
    })
}

/// `edited`, the text an edit made, when the agent reads it and sees what `wanted` asks of it:
/// the last check before a switch claims a change, whatever the editor did.
///
/// # Errors
/// [`EditError::Unseen`] saying what it would not see.
pub fn seen(
    file: &Path,
    edited: String,
    dialect: Dialect,
    what: &str,
    wanted: impl Fn(&serde_json::Value) -> bool,
) -> Result<Option<String>, EditError> {
    match read(file, &edited, dialect) {
        Ok(value) if wanted(&value) => Ok(Some(edited)),
        _ => Err(EditError::Unseen {
            file: file.to_path_buf(),
            agent: dialect.agent,
            what: what.to_owned(),
        }),
    }
}
