//! What must hold for any transcript: reading it never panics; every skill folder it names is
//! absolute, cleaned of `.` and `..` parts, and named once; a transcript without the marker
//! names none.

use std::collections::HashSet;
use std::path::Component;

use skilldeck_core::usage::transcript;

pub fn check(data: &[u8]) {
    let dirs = transcript::skill_dirs(data, usize::MAX).expect("reading from memory cannot fail");
    if !transcript::has_base_dir(data) {
        assert!(
            dirs.is_empty(),
            "folders found without the marker: {dirs:?}"
        );
    }
    let mut seen = HashSet::new();
    for dir in &dirs {
        assert!(dir.is_absolute(), "{} is not absolute", dir.display());
        assert!(
            dir.components()
                .all(|c| !matches!(c, Component::CurDir | Component::ParentDir)),
            "{} is not clean",
            dir.display()
        );
        assert!(seen.insert(dir), "{} named twice", dir.display());
    }
    for dir in transcript::base_dirs(&String::from_utf8_lossy(data)) {
        assert!(dir.is_absolute(), "{} is not absolute", dir.display());
    }
}
