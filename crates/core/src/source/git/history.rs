//! A repository's recent history, for a lock that names no commit: the skills CLI records a
//! skill's branch or tag (`ref`) and the hash of its folder (`computedHash`), never the commit,
//! so reproducing its lock means finding a commit whose folder hashes to that value. The ref
//! is fetched [`HISTORY_COMMITS`](crate::limits::HISTORY_COMMITS) commits deep (shallow
//! beyond, with the same hardened git, bounds on disk and deadline as every fetch), and only
//! the commits at which the folder changed are read: the folder holds between two of them
//! what it got at the newer, so each of its states is read once.

use super::{FetchError, Fetched, ReadError, Spec, args, fetch_into};
use crate::bundle::{Bundle, Limits};

/// A ref fetched with its recent history into a temporary bare repository, removed when
/// dropped.
#[derive(Debug)]
pub struct History {
    fetched: Fetched,
}

/// Fetch `spec`'s ref `depth` commits deep, telling `progress` what is being done.
///
/// # Errors
/// [`FetchError`]: no `git`, or git's own message.
pub fn fetch(
    spec: &Spec,
    depth: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<History, FetchError> {
    let what = spec.shown();
    progress(&format!(
        "fetching the last {depth} commits of {what} with git"
    ));
    let (dir, commit) = fetch_into(spec, &what, None, depth)?;
    Ok(History {
        fetched: Fetched { dir, what, commit },
    })
}

impl History {
    /// The commit the ref is at.
    pub fn tip(&self) -> &str {
        &self.fetched.commit
    }

    /// The commits fetched at which `folder` (`/`-separated parts, none for the top) took
    /// the content it holds until the next of them, newest first; the oldest commit fetched
    /// counts as one, since what came before it was not fetched.
    ///
    /// # Errors
    /// [`FetchError`]: git's own message.
    pub fn changes(&self, folder: &[&str]) -> Result<Vec<String>, FetchError> {
        let git = self.fetched.git();
        let path = folder.join("/");
        let mut words = vec!["rev-list", self.tip(), "--"];
        if !path.is_empty() {
            words.push(&path);
        }
        let listed = git.run(Some(self.fetched.dir.path()), &args(&words))?;
        Ok(listed
            .lines()
            .map(str::trim)
            .filter(|line| super::objects::is_object_id(line))
            .map(str::to_owned)
            .collect())
    }

    /// The bundle at `folder` of `commit`, one of the commits fetched, read as
    /// [`Fetched::read`] reads one.
    ///
    /// # Errors
    /// As [`Fetched::read`].
    pub fn read(
        &self,
        commit: &str,
        folder: &[&str],
        limits: &Limits,
    ) -> Result<Bundle, ReadError> {
        self.fetched.read_at(commit, folder, limits)
    }
}
