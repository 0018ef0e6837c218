//! `skilldeck restore`: put a skill back as a snapshot holds it, atomically, keeping what it
//! replaces as a snapshot of its own.

use crate::snapshot::Store;
use crate::snapshot::restore::{self, Restored};

use super::human::tilde;
use super::{Context, Failure, Outcome, target};

pub type Args = target::SnapshotOf;

pub fn run(args: &Args, context: &Context) -> Result<Outcome, Failure> {
    let store = Store::open(&context.env);
    let (dir, snapshot) = args.resolve(context, &store)?;
    let shown = tilde(&dir, context.env.home());
    let text = match restore::restore(&store, &snapshot)? {
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
    Ok(Outcome::Done)
}
