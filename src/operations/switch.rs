//! Disable and enable: tell one agent, in its own settings file, not to load a skill, or to
//! load it again. The skill's files are never touched, so its digest and its installer's
//! verdict stay as they were. The settings file is edited in place, keeping every other byte,
//! and kept first so `undo` can put it back.

use std::path::PathBuf;

use crate::roots::{AgentId, Machine, Scope};
use crate::scan::Skill;

use super::journal::JournalError;

/// Which way a skill is switched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    Off,
    On,
}

/// One skill to switch for one agent.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    pub skill: &'a Skill,
    pub agent: AgentId,
    /// Which of the agent's settings files: its user one when `None`.
    pub scope: Option<Scope>,
    /// A plugin's skill can only be turned off with its whole plugin: the caller has said so.
    pub whole_plugin: bool,
}

/// What switching did.
#[derive(Debug)]
pub struct Switched {
    pub agent: AgentId,
    pub turn: Turn,
    /// The settings files edited, none when the skill already was as asked.
    pub edited: Vec<PathBuf>,
    /// Sentences the user should read (what else the setting covers, a restart it needs).
    pub notes: Vec<String>,
    pub unjournalled: Option<JournalError>,
}

/// Why a skill was not switched; every settings file is as it was.
#[derive(Debug, thiserror::Error)]
pub enum SwitchError {
    #[error("switching skills is being built (issue 13)")]
    Unbuilt,
}

impl SwitchError {
    /// Whether skilldeck refused, rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        true
    }
}

/// Whether `agent` has a setting that turns one skill off, and if not, the sentence saying so
/// and what works instead: what the app asks before offering the action.
///
/// # Errors
/// The refusal [`switch`] would give for any skill of this agent.
pub fn supported(agent: AgentId) -> Result<(), SwitchError> {
    let _ = agent;
    Err(SwitchError::Unbuilt)
}

/// Turn `request.skill` off or on for `request.agent`, in its own settings.
///
/// # Errors
/// [`SwitchError`] says why not; nothing was changed.
pub fn switch(machine: &Machine, request: Request<'_>, turn: Turn) -> Result<Switched, SwitchError> {
    let _ = (machine, request, turn);
    Err(SwitchError::Unbuilt)
}
