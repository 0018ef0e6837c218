//! Which agents a listing shows: by default those installed on this machine, with
//! `--all-agents` every agent of the table; the rule is [`Judged`]'s, shared with the app.

use crate::operations::judged::Judged;
use crate::roots::AgentId;

/// The `--all-agents` switch, shared by every command that shows agents.
#[derive(Debug, Default, clap::Args)]
pub struct AllAgents {
    /// Show every agent that reads a skill, not only the agents installed here (an agent is
    /// installed when its config folder exists, e.g. ~/.cline)
    #[arg(long)]
    pub all_agents: bool,
}

/// The agents shown, for one run.
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a> {
    pub installed: &'a [AgentId],
    pub all: bool,
}

/// How many agent ids a table cell names before it counts the rest (`+21`).
const IN_A_CELL: usize = 3;

impl<'a> Shown<'a> {
    pub fn new(installed: &'a [AgentId], switch: &AllAgents) -> Self {
        Self {
            installed,
            all: switch.all_agents,
        }
    }

    pub fn keeps(&self, agent: AgentId) -> bool {
        self.judged().keeps(agent)
    }

    /// The agents of `agents` that are shown, in their order.
    pub fn of(&self, agents: &[AgentId]) -> Vec<AgentId> {
        self.judged().of(agents)
    }

    fn judged(&self) -> Judged<'a> {
        Judged::new(self.installed, self.all)
    }

    /// A table cell: a few ids, then how many more (`codex,opencode,cline +21`); `-` when no
    /// agent loads the skill, and a short note when only agents that are not installed do.
    pub fn cell(&self, agents: &[AgentId]) -> String {
        let shown = self.of(agents);
        if agents.is_empty() {
            return "-".to_owned();
        }
        if shown.is_empty() {
            return format!("none installed ({})", agents.len());
        }
        let ids: Vec<&str> = shown.iter().take(IN_A_CELL).map(|a| a.id()).collect();
        let rest = shown.len().saturating_sub(IN_A_CELL);
        if rest == 0 {
            ids.join(",")
        } else {
            format!("{} +{rest}", ids.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_names_a_few_and_counts_the_rest() {
        let all: Vec<AgentId> = AgentId::all().take(6).collect();
        let installed = [AgentId::CODEX];
        let every = Shown {
            installed: &installed,
            all: true,
        };
        assert_eq!(every.cell(&all), "claude-code,codex,opencode +3");
        let only = Shown {
            installed: &installed,
            all: false,
        };
        assert_eq!(only.cell(&all), "codex");
        assert_eq!(only.cell(&[AgentId::CLAUDE_CODE]), "none installed (1)");
        assert_eq!(only.cell(&[]), "-");
    }
}
