//! skilldeck: every Agent Skill on a machine, which agent reads it, where it came from, who
//! installed it and whether it drifted since.
//!
//! The domain modules (`roots`, `scan`, `skill`, `record`, `ownership`, `bundle`, `install`,
//! `snapshot`, `demo`) know nothing of the terminal; the command line in `cli` and the terminal
//! app in `tui` sit on top of them, and `tui` knows nothing of the file system. Under them all,
//! `text` is where text from disk is made safe for a terminal and measured, for both front ends.

pub mod bundle;
pub mod cli;
pub mod demo;
pub mod install;
pub mod launch;
pub mod operations;
pub mod ownership;
pub mod record;
pub mod roots;
pub mod scan;
pub mod skill;
pub mod snapshot;
pub mod text;
pub mod tui;
pub mod untrusted;
