//! `skilldeck sync [--frozen] [--json]`: the project's skills brought to its
//! `skills-lock.json`. Exit 0 when every locked skill matches; 1 when one is refused (with
//! `--frozen`: nothing written); 3 when an I/O failure stopped the work.

use std::fmt::Write as _;
use std::io::IsTerminal;

use serde_json::json;

use crate::operations::progress::Step;
use crate::operations::sync::{self, Request, State, SyncError, Synced};
use crate::operations::verify::relative;
use crate::roots::Machine;

use super::json;
use super::{Failure, Outcome};

const AFTER_HELP: &str = "\
sync reads the project's skills-lock.json (at the repository root; `skilldeck lock` or the
skills CLI writes it) and puts each locked skill in .agents/skills/NAME, where
`npx skills experimental_install` restores it (the skills CLI restores for the agents that read
.agents/skills, so it links no other agent's folder, and neither does sync):
  - fetched with your own git from its source at the locked \"commit\"; a lock the skills CLI
    wrote has no commit, only a branch or tag (\"ref\"), so the last 1000 commits of the ref
    are searched for the one whose folder hashes to the lock's computedHash, and sync says
    which commit it found (and writes it into the lock's \"commit\" field);
  - its files hashed before anything is written: a skill whose files do not match the lock's
    computedHash is never installed;
  - a skill already there with the locked hash is left as it is; one that differs is replaced,
    what it held kept in a snapshot; a team's own skill (a \"local\" source in the project)
    is checked where it is.
Everything one sync changes is one journal entry: `skilldeck undo` puts the project back.

--frozen changes nothing unless every locked skill matches, like `cargo --locked` and
`npm ci`: each mismatch is named (its hash at the commit, a commit not found, a source
unreachable, an installed folder that differs from the lock) and nothing is written, the
lock included. Use it in CI, then `skilldeck verify`.

Ctrl-C stops sync before the next skill is fetched or put in place: what is not synced is
named as cancelled, and nothing is left half written (a second Ctrl-C stops it at once).

A lock that names a path out of the project, an absolute path, an option-like source
(`--upload-pack=…`), an unknown version or files past the import bounds is refused whole.

Exit codes: 0 every locked skill matches; 1 a skill or the lock was refused (with --frozen,
nothing written); 3 an I/O failure stopped the work.

Examples:
  skilldeck sync
  skilldeck sync --frozen
  skilldeck sync --frozen --json";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Change nothing unless every locked skill matches the lock; name each mismatch
    #[arg(long)]
    frozen: bool,
    /// Print what was done as JSON (docs/schema/sync.schema.json)
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let inventory = super::scan(machine);
    let talk = std::io::stderr().is_terminal() && !args.json;
    let mut progress = |step: Step<'_>| {
        if talk && let Step::Said(said) = step {
            let _ = super::eprint(&format!("{said}\n"));
        }
    };
    let request = Request {
        frozen: args.frozen,
    };
    let cancel = super::interrupt::cancel_on_interrupt();
    let synced = match sync::sync(machine, &inventory, request, &mut progress, &cancel) {
        Ok(synced) => synced,
        Err(error) if error.is_refusal() => return refused(args, code(&error), &error),
        Err(error) => return Err(Failure::Stopped(error.to_string())),
    };
    if args.json {
        json::print(&as_json(&synced))?;
    } else {
        super::print(&text(&synced))?;
    }
    super::warn_unjournalled(synced.unjournalled.as_ref())?;
    for unrecorded in &synced.unrecorded {
        super::eprint(&format!("skilldeck: warning: {unrecorded}\n"))?;
    }
    for missed in &synced.missed_baselines {
        super::eprint(&format!(
            "skilldeck: warning: a baseline snapshot could not be kept: {missed}\n"
        ))?;
    }
    if synced.clean() {
        return Ok(Outcome::Done);
    }
    if !args.json {
        super::eprint(&mismatches(&synced))?;
    }
    Ok(Outcome::Negative)
}

fn code(error: &SyncError) -> &'static str {
    match error {
        SyncError::NoLock(_) => "no_lock",
        SyncError::Lock(_) => "untrusted_lock",
        SyncError::Project(_) => "project_unlockable",
        SyncError::OutsideProject { .. } => "outside_project",
        SyncError::Install(_) => "destination_conflict",
        SyncError::Write(_) => "lock_changed",
    }
}

fn refused(args: &Args, code: &'static str, why: &SyncError) -> Result<Outcome, Failure> {
    super::refused_as(args.json, code, why)
}

/// A commit as a line shows it.
fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}

fn text(synced: &Synced) -> String {
    let mut out = String::new();
    for skill in &synced.skills {
        let dir = relative(&synced.top, &skill.dir);
        let at = skill
            .commit
            .as_deref()
            .map(|c| format!(" at {}", short(c)))
            .unwrap_or_default();
        let found = if skill.found {
            " (found in the source's history: the lock named no commit)"
        } else {
            ""
        };
        let line = match &skill.state {
            State::Installed(action) => format!("{action} {dir}{at}{found}"),
            State::Matching => format!("matching {dir}"),
            State::WouldChange => format!("would install {dir}{at}{found}"),
            State::Refused(_) => format!("refused {dir}"),
        };
        let _ = writeln!(out, "  {}: {line}", skill.name);
    }
    let count = |word: &str| {
        synced
            .skills
            .iter()
            .filter(|s| s.state.word() == word)
            .count()
    };
    let wrote_nothing = synced.frozen && !synced.clean();
    let _ = writeln!(
        out,
        "{}: {}: {} installed, {} matching, {} refused{}{}",
        relative(&synced.top, &synced.lock_path),
        crate::text::human::count(synced.skills.len(), "locked skill"),
        count("installed"),
        count("matching"),
        count("refused"),
        if wrote_nothing {
            "; --frozen: nothing written"
        } else {
            ""
        },
        if synced.lock_written {
            "; the commits found written into the lock"
        } else {
            ""
        },
    );
    out
}

/// One sentence per locked skill refused, for standard error.
fn mismatches(synced: &Synced) -> String {
    let mut out = String::new();
    for skill in &synced.skills {
        if let State::Refused(why) = &skill.state {
            let _ = writeln!(out, "skilldeck: {}: {why}", skill.name);
        }
    }
    if synced.frozen {
        let _ = writeln!(
            out,
            "skilldeck: --frozen: the project does not match {}, so nothing was written",
            relative(&synced.top, &synced.lock_path)
        );
    }
    out
}

fn as_json(synced: &Synced) -> serde_json::Value {
    let skills: Vec<serde_json::Value> = synced
        .skills
        .iter()
        .map(|skill| {
            let (action, reason) = match &skill.state {
                State::Installed(action) => (Some(action.as_str()), None),
                State::Refused(why) => (None, Some(why.to_string())),
                State::Matching | State::WouldChange => (None, None),
            };
            json!({
                "name": skill.name,
                "dir": skill.dir,
                "state": skill.state.word(),
                "action": action,
                "commit": skill.commit,
                "found": skill.found,
                "reason": reason,
            })
        })
        .collect();
    json!({
        "lock": synced.lock_path,
        "frozen": synced.frozen,
        "clean": synced.clean(),
        "lock_written": synced.lock_written,
        "skills": skills,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_gives_the_search_bound_in_force() {
        let bound = crate::limits::HISTORY_COMMITS.to_string();
        assert!(AFTER_HELP.contains(&format!("last {bound} commits")));
    }
}
