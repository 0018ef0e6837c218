//! SKILL.md frontmatter, declared fields, lints and the record stamp:
//! `cargo fuzz run frontmatter --sanitizer none` (stable).

#![no_main]

#[allow(dead_code)]
#[path = "../checks/mod.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::frontmatter::check(data));
