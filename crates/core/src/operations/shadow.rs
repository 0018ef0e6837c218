//! Which copy of a name an agent runs once a new copy is put in one of its roots: the new one
//! over another, or another over it. The one rule that the link, copy and move plans and the
//! import all warn by (and link, copy and move refuse by).
//!
//! Only the agents judged ([`Judged`]: those installed here, unless every agent is asked for)
//! count: about two dozen agents read `~/.agents/skills`, and a copy an agent that is not on
//! the machine would pick over another changes nothing anyone runs.

use std::path::{Path, PathBuf};

use crate::roots::{AgentId, OnSameName, Priority, RootSet};
use crate::scan::{Inventory, Rank, Skill, outranks, ties};

use super::judged::Judged;

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

/// For each of `readers` (agents that read `copy.root`) that `judged` keeps, the copy of its
/// name that agent runs now that the new copy would beat, or that would beat the new copy:
/// what a link, a copy, a move and an import all warn of.
/// `roots` is the machine's [`RootSet`], resolved once by the caller however many copies it
/// weighs.
pub fn would_shadow(
    roots: &RootSet,
    inventory: &Inventory,
    copy: &NewCopy<'_>,
    readers: &[AgentId],
    judged: Judged<'_>,
) -> Vec<WouldShadow> {
    let mut found = Vec::new();
    for agent in judged.of(readers) {
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

/// The agents `shadowing` is about, each once, in words: `Codex`, `Codex and Amp`,
/// `Codex, Cline and Amp`.
pub fn agents_in_words(shadowing: &[WouldShadow]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for shadow in shadowing {
        let name = shadow.agent.display_name();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn about(agent: AgentId) -> WouldShadow {
        WouldShadow {
            agent,
            winner: PathBuf::from("/a"),
            loser: PathBuf::from("/b"),
            unsettled: false,
        }
    }

    #[test]
    fn the_agents_are_named_once_each_in_order() {
        assert_eq!(agents_in_words(&[]), "");
        assert_eq!(agents_in_words(&[about(AgentId::CODEX)]), "Codex");
        let three = [
            about(AgentId::CODEX),
            about(AgentId::AMP),
            about(AgentId::CODEX),
            about(AgentId::OPENCODE),
        ];
        assert_eq!(agents_in_words(&three), "Codex, Amp and OpenCode");
    }
}
