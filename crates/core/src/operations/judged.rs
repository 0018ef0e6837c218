//! Which agents are judged and shown: by default those installed on this machine (one of
//! their config folders exists, as the skills CLI tells), or every agent of the table when
//! the user asks for all. About two dozen agents read `~/.agents/skills`; most machines have
//! two or three of them, and judging all would bury the ones that matter under warnings about
//! agents no one runs. The one place that decides it: the command line's `--all-agents`, the
//! app's agent switch, an import's shadowing warnings and the destinations it offers all ask.

use crate::roots::AgentId;

/// The agents judged, for one run or one screen.
#[derive(Clone, Copy, Debug)]
pub struct Judged<'a> {
    /// The agents installed here; `None` when it is not known (yet), and then none is left out.
    pub installed: Option<&'a [AgentId]>,
    /// Every agent, installed or not.
    pub all: bool,
}

impl<'a> Judged<'a> {
    /// Only the agents of `installed`, or every agent with `all`.
    pub fn new(installed: &'a [AgentId], all: bool) -> Self {
        Self {
            installed: Some(installed),
            all,
        }
    }

    pub fn keeps(&self, agent: AgentId) -> bool {
        self.all
            || self
                .installed
                .is_none_or(|installed| installed.contains(&agent))
    }

    /// The agents of `agents` that are judged, in their order.
    pub fn of(&self, agents: &[AgentId]) -> Vec<AgentId> {
        agents.iter().copied().filter(|a| self.keeps(*a)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_installed_agents_unless_all_or_unknown() {
        let installed = [AgentId::CODEX, AgentId::OPENCODE];
        let some = [AgentId::CLAUDE_CODE, AgentId::CODEX, AgentId::OPENCODE];
        assert_eq!(
            Judged::new(&installed, false).of(&some),
            [AgentId::CODEX, AgentId::OPENCODE]
        );
        assert_eq!(Judged::new(&installed, true).of(&some), some);
        assert_eq!(Judged::new(&[], false).of(&some), []);
        let unknown = Judged {
            installed: None,
            all: false,
        };
        assert_eq!(unknown.of(&some), some);
    }
}
