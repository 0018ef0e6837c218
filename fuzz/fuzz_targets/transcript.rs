//! The transcript reader that finds the skill folders a session used:
//! `cargo fuzz run transcript --sanitizer none` (stable).

#![no_main]

#[allow(dead_code)]
#[path = "../checks/mod.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::transcript::check(data));
