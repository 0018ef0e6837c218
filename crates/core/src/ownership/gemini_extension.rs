//! Gemini CLI's extension manager (probe/gemini-cli FINDINGS facts 19–23), under
//! `${GEMINI_CLI_HOME:-~}/.gemini`:
//!
//! - `extensions/<name>/.gemini-extension-install.json` {"source": "<abs>", "type": "local" |
//!   "link" | "git" …}, written by `gemini extensions install` (which copies the source into
//!   the folder) and `gemini extensions link` (which leaves only this file: the skills are read
//!   in place from `<source>/skills/`).
//! - `extensions/<name>/gemini-extension.json` (`name`, `version`), in the copy, or in the
//!   source of a linked extension.
//! - `extension_integrity.json` {"store": {<name>: {hash, signature}}}. The hash is SHA-256
//!   over the install record alone (its keys sorted, as json-stable-stringify writes it), not
//!   over the extension's files; the signature is an HMAC with a key kept in the system
//!   keychain or `integrity.key`. So the hash tells whether the install record was changed
//!   since, and nothing of the files: Gemini CLI keeps no hash of them, and an extension's
//!   skills are judged unverifiable rather than guessed at.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest as _, Sha256};

use super::{
    Attribution, FileProblem, Installer, Owner, Subject, Upstream, Verdict, lies_below, read_json,
};
use crate::record::lower_hex;
use crate::roots::{Environment, Project};

const INSTALL_FILE: &str = ".gemini-extension-install.json";
const MANIFEST_FILE: &str = "gemini-extension.json";
const INTEGRITY_FILE: &str = "extension_integrity.json";

#[derive(Clone, Debug, Default, Deserialize)]
struct Manifest {
    name: Option<String>,
    version: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct IntegrityFile {
    #[serde(default)]
    store: BTreeMap<String, Integrity>,
}

#[derive(Clone, Debug, Default, Deserialize)]
struct Integrity {
    hash: Option<String>,
}

/// One extension folder holding an install record.
#[derive(Debug)]
struct Extension {
    /// `extensions/<name>`.
    dir: PathBuf,
    install_file: PathBuf,
    /// The install record as written, or why it could not be read.
    install: Result<serde_json::Value, FileProblem>,
    manifest: Manifest,
}

impl Extension {
    fn text(&self, key: &str) -> Option<&str> {
        self.install
            .as_ref()
            .ok()
            .and_then(|i| i.get(key))
            .and_then(serde_json::Value::as_str)
    }

    /// The source folder a linked extension is read from.
    fn linked_source(&self) -> Option<&Path> {
        (self.text("type") == Some("link"))
            .then(|| self.text("source").map(Path::new))
            .flatten()
    }

