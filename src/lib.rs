//! skilldeck: every Agent Skill on a machine, which agent reads it, where it came from, who
//! installed it and whether it drifted since.
//!
//! The domain modules (`fs`, `skill`, `record`, `roots`, `plugin`, `ownership`, `scan`,
//! `bundle`, `install`, `snapshot`, `demo`, each using only those before it) know nothing of
//! the terminal; the command line in `cli` and the terminal app in `tui` sit on top of them,
//! and `tui` knows nothing of the file system. `tests/it/architecture.rs` holds the order.

pub mod bundle;
pub mod cli;
pub mod demo;
pub mod fs;
pub mod install;
pub mod launch;
pub mod operations;
pub mod ownership;
pub mod plugin;
pub mod record;
pub mod roots;
pub mod scan;
pub mod skill;
pub mod snapshot;
pub mod tui;
