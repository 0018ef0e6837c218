//! skilldeck's core: every Agent Skill on a machine, which agent reads it, where it came from,
//! who installed it and whether it drifted since — and every operation on them, each once.
//!
//! Under everything, `text` makes text from disk safe for a terminal and measures it, `fs`
//! holds the system calls every write and every read of a file skilldeck did not write rely
//! on, and `limits` every bound those reads are held to. The domain modules above them
//! (`skill`, `record`, `roots`, `plugin`, `ownership`, `lock`, `scan`, `usage`, `listing`,
//! `bundle`, `source`, `install`, `snapshot`, `demo`, `settings`, each using only those before
//! it), `live`, the watch on the skills' files and the rescan of only those that change, and
//! `operations`, which holds each user-level action once, journalled, as a request in and a
//! typed report out. This crate has no terminal in its manifest: the command line and
//! the terminal app (the `skilldeck` crate) render what it reports. `tests/it/architecture.rs`
//! holds the order.

pub mod audit;
pub mod bundle;
pub mod demo;
pub mod fs;
pub mod install;
pub mod limits;
pub mod listing;
pub mod live;
pub mod lock;
pub mod merge;
pub mod operations;
pub mod ownership;
pub mod path_prefix;
pub mod plugin;
pub mod record;
pub mod roots;
pub mod scan;
pub mod settings;
pub mod skill;
pub mod snapshot;
pub mod source;
pub mod text;
pub mod usage;
