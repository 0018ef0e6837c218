//! Which copy of a name each agent runs: among the skills an agent loads under one name, the
//! one from its best-ranked root wins and the others are shadowed; for an agent whose winner
//! changes from run to run, every copy is marked unsettled instead.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashMap;

use crate::roots::{AgentId, OnSameName};

use super::{Shadowing, Skill};

/// Fill in `shadowed_by` on every skill that loses to another of the same name.
pub fn shadow(skills: &mut [Skill]) {
    for agent in AgentId::all() {
        if agent.on_same_name() == OnSameName::KeepsAll {
            continue;
        }
        let mut by_name: HashMap<Cow<'_, str>, Vec<usize>> = HashMap::new();
        for (index, skill) in skills.iter().enumerate() {
            if skill.priority_for(agent).is_some() {
                by_name
                    .entry(skill.name_for(agent))
                    .or_default()
                    .push(index);
            }
        }
        let groups = by_name.into_values().filter(|group| group.len() > 1);
        if agent.on_same_name() == OnSameName::Unpredictable {
            let unsettled: Vec<usize> = groups.flatten().collect();
            for index in unsettled {
                skills[index].unsettled_for.push(agent);
            }
            continue;
        }
        let mut losses: Vec<(usize, usize)> = Vec::new();
        for mut group in groups {
            group.sort_by(|&a, &b| precedence(&skills[a], &skills[b], agent));
            let winner = group[0];
            losses.extend(group[1..].iter().map(|&loser| (loser, winner)));
        }
        for (loser, winner) in losses {
            let winner = skills[winner].dir.clone();
            skills[loser].shadowed_by.push(Shadowing { agent, winner });
        }
    }
}

/// The better copy first: best root priority, then the newer cached plugin version, then the
/// path, so the verdict is the same on every run.
fn precedence(a: &Skill, b: &Skill, agent: AgentId) -> Ordering {
    a.priority_for(agent)
        .cmp(&b.priority_for(agent))
        .then_with(|| b.plugin_version().cmp(&a.plugin_version()))
        .then_with(|| a.dir.cmp(&b.dir))
}
