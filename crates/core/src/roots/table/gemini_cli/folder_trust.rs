//! Whether Gemini CLI 0.61.0 trusts the folder it starts in, which decides whether it reads
//! the workspace's `.gemini/settings.json` and its workspace skills. Evidence, all in the
//! bundle of @google/gemini-cli 0.61.0:
//!
//! - `checkPathTrust` (packages/core/src/utils/trust.ts, bundle/chunk-JDPZ4CE3.js):
//!   `GEMINI_RESTRICTED_MODE=true` or `GEMINI_CLI_TRUST_WORKSPACE=false` distrust,
//!   `GEMINI_CLI_TRUST_WORKSPACE=true` trusts; folder trust switched off trusts; else the rules of
//!   `trustedFolders.json` (`LoadedTrustedFolders.isPathTrusted`): each rule covers its folder
//!   (`TRUST_PARENT`: the folder above it) and everything below, both resolved through links
//!   where they exist; of the rules that cover the start folder the one whose own path is
//!   longest wins, the first in the file on a tie; no rule means untrusted.
//! - `_doLoadSettings` (packages/cli/src/config/settings.ts, bundle/chunk-2YTYPKEZ.js): the
//!   workspace file is read only when that verdict, with folder trust as the system defaults,
//!   user and system files set it, trusts the folder, and never when the folder is the home.
//! - `loadCliConfig` and `Config.isTrustedFolder` (gemini-3HFX2LNT.js, chunk-JDPZ4CE3.js): the
//!   skills are then read with the verdict given by the merged settings, the workspace's
//!   included, so a trusted workspace that switches folder trust back on loses its own skills.

use std::path::{Path, PathBuf};

use super::merged::{Merged, layer};
use super::{Environment, Trust};
use crate::roots::Project;
use crate::roots::SystemPath;

pub(crate) const TRUST: Trust = Trust {
    why: "Gemini CLI does not trust this folder (trust it with GEMINI_CLI_TRUST_WORKSPACE=true or a rule in ~/.gemini/trustedFolders.json)",
    shown: "in a trusted folder only",
    check: |env, project| read(env, project).skills_trusted,
    variables: &[
        "GEMINI_CLI_TRUST_WORKSPACE",
        "GEMINI_RESTRICTED_MODE",
        "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
        "GEMINI_CLI_HOME",
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
    ],
};

/// Gemini CLI's system settings file on each platform, unless `GEMINI_CLI_SYSTEM_SETTINGS_PATH`
/// names another: `getSystemSettingsPath` in packages/cli/src/config/settings.ts (gemini-cli
/// 5411f113, 2026-08-21) returns `/Library/Application Support/GeminiCli/settings.json` on
/// darwin, `C:\ProgramData\gemini-cli\settings.json` on win32, `/etc/gemini-cli/settings.json`
/// elsewhere.
const SYSTEM_SETTINGS: SystemPath = SystemPath {
    linux: "etc/gemini-cli/settings.json",
    macos: "Library/Application Support/GeminiCli/settings.json",
    windows: "ProgramData/gemini-cli/settings.json",
};

/// The settings files Gemini CLI reads.
pub(crate) struct Files {
    /// `settings.json` under `GEMINI_CLI_HOME`'s `.gemini` or the home's.
    pub user: Option<PathBuf>,
    /// The start folder's `.gemini/settings.json`.
    pub workspace: PathBuf,
    /// Whether Gemini CLI reads `workspace`: it trusts the start folder, which is not the home.
    pub workspace_read: bool,
    /// The system file an administrator writes; Gemini CLI never edits it.
    pub system: PathBuf,
    /// `system-defaults.json` beside it (`GEMINI_CLI_SYSTEM_DEFAULTS_PATH` names another).
    pub system_defaults: PathBuf,
}

impl Files {
    /// The files Gemini CLI reads, in the order it merges them.
    pub(crate) fn read(&self) -> Vec<PathBuf> {
        std::iter::once(self.system_defaults.clone())
            .chain(self.user.iter().cloned())
            .chain(self.workspace_read.then(|| self.workspace.clone()))
            .chain([self.system.clone()])
            .collect()
    }
}

