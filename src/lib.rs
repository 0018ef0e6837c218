//! skilldeck: the command line (`cli`) and the terminal app (`tui`) over the core crate,
//! `skilldeck_core`, which holds the domain and every operation. The two front ends render the
//! core's reports and know nothing of each other; `tui` knows nothing of the file system.
//! `launch` opens the app when no subcommand is given.
//!
//! The core's modules are re-exported under their own names, so that `skilldeck::roots` and
//! `crate::roots` name the same module as `skilldeck_core::roots`.

pub use skilldeck_core::{
    audit, bundle, demo, fs, install, limits, listing, live, lock, merge, operations, ownership,
    plugin, record, roots, scan, settings, skill, snapshot, source, text, usage,
};

pub mod cli;
pub mod launch;
pub mod tui;
