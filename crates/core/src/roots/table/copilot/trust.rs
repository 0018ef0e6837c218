//! Whether Copilot CLI 1.0.102 trusts the folder it starts in, which decides whether it reads
//! the repository's `.github/copilot/settings.json` and `settings.local.json`. In its
//! `cli-main.js` (unpacked to `~/.cache/copilot/pkg/linux-x64/1.0.102/`), the reader of a
//! repository's `disabledSkills` (`loadRepositoryDisabledSkills`) returns nothing unless
//! `process.env.COPILOT_ALLOW_ALL==="true"||await S.folderTrustIsTrusted(cwd, configDir)`;
//! the check itself is native (`runtime.node`), so its rules below are what
//! `copilot skill list --json` showed (test `agree::copilot`).

use std::path::{Path, PathBuf};

use super::{COPILOT_HOME, Environment};
use crate::roots::Project;

/// The variable that trusts every folder, when it is exactly `true` (`1` or `TRUE` do not).
pub(super) const ALLOW_ALL: &str = "COPILOT_ALLOW_ALL";

/// Copilot's verdict on the start folder: `COPILOT_ALLOW_ALL=true`, or an entry of the trust
/// list in `${COPILOT_HOME:-~/.copilot}/config.json` that is the start folder or one of its
/// parents.
pub(super) fn trusts(env: &Environment, project: &Project) -> bool {
    if env.var(ALLOW_ALL).and_then(|v| v.to_str()) == Some("true") {
        return true;
    }
    let Some(home) = COPILOT_HOME.resolve(env, project).into_iter().next() else {
        return false;
    };
    let Some(config) = crate::roots::settings::copilot_config(&home.path.join("config.json"))
    else {
        return false;
    };
    covers(&trusted_folders(&config), project.start())
}

/// The trust list: `trusted_folders` when the file has that key (it wins over the
/// `trustedFolders` spelling), else `trustedFolders`. A list with anything but strings in it,
/// or no list, trusts nothing.
fn trusted_folders(config: &serde_json::Value) -> Vec<PathBuf> {
    let list = config
        .get("trusted_folders")
        .or_else(|| config.get("trustedFolders"));
    let Some(entries) = list.and_then(serde_json::Value::as_array) else {
        return Vec::new();
    };
    entries
        .iter()
        .map(|entry| entry.as_str().map(PathBuf::from))
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default()
}

/// Whether an entry is `start` or holds it, whole names only (`/w/proj` does not hold
/// `/w/proj0`); a link is followed on both sides, `~` is not expanded.
fn covers(entries: &[PathBuf], start: &Path) -> bool {
    let real = |path: &Path| crate::fs::canonical(path).unwrap_or_else(|_| path.to_path_buf());
    let start = real(start);
    entries
        .iter()
        .filter(|entry| entry.is_absolute())
        .any(|entry| start.starts_with(real(entry)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snake_case_list_wins_and_a_bad_entry_spoils_the_list() {
        let list = |json: &str| trusted_folders(&serde_json::from_str(json).unwrap());
        assert_eq!(
            list(r#"{"trustedFolders": ["/a"], "trusted_folders": []}"#),
            Vec::<PathBuf>::new()
        );
        assert_eq!(list(r#"{"trustedFolders": ["/a"]}"#), [PathBuf::from("/a")]);
        assert!(list(r#"{"trustedFolders": ["/a", 3]}"#).is_empty());
        assert!(list(r#"{"trustedFolders": "/a"}"#).is_empty());
    }

    #[test]
    fn an_entry_covers_its_folder_and_below_by_whole_names() {
        let entries = [PathBuf::from("/nonexistent/w/proj/")];
        assert!(covers(&entries, Path::new("/nonexistent/w/proj")));
        assert!(covers(&entries, Path::new("/nonexistent/w/proj/sub")));
        assert!(!covers(&entries, Path::new("/nonexistent/w/proj0")));
        assert!(!covers(&entries, Path::new("/nonexistent/w")));
        assert!(!covers(
            &[PathBuf::from("~/w")],
            Path::new("/nonexistent/w")
        ));
    }

    #[test]
    fn allow_all_must_be_exactly_true() {
        let tmp = tempfile::tempdir().unwrap();
        let project = Project::locate(tmp.path());
        let env = Environment::new(tmp.path());
        assert!(!trusts(&env, &project));
        assert!(!trusts(&env.clone().with_var(ALLOW_ALL, "1"), &project));
        assert!(trusts(&env.with_var(ALLOW_ALL, "true"), &project));
    }
}
