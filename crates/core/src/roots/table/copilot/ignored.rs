//! `ignoredSkillsLocations` in Copilot CLI 1.0.102's own `settings.json`: every skills folder
//! of Copilot's that is one of its entries, or lies below one, is not read. What its listing
//! (`copilot skill list --json`) showed: an entry with `~` expanded, `..` and a trailing `/`
//! resolved, links not followed, drops each root at or below it (`~/.copilot/skills`, a
//! project's `.github`, a `skillDirectories` entry); an entry naming a folder inside a root,
//! or a relative entry, drops nothing. In its `cli-main.js`, `skill list` takes the list from
//! the user's settings alone (`userSettingsLoad(...).ignoredSkillsLocations`), trims each entry
//! and drops an empty one (`canonicalIgnoredSkillLocations`); the repository's settings give
//! it only to an interactive session that discovers them, which the listing is not.

use std::path::PathBuf;

use super::switches::user_file;
use super::{Environment, Ignores};
use crate::roots::Project;

pub(super) const IGNORED: Ignores = Ignores {
    why: "ignoredSkillsLocations in Copilot's settings.json names this folder or one above it",
    locations,
};

/// The folders the entries name, as Copilot compares them with a folder it reads skills from
/// (a skills root, and each folder a plugin's skills are looked for in, `plugin::copilot`):
/// that folder at or below one of them is not read.
pub(crate) fn locations(env: &Environment, project: &Project) -> Vec<PathBuf> {
    let Some(settings) =
        user_file(env, project).and_then(|f| crate::roots::settings::copilot_user(&f))
    else {
        return Vec::new();
    };
    entries(&settings, env.home())
}

/// The entries as Copilot compares them with its roots; a list holding anything but strings
/// counts for nothing, as its `disabledSkills` and `skillDirectories` do.
fn entries(settings: &serde_json::Value, home: &std::path::Path) -> Vec<PathBuf> {
    let Some(list) = settings
        .get("ignoredSkillsLocations")
        .and_then(serde_json::Value::as_array)
    else {
        return Vec::new();
    };
    let Some(texts) = list
        .iter()
        .map(serde_json::Value::as_str)
        .collect::<Option<Vec<&str>>>()
    else {
        return Vec::new();
    };
    texts
        .into_iter()
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(|text| match text.strip_prefix('~') {
            Some("") => home.to_path_buf(),
            Some(rest) if rest.starts_with('/') => home.join(&rest[1..]),
            _ => PathBuf::from(text),
        })
        .filter(|path| path.is_absolute())
        .map(|path| crate::fs::lexical(&path))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_trimmed_expanded_and_resolved_and_relative_ones_name_nothing() {
        let settings = serde_json::json!({"ignoredSkillsLocations": [
            " ~/.copilot/skills/ ", "/p/.github/../x", "", "rel/skills", "~"
        ]});
        assert_eq!(
            entries(&settings, std::path::Path::new("/h")),
            [
                PathBuf::from("/h/.copilot/skills"),
                PathBuf::from("/p/x"),
                PathBuf::from("/h"),
            ]
        );
        let mixed = serde_json::json!({"ignoredSkillsLocations": ["/a", 5]});
        assert!(entries(&mixed, std::path::Path::new("/h")).is_empty());
    }
}
