//! `skilldeck lock`: write the project's `skills-lock.json` from its skills.

use std::fmt::Write as _;

use crate::operations::lock::{self, LockOpError};
use crate::roots::Machine;

use super::{Failure, Outcome};

const AFTER_HELP: &str = "\
The lock is the skills CLI's own file (skills-lock.json at the project's root: the repository
root, or the current folder outside one), in its format exactly, so `npx skills
experimental_install` restores it and `skilldeck verify` checks it. Every skill of the project's
skill folders at that root is locked (.agents/skills, .claude/skills, .github/skills and the
other agents'), under its folder's name:
  - a skill skilldeck imported from git: its repository, ref and folder, and the commit it was
    fetched at in \"commit\" (a field the skills CLI keeps);
  - a skill the lock already names a source for: that source;
  - any other: a \"local\" source, its skills folder.
computedHash is the skills CLI's hash of the skill as it would install it: skilldeck's record
in SKILL.md is left out. The previous lock is kept; `skilldeck undo` puts it back.

Once the project has a lock, `import`, `update`, `remove`, `link`, `copy` and `move` keep it
current: the entry of each project skill they add, change or take away is added, refreshed or
dropped as `lock` would write it, the other entries (and fields other tools wrote) kept as
they are; `skilldeck undo` of the operation puts the lock back too. A project without a lock
gets none. `skilldeck list` and the app show each project skill as locked, differing or
unlocked.

Examples:
  skilldeck lock
  skilldeck lock --project ~/work/app";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {}

pub fn run(_args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let inventory = super::scan(machine);
    let done = match lock::lock(machine, &inventory) {
        Ok(done) => done,
        Err(LockOpError::Write(error)) if !error.is_refusal() => {
            return Err(Failure::Stopped(error.to_string()));
        }
        Err(LockOpError::Hash(error)) => return Err(Failure::Stopped(error.to_string())),
        Err(error) => return Err(Failure::Refused(format!("nothing written: {error}"))),
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} ({})",
        if done.changed { "wrote" } else { "up to date:" },
        done.path.display(),
        crate::text::human::count(done.skills.len(), "skill"),
    );
    for (name, locked) in &done.skills {
        let commit = locked
            .commit
            .as_deref()
            .map(|c| format!(" at {}", &c[..c.len().min(12)]))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {name}: {} {}{commit}",
            locked.source_type, locked.source
        );
    }
    super::print(&out)?;
    super::warn_unjournalled(done.unjournalled.as_ref())?;
    Ok(Outcome::Done)
}
