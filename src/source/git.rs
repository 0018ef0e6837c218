//! Fetching a git repository for an import, with the user's own `git` program: their
//! credential helpers, SSH configuration, proxies and certificates work as in their shell, and
//! nothing here speaks a network protocol or holds a secret.
//!
//! The fetch is shallow (one commit) into a temporary folder that is removed when the
//! [`Fetched`] is dropped, whatever happened: `git clone --depth 1 [--branch REF]` for the
//! default branch, a branch or a tag; `git init` + `git fetch --depth 1 URL COMMIT` for a full
//! commit id (a clone cannot start at one). `GIT_TERMINAL_PROMPT=0` makes git fail rather than
//! wait for a password nobody is there to type, and the variables that would point git at
//! another repository (`GIT_DIR`, `GIT_WORK_TREE`, ...) are cleared.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::text::sanitize;

/// A repository to fetch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The repository as it is recorded: the URL as given (GitHub shorthand as the URL it
    /// stands for), or a local repository's absolute path.
    pub repository: String,
    /// What git is asked to fetch from.
    pub url: String,
    /// The branch, tag or full commit id; none for the default branch.
    pub reference: Option<String>,
    /// The folder of the repository the bundle is, `/`-separated; none for its top.
    pub path: Option<String>,
}

impl Spec {
    /// A repository at a URL git understands.
    pub fn remote(url: &str, reference: Option<&str>, path: Option<&str>) -> Self {
        Self {
            repository: url.to_owned(),
            url: url.to_owned(),
            reference: reference.map(str::to_owned),
            path: path.map(str::to_owned),
        }
    }

    /// The repository in the folder `dir` (absolute), fetched through a `file://` URL: git
    /// makes a shallow copy only of a repository it reaches as a URL.
    pub fn local(dir: &Path, reference: Option<&str>, path: Option<&str>) -> Self {
        Self {
            repository: dir.display().to_string(),
            url: format!("file://{}", dir.display()),
            reference: reference.map(str::to_owned),
            path: path.map(str::to_owned),
        }
    }

    /// Where a skill recorded as coming from `upstream` is fetched from again: its repository
    /// (a local one by its path) at its ref, the skill's own folder in it.
    pub fn recorded(upstream: &crate::record::upstream::Upstream) -> Self {
        let path = Some(upstream.path.as_str()).filter(|p| !p.is_empty());
        let reference = upstream.reference.as_deref();
        let local = Path::new(&upstream.repository);
        if local.is_absolute() {
            Self::local(local, reference, path)
        } else {
            Self::remote(&upstream.repository, reference, path)
        }
    }

    /// The repository and ref as a sentence names them, a password in the URL hidden.
    pub fn shown(&self) -> String {
        let repository = without_password(&self.repository);
        match &self.reference {
            Some(reference) => format!("{repository} at {reference}"),
            None => repository,
        }
    }
}

/// `url` with the password of its user part, if it has one, replaced by `***`.
fn without_password(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_owned();
    };
    let rest = &url[scheme_end + 3..];
    let host_end = rest.find('/').unwrap_or(rest.len());
    match rest[..host_end].rfind('@') {
        Some(at) => match rest[..at].split_once(':') {
            Some((user, _)) => format!("{}{user}:***{}", &url[..scheme_end + 3], &rest[at..]),
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

/// Why a repository could not be fetched.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error(
        "importing from a git repository uses your own git program, and none was found on PATH; install git, or import a folder or an archive"
    )]
    NoGit,
    #[error("git could not fetch {what}: {message}")]
    Failed { what: String, message: String },
    #[error("git could not be run to fetch {what}: {error}")]
    Unrunnable { what: String, error: String },
    #[error("no temporary folder could be made to fetch {what} into: {error}")]
    Temporary { what: String, error: String },
}

/// A repository fetched into a temporary folder, removed when this is dropped.
#[derive(Debug)]
pub struct Fetched {
    dir: tempfile::TempDir,
    /// The commit fetched, as its full id.
    pub commit: String,
}

impl Fetched {
    /// The work tree of the fetched commit.
    pub fn root(&self) -> PathBuf {
        self.dir.path().join("repository")
    }
}

/// The temporary folder a fetch works in, removed when dropped.
fn temporary(what: &str) -> Result<tempfile::TempDir, FetchError> {
    tempfile::Builder::new()
        .prefix("skilldeck-git-")
        .tempdir()
        .map_err(|error| FetchError::Temporary {
            what: what.to_owned(),
            error: error.to_string(),
        })
}

