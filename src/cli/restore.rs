//! `skilldeck restore`: put a skill back as a snapshot holds it, atomically, keeping what it
//! replaces as a snapshot of its own.

use crate::operations::restore;
use crate::roots::Machine;
use crate::snapshot::Store;
use crate::snapshot::restore::Restored;

use super::{Failure, Outcome, target};
use crate::text::{Unsafe, human};

pub type Args = target::SnapshotOf;

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let store = Store::open(&machine.env);
    let (dir, snapshot) = args.resolve(machine, &store)?;
    let shown = human::path(&dir, machine.env.home(), Unsafe::Escaped);
    let done = restore::restore(machine, &dir, Some(&snapshot.id))?;
    let text = match done.restored {
        None => {
            format!(
                "{shown} already matches snapshot {}; nothing to restore.\n",
                snapshot.id
            )
        }
        Some(Restored {
            replaced: Some(replaced),
            baseline,
        }) => format!(
            "Restored {shown} to snapshot {}.\nWhat it replaced is kept as snapshot {}; the restored content is snapshot {}.\n",
            snapshot.id, replaced.id, baseline.id
        ),
        Some(Restored {
            replaced: None,
            baseline,
        }) => format!(
            "Restored {shown}, which was gone, to snapshot {}; the restored content is snapshot {}.\n",
            snapshot.id, baseline.id
        ),
    };
    super::print(&text)?;
    super::warn_unjournalled(done.unjournalled.as_ref())?;
    Ok(Outcome::Done)
}
