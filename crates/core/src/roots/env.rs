//! The part of the process environment that moves skill roots: the home directory and the
//! variables the agents honour.
//!
//! It is held as a value rather than read where it is needed, so a test builds one for a
//! temporary home without touching the process environment, which every test thread shares.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// The variables skilldeck reads for itself or for an installer's records; the agents' own are
/// the ones the roots table names ([`honoured_variables`]).
pub(super) const OWN_VARIABLES: [&str; 4] = [
    // Where Windows keeps a user's roaming application data, skilldeck's among them.
    "APPDATA",
    "XDG_DATA_HOME",
    // Where the skills CLI keeps its global lock when set.
    "XDG_STATE_HOME",
    "SKILLDECK_SYSTEM_ROOT",
];

/// The folder skilldeck's own data lives in, inside the platform's data directory.
const DATA_DIR_NAME: &str = "skilldeck";

/// Whose rules place skilldeck's data directory, the agents' managed folders and the folders
/// some agents keep elsewhere on Windows. An [`Environment`] carries one (the build target's
/// unless a test injects another), so each platform's rules are tested on any machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    /// Linux and the other Unix systems: the XDG base directories.
    Xdg,
    MacOs,
    Windows,
}

impl Platform {
    /// The platform this binary was built for.
    pub const CURRENT: Platform = if cfg!(windows) {
        Platform::Windows
    } else if cfg!(target_vendor = "apple") {
        Platform::MacOs
    } else {
        Platform::Xdg
    };

    /// What separates the folders of a list variable (`PATH`-like): `;` on Windows, `:`
    /// elsewhere.
    pub fn list_separator(self) -> char {
        match self {
            Platform::Windows => ';',
            Platform::Xdg | Platform::MacOs => ':',
        }
    }
}

/// The home directory could not be found, so no user root can be located.
#[derive(Debug, thiserror::Error)]
#[error("no home directory to look for skills in: HOME is not set")]
pub struct NoHome;

/// The home directory and the root-moving variables of one run.
#[derive(Clone, Debug)]
pub struct Environment {
    home: PathBuf,
    vars: BTreeMap<String, OsString>,
    platform: Platform,
    expandable: Expandable,
}

/// Every variable of the process, for the agents that expand any `$NAME` written in their
/// settings (Gemini CLI); its values are never printed.
#[derive(Clone, Default)]
struct Expandable(BTreeMap<String, OsString>);

impl std::fmt::Debug for Expandable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Expandable({} variables)", self.0.len())
    }
}

impl Environment {
    /// An environment with this home and no variables set, on the platform of the build.
    pub fn new(home: impl Into<PathBuf>) -> Self {
        Self {
            home: home.into(),
            vars: BTreeMap::new(),
            platform: Platform::CURRENT,
            expandable: Expandable::default(),
        }
    }

    /// The same environment read by `platform`'s rules.
    #[must_use]
    pub fn with_platform(mut self, platform: Platform) -> Self {
        self.platform = platform;
        self
    }

    pub fn platform(&self) -> Platform {
        self.platform
    }

    /// The same environment with one more variable set.
    #[must_use]
    pub fn with_var(mut self, name: &str, value: impl Into<OsString>) -> Self {
        let value = value.into();
        self.expandable.0.insert(name.to_owned(), value.clone());
        self.vars.insert(name.to_owned(), value);
        self
    }

    /// The environment of this process, with the variables `names` (see
    /// `roots::honoured_variables`).
    ///
    /// # Errors
    /// [`NoHome`] when neither `HOME` nor the password database names a home directory.
    pub(super) fn reading(names: &[&str]) -> Result<Self, NoHome> {
        let home = directories::BaseDirs::new()
            .map(|dirs| dirs.home_dir().to_path_buf())
            .filter(|home| !home.as_os_str().is_empty())
            .ok_or(NoHome)?;
        let mut env = Self::new(home);
        for &name in names {
            if let Some(value) = std::env::var_os(name) {
                env = env.with_var(name, value);
            }
        }
        env.expandable = Expandable(
            std::env::vars_os()
                .filter_map(|(name, value)| Some((name.into_string().ok()?, value)))
                .collect(),
        );
        Ok(env)
    }

    pub fn home(&self) -> &Path {
        &self.home
    }

    /// A variable's value; one set to the empty string counts as unset, as the agents read it.
    pub fn var(&self, name: &str) -> Option<&OsStr> {
        self.vars
            .get(name)
            .map(OsString::as_os_str)
            .filter(|value| !value.is_empty())
    }

    /// A variable's value, the empty string included (Claude Code takes an empty
    /// `CLAUDE_CONFIG_DIR` as set: [`super::Place::EnvEvenEmpty`]).
    pub fn var_even_empty(&self, name: &str) -> Option<&OsStr> {
        self.vars.get(name).map(OsString::as_os_str)
    }

    /// Any variable of the process, set to the empty string included, as an agent expanding
    /// `$NAME` in its settings finds it (only [`Environment::with_var`]'s in a built one).
    pub fn expanded(&self, name: &str) -> Option<&OsStr> {
        self.expandable.0.get(name).map(OsString::as_os_str)
    }

