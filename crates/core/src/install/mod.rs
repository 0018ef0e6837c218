//! Writing skills into a root: staged beside it, synced, and renamed into place in one step,
//! under a lock, so a crash leaves the old skill or the new one and never a mix; each with
//! skilldeck's ownership record, and only where the root holds nothing an import may not
//! replace.

mod existing;
mod import;
mod swap;

pub use existing::{Existing, judge};
pub use import::{
    Action, Conflict, InstallError, Installed, Progress, Sealed, Step, Watch, a_folder_on_the_way,
    install, plan, sealed,
};
pub use swap::{RootLock, Staged, SwapError, sync_together};
