//! The integration tests, in one binary so the crate is linked once (as ripgrep and cargo
//! gather theirs): each module is one area, `common` holds the fixtures they share.

#![allow(clippy::unwrap_used)] // a test that cannot unwrap has failed

mod agree;
mod architecture;
mod audit;
mod cli;
mod common;
mod import;
mod inventory;
mod lock;
mod manage;
mod ownership;
mod safety;
mod settings;
mod snapshot;
mod tui;
mod update;
mod usage;
