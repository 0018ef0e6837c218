//! Snapshots: the store and its bounds, tampering refused, what changed since, the diffs
//! between two, and a skill's history.

mod changes;
mod cli;
mod diff_between;
mod diff_bounds;
mod history;
mod store;
mod tamper;
