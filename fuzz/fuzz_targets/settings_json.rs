//! The JSON settings editor against each agent's own parser (JSON.parse, Gemini CLI's
//! strip-json-comments, JSONC): `cargo fuzz run settings_json --sanitizer none` (stable).

#![no_main]

#[allow(dead_code)]
#[path = "../checks/mod.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::settings_json::check(data));
