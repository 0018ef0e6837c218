//! Link, copy and move: make a skill visible to another agent or scope. Each is planned first,
//! so the shadowing it would cause is shown before anything is done, and refused unless forced.

use std::path::PathBuf;

use crate::roots::{AgentId, Machine, Scope};
use crate::scan::{Inventory, Skill};

use super::journal::JournalError;

/// How the skill gets to its new place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    /// A symbolic link to the folder.
    Link,
    /// An independent, recorded copy.
    Copy,
    /// The folder itself, gone from where it was.
    Move,
}

/// One agent would load another copy than before because of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WouldShadow {
    pub agent: AgentId,
    /// The copy that would win for `agent`.
    pub winner: PathBuf,
    /// The copy that would lose.
    pub loser: PathBuf,
}

/// A link, copy or move worked out, not yet done.
#[derive(Clone, Debug)]
pub struct Plan {
    pub share: Share,
    /// The skill's folder as found.
    pub from: PathBuf,
    /// Where the link, copy or folder would be.
    pub to: PathBuf,
    pub shadowing: Vec<WouldShadow>,
}

/// What was done.
#[derive(Debug)]
pub struct Shared {
    pub plan: Plan,
    pub unjournalled: Option<JournalError>,
}

/// Why the skill was not linked, copied or moved; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum ShareError {
    #[error("linking, copying and moving skills is being built (issue 13)")]
    Unbuilt,
}

impl ShareError {
    /// Whether skilldeck refused, rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        true
    }
}

/// Work out where `skill` would go for `agent` (its own agent when `None`) at `scope`, and
/// what that would shadow.
///
/// # Errors
/// [`ShareError`] when there is no such place or something is already there.
pub fn plan(
    machine: &Machine,
    inventory: &Inventory,
    skill: &Skill,
    share: Share,
    agent: Option<AgentId>,
    scope: Scope,
) -> Result<Plan, ShareError> {
    let _ = (machine, inventory, skill, share, agent, scope);
    Err(ShareError::Unbuilt)
}

/// Carry out `plan`; one that would shadow or be shadowed is refused unless `force`.
///
/// # Errors
/// [`ShareError`] says why not; nothing was changed.
pub fn share(machine: &Machine, plan: &Plan, force: bool) -> Result<Shared, ShareError> {
    let _ = (machine, plan, force);
    Err(ShareError::Unbuilt)
}
