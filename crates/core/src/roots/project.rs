//! The project directories an agent reads: the directory it starts in, and for most agents each
//! parent up to the repository root.

use std::path::{Path, PathBuf};

use super::env::Environment;

/// How far up from the start directory an agent looks for project roots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// Only the directory the agent starts in.
    Start,
    /// The start directory and each parent up to the repository root (the nearest directory
    /// holding `.git`); only the start directory when there is no repository.
    UpToRepository,
    /// As `UpToRepository` inside a repository; outside one, the parents `beyond` says.
    UpToRepositoryElse(Beyond),
    /// The start directory and every parent, repository or not, short of `/`, `/home` and
    /// `/Users` (Amp).
    EveryParent,
    /// The start directory and each parent up to the nearest one that holds one of the
    /// agent's project markers (Codex's `project_root_markers`); only the start directory when
    /// none does, or when the agent's settings name no marker at all.
    UpToMarkers(&'static Markers),
    /// As the walk it wraps, without the home directory itself, inside a repository or not:
    /// Copilot reads `.claude/skills` in every folder it walks but never `~/.claude/skills`,
    /// which is Claude Code's personal root (it does read `~/.github/skills` and
    /// `~/.agents/skills` when the walk reaches the home).
    NotAtHome(&'static Walk),
}

/// How far up an agent walks from a start directory that lies in no repository.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beyond {
    /// Every parent below the home directory (Claude Code), or up to `/` outside the home.
    BelowHome,
    /// Every parent up to and including the home directory (Copilot), or up to `/`.
    ToHome,
    /// Every parent up to `/` (OpenCode).
    ToRoot,
}

/// An agent's own rule for where a project begins: the nearest folder, from the start
/// directory up, holding an entry (a file or a folder, links followed) by one of these names.
#[derive(Debug)]
pub struct Markers {
    /// The names the agent's settings give, or `None` when they give none: then `default`.
    /// An empty list is a rule too: the start directory alone is the project.
    pub named: fn(&Environment, &Project) -> Option<Vec<String>>,
    pub default: &'static [&'static str],
}

/// Each agent's markers are one static: the same rule is the same place in memory.
impl PartialEq for Markers {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Markers {}

impl Markers {
    /// The folder the project begins at for a walk from `start`.
    fn top<'a>(&self, env: &Environment, project: &'a Project) -> &'a Path {
        let start = project.start();
        let names = (self.named)(env, project)
            .unwrap_or_else(|| self.default.iter().map(|&name| name.to_owned()).collect());
        start
            .ancestors()
            .find(|dir| names.iter().any(|name| dir.join(name).metadata().is_ok()))
            .unwrap_or(start)
    }
}

/// The start directory of a run and the repository that holds it.
#[derive(Clone, Debug)]
pub struct Project {
    start: PathBuf,
    repository: Option<PathBuf>,
}

impl Project {
    /// The project that `start` (an absolute path) lies in.
    ///
    /// A start reached through a symbolic link is taken at the folder the link leads to: an
    /// agent started there is given that real folder as its working directory by the system
    /// (`PWD` naming the link changes nothing), so it walks the real folder's parents and finds
    /// its repository (`agree::project_links`, every agent). A start that cannot be resolved
    /// (it does not exist) is taken as written.
    pub fn locate(start: &Path) -> Self {
        let start = crate::fs::canonical(start).unwrap_or_else(|_| start.to_path_buf());
        let repository = start
            .ancestors()
            .find(|dir| dir.join(".git").symlink_metadata().is_ok())
            .map(Path::to_path_buf);
        Self { start, repository }
    }

    pub fn start(&self) -> &Path {
        &self.start
    }

    /// The repository root (the nearest folder holding `.git`), if the start is in one.
    pub fn repository(&self) -> Option<&Path> {
        self.repository.as_deref()
    }

    /// The repository root, or the start directory when it is in no repository: the folder
    /// whose skills count as the project's.
    pub fn top(&self) -> &Path {
        self.repository.as_deref().unwrap_or(&self.start)
    }

