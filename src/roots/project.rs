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

    /// The repository root, or the start directory when it is in no repository: the folder
    /// whose skills count as the project's.
    pub fn top(&self) -> &Path {
        self.repository.as_deref().unwrap_or(&self.start)
    }

    /// The directories a walk visits, nearest first, each with its distance from the start.
    pub fn levels(&self, walk: Walk) -> Vec<(PathBuf, u8)> {
        match walk {
            Walk::Start => vec![(self.start.clone(), 0)],
            Walk::UpToRepository => self
                .start
                .ancestors()
                .take_while(|dir| dir.starts_with(self.top()))
                .zip(0u8..)
                .map(|(dir, level)| (dir.to_path_buf(), level))
                .collect(),
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
        let levels = project.levels(Walk::UpToRepository);
        assert_eq!(
            levels,
            vec![(deep.clone(), 0), (repo.join("apps"), 1), (repo.clone(), 2)]
        );
        assert_eq!(project.levels(Walk::Start), vec![(deep, 0)]);
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
        assert_eq!(project.levels(Walk::UpToRepository), vec![(start, 0)]);
    }
}
