//! Structure-aware zip archives written record by record, read by skilldeck and compared with
//! the zip crate's central directory and a streaming walk of the local headers:
//! `cargo fuzz run zip_records --sanitizer none` (stable).

#![no_main]

#[allow(dead_code)]
#[path = "../checks/mod.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    check::zip_records::check(data);
});
