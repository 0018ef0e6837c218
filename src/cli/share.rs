//! `skilldeck link`, `copy` and `move`: make a skill visible to another agent or scope. The
//! plan is shown first when it would change which copy an agent loads, and refused unless
//! `--force`.

use std::path::Path;

use serde::Serialize;

use crate::operations::share::{self, Plan, Share, ShareError};
use crate::roots::{AgentId, Machine, Scope};
use crate::text::{Unsafe, human};

use super::agent_args::{ScopeArg, agent_id};
use super::agents::AllAgents;
use super::{Failure, Outcome, json, target};

const LINK_HELP: &str = "\
`link` makes a symbolic link to the skill's real folder (an absolute path) in the skills
folder of another agent (--agent) at a scope (--scope, default user): the agent loads the
same files, and an edit shows in both. `copy` installs an independent copy there instead, with
skilldeck's record and a baseline snapshot, as `skilldeck import` does.

Before anything is done, skilldeck works out, for every agent installed here that reads the
destination (every agent with --all-agents), whether another skill of the same name is loaded
there and which copy would win (by that agent's own precedence). Such a plan is shown and
refused, naming the agents; --force carries it out anyway.
--dry-run shows the plan and changes nothing.

  skilldeck link pdf --agent codex
  skilldeck copy pdf --agent gemini-cli --scope project --dry-run

Journalled: `skilldeck undo` removes the link, or the copy while it is unchanged.

Exit codes: 0 done; 1 refused (something is already there, or the plan would shadow); 2 usage
error (a name that matches several skills lists them); 3 an I/O failure stopped the work.";

const MOVE_HELP: &str = "\
`move` takes the skill's folder to another scope (--scope user|project) of its own agent, or
to another agent's skills folder (--agent). On one file system it is one rename, and every
byte stays as it was; across file systems the folder is copied (with skilldeck's record) and
the original removed after a snapshot. A folder that links reach, a plugin's skill and an
agent's built-in are not moved.

Shadowing is shown and refused as for `link` (--force moves anyway); --dry-run shows the plan.

  skilldeck move pdf --scope project
  skilldeck move ./.claude/skills/pdf --scope user --agent codex

Journalled: `skilldeck undo` puts the folder back where it was, while it is unchanged.

Exit codes: 0 done; 1 refused; 2 usage error; 3 an I/O failure stopped the work.";

/// `link` and `copy`.
#[derive(Debug, clap::Args)]
#[command(after_help = LINK_HELP)]
pub struct Args {
    /// The skill, by name (`pdf`) or by its folder
    #[arg(value_name = "SKILL")]
    skill: String,
    /// The agent whose skills folder gets it (claude-code, codex, opencode, gemini-cli,
    /// copilot, cursor, ...)
    #[arg(long, value_name = "ID", value_parser = agent_id)]
    agent: AgentId,
    /// The agent's folder for this user, or for this project [default: user]
    #[arg(long, value_enum)]
    scope: Option<ScopeArg>,
    #[command(flatten)]
    common: Common,
}

/// `move`.
#[derive(Debug, clap::Args)]
#[command(after_help = MOVE_HELP)]
pub struct MoveArgs {
    /// The skill, by name (`pdf`) or by its folder
    #[arg(value_name = "SKILL")]
    skill: String,
    /// The scope it goes to
    #[arg(long, value_enum)]
    scope: ScopeArg,
    /// Into this agent's skills folder [default: the agent whose folder holds it now]
    #[arg(long, value_name = "ID", value_parser = agent_id)]
    agent: Option<AgentId>,
    #[command(flatten)]
    common: Common,
}

#[derive(Debug, clap::Args)]
struct Common {
    #[command(flatten)]
    all_agents: AllAgents,
    /// Do it even when it would change which copy of the name an agent loads
    #[arg(long)]
    force: bool,
    /// Show the plan, and change nothing
    #[arg(long)]
    dry_run: bool,
    /// Print JSON instead of sentences
    #[arg(long)]
    json: bool,
}

pub fn run_link(args: &Args, machine: &Machine, how: Share) -> Result<Outcome, Failure> {
    let scope = args.scope.map_or(Scope::User, ScopeArg::scope);
    run(
        machine,
        &args.skill,
        how,
        Some(args.agent),
        scope,
        &args.common,
    )
}

pub fn run_move(args: &MoveArgs, machine: &Machine) -> Result<Outcome, Failure> {
    run(
        machine,
        &args.skill,
        Share::Move,
        args.agent,
        args.scope.scope(),
        &args.common,
    )
}

#[derive(Serialize)]
struct PlanJson<'a> {
    action: &'static str,
    from: &'a Path,
    to: &'a Path,
    agent: &'static str,
    scope: &'static str,
    readers: Vec<&'static str>,
    shadowing: Vec<ShadowJson<'a>>,
}

#[derive(Serialize)]
struct ShadowJson<'a> {
    agent: &'static str,
    winner: &'a Path,
    loser: &'a Path,
    unsettled: bool,
}

#[derive(Serialize)]
struct DoneJson<'a> {
    done: PlanJson<'a>,
    undo: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    lock: Option<json::LockKeptJson<'a>>,
}

#[derive(Serialize)]
struct DryJson<'a> {
    plan: PlanJson<'a>,
}

#[derive(Serialize)]
struct RefusedShadowJson<'a> {
    refused: RefusalShadow<'a>,
}

#[derive(Serialize)]
struct RefusalShadow<'a> {
    code: &'static str,
    message: String,
    plan: PlanJson<'a>,
}

