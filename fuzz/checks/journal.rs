//! What must hold for any bytes found as the journal: reading never panics; no line is
//! trusted without this installation's seal (a fresh installation trusts none of them); every
//! line is judged once, on its own; and an entry appended after them reads back whole as the
//! latest entry, whatever they ended with (a torn tail is set aside, never glued to it), while
//! the whole lines before it are judged as they were.

use std::sync::atomic::{AtomicUsize, Ordering};

use skilldeck_core::operations::{Change, Entry, Journal, Operation, Was};

static RUN: AtomicUsize = AtomicUsize::new(0);

pub fn check(data: &[u8]) {
    let dir = std::env::temp_dir().join(format!(
        "skilldeck-fuzz-journal-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("journal.jsonl");
    std::fs::write(&path, data).unwrap();
    let journal = Journal::at(&path);
    let read = journal.read().unwrap();
    assert!(read.entries.is_empty(), "a line was trusted with no key");
    let newlines = data.iter().filter(|b| **b == b'\n').count();
    let torn = !data.is_empty() && !data.ends_with(b"\n");
    assert_eq!(read.torn.is_some(), torn);
    let mut judged: Vec<usize> = read
        .damaged
        .iter()
        .chain(&read.unsealed)
        .chain(&read.torn)
        .copied()
        .collect();
    judged.sort_unstable();
    let count = judged.len();
    judged.dedup();
    assert_eq!(judged.len(), count, "a line was judged twice");
    assert!(judged.iter().all(|&line| line >= 1 && line <= newlines + 1));

    let entry = Entry::now(
        Operation::Remove,
        vec![Change {
            dir: "/r/skills/demo".into(),
            was: Was::Kept("s1".into()),
            snapshot: None,
            link: None,
        }],
    );
    journal.append(&entry).unwrap();
    let after = journal.read().unwrap();
    assert_eq!(
        after.entries,
        [entry],
        "the appended entry did not read back alone"
    );
    assert_eq!(after.torn, None);
    assert_eq!(after.damaged, read.damaged);
    assert_eq!(after.unsealed, read.unsealed);
    std::fs::remove_dir_all(&dir).unwrap();
}
