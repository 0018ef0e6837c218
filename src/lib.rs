//! skilldeck: every Agent Skill on a machine, which agent reads it, where it came from, who
//! installed it and whether it drifted since.
//!
//! The domain modules (`roots`, `scan`, `skill`, `record`, `install`, `snapshot`) know nothing of the terminal; the
//! command line in `cli` and the terminal app sit on top of them.

pub mod bundle;
pub mod cli;
pub mod install;
pub mod ownership;
pub mod record;
pub mod roots;
pub mod scan;
pub mod skill;
pub mod snapshot;
pub mod untrusted;
