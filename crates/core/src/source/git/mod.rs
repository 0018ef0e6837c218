//! Fetching a git repository for an import, with the user's own `git` program (its
//! environment hardened, [`command`]): ssh keys and agents and proxies from the environment
//! work as in their shell, and nothing here speaks a network protocol or holds a secret.
//!
//! The fetch is shallow (one commit) into a bare repository in a temporary folder that is
//! removed when the [`Fetched`] is dropped, whatever happened: `git init --bare` then `git fetch
//! --depth 1 URL REF` for the default branch (`HEAD`), a branch, a tag or a full commit id.
//! Nothing is checked out: the commit's tree is listed (`git ls-tree`, every size known), the
//! listing judged against the import's bounds, and only then are the files held read, from
//! git's objects through the bounded reader ([`objects`]) — so a small repository whose files
//! expand to gigabytes is refused from its listing, and no file is ever written. git's own
//! filters, attributes and hooks never run, and a link is read as a link.

pub mod command;
pub mod history;
pub mod objects;

use std::ffi::OsStr;
use std::path::Path;

use crate::bundle::tree::{self, Listed};
use crate::bundle::{Bundle, EntryKind, Limits, Refusal};
use crate::source::child::Writes;
use command::Git;
use objects::{Blobs, EntryMode, Malformed};

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

/// A commit fetched into a temporary bare repository, removed when this is dropped.
#[derive(Debug)]
pub struct Fetched {
    dir: tempfile::TempDir,
    what: String,
    /// The commit fetched, as its full id.
    pub commit: String,
}

/// Why a fetched commit's folder could not be read as a bundle.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Git(#[from] FetchError),
    /// The folder asked for is not a folder of the commit.
    #[error("the repository holds no such folder at commit {0}")]
    NoSuchFolder(String),
    #[error(transparent)]
    Refused(#[from] Refusal),
}

impl Fetched {
    fn git(&self) -> Git<'_> {
        Git {
            what: &self.what,
            deadline: command::deadline(),
            writes: Some(bounded(self.dir.path())),
        }
    }

    /// The bundle at `folder` (`/`-separated parts, none for the top) of the commit, read
    /// within `limits` without writing a file: the tree is listed, the listing judged, then
    /// the files held are read from git's objects, each exactly its listed size.
    ///
    /// # Errors
    /// [`ReadError`]: no such folder, the bundle's refusal, or git's own failure.
    pub fn read(&self, folder: &[&str], limits: &Limits) -> Result<Bundle, ReadError> {
        self.read_at(&self.commit, folder, limits)
    }

    /// [`Fetched::read`] at `commit`, one of the commits fetched (a deeper fetch's history,
    /// [`history`]).
    ///
    /// # Errors
    /// As [`Fetched::read`].
    pub fn read_at(
        &self,
        commit: &str,
        folder: &[&str],
        limits: &Limits,
    ) -> Result<Bundle, ReadError> {
        let git = self.git();
        let repo = Some(self.dir.path());
        let tree = if folder.is_empty() {
            format!("{commit}^{{tree}}")
        } else {
            format!("{commit}:{}", folder.join("/"))
        };
        // A path through a link, to a file, or to nothing is no folder of the commit: the
        // path is resolved in git's tree, lexically, never on a disk.
        let kind = git.run(repo, &args(&["cat-file", "-t", "--", &tree]));
        if kind.map(|kind| kind.trim() != "tree").unwrap_or(true) {
            return Err(ReadError::NoSuchFolder(commit.to_owned()));
        }
        let entries = self.list(&git, &tree, limits)?;
        let name = folder.last().copied().unwrap_or("repository");
        let listed: Vec<(Vec<u8>, Listed)> = entries
            .iter()
            .map(|entry| (entry.path.clone(), listed(entry)))
            .collect();
        let judged = tree::judge(name, &listed, limits)?;
        let wanted: Vec<(String, u64)> = judged
            .files()
            .iter()
            .map(|&at| (entries[at].id.clone(), entries[at].size.unwrap_or(0)))
            .collect();
        let contents = self.blobs(&git, wanted)?;
        Ok(judged.finish(contents)?)
    }

    /// The entries of `tree`, recursively: a listing longer than the bundle's entries could
    /// take is refused as too many entries before git has finished writing it.
    fn list(
        &self,
        git: &Git,
        tree: &str,
        limits: &Limits,
    ) -> Result<Vec<objects::TreeEntry>, ReadError> {
        let bound = listing_bytes(limits);
        let mut gathered = crate::source::child::Gathered::new(bound);
        let list_args = args(&["ls-tree", "-r", "-t", "-l", "-z", "--full-tree", tree]);
        let ran = git.stream(Some(self.dir.path()), &list_args, None, &mut |chunk| {
            gathered.take(chunk)
        })?;
        if gathered.over {
            return Err(Refusal::TooManyEntries(limits.entries).into());
        }
        git.judge(&list_args, ran)?;
        objects::parse_tree(&gathered.bytes).map_err(|error| self.malformed(&error))
    }

    /// The blobs `wanted`, in order, through `git cat-file --batch`, held to their sizes.
    fn blobs(&self, git: &Git, wanted: Vec<(String, u64)>) -> Result<Vec<Vec<u8>>, ReadError> {
        if wanted.is_empty() {
            return Ok(Vec::new());
        }
        let input = Blobs::input(&wanted);
        let mut blobs = Blobs::new(wanted);
        let mut bad: Option<Malformed> = None;
        let batch = args(&["cat-file", "--batch"]);
        let ran = git.stream(
            Some(self.dir.path()),
            &batch,
            Some(input),
            &mut |chunk| match blobs.feed(chunk) {
                Ok(()) => std::ops::ControlFlow::Continue(()),
                Err(error) => {
                    bad = Some(error);
                    std::ops::ControlFlow::Break(())
                }
            },
        )?;
        if let Some(error) = bad {
            return Err(self.malformed(&error));
        }
        git.judge(&batch, ran)?;
        blobs.finish().map_err(|error| self.malformed(&error))
    }

    fn malformed(&self, error: &Malformed) -> ReadError {
        ReadError::Git(FetchError::Failed {
            what: self.what.clone(),
            message: error.to_string(),
        })
    }
}

