//! The invariants each fuzz target checks, shared with `tests/fuzz_corpus.rs`, which replays
//! every committed corpus through them on the stable toolchain.

pub mod bundle;
pub mod codex_config;
pub mod frontmatter;
pub mod git_output;
pub mod journal;
pub mod record;
pub mod settings_json;
pub mod tar_names;
pub mod tar_oracle;
pub mod tar_writer;
pub mod transcript;
pub mod zip_records;
