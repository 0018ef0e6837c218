//! The corpus the fuzz target grew (`fuzz/corpus/bundle`), replayed on the stable toolchain:
//! every input keeps the invariants the fuzz target checks.

#![allow(clippy::unwrap_used)] // a test that cannot unwrap has failed

#[path = "../fuzz/check.rs"]
mod check;

#[test]
fn every_input_of_the_fuzz_corpus_keeps_the_invariants() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/bundle");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| check::check(&data));
        assert!(outcome.is_ok(), "{} breaks an invariant", path.display());
        replayed += 1;
    }
    assert!(
        replayed >= 100,
        "only {replayed} inputs in {}",
        dir.display()
    );
}
