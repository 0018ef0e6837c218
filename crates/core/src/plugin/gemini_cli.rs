//! Gemini CLI 0.61.0's extensions (/work/probe/gemini-cli/FINDINGS.md, facts 19–23): a folder
//! in `~/.gemini/extensions` is an extension only with a `gemini-extension.json` that gives a
//! `name` (letters, digits and dashes) and a `version` (`loadExtensionConfig` in
//! extension-manager.ts, checked against 0.61.0: one without is skipped with a warning); the
//! `name` names it. `.gemini-extension-install.json` `{source, type: "link"}` means the extension is
//! read from `source`. `extension-enablement.json` beside the extensions holds, per name, rules
//! `<path>/*` (on) and `!<path>/*` (off) matched against the start directory; the last that
//! matches wins (`isEnabled` in extensionEnablement.ts), and a disabled extension gives nothing.
//!
//! Skills: `<extension>/skills/SKILL.md` and `<extension>/skills/<name>/SKILL.md`, never
//! `<extension>/SKILL.md`. Names are not namespaced: a plain name, which the user's and the
//! workspace's skills beat (the table ranks extensions last), with the extension's `${key}`
//! substitution made in it and in the description (`roots::Hydration`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{
    Context, Descent, Listing, Naming, Plugin, read_json_record, skills_below, subfolders,
};
use crate::roots::HydrationContexts;
use crate::skill::SKILL_FILE;

use crate::roots::gemini_extensions::MANIFEST;
const INSTALL_RECORD: &str = ".gemini-extension-install.json";
const ENABLEMENT: &str = "extension-enablement.json";

#[derive(Debug, Default, Deserialize)]
struct Manifest {
    #[serde(default)]
    name: serde_json::Value,
    #[serde(default)]
    version: serde_json::Value,
}

impl Manifest {
    /// The name and version Gemini CLI accepts, or why it skips the extension.
    fn accepted(self) -> Result<(String, Option<String>), &'static str> {
        crate::roots::gemini_extensions::accepted_manifest(&self.name, &self.version)
    }
}

#[derive(Debug, Default, Deserialize)]
struct InstallRecord {
    source: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct Enablement {
    #[serde(default)]
    overrides: Vec<String>,
}

pub(super) fn listing(extensions: &Path, context: &Context<'_>) -> Listing {
    let mut out = Listing::default();
    let enablement: BTreeMap<String, Enablement> = read_json_record(&extensions.join(ENABLEMENT))
        .unwrap_or_else(|note| {
            out.notes.push(note.to_string());
            None
        })
        .unwrap_or_default();
    let policy = crate::roots::gemini_extensions::policy(context.env, context.project);
    let hydrations = HydrationContexts::new(context.env, context.project);
    for folder in subfolders(extensions) {
        let record: InstallRecord = read_json_record(&folder.join(INSTALL_RECORD))
            .unwrap_or_else(|note| {
                out.notes.push(note.to_string());
                None
            })
            .unwrap_or_default();
        let refused = policy.refuses(
            record.source.as_deref(),
            record.kind.as_deref(),
            context.project.start(),
        );
        let dir = match (record.kind.as_deref(), record.source) {
            (Some("link"), Some(source)) => PathBuf::from(source),
            _ => folder.clone(),
        };
        let manifest: Manifest = match read_json_record(&dir.join(MANIFEST)) {
            Ok(Some(manifest)) => manifest,
            Ok(None) => {
                out.notes.push(format!(
                    "{} holds no {MANIFEST}, so Gemini CLI skips it as an extension",
                    dir.display()
                ));
                continue;
            }
            Err(note) => {
                out.notes
                    .push(format!("{note}; Gemini CLI skips that extension"));
                continue;
            }
        };
        let (name, version) = match manifest.accepted() {
            Ok(accepted) => accepted,
            Err(why) => {
                out.notes.push(format!(
                    "{} {why}, so Gemini CLI skips that extension",
                    dir.join(MANIFEST).display()
                ));
                continue;
            }
        };
        if let Some(why) = &refused {
            out.notes.push(format!(
                "Gemini CLI does not load the extension {name} ({}): {why}",
                folder.display()
            ));
        }
        let loaded = refused.is_none() && enabled(enablement.get(&name), context.project.start());
        let hydration = hydrations.for_extension(&dir, &name);
        out.plugins.push(Plugin {
            hydration: Some(std::sync::Arc::new(hydration)),
            skills: skills(&dir),
            name,
            dir,
            version,
            loaded,
            naming: Naming::Bare,
            order: 0,
            entries: Vec::new(),
        });
    }
    out
}

/// `skills/SKILL.md` and every `skills/<name>/SKILL.md`.
fn skills(dir: &Path) -> Vec<PathBuf> {
    let container = dir.join("skills");
    let mut found = Vec::new();
    if container.join(SKILL_FILE).is_file() {
        found.push(container.clone());
    }
    found.extend(skills_below(
        &container,
        Descent {
            depth: 1,
            into_skills: false,
        },
    ));
    found
}

/// Whether an extension with these rules is on for a run started in `start`.
fn enabled(rules: Option<&Enablement>, start: &Path) -> bool {
    // Gemini CLI compares with a leading and a trailing slash, `\` read as `/`.
    let mut path = start.to_string_lossy().replace('\\', "/");
    if !path.starts_with('/') {
        path.insert(0, '/');
    }
    if !path.ends_with('/') {
        path.push('/');
    }
    let mut on = true;
    for rule in rules.map(|r| r.overrides.as_slice()).unwrap_or_default() {
        let (disable, pattern) = match rule.strip_prefix('!') {
            Some(pattern) => (true, pattern),
            None => (false, rule.as_str()),
        };
        if matches(pattern, &path) {
            on = !disable;
        }
    }
    on
}

/// Gemini CLI's glob for one rule: `<base>/*` covers `<base>` and everything below it; a rule
/// without `*` covers that folder alone.
fn matches(pattern: &str, path: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(stem) => match stem.strip_suffix('/') {
            // `/a/*` is `^/a(/.*)?$`, tested on a path that ends in `/`.
            Some(base) => path == base || path.starts_with(&format!("{base}/")),
            None => path.starts_with(stem),
        },
        None => path == pattern,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(overrides: &[&str]) -> Enablement {
        Enablement {
            overrides: overrides.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn the_last_matching_rule_wins_and_a_user_disable_covers_only_below_home() {
        let off_in_home = rules(&["/home/me/*", "!/home/me/*"]);
        assert!(!enabled(Some(&off_in_home), Path::new("/home/me/work")));
        assert!(!enabled(Some(&off_in_home), Path::new("/home/me")));
        assert!(enabled(Some(&off_in_home), Path::new("/tmp/proj")));
        let back_on = rules(&["!/home/me/*", "/home/me/work/*"]);
        assert!(enabled(Some(&back_on), Path::new("/home/me/work/x")));
        assert!(!enabled(Some(&back_on), Path::new("/home/me/other")));
        assert!(enabled(None, Path::new("/anywhere")));
        assert!(!enabled(
            Some(&rules(&["!/home/me/"])),
            Path::new("/home/me")
        ));
        assert!(enabled(
            Some(&rules(&["!/home/me/"])),
            Path::new("/home/me/sub")
        ));
    }
}
