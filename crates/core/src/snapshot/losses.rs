//! The one rule for every operation that replaces or removes a skill folder (restore, a
//! forced or updating import, and removal): what a snapshot of the folder would not keep
//! whole is never deleted. Such a folder is refused with one sentence naming what would be
//! lost, so the user can move it out first.

use std::path::{Path, PathBuf};

use super::walk::{LeftOut, Listing};
use super::{COPY_BOUND, SnapshotError};

/// What replacing or removing a folder would lose.
#[derive(Debug, thiserror::Error)]
pub enum WouldLose {
    #[error(
        "{verb} {} would lose what no snapshot keeps: {}; move those out of the folder first",
        .dir.display(),
        .left_out.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    )]
    LeftOut {
        verb: &'static str,
        dir: PathBuf,
        left_out: Vec<LeftOut>,
    },
    #[error(
        "{verb} {} would lose files no snapshot of it can keep whole: it is over the {} MiB copy bound",
        .dir.display(),
        COPY_BOUND >> 20
    )]
    TooLarge { verb: &'static str, dir: PathBuf },
    #[error(transparent)]
    Unreadable(#[from] SnapshotError),
}

/// Refuse to `verb` (`"restoring"`, `"replacing"`, `"removing"`) the skill folder at `dir`
/// when a snapshot of it would not hold all it holds.
///
/// # Errors
/// [`WouldLose`] names what would be lost, or why the folder could not be read whole.
pub fn nothing_lost(verb: &'static str, dir: &Path) -> Result<Listing, WouldLose> {
    let listing = Listing::read(dir)?;
    nothing_lost_in(verb, &listing)?;
    Ok(listing)
}

/// As [`nothing_lost`], for a folder already listed.
///
/// # Errors
/// As [`nothing_lost`].
pub fn nothing_lost_in(verb: &'static str, listing: &Listing) -> Result<(), WouldLose> {
    if !listing.left_out.is_empty() {
        return Err(WouldLose::LeftOut {
            verb,
            dir: listing.root.clone(),
            left_out: listing.left_out.clone(),
        });
    }
    if listing.total_size() > COPY_BOUND {
        return Err(WouldLose::TooLarge {
            verb,
            dir: listing.root.clone(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn version_control_links_and_special_files_would_be_lost() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("demo");
        fs::create_dir_all(dir.join(".git")).unwrap();
        fs::write(dir.join("SKILL.md"), "---\nname: demo\n---\n").unwrap();
        assert!(nothing_lost("replacing", &dir).is_err());
        fs::write(dir.join(".git/config"), "[core]").unwrap();
        let error = nothing_lost("replacing", &dir).unwrap_err().to_string();
        assert!(
            error.starts_with("replacing ") && error.contains(".git"),
            "{error}"
        );
        fs::remove_dir_all(dir.join(".git")).unwrap();
        assert!(nothing_lost("replacing", &dir).is_ok());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", dir.join("out")).unwrap();
            let error = nothing_lost("removing", &dir).unwrap_err().to_string();
            assert!(error.contains("out (a link"), "{error}");
        }
    }
}
