//! The ownership record (`installed-by`, `installed-version`, `content-digest` in the
//! frontmatter `metadata:` map) and the content digest, both exactly as agent-skill-installer
//! 0.2.1 writes and reads them, so that the two tools agree on every skill.

mod digest;
mod parse;
mod stamp;
mod unstamp;
pub mod upstream;

use std::fmt;

use serde::Serialize;

pub use digest::{
    Contents, Digest, IGNORED_NAMES, Obstacle, SkillFile, blanked, digest_of, lower_hex,
    portable_path,
};
pub use parse::parse;
pub use stamp::{INSTALLED_BY, INSTALLED_VERSION, StampError, Stamped, stamp};
pub use unstamp::unstamp;

/// The `metadata` keys that make up the record, named in the skill model (which leaves them
/// out of what a skill declares) so that the model does not depend on the record.
pub use crate::skill::RECORD_KEYS;

/// Who installed a skill, at which version, and the digest its files had then.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
    pub installed_by: String,
    pub installed_version: String,
    pub content_digest: String,
}

impl Record {
    /// Whether the version is one the installer could read back (semantic versioning); the
    /// installer treats a record with any other version as someone else's.
    pub fn version_is_semver(&self) -> bool {
        semver::Version::parse(&self.installed_version).is_ok()
    }
}

/// Whether a skill's files still match its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// A record, and the files match its digest.
    Intact,
    /// A record, and the files do not match its digest.
    Modified,
    /// A record whose hash cannot be recomputed from the files on disk, or that holds none;
    /// the skill's record says why.
    Unverifiable,
    /// No record.
    Unrecorded,
    /// The skill could not be read far enough to say.
    Unreadable,
}

impl State {
    pub const ALL: [State; 5] = [
        State::Intact,
        State::Modified,
        State::Unverifiable,
        State::Unrecorded,
        State::Unreadable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            State::Intact => "intact",
            State::Modified => "modified",
            State::Unverifiable => "unverifiable",
            State::Unrecorded => "unrecorded",
            State::Unreadable => "unreadable",
        }
    }

    /// The state of a skill whose `SKILL.md` was read, given its record and what its files
    /// digest to now.
    ///
    /// This is the installer's ladder: a recorded skill is unmodified only when its files can
    /// be digested and match (a link or special file inside makes it modified). Where skilldeck
    /// could not read a file, it says so instead of guessing; where it would not (files beyond
    /// the digest's budget), the record cannot prove the files either way.
    pub fn judge(record: Option<&Record>, now: Result<&Digest, &Obstacle>) -> State {
        match (record, now) {
            (None, _) => State::Unrecorded,
            (Some(record), Ok(digest)) if *digest == *record.content_digest => State::Intact,
            (Some(_), Ok(_)) => State::Modified,
            (Some(_), Err(obstacle)) if obstacle.is_foreign_entry() => State::Modified,
            (Some(_), Err(obstacle)) if obstacle.is_over_budget() => State::Unverifiable,
            (Some(_), Err(_)) => State::Unreadable,
        }
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn record(digest: &str) -> Record {
        Record {
            installed_by: "p".into(),
            installed_version: "1.0.0".into(),
            content_digest: digest.into(),
        }
    }

    #[test]
    fn the_ladder() {
        let now = digest_of([(std::path::Path::new("SKILL.md"), &b"x"[..])]);
        let matching = record(now.as_str());
        let other = record("sha256:00");
        let link = Obstacle::Link(PathBuf::from("l"));
        let unreadable = Obstacle::Unreadable {
            path: PathBuf::from("f"),
            error: "denied".into(),
        };
        assert_eq!(State::judge(None, Ok(&now)), State::Unrecorded);
        assert_eq!(State::judge(None, Err(&link)), State::Unrecorded);
        assert_eq!(State::judge(Some(&matching), Ok(&now)), State::Intact);
        assert_eq!(State::judge(Some(&other), Ok(&now)), State::Modified);
        assert_eq!(State::judge(Some(&matching), Err(&link)), State::Modified);
        assert_eq!(
            State::judge(Some(&matching), Err(&unreadable)),
            State::Unreadable
        );
        let big = Obstacle::FileOverBudget {
            path: PathBuf::from("big"),
            size: 1 << 40,
        };
        let many = Obstacle::SkillOverBudget(PathBuf::from("last"));
        for over in [&big, &many] {
            assert_eq!(
                State::judge(Some(&matching), Err(over)),
                State::Unverifiable
            );
            assert_eq!(State::judge(None, Err(over)), State::Unrecorded);
        }
    }

    #[test]
    fn versions_the_installer_can_read() {
        assert!(record("x").version_is_semver());
        let mut bad = record("x");
        bad.installed_version = "v1".into();
        assert!(!bad.version_is_semver());
    }
}
