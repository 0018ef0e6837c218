//! skilldeck: every Agent Skill on a machine, which agent reads it, where it came from, who
//! installed it and whether it drifted since.
//!
//! The domain modules (`roots`, `scan`, `skill`, `record`) know nothing of the terminal; the
//! command line in `cli` and the terminal app sit on top of them.

pub mod cli;
pub mod demo;
pub mod record;
pub mod roots;
pub mod scan;
pub mod skill;
pub mod tui;
pub mod untrusted;
