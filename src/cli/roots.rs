//! `skilldeck roots`: the app's roots screen as text and JSON — every folder an agent reads
//! skills from, its scope, whether it exists, the agents that read it and how many skills it
//! holds, and a row per agent for the skills it ships inside itself.

use std::fmt::Write as _;

use serde::Serialize;

use crate::roots::{AgentId, Machine, RootState, Source, root_shown};
use crate::scan::{Builtin, Inventory, RootEntry, builtins_by_agent};

use super::agents::{AllAgents, Shown};
use super::json::{self, AgentsJson, RootJson};
use super::{Failure, Outcome};
use crate::text::Unsafe;
use crate::text::human::{self, count, table};

const AFTER_HELP: &str = "\
The table shows the roots of the agents installed here, and any root that holds skills;
--all-agents shows every agent's. --json always lists every root, with every agent that reads it.

Examples:
  skilldeck roots
  skilldeck roots --all-agents
  skilldeck roots --json | jq '.roots[] | select(.exists) | .path'";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Print JSON instead of a table
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    agents: AllAgents,
}

#[derive(Serialize)]
struct RootsJson<'a> {
    roots: Vec<OneRootJson<'a>>,
    /// One entry per agent that ships skills inside itself.
    builtin: Vec<BuiltinRootJson<'a>>,
    #[serde(flatten)]
    agents: AgentsJson<'a>,
}

/// A root: `list --json`'s fields, and what the roots screen adds.
#[derive(Serialize)]
struct OneRootJson<'a> {
    #[serde(flatten)]
    root: RootJson<'a>,
    /// What the first agent to read it calls it.
    label: &'static str,
    /// `exists`, `missing`, `not_a_directory` or `unreadable`.
    state: &'static str,
    /// Why it could not be read, when it could not.
    error: Option<&'a str>,
    /// Every agent with a use for it, loading from it or not.
    owners: Vec<AgentId>,
}

#[derive(Serialize)]
struct BuiltinRootJson<'a> {
    agent: AgentId,
    /// The skills it ships and runs.
    skills: Vec<&'a str>,
    /// The skills it ships whose name a skill on disk takes, which runs instead.
    overridden: Vec<&'a str>,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let inventory = super::scan(machine);
    let shown = Shown::new(&inventory.installed, &args.agents);
    if args.json {
        json::print(&RootsJson {
            roots: inventory.roots.iter().map(one_root).collect(),
            builtin: builtins_by_agent(&inventory.builtins)
                .into_iter()
                .map(|(agent, own)| BuiltinRootJson {
                    agent,
                    skills: names(&own, false),
                    overridden: names(&own, true),
                })
                .collect(),
            agents: AgentsJson::new(shown),
        })?;
    } else {
        super::print(&render(&inventory, shown, machine.env.home()))?;
    }
    Ok(Outcome::Done)
}

fn one_root(entry: &RootEntry) -> OneRootJson<'_> {
    let root = &entry.root;
    OneRootJson {
        root: RootJson::new(entry),
        label: root.label(),
        state: match root.state {
            RootState::Directory => "exists",
            RootState::Missing => "missing",
            RootState::NotADirectory => "not_a_directory",
            RootState::Unreadable(_) => "unreadable",
        },
        error: match &root.state {
            RootState::Unreadable(error) => Some(error),
            _ => None,
        },
        owners: root.owners(),
    }
}

/// The names of an agent's built-in skills that a skill on disk overrides, or that it runs.
fn names<'a>(own: &[&'a Builtin], overridden: bool) -> Vec<&'a str> {
    own.iter()
        .filter(|b| b.overridden_by.is_some() == overridden)
        .map(|b| b.name)
        .collect()
}

fn render(inventory: &Inventory, shown: Shown<'_>, home: &std::path::Path) -> String {
    let keeps = |agent: AgentId| shown.keeps(agent);
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut notes = String::new();
    let listed: Vec<&RootEntry> = inventory
        .roots
        .iter()
        .filter(|entry| root_shown(entry.skills, &entry.root.owners(), false, keeps))
        .collect();
    for entry in &listed {
        let root = &entry.root;
        let path = human::path(&root.path, home, Unsafe::Escaped);
        let exists = root.state == RootState::Directory;
        rows.push(vec![
            match root.state {
                RootState::Directory => "exists",
                RootState::Missing => "missing",
                RootState::NotADirectory => "a file",
                RootState::Unreadable(_) => "unreadable",
            }
            .to_owned(),
            if exists {
                entry.skills.to_string()
            } else {
                "-".to_owned()
            },
            root.scope().source().to_string(),
            readers(&root.agents(), shown),
            path.clone(),
        ]);
        for note in &entry.notes {
            let _ = writeln!(notes, "{path}: {note}");
        }
    }
    let builtins = builtins_by_agent(&inventory.builtins);
    for (agent, own) in builtins.iter().filter(|(agent, _)| shown.keeps(*agent)) {
        rows.push(vec![
            "built in".to_owned(),
            names(own, false).len().to_string(),
            Source::Builtin.to_string(),
            agent.id().to_owned(),
            format!("built into {}", agent.display_name()),
        ]);
        let replaced = names(own, true);
        if !replaced.is_empty() {
            let _ = writeln!(
                notes,
                "built into {}: a skill on disk runs instead of {}",
                agent.display_name(),
                replaced.join(", ")
            );
        }
    }
    let mut out = table(&["STATE", "SKILLS", "SCOPE", "AGENTS", "PATH"], &rows);
    if !notes.is_empty() {
        out.push('\n');
        out.push_str(&notes);
    }
    let existing = inventory
        .roots
        .iter()
        .filter(|e| e.root.state == RootState::Directory)
        .count();
    let hidden = inventory.roots.len() - listed.len();
    let _ = write!(
        out,
        "\n{} searched, {existing} exist",
        count(inventory.roots.len(), "root")
    );
    if hidden > 0 {
        let _ = write!(
            out,
            "; {hidden} more, of agents not installed here and empty (--all-agents shows them)"
        );
    }
    out.push_str(".\n");
    out
}

/// The agents shown that read a root (`none installed (N)` when only others do), or that none
/// loads from it (Claude Code's marketplace clones are kept, never loaded).
fn readers(agents: &[AgentId], shown: Shown<'_>) -> String {
    if agents.is_empty() {
        return "no agent loads it".to_owned();
    }
    shown.cell(agents)
}
