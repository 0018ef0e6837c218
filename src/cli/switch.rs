//! `skilldeck disable` and `skilldeck enable`: one skill off or on for one agent, written in
//! that agent's own settings file; the skill's files are not touched.

use serde::Serialize;

use crate::operations::switch::{self, Request, SwitchError, Turn};
use crate::roots::{AgentId, Machine};
use crate::text::Unsafe;
use crate::text::human;

use super::agent_args::{ScopeArg, agent_id};
use super::{Failure, Outcome, target};

/// Where each agent's setting lives, for `--help`.
pub const AFTER_HELP: &str = "\
Where each agent's setting lives (every other byte of the file is kept; the previous file is
kept too, so `skilldeck undo` puts it back):
  claude-code  skillOverrides {\"NAME\": \"off\"} in ~/.claude/settings.json (CLAUDE_CONFIG_DIR),
               or --scope project: .claude/settings.local.json in the project folder. A plugin's
               skill only goes with its whole plugin (enabledPlugins; --whole-plugin).
  codex        [[skills.config]] path = \".../SKILL.md\", enabled = false in
               $CODEX_HOME/config.toml (~/.codex); Codex has no project scope for it.
  gemini-cli   skills.disabled in ~/.gemini/settings.json (GEMINI_CLI_HOME), or --scope project:
               .gemini/settings.json in a folder Gemini CLI trusts.
  copilot      disabledSkills in ~/.copilot/settings.json (COPILOT_HOME), or --scope project:
               the repository's .github/copilot/settings.json.
  opencode     permission.skill {\"NAME\": \"deny\"} in ~/.config/opencode/opencode.json(c), or
               --scope project: the project's opencode.json(c).
Codex, Gemini CLI and OpenCode read their settings when they start: restart a running session.
Enable takes the setting out of every file of the agent's that has it. Other agents have no
such setting: remove the skill's link or folder, or move it, instead.";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill, by name or folder
    #[arg(value_name = "SKILL")]
    skill: String,

    /// The agent, by id: claude-code, codex, gemini-cli, copilot, opencode
    #[arg(long, value_name = "ID", value_parser = agent_id)]
    agent: AgentId,

    /// Which of the agent's settings files: the user's, or the project's [default: user]
    #[arg(long, value_enum)]
    scope: Option<ScopeArg>,

    /// For a Claude Code plugin's skill: turn the whole plugin off or on, all its skills
    #[arg(long)]
    whole_plugin: bool,

    /// Print JSON instead of sentences
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct SwitchedJson<'a> {
    operation: &'static str,
    skill: &'a str,
    dir: std::borrow::Cow<'a, str>,
    agent: AgentId,
    /// The settings files written; none when it already was as asked.
    edited: Vec<std::borrow::Cow<'a, str>>,
    notes: &'a [String],
    /// The command that puts it back.
    undo: Option<String>,
}

pub fn run(args: &Args, machine: &Machine, turn: Turn) -> Result<Outcome, Failure> {
    let inventory = super::scan(machine);
    let candidates = switch::which(target::matching(&inventory, &args.skill), args.agent);
    let skill = match candidates.as_slice() {
        [] => {
            let failure = Failure::Refused(format!(
                "no skill is named {} or lives in that folder{}",
                args.skill,
                target::did_you_mean(&inventory, &args.skill)
            ));
            return target::refuse(args.json, "no_such_skill", failure);
        }
        [one] => *one,
        many => {
            return target::refuse(
                args.json,
                "usage",
                Failure::Usage(format!(
                    "{} names {} skills; name one by its folder:\n{}",
                    args.skill,
                    many.len(),
                    many.iter()
                        .map(|s| format!("  {}", s.dir.display()))
                        .collect::<Vec<_>>()
                        .join("\n")
                )),
            );
        }
    };
    let request = Request {
        skill,
        agent: args.agent,
        scope: args.scope.map(ScopeArg::scope),
        whole_plugin: args.whole_plugin,
    };
    let switched = match switch::switch(machine, request, turn) {
        Ok(switched) => switched,
        Err(error) => return target::refuse(args.json, "refused", error.into()),
    };
    let (verb, opposite) = match turn {
        Turn::Off => ("disable", "enable"),
        Turn::On => ("enable", "disable"),
    };
    let undo = (!switched.edited.is_empty()).then(|| {
        format!(
            "skilldeck undo (or: skilldeck {opposite} {} --agent {})",
            args.skill, args.agent
        )
    });
    if args.json {
        super::json::print(&SwitchedJson {
            operation: verb,
            skill: &skill.name,
            dir: skill.dir.to_string_lossy(),
            agent: args.agent,
            edited: switched
                .edited
                .iter()
                .map(|p| p.to_string_lossy())
                .collect(),
            notes: &switched.notes,
            undo,
        })?;
    } else {
        let home = machine.env.home();
        let agent = args.agent.agent().name();
        let state = if turn == Turn::Off { "off" } else { "on" };
        let mut text = if switched.edited.is_empty() {
            format!(
                "{} is already {state} for {agent}; nothing was changed.\n",
                skill.name
            )
        } else {
            format!(
                "Turned {} {state} for {agent} in {}.\n",
                skill.name,
                switched
                    .edited
                    .iter()
                    .map(|p| human::path(p, home, Unsafe::Escaped))
                    .collect::<Vec<_>>()
                    .join(" and ")
            )
        };
        for note in &switched.notes {
            text.push_str(&format!("Note: {note}.\n"));
        }
        if let Some(undo) = &undo {
            text.push_str(&format!("Undo: {undo}\n"));
        }
        super::print(&text)?;
    }
    super::warn_unjournalled(switched.unjournalled.as_ref())?;
    Ok(Outcome::Done)
}

impl From<SwitchError> for Failure {
    fn from(error: SwitchError) -> Self {
        if error.is_refusal() {
            Failure::Refused(error.to_string())
        } else {
            Failure::Stopped(error.to_string())
        }
    }
}