/// The most bytes a tree listing may take for the bundle it lists to fit: a line per entry,
/// each at most its path and the fixed fields (mode, type, a SHA-256 id, a size), for as many
/// entries as a bundle holds and as many again set aside.
fn listing_bytes(limits: &Limits) -> usize {
    const FIXED: usize = 6 + 1 + 6 + 1 + 64 + 1 + 20 + 1 + 1;
    2 * (limits.entries + 1) * (limits.path_bytes + FIXED)
}

/// What a listed entry is to the bundle.
fn listed(entry: &objects::TreeEntry) -> Listed {
    match entry.mode {
        EntryMode::File | EntryMode::Executable => Listed::File {
            size: entry.size.unwrap_or(0),
            executable: entry.mode == EntryMode::Executable,
        },
        EntryMode::Link => Listed::Other(EntryKind::SymbolicLink),
        // A checkout leaves a submodule as an empty folder.
        EntryMode::Folder | EntryMode::Submodule => Listed::Folder,
    }
}

/// `words` as git's arguments.
fn args<'a>(words: &[&'a str]) -> Vec<&'a OsStr> {
    words.iter().map(|word| OsStr::new(*word)).collect()
}

/// The temporary folder a fetch works in, removed when dropped.
fn temporary(what: &str) -> Result<tempfile::TempDir, FetchError> {
    tempfile::Builder::new()
        .prefix("skilldeck-git-")
        .tempdir()
        .map_err(|error| FetchError::Temporary {
            what: what.to_owned(),
            error: crate::fs::said(&error).to_string(),
        })
}

/// The bound on a repository skilldeck fetches into `dir`: what a server sends lands on disk
/// before any import bound reads it, so the repository may hold no more than an import may
/// read from any source.
fn bounded(dir: &Path) -> Writes {
    Writes {
        dir: dir.to_path_buf(),
        most: crate::limits::limits().stream_bytes,
    }
}

/// A new bare repository in a temporary folder, and `spec`'s ref fetched into it shallow,
/// `depth` commits deep (`--filter` when given); the folder and the commit fetched.
fn fetch_into(
    spec: &Spec,
    what: &str,
    filter: Option<&str>,
    depth: usize,
) -> Result<(tempfile::TempDir, String), FetchError> {
    let dir = temporary(what)?;
    let git = Git {
        what,
        deadline: command::deadline(),
        writes: Some(bounded(dir.path())),
    };
    let work = Some(dir.path());
    git.run(work, &args(&["init", "--quiet", "--bare", "--template="]))?;
    let asked = spec.reference.as_deref().unwrap_or("HEAD");
    // Progress, not `--quiet`: git reports while a pack arrives, which is what tells a slow
    // server from one that stopped answering.
    let depth = depth.max(1).to_string();
    let mut fetch = vec!["fetch", "--progress", "--depth", &depth, "--no-tags"];
    fetch.extend(filter);
    fetch.extend(["--", &spec.url, asked]);
    let fetched = git.run(work, &args(&fetch));
    fetched.map_err(|error| match (error, spec.reference.as_deref()) {
        // A short commit id is a ref to fetch, which git says it cannot find.
        (FetchError::Failed { what, message }, Some(r))
            if r.len() >= 4 && r.chars().all(|c| c.is_ascii_hexdigit()) && !is_full_commit(r) =>
        {
            FetchError::Failed {
                what,
                message: format!("{message} (a commit is fetched by its full 40-character id)"),
            }
        }
        (error, _) => error,
    })?;
    let commit = git.run(
        work,
        &args(&["rev-parse", "--verify", "FETCH_HEAD^{commit}"]),
    )?;
    let commit = commit.trim().to_owned();
    if !objects::is_object_id(&commit) {
        return Err(FetchError::Failed {
            what: what.to_owned(),
            message: "git did not name the commit it fetched".to_owned(),
        });
    }
    Ok((dir, commit))
}

