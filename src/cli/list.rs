//! `skilldeck list`: every skill found, with source, agents, record, state and digest.

use std::fmt::Write as _;

use crate::record::State;
use crate::roots::{AgentId, Effect, Machine};
use crate::scan::{Inventory, LeftOut, Skill};

use super::agents::{AllAgents, Shown};
use super::json::{self, ListJson};
use super::{Failure, Outcome};
use crate::text::Unsafe;
use crate::text::human::{self, table};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON (the shape in PRODUCT.md) instead of a table
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    agents: AllAgents,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let inventory = super::scan(machine);
    let shown = Shown::new(&inventory.installed, &args.agents);
    if args.json {
        json::print(&ListJson::new(&inventory, shown))?;
    } else {
        super::print(&render(&inventory, shown, machine.env.home()))?;
    }
    Ok(Outcome::Done)
}

fn render(inventory: &Inventory, shown: Shown<'_>, home: &std::path::Path) -> String {
    if inventory.skills.is_empty() {
        let searched = inventory.roots.len();
        return format!(
            "No skills found in the {searched} roots searched (`skilldeck list --json` shows them).\n"
        );
    }
    let rows: Vec<Vec<String>> = inventory
        .skills
        .iter()
        .map(|skill| {
            let shadowed = if shadowings(skill, shown).next().is_some() {
                " (shadowed)"
            } else {
                ""
            };
            vec![
                format!("{}{shadowed}", skill.name),
                skill.source.to_string(),
                skill.state.to_string(),
                skill
                    .owner
                    .as_ref()
                    .map_or_else(|| "-".to_owned(), |o| o.installer.to_string()),
                shown.cell(&skill.agents),
                human::path(&skill.dir, home, Unsafe::Escaped),
            ]
        })
        .collect();
    let mut out = table(
        &["NAME", "SOURCE", "STATE", "INSTALLER", "AGENTS", "DIR"],
        &rows,
    );
    let details: Vec<&Skill> = inventory
        .skills
        .iter()
        .filter(|s| {
            !s.problems.is_empty()
                || shadowings(s, shown).next().is_some()
                || left_out(s, shown).next().is_some()
                || s.unsettled_for.iter().any(|&agent| shown.keeps(agent))
                || note(s).is_some()
        })
        .collect();
    if !details.is_empty() {
        out.push('\n');
    }
    for skill in details {
        let _ = writeln!(
            out,
            "{} ({}):",
            skill.name,
            human::path(&skill.dir, home, Unsafe::Escaped)
        );
        for shadowing in shadowings(skill, shown) {
            let _ = writeln!(
                out,
                "  shadowed for {} by {}",
                shadowing.agent,
                human::path(&shadowing.winner, home, Unsafe::Escaped)
            );
        }
        for left in left_out(skill, shown) {
            let how = match left.effect {
                Effect::Dropped => "not loaded by",
                Effect::FromModel => "kept from the model by",
                Effect::Disabled => "turned off for",
            };
            let _ = writeln!(out, "  {how} {}: {}", left.agent, left.why);
        }
        if !skill.unsettled_for.is_empty() {
            let agents: Vec<&str> = skill
                .unsettled_for
                .iter()
                .filter(|&&agent| shown.keeps(agent))
                .map(|agent| agent.id())
                .collect();
            if !agents.is_empty() {
                let _ = writeln!(
                    out,
                    "  {} loads one copy of this name, not always the same",
                    agents.join(", ")
                );
            }
        }
        if let Some(note) = note(skill) {
            let _ = writeln!(out, "  {}: {note}", skill.state);
        }
        for problem in &skill.problems {
            let _ = writeln!(out, "  ! {problem}");
        }
    }
    if !inventory.problems.is_empty() {
        out.push('\n');
    }
    for problem in &inventory.problems {
        let _ = writeln!(out, "! {problem}");
    }
    out.push('\n');
    out.push_str(&summary(inventory, shown));
    out
}

/// What a modified or unverifiable skill's record says about its state.
fn note(skill: &Skill) -> Option<&str> {
    let owner = skill.owner.as_ref()?;
    matches!(skill.state, State::Modified | State::Unverifiable)
        .then_some(owner.note.as_deref())
        .flatten()
}

/// The agents shown that read the skill's folder and leave it out.
fn left_out<'s>(skill: &'s Skill, shown: Shown<'s>) -> impl Iterator<Item = &'s LeftOut> {
    skill
        .left_out
        .iter()
        .filter(move |left| shown.keeps(left.agent))
}

/// The agents shown that run another copy of the skill's name: a copy that wins only for an
/// agent this machine does not have changes nothing here.
fn shadowings<'s>(
    skill: &'s Skill,
    shown: Shown<'s>,
) -> impl Iterator<Item = &'s crate::scan::Shadowing> {
    skill
        .shadowed_by
        .iter()
        .filter(move |s| shown.keeps(s.agent))
}

fn summary(inventory: &Inventory, shown: Shown<'_>) -> String {
    let count = |state: State| inventory.skills.iter().filter(|s| s.state == state).count();
    let states: Vec<String> = State::ALL
        .into_iter()
        .map(|state| (state, count(state)))
        .filter(|(_, n)| *n > 0)
        .map(|(state, n)| format!("{n} {state}"))
        .collect();
    let roots = inventory.roots.iter().filter(|r| r.skills > 0).count();
    let shadowed = inventory
        .skills
        .iter()
        .filter(|s| shadowings(s, shown).next().is_some())
        .count();
    let with_problems = inventory
        .skills
        .iter()
        .filter(|s| !s.problems.is_empty())
        .count();
    format!(
        "{} skills in {roots} roots: {}; {shadowed} shadowed; {with_problems} with problems\n{}\n{}",
        inventory.skills.len(),
        states.join(", "),
        agents_line(inventory, shown),
        builtins_line(inventory, shown)
    )
}

/// How many skills each agent shown ships inside itself, which cost its context too.
fn builtins_line(inventory: &Inventory, shown: Shown<'_>) -> String {
    let mut counts: Vec<(AgentId, usize)> = Vec::new();
    for builtin in inventory.builtins.iter().filter(|b| shown.keeps(b.agent)) {
        match counts.iter_mut().find(|(agent, _)| *agent == builtin.agent) {
            Some((_, count)) => *count += 1,
            None => counts.push((builtin.agent, 1)),
        }
    }
    if counts.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|(agent, count)| format!("{agent} {count}"))
        .collect();
    format!(
        "Built into the agents, in no folder: {} (list --json names them).\n",
        parts.join(", ")
    )
}

/// Which agents the AGENTS column names, and how to see the others.
fn agents_line(inventory: &Inventory, shown: Shown<'_>) -> String {
    if shown.all {
        return "Agents: every agent that reads each skill.".to_owned();
    }
    let ids: Vec<&str> = inventory.installed.iter().map(|a| a.id()).collect();
    let installed = if ids.is_empty() {
        "none found".to_owned()
    } else {
        ids.join(", ")
    };
    format!("Agents installed here: {installed} (--all-agents shows every agent).")
}
