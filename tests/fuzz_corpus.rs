//! The corpora the fuzz targets grew (`fuzz/corpus/<target>`), replayed on the stable
//! toolchain: every input keeps the invariants its target checks (`fuzz/checks`).
//!
//! A test binary of its own, not a module of `tests/it`: `fuzz/` is a package of its own, so
//! neither its checks nor its corpora are in the published crate, and cargo leaves this target
//! out of it with them.

#![allow(clippy::unwrap_used)] // a test that cannot unwrap has failed

#[allow(dead_code)]
#[path = "../fuzz/checks/mod.rs"]
mod checks;

use std::path::{Path, PathBuf};

/// The inputs of one target's corpus, at least `fewest` of them.
fn corpus(target: &str, fewest: usize) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut inputs: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            (path, data)
        })
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= fewest,
        "only {} inputs in {}",
        inputs.len(),
        dir.display()
    );
    inputs
}

fn replay(target: &str, fewest: usize, check: impl Fn(&[u8])) {
    for (path, data) in corpus(target, fewest) {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&data)));
        assert!(outcome.is_ok(), "{} breaks an invariant", path.display());
    }
}

#[test]
fn the_bundle_corpus_keeps_the_invariants() {
    replay("bundle", 100, checks::bundle::check);
}

#[test]
fn the_gzip_corpus_keeps_the_invariants() {
    replay("bundle_gz", 100, checks::bundle::check_gzip);
}

/// Replay a structure-aware corpus, whose `check` says whether the archive was accepted.
fn replay_structured(target: &str, check: fn(&[u8]) -> bool) {
    let inputs = corpus(target, 100);
    let mut accepted = 0;
    for (path, data) in &inputs {
        match std::panic::catch_unwind(|| check(data)) {
            Ok(true) => accepted += 1,
            Ok(false) => {}
            Err(_) => panic!("{} breaks an invariant", path.display()),
        }
    }
    // The differential check only bites on accepted archives: the corpus must hold many.
    assert!(
        accepted * 10 >= inputs.len(),
        "only {accepted} of {} archives accepted",
        inputs.len()
    );
}

#[test]
fn the_structured_tar_corpus_agrees_with_the_independent_reader() {
    replay_structured("tar_names", checks::tar_names::check);
}

#[test]
fn the_structured_zip_corpus_agrees_with_the_other_zip_readings() {
    replay_structured("zip_records", checks::zip_records::check);
}

#[test]
fn the_frontmatter_corpus_keeps_the_invariants() {
    replay("frontmatter", 20, checks::frontmatter::check);
}

#[test]
fn the_journal_corpus_keeps_the_invariants() {
    replay("journal", 20, checks::journal::check);
}

#[test]
fn the_settings_json_corpus_keeps_the_invariants() {
    replay("settings_json", 40, checks::settings_json::check);
}

#[test]
fn the_record_corpus_keeps_the_invariants() {
    replay("record", 20, checks::record::check);
}

#[test]
fn the_transcript_corpus_keeps_the_invariants() {
    replay("transcript", 20, checks::transcript::check);
}

#[test]
fn the_git_output_corpus_keeps_the_invariants() {
    replay("git_output", 40, checks::git_output::check);
}

#[test]
fn the_codex_config_corpus_keeps_the_invariants() {
    replay("codex_config", 20, checks::codex_config::check);
}
