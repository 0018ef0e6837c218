//! Disable and enable: tell one agent, in its own settings file, not to load a skill, or to
//! load it again. The skill's files are never touched, so its digest and its installer's
//! verdict stay as they were. The settings file is edited in place, keeping every other byte,
//! and kept first so `undo` can put it back.
//!
//! Each agent's writer (`switch/<agent>.rs`) says which files and keys; it works out in
//! memory what the agent will make of the files after the edit, and refuses before anything
//! is written when another file the agent reads would undo it.

mod claude_code;
mod codex;
mod copilot;
mod gemini_cli;
mod opencode;
mod plan;

use std::path::PathBuf;

use crate::roots::{AgentId, Machine, Scope, SkillSwitch};
use crate::scan::Skill;
use crate::settings::EditError;

use super::batch::{self, OnFailure, Outcome};
use super::journal::{Entry, Journal, JournalError, Operation};
use super::progress::{Cancel, Progress};
use plan::{Asked, Plan};

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
    #[error(
        "{agent} has no setting that turns one skill off; to stop it loading {skill}, remove the skill's link or folder from {agent}'s skills folder (`skilldeck remove`), or move it to a folder {agent} does not read (`skilldeck move`)",
        agent = .agent.agent().name()
    )]
    NoSetting { agent: AgentId, skill: String },
    #[error("{} does not load {skill}, so there is nothing to switch for it", .agent.agent().name())]
    NotRead { agent: AgentId, skill: String },
    #[error("{} keeps {scope} settings only in a file skilldeck cannot find on this machine", .agent.agent().name())]
    NoFile { agent: AgentId, scope: &'static str },
    #[error("{reason}")]
    Scope { reason: String },
    #[error(
        "{skill} comes with the Claude Code plugin {plugin}, and Claude Code's skillOverrides does not cover plugin skills: only turning off the whole plugin (enabledPlugins) does, which also turns off {others}; pass --whole-plugin to do that"
    )]
    WholePlugin {
        skill: String,
        plugin: String,
        others: String,
    },
    #[error("{reason}")]
    Overruled { reason: String },
    #[error(
        "{} reads {} only as plain JSON, and it is not ({why}): {} ignores the file as it is, so skilldeck left it alone",
        .agent.agent().name(), .file.display(), .agent.agent().name()
    )]
    NotPlainJson {
        agent: AgentId,
        file: PathBuf,
        why: String,
    },
    #[error(transparent)]
    Settings(EditError),
}

impl SwitchError {
    /// Whether skilldeck refused, rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        match self {
            SwitchError::Settings(error) => error.is_refusal(),
            _ => true,
        }
    }
}

impl From<EditError> for SwitchError {
    fn from(error: EditError) -> Self {
        SwitchError::Settings(error)
    }
}

/// What Codex's writer makes of the text of `config.toml` (without its byte-order mark) when
/// the skill at `skill_md`, named `name`, is turned `turn`; `None` when it needs no change.
/// The editor on its own, for the fuzz target that feeds it any bytes (`~` in an entry is
/// taken as `/`).
///
/// # Errors
/// When the text is not TOML or holds `skills.config` in another shape.
pub fn codex_config_edit(
    text: &str,
    skill_md: &std::path::Path,
    name: &str,
    turn: Turn,
) -> Result<Option<String>, EditError> {
    let home = std::path::PathBuf::from("/");
    codex::edit(skill_md.to_path_buf(), name.to_owned(), home, turn)(
        std::path::Path::new("config.toml"),
        text,
    )
}

/// Of the skills one name names, the one `agent` loads when it loads exactly one of them (a
/// user's and a project's copy of a name: the one that agent runs is the one meant);
/// otherwise all of them, for the caller to ask which.
pub fn which(mut candidates: Vec<&Skill>, agent: AgentId) -> Vec<&Skill> {
    let loaded = candidates
        .iter()
        .filter(|skill| skill.agents.contains(&agent))
        .count();
    if candidates.len() > 1 && loaded == 1 {
        candidates.retain(|skill| skill.agents.contains(&agent));
    }
    candidates
}