/// Fetch `spec`'s commit shallow into a temporary bare repository, telling `progress` what
/// is being done; its files are read with [`Fetched::read`].
///
/// # Errors
/// [`FetchError`]: no `git`, or git's own message (made safe for a terminal) when it failed
/// or was stopped at its deadline.
pub fn fetch(spec: &Spec, progress: &mut dyn FnMut(&str)) -> Result<Fetched, FetchError> {
    let what = spec.shown();
    progress(&format!("fetching {what} with git"));
    let (dir, commit) = fetch_into(spec, &what, None, 1)?;
    progress(&format!(
        "fetched commit {}",
        &commit[..commit.len().min(12)]
    ));
    Ok(Fetched { dir, what, commit })
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
    let git = Git {
        what: &what,
        deadline: command::deadline(),
        writes: None,
    };
    let asked = reference.unwrap_or("HEAD");
    // git matches patterns against the names' ends, so an annotated tag's commit (`^{}`) is
    // asked for by name.
    let peeled = format!("{asked}^{{}}");
    let listed = git.run(None, &args(&["ls-remote", "--", &spec.url, asked, &peeled]))?;
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
    progress(&format!("asking {what} for its folders' trees"));
    let (dir, commit) = fetch_into(spec, &what, Some("--filter=blob:none"), 1)?;
    let git = Git {
        what: &what,
        deadline: command::deadline(),
        writes: Some(bounded(dir.path())),
    };
    let work = dir.path();
    let trees = folders
        .iter()
        .map(|folder| folder_tree(&git, work, &commit, folder))
        .collect();
    Ok(Trees { commit, trees })
}

/// The ids of the git trees of `folders` at each of `commits` (full ids) of `spec`'s
/// repository, one list per commit: whether a skill's own folder changed between the commit
/// it was installed from and the one its ref is at now, when other files of the repository
/// did. Fetched once, shallow and with no file contents, as [`trees`] is.
///
/// # Errors
/// [`FetchError`]: no `git`, or git's own message (a commit the repository no longer has).
pub fn trees_at(
    spec: &Spec,
    commits: &[&str],
    folders: &[&str],
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<Vec<Option<String>>>, FetchError> {
    let what = spec.shown();
    progress(&format!(
        "asking {what} for its folders' trees at each commit"
    ));
    let dir = temporary(&what)?;
    let git = Git {
        what: &what,
        deadline: command::deadline(),
        writes: Some(bounded(dir.path())),
    };
    let work = dir.path();
    git.run(
        Some(work),
        &args(&["init", "--quiet", "--bare", "--template="]),
    )?;
    let mut fetch = vec![
        "fetch",
        "--progress",
        "--depth",
        "1",
        "--no-tags",
        "--filter=blob:none",
        "--",
        &spec.url,
    ];
    fetch.extend(commits.iter().copied().filter(|c| is_full_commit(c)));
    git.run(Some(work), &args(&fetch))?;
    Ok(commits
        .iter()
        .map(|commit| {
            folders
                .iter()
                .map(|folder| folder_tree(&git, work, commit, folder))
                .collect()
        })
        .collect())
}

/// The id of the tree of `folder` (`/`-separated, empty for the top) at `commit`, in the
/// repository at `work`; `None` when the commit has no such folder.
fn folder_tree(git: &Git<'_>, work: &Path, commit: &str, folder: &str) -> Option<String> {
    let work = Some(work);
    let folder = folder.trim_matches('/');
    if folder.is_empty() {
        let top = git.run(work, &args(&["rev-parse", &format!("{commit}^{{tree}}")]));
        return top.ok().map(|tree| tree.trim().to_owned());
    }
    // `MODE tree ID\tPATH` for a folder; a file, or nothing, is no skill folder.
    let listed = git.run(work, &args(&["ls-tree", commit, "--", folder]));
    let listed = listed.ok()?;
    let (entry, _) = listed.lines().next()?.split_once('\t')?;
    match entry.split(' ').collect::<Vec<_>>()[..] {
        [_, "tree", id] => Some(id.to_owned()),
        _ => None,
    }
}

/// A full SHA-1 or SHA-256 commit id.
fn is_full_commit(reference: &str) -> bool {
    matches!(reference.len(), 40 | 64) && reference.chars().all(|c| c.is_ascii_hexdigit())
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
