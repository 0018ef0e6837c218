//! The integration tests, in one binary so the crate is linked once (as ripgrep and cargo
//! gather theirs): each module is one area, `common` holds the fixtures they share.

#![allow(clippy::unwrap_used)] // a test that cannot unwrap has failed

mod agree;
mod architecture;
mod bad_input;
mod cli;
mod common;
mod crash;
mod cross_check;
mod export_redaction;
mod file_system;
mod foreign_reads;
mod fuzz_corpus;
mod history;
mod import_cancel_and_refuse;
mod import_corpus;
mod import_destination;
mod import_folder;
mod import_hostile;
mod import_install;
mod import_outcomes;
mod import_readers;
mod import_real_world;
mod import_replace;
mod import_snapshots;
mod installed_agents;
mod inventory;
mod left_out;
mod manage;
mod operations;
mod ownership;
mod ownership_agents;
mod plugins;
mod properties;
mod prune;
mod readme_agents;
mod readme_keys;
mod snapshot_changes;
mod snapshot_cli;
mod snapshot_diff_between;
mod snapshot_diff_bounds;
mod snapshot_store;
mod snapshot_tamper;
mod switch;
mod terminal_injection;
mod tui_agents;
mod tui_diff_keys;
mod tui_e2e;
mod tui_flows;
mod tui_history;
mod tui_manage;
mod tui_markers;
mod tui_snapshots;
mod tui_update;
mod tui_update_flows;
