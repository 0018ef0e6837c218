//! Each platform's rules for where the agents read skills and where skilldeck keeps its data,
//! checked on any machine: the environment is built with the platform injected
//! (`Environment::with_platform`), a home and the variables that platform sets. The paths are
//! Unix-style stand-ins (a test on Linux cannot make `C:\` absolute); what is tested is which
//! folder each rule picks, not the path syntax.
//!
//! Evidence for each platform's folder is beside it, here and in the roots table.

use std::path::{Path, PathBuf};

use skilldeck::roots::{AgentId, Environment, Platform, RootSet};

const ALL: [Platform; 3] = [Platform::Xdg, Platform::MacOs, Platform::Windows];

/// A machine of `platform` with its home at `/me`, its system root at `/sys`, and `vars`.
fn env(platform: Platform, vars: &[(&str, &str)]) -> Environment {
    let mut env = Environment::new("/me")
        .with_platform(platform)
        .with_var("SKILLDECK_SYSTEM_ROOT", "/sys");
    for (name, value) in vars {
        env = env.with_var(name, value);
    }
    env
}

/// Whether `agent` reads skills from `path` in `env` (a run started in `/work`).
fn reads(env: &Environment, agent: AgentId, path: &str) -> bool {
    RootSet::resolve(env, Path::new("/work"))
        .roots
        .iter()
        .any(|root| root.path == Path::new(path) && root.agents().contains(&agent))
}

fn assert_reads(env: &Environment, agent: AgentId, path: &str) {
    let set = RootSet::resolve(env, Path::new("/work"));
    let read: Vec<&PathBuf> = set
        .roots
        .iter()
        .filter(|root| root.agents().contains(&agent))
        .map(|root| &root.path)
        .collect();
    assert!(
        reads(env, agent, path),
        "{agent} on {:?} does not read {path}; it reads {read:#?}",
        env.platform()
    );
}

/// The user folders that are below the home on every platform: Claude Code's `~/.claude`
/// (`%USERPROFILE%\.claude` on Windows, settings.md: "On Windows ~ = %USERPROFILE%"), Codex's
/// `~/.codex` and `~/.agents`, Gemini CLI's `~/.gemini` (`Storage.getGlobalGeminiDir` joins
/// `os.homedir()` and `.gemini` on every platform, gemini-cli 5411f113), Copilot's
/// `~/.copilot`, and OpenCode's `~/.config/opencode` (opencode 1.18.33 inlines xdg-basedir:
/// `XDG_CONFIG_HOME || join(homedir, ".config")`, which asks no platform).
#[test]
fn the_home_folders_are_the_same_on_every_platform() {
    for platform in ALL {
        let env = env(platform, &[]);
        assert_reads(&env, AgentId::CLAUDE_CODE, "/me/.claude/skills");
        assert_reads(&env, AgentId::CODEX, "/me/.agents/skills");
        assert_reads(&env, AgentId::GEMINI_CLI, "/me/.gemini/skills");
        assert_reads(&env, AgentId::COPILOT, "/me/.copilot/skills");
        assert_reads(&env, AgentId::OPENCODE, "/me/.config/opencode/skills");
        let moved = self::env(platform, &[("XDG_CONFIG_HOME", "/xdg")]);
        assert_reads(&moved, AgentId::OPENCODE, "/xdg/opencode/skills");
    }
}

/// The managed folders an administrator fills: Claude Code's managed settings directory
/// (managed-settings.md: `/etc/claude-code`, `/Library/Application Support/ClaudeCode`,
/// `C:\Program Files\ClaudeCode`) with `.claude/skills` in it, and Codex's system layer
/// (`/etc/codex` on Unix; `%ProgramData%\OpenAI\Codex` in its config loader on Windows).
#[test]
fn the_managed_folders_follow_each_platform() {
    let expected = [
        (
            Platform::Xdg,
            "/sys/etc/claude-code/.claude/skills",
            "/sys/etc/codex/skills",
        ),
        (
            Platform::MacOs,
            "/sys/Library/Application Support/ClaudeCode/.claude/skills",
            "/sys/etc/codex/skills",
        ),
        (
            Platform::Windows,
            "/sys/Program Files/ClaudeCode/.claude/skills",
            "/sys/ProgramData/OpenAI/Codex/skills",
        ),
    ];
    for (platform, claude, codex) in expected {
        let env = env(platform, &[]);
        assert_reads(&env, AgentId::CLAUDE_CODE, claude);
        assert_reads(&env, AgentId::CODEX, codex);
    }
}