/// Fetch `spec` shallow into a temporary folder, telling `progress` what is being done.
///
/// # Errors
/// [`FetchError`]: no `git`, or git's own message (made safe for a terminal) when it failed.
pub fn fetch(spec: &Spec, progress: &mut dyn FnMut(&str)) -> Result<Fetched, FetchError> {
    let what = spec.shown();
    let dir = temporary(&what)?;
    let work = dir.path().join("repository");
    let work_arg = work.as_os_str();
    progress(&format!("fetching {what} with git"));
    let git = Git { what: &what };
    match spec.reference.as_deref() {
        Some(commit) if is_full_commit(commit) => {
            git.run(None, &["init", "--quiet"], Some(work_arg))?;
            git.run(
                Some(&work),
                &[
                    "fetch",
                    "--quiet",
                    "--depth",
                    "1",
                    "--no-tags",
                    "--",
                    &spec.url,
                    commit,
                ],
                None,
            )?;
            git.run(Some(&work), &["checkout", "--quiet", "FETCH_HEAD"], None)?;
        }
        reference => {
            let mut args = vec!["clone", "--quiet", "--depth", "1", "--no-tags"];
            if let Some(reference) = reference {
                args.extend(["--branch", reference]);
            }
            args.extend(["--", &spec.url]);
            git.run(None, &args, Some(work_arg)).map_err(|error| {
                match (error, reference) {
                    // A short commit id is a ref to clone, which git says it cannot find.
                    (FetchError::Failed { what, message }, Some(r))
                        if r.len() >= 4 && r.chars().all(|c| c.is_ascii_hexdigit()) =>
                    {
                        FetchError::Failed {
                            what,
                            message: format!(
                                "{message} (a commit is fetched by its full 40-character id)"
                            ),
                        }
                    }
                    (error, _) => error,
                }
            })?;
        }
    }
    let commit = git.run(Some(&work), &["rev-parse", "HEAD"], None)?;
    let commit = commit.trim().to_owned();
    // The repository's own folder is no part of the bundle: gone, it is not listed as set
    // aside, nor walked. Left behind, the temporary folder's removal takes it anyway.
    let _ = std::fs::remove_dir_all(work.join(".git"));
    progress(&format!(
        "fetched commit {}",
        &commit[..commit.len().min(12)]
    ));
    Ok(Fetched { dir, commit })
}

/// What `spec`'s ref names upstream now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Latest {
    /// The commit the branch, the tag (peeled) or the default branch is at.
    Commit(String),
    /// The ref is a commit id: it never moves.
    Pinned,
}

/// Ask the repository where `spec`'s ref is now, without fetching its contents
/// (`git ls-remote`): what `outdated` compares the recorded commit with.
///
/// # Errors
/// [`FetchError`]: no `git`, git's own message, or a ref the repository does not have.
pub fn latest(spec: &Spec, progress: &mut dyn FnMut(&str)) -> Result<Latest, FetchError> {
    let reference = spec.reference.as_deref();
    if reference.is_some_and(is_full_commit) {
        return Ok(Latest::Pinned);
    }
    let what = spec.shown();
    progress(&format!("asking {what} where it is"));
    let git = Git { what: &what };
    let asked = reference.unwrap_or("HEAD");
    // git matches patterns against the names' ends, so an annotated tag's commit (`^{}`) is
    // asked for by name.
    let peeled = format!("{asked}^{{}}");
    let listed = git.run(None, &["ls-remote", "--", &spec.url, asked, &peeled], None)?;
    // A tag is listed twice when annotated: its own object, then `^{}`, the commit it names.
    let wanted = |name: &str| match reference {
        None => name == "HEAD",
        Some(r) => {
            name == format!("refs/heads/{r}")
                || name == format!("refs/tags/{r}")
                || name == format!("refs/tags/{r}^{{}}")
                || name == r
        }
    };
    let mut found: Option<(bool, String)> = None;
    for line in listed.lines() {
        let Some((commit, name)) = line.split_once('\t') else {
            continue;
        };
        if wanted(name) {
            let peeled = name.ends_with("^{}");
            if found
                .as_ref()
                .is_none_or(|(was_peeled, _)| peeled && !was_peeled)
            {
                found = Some((peeled, commit.to_owned()));
            }
        }
    }
    found
        .map(|(_, commit)| Latest::Commit(commit))
        .ok_or_else(|| FetchError::Failed {
            what,
            message: format!("it has no branch or tag named {asked}"),
        })
}

/// Where a ref is now, and the git tree ids of folders there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trees {
    pub commit: String,
    /// Each folder asked for, in order: its tree id, or `None` when the commit has no such
    /// folder.
    pub trees: Vec<Option<String>>,
}

