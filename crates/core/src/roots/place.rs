//! Where a root is, written as data: a small expression over the home directory, the
//! environment variables that move it, the managed system directories and the project walk.

use std::path::{Path, PathBuf};

use super::env::{Environment, Platform};
use super::project::{Project, Walk};

/// How a [`Place::Picked`] chooses its folder below its base, from the environment: named,
/// so two places compare by the rule they name (function addresses are not comparable).
#[derive(Clone, Copy)]
pub struct Pick {
    pub rule: &'static str,
    pub pick: fn(&Environment, &Path) -> Option<PathBuf>,
}

impl PartialEq for Pick {
    fn eq(&self, other: &Self) -> bool {
        self.rule == other.rule
    }
}

impl Eq for Pick {}

impl std::fmt::Debug for Pick {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.rule)
    }
}

/// The location of one root, before the environment is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// `~/<relative>`.
    Home(&'static str),
    /// `$var/<then>` when `var` is set and not empty (a relative value read from the start
    /// folder), otherwise `or`.
    Env {
        var: &'static str,
        then: &'static str,
        or: &'static Place,
    },
    /// `$var/<then>` when `var` is set at all, otherwise `or`: an empty value names the start
    /// folder, as Node's `path.join("", then)` read from the working directory does (Claude
    /// Code's `CLAUDE_CONFIG_DIR ?? ~/.claude`, agree::generate class `env-homes`).
    EnvEvenEmpty {
        var: &'static str,
        then: &'static str,
        or: &'static Place,
    },
    /// `<place>/<relative>`.
    Under(&'static Place, &'static str),
    /// Every directory of a list variable (`:`-separated, `;` on Windows).
    EachIn(&'static str),
    /// Every entry of a variable split at `separator` only (no other character splits it),
    /// each trimmed of whitespace, empty ones dropped, taken as written (no `~`), a relative
    /// one from the start directory. Each entry's level is its index, so an earlier entry
    /// wins a name clash within the row (Copilot's `COPILOT_SKILLS_DIRS`, split at `,`).
    EachSplitIn { var: &'static str, separator: char },
    /// Every entry of a list of strings under `key` in the JSON settings file at `file`
    /// (comments and trailing commas allowed), taken as written (no `~`, no variables), a
    /// relative one from the start directory; a list holding anything but strings gives
    /// none. Each entry's level is its index, so an earlier entry wins a name clash within
    /// the row (Copilot's `skillDirectories` in its settings.json).
    EachListedIn {
        file: &'static Place,
        key: &'static str,
    },
    /// The one folder below `base` an agent's own rule picks from the environment, or none
    /// (Claude Code's skills synced from claude.ai: the signed-in identity's folder). The rule
    /// lives with its agent's table; `variables` are those it reads, `shown` how the README
    /// writes the folder it picks.
    Picked {
        base: &'static Place,
        pick: Pick,
        variables: &'static [&'static str],
        shown: &'static str,
    },
    /// No directory: the fallback of a root that exists only when its variable is set.
    Nowhere,
    /// A directory an administrator manages, below the system root (`/`, or
    /// `SKILLDECK_SYSTEM_ROOT` when it is set).
    System(SystemPath),
    /// `<dir>/<relative>` for each project directory the walk visits.
    Project(&'static str, Walk),
    /// `windows` on Windows, `elsewhere` on the other platforms: for an agent that keeps its
    /// folders in Windows' own application folders there (Goose: `%APPDATA%\\Block\\goose`).
    OnWindows {
        windows: &'static Place,
        elsewhere: &'static Place,
    },
}

/// A managed directory on each platform, relative to the system root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SystemPath {
    pub linux: &'static str,
    pub macos: &'static str,
    pub windows: &'static str,
}

impl SystemPath {
    /// The path by `platform`'s rules.
    pub fn on(&self, platform: Platform) -> &'static str {
        match platform {
            Platform::Xdg => self.linux,
            Platform::MacOs => self.macos,
            Platform::Windows => self.windows,
        }
    }

    /// The path below `env`'s system root, by its platform's rules.
    pub fn resolve(&self, env: &Environment) -> PathBuf {
        join(&env.system_root(), self.on(env.platform()))
    }
}

/// One directory a place resolved to, with its distance from the project start (0 for every
/// place that is not a project walk).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    pub path: PathBuf,
    pub level: u8,
}

