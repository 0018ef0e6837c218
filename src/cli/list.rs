//! `skilldeck list`: every skill found, with source, agents, record, state and digest.

use std::fmt::Write as _;

use crate::record::State;
use crate::roots::Machine;
use crate::scan::{Inventory, Skill};

use super::json::{self, ListJson};
use super::{Failure, Outcome};
use crate::text::Unsafe;
use crate::text::human::{self, table};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON (the shape in PRODUCT.md) instead of a table
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let inventory = super::scan(machine);
    if args.json {
        json::print(&ListJson::new(&inventory))?;
    } else {
        super::print(&render(&inventory, machine.env.home()))?;
    }
    Ok(Outcome::Done)
}

fn render(inventory: &Inventory, home: &std::path::Path) -> String {
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
            let shadowed = if skill.is_shadowed() {
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
                agents(skill),
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
        .filter(|s| !s.problems.is_empty() || s.is_shadowed() || note(s).is_some())
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
        for shadowing in &skill.shadowed_by {
            let _ = writeln!(
                out,
                "  shadowed for {} by {}",
                shadowing.agent,
                human::path(&shadowing.winner, home, Unsafe::Escaped)
            );
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
    out.push_str(&summary(inventory));
    out
}

/// What a modified or unverifiable skill's record says about its state.
fn note(skill: &Skill) -> Option<&str> {
    let owner = skill.owner.as_ref()?;
    matches!(skill.state, State::Modified | State::Unverifiable)
        .then_some(owner.note.as_deref())
        .flatten()
}

fn agents(skill: &Skill) -> String {
    if skill.agents.is_empty() {
        return "-".to_owned();
    }
    let ids: Vec<&str> = skill.agents.iter().map(|a| a.id()).collect();
    ids.join(",")
}

fn summary(inventory: &Inventory) -> String {
    let count = |state: State| inventory.skills.iter().filter(|s| s.state == state).count();
    let states: Vec<String> = State::ALL
        .into_iter()
        .map(|state| (state, count(state)))
        .filter(|(_, n)| *n > 0)
        .map(|(state, n)| format!("{n} {state}"))
        .collect();
    let roots = inventory.roots.iter().filter(|r| r.skills > 0).count();
    let shadowed = inventory.skills.iter().filter(|s| s.is_shadowed()).count();
    let with_problems = inventory
        .skills
        .iter()
        .filter(|s| !s.problems.is_empty())
        .count();
    format!(
        "{} skills in {roots} roots: {}; {shadowed} shadowed; {with_problems} with problems\n",
        inventory.skills.len(),
        states.join(", ")
    )
}
