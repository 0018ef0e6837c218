//! Why a snapshot was taken: kept in its record, so its history says what each copy is for
//! and a prune knows which ones to keep (accepted baselines).

use serde::{Deserialize, Serialize};

/// Why a snapshot exists. Snapshots taken before skilldeck recorded reasons read as
/// [`Reason::Unrecorded`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Taken by hand: `skilldeck snapshot`, the app's `s`.
    Manual,
    /// The baseline an import installed.
    Installed,
    /// What the folder held before an import replaced it.
    BeforeImport,
    /// What the folder held before a restore replaced it.
    BeforeRestore,
    /// The content a restore put back, kept as the new baseline.
    Restored,
    /// What the folder held before a remove (or a move away) took it.
    BeforeRemove,
    /// What the folder held before an update replaced it.
    BeforeUpdate,
    /// The upstream an update merged the folder's edits with, kept as the baseline the next
    /// update merges against.
    Upstream,
    /// What an update put in place: the upstream with the user's edits merged in.
    Updated,
    /// What the folder held before an undo replaced or removed it.
    BeforeUndo,
    /// The content a copy or a move put in place, kept as its baseline.
    Copied,
    /// Accepted as the new baseline (the app's `a`).
    Accepted,
    /// Taken of a skill an agent session used (`skilldeck snapshot --transcript`).
    Transcript,
    /// Taken before skilldeck recorded why, or for a reason this version does not know (a
    /// later one's): the reason is not part of the digest, so it never makes a snapshot damaged.
    #[default]
    #[serde(other)]
    Unrecorded,
}

impl Reason {
    /// The reason in a few words, for the history view and the command line.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Manual => "taken by hand",
            Reason::Installed => "installed baseline",
            Reason::BeforeImport => "before an import replaced it",
            Reason::BeforeRestore => "before a restore",
            Reason::Restored => "restored content",
            Reason::BeforeRemove => "before a remove",
            Reason::BeforeUpdate => "before an update",
            Reason::Upstream => "upstream baseline of an update",
            Reason::Updated => "updated, local edits merged",
            Reason::BeforeUndo => "before an undo",
            Reason::Copied => "copied or moved here",
            Reason::Accepted => "accepted baseline",
            Reason::Transcript => "from an agent's transcript",
            Reason::Unrecorded => "reason not recorded",
        }
    }

    /// Whether a prune keeps it whatever its age: a baseline the user chose.
    pub fn is_baseline(self) -> bool {
        matches!(self, Reason::Accepted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_this_version_does_not_know_reads_as_unrecorded() {
        let read: Reason = serde_json::from_str("\"before_a_sync\"").unwrap();
        assert_eq!(read, Reason::Unrecorded);
        let read: Reason = serde_json::from_str("\"before_restore\"").unwrap();
        assert_eq!(read, Reason::BeforeRestore);
        assert_eq!(
            serde_json::to_string(&Reason::Accepted).unwrap(),
            "\"accepted\""
        );
    }
}
