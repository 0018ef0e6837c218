//! Which skills changed and what each is diffed against (the app's changed view), on real
//! folders: changed since a snapshot, unchanged, gone, and changed since installed with no
//! snapshot; the baseline rule (the latest snapshot, else the installer's untouched copy); the
//! diff against such a copy; and the diff shown before an import replaces a skill.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::store::Bench;
use crate::common::{write_files, write_skill};
use skilldeck::bundle;
use skilldeck::snapshot::changes::{self, Baseline, Since, Subject};
use skilldeck::snapshot::diff::{self, Body, LineKind, Status};

/// The file every skill here holds beside its `SKILL.md`.
const NOTES: &[(&str, &str)] = &[("notes.md", "one\ntwo\n")];

fn subject(dir: &Path, modified: bool) -> Subject<'_> {
    Subject {
        dir,
        real_dir: dir,
        modified,
    }
}

fn since(change: &changes::Changed) -> &'static str {
    match change.since {
        Since::Snapshot(_) => "snapshot",
        Since::Gone(_) => "gone",
        Since::Installed => "installed",
    }
}

#[test]
fn changed_unchanged_gone_and_modified_without_a_snapshot() {
    let bench = Bench::new();
    let edited = bench.skill("edited", NOTES);
    let same = bench.skill("same", NOTES);
    let gone = bench.skill("gone", NOTES);
    let drifted = bench.skill("drifted", NOTES);
    let plain = bench.skill("plain", NOTES);
    for dir in [&edited, &same, &gone] {
        bench
            .store
            .take(dir, skilldeck::snapshot::Reason::Manual)
            .unwrap();
    }
    fs::write(edited.join("notes.md"), "one\nTWO\n").unwrap();
    fs::remove_dir_all(&gone).unwrap();
    let skills = [
        subject(&edited, false),
        subject(&same, false),
        // A recorded skill whose record says modified, never snapshotted.
        subject(&drifted, true),
        subject(&plain, false),
    ];
    let found = changes::changes(&bench.store, &skills).unwrap();
    assert!(found.problems.is_empty());
    let listed: Vec<(PathBuf, &str)> = found
        .changed
        .iter()
        .map(|c| (c.dir.clone(), since(c)))
        .collect();
    assert_eq!(
        listed,
        [
            (edited.clone(), "snapshot"),
            (drifted.clone(), "installed"),
            (gone.clone(), "gone")
        ]
    );

    // Accepting (a new snapshot) takes it off the list; so does a first snapshot of drifted.
    bench.store.accept(&edited).unwrap();
    bench
        .store
        .take(&drifted, skilldeck::snapshot::Reason::Manual)
        .unwrap();
    let found = changes::changes(&bench.store, &skills).unwrap();
    let dirs: Vec<&Path> = found.changed.iter().map(|c| c.dir.as_path()).collect();
    assert_eq!(dirs, [gone.as_path()]);
}

#[test]
fn the_latest_snapshot_comes_before_the_installers_copy() {
    let bench = Bench::new();
    let dir = bench.skill("pdf", NOTES);
    let pristine = bench.root.join("clone/pdf");
    write_skill(&pristine, &[("notes.md", "one\ntwo\n")]);
    assert_eq!(changes::baseline(&bench.store, &dir, None).unwrap(), None);
    assert_eq!(
        changes::baseline(&bench.store, &dir, Some(&pristine)).unwrap(),
        Some(Baseline::Pristine(pristine.clone()))
    );
    let taken = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    assert_eq!(
        changes::baseline(&bench.store, &dir, Some(&pristine)).unwrap(),
        Some(Baseline::Snapshot(taken))
    );
}

#[test]
fn a_skill_is_diffed_against_its_installers_copy() {
    let bench = Bench::new();
    let dir = bench.skill("pdf", NOTES);
    let pristine = bench.root.join("clone/pdf");
    write_skill(&pristine, &[("notes.md", "one\ntwo\n")]);
    fs::write(dir.join("notes.md"), "one\ntwo, edited\n").unwrap();
    let diff = changes::diff_against(&Baseline::Pristine(pristine), &dir).unwrap();
    assert_eq!(diff.files.len(), 1);
    let Body::Hunks(hunks) = &diff.files[0].body else {
        panic!("{:?}", diff.files[0].body)
    };
    let added: Vec<&str> = hunks[0]
        .lines
        .iter()
        .filter(|l| l.kind == LineKind::Added)
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(added, ["two, edited"]);
    // The copy and the skill the same: no difference.
    let same = bench.root.join("clone/same");
    write_skill(&same, &[("notes.md", "one\ntwo\n")]);
    let twin = bench.root.join("same");
    write_skill(&twin, &[("notes.md", "one\ntwo\n")]);
    assert!(diff::between(&same, &twin).unwrap().is_empty());
}

#[test]
fn before_a_replacement_the_diff_shows_what_the_import_would_write() {
    let bench = Bench::new();
    let dir = bench.root.join("demo");
    write_files(
        &dir,
        &[
            (
                "SKILL.md",
                "---\nname: demo\ndescription: Mine.\n---\n# Demo\n",
            ),
            ("old.md", "only here\n"),
            ("run.sh", "#!/bin/sh\n"),
        ],
    );
    let source = bench.root.join("bundle/demo");
    write_files(
        &source,
        &[
            (
                "SKILL.md",
                "---\nname: demo\ndescription: Theirs.\n---\n# Demo\n",
            ),
            ("new.md", "only there\n"),
        ],
    );
    write_files(&source, &[("run.sh", "#!/bin/sh\n")]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(source.join("run.sh"), fs::Permissions::from_mode(0o755)).unwrap();
    }
    let bundle = bundle::read(&source).unwrap();
    let diff = diff::before_replacing(&dir, &bundle.skills[0]).unwrap();
    let files: Vec<(&str, Status)> = diff
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.status()))
        .collect();
    assert_eq!(
        files,
        [
            ("SKILL.md", Status::Modified),
            ("new.md", Status::Added),
            ("old.md", Status::Removed),
            ("run.sh", Status::Modified),
        ]
    );
    // What is written carries skilldeck's record, and the diff says so.
    let frontmatter = diff.frontmatter.as_ref().unwrap();
    assert_eq!(frontmatter.changed, ["description"]);
    assert!(
        frontmatter.added.iter().any(|k| k == "metadata"),
        "{frontmatter:?}"
    );
    #[cfg(unix)]
    assert_eq!(diff.files[3].mode_change(), Some((false, true)));
    // Nothing was written.
    assert!(!dir.join("new.md").exists());
}
