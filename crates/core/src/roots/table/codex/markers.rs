//! Where Codex takes a project to begin, for its project roots (`.agents/skills` and
//! `.codex/skills` in every folder from there down to where it starts): the nearest folder,
//! from the start up, holding a file or a folder named by one of `project_root_markers`
//! (default `[".git"]`); an empty list makes the start folder alone the project, and markers
//! found nowhere do the same.
//!
//! The list is read from the layers below the project's: the system `config.toml` (beside the
//! admin skills) and then `$CODEX_HOME/config.toml`, the later naming it winning; a project's
//! own `.codex/config.toml` is not asked (codex-rs/core-skills/src/loader.rs,
//! `project_root_markers_from_stack` and `find_project_root`; checked against Codex 0.171.0 by
//! `agree::codex_project_root_markers_*`). A value that is not a list of strings stops Codex
//! from starting at all, so it names nothing here.

use std::path::PathBuf;

use serde::Deserialize;

use super::switches::config_file;
use super::{Environment, Markers, SystemPath};
use crate::roots::Project;

pub(super) static MARKERS: Markers = Markers {
    named,
    default: &[".git"],
};

/// The system layer, in the folder of the admin skills.
pub(super) const SYSTEM_CONFIG: SystemPath = SystemPath {
    linux: "etc/codex/config.toml",
    macos: "etc/codex/config.toml",
    windows: "ProgramData/OpenAI/Codex/config.toml",
};

#[derive(Deserialize)]
struct Config {
    project_root_markers: Option<Vec<String>>,
}

fn named(env: &Environment, project: &Project) -> Option<Vec<String>> {
    let files: Vec<PathBuf> = std::iter::once(SYSTEM_CONFIG.resolve(env))
        .chain(config_file(env, project))
        .collect();
    files.iter().rev().find_map(|file| {
        let bytes = crate::roots::settings::bytes(file, crate::limits::SETTINGS_FILE_BYTES)?;
        toml::from_slice::<Config>(&bytes)
            .ok()?
            .project_root_markers
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roots::Walk;

    fn dirs(env: &Environment, start: &std::path::Path) -> Vec<PathBuf> {
        Project::locate(start)
            .levels(Walk::UpToMarkers(&MARKERS), env)
            .into_iter()
            .map(|(dir, _)| dir)
            .collect()
    }

    #[test]
    fn markers_in_the_user_config_move_the_top_and_an_empty_list_keeps_the_start() {
        let tmp = tempfile::tempdir().unwrap();
        let base = crate::fs::canonical(tmp.path()).unwrap();
        let (home, repo) = (base.join("home"), base.join("repo"));
        let deep = repo.join("a/b");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir_all(home.join(".codex")).unwrap();
        std::fs::write(repo.join("a/marker"), "").unwrap();
        let env = Environment::new(&home).with_var("SKILLDECK_SYSTEM_ROOT", base.join("sys"));
        assert_eq!(
            dirs(&env, &deep),
            [deep.clone(), repo.join("a"), repo.clone()]
        );
        let config = home.join(".codex/config.toml");
        std::fs::write(&config, "project_root_markers = [\"marker\"]\n").unwrap();
        assert_eq!(dirs(&env, &deep), [deep.clone(), repo.join("a")]);
        std::fs::write(&config, "project_root_markers = []\n").unwrap();
        assert_eq!(dirs(&env, &deep), [deep.as_path()]);
        std::fs::write(&config, "project_root_markers = [\"nowhere\"]\n").unwrap();
        assert_eq!(dirs(&env, &deep), [deep.as_path()]);
        // Codex refuses this file; the default stands here.
        std::fs::write(&config, "project_root_markers = \"marker\"\n").unwrap();
        assert_eq!(dirs(&env, &deep).len(), 3);
    }

    #[test]
    fn the_user_config_wins_over_the_system_one() {
        let tmp = tempfile::tempdir().unwrap();
        let base = crate::fs::canonical(tmp.path()).unwrap();
        let deep = base.join("repo/a");
        std::fs::create_dir_all(base.join("repo/.git")).unwrap();
        std::fs::create_dir_all(&deep).unwrap();
        let system = base.join("sys/etc/codex");
        std::fs::create_dir_all(&system).unwrap();
        std::fs::write(system.join("config.toml"), "project_root_markers = []\n").unwrap();
        let home = base.join("home");
        let env = Environment::new(&home).with_var("SKILLDECK_SYSTEM_ROOT", base.join("sys"));
        if cfg!(target_os = "linux") {
            assert_eq!(dirs(&env, &deep), [deep.as_path()]);
        }
        std::fs::create_dir_all(home.join(".codex")).unwrap();
        std::fs::write(
            home.join(".codex/config.toml"),
            "project_root_markers = [\".git\"]\n",
        )
        .unwrap();
        assert_eq!(dirs(&env, &deep), [deep.clone(), base.join("repo")]);
    }
}
