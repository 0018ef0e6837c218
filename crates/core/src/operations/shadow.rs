//! Which copy of a name an agent runs once a new copy is put in one of its roots: the new one
//! over another, or another over it. The one rule that the link, copy and move plans and the
//! import all warn by.

use std::path::{Path, PathBuf};

use crate::roots::{AgentId, OnSameName, Priority, RootSet};
use crate::scan::{Inventory, Rank, Skill, outranks, ties};

/// One agent would load another copy than before because of a new copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WouldShadow {
    pub agent: AgentId,
    /// The copy that would win for `agent`.
    pub winner: PathBuf,
    /// The copy that would lose.
    pub loser: PathBuf,
    /// The agent picks one of the two copies, not always the same (OpenCode): `winner` is
    /// only one of them.
    pub unsettled: bool,
}

/// A copy of a skill about to be put at `to`, in the skills folder `root`.
pub struct NewCopy<'a> {
    pub root: &'a Path,
    pub to: &'a Path,
    /// The name each agent will know it by.
    pub name_for: &'a dyn Fn(AgentId) -> String,
    /// Whether a copy found competes with it (the copy it replaces, or it came from, may not).
    pub rival: &'a dyn Fn(&Skill) -> bool,
}

/// For each of `readers` (agents that read `copy.root`), the copy of its name that agent runs
/// now that the new copy would beat, or that would beat the new copy: what a link, a copy, a
/// move and an import all warn of.
/// `roots` is the machine's [`RootSet`], resolved once by the caller however many copies it
/// weighs.
pub fn would_shadow(
    roots: &RootSet,
    inventory: &Inventory,
    copy: &NewCopy<'_>,
    readers: &[AgentId],
) -> Vec<WouldShadow> {
    let mut found = Vec::new();
    for &agent in readers {
        let behaviour = agent.on_same_name();
        if behaviour == OnSameName::KeepsAll {
            continue;
        }
        let Some(priority) = priority_at(roots, copy.root, agent) else {
            continue;
        };
        let name = (copy.name_for)(agent);
        let new = Rank {
            priority: Some(priority),
            plugin_version: None,
            dir: copy.to,
        };
        let rivals = inventory.skills.iter().filter(|other| {
            (copy.rival)(other)
                && other.agents.contains(&agent)
                && !other.shadowed_by.iter().any(|s| s.agent == agent)
                && other.name_for(agent) == name
        });
        for other in rivals {
            let new_wins = outranks(new, other.rank_for(agent)).is_lt();
            let (winner, loser) = if new_wins {
                (copy.to.to_path_buf(), other.dir.clone())
            } else {
                (other.dir.clone(), copy.to.to_path_buf())
            };
            found.push(WouldShadow {
                agent,
                winner,
                loser,
                unsettled: behaviour == OnSameName::Unpredictable
                    || (behaviour == OnSameName::OneWinsAcrossRoots
                        && ties(new, other.rank_for(agent))),
            });
        }
    }
    found
}

/// The best priority with which `agent` would load a skill from the folder `root`.
fn priority_at(roots: &RootSet, root: &Path, agent: AgentId) -> Option<Priority> {
    roots
        .roots
        .iter()
        .filter(|r| r.path == root || r.real_path.as_deref() == Some(root))
        .flat_map(|r| r.uses.iter())
        .filter(|u| u.rule.agent == agent && u.rule.layout.loaded() && u.distrusted.is_none())
        .map(|u| u.priority)
        .min()
}