/// The ids of the git trees of `folders` (`/`-separated, empty for the top) of `spec`'s
/// repository at its ref now: what the skills CLI and gh skill record of a skill
/// (`skillFolderHash`, `github-tree-sha`), so what tells whether the skill's folder, rather
/// than the repository, has moved. Fetched once, shallow and with no file contents
/// (`--filter=blob:none`; a server that cannot filter sends them anyway, which costs time, not
/// the answer), into a temporary folder removed after.
///
/// # Errors
/// [`FetchError`]: no `git`, or git's own message.
pub fn trees(
    spec: &Spec,
    folders: &[&str],
    progress: &mut dyn FnMut(&str),
) -> Result<Trees, FetchError> {
    let what = spec.shown();
    let dir = temporary(&what)?;
    progress(&format!("asking {what} for its folders' trees"));
    let git = Git { what: &what };
    let work = dir.path();
    git.run(Some(work), &["init", "--quiet", "--bare"], None)?;
    let asked = spec.reference.as_deref().unwrap_or("HEAD");
    git.run(
        Some(work),
        &[
            "fetch",
            "--quiet",
            "--depth",
            "1",
            "--filter=blob:none",
            "--no-tags",
            "--",
            &spec.url,
            asked,
        ],
        None,
    )?;
    let commit = git.run(Some(work), &["rev-parse", "FETCH_HEAD^{commit}"], None)?;
    let trees = folders
        .iter()
        .map(|folder| {
            let folder = folder.trim_matches('/');
            if folder.is_empty() {
                let top = git.run(Some(work), &["rev-parse", "FETCH_HEAD^{tree}"], None);
                return top.ok().map(|tree| tree.trim().to_owned());
            }
            // `MODE tree ID\tPATH` for a folder; a file, or nothing, is no skill folder.
            let listed = git.run(Some(work), &["ls-tree", "FETCH_HEAD", "--", folder], None);
            let listed = listed.ok()?;
            let (entry, _) = listed.lines().next()?.split_once('\t')?;
            match entry.split(' ').collect::<Vec<_>>()[..] {
                [_, "tree", id] => Some(id.to_owned()),
                _ => None,
            }
        })
        .collect();
    Ok(Trees {
        commit: commit.trim().to_owned(),
        trees,
    })
}

/// A full SHA-1 or SHA-256 commit id.
fn is_full_commit(reference: &str) -> bool {
    matches!(reference.len(), 40 | 64) && reference.chars().all(|c| c.is_ascii_hexdigit())
}

struct Git<'a> {
    what: &'a str,
}

impl Git<'_> {
    /// Run git with `args` (then `last`, a path) in `cwd`; its standard output.
    fn run(
        &self,
        cwd: Option<&Path>,
        args: &[&str],
        last: Option<&std::ffi::OsStr>,
    ) -> Result<String, FetchError> {
        let mut command = Command::new("git");
        command
            .args(["-c", "advice.detachedHead=false"])
            .args(args)
            .args(last)
            .env("GIT_TERMINAL_PROMPT", "0")
            .stdin(Stdio::null());
        for variable in [
            "GIT_DIR",
            "GIT_WORK_TREE",
            "GIT_INDEX_FILE",
            "GIT_OBJECT_DIRECTORY",
            "GIT_ALTERNATE_OBJECT_DIRECTORIES",
            "GIT_NAMESPACE",
            "GIT_CEILING_DIRECTORIES",
        ] {
            command.env_remove(variable);
        }
        if let Some(cwd) = cwd {
            command.current_dir(cwd);
        }
        let output = command.output().map_err(|error| match error.kind() {
            io::ErrorKind::NotFound => FetchError::NoGit,
            _ => FetchError::Unrunnable {
                what: self.what.to_owned(),
                error: error.to_string(),
            },
        })?;
        if output.status.success() {
            return Ok(String::from_utf8_lossy(&output.stdout).into_owned());
        }
        let said = String::from_utf8_lossy(&output.stderr);
        let lines: Vec<String> = sanitize::lines(&said)
            .into_iter()
            .map(|line| line.trim().to_owned())
            .filter(|line| !line.is_empty())
            .collect();
        let message = if lines.is_empty() {
            format!("git {} ended with {}", args[0], output.status)
        } else {
            lines.join("; ")
        };
        Err(FetchError::Failed {
            what: self.what.to_owned(),
            message,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_in_a_url_is_never_shown() {
        assert_eq!(
            without_password("https://me:s3cret@host/r.git"),
            "https://me:***@host/r.git"
        );
        assert_eq!(without_password("https://me@host/r"), "https://me@host/r");
        assert_eq!(without_password("git@host:r"), "git@host:r");
    }

    #[test]
    fn only_full_ids_are_fetched_as_commits() {
        assert!(is_full_commit(&"a".repeat(40)));
        assert!(!is_full_commit("abc1234"));
        assert!(!is_full_commit(&"g".repeat(40)));
    }
}