fn plan_json(plan: &Plan) -> PlanJson<'_> {
    PlanJson {
        action: plan.share.verb(),
        from: &plan.from,
        to: &plan.to,
        agent: plan.agent.id(),
        scope: scope_name(plan.scope),
        readers: plan.loaders.shown().iter().map(|a| a.id()).collect(),
        shadowing: plan
            .shadowing
            .iter()
            .map(|s| ShadowJson {
                agent: s.agent.id(),
                winner: &s.winner,
                loser: &s.loser,
                unsettled: s.unsettled,
            })
            .collect(),
    }
}

fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::Project => "project",
        _ => "user",
    }
}

fn run(
    machine: &Machine,
    arg: &str,
    how: Share,
    agent: Option<AgentId>,
    scope: Scope,
    common: &Common,
) -> Result<Outcome, Failure> {
    let inventory = super::scan(machine);
    let skill = match target::live(&inventory, machine, arg) {
        Ok(skill) => skill,
        Err(failure) => return target::refuse(common.json, "no_such_skill", failure),
    };
    let request = share::Request {
        share: how,
        agent,
        scope,
        force: common.force,
        all_agents: common.all_agents.all_agents,
    };
    let plan = match share::plan(machine, &inventory, skill, &request) {
        Ok(plan) => plan,
        Err(error) => return refused(common, &error, None),
    };
    if common.dry_run {
        if common.json {
            json::print(&DryJson {
                plan: plan_json(&plan),
            })?;
        } else {
            super::print(&describe(machine, &plan, false))?;
        }
        return Ok(Outcome::Done);
    }
    match share::share(machine, &plan, common.force) {
        Ok(shared) => {
            if common.json {
                json::print(&DoneJson {
                    done: plan_json(&plan),
                    undo: "skilldeck undo",
                    lock: json::LockKeptJson::of(&shared.lock),
                })?;
            } else {
                super::print(&describe(machine, &plan, true))?;
            }
            super::warn_unjournalled(shared.unjournalled.as_ref())?;
            super::say_lock_upkeep(&shared.lock)?;
            if let Some(missed) = shared.missed_baseline {
                super::eprint(&format!(
                    "skilldeck: done, but its baseline snapshot could not be kept ({missed}); undo will refuse to remove it until `skilldeck snapshot` takes one\n"
                ))?;
            }
            Ok(Outcome::Done)
        }
        Err(error) => refused(common, &error, Some(&plan)),
    }
}

/// What the plan does (or did), with the copy that wins for each agent it affects.
fn describe(machine: &Machine, plan: &Plan, done: bool) -> String {
    let home = machine.home();
    let shown = |path: &Path| human::path(path, home, Unsafe::Escaped);
    let (to, from) = (shown(&plan.to), shown(&plan.from));
    let mut text = match (plan.share, done) {
        // Every arrow points from the source to the destination: the skill, then the link.
        (Share::Link, true) => format!("Linked {} -> {to}\n", shown(&plan.real_from)),
        (Share::Copy, true) => format!("Copied {from} to {to}, with skilldeck's record\n"),
        (Share::Move, true) => format!("Moved {from} to {to}\n"),
        (Share::Link, false) => format!("Would link {} -> {to}\n", shown(&plan.real_from)),
        (Share::Copy, false) => format!("Would copy {from} to {to}\n"),
        (Share::Move, false) => format!("Would move {from} to {to}\n"),
    };
    if !plan.loaders.readers.is_empty() {
        text.push_str(&format!(
            "Where it goes: {}\n",
            super::import::loaded_by(&plan.loaders)
        ));
    }
    text.push_str(&shadowing(machine, plan));
    if done {
        text.push_str("Undo with `skilldeck undo`.\n");
    } else if !plan.shadowing.is_empty() {
        text.push_str("Add --force to do it anyway.\n");
    }
    text
}

/// One line per agent whose loaded copy the plan would change.
fn shadowing(machine: &Machine, plan: &Plan) -> String {
    let home = machine.home();
    let shown = |path: &Path| human::path(path, home, Unsafe::Escaped);
    plan.shadowing
        .iter()
        .map(|s| {
            if s.unsettled {
                format!(
                    "  {}: picks either {} or {}, not always the same\n",
                    s.agent.id(),
                    shown(&s.winner),
                    shown(&s.loser)
                )
            } else {
                format!(
                    "  {}: {} wins over {}\n",
                    s.agent.id(),
                    shown(&s.winner),
                    shown(&s.loser)
                )
            }
        })
        .collect()
}

fn refused(common: &Common, error: &ShareError, plan: Option<&Plan>) -> Result<Outcome, Failure> {
    if let (ShareError::WouldShadow { .. }, Some(plan)) = (error, plan) {
        if common.json {
            json::print(&RefusedShadowJson {
                refused: RefusalShadow {
                    code: error.code(),
                    message: error.to_string(),
                    plan: plan_json(plan),
                },
            })?;
            return Ok(Outcome::Negative);
        }
        return Err(Failure::Refused(format!(
            "{error}\n{}  add --force to do it anyway",
            shadowing_for_error(plan)
        )));
    }
    target::refuse(
        common.json,
        error.code(),
        target::failure(error.is_refusal(), error),
    )
}

fn shadowing_for_error(plan: &Plan) -> String {
    plan.shadowing
        .iter()
        .map(|s| {
            format!(
                "  {}: {} would win over {}{}\n",
                s.agent.id(),
                s.winner.display(),
                s.loser.display(),
                if s.unsettled {
                    " (or the other way: it picks either)"
                } else {
                    ""
                }
            )
        })
        .collect()
}
