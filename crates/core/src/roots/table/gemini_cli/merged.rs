//! Gemini CLI 0.61.0's settings as it reads them, one merged value: `_doLoadSettings`,
//! `mergeSettings` and `customDeepMerge` (packages/cli/src/config/settings.ts and
//! utils/deepMerge.ts, in bundle/chunk-2YTYPKEZ.js of @google/gemini-cli 0.61.0). Each file is
//! read with its comments stripped ([`crate::roots::settings::gemini_cli`]); every string in it,
//! at any depth, has its variables replaced (`resolveEnvVarsInObject`, utils/envVarResolver.ts);
//! the file is checked against the settings schema (`validateSettings`), which reads `"true"`
//! and `"false"` in any case as booleans, and when any key fails the whole file is kept as
//! written (`settings: validationResult.data ?? expandedSettings`, the data only on success);
//! then the files are merged over the schema's defaults in the order system defaults, user,
//! workspace (only in a trusted folder), system: a later value replaces an earlier one,
//! objects merge key by key, and `skills.disabled` is the union of every file's (its
//! `mergeStrategy`). Gemini CLI then tests the values as JavaScript does (`skills.enabled ??
//! true`: in a file that fails the schema `0` and `""` are off, `null` and `"no"` on). Seen in
//! `gemini skills list --all` 0.61.0: `"FALSE"` and `""` turn skills off, `" false"`, `1`,
//! `null` and `"no"` do not.

use std::path::Path;

use serde_json::{Map, Value};

use super::Environment;

/// Gemini CLI's settings merged, as the places that read them see them.
#[derive(Clone, Debug)]
pub(crate) struct Merged(Value);

impl Merged {
    /// The files' values, earliest first (a file Gemini CLI cannot read is `None`), over the
    /// defaults of the keys skilldeck reads.
    pub(crate) fn of(layers: &[Option<Value>]) -> Merged {
        let mut merged = serde_json::json!({
            "security": { "folderTrust": { "enabled": true } },
            "skills": { "enabled": true, "disabled": [] },
        });
        for layer in layers.iter().flatten() {
            if let (Value::Object(target), Value::Object(source)) = (&mut merged, layer) {
                merge(target, source, &mut Vec::new());
            }
        }
        Merged(merged)
    }

    /// The value at `pointer` (a JSON pointer), where the merged settings hold one.
    pub(crate) fn pointer(&self, pointer: &str) -> Option<&Value> {
        self.0.pointer(pointer)
    }

    /// `isFolderTrustEnabled`: `security.folderTrust.enabled ?? true`, tested for truth.
    pub(crate) fn folder_trust(&self) -> bool {
        self.0
            .pointer("/security/folderTrust/enabled")
            .is_none_or(|value| value.is_null() || truthy(value))
    }

    /// `skillsSupport: settings.skills?.enabled ?? true`, tested with `if`.
    pub(crate) fn skills_enabled(&self) -> bool {
        self.0
            .get("skills")
            .and_then(|skills| skills.get("enabled"))
            .is_none_or(|value| value.is_null() || truthy(value))
    }

    /// `skills.disabled`: the names (`setDisabledSkills` lower-cases each, so an entry that is
    /// not text stops Gemini CLI altogether; those are left out here).
    pub(crate) fn disabled(&self) -> Vec<String> {
        match self.0.pointer("/skills/disabled") {
            Some(Value::Array(names)) => names
                .iter()
                .filter_map(|name| name.as_str().map(str::to_owned))
                .collect(),
            Some(Value::String(name)) => vec![name.clone()],
            _ => Vec::new(),
        }
    }
}

/// One settings file as Gemini CLI holds it: parsed, an object, its strings expanded.
pub(crate) fn layer(env: &Environment, path: &Path) -> Option<Value> {
    let mut value = crate::roots::settings::gemini_cli(path).filter(Value::is_object)?;
    expand_all(env, &mut value);
    Some(validated(value))
}

/// The file as the schema reads it when the keys skilldeck reads have their schema's types
/// (`skills` and `security.folderTrust` objects, their `enabled` booleans or `"true"` /
/// `"false"` in any case, `skills.disabled` a list of text), else as written. The schema's
/// other keys are taken to pass.
fn validated(value: Value) -> Value {
    fn boolean(value: Option<&mut Value>) -> Option<()> {
        let Some(value) = value else {
            return Some(());
        };
        if let Value::String(text) = value {
            match text.to_lowercase().as_str() {
                "true" => *value = Value::Bool(true),
                "false" => *value = Value::Bool(false),
                _ => return None,
            }
        }
        value.is_boolean().then_some(())
    }
    fn check(root: &mut Value) -> Option<()> {
        let root = root.as_object_mut()?;
        if let Some(skills) = root.get_mut("skills") {
            let skills = skills.as_object_mut()?;
            boolean(skills.get_mut("enabled"))?;
            if let Some(names) = skills.get("disabled") {
                names
                    .as_array()?
                    .iter()
                    .all(Value::is_string)
                    .then_some(())?;
            }
        }
        if let Some(security) = root.get_mut("security")
            && let Some(trust) = security.as_object_mut()?.get_mut("folderTrust")
        {
            boolean(trust.as_object_mut()?.get_mut("enabled"))?;
        }
        Some(())
    }
    let mut read = value.clone();
    match check(&mut read) {
        Some(()) => read,
        None => value,
    }
}

/// JavaScript's truth of a JSON value.
pub(super) fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(on) => *on,
        Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
        Value::String(text) => !text.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// `mergeRecursively`: the paths whose `mergeStrategy` is `union` gather every file's entries
