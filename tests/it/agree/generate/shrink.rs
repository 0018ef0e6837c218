//! The shrinker: removes a machine's items, a run of them at a time and then one at a time
//! (halving the run while no removal keeps the disagreement, as delta debugging does), keeping
//! each removal after which the agent still disagrees on one of the rows it first disagreed
//! on (so the machine does not slide to another disagreement), until no single item can go.
//! Only that agent is asked again.

use super::super::Agent;
use super::machine::Machine;
use super::run::{Disagreement, run};

/// The asks one shrink may spend: each is a fresh lab and one agent run.
const BUDGET: usize = 60;

/// A minimal machine on which `found.agent` still disagrees, and that disagreement; `None`
/// when the disagreement does not come back on the whole machine (a flaky answer).
pub fn shrink(machine: &Machine, found: &Disagreement) -> Option<(Machine, Disagreement)> {
    let agent = found.agent;
    let again = |candidate: &Machine| -> Option<Disagreement> {
        let run = run(candidate, &[agent])?;
        run.disagreements
            .into_iter()
            .find(|d| d.agent == agent && !d.rows.is_disjoint(&found.rows))
    };
    let mut best = (machine.clone(), again(machine)?);
    let mut asks = 1;
    let mut run_len = best.0.items.len().div_ceil(2).max(1);
    loop {
        let mut progressed = false;
        let mut start = 0;
        while start < best.0.items.len() && asks < BUDGET {
            let end = (start + run_len).min(best.0.items.len());
            let mut candidate = best.0.clone();
            candidate.items.drain(start..end);
            asks += 1;
            match again(&candidate) {
                Some(still) => {
                    best = (candidate, still);
                    progressed = true;
                }
                None => start = end,
            }
        }
        if asks >= BUDGET || (run_len == 1 && !progressed) {
            return Some(best);
        }
        if !progressed {
            run_len = run_len.div_ceil(2);
        }
    }
}

/// A reproducible case: where it came from, the agent, the diff and the machine.
pub fn print(seed: &str, classes: &str, agent: Agent, diff: &str, machine: &Machine) -> String {
    format!(
        "# {seed} (classes {classes})\n# diff: {diff}\nagent {}\n{}",
        agent.id(),
        machine.print()
    )
}

/// A printed case read back: its agents (`agent all` for the six) and machine.
pub fn parse(text: &str) -> (Vec<Agent>, Machine) {
    let id = text
        .lines()
        .find_map(|l| l.strip_prefix("agent "))
        .map(str::trim)
        .expect("a case names its agent on an `agent` line");
    let agents = match id {
        "all" => Agent::ALL.to_vec(),
        id => vec![
            Agent::ALL
                .into_iter()
                .find(|a| a.id() == id)
                .unwrap_or_else(|| panic!("no agent {id:?}")),
        ],
    };
    let rest: String = text
        .lines()
        .filter(|l| !l.starts_with("agent "))
        .map(|l| format!("{l}\n"))
        .collect();
    (agents, Machine::parse(&rest))
}
