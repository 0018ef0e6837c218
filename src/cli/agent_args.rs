//! The `--agent ID` and `--scope user|project` arguments every command that aims at an agent's
//! folder or settings takes, parsed one way with one sentence for a wrong id.

use crate::roots::{AgentId, Scope};

/// An `--agent` the table does not hold.
#[derive(Debug, thiserror::Error)]
#[error("no agent {id:?}; the {} known (github-copilot also names copilot):\n  {}", known().len(), listed())]
pub struct UnknownAgent {
    id: String,
}

fn known() -> Vec<&'static str> {
    AgentId::all().map(|a| a.id()).collect()
}

/// The known ids as one wrapped paragraph, so 78 ids read as a list rather than a wall.
fn listed() -> String {
    crate::text::width::wrap(&known().join(" "), 76).join("\n  ")
}

/// `--agent`: an agent of the table by its id.
pub fn agent_id(id: &str) -> Result<AgentId, UnknownAgent> {
    AgentId::from_id(id).ok_or_else(|| UnknownAgent { id: id.to_owned() })
}

/// `--scope`: the user's folders and settings, or the project's.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum ScopeArg {
    User,
    Project,
}

impl ScopeArg {
    pub fn scope(self) -> Scope {
        match self {
            ScopeArg::User => Scope::User,
            ScopeArg::Project => Scope::Project,
        }
    }
}
