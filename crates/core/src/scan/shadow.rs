//! Which copy of a name each agent runs: among the skills an agent loads under one name, the
//! one from its best-ranked root wins and the others are shadowed; for an agent whose winner
//! changes from run to run, every copy is marked unsettled instead.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use foldhash::fast::RandomState;

use crate::roots::{AgentId, OnSameName, Priority};

use super::{Shadowing, Skill};

/// Fill in `shadowed_by` on every skill that loses to another of the same name, and
/// `unsettled_for` on the copies of a name an agent picks between.
pub fn shadow(skills: &mut [Skill]) {
    // One agent at a time: the skills each loads are listed first (an index each), then its
    // names are put in a map of their own, dropped before the next agent's. One map of every
    // agent's names at once held 220,000 keys at 20,000 skills, 12.5 MB at the listing's
    // peak; the largest one agent makes is a tenth of that.
    let mut loaded_by: BTreeMap<AgentId, Vec<usize>> = BTreeMap::new();
    for (index, skill) in skills.iter().enumerate() {
        for &agent in &skill.agents {
            if agent.on_same_name() != OnSameName::KeepsAll {
                loaded_by.entry(agent).or_default().push(index);
            }
        }
    }
    let mut unsettled: Vec<(AgentId, usize)> = Vec::new();
    let mut losses: Vec<(AgentId, usize, usize)> = Vec::new();
    for (agent, loaded) in loaded_by {
        for mut group in same_names(skills, agent, &loaded) {
            if agent.on_same_name() == OnSameName::Unpredictable {
                unsettled.extend(group.iter().map(|&index| (agent, index)));
                continue;
            }
            group.sort_by(|&a, &b| precedence(&skills[a], &skills[b], agent));
            let winner = group[0];
            // Copies that tie with the winner but for their path: where the file system's
            // order decides between them, each is unsettled, and the rest lose to one of them.
            let tied = if agent.on_same_name() == OnSameName::OneWinsAcrossRoots {
                group
                    .iter()
                    .take_while(|&&index| same_rank(&skills[index], &skills[winner], agent))
                    .count()
            } else {
                1
            };
            if tied > 1 {
                unsettled.extend(group[..tied].iter().map(|&index| (agent, index)));
            }
            losses.extend(group[tied..].iter().map(|&loser| (agent, loser, winner)));
        }
    }
    // In table order of the agents, as the listing shows them.
    unsettled.sort_unstable();
    losses.sort_unstable();
    for (agent, index) in unsettled {
        skills[index].unsettled_for.push(agent);
    }
    for (agent, loser, winner) in losses {
        let winner = skills[winner].dir.clone();
        skills[loser].shadowed_by.push(Shadowing { agent, winner });
    }
}

/// The skills of `loaded` (indexes into `skills`) that `agent` lists under a name another of
/// them has too, one list for each such name.
///
/// Most names are held by one copy, so the map keeps that copy's index alone and is sized
/// once for every name it can get; only a name held twice gets a list. The names are hashed
/// with foldhash rather than SipHash (SipHash was a fifth of the shadowing's time at 20,000
/// skills); its seed is still random per run, so names made to collide cannot be planted in
/// a folder to slow the listing down.
fn same_names(skills: &[Skill], agent: AgentId, loaded: &[usize]) -> Vec<Vec<usize>> {
    let mut by_name: HashMap<Cow<'_, str>, Copies, RandomState> =
        HashMap::with_capacity_and_hasher(loaded.len(), RandomState::default());
    let mut shared: Vec<Vec<usize>> = Vec::new();
    for &index in loaded {
        match by_name.entry(skills[index].name_for(agent)) {
            Entry::Vacant(vacant) => {
                vacant.insert(Copies::One(index));
            }
            Entry::Occupied(mut occupied) => match *occupied.get() {
                Copies::One(first) => {
                    *occupied.get_mut() = Copies::Many(shared.len());
                    shared.push(vec![first, index]);
                }
                Copies::Many(list) => shared[list].push(index),
            },
        }
    }
    shared
}

/// The copies of one name for one agent: the one skill holding it, or the index of the list
/// of those that do.
#[derive(Clone, Copy)]
enum Copies {
    One(usize),
    Many(usize),
}

/// What decides how one copy of a name ranks for one agent, for a copy that is not there yet
/// (`link`, `copy` and `move` ask which copy would win) as for one the scan found.
#[derive(Clone, Copy, Debug)]
pub struct Rank<'a> {
    pub priority: Option<Priority>,
    pub plugin_version: Option<&'a semver::Version>,
    pub dir: &'a Path,
}

impl Skill {
    /// How this copy ranks for `agent` among the copies of its name.
    pub fn rank_for(&self, agent: AgentId) -> Rank<'_> {
        Rank {
            priority: self.priority_for(agent),
            plugin_version: self.plugin_version(),
            dir: &self.dir,
        }
    }
}

/// The better copy first: best root priority, then the newer cached plugin version, then the
/// path, so the verdict is the same on every run.
pub fn outranks(a: Rank<'_>, b: Rank<'_>) -> Ordering {
    a.priority
        .cmp(&b.priority)
        .then_with(|| b.plugin_version.cmp(&a.plugin_version))
        .then_with(|| a.dir.cmp(b.dir))
}

/// Whether two copies rank alike for `agent` but for their paths.
pub fn ties(a: Rank<'_>, b: Rank<'_>) -> bool {
    a.priority == b.priority && a.plugin_version == b.plugin_version
}

fn same_rank(a: &Skill, b: &Skill, agent: AgentId) -> bool {
    ties(a.rank_for(agent), b.rank_for(agent))
}

fn precedence(a: &Skill, b: &Skill, agent: AgentId) -> Ordering {
    outranks(a.rank_for(agent), b.rank_for(agent))
}
