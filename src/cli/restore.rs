//! `skilldeck restore`: put a skill back as a snapshot holds it, atomically, keeping what it
//! replaces as a snapshot of its own.

use crate::snapshot::Store;
use crate::snapshot::restore::{self, Restored};

use super::human::tilde;
use super::{Context, Failure, Outcome, target};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill, by name or folder
    #[arg(value_name = "SKILL")]
    skill: String,

    /// The snapshot to restore, by id or the start of one [default: the latest]
    #[arg(long, value_name = "ID")]
    snapshot: Option<String>,
}

pub fn run(args: &Args, context: &Context) -> Result<Outcome, Failure> {
    let store = Store::open(&context.env);
    let dir = target::one(&context.scan(), &store, &args.skill)?;
    let snapshot = store.find(&dir, args.snapshot.as_deref())?;
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