    /// The directories a walk visits, nearest first, each with its distance from the start.
    pub fn levels(&self, walk: Walk, env: &Environment) -> Vec<(PathBuf, u8)> {
        let home = env.home();
        if let Walk::NotAtHome(inner) = walk {
            // The home as written and as the folder it leads to: a start in the real folder of
            // a home reached through a link is the home too (Copilot 1.0.102, agree::generate
            // class `home-moved`, case copilot-home-through-a-link.txt), though the walk's own
            // bounds compare the text.
            let real_home = crate::fs::canonical(home).ok();
            let mut levels = self.levels(*inner, env);
            levels.retain(|(dir, _)| dir != home && Some(dir) != real_home.as_ref());
            return levels;
        }
        let up_to = |keep: &dyn Fn(&Path) -> bool| -> Vec<(PathBuf, u8)> {
            self.start
                .ancestors()
                .take_while(|dir| keep(dir))
                .zip(0u8..)
                .map(|(dir, level)| (dir.to_path_buf(), level))
                .collect()
        };
        match walk {
            Walk::Start => vec![(self.start.clone(), 0)],
            Walk::UpToRepository => up_to(&|dir| dir.starts_with(self.top())),
            Walk::UpToMarkers(markers) => {
                let top = markers.top(env, self);
                up_to(&|dir| dir.starts_with(top))
            }
            Walk::UpToRepositoryElse(_) if self.repository.is_some() => {
                up_to(&|dir| dir.starts_with(self.top()))
            }
            Walk::UpToRepositoryElse(Beyond::ToRoot) => up_to(&|_| true),
            Walk::UpToRepositoryElse(beyond) if self.start.starts_with(home) => {
                up_to(&|dir| dir.starts_with(home) && (beyond == Beyond::ToHome || dir != home))
            }
            Walk::UpToRepositoryElse(_) => up_to(&|_| true),
            Walk::NotAtHome(_) => unreachable!("handled above"),
            Walk::EveryParent => {
                let mut levels = up_to(&|_| true);
                levels.retain(|(dir, _)| {
                    !["/", "/home", "/Users"].contains(&dir.to_str().unwrap_or(""))
                });
                levels
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walk_stops_at_the_repository_root() {
        let tmp = tempfile::tempdir().unwrap();
        let base = crate::fs::canonical(tmp.path()).unwrap();
        let repo = base.join("repo");
        let deep = repo.join("apps/web");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir(repo.join(".git")).unwrap();

        let project = Project::locate(&deep);
        assert_eq!(project.top(), repo);
        let levels = project.levels(Walk::UpToRepository, &Environment::new("/home/me"));
        assert_eq!(
            levels,
            vec![(deep.clone(), 0), (repo.join("apps"), 1), (repo.clone(), 2)]
        );
        assert_eq!(
            project.levels(Walk::Start, &Environment::new("/home/me")),
            vec![(deep, 0)]
        );
    }

    #[test]
    fn a_git_file_marks_a_worktree_root_too() {
        let tmp = tempfile::tempdir().unwrap();
        let base = crate::fs::canonical(tmp.path()).unwrap();
        let worktree = base.join("wt");
        std::fs::create_dir_all(worktree.join("src")).unwrap();
        std::fs::write(worktree.join(".git"), "gitdir: /elsewhere\n").unwrap();
        let project = Project::locate(&worktree.join("src"));
        assert_eq!(project.top(), worktree);
    }

    #[test]
    fn outside_a_repository_only_the_start_is_visited() {
        let tmp = tempfile::tempdir().unwrap();
        let base = crate::fs::canonical(tmp.path()).unwrap();
        let start = base.join("loose/dir");
        std::fs::create_dir_all(&start).unwrap();
        let project = Project::locate(&start);
        assert_eq!(project.top(), start);
        assert_eq!(
            project.levels(Walk::UpToRepository, &Environment::new("/home/me")),
            vec![(start.clone(), 0)]
        );
        let home = base.as_path();
        let env = Environment::new(home);
        let below_home = Walk::UpToRepositoryElse(Beyond::BelowHome);
        assert_eq!(
            project.levels(below_home, &env),
            vec![(start.clone(), 0), (base.join("loose"), 1)]
        );
        let with_home = Walk::UpToRepositoryElse(Beyond::ToHome);
        assert_eq!(project.levels(with_home, &env).last().unwrap().0, home);
        let elsewhere = Environment::new("/nowhere/near");
        assert_eq!(
            project.levels(with_home, &elsewhere).last().unwrap().0,
            start.ancestors().last().unwrap()
        );
    }

    #[test]
    fn a_walk_kept_off_the_home_skips_it_in_a_repository_and_out_of_one() {
        const TO_HOME: Walk = Walk::UpToRepositoryElse(Beyond::ToHome);
        let tmp = tempfile::tempdir().unwrap();
        let base = crate::fs::canonical(tmp.path()).unwrap();
        let home = base.join("home");
        let start = home.join("work/x");
        std::fs::create_dir_all(&start).unwrap();
        let walk = Walk::NotAtHome(&TO_HOME);
        let env = Environment::new(&home);
        let dirs = |project: &Project| -> Vec<PathBuf> {
            project
                .levels(walk, &env)
                .into_iter()
                .map(|(dir, _)| dir)
                .collect()
        };
        let outside_a_repository = Project::locate(&start);
        assert_eq!(
            outside_a_repository.levels(TO_HOME, &env).last().unwrap().0,
            home
        );
        assert_eq!(
            outside_a_repository.levels(walk, &env),
            [(start.clone(), 0), (home.join("work"), 1)]
        );
        std::fs::create_dir(home.join(".git")).unwrap();
        assert_eq!(
            dirs(&Project::locate(&start)),
            [start.clone(), home.join("work")]
        );
        assert!(dirs(&Project::locate(&home)).is_empty());
    }

    // The links are Unix links.
    #[cfg(unix)]
    #[test]
    fn a_start_through_a_link_is_the_folder_it_leads_to() {
        let tmp = tempfile::tempdir().unwrap();
        let base = crate::fs::canonical(tmp.path()).unwrap();
        let repo = base.join("work/repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("sub")).unwrap();
        std::os::unix::fs::symlink(repo.join("sub"), base.join("sublink")).unwrap();
        std::os::unix::fs::symlink(base.join("work"), base.join("linkdir")).unwrap();
        let home = &Environment::new("/home/me");
        let through_sub = Project::locate(&base.join("sublink"));
        assert_eq!(through_sub.start(), repo.join("sub"));
        assert_eq!(through_sub.top(), repo);
        let through_parent = Project::locate(&base.join("linkdir/repo/sub"));
        assert_eq!(
            through_parent.levels(Walk::EveryParent, home)[..3],
            [
                (repo.join("sub"), 0),
                (repo.clone(), 1),
                (base.join("work"), 2)
            ]
        );
        let missing = base.join("sublink/not-there");
        assert_eq!(Project::locate(&missing).start(), missing);
    }
}
