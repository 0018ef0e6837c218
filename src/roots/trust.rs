//! Whether an agent trusts the folder it starts in, for the agents that read a workspace's
//! skills only there (Gemini CLI 0.61.0: `packages/cli/src/config/trustedFolders.ts`, checked
//! against its own listing).

use std::path::{Path, PathBuf};

use super::env::Environment;
use super::project::Project;

/// A rule that decides trust, for a table row that is read only in a trusted folder.
#[derive(Clone, Copy, Debug)]
pub struct Trust {
    /// Why a skill is left out in a folder the agent does not trust, and how to trust it.
    pub why: &'static str,
    pub check: fn(&Environment, &Project) -> bool,
    /// The variables `check` reads.
    pub variables: &'static [&'static str],
}

/// A setting that leaves out some of a row's folders, told by their path rather than by the
/// start folder (Copilot's `ignoredSkillsLocations`): the row's folders at or below one of
/// `locations` are read as an untrusted folder is, their skills listed and left out with `why`.
#[derive(Clone, Copy, Debug)]
pub struct Ignores {
    pub why: &'static str,
    /// The folders it names, each as the agent compares it with its roots.
    pub locations: fn(&Environment, &Project) -> Vec<PathBuf>,
}

impl Ignores {
    /// The verdict on one folder, with the sentence that says why it is left out. Only `why`
    /// is read downstream; the check is never asked again.
    pub fn verdict(&self) -> Trust {
        Trust {
            why: self.why,
            check: |_, _| false,
            variables: &[],
        }
    }
}

pub const GEMINI: Trust = Trust {
    why: "Gemini CLI does not trust this folder (trust it with GEMINI_CLI_TRUST_WORKSPACE=true or a rule in ~/.gemini/trustedFolders.json)",
    check: gemini_trusts,
    variables: &[
        "GEMINI_CLI_TRUST_WORKSPACE",
        "GEMINI_RESTRICTED_MODE",
        "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
        "GEMINI_CLI_HOME",
    ],
};

/// Gemini CLI's verdict on the start folder: the trust variable first, then folder trust
/// switched off in its settings, then the longest matching rule of `trustedFolders.json`
/// (a rule covers its folder and everything below; `TRUST_PARENT` trusts the folder above).
fn gemini_trusts(env: &Environment, project: &Project) -> bool {
    match env
        .var("GEMINI_CLI_TRUST_WORKSPACE")
        .and_then(|v| v.to_str())
    {
        Some("true") => return true,
        Some("false") => return false,
        _ => {}
    }
    if env.flag("GEMINI_RESTRICTED_MODE") {
        return false;
    }
    let home = env
        .var("GEMINI_CLI_HOME")
        .map_or_else(|| env.home().to_path_buf(), PathBuf::from);
    if folder_trust_is_off(&home.join(".gemini/settings.json")) {
        return true;
    }
    let rules_file = env
        .var("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
        .map_or_else(|| home.join(".gemini/trustedFolders.json"), PathBuf::from);
    let start = crate::fs::canonical(project.start()).unwrap_or_else(|_| project.start().into());
    verdict(&read_rules(&rules_file), &start)
}

fn folder_trust_is_off(settings: &Path) -> bool {
    super::settings::gemini_cli(settings)
        .and_then(|json| json.pointer("/security/folderTrust/enabled")?.as_bool())
        == Some(false)
}

fn read_rules(path: &Path) -> Vec<(PathBuf, String)> {
    let Some(serde_json::Value::Object(map)) = super::settings::json(path) else {
        return Vec::new();
    };
    map.into_iter()
        .filter_map(|(folder, level)| Some((PathBuf::from(folder), level.as_str()?.to_owned())))
        .collect()
}

/// The longest rule that covers `start` decides.
fn verdict(rules: &[(PathBuf, String)], start: &Path) -> bool {
    rules
        .iter()
        .filter_map(|(folder, level)| {
            let (covered, trusted) = match level.as_str() {
                "TRUST_FOLDER" => (folder.as_path(), true),
                "TRUST_PARENT" => (folder.parent()?, true),
                "DO_NOT_TRUST" => (folder.as_path(), false),
                _ => return None,
            };
            start
                .starts_with(covered)
                .then_some((covered.as_os_str().len(), trusted))
        })
        .max_by_key(|(length, _)| *length)
        .is_some_and(|(_, trusted)| trusted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(pairs: &[(&str, &str)]) -> Vec<(PathBuf, String)> {
        pairs
            .iter()
            .map(|(p, l)| (PathBuf::from(p), (*l).to_owned()))
            .collect()
    }

    #[test]
    fn the_longest_rule_decides_and_covers_subfolders() {
        let set = rules(&[("/w", "TRUST_FOLDER"), ("/w/secret", "DO_NOT_TRUST")]);
        assert!(verdict(&set, Path::new("/w/app/sub")));
        assert!(!verdict(&set, Path::new("/w/secret/x")));
        assert!(!verdict(&set, Path::new("/elsewhere")));
        let parent = rules(&[("/w/proj/sub", "TRUST_PARENT")]);
        assert!(verdict(&parent, Path::new("/w/proj")));
    }

    #[test]
    fn the_variable_wins_over_every_rule() {
        let tmp = tempfile::tempdir().unwrap();
        let project = Project::locate(tmp.path());
        let env = Environment::new(tmp.path());
        assert!(!gemini_trusts(&env, &project));
        let env = env.with_var("GEMINI_CLI_TRUST_WORKSPACE", "true");
        assert!(gemini_trusts(&env, &project));
    }

    #[test]
    fn a_trusted_folders_file_trusts_its_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let start = crate::fs::canonical(tmp.path()).unwrap();
        std::fs::create_dir_all(start.join(".gemini")).unwrap();
        let rule = serde_json::json!({ start.to_str().unwrap(): "TRUST_FOLDER" });
        std::fs::write(start.join(".gemini/trustedFolders.json"), rule.to_string()).unwrap();
        let env = Environment::new(&start);
        assert!(gemini_trusts(&env, &Project::locate(&start)));
    }
}
