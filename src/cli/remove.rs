//! `skilldeck remove SKILL...`: snapshot, then remove each skill (a link is unlinked, never
//! followed), and say how to bring it back.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::operations::batch::{self, OnFailure};
use crate::operations::progress::{Cancel, Step};
use crate::operations::remove::{self, Removed, Target};
use crate::roots::Machine;
use crate::scan::Skill;
use crate::text::{Unsafe, human};

use super::{Failure, Outcome, json, target};

const AFTER_HELP: &str = "\
A skill folder is snapshotted first, then removed in one rename under its root's lock, so a
crash leaves it whole or gone; every link that reaches it is unlinked, never followed.
Naming a link by its path (`skilldeck remove ~/.claude/skills/pdf`) removes only that link;
when the skills CLI's canonical copy in ~/.agents/skills is then used by no link, skilldeck
says so and leaves it to you.

Not removed: a plugin's skills (uninstall the plugin with its agent's plugin manager, or
`skilldeck disable SKILL --agent A`), an agent's built-in skills, and a folder holding what
no snapshot keeps (a .git folder, a link out of it). The project's skills-lock.json drops
the skill's entry (undo puts it back); other installers' lock files that list the skill are
not edited, and skilldeck names them as stale.

Every removal is journalled: `skilldeck undo` brings the last one back, byte for byte.

Exit codes: 0 removed; 1 refused or nothing matched; 2 usage error (a name that matches
several skills lists them); 3 an I/O failure stopped the work.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The skills, each by name (`pdf`) or by path (its folder, or one link to it)
    #[arg(value_name = "SKILL", required = true)]
    skills: Vec<String>,
    /// Print JSON instead of sentences
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct RemovedJson<'a> {
    removed: Vec<OneJson<'a>>,
    undo: &'static str,
}

#[derive(Serialize)]
struct OneJson<'a> {
    name: &'a str,
    dir: &'a Path,
    removed: &'a [PathBuf],
    kept: Option<&'a str>,
    unused_canonical: Option<&'a Path>,
    stale_locks: &'a [PathBuf],
    left_in_place: Option<&'a Path>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lock: Option<json::LockKeptJson<'a>>,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let inventory = super::scan(machine);
    // Every name resolved before anything is removed: one that matches nothing, or several
    // skills, stops the command with nothing done.
    let mut targets = Vec::new();
    for arg in &args.skills {
        match target::live(&inventory, machine, arg) {
            Ok(skill) => targets.push(Target {
                skill,
                only: target::link_named(skill, arg),
            }),
            Err(failure) => return target::refuse(args.json, "no_such_skill", failure),
        }
    }
    // The command ends at its first failure, having said what it removed before.
    let report = remove::run(
        machine,
        targets,
        OnFailure::Stop,
        &mut |_: Step<'_>| {},
        &Cancel::new(),
    );
    let done: Vec<(&Skill, &Removed)> = report.removed().collect();
    let failed = report
        .outcomes
        .iter()
        .find_map(|(_, outcome)| match outcome {
            batch::Outcome::Failed(error) => Some(error),
            _ => None,
        });
    report_done(args, machine, &done)?;
    match failed {
        Some(error) => {
            let code = if error.is_refusal() {
                "refused"
            } else {
                "io_failure"
            };
            target::refuse(
                args.json && done.is_empty(),
                code,
                target::failure(error.is_refusal(), error),
            )
        }
        None => Ok(Outcome::Done),
    }
}

fn report_done(args: &Args, machine: &Machine, done: &[(&Skill, &Removed)]) -> Result<(), Failure> {
    if done.is_empty() {
        return Ok(());
    }
    if args.json {
        let removed = done
            .iter()
            .map(|(skill, removed)| OneJson {
                name: &skill.name,
                dir: &skill.dir,
                removed: &removed.removed,
                kept: removed.kept.as_deref(),
                unused_canonical: removed.unused_canonical.as_deref(),
                stale_locks: &removed.stale_locks,
                left_in_place: removed.left_in_place.as_deref(),
                lock: json::LockKeptJson::of(&removed.lock),
            })
            .collect();
        json::print(&RemovedJson {
            removed,
            undo: "skilldeck undo",
        })?;
    } else {
        super::print(&sentences(machine, done))?;
    }
    for (_, removed) in done {
        super::warn_unjournalled(removed.unjournalled.as_ref())?;
        super::say_lock_upkeep(&removed.lock)?;
    }
    Ok(())
}

fn sentences(machine: &Machine, done: &[(&Skill, &Removed)]) -> String {
    let home = machine.home();
    let shown = |path: &Path| human::path(path, home, Unsafe::Escaped);
    let mut text = String::new();
    for (skill, removed) in done {
        text.push_str(&format!("Removed {}:\n", skill.name));
        for path in &removed.removed {
            let what = if Some(path) == removed.kept.as_ref().map(|_| &skill.real_dir) {
                "folder"
            } else {
                "link"
            };
            text.push_str(&format!("  {what} {}\n", shown(path)));
        }
        if let Some(id) = &removed.kept {
            text.push_str(&format!("  its files are kept in snapshot {id}\n"));
        }
        if let Some(folder) = &removed.left_in_place {
            text.push_str(&format!(
                "  the folder the links led to, {}, lies in no root and was left where it is\n",
                shown(folder)
            ));
        }
        if let Some(canonical) = &removed.unused_canonical {
            text.push_str(&format!(
                "  no link uses its canonical copy {} any more (agents that read its folder still load it); `skilldeck remove {}` removes it too\n",
                shown(canonical),
                shown(canonical)
            ));
        }
        for lock in &removed.stale_locks {
            text.push_str(&format!(
                "  {} still lists it: skilldeck does not edit that installer's file, so it is now stale\n",
                shown(lock)
            ));
        }
    }
    if done.len() == 1 {
        text.push_str("Undo with `skilldeck undo`.\n");
    } else {
        text.push_str(&format!(
            "Undo with `skilldeck undo`, once for each of the {} removals, latest first.\n",
            done.len()
        ));
    }
    text
}
