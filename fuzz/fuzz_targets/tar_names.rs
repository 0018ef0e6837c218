//! Structure-aware tar archives from our own header writer, read by skilldeck and compared
//! with an independent reader:
//! `cargo fuzz run tar_names --sanitizer none` (stable).

#![no_main]

#[allow(dead_code)]
#[path = "../checks/mod.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    check::tar_names::check(data);
});