impl Place {
    /// The variables this place reads, added to `names`.
    pub fn variables(&self, names: &mut Vec<&'static str>) {
        match self {
            Place::Env { var, or, .. } | Place::EnvEvenEmpty { var, or, .. } => {
                names.push(var);
                or.variables(names);
            }
            Place::Under(base, _) | Place::EachListedIn { file: base, .. } => base.variables(names),
            Place::Picked {
                base, variables, ..
            } => {
                base.variables(names);
                names.extend(*variables);
            }
            Place::EachIn(var) | Place::EachSplitIn { var, .. } => names.push(var),
            Place::OnWindows { windows, elsewhere } => {
                windows.variables(names);
                elsewhere.variables(names);
            }
            Place::Home(_) | Place::Nowhere | Place::System(_) | Place::Project(..) => {}
        }
    }

    /// The directories this place means in `env`, for a run started in `project`.
    pub fn resolve(&self, env: &Environment, project: &Project) -> Vec<Located> {
        let at_level_zero = |path: PathBuf| Located { path, level: 0 };
        match self {
            Place::Home(relative) => vec![at_level_zero(join(env.home(), relative))],
            // A relative value is read from the folder the agent starts in, as its own file
            // calls read it (agree::generate, class `env-homes`).
            Place::Env { var, then, or } => match env.var(var) {
                Some(value) => vec![at_level_zero(join(&project.start().join(value), then))],
                None => or.resolve(env, project),
            },
            Place::EnvEvenEmpty { var, then, or } => match env.var_even_empty(var) {
                Some(value) => vec![at_level_zero(join(&project.start().join(value), then))],
                None => or.resolve(env, project),
            },
            Place::Under(base, relative) => base
                .resolve(env, project)
                .into_iter()
                .map(|located| Located {
                    path: join(&located.path, relative),
                    level: located.level,
                })
                .collect(),
            Place::EachIn(var) => env
                .var(var)
                .map(|value| {
                    // std splits exactly (names that are not UTF-8, Windows' quotes), but only
                    // by the build's rules; an injected platform's list is split at its
                    // separator.
                    let paths: Vec<PathBuf> = if env.platform() == Platform::CURRENT {
                        std::env::split_paths(value).collect()
                    } else {
                        value
                            .to_string_lossy()
                            .split(env.platform().list_separator())
                            .map(PathBuf::from)
                            .collect()
                    };
                    paths
                        .into_iter()
                        .filter(|path| !path.as_os_str().is_empty())
                        .map(at_level_zero)
                        .collect()
                })
                .unwrap_or_default(),
            Place::EachSplitIn { var, separator } => env
                .var(var)
                .map(|value| {
                    value
                        .to_string_lossy()
                        .split(*separator)
                        .map(str::trim)
                        .filter(|entry| !entry.is_empty())
                        .zip(0u8..)
                        .map(|(entry, level)| Located {
                            path: project.start().join(entry),
                            level,
                        })
                        .collect()
                })
                .unwrap_or_default(),
            Place::EachListedIn { file, key } => file
                .resolve(env, project)
                .into_iter()
                .flat_map(|file| listed(&file.path, key))
                .zip(0u8..)
                .map(|(entry, level)| Located {
                    path: project.start().join(entry),
                    level,
                })
                .collect(),
            Place::Picked { base, pick, .. } => base
                .resolve(env, project)
                .into_iter()
                .filter_map(|located| {
                    Some(Located {
                        path: (pick.pick)(env, &located.path)?,
                        level: located.level,
                    })
                })
                .collect(),
            Place::Nowhere => Vec::new(),
            Place::System(path) => vec![at_level_zero(path.resolve(env))],
            Place::OnWindows { windows, elsewhere } => match env.platform() {
                Platform::Windows => windows.resolve(env, project),
                Platform::Xdg | Platform::MacOs => elsewhere.resolve(env, project),
            },
            Place::Project(relative, walk) => project
                .levels(*walk, env)
                .into_iter()
                .map(|(dir, level)| Located {
                    path: join(&dir, relative),
                    level,
                })
                .collect(),
        }
    }
}

