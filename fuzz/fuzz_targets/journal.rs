//! The journal reader and its torn-tail writer, against hostile or cut-short bytes:
//! `cargo fuzz run journal --sanitizer none` (stable).

#![no_main]

#[allow(dead_code)]
#[path = "../checks/mod.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::journal::check(data));