/// What Gemini CLI's settings make of one start.
pub(crate) struct Read {
    pub files: Files,
    pub merged: Merged,
    /// Whether it reads the workspace's skills.
    pub skills_trusted: bool,
}

pub(crate) fn read(env: &Environment, project: &Project) -> Read {
    let gemini_dir = crate::roots::homes::gemini_cli(env, project);
    // The folder standing for the home: `GEMINI_CLI_HOME`, else the home.
    let home = gemini_dir.parent().unwrap_or(&gemini_dir).to_path_buf();
    let system = env
        .var("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
        .map_or_else(|| SYSTEM_SETTINGS.resolve(env), PathBuf::from);
    let system_defaults = env.var("GEMINI_CLI_SYSTEM_DEFAULTS_PATH").map_or_else(
        || system.with_file_name("system-defaults.json"),
        PathBuf::from,
    );
    let user = Some(gemini_dir.join("settings.json"));
    let start = real(project.start());
    let rules = || {
        let file = env
            .var("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
            .map_or_else(|| gemini_dir.join("trustedFolders.json"), PathBuf::from);
        rules(&file, &start)
    };
    let trusts = |merged: &Merged| match by_variables(env) {
        Some(verdict) => verdict,
        None if !merged.folder_trust() => true,
        None => verdict(&rules(), &start) == Some(true),
    };
    let [system_defaults_layer, user_layer, system_layer] =
        [Some(&system_defaults), user.as_ref(), Some(&system)]
            .map(|file| file.and_then(|file| layer(env, file)));
    let before_workspace = Merged::of(&[
        system_defaults_layer.clone(),
        user_layer.clone(),
        system_layer.clone(),
    ]);
    let workspace = project.start().join(".gemini/settings.json");
    let workspace_read = trusts(&before_workspace) && start != real(&home);
    let workspace_layer = workspace_read.then(|| layer(env, &workspace)).flatten();
    let merged = Merged::of(&[
        system_defaults_layer,
        user_layer,
        workspace_layer,
        system_layer,
    ]);
    Read {
        skills_trusted: trusts(&merged),
        merged,
        files: Files {
            user,
            workspace,
            workspace_read,
            system,
            system_defaults,
        },
    }
}

fn by_variables(env: &Environment) -> Option<bool> {
    let value = |name| env.var(name).and_then(|v| v.to_str());
    if value("GEMINI_RESTRICTED_MODE") == Some("true")
        || value("GEMINI_CLI_TRUST_WORKSPACE") == Some("false")
    {
        return Some(false);
    }
    (value("GEMINI_CLI_TRUST_WORKSPACE") == Some("true")).then_some(true)
}

/// A folder through its links, where it exists (`getRealPath`).
fn real(path: &Path) -> PathBuf {
    crate::fs::canonical(path).unwrap_or_else(|_| path.to_path_buf())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    Folder,
    Parent,
    DoNotTrust,
}

/// The rules of `trustedFolders.json` in the file's order, each path made absolute (from the
/// start folder, as `path.resolve` does) and normalised; a path written twice keeps its first
/// place and its last level, as a JavaScript object does.
fn rules(file: &Path, start: &Path) -> Vec<(PathBuf, Level)> {
    let Some(text) = crate::roots::settings::bytes(file, crate::limits::SETTINGS_FILE_BYTES)
        .and_then(|bytes| String::from_utf8(bytes).ok())
    else {
        return Vec::new();
    };
    let stripped = crate::roots::dialect::strip_comments(&text);
    let Ok(Ordered(entries)) = serde_json::from_str::<Ordered>(&stripped) else {
        return Vec::new();
    };
    let mut rules: Vec<(PathBuf, Level)> = Vec::new();
    for (folder, level) in entries {
        let level = match level.as_str() {
            Some("TRUST_FOLDER") => Level::Folder,
            Some("TRUST_PARENT") => Level::Parent,
            Some("DO_NOT_TRUST") => Level::DoNotTrust,
            _ => continue,
        };
        let folder = crate::fs::lexical(&start.join(&folder));
        match rules.iter_mut().find(|(seen, _)| *seen == folder) {
            Some(rule) => rule.1 = level,
            None => rules.push((folder, level)),
        }
    }
    rules
}

/// The verdict of `rules` on `start` (already through its links): `None` when none covers it.
fn verdict(rules: &[(PathBuf, Level)], start: &Path) -> Option<bool> {
    let mut best: Option<(usize, Level)> = None;
    for (folder, level) in rules {
        let covered = match level {
            Level::Parent => folder.parent().unwrap_or(folder),
            Level::Folder | Level::DoNotTrust => folder,
        };
        // `rulePath.length`: JavaScript counts UTF-16 units.
        let length = folder.to_string_lossy().encode_utf16().count();
        if start.starts_with(real(covered)) && best.is_none_or(|(longest, _)| length > longest) {
            best = Some((length, *level));
        }
    }
    best.map(|(_, level)| level != Level::DoNotTrust)
}

/// A JSON object's entries in the order written.
struct Ordered(Vec<(String, serde_json::Value)>);

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Ordered, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Ordered(entries))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(pairs: &[(&str, Level)]) -> Vec<(PathBuf, Level)> {
        pairs.iter().map(|(p, l)| (PathBuf::from(p), *l)).collect()
    }

    #[test]
    fn the_longest_rule_path_decides_and_covers_subfolders() {
        let both = set(&[("/w", Level::Folder), ("/w/secret", Level::DoNotTrust)]);
        assert_eq!(verdict(&both, Path::new("/w/app/sub")), Some(true));
        assert_eq!(verdict(&both, Path::new("/w/secret/x")), Some(false));
        assert_eq!(verdict(&both, Path::new("/elsewhere")), None);
        // The rule's own path is measured, not the parent it covers.
        let parent = set(&[("/w/p/sub", Level::Parent), ("/w/p", Level::DoNotTrust)]);
        assert_eq!(verdict(&parent, Path::new("/w/p")), Some(true));
        // On a tie the first written wins.
        let tie = set(&[("/w/p/abc", Level::Parent), ("/w/p/sub", Level::DoNotTrust)]);
        assert_eq!(verdict(&tie, Path::new("/w/p/sub")), Some(true));
    }

    #[test]
    fn the_variable_wins_over_every_rule() {
        let tmp = tempfile::tempdir().unwrap();
        let project = Project::locate(tmp.path());
        let env = Environment::new(tmp.path()).with_var("SKILLDECK_SYSTEM_ROOT", tmp.path());
        assert!(!read(&env, &project).skills_trusted);
        let env = env.with_var("GEMINI_CLI_TRUST_WORKSPACE", "true");
        assert!(read(&env, &project).skills_trusted);
    }

    #[test]
    fn a_trusted_folders_file_trusts_its_folder_in_its_order() {
        let tmp = tempfile::tempdir().unwrap();
        let start = crate::fs::canonical(tmp.path()).unwrap();
        std::fs::create_dir_all(start.join(".gemini")).unwrap();
        let path = start.to_str().unwrap();
        let text = format!(
            "{{\"{path}/\": \"DO_NOT_TRUST\", // a comment\n\"{path}\": \"TRUST_FOLDER\"}}"
        );
        std::fs::write(start.join(".gemini/trustedFolders.json"), text).unwrap();
        let read = rules(
            &start.join(".gemini/trustedFolders.json"),
            Path::new("/elsewhere"),
        );
        assert_eq!(read, [(start.clone(), Level::Folder)]);
        std::fs::write(
            start.join(".gemini/trustedFolders.json"),
            r#"{"sub/../proj": "TRUST_PARENT"}"#,
        )
        .unwrap();
        let read = rules(&start.join(".gemini/trustedFolders.json"), Path::new("/w"));
        assert_eq!(read, [(PathBuf::from("/w/proj"), Level::Parent)]);
    }
}