/// The strings of the list under `key` in a settings file read as Copilot reads its own (the
/// only agent with such a list), or none when it is missing, unreadable, refused by its types
/// or holds anything but strings.
fn listed(file: &Path, key: &str) -> Vec<String> {
    super::settings::copilot_user(file)
        .as_ref()
        .and_then(|settings| settings.get(key)?.as_array())
        .and_then(|list| {
            list.iter()
                .map(|entry| entry.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
        })
        .unwrap_or_default()
}

/// `base/relative`, where an empty `relative` is `base` itself and `/` separates parts on
/// every platform.
fn join(base: &Path, relative: &str) -> PathBuf {
    relative
        .split('/')
        .filter(|part| !part.is_empty())
        .fold(base.to_path_buf(), |path, part| path.join(part))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: Place = Place::Env {
        var: "XDG_CONFIG_HOME",
        then: "",
        or: &Place::Home(".config"),
    };

    fn project() -> Project {
        Project::locate(Path::new("/nonexistent/work"))
    }

    #[test]
    fn a_variable_moves_a_place_and_its_absence_falls_back() {
        let place = Place::Under(&CONFIG, "opencode/skills");
        let env = Environment::new("/home/me");
        assert_eq!(
            place.resolve(&env, &project())[0].path,
            PathBuf::from("/home/me/.config/opencode/skills")
        );
        let env = env.with_var("XDG_CONFIG_HOME", "/xdg");
        assert_eq!(
            place.resolve(&env, &project())[0].path,
            PathBuf::from("/xdg/opencode/skills")
        );
    }

    #[test]
    fn a_place_only_a_variable_names_is_nowhere_without_it() {
        let place = Place::Env {
            var: "OPENCODE_CONFIG_DIR",
            then: "skills",
            or: &Place::Nowhere,
        };
        assert!(
            place
                .resolve(&Environment::new("/h"), &project())
                .is_empty()
        );
    }

    #[test]
    fn an_empty_value_is_unset_or_the_start_folder_and_a_relative_one_is_read_from_there() {
        const HOME: Place = Place::Env {
            var: "H",
            then: "skills",
            or: &Place::Home(".h"),
        };
        const EVEN_EMPTY: Place = Place::EnvEvenEmpty {
            var: "H",
            then: "skills",
            or: &Place::Home(".h"),
        };
        let at = |place: &Place, env: &Environment| place.resolve(env, &project())[0].path.clone();
        let start = project().start().to_path_buf();
        let empty = Environment::new("/h").with_var("H", "");
        assert_eq!(at(&HOME, &empty), PathBuf::from("/h/.h"));
        assert_eq!(at(&EVEN_EMPTY, &empty), start.join("skills"));
        let unset = Environment::new("/h");
        assert_eq!(at(&EVEN_EMPTY, &unset), PathBuf::from("/h/.h"));
        let relative = Environment::new("/h").with_var("H", "rel");
        for place in [&HOME, &EVEN_EMPTY] {
            assert_eq!(at(place, &relative), start.join("rel/skills"));
        }
    }

    #[test]
    fn a_list_variable_gives_each_of_its_directories() {
        let place = Place::Under(&Place::EachIn("SEEDS"), "cache");
        // An empty entry between the two, in the system's own list separator.
        let seeds = std::env::join_paths(["/a", "", "/b"]).unwrap();
        let env = Environment::new("/h").with_var("SEEDS", seeds);
        let paths: Vec<_> = place
            .resolve(&env, &project())
            .into_iter()
            .map(|l| l.path)
            .collect();
        assert_eq!(
            paths,
            [PathBuf::from("/a/cache"), PathBuf::from("/b/cache")]
        );
    }

    #[test]
    fn a_split_variable_splits_at_its_separator_only_and_trims() {
        const DIRS: Place = Place::EachSplitIn {
            var: "DIRS",
            separator: ',',
        };
        let env = Environment::new("/h").with_var("DIRS", " /a ,, /b:/c;/d ,~/e, rel/f");
        let start = Path::new("/work/proj");
        let resolved = DIRS.resolve(&env, &Project::locate(start));
        let paths: Vec<_> = resolved.iter().map(|l| l.path.clone()).collect();
        assert_eq!(
            paths,
            [
                PathBuf::from("/a"),
                PathBuf::from("/b:/c;/d"),
                start.join("~/e"),
                start.join("rel/f"),
            ]
        );
        let levels: Vec<u8> = resolved.iter().map(|l| l.level).collect();
        assert_eq!(levels, [0, 1, 2, 3]);
        let mut names = Vec::new();
        DIRS.variables(&mut names);
        assert_eq!(names, ["DIRS"]);
        assert!(DIRS.resolve(&Environment::new("/h"), &project()).is_empty());
    }

    #[test]
    fn a_managed_directory_sits_under_the_system_root() {
        let place = Place::System(SystemPath {
            linux: "etc/codex/skills",
            macos: "etc/codex/skills",
            windows: "ProgramData/OpenAI/Codex/skills",
        });
        let env = Environment::new("/h").with_var("SKILLDECK_SYSTEM_ROOT", "/sandbox");
        let expected = if cfg!(windows) {
            PathBuf::from("/sandbox/ProgramData/OpenAI/Codex/skills")
        } else {
            PathBuf::from("/sandbox/etc/codex/skills")
        };
        assert_eq!(place.resolve(&env, &project())[0].path, expected);
    }
}
