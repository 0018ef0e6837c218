//! Where a lock entry's files come from, read from the entry alone (its fields were checked
//! when the lock was read, `lock::file::checks`): a git repository at a URL, a repository or a
//! plain folder on this disk beside the lock, or a kind of source skilldeck cannot fetch.
//! The URLs are the ones the skills CLI writes (`getLockSource`, `buildLocalUpdateSource`,
//! skills 1.5.26 `dist/cli.mjs`): a `github` source is `owner/repo` on GitHub, a `git` or
//! `gitlab` source has its URL in `sourceUrl` (else `source`), a `local` source is a path
//! relative to the lock's folder.

use std::path::{Component, Path, PathBuf};

use crate::lock::{LOCAL, Locked};
use crate::source::{self, Source, git::Spec};

/// Where one locked skill is fetched from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A git repository (a local one through `file://`), at the entry's ref; the folder is
    /// the skill's in it.
    Git(Spec),
    /// A plain folder on this disk: the skill's own folder.
    Folder(PathBuf),
}

/// Why an entry's source cannot be fetched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unfetchable {
    #[error(
        "its source is of type {0:?}, which skilldeck does not fetch (it fetches github, gitlab, git and local sources)"
    )]
    Kind(String),
    #[error("its source {0:?} is not a repository URL git fetches")]
    NotAUrl(String),
}

/// The skill's folder in its source, from `skillPath` (`skills/x/SKILL.md`): its parts, none
/// for the top; `None` when the entry has no `skillPath` (the skills CLI then picks the skill
/// by its name from the whole source).
pub fn folder(locked: &Locked) -> Option<Vec<String>> {
    let path = locked.skill_path.as_deref()?;
    let folder = path
        .strip_suffix("SKILL.md")
        .map_or(path, |rest| rest.trim_end_matches('/'));
    Some(
        folder
            .split('/')
            .filter(|part| !part.is_empty() && *part != ".")
            .map(str::to_owned)
            .collect(),
    )
}

/// Where `locked`'s files are fetched from, for a lock in the folder `top`.
///
/// # Errors
/// [`Unfetchable`]: a kind of source skilldeck does not fetch, or a URL git would not take.
pub fn origin(locked: &Locked, top: &Path) -> Result<Origin, Unfetchable> {
    let path = folder(locked).map(|parts| parts.join("/"));
    let path = path.as_deref().filter(|p| !p.is_empty());
    let reference = locked.reference.as_deref().filter(|r| !r.is_empty());
    match locked.source_type.as_str() {
        "github" => {
            let url = match &locked.source_url {
                Some(url) => url.clone(),
                None => github_url(&locked.source)?,
            };
            remote(&url, reference, path)
        }
        "git" | "gitlab" => {
            let url = locked.source_url.as_deref().unwrap_or(&locked.source);
            if url.contains("://") || url.contains(':') {
                remote(url, reference, path)
            } else {
                remote(&github_url(url)?, reference, path)
            }
        }
        LOCAL => {
            let dir = lexical(&top.join(&locked.source));
            match source::parse(&dir, None) {
                Source::Git(spec) => Ok(Origin::Git(Spec {
                    reference: reference.map(str::to_owned),
                    path: path.map(str::to_owned),
                    ..spec
                })),
                Source::Local(dir) => Ok(Origin::Folder(match path {
                    Some(path) => dir.join(path),
                    None => dir,
                })),
            }
        }
        other => Err(Unfetchable::Kind(other.to_owned())),
    }
}

/// A URL git is given, as `source::parse` would read it typed: only a URL or `OWNER/REPO`,
/// never a path on disk (a lock's remote source is no file of this machine).
fn remote(url: &str, reference: Option<&str>, path: Option<&str>) -> Result<Origin, Unfetchable> {
    // `HELPER::ADDRESS` runs a remote helper; git's protocol list refuses it too, but a lock
    // has no business naming one.
    if !source::names_repository(url) || url.contains("::") {
        return Err(Unfetchable::NotAUrl(url.to_owned()));
    }
    Ok(Origin::Git(Spec::remote(url, reference, path)))
}

/// `owner/repo` as the URL the skills CLI clones it from.
fn github_url(owner_repo: &str) -> Result<String, Unfetchable> {
    let bare = owner_repo.trim_end_matches('/');
    let bare = bare.strip_suffix(".git").unwrap_or(bare);
    let mut parts = bare.split('/');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(owner), Some(repo), None)
            if source::names_repository(bare) && !owner.is_empty() && !repo.is_empty() =>
        {
            Ok(format!("https://github.com/{bare}.git"))
        }
        _ => Err(Unfetchable::NotAUrl(owner_repo.to_owned())),
    }
}

/// `path` with `.` and `x/..` folded, without touching the disk.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locked(source: &str, source_type: &str, url: Option<&str>, path: Option<&str>) -> Locked {
        Locked {
            source: source.into(),
            source_type: source_type.into(),
            source_url: url.map(str::to_owned),
            reference: Some("main".into()),
            skill_path: path.map(str::to_owned),
            computed_hash: "0".repeat(64),
            commit: None,
        }
    }

    #[test]
    fn each_kind_of_source_is_fetched_from_where_the_skills_cli_fetches_it() {
        let top = Path::new("/w/p");
        let git = |l: &Locked| match origin(l, top) {
            Ok(Origin::Git(spec)) => (spec.url, spec.path, spec.reference),
            other => panic!("{other:?}"),
        };
        let (url, path, reference) = git(&locked("o/r", "github", None, Some("skills/a/SKILL.md")));
        assert_eq!(url, "https://github.com/o/r.git");
        assert_eq!(path.as_deref(), Some("skills/a"));
        assert_eq!(reference.as_deref(), Some("main"));
        let (url, path, _) = git(&locked(
            "http://127.0.0.1:9/r.git",
            "git",
            Some("http://127.0.0.1:9/r.git"),
            Some("SKILL.md"),
        ));
        assert_eq!(url, "http://127.0.0.1:9/r.git");
        assert_eq!(path, None);
        assert_eq!(
            origin(&locked("./vendor/x", LOCAL, None, Some("a/SKILL.md")), top),
            Ok(Origin::Folder(PathBuf::from("/w/p/vendor/x/a")))
        );
        assert_eq!(
            origin(&locked("../up", LOCAL, None, None), top),
            Ok(Origin::Folder(PathBuf::from("/w/up")))
        );
        for (source, kind) in [("x", "well-known"), ("x", "node_modules")] {
            assert!(matches!(
                origin(&locked(source, kind, None, None), top),
                Err(Unfetchable::Kind(_))
            ));
        }
        for bad in ["a/b/c", "not a url", "ext::sh -c x"] {
            assert!(
                origin(&locked(bad, "github", None, None), top).is_err(),
                "{bad}"
            );
            assert!(
                origin(&locked(bad, "git", None, None), top).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_folder_is_the_skill_paths_without_its_manifest() {
        let of = |p: Option<&str>| folder(&locked("o/r", "github", None, p));
        assert_eq!(
            of(Some("skills/a/SKILL.md")),
            Some(vec!["skills".into(), "a".into()])
        );
        assert_eq!(of(Some("SKILL.md")), Some(vec![]));
        assert_eq!(
            of(Some("skills/a")),
            Some(vec!["skills".into(), "a".into()])
        );
        assert_eq!(of(None), None);
    }
}
