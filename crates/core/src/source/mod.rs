//! Where an import reads its bundle from: a folder or an archive on disk, or a git repository,
//! fetched with the user's own `git` into a temporary folder ([`git`]).
//!
//! What the user typed is told apart here, once, for the command line and the app alike: a
//! path that exists on disk is that path (a relative `foo/bar` that exists beats the GitHub
//! shorthand); a folder that is a git repository (a work tree's top, or a bare repository) is
//! fetched from its commits; a URL (`https://`, `ssh://`, `git://`, `file://`, or
//! `user@host:path`) is a repository; `OWNER/REPO` is `https://github.com/OWNER/REPO.git`. A
//! repository may be followed by `@REF` (a branch, a tag or a full commit id).

pub mod child;
pub mod git;

use std::path::{Path, PathBuf};

/// What an import reads from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A folder or an archive on disk, read as it is.
    Local(PathBuf),
    /// A git repository, fetched first.
    Git(git::Spec),
}

/// Where `given` (and the folder `path` of a repository, when given) says to import from.
///
/// A path that does not exist and is no repository stays a local path, for the bundle reader
/// to say it cannot be read.
pub fn parse(given: &Path, path: Option<&str>) -> Source {
    if given.exists() {
        return match repository_folder(given) {
            Some(dir) => Source::Git(git::Spec::local(&dir, None, path)),
            None => Source::Local(given.to_path_buf()),
        };
    }
    let Some(text) = given.to_str() else {
        return Source::Local(given.to_path_buf());
    };
    // A local repository with a ref: the part before `@` exists.
    if let Some((before, reference)) = text.split_once('@')
        && !before.is_empty()
        && let Some(dir) = repository_folder(Path::new(before))
    {
        return Source::Git(git::Spec::local(&dir, Some(reference), path));
    }
    if let Some((url, reference)) = url_and_ref(text) {
        return Source::Git(git::Spec::remote(url, reference, path));
    }
    if let Some((owner_repo, reference)) = github_shorthand(text) {
        let url = format!("https://github.com/{owner_repo}.git");
        return Source::Git(git::Spec::remote(&url, reference, path));
    }
    Source::Local(given.to_path_buf())
}

/// Whether `text` names a remote repository by its words alone — a URL git fetches, or
/// `OWNER/REPO` — without looking at the disk: how the app's picker tells a repository typed
/// from a filter on names (the worker then reads it with [`parse`], where a path on disk
/// still wins).
pub fn names_repository(text: &str) -> bool {
    url_and_ref(text).is_some() || github_shorthand(text).is_some()
}

/// `dir`, made absolute, when it is the top of a git work tree or a bare repository, as git
/// itself recognises one (`HEAD`, `objects/` and `refs/` in its git folder).
fn repository_folder(dir: &Path) -> Option<PathBuf> {
    let is_git_dir = |git: &Path| {
        git.join("HEAD").is_file() && git.join("objects").is_dir() && git.join("refs").is_dir()
    };
    let dot_git = dir.join(".git");
    // A linked work tree or a submodule has a `.git` file that points at its git folder.
    let work_tree = is_git_dir(&dot_git)
        || std::fs::read_to_string(&dot_git).is_ok_and(|text| text.starts_with("gitdir: "));
    (dir.is_dir() && (work_tree || is_git_dir(dir))).then(|| std::path::absolute(dir).ok())?
}

/// A URL git fetches, and the `@REF` after it: the `@` that follows the URL's host (so a user
/// in `https://me@host/r` or `git@host:r` is not taken for a ref, while a ref may hold `/`).
fn url_and_ref(text: &str) -> Option<(&str, Option<&str>)> {
    let path_start = if let Some(scheme_end) = text.find("://") {
        let scheme = &text[..scheme_end];
        if !matches!(scheme, "https" | "http" | "ssh" | "git" | "file") {
            return None;
        }
        let after = scheme_end + 3;
        after + text[after..].find('/')?
    } else {
        // `[user@]host:path`, as scp and git write it; a `/` before the `:` is a path.
        let colon = text.find(':')?;
        let host = &text[..colon];
        // A host that starts with `-` would be read as an option by ssh.
        if host.is_empty() || host.contains('/') || host.starts_with('-') || colon == 1 {
            return None;
        }
        colon + 1
    };
    Some(split_ref(text, path_start))
}

