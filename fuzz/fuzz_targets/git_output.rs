//! The readers of git's tree listings and blob batches, as a hostile server would feed them:
//! `cargo fuzz run git_output --sanitizer none` (stable).

#![no_main]

#[allow(dead_code)]
#[path = "../checks/mod.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::git_output::check(data));