/// What switching many skills came to: one outcome per request, in order.
#[derive(Debug)]
pub struct Report<'s> {
    pub outcomes: Vec<(Request<'s>, Outcome<Switched, SwitchError>)>,
}

/// Switch each of `requests` `turn` (see [`switch`]), in order, as one batch.
pub fn run<'s>(
    machine: &Machine,
    requests: Vec<Request<'s>>,
    turn: Turn,
    on_failure: OnFailure,
    progress: &mut dyn Progress,
    cancel: &Cancel,
) -> Report<'s> {
    let batch = machine.in_a_batch();
    let outcomes = batch::each(
        &requests,
        |request| request.skill.name.clone(),
        on_failure,
        progress,
        cancel,
        |request| switch(&batch, *request, turn),
    );
    Report {
        outcomes: requests.into_iter().zip(outcomes).collect(),
    }
}

/// Whether `agent` has a setting that turns one skill off, and if not, the sentence saying so
/// and what works instead: what the app asks before offering the action.
///
/// # Errors
/// The refusal [`switch`] would give for any skill of this agent.
pub fn supported(agent: AgentId) -> Result<(), SwitchError> {
    match agent.agent().skill_switch() {
        SkillSwitch::ClaudeCode
        | SkillSwitch::Codex
        | SkillSwitch::GeminiCli
        | SkillSwitch::Copilot
        | SkillSwitch::OpenCode => Ok(()),
        SkillSwitch::NoSetting => Err(SwitchError::NoSetting {
            agent,
            skill: "a skill".into(),
        }),
    }
}

/// Turn `request.skill` off or on for `request.agent`, in its own settings.
///
/// # Errors
/// [`SwitchError`] says why not; nothing was changed.
pub fn switch(
    machine: &Machine,
    request: Request<'_>,
    turn: Turn,
) -> Result<Switched, SwitchError> {
    let agent = request.agent;
    let skill = request.skill;
    supported(agent).map_err(|_| SwitchError::NoSetting {
        agent,
        skill: skill.name.clone(),
    })?;
    let writer = agent.agent().skill_switch();
    // A turned-off plugin's skills are loaded by no one: turning the plugin back on is the
    // one switch that applies to a skill its agent does not load now, and only Claude Code's
    // settings turn a whole plugin on.
    let plugin_back_on = turn == Turn::On
        && request.whole_plugin
        && match writer {
            SkillSwitch::ClaudeCode => claude_code::is_plugin_skill(agent, skill),
            SkillSwitch::Codex
            | SkillSwitch::GeminiCli
            | SkillSwitch::Copilot
            | SkillSwitch::OpenCode
            | SkillSwitch::NoSetting => false,
        };
    if !skill.agents.contains(&agent) && !plugin_back_on {
        return Err(SwitchError::NotRead {
            agent,
            skill: skill.name.clone(),
        });
    }
    let plan = match writer {
        SkillSwitch::ClaudeCode => claude_code::plan(Asked::new(machine, request, turn))?,
        SkillSwitch::Codex => codex::plan(Asked::new(machine, request, turn))?,
        SkillSwitch::GeminiCli => gemini_cli::plan(Asked::new(machine, request, turn))?,
        SkillSwitch::Copilot => copilot::plan(Asked::new(machine, request, turn))?,
        SkillSwitch::OpenCode => opencode::plan(Asked::new(machine, request, turn))?,
        SkillSwitch::NoSetting => {
            return Err(SwitchError::NoSetting {
                agent,
                skill: skill.name.clone(),
            });
        }
    };
    let Plan { steps, notes } = plan;
    let changes = plan::apply(machine, steps)?;
    let edited = changes.iter().map(|change| change.file.clone()).collect();
    let unjournalled = if changes.is_empty() {
        None
    } else {
        let operation = match turn {
            Turn::Off => Operation::Disable,
            Turn::On => Operation::Enable,
        };
        let mut entry = Entry::now(operation, Vec::new());
        entry.settings = changes;
        Journal::of(machine).append(&entry).err()
    };
    Ok(Switched {
        agent,
        turn,
        edited,
        notes,
        unjournalled,
    })
}
