//! The bundle reader on arbitrary bytes read as the tar inside a two-member gzip stream:
//! `cargo fuzz run bundle_gz --sanitizer none` (stable).

#![no_main]

#[allow(dead_code)]
#[path = "../checks/mod.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::bundle::check_gzip(data));
