//! The skills Gemini CLI's settings turn off: `skills.disabled`, the union of every file it
//! reads ([`folder_trust::Files`]: the system defaults, the user's `settings.json` under
//! `GEMINI_CLI_HOME` when set, the workspace's `.gemini/settings.json` when Gemini CLI trusts
//! the folder, the system file), each entry with its variables expanded ([`super::merged`]);
//! names match whatever their case (`setDisabledSkills` lower-cases both sides). Its listing
//! still shows such a skill, as `[Disabled]` (packages/core/src/skills/skillManager.ts; seen
//! in `gemini skills list --all`).

use super::folder_trust::{self, read};
use super::{Environment, Selector, Trust, TurnedOff};
use crate::roots::Project;

pub(crate) use folder_trust::Files;

const WHY: &str = "skills.disabled in Gemini CLI's settings names it";

pub(crate) fn files(env: &Environment, project: &Project) -> Files {
    read(env, project).files
}

/// `skills.enabled` false (or `0`, `""`, after the merge; `"false"` and `null` are on)
/// switches every skill off, built-ins included: `gemini skills list --all` (0.61.0) then says
/// "No skills discovered". A trusted workspace's `true` beats the user's `false`
/// (agree::gemini_cli::gemini_cli_skills_enabled_*).
/// So does an extension Gemini CLI cannot check against `security.allowedExtensions`, or two
/// extensions of one name: it stops with an error before it lists anything
/// ([`super::extensions::loaded_without_error`]).
pub(crate) const SKILLS_ENABLED: Trust = Trust {
    why: "Gemini CLI loads no skill here: skills.enabled is false in its settings, or its extensions stop it with an error (two of one name, or one whose install record gives no source while security.allowedExtensions is set)",
    shown: "while skills are enabled",
    check: skills_enabled,
    variables: folder_trust::TRUST.variables,
};

fn skills_enabled(env: &Environment, project: &Project) -> bool {
    read(env, project).merged.skills_enabled()
        && super::extensions::loaded_without_error(env, project)
}

/// Built-ins go with every other skill when `skills.enabled` is false.
pub(super) fn builtins_off(env: &Environment, project: &Project) -> bool {
    !skills_enabled(env, project)
}

pub(super) fn turned_off(env: &Environment, project: &Project) -> Vec<TurnedOff> {
    let mut names: Vec<String> = Vec::new();
    for name in read(env, project).merged.disabled() {
        if !names
            .iter()
            .any(|seen| seen.to_lowercase() == name.to_lowercase())
        {
            names.push(name);
        }
    }
    names
        .into_iter()
        .map(|name| TurnedOff {
            selector: Selector::NameAnyCase(name),
            why: WHY,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roots::Platform;
    use std::path::{Path, PathBuf};

    #[test]
    fn the_system_settings_file_is_the_platforms_unless_the_variable_names_one() {
        let project = Project::locate(Path::new("/work"));
        let system = |platform, path: Option<&str>| {
            let env = Environment::new("/me")
                .with_platform(platform)
                .with_var("SKILLDECK_SYSTEM_ROOT", "/sys");
            let env = match path {
                Some(path) => env.with_var("GEMINI_CLI_SYSTEM_SETTINGS_PATH", path),
                None => env,
            };
            files(&env, &project).system
        };
        let expected = [
            (Platform::Xdg, "/sys/etc/gemini-cli/settings.json"),
            (
                Platform::MacOs,
                "/sys/Library/Application Support/GeminiCli/settings.json",
            ),
            (
                Platform::Windows,
                "/sys/ProgramData/gemini-cli/settings.json",
            ),
        ];
        for (platform, path) in expected {
            assert_eq!(system(platform, None), PathBuf::from(path));
            assert_eq!(system(platform, Some("/x.json")), PathBuf::from("/x.json"));
        }
    }

    #[test]
    fn the_user_and_a_trusted_workspace_add_their_names() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let start = tmp.path().join("proj");
        std::fs::create_dir_all(home.join(".gemini")).unwrap();
        std::fs::create_dir_all(start.join(".gemini")).unwrap();
        std::fs::write(
            home.join(".gemini/settings.json"),
            r#"{"skills": {"disabled": ["Alpha"]}}"#,
        )
        .unwrap();
        std::fs::write(
            start.join(".gemini/settings.json"),
            r#"{"skills": {"disabled": ["beta", "alpha"]}}"#,
        )
        .unwrap();
        let names = |env: &Environment| -> Vec<Selector> {
            turned_off(env, &Project::locate(&start))
                .into_iter()
                .map(|t| t.selector)
                .collect()
        };
        let env = Environment::new(&home).with_var("SKILLDECK_SYSTEM_ROOT", tmp.path());
        assert_eq!(names(&env), [Selector::NameAnyCase("Alpha".into())]);
        let trusting = env.with_var("GEMINI_CLI_TRUST_WORKSPACE", "true");
        assert_eq!(
            names(&trusting),
            [
                Selector::NameAnyCase("Alpha".into()),
                Selector::NameAnyCase("beta".into())
            ]
        );
    }
}
