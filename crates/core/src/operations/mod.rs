//! The user-level actions, one function each, shared by the command line and the terminal
//! app so the two cannot disagree on policy: [`import`], [`export`], [`snapshot`] (and
//! [`snapshot::accept`], [`snapshot::delete`]), [`prune`], [`restore`]. Each takes the [`Machine`](crate::roots::Machine) it
//! acts on and returns a typed outcome; the front ends only turn that into words.
//!
//! Each operation that changes a root or the snapshot store appends an entry to the
//! [`journal`]: what it did, when, and which snapshot holds what was there before, the base
//! of `undo`.

pub mod batch;
pub mod export;
pub mod import;
pub mod journal;
pub mod judged;
mod keeping;
pub mod lock;
pub mod lock_state;
pub mod lock_upkeep;
pub mod outdated;
pub mod paths;
pub mod peek;
pub mod progress;
pub mod prune;
pub mod remove;
pub mod restore;
pub mod shadow;
pub mod share;
pub mod snapshot;
pub mod switch;
pub mod sync;
pub mod undo;
pub mod update;
pub mod upstream_record;
pub mod verify;

pub use journal::{
    Change, Entry, Journal, JournalError, Operation, SettingsChange, SettingsWas, StoreChange,
    UpstreamChange, Was,
};
