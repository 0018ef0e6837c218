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

/// Whether Gemini CLI gets through loading its extensions at all. With
/// `security.allowedExtensions` set, an extension folder whose install record gives no
/// `source` makes `_buildExtension` throw, and `gemini` stops ("An unexpected critical error
/// occurred: Error: Failed to load extension …") before it lists a single skill.
pub(crate) fn loaded_without_error(env: &Environment, project: &Project) -> bool {
    if policy(env, project).allowed.is_empty() {
        return true;
    }
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
    // `loadInstallMetadata`: `JSON.parse` of the record, any failure read as no record; a
    // `source` that is not text is as good as none to `getRealPath`.
    entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|folder| folder.is_dir())
        .all(|folder| {
            crate::roots::settings::json(&folder.join(".gemini-extension-install.json"))
                .is_some_and(|record| record.get("source").is_some_and(super::merged::truthy))
        })
}
