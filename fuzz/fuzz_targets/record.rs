//! The strict ownership-record parser, against the record writer:
//! `cargo fuzz run record --sanitizer none` (stable).

#![no_main]

#[allow(dead_code)]
#[path = "../checks/mod.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::record::check(data));