/// (a single value counts as a list of one); other values replace; objects merge.
fn merge(target: &mut Map<String, Value>, source: &Map<String, Value>, path: &mut Vec<String>) {
    const UNION: &[&[&str]] = &[&["skills", "disabled"]];
    for (key, value) in source {
        if matches!(key.as_str(), "__proto__" | "constructor" | "prototype") {
            continue;
        }
        path.push(key.clone());
        let union = UNION.iter().any(|p| p.iter().eq(path.iter()));
        match (target.get_mut(key), value) {
            (Some(Value::Array(items)), _) if union => {
                let more = match value {
                    Value::Array(more) => more.clone(),
                    one => vec![one.clone()],
                };
                for item in more {
                    if !items.contains(&item) {
                        items.push(item);
                    }
                }
            }
            (Some(Value::Object(inner)), Value::Object(source)) => merge(inner, source, path),
            _ => {
                target.insert(key.clone(), value.clone());
            }
        }
        path.pop();
    }
}

fn expand_all(env: &Environment, value: &mut Value) {
    match value {
        Value::String(text) => *text = expand(env, text),
        Value::Array(items) => items.iter_mut().for_each(|item| expand_all(env, item)),
        Value::Object(map) => map.values_mut().for_each(|item| expand_all(env, item)),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// `resolveEnvVarsInString`: `/\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})/g`. `$NAME` takes the
/// longest run of word characters; `${…}` runs to the first `}` and holds a name, then
/// `:-` and a default at the first `:-` after the name's first character. A variable set
/// (even to the empty string) gives its value; else the default, when written; else the text
/// stays as it is.
pub(crate) fn expand(env: &Environment, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let word = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let (name, default, used) = if word > 0 {
            (&after[..word], None, word)
        } else if let Some(inner) = after.strip_prefix('{')
            && let Some(close) = inner.find('}')
            && close > 0
        {
            let body = &inner[..close];
            let split = body
                .char_indices()
                .skip(1)
                .find(|(i, _)| body[*i..].starts_with(":-"))
                .map(|(i, _)| i);
            match split {
                Some(i) => (&body[..i], Some(&body[i + 2..]), close + 2),
                None => (body, None, close + 2),
            }
        } else {
            out.push('$');
            rest = after;
            continue;
        };
        let written = &rest[at..at + 1 + used];
        match (env.expanded(name), default) {
            (Some(value), _) => out.push_str(&value.to_string_lossy()),
            (None, Some(default)) => out.push_str(default),
            (None, None) => out.push_str(written),
        }
        rest = &after[used..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Environment {
        Environment::new("/h")
            .with_var("HOME", "/h")
            .with_var("EMPTY", "")
            .with_var("A_1", "x")
    }

    #[test]
    fn variables_expand_as_gemini_cli_expands_them() {
        let cases = [
            ("$HOME/s", "/h/s"),
            ("${HOME}/s", "/h/s"),
            ("${NOPE:-d}", "d"),
            ("${NOPE:-}", ""),
            ("${EMPTY:-d}", ""),
            ("$NOPE", "$NOPE"),
            ("${NOPE}", "${NOPE}"),
            ("$A_1-b", "x-b"),
            ("$", "$"),
            ("${}", "${}"),
            ("${HOME", "${HOME"),
            ("$$HOME", "$/h"),
            ("${A_1:-a:-b}", "x"),
            ("${NOPE:-a:-b}", "a:-b"),
            ("${:-x}", "${:-x}"),
            ("é$HOMEé", "é/hé"),
        ];
        for (text, want) in cases {
            assert_eq!(expand(&env(), text), want, "{text}");
        }
    }

    #[test]
    fn the_schema_reads_true_and_false_text_unless_the_file_fails_it() {
        let off = serde_json::json!({"skills": {"enabled": "FALSE"}});
        assert_eq!(validated(off)["skills"]["enabled"], false);
        let failing = serde_json::json!({"skills": {"enabled": "false", "disabled": "x"}});
        assert_eq!(validated(failing.clone()), failing);
        let empty = serde_json::json!({"skills": {"enabled": ""}});
        assert!(!Merged::of(&[Some(validated(empty))]).skills_enabled());
        let trust = serde_json::json!({"security": {"folderTrust": {"enabled": "False"}}});
        assert!(!Merged::of(&[Some(validated(trust))]).folder_trust());
    }

    #[test]
    fn later_files_replace_values_and_add_to_the_disabled_list() {
        let user = serde_json::json!({"skills": {"enabled": false, "disabled": ["a", "b"]}});
        let workspace = serde_json::json!({"skills": {"enabled": null, "disabled": "c"}});
        let merged = Merged::of(&[Some(user.clone()), None, Some(workspace)]);
        assert!(merged.skills_enabled());
        assert_eq!(merged.disabled(), ["a", "b", "c"]);
        assert!(!Merged::of(&[Some(user)]).skills_enabled());
        let text = serde_json::json!({"skills": {"enabled": "false"}});
        assert!(Merged::of(&[Some(text)]).skills_enabled());
        let zero = serde_json::json!({"skills": {"enabled": 0}});
        assert!(!Merged::of(&[Some(zero)]).skills_enabled());
        let trust = serde_json::json!({"security": {"folderTrust": {"enabled": null}}});
        assert!(Merged::of(&[Some(trust)]).folder_trust());
        let off = serde_json::json!({"security": {"folderTrust": {"enabled": ""}}});
        assert!(!Merged::of(&[Some(off)]).folder_trust());
    }
}
