//! Where `undo` may act: inside the skills roots skilldeck knows and its own snapshot store,
//! judged on the path as the system resolves it at the moment of acting. A journal entry names
//! paths as text; text can climb out with `..` or pass through a link to anywhere, so no path
//! is taken at its word: it must be absolute and plain (no `.` or `..`), and its folder, with
//! every link resolved, must lie inside a root (or the store's held area).

use std::path::{Component, Path, PathBuf};

use crate::roots::{Machine, RootSet};
use crate::snapshot::Store;

use super::UndoError;

/// The resolved roots and store a machine's undo may act in.
pub struct Bounds {
    roots: Vec<PathBuf>,
    held: Option<PathBuf>,
}

impl Bounds {
    pub fn of(machine: &Machine, store: &Store) -> Self {
        let roots = RootSet::resolve(&machine.env, &machine.project)
            .roots
            .iter()
            .filter_map(|root| crate::fs::canonical(&root.path).ok())
            .collect();
        Self {
            roots,
            held: crate::fs::canonical(store.held_dir()).ok(),
        }
    }

    /// `path` resolved (its folder's links, not its own last name, which may be the link undo
    /// acts on), when it lies strictly inside one of the roots.
    ///
    /// # Errors
    /// [`UndoError::NotInARoot`] when it does not, or cannot be resolved.
    pub fn skill_path(&self, path: &Path) -> Result<PathBuf, UndoError> {
        resolved(path)
            .filter(|real| {
                self.roots
                    .iter()
                    .any(|root| real.starts_with(root) && real != root)
            })
            .ok_or_else(|| UndoError::NotInARoot(path.to_path_buf()))
    }

    /// Whether `path` is a folder strictly inside the store's held area, every link resolved.
    pub fn is_held(&self, path: &Path) -> bool {
        let Some(held) = &self.held else {
            return false;
        };
        plain(path)
            && crate::fs::canonical(path)
                .is_ok_and(|real| real.starts_with(held) && real != *held && real.is_dir())
    }
}

/// Whether `path` is absolute and names no `..` (a `.` inside a path is no component).
fn plain(path: &Path) -> bool {
    path.is_absolute()
        && path.components().all(|c| {
            matches!(
                c,
                Component::Prefix(_) | Component::RootDir | Component::Normal(_)
            )
        })
}

/// `path` with the links of its folder resolved and its last name as it is; `None` when it is
/// not plain or its folder cannot be resolved.
fn resolved(path: &Path) -> Option<PathBuf> {
    if !plain(path) {
        return None;
    }
    let (parent, name) = (path.parent()?, path.file_name()?);
    Some(crate::fs::canonical(parent).ok()?.join(name))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn only_plain_paths_whose_folder_resolves_inside_a_root_pass() {
        let tmp = tempfile::tempdir().unwrap();
        let base = crate::fs::canonical(tmp.path()).unwrap();
        let root = base.join("root");
        std::fs::create_dir_all(root.join("inner")).unwrap();
        std::fs::create_dir_all(base.join("outside")).unwrap();
        std::os::unix::fs::symlink(base.join("outside"), root.join("out-link")).unwrap();
        let bounds = Bounds {
            roots: vec![root.clone()],
            held: None,
        };
        assert_eq!(bounds.skill_path(&root.join("a")).unwrap(), root.join("a"));
        assert!(bounds.skill_path(&root.join("inner/a")).is_ok());
        // The link itself may be acted on (it is the thing undo removes or makes)...
        assert!(bounds.skill_path(&root.join("out-link")).is_ok());
        for refused in [
            root.join("../outside/a"),
            root.join("inner/../../outside"),
            root.join("out-link/a"),
            root.clone(),
            base.join("outside/a"),
            PathBuf::from("root/a"),
            root.join("missing/a"),
        ] {
            assert!(
                matches!(bounds.skill_path(&refused), Err(UndoError::NotInARoot(_))),
                "{} passed",
                refused.display()
            );
        }
    }
}
