//! What some tests need from outside the crate, which a published crate does not hold: other
//! people's skill repositories (the archives of `shared/real-world`, never committed), found
//! through `$SKILLDECK_REAL_WORLD`, the folder holding them (the agents, `$SKILLDECK_AGENTS`,
//! are found by `agree`).
//!
//! Unset, the tests that read them say loudly that they did not run and pass, except under
//! `CI=true`, where they fail: CI must run against them. Set, the folder must hold them.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

/// The variable naming the folder.
pub const REAL_WORLD: &str = "SKILLDECK_REAL_WORLD";

/// The folder of real-world repositories, or `None` (said on stderr, naming `what` was skipped)
/// when the variable is unset outside CI.
pub fn real_world_folder(what: &str) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(REAL_WORLD).filter(|v| !v.is_empty()) {
        let dir = PathBuf::from(dir);
        assert!(
            dir.is_dir(),
            "{REAL_WORLD}={} is not a folder",
            dir.display()
        );
        return Some(dir);
    }
    let message = format!(
        "{REAL_WORLD} is not set: {what} did not run; set it to the folder of the real-world \
         archives (shared/real-world)"
    );
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("{message}; CI must run against them");
    }
    say_skipped(&message);
    None
}

/// One archive of the folder, which must be there once the folder is named.
pub fn real_world_archive(name: &str, what: &str) -> Option<PathBuf> {
    let path = real_world_folder(what)?.join(name);
    assert!(path.is_file(), "{} is missing", path.display());
    Some(path)
}

/// Tell the person running the tests that `message`'s tests did not run: straight to the
/// process's stderr, which the test harness does not capture (`eprintln!` in a passing test
/// is never shown), and once per run, however many tests say the same.
pub fn say_skipped(message: &str) {
    use std::io::Write as _;
    static SAID: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let first = SAID
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(message.to_owned());
    if first {
        let _ = writeln!(std::io::stderr(), "\n!!!!! {message} !!!!!\n");
    }
}
