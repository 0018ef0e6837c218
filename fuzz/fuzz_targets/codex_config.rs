//! Codex's `config.toml` editor, with the layout skilldeck keeps (byte-order mark, CRLF, LF or
//! mixed line endings, no final newline), on any bytes:
//! `cargo fuzz run codex_config --sanitizer none` (stable).

#![no_main]

#[allow(dead_code)]
#[path = "../checks/mod.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::codex_config::check(data));