    fn name(&self) -> String {
        self.manifest.name.clone().unwrap_or_else(|| {
            self.dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
    }
}

/// Gemini CLI's extension records of a run.
#[derive(Debug, Default)]
pub struct Extensions {
    extensions: Vec<Extension>,
    integrity_file: PathBuf,
    /// The recorded hashes by extension name; `None` when the file could not be read.
    integrity: Option<BTreeMap<String, Integrity>>,
}

impl Extensions {
    /// Every extension folder of `${GEMINI_CLI_HOME:-~}/.gemini/extensions` that holds an
    /// install record.
    pub fn read(env: &Environment, project: &Project, problems: &mut Vec<FileProblem>) -> Self {
        let home = crate::roots::homes::gemini_cli(env, project);
        let integrity_file = home.join(INTEGRITY_FILE);
        let integrity = match read_json::<IntegrityFile>(&integrity_file) {
            Ok(file) => Some(file.unwrap_or_default().store),
            Err(problem) => {
                problems.push(problem);
                None
            }
        };
        let mut extensions = Vec::new();
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(home.join("extensions"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for dir in dirs {
            let install_file = dir.join(INSTALL_FILE);
            let install = match read_json::<serde_json::Value>(&install_file) {
                Ok(None) => continue,
                Ok(Some(value)) if value.is_object() => Ok(value),
                Ok(Some(_)) => Err(FileProblem::Unreadable {
                    path: install_file.clone(),
                    reason: "it is not a JSON object".to_owned(),
                }),
                Err(problem) => Err(problem),
            };
            if let Err(problem) = &install {
                problems.push(problem.clone());
            }
            let mut extension = Extension {
                dir,
                install_file,
                install,
                manifest: Manifest::default(),
            };
            let manifest_dir = extension
                .linked_source()
                .map_or_else(|| extension.dir.clone(), Path::to_path_buf);
            extension.manifest = match read_json::<Manifest>(&manifest_dir.join(MANIFEST_FILE)) {
                Ok(manifest) => manifest.unwrap_or_default(),
                Err(problem) => {
                    problems.push(problem);
                    Manifest::default()
                }
            };
            extensions.push(extension);
        }
        Self {
            extensions,
            integrity_file,
            integrity,
        }
    }

    /// Nothing of Gemini CLI's is ever lost for a broken file: a skill in an extension whose
    /// install record is unreadable is still attributed, with the problem on it.
    pub fn broken_for(&self, _subject: &Subject<'_>) -> Option<&FileProblem> {
        None
    }

    /// Gemini CLI's record of a skill in an extension's folder, or in a linked extension's
    /// source.
    pub fn attribute(&self, subject: &Subject<'_>) -> Option<Attribution> {
        let extension = self.extensions.iter().find(|e| {
            lies_below(subject, &e.dir)
                || e.linked_source()
                    .is_some_and(|source| lies_below(subject, source))
        })?;
        let owner = Owner::new(Installer::GeminiExtension, extension.install_file.clone())
            .with_upstream(Upstream {
                repository: extension.text("source").map(str::to_owned),
                // A git install's branch or tag when it names one, else the version.
                reference: extension
                    .text("ref")
                    .map(str::to_owned)
                    .or_else(|| extension.manifest.version.clone()),
                ..Upstream::default()
            });
        let install = match &extension.install {
            Ok(install) => install,
            Err(problem) => return Some(Attribution::unreadable_record(owner, problem.clone())),
        };
        let integrity = self.integrity_note(&extension.name(), install);
        let note = if extension.linked_source().is_some() {
            format!(
                "a linked extension, read in place from its source; Gemini CLI records no hash of its files ({integrity})"
            )
        } else {
            format!("Gemini CLI records no hash of an extension's files ({integrity})")
        };
        Some(Verdict::unverifiable(note).for_owner(owner))
    }

    /// What `extension_integrity.json` says of the install record.
    fn integrity_note(&self, name: &str, install: &serde_json::Value) -> String {
        let file = self.integrity_file.display();
        let Some(store) = &self.integrity else {
            return format!("{file} could not be read");
        };
        let Some(recorded) = store.get(name).and_then(|i| i.hash.as_deref()) else {
            return format!("{file} holds no hash of its install record");
        };
        let mut stable = String::new();
        stable_stringify(install, &mut stable);
        let now = lower_hex(&Sha256::digest(stable.as_bytes()));
        if now.eq_ignore_ascii_case(recorded) {
            format!("the hash in {file} covers only the install record, which matches it")
        } else {
            format!(
                "the hash in {file} covers only the install record, which has changed since Gemini CLI wrote it"
            )
        }
    }
}

/// JSON as json-stable-stringify writes it: no spaces, every object's keys sorted.
fn stable_stringify(value: &serde_json::Value, out: &mut String) {
    match value {
        serde_json::Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            // JavaScript sorts by UTF-16 code units.
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{}:", serde_json::Value::String(key.clone()));
                stable_stringify(&map[key], out);
            }
            out.push('}');
        }
        serde_json::Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                stable_stringify(item, out);
            }
            out.push(']');
        }
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_integrity_hash_is_over_the_sorted_install_record() {
        // From a real `gemini extensions install` (Gemini CLI 0.61.0), see
        // tests/fixtures/agent-records/gemini-cli/README.md.
        let install = serde_json::json!({"type": "local", "source": "/tmp/rec/gemini/src/ext-a"});
        let mut stable = String::new();
        stable_stringify(&install, &mut stable);
        assert_eq!(
            stable,
            r#"{"source":"/tmp/rec/gemini/src/ext-a","type":"local"}"#
        );
        assert_eq!(
            lower_hex(&Sha256::digest(stable.as_bytes())),
            "a16d4ddc35ded26ee7a4e0a1c169dad522998b731ff58e590346886f8069f67c"
        );
    }
}
