//! Which extensions Gemini CLI 0.61.0 loads under its security settings (`_buildExtension` in
//! packages/cli/src/config/extension-manager.ts, bundle/chunk-4GP6HFBO.js): when the merged
//! `security.allowedExtensions` is a list with entries, an extension loads only when one entry,
//! a JavaScript regular expression, matches its install record's `source` made a real path
//! (`getRealPath`: `realpathSync`, else `path.resolve` from the start folder, so a URL reads
//! `<start>/https:/host/…`); otherwise `security.blockGitExtensions` keeps out an extension
//! installed from `git` or a `github-release`. `admin.extensions.enabled` and
//! `admin.skills.enabled` come only from the remote admin settings (`computeMergedSettings`
//! replaces `admin` with the schema's defaults and the server's values), so a settings file
//! cannot set them (agree::gemini_cli::gemini_cli_extensions_under_the_security_settings).

use std::path::Path;

use serde_json::Value;

use super::folder_trust;
use crate::roots::{Environment, Place, Project};

/// The two settings, as the merged settings hold them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Policy {
    /// The patterns, when the list has any.
    allowed: Vec<String>,
    block_git: bool,
}

/// The policy for a run started where `project` says.
pub(crate) fn policy(env: &Environment, project: &Project) -> Policy {
    let merged = folder_trust::read(env, project).merged;
    let allowed = match merged.pointer("/security/allowedExtensions") {
        Some(Value::Array(entries)) => entries
            .iter()
            .map(|entry| match entry {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let block_git = merged
        .pointer("/security/blockGitExtensions")
        .is_some_and(super::merged::truthy);
    Policy { allowed, block_git }
}

impl Policy {
    /// Why Gemini CLI does not load an extension whose install record gives `source` and
    /// `kind`, started in `start`; `None` when it loads it.
    pub(crate) fn refuses(
        &self,
        source: Option<&str>,
        kind: Option<&str>,
        start: &Path,
    ) -> Option<String> {
        if !self.allowed.is_empty() {
            let Some(source) = source else {
                return Some(
                    "security.allowedExtensions is set and its install record gives no source"
                        .to_owned(),
                );
            };
            let real = real_path(source, start);
            let real = real.to_string_lossy();
            let mut unreadable = None;
            for pattern in &self.allowed {
                match regex::Regex::new(pattern) {
                    Ok(pattern) if pattern.is_match(&real) => return None,
                    Ok(_) => {}
                    Err(_) => unreadable = Some(pattern),
                }
            }
            return Some(match unreadable {
                Some(pattern) => format!(
                    "no pattern of security.allowedExtensions matches {real}, and skilldeck cannot read {pattern:?} as Gemini CLI's JavaScript would"
                ),
                None => format!("no pattern of security.allowedExtensions matches {real}"),
            });
        }
        (self.block_git && matches!(kind, Some("git" | "github-release"))).then(|| {
            "security.blockGitExtensions keeps out extensions installed from git".to_owned()
        })
    }
}

/// `getRealPath`: the real path when there is one, else the path resolved from `start` with
/// `.`, `..` and repeated slashes taken out, as Node's `path.resolve` does.
fn real_path(source: &str, start: &Path) -> std::path::PathBuf {
    std::fs::canonicalize(source).unwrap_or_else(|_| crate::fs::lexical(&start.join(source)))
}

/// Whether Gemini CLI gets through loading its extensions at all (`loadExtensions`): with
/// `security.allowedExtensions` set, an extension folder whose install record gives no
/// `source` makes `_buildExtension` throw; and two extensions it builds under one name make
/// `loadExtensions` throw ("Extension with name NAME already was loaded"), whether or not
/// either is enabled. Either way `gemini` stops ("An unexpected critical error occurred")
/// before it lists a single skill (agree::gemini_cli::gemini_cli_two_extensions_of_one_name).
pub(crate) fn loaded_without_error(env: &Environment, project: &Project) -> bool {
    let Some(dir) = Place::Under(&super::GEMINI_DIR, "extensions")
        .resolve(env, project)
        .into_iter()
        .next()
    else {
        return true;
    };
    let Ok(entries) = std::fs::read_dir(&dir.path) else {
        return true;
    };
    let policy = policy(env, project);
    let mut names = std::collections::BTreeSet::new();
    for folder in entries.flatten().map(|entry| entry.path()) {
        // `_buildExtension` passes over what `stat` does not find a folder.
        if !folder.is_dir() {
            continue;
        }
        // `loadInstallMetadata`: `JSON.parse` of the record, any failure read as no record.
        let record = crate::roots::settings::json(&folder.join(".gemini-extension-install.json"));
        let field = |key: &str| {
            record
                .as_ref()
                .and_then(|record| record.get(key))
                .filter(|value| super::merged::truthy(value))
        };
        let source = field("source");
        if !policy.allowed.is_empty() && source.is_none() {
            return false;
        }
        let (source, kind) = (
            source.and_then(Value::as_str),
            field("type").and_then(Value::as_str),
        );
        if policy.refuses(source, kind, project.start()).is_some() {
            continue;
        }
        let effective = match (kind, source) {
            (Some("link"), Some(source)) => std::path::PathBuf::from(source),
            _ => folder,
        };
        let manifest = crate::roots::settings::json(&effective.join(MANIFEST));
        let accepted = manifest.map(|manifest| {
            let field = |key| manifest.get(key).cloned().unwrap_or(Value::Null);
            accepted_manifest(&field("name"), &field("version"))
        });
        if let Some(Ok((name, _))) = accepted
            && !names.insert(name)
        {
            return false;
        }
    }
    true
}

/// The file naming an extension.
pub(crate) const MANIFEST: &str = "gemini-extension.json";

/// The name and version `loadExtensionConfig` accepts from an extension's manifest, or why it
/// skips the extension: a truthy `name` and `version` (JavaScript's truth: a missing, empty,
/// zero or false one is none), the name of letters, digits and dashes (`validateName`).
pub(crate) fn accepted_manifest(
    name: &Value,
    version: &Value,
) -> Result<(String, Option<String>), &'static str> {
    let name = match name.as_str() {
        Some("") | None => return Err("gives no \"name\""),
        Some(name) => name.to_owned(),
    };
    let version = match version {
        Value::String(text) if !text.is_empty() => Some(text.clone()),
        Value::Number(n) if n.as_f64() != Some(0.0) => Some(n.to_string()),
        Value::Bool(true) | Value::Array(_) | Value::Object(_) => None,
        _ => return Err("gives no \"version\""),
    };
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err("names it with more than letters, digits and dashes");
    }
    Ok((name, version))
}
