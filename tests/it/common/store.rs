//! A snapshot store in a temporary directory, with a skills root beside it.

use std::path::PathBuf;

use skilldeck::snapshot::Store;

use super::write_skill;

/// A temporary store and a skills root beside it.
pub struct Bench {
    _tmp: tempfile::TempDir,
    pub root: PathBuf,
    pub store: Store,
}

impl Bench {
    pub fn new() -> Self {
        let tmp = tempfile::tempdir().expect("temp dir");
        let base = tmp.path().canonicalize().expect("canonical");
        Self {
            root: base.join("skills"),
            store: Store::at(base.join("data/snapshots")),
            _tmp: tmp,
        }
    }

    /// A skill folder `name` in the root, with extra files.
    pub fn skill(&self, name: &str, extra: &[(&str, &str)]) -> PathBuf {
        let dir = self.root.join(name);
        write_skill(&dir, extra);
        dir
    }
}
