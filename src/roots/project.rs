//! The project directories an agent reads: the directory it starts in, and for most agents each
//! parent up to the repository root.

use std::path::{Path, PathBuf};

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

/// The start directory of a run and the repository that holds it.
#[derive(Clone, Debug)]
pub struct Project {
    start: PathBuf,
    repository: Option<PathBuf>,
}

impl Project {
    /// The project that `start` (an absolute path) lies in.
    pub fn locate(start: &Path) -> Self {
        let repository = start
            .ancestors()
            .find(|dir| dir.join(".git").symlink_metadata().is_ok())
            .map(Path::to_path_buf);
        Self {
            start: start.to_path_buf(),
            repository,
        }
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
    pub fn levels(&self, walk: Walk, home: &Path) -> Vec<(PathBuf, u8)> {
        if let Walk::NotAtHome(inner) = walk {
            let mut levels = self.levels(*inner, home);
            levels.retain(|(dir, _)| dir != home);
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
        let repo = tmp.path().join("repo");
        let deep = repo.join("apps/web");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir(repo.join(".git")).unwrap();

        let project = Project::locate(&deep);
        assert_eq!(project.top(), repo);
        let levels = project.levels(Walk::UpToRepository, Path::new("/home/me"));
        assert_eq!(
            levels,
            vec![(deep.clone(), 0), (repo.join("apps"), 1), (repo.clone(), 2)]
        );
        assert_eq!(
            project.levels(Walk::Start, Path::new("/home/me")),
            vec![(deep, 0)]
        );
    }

    #[test]
    fn a_git_file_marks_a_worktree_root_too() {
        let tmp = tempfile::tempdir().unwrap();
        let worktree = tmp.path().join("wt");
        std::fs::create_dir_all(worktree.join("src")).unwrap();
        std::fs::write(worktree.join(".git"), "gitdir: /elsewhere\n").unwrap();
        let project = Project::locate(&worktree.join("src"));
        assert_eq!(project.top(), worktree);
    }

    #[test]
    fn outside_a_repository_only_the_start_is_visited() {
        let tmp = tempfile::tempdir().unwrap();
        let start = tmp.path().join("loose/dir");
        std::fs::create_dir_all(&start).unwrap();
        let project = Project::locate(&start);
        assert_eq!(project.top(), start);
        assert_eq!(
            project.levels(Walk::UpToRepository, Path::new("/home/me")),
            vec![(start.clone(), 0)]
        );
        let home = tmp.path();
        let below_home = Walk::UpToRepositoryElse(Beyond::BelowHome);
        assert_eq!(
            project.levels(below_home, home),
            vec![(start.clone(), 0), (tmp.path().join("loose"), 1)]
        );
        let with_home = Walk::UpToRepositoryElse(Beyond::ToHome);
        assert_eq!(project.levels(with_home, home).last().unwrap().0, home);
        let elsewhere = Path::new("/nowhere/near");
        assert_eq!(
            project.levels(with_home, elsewhere).last().unwrap().0,
            start.ancestors().last().unwrap()
        );
    }

    #[test]
    fn a_walk_kept_off_the_home_skips_it_in_a_repository_and_out_of_one() {
        const TO_HOME: Walk = Walk::UpToRepositoryElse(Beyond::ToHome);
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let start = home.join("work/x");
        std::fs::create_dir_all(&start).unwrap();
        let walk = Walk::NotAtHome(&TO_HOME);
        let dirs = |project: &Project| -> Vec<PathBuf> {
            project
                .levels(walk, &home)
                .into_iter()
                .map(|(dir, _)| dir)
                .collect()
        };
        let outside_a_repository = Project::locate(&start);
        assert_eq!(
            outside_a_repository
                .levels(TO_HOME, &home)
                .last()
                .unwrap()
                .0,
            home
        );
        assert_eq!(
            outside_a_repository.levels(walk, &home),
            [(start.clone(), 0), (home.join("work"), 1)]
        );
        std::fs::create_dir(home.join(".git")).unwrap();
        assert_eq!(
            dirs(&Project::locate(&start)),
            [start.clone(), home.join("work")]
        );
        assert!(dirs(&Project::locate(&home)).is_empty());
    }
}