/// `text` and the ref after the first `@` at or beyond `from`.
fn split_ref(text: &str, from: usize) -> (&str, Option<&str>) {
    match text[from..].find('@') {
        Some(at) => (
            &text[..from + at],
            Some(&text[from + at + 1..]).filter(|r| !r.is_empty()),
        ),
        None => (text, None),
    }
}

/// `OWNER/REPO[@REF]`, with GitHub's characters for each.
fn github_shorthand(text: &str) -> Option<(&str, Option<&str>)> {
    let (owner_repo, reference) = split_ref(text, 0);
    let (owner, repo) = owner_repo.split_once('/')?;
    let owner_ok = !owner.is_empty()
        && !owner.starts_with('-')
        && owner.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let repo = repo.strip_suffix(".git").unwrap_or(repo);
    let repo_ok = !repo.is_empty()
        && repo != "."
        && repo != ".."
        && repo
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    (owner_ok && repo_ok).then_some((
        owner_repo.strip_suffix(".git").unwrap_or(owner_repo),
        reference,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repository_is_told_from_a_name_by_its_words() {
        for text in [
            "anthropics/skills",
            "anthropics/skills@v1",
            "https://example.org/r.git",
            "git@github.com:o/r.git",
            "file:///srv/r@main",
        ] {
            assert!(names_repository(text), "{text}");
        }
        for text in ["pdf", "pdf-forms", "a b/c", "", "-x/y"] {
            assert!(!names_repository(text), "{text}");
        }
    }

    fn remote(url: &str, reference: Option<&str>) -> Source {
        Source::Git(git::Spec::remote(url, reference, None))
    }

    #[test]
    fn urls_shorthand_and_refs() {
        let parse = |text: &str| parse(Path::new(text), None);
        assert_eq!(
            parse("https://example.org/a/b.git@v1"),
            remote("https://example.org/a/b.git", Some("v1"))
        );
        assert_eq!(
            parse("https://me@example.org/a/b"),
            remote("https://me@example.org/a/b", None)
        );
        assert_eq!(
            parse("git@github.com:o/r.git@feature/x"),
            remote("git@github.com:o/r.git", Some("feature/x"))
        );
        assert_eq!(
            parse("anthropics/skills"),
            remote("https://github.com/anthropics/skills.git", None)
        );
        assert_eq!(
            parse("o/r.git@main"),
            remote("https://github.com/o/r.git", Some("main"))
        );
        for local in [
            "no-such/dir/x",
            "./x/y",
            "x",
            "C:/x",
            "/abs/x",
            "a/../b",
            "ftp://h/x",
            "-oProxyCommand=x:y",
        ] {
            assert_eq!(parse(local), Source::Local(PathBuf::from(local)), "{local}");
        }
    }

    #[test]
    fn a_path_that_exists_beats_the_shorthand() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("owner/repo")).unwrap();
        let given = tmp.path().join("owner/repo");
        assert_eq!(parse(&given, None), Source::Local(given.clone()));
        // A folder with a stray `.git/HEAD` is not a repository.
        std::fs::create_dir_all(given.join(".git")).unwrap();
        std::fs::write(given.join(".git/HEAD"), "ref").unwrap();
        assert_eq!(parse(&given, None), Source::Local(given.clone()));
        std::fs::create_dir_all(given.join(".git/objects")).unwrap();
        std::fs::create_dir_all(given.join(".git/refs")).unwrap();
        assert!(matches!(parse(&given, None), Source::Git(_)));
        let with_ref = PathBuf::from(format!("{}@v2", given.display()));
        match parse(&with_ref, Some("skills")) {
            Source::Git(spec) => {
                assert_eq!(spec.reference.as_deref(), Some("v2"));
                assert_eq!(spec.path.as_deref(), Some("skills"));
                assert_eq!(Path::new(&spec.repository), given);
            }
            other => panic!("{other:?}"),
        }
    }
}
