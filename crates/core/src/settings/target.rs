//! Where a settings path leads, and whether skilldeck may write there. A settings file kept
//! in a dotfiles folder and linked into place stays a link: the edit goes to the file it
//! leads to. A link that leads nowhere (dangling) is written through, making the file it
//! names, never replaced by a file. A project's settings file is written only inside the
//! project: a repository that links `.claude`, or its `settings.local.json`, to a file
//! elsewhere (`~/.bashrc`) does not get skilldeck to write there.

use std::io;
use std::path::{Component, Path, PathBuf};

use super::EditError;
use crate::roots::{Machine, Project};

/// How many links a path may pass through, as the system's own limit (Linux's `MAXSYMLINKS`).
const MOST_LINKS: usize = 40;

/// The folder a write to `path` must stay in: the project's, when `path` is one of the
/// project's files; none for the user's own settings, whose links are the user's to make.
pub(crate) fn scope_of(machine: &Machine, path: &Path) -> Option<PathBuf> {
    let project = Project::locate(&machine.project);
    let top = project.top();
    path.starts_with(top).then(|| top.to_path_buf())
}

/// The file `path` leads to, every link on the way followed (a missing file's folder too),
/// whether or not the file exists.
///
/// # Errors
/// When a folder on the way cannot be read, or links loop.
pub(crate) fn real(path: &Path) -> io::Result<PathBuf> {
    follow(&std::path::absolute(path)?, &mut 0)
}

/// `path` (absolute) with its folder resolved first, then its last part: a `..` after a link
/// is the folder above where the link leads, as the system reads it.
fn follow(path: &Path, hops: &mut usize) -> io::Result<PathBuf> {
    let Some(folder) = path.parent() else {
        return Ok(path.to_path_buf());
    };
    let folder = follow(folder, hops)?;
    let name = match path.components().next_back() {
        Some(Component::Normal(name)) => name,
        Some(Component::ParentDir) => {
            return Ok(folder.parent().map_or(folder.clone(), Path::to_path_buf));
        }
        _ => return Ok(folder),
    };
    let at = folder.join(name);
    match std::fs::symlink_metadata(&at) {
        Ok(meta) if meta.file_type().is_symlink() => {
            *hops += 1;
            if *hops > MOST_LINKS {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "too many links on the way",
                ));
            }
            follow(&folder.join(std::fs::read_link(&at)?), hops)
        }
        Ok(_) => Ok(at),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(at),
        Err(error) => Err(error),
    }
}

/// The file skilldeck edits for `path`: where it leads, when that is inside `within` (the
/// project, for a project's file).
///
/// # Errors
/// [`EditError::OutOfScope`] when it leads out, [`EditError::Read`] when it cannot be followed.
pub(crate) fn target(path: &Path, within: Option<&Path>) -> Result<PathBuf, EditError> {
    let file = real(path).map_err(|source| EditError::Read {
        file: path.to_path_buf(),
        source,
    })?;
    if let Some(scope) = within {
        let scope = crate::fs::canonical(scope).unwrap_or_else(|_| scope.to_path_buf());
        if !file.starts_with(&scope) {
            return Err(EditError::OutOfScope {
                file: path.to_path_buf(),
                target: file,
                scope,
            });
        }
    }
    Ok(file)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn links_are_followed_to_where_they_lead_even_when_nothing_is_there() {
        let tmp = tempfile::tempdir().unwrap();
        let root = crate::fs::canonical(tmp.path()).unwrap();
        std::fs::create_dir_all(root.join("real/deep")).unwrap();
        // A folder link, then `..` from where it leads, not from the link.
        symlink(root.join("real/deep"), root.join("via")).unwrap();
        assert_eq!(
            real(&root.join("via/../x.json")).unwrap(),
            root.join("real/x.json")
        );
        // A dangling link, relative, to a file in a folder that is not there yet.
        symlink("real/new/settings.json", root.join("dangling")).unwrap();
        assert_eq!(
            real(&root.join("dangling")).unwrap(),
            root.join("real/new/settings.json")
        );
        // A loop is an error, not a hang.
        symlink(root.join("b"), root.join("a")).unwrap();
        symlink(root.join("a"), root.join("b")).unwrap();
        assert!(real(&root.join("a")).is_err());
    }

    #[test]
    fn a_path_leading_out_of_its_scope_is_refused_naming_both() {
        let tmp = tempfile::tempdir().unwrap();
        let root = crate::fs::canonical(tmp.path()).unwrap();
        let project = root.join("project");
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        symlink(root.join("elsewhere.json"), project.join(".claude/s.json")).unwrap();
        let error = target(&project.join(".claude/s.json"), Some(&project)).unwrap_err();
        assert!(error.is_refusal());
        let said = error.to_string();
        assert!(
            said.contains(&root.join("elsewhere.json").display().to_string()),
            "{said}"
        );
        assert!(said.contains(".claude/s.json"), "{said}");
        // For the user's own settings, nothing bounds where a link leads.
        assert_eq!(
            target(&project.join(".claude/s.json"), None).unwrap(),
            root.join("elsewhere.json")
        );
    }
}
