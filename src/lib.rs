//! skilldeck: every Agent Skill on a machine, which agent reads it, where it came from, who
//! installed it and whether it drifted since.
//!
//! Under everything, `text` makes text from disk safe for a terminal and measures it, `fs`
//! holds the system calls every write and every read of a file skilldeck did not write rely
//! on, and `limits` every bound those reads are held to. The domain modules above them
//! (`skill`, `record`, `roots`, `plugin`, `ownership`, `lock`, `scan`, `listing`, `bundle`, `source`, `install`,
//! `snapshot`, `demo`, each using only those before it) know nothing of the terminal.
//! `operations` holds each user-level action once, journalled; the command line in `cli` and
//! the terminal app in `tui` both call it, neither knows the other, and `tui` knows nothing of
//! the file system. `launch` opens the app when no subcommand is given.
//! `tests/it/architecture.rs` holds the order.

pub mod bundle;
pub mod cli;
pub mod demo;
pub mod fs;
pub mod install;
pub mod launch;
pub mod limits;
pub mod listing;
pub mod lock;
pub mod merge;
pub mod operations;
pub mod ownership;
pub mod plugin;
pub mod record;
pub mod roots;
pub mod scan;
pub mod settings;
pub mod skill;
pub mod snapshot;
pub mod source;
pub mod text;
pub mod tui;
pub mod usage;