    /// A switch such as `CLAUDE_CODE_DISABLE_POLICY_SKILLS=1`: on unless unset, `0` or `false`.
    pub fn flag(&self, name: &str) -> bool {
        self.var(name)
            .is_some_and(|value| value != "0" && !value.eq_ignore_ascii_case("false"))
    }

    /// Where skilldeck keeps its own data (snapshots, the journal), by this environment's
    /// platform's rules.
    pub fn data_dir(&self) -> PathBuf {
        self.data_dir_on(self.platform)
    }

    /// Where skilldeck keeps its own data by `platform`'s rules, always derived from this
    /// environment and never from the process's own home: an absolute `XDG_DATA_HOME` wins
    /// everywhere (a relative one is ignored, as the XDG specification asks); else
    /// `~/.local/share` on Linux and the other Unix systems, `~/Library/Application Support`
    /// on macOS, and `%APPDATA%` (else `~\AppData\Roaming`) on Windows.
    pub fn data_dir_on(&self, platform: Platform) -> PathBuf {
        if let Some(xdg) = self
            .var("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|dir| dir.is_absolute())
        {
            return xdg.join(DATA_DIR_NAME);
        }
        let base = match platform {
            Platform::Xdg => self.home.join(".local").join("share"),
            Platform::MacOs => self.home.join("Library").join("Application Support"),
            Platform::Windows => self
                .var("APPDATA")
                .map(PathBuf::from)
                .filter(|dir| dir.is_absolute())
                .unwrap_or_else(|| self.home.join("AppData").join("Roaming")),
        };
        base.join(DATA_DIR_NAME)
    }

    /// The directory that stands in for `/` when locating organization-managed roots.
    pub fn system_root(&self) -> PathBuf {
        self.var("SKILLDECK_SYSTEM_ROOT")
            .map_or_else(|| default_system_root(self.platform), PathBuf::from)
    }
}

fn default_system_root(platform: Platform) -> PathBuf {
    match platform {
        Platform::Windows => PathBuf::from("C:\\"),
        Platform::Xdg | Platform::MacOs => PathBuf::from("/"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_variable_counts_as_unset() {
        let env = Environment::new("/home/me").with_var("CODEX_HOME", "");
        assert_eq!(env.var("CODEX_HOME"), None);
        let env = env.with_var("CODEX_HOME", "/opt/codex");
        assert_eq!(env.var("CODEX_HOME"), Some(OsStr::new("/opt/codex")));
    }

    #[test]
    fn a_switch_is_off_when_zero_or_false() {
        let off = ["0", "false", "FALSE", ""];
        for value in off {
            let env = Environment::new("/h").with_var("X", value);
            assert!(!env.flag("X"), "{value:?} should be off");
        }
        for value in ["1", "true", "yes"] {
            let env = Environment::new("/h").with_var("X", value);
            assert!(env.flag("X"), "{value:?} should be on");
        }
    }

    // Written with Unix absolute paths (`/…`), which are not absolute on Windows.
    #[cfg(unix)]
    #[test]
    fn the_data_dir_follows_xdg_data_home_when_it_is_absolute() {
        let env = Environment::new("/home/me");
        let moved = env.clone().with_var("XDG_DATA_HOME", "/data");
        let relative = env.clone().with_var("XDG_DATA_HOME", "rel/data");
        for platform in [Platform::Xdg, Platform::MacOs, Platform::Windows] {
            assert_eq!(
                moved.data_dir_on(platform),
                PathBuf::from("/data/skilldeck")
            );
            assert_eq!(relative.data_dir_on(platform), env.data_dir_on(platform));
        }
    }

    #[test]
    fn the_data_dir_lies_under_the_injected_home_by_each_platforms_rules() {
        let env = Environment::new("/home/me");
        let expected = [
            (Platform::Xdg, "/home/me/.local/share/skilldeck"),
            (
                Platform::MacOs,
                "/home/me/Library/Application Support/skilldeck",
            ),
            (Platform::Windows, "/home/me/AppData/Roaming/skilldeck"),
        ];
        for (platform, dir) in expected {
            let found = env.data_dir_on(platform);
            assert_eq!(found, PathBuf::from(dir), "{platform:?}");
            assert!(found.starts_with(env.home()), "{platform:?}: {found:?}");
        }
        assert_eq!(env.data_dir(), env.data_dir_on(Platform::CURRENT));
    }

    // Written with Unix absolute paths (`/…`), which are not absolute on Windows.
    #[cfg(unix)]
    #[test]
    fn windows_keeps_its_data_where_appdata_says() {
        let env = Environment::new("/home/me").with_var("APPDATA", "/home/me/roaming");
        assert_eq!(
            env.data_dir_on(Platform::Windows),
            PathBuf::from("/home/me/roaming/skilldeck")
        );
        assert_eq!(
            env.data_dir_on(Platform::Xdg),
            PathBuf::from("/home/me/.local/share/skilldeck")
        );
    }

    #[test]
    fn the_system_root_moves_with_its_variable() {
        let env = Environment::new("/h");
        assert_eq!(env.system_root(), default_system_root(Platform::CURRENT));
        let env = env.with_var("SKILLDECK_SYSTEM_ROOT", "/tmp/sys");
        assert_eq!(env.system_root(), PathBuf::from("/tmp/sys"));
    }
}
