//! The bundle reader on arbitrary bytes: `cargo fuzz run bundle --sanitizer none` (stable).

#![no_main]

#[path = "../check.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
