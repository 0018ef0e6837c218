//! The skills Gemini CLI's settings turn off: `skills.disabled`, the union of the user's
//! `settings.json` (under `GEMINI_CLI_HOME` when set), the workspace's `.gemini/settings.json`
//! when Gemini CLI trusts the folder, and the system file (`/etc/gemini-cli/settings.json`, or
//! `GEMINI_CLI_SYSTEM_SETTINGS_PATH`); names match whatever their case. Its listing still shows
//! such a skill, as `[Disabled]` (packages/core/src/skills/skillManager.ts; seen in
//! `gemini skills list --all`).

use std::path::{Path, PathBuf};

use super::{Environment, GEMINI_DIR, Selector, Trust, TurnedOff, trust};
use crate::roots::Project;
use crate::roots::SystemPath;

const WHY: &str = "skills.disabled in Gemini CLI's settings names it";

/// The settings files whose `skills.disabled` Gemini CLI reads.
pub(crate) struct Files {
    /// `settings.json` under `GEMINI_CLI_HOME`'s `.gemini` or the home's.
    pub user: Option<PathBuf>,
    /// The start folder's `.gemini/settings.json`.
    pub workspace: PathBuf,
    /// Whether Gemini CLI trusts the start folder, and so reads `workspace`.
    pub workspace_read: bool,
    /// The system file an administrator writes; Gemini CLI never edits it.
    pub system: PathBuf,
}

impl Files {
    /// The files Gemini CLI reads, in its order.
    pub(crate) fn read(&self) -> Vec<PathBuf> {
        self.user
            .iter()
            .cloned()
            .chain(self.workspace_read.then(|| self.workspace.clone()))
            .chain([self.system.clone()])
            .collect()
    }
}

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

pub(crate) fn files(env: &Environment, project: &Project) -> Files {
    Files {
        user: GEMINI_DIR
            .resolve(env, project)
            .into_iter()
            .next()
            .map(|located| located.path.join("settings.json")),
        workspace: project.start().join(".gemini/settings.json"),
        workspace_read: (trust::GEMINI.check)(env, project),
        system: env
            .var("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
            .map_or_else(|| SYSTEM_SETTINGS.resolve(env), PathBuf::from),
    }
}

/// `skills.enabled: false` switches every skill off, built-ins included: `gemini skills list
/// --all` (0.61.0) then says "No skills discovered". The files are read in Gemini CLI's order
/// (user, a trusted workspace, system) and the last that sets it wins, so a trusted
/// workspace's `true` beats the user's `false` (agree::gemini_cli::gemini_cli_skills_enabled_*).
pub(crate) const SKILLS_ENABLED: Trust = Trust {
    why: "skills.enabled is false in Gemini CLI's settings, so it loads no skill",
    check: skills_enabled,
    variables: &[
        "GEMINI_CLI_HOME",
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
        "GEMINI_CLI_TRUST_WORKSPACE",
        "GEMINI_RESTRICTED_MODE",
        "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
    ],
};

fn skills_enabled(env: &Environment, project: &Project) -> bool {
    files(env, project)
        .read()
        .iter()
        .filter_map(|file| crate::roots::settings::gemini_cli(file))
        .filter_map(|settings| settings.pointer("/skills/enabled")?.as_bool())
        .next_back()
        .unwrap_or(true)
}

/// Built-ins go with every other skill when `skills.enabled` is false.
pub(super) fn builtins_off(env: &Environment, project: &Project) -> bool {
    !skills_enabled(env, project)
}

pub(super) fn turned_off(env: &Environment, project: &Project) -> Vec<TurnedOff> {
    let mut names: Vec<String> = Vec::new();
    for file in files(env, project).read() {
        for name in disabled(&file) {
            if !names.iter().any(|seen| seen.eq_ignore_ascii_case(&name)) {
                names.push(name);
            }
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

fn disabled(path: &Path) -> Vec<String> {
    let Some(settings) = crate::roots::settings::gemini_cli(path) else {
        return Vec::new();
    };
    settings
        .pointer("/skills/disabled")
        .and_then(serde_json::Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roots::Platform;

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