/// Goose keeps its config in `~/.config/goose` on Linux and macOS and in
/// `%APPDATA%\Block\goose\config` on Windows (goose's configuration guide), where
/// `XDG_CONFIG_HOME` does not move it.
#[test]
fn goose_reads_its_config_folder_where_each_platform_keeps_it() {
    for platform in [Platform::Xdg, Platform::MacOs] {
        assert_reads(
            &env(platform, &[]),
            AgentId::GOOSE,
            "/me/.config/goose/skills",
        );
        let moved = env(platform, &[("XDG_CONFIG_HOME", "/xdg")]);
        assert_reads(&moved, AgentId::GOOSE, "/xdg/goose/skills");
    }
    let windows = env(
        Platform::Windows,
        &[("APPDATA", "/me/Roaming"), ("XDG_CONFIG_HOME", "/xdg")],
    );
    assert_reads(
        &windows,
        AgentId::GOOSE,
        "/me/Roaming/Block/goose/config/skills",
    );
    assert!(!reads(&windows, AgentId::GOOSE, "/xdg/goose/skills"));
    assert!(!reads(&windows, AgentId::GOOSE, "/me/.config/goose/skills"));
    let unset = env(Platform::Windows, &[]);
    assert_reads(
        &unset,
        AgentId::GOOSE,
        "/me/AppData/Roaming/Block/goose/config/skills",
    );
}

/// skilldeck's own data folder: `$XDG_DATA_HOME` or `~/.local/share` on Linux,
/// `~/Library/Application Support` on macOS, `%APPDATA%` (else `~\AppData\Roaming`) on Windows,
/// as the `directories` crate places a data folder; an absolute `XDG_DATA_HOME` wins
/// everywhere.
#[test]
fn skilldecks_data_folder_follows_each_platform() {
    let expected = [
        (Platform::Xdg, "/me/.local/share/skilldeck"),
        (Platform::MacOs, "/me/Library/Application Support/skilldeck"),
        (Platform::Windows, "/me/AppData/Roaming/skilldeck"),
    ];
    for (platform, dir) in expected {
        assert_eq!(
            env(platform, &[]).data_dir(),
            PathBuf::from(dir),
            "{platform:?}"
        );
        let moved = env(platform, &[("XDG_DATA_HOME", "/data")]);
        assert_eq!(moved.data_dir(), PathBuf::from("/data/skilldeck"));
    }
    let roaming = env(Platform::Windows, &[("APPDATA", "/roaming")]);
    assert_eq!(roaming.data_dir(), PathBuf::from("/roaming/skilldeck"));
    assert_eq!(
        env(Platform::MacOs, &[("APPDATA", "/roaming")]).data_dir(),
        PathBuf::from("/me/Library/Application Support/skilldeck"),
        "APPDATA is Windows' alone"
    );
}

/// A list variable is split as its platform splits `PATH`: Claude Code's
/// `CLAUDE_CODE_PLUGIN_SEED_DIR` is "one or more read-only seed dirs (`:` Unix, `;` Windows)".
#[test]
fn a_list_variable_is_split_at_its_platforms_separator() {
    let windows = env(
        Platform::Windows,
        &[("CLAUDE_CODE_PLUGIN_SEED_DIR", "/seed/a;/seed/b")],
    );
    let unix = env(
        Platform::Xdg,
        &[("CLAUDE_CODE_PLUGIN_SEED_DIR", "/seed/a:/seed/b")],
    );
    for env in [windows, unix] {
        let roots = RootSet::resolve(&env, Path::new("/work")).roots;
        for seed in ["/seed/a", "/seed/b"] {
            assert!(
                roots.iter().any(|root| root.path.starts_with(seed)),
                "{:?}: no root below {seed}: {:#?}",
                env.platform(),
                roots.iter().map(|r| &r.path).collect::<Vec<_>>()
            );
        }
    }
}

/// Without `SKILLDECK_SYSTEM_ROOT` the managed folders are below `C:\` on Windows and `/`
/// elsewhere.
#[test]
fn the_system_root_is_the_platforms_own() {
    let root = |platform| {
        Environment::new("/me")
            .with_platform(platform)
            .system_root()
    };
    assert_eq!(root(Platform::Windows), PathBuf::from("C:\\"));
    assert_eq!(root(Platform::MacOs), PathBuf::from("/"));
    assert_eq!(root(Platform::Xdg), PathBuf::from("/"));
}
