//! The bundle reader on arbitrary bytes, as they are and gzipped:
//! `cargo fuzz run bundle --sanitizer none` (stable).

#![no_main]

#[allow(dead_code)]
#[path = "../checks/mod.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::bundle::check(data));
