//! Writing skills into a root: staged beside it, synced, and renamed into place in one step,
//! under a lock, so a crash leaves the old skill or the new one and never a mix.

mod swap;

pub use swap::{RootLock, Staged, SwapError};
