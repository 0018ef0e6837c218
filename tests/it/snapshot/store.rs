//! The snapshot library on real folders: the store's rules (never replaced, marked changed, no
//! copy of unchanged content), what a snapshot may hold (links, loops, FIFOs, huge files,
//! version control), the diff model, restore through the atomic swap, and the export.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use crate::common::store::Bench;
#[cfg(unix)]
use crate::common::write_files;
use crate::common::write_skill;
use skilldeck::snapshot::diff::{self, Body, LineKind, Status};
use skilldeck::snapshot::export::{self, ExportError, Unscanned};
use skilldeck::snapshot::restore::{self, RestoreError};
use skilldeck::snapshot::{COPY_BOUND, Comparison, content_digest};

/// Every file of a folder, `/`-separated, with its bytes.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// Run `work` on another thread and fail if it does not finish in time: a hang is a failure,
/// not a stuck test run.
fn within<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || sender.send(work()).unwrap());
    receiver
        .recv_timeout(Duration::from_secs(60))
        .expect("the work hung")
}

#[test]
fn a_snapshot_holds_the_files_and_their_digest() {
    let bench = Bench::new();
    let dir = bench.skill(
        "demo",
        &[("refs/a.md", "a\n"), ("scripts/run.sh", "#!/bin/sh\n")],
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(
            dir.join("scripts/run.sh"),
            fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    let taken = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap();
    assert!(taken.fresh);
    let snapshot = taken.snapshot;
    assert_eq!(tree(&snapshot.files()), tree(&dir));
    assert_eq!(snapshot.info.digest, content_digest(&dir).unwrap());
    assert_eq!(snapshot.info.dir, dir);
    assert!(!snapshot.info.truncated && !snapshot.info.changed);
    assert_eq!(snapshot.info.skipped_links, 0);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&snapshot.files().join("scripts/run.sh")), 0o700);
        assert_eq!(mode(&snapshot.files().join("SKILL.md")), 0o600);
    }
    // Built in a staging directory that is gone once the snapshot is in place.
    let history = snapshot.path.parent().unwrap();
    let names: Vec<String> = fs::read_dir(history)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, std::slice::from_ref(&snapshot.id));
}

#[test]
fn a_second_snapshot_of_changed_content_keeps_the_first_and_marks_it_changed() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[("refs/a.md", "first\n")]);
    let first = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    let first_files = tree(&first.files());
    fs::write(dir.join("refs/a.md"), "second\n").unwrap();
    let second = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap();
    assert!(second.fresh);
    assert_ne!(second.snapshot.id, first.id);
    assert_ne!(second.snapshot.info.digest, first.info.digest);
    let history = bench.store.history(&dir).unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].id, first.id);
    assert!(
        history[0].info.changed,
        "the earlier snapshot is marked changed"
    );
    assert!(!history[1].info.changed);
    assert_eq!(
        tree(&history[0].files()),
        first_files,
        "and keeps its content"
    );
    assert_eq!(
        bench.store.latest(&dir).unwrap().unwrap().id,
        second.snapshot.id
    );
}

#[test]
fn a_snapshot_of_unchanged_content_makes_no_new_copy() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[]);
    let first = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap();
    let again = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap();
    assert!(!again.fresh);
    assert_eq!(again.snapshot, first.snapshot);
    assert_eq!(bench.store.history(&dir).unwrap().len(), 1);
    // The baseline the app's `a` accepts is the same call.
    assert!(!bench.store.accept(&dir).unwrap().fresh);
    let kept = bench
        .store
        .take_before_overwrite(&dir, skilldeck::snapshot::Reason::BeforeUpdate)
        .unwrap();
    assert_eq!(kept.snapshot.id, first.snapshot.id);
}

#[test]
fn snapshots_of_two_folders_with_one_name_have_their_own_histories() {
    let bench = Bench::new();
    let one = bench.skill("same", &[]);
    let other = bench.root.join("elsewhere/same");
    write_skill(&other, &[("x.md", "x")]);
    let a = bench
        .store
        .take(&one, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    let b = bench
        .store
        .take(&other, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    assert_ne!(a.path.parent(), b.path.parent());
    assert_eq!(bench.store.all().unwrap().len(), 2);
    assert_eq!(bench.store.history(&one).unwrap(), [a]);
}

#[cfg(unix)]
#[test]
fn links_out_links_to_folders_loops_and_fifos_neither_hang_nor_bring_outside_files_in() {
    use std::os::unix::fs::symlink;
    let bench = Bench::new();
    let outside = bench.root.parent().unwrap().join("private");
    write_files(&outside, &[("secret.txt", "OUTSIDE-SECRET")]);
    let dir = bench.skill("demo", &[("refs/a.md", "inside\n")]);
    symlink(outside.join("secret.txt"), dir.join("secret-link")).unwrap();
    symlink(&outside, dir.join("outside-dir")).unwrap();
    symlink("refs", dir.join("inside-dir")).unwrap();
    symlink("refs/a.md", dir.join("alias.md")).unwrap();
    symlink("loop-b", dir.join("loop-a")).unwrap();
    symlink("loop-a", dir.join("loop-b")).unwrap();
    crate::common::fifo(&dir.join("pipe"));
    let store = bench.store.clone();
    let taken_dir = dir.clone();
    let snapshot = within(move || {
        store
            .take(&taken_dir, skilldeck::snapshot::Reason::Manual)
            .unwrap()
            .snapshot
    });
    let files = tree(&snapshot.files());
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["SKILL.md", "alias.md", "refs/a.md"]);
    assert!(
        files
            .iter()
            .all(|(_, bytes)| !String::from_utf8_lossy(bytes).contains("OUTSIDE")),
        "nothing from outside the skill is in the snapshot"
    );
    assert_eq!(snapshot.info.skipped_links, 5);
    // The diff and the export walk the same way and do not hang either.
    let (for_diff, dir2) = (snapshot.clone(), dir.clone());
    assert!(within(move || diff::diff(&for_diff, &dir2).unwrap()).is_empty());
    let packed = within(move || export::export(&dir).unwrap());
    assert_eq!(packed.files, 3);
}

#[test]
fn version_control_data_is_left_out() {
    let bench = Bench::new();
    let dir = bench.skill(
        "demo",
        &[(".git/config", "[core]"), ("sub/.svn/entries", "x")],
    );
    let snapshot = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    let names: Vec<String> = tree(&snapshot.files())
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(names, ["SKILL.md"]);
}

#[test]
fn a_skill_over_the_copy_bound_keeps_only_skill_md_and_is_marked_truncated() {
    let bench = Bench::new();
    let dir = bench.skill("huge", &[]);
    let big = fs::File::create(dir.join("data.bin")).unwrap();
    big.set_len(COPY_BOUND + 1).unwrap();
    drop(big);
    let store = bench.store.clone();
    let taken_dir = dir.clone();
    let snapshot = within(move || {
        store
            .take(&taken_dir, skilldeck::snapshot::Reason::Manual)
            .unwrap()
            .snapshot
    });
    assert!(snapshot.info.truncated);
    let names: Vec<String> = tree(&snapshot.files())
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(names, ["SKILL.md"]);
    // The digest still covers the whole folder.
    assert_eq!(snapshot.info.digest, content_digest(&dir).unwrap());
    // A truncated snapshot compares SKILL.md only and cannot be restored.
    let compared = diff::diff(&snapshot, &dir).unwrap();
    assert!(compared.truncated && compared.is_empty());
    assert!(matches!(
        restore::restore(&bench.store, &dir, &snapshot),
        Err(RestoreError::Truncated(_))
    ));
    assert!(matches!(
        export::export(&dir),
        Err(ExportError::SkillTooLarge { .. })
    ));
}

#[test]
fn compare_tells_same_changed_gone_and_never_snapshotted() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[]);
    assert_eq!(bench.store.compare(&dir).unwrap(), Comparison::NoSnapshot);
    let snapshot = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    assert_eq!(
        bench.store.compare(&dir).unwrap(),
        Comparison::Same(snapshot.clone())
    );
    fs::write(dir.join("new.md"), "x").unwrap();
    assert!(matches!(
        bench.store.compare(&dir).unwrap(),
        Comparison::Changed { now, .. } if now == content_digest(&dir).unwrap()
    ));
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        bench.store.compare(&dir).unwrap(),
        Comparison::Gone(snapshot)
    );
}

#[test]
fn find_takes_an_id_or_its_start_and_says_when_it_cannot() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[]);
    let first = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    fs::write(dir.join("x.md"), "x").unwrap();
    let second = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    assert_eq!(bench.store.find(&dir, None).unwrap(), second);
    assert_eq!(
        bench.store.find(&dir, Some(&first.id)).unwrap().id,
        first.id
    );
    let unique_start = &first.id[..first.id.len() - 1];
    assert_eq!(
        bench.store.find(&dir, Some(unique_start)).unwrap().id,
        first.id
    );
    let error = bench.store.find(&dir, Some("2")).unwrap_err().to_string();
    assert!(
        error.contains("starts the ids of several snapshots"),
        "{error}"
    );
    let error = bench
        .store
        .find(&dir, Some("nope"))
        .unwrap_err()
        .to_string();
    assert!(error.contains("no snapshot of"), "{error}");
    let other = bench.skill("other", &[]);
    let error = bench.store.find(&other, None).unwrap_err().to_string();
    assert!(error.contains("there is no snapshot of"), "{error}");
}

#[test]
fn the_diff_model_names_every_kind_of_change() {
    let bench = Bench::new();
    let dir = bench.skill(
        "demo",
        &[
            ("refs/a.md", "one\ntwo\nthree\n"),
            ("gone.md", "bye\n"),
            ("image.bin", "\0\x01\x02"),
            ("run.sh", "#!/bin/sh\n"),
        ],
    );
    let snapshot = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    fs::write(dir.join("refs/a.md"), "one\nTWO two\nthree\n").unwrap();
    fs::remove_file(dir.join("gone.md")).unwrap();
    fs::write(dir.join("image.bin"), "\0\x01\x03\x04").unwrap();
    fs::write(dir.join("added.md"), "new\nfile\n").unwrap();
    let skill_md = fs::read_to_string(dir.join("SKILL.md")).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        skill_md.replace(
            "description: The demo skill, for tests.",
            "description: Changed.\nlicense: MIT",
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir.join("run.sh"), fs::Permissions::from_mode(0o755)).unwrap();
    }
    let model = diff::diff(&snapshot, &dir).unwrap();
    let by_path = |p: &str| model.files.iter().find(|f| f.path == p).unwrap();
    let paths: Vec<&str> = model.files.iter().map(|f| f.path.as_str()).collect();
    let mut expected = vec!["SKILL.md", "added.md", "gone.md", "image.bin", "refs/a.md"];
    if cfg!(unix) {
        expected.push("run.sh");
    }
    assert_eq!(paths, expected);

    let edited = by_path("refs/a.md");
    assert_eq!(
        (edited.status(), edited.added, edited.removed),
        (Status::Modified, 1, 1)
    );
    let Body::Hunks(hunks) = &edited.body else {
        panic!("{:?}", edited.body)
    };
    let added = hunks[0]
        .lines
        .iter()
        .find(|l| l.kind == LineKind::Added)
        .unwrap();
    assert_eq!(added.text, "TWO two");
    assert_eq!(&added.text[added.changed[0].clone()], "TWO ");

    let new = by_path("added.md");
    assert_eq!(new.status(), Status::Added);
    // An added or removed text file shows its lines, all added or all removed.
    let Body::Hunks(hunks) = &new.body else {
        panic!("{:?}", new.body)
    };
    assert_eq!(hunks.len(), 1);
    assert!(hunks[0].lines.iter().all(|l| l.kind == LineKind::Added));
    assert_eq!((new.added, new.new.as_ref().unwrap().size), (2, 9));
    let gone = by_path("gone.md");
    assert_eq!((gone.status(), gone.removed), (Status::Removed, 1));
    let Body::Hunks(hunks) = &gone.body else {
        panic!("{:?}", gone.body)
    };
    assert_eq!(hunks[0].header(), "@@ -1,1 +0,0 @@");
    assert_eq!(hunks[0].lines[0].kind, LineKind::Removed);
    let image = by_path("image.bin");
    assert_eq!(image.body, Body::Binary);
    assert_ne!(
        image.old.as_ref().unwrap().sha256,
        image.new.as_ref().unwrap().sha256
    );
    if cfg!(unix) {
        let script = by_path("run.sh");
        assert_eq!(script.body, Body::SameContent);
        assert_eq!(script.mode_change(), Some((false, true)));
    }
    let frontmatter = model.frontmatter.as_ref().unwrap();
    assert_eq!(frontmatter.changed, ["description"]);
    assert_eq!(frontmatter.added, ["license"]);
    assert_eq!(model.counts().0, 1 + 2 + 2);
}

#[test]
fn a_skill_that_is_gone_diffs_as_every_file_removed() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[("a.md", "a\n")]);
    let snapshot = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    fs::remove_dir_all(&dir).unwrap();
    let model = diff::diff(&snapshot, &dir).unwrap();
    assert!(model.files.iter().all(|f| f.status() == Status::Removed));
    assert_eq!(model.files.len(), 2);
}

#[test]
fn restore_brings_the_digest_back_and_keeps_what_it_replaced() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[("refs/a.md", "original\n")]);
    let original = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    fs::write(dir.join("refs/a.md"), "edited\n").unwrap();
    fs::write(dir.join("extra.md"), "added later\n").unwrap();
    let edited_digest = content_digest(&dir).unwrap();
    let restored = restore::restore(&bench.store, &dir, &original)
        .unwrap()
        .unwrap();
    assert_eq!(content_digest(&dir).unwrap(), original.info.digest);
    assert_eq!(tree(&dir), tree(&original.files()));
    let replaced = restored.replaced.unwrap();
    assert_eq!(replaced.info.digest, edited_digest);
    assert_eq!(
        fs::read_to_string(replaced.files().join("extra.md")).unwrap(),
        "added later\n"
    );
    // The restored content is the new baseline: nothing shows as changed.
    assert_eq!(restored.baseline.info.digest, original.info.digest);
    assert_eq!(
        bench.store.compare(&dir).unwrap(),
        Comparison::Same(restored.baseline)
    );
    // No staging folder or lock is left in the skills folder.
    let left: Vec<String> = fs::read_dir(&bench.root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["demo"]);
    // Restoring again finds nothing to do.
    assert_eq!(
        restore::restore(&bench.store, &dir, &original).unwrap(),
        None
    );
}

/// Found by the crash harness: a restore killed after its swap, before its baseline snapshot,
/// left the restored content compared against what it replaced and the old content in its
/// staging folder, and a second restore said "nothing to restore" and left both as they were.
#[test]
fn a_restore_rerun_after_a_crash_keeps_the_baseline_it_missed() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[("a.md", "original\n")]);
    let original = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    fs::write(dir.join("a.md"), "edited\n").unwrap();
    bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap();
    // What the killed restore left: the content swapped back, the old content still in its
    // staging folder beside the root, no baseline taken.
    fs::write(dir.join("a.md"), "original\n").unwrap();
    let staging = bench
        .root
        .with_file_name(".skills.skilldeck-staging-demo-1-1");
    write_skill(&staging, &[("a.md", "edited\n")]);
    assert!(matches!(
        bench.store.compare(&dir).unwrap(),
        Comparison::Changed { .. }
    ));
    assert_eq!(
        restore::restore(&bench.store, &dir, &original).unwrap(),
        None
    );
    assert_eq!(fs::read_to_string(dir.join("a.md")).unwrap(), "original\n");
    assert!(!staging.exists());
    assert!(matches!(
        bench.store.compare(&dir).unwrap(),
        Comparison::Same(latest) if latest.info.digest == original.info.digest
    ));
}

#[test]
fn restore_puts_back_a_skill_that_was_deleted() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[("a.md", "a\n")]);
    let snapshot = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    fs::remove_dir_all(&dir).unwrap();
    let restored = restore::restore(&bench.store, &dir, &snapshot)
        .unwrap()
        .unwrap();
    assert_eq!(restored.replaced, None);
    assert_eq!(content_digest(&dir).unwrap(), snapshot.info.digest);
}

#[cfg(unix)]
#[test]
fn restore_refuses_to_lose_what_no_snapshot_keeps() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[("a.md", "a\n")]);
    let snapshot = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    write_files(
        &dir,
        &[
            (".git/HEAD", "ref: refs/heads/main\n"),
            ("a.md", "edited\n"),
        ],
    );
    std::os::unix::fs::symlink("/etc/hostname", dir.join("host")).unwrap();
    let error = restore::restore(&bench.store, &dir, &snapshot).unwrap_err();
    assert!(error.is_refusal());
    let message = error.to_string();
    assert!(message.contains(".git (version-control data)"), "{message}");
    assert!(
        message.contains("host (a link out of the skill"),
        "{message}"
    );
    assert_eq!(fs::read_to_string(dir.join("a.md")).unwrap(), "edited\n");
    assert!(dir.join(".git/HEAD").exists());
}

#[test]
fn two_exports_are_byte_identical_whatever_the_times() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[("refs/b.md", "b\n"), ("refs/a.md", "a\n")]);
    let first = export::export(&dir).unwrap();
    fs::File::options()
        .append(true)
        .open(dir.join("refs/a.md"))
        .unwrap()
        .set_modified(std::time::UNIX_EPOCH + Duration::from_secs(1_000_000))
        .unwrap();
    let second = export::export(&dir).unwrap();
    assert_eq!(first.archive, second.archive);
    // Sorted regular entries, mtime 0, no owner, modes 0644.
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&first.archive[..]));
    let entries: Vec<(String, u64, u64, u32, String)> = archive
        .entries()
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let h = e.header();
            (
                e.path().unwrap().to_string_lossy().into_owned(),
                h.mtime().unwrap(),
                h.uid().unwrap(),
                h.mode().unwrap(),
                h.username().unwrap().unwrap_or("").to_owned(),
            )
        })
        .collect();
    let names: Vec<&str> = entries.iter().map(|e| e.0.as_str()).collect();
    // Under the skill's folder, so the archive unpacks and imports as one folder of its name.
    assert_eq!(names, ["demo/SKILL.md", "demo/refs/a.md", "demo/refs/b.md"]);
    assert!(
        entries
            .iter()
            .all(|e| e.1 == 0 && e.2 == 0 && e.3 == 0o644 && e.4.is_empty())
    );
}

#[test]
fn a_long_path_travels_in_a_pax_record() {
    let bench = Bench::new();
    let long = format!("{}/file.md", "d".repeat(120));
    let dir = bench.skill("demo", &[(long.as_str(), "deep\n")]);
    let packed = export::export(&dir).unwrap();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&packed.archive[..]));
    let mut found = false;
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        if entry.path().unwrap().to_string_lossy() == format!("demo/{long}") {
            let mut text = String::new();
            entry.read_to_string(&mut text).unwrap();
            found = text == "deep\n";
        }
    }
    assert!(found, "the long path is read back whole");
}

#[test]
fn a_planted_token_is_replaced_in_the_export_and_nowhere_else() {
    let bench = Bench::new();
    let token = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB";
    let dir = bench.skill(
        "demo",
        &[
            ("refs/setup.md", &format!("export GH={token}\n")),
            ("refs/plain.md", "plain\n"),
        ],
    );
    let before = tree(&dir);
    let snapshot = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    let packed = export::export(&dir).unwrap();
    assert_eq!(
        packed.redacted,
        [("refs/setup.md".to_owned(), "github-token")]
    );
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&packed.archive[..]));
    let mut exported = Vec::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        let path = entry.path().unwrap().to_string_lossy().into_owned();
        let in_skill = path
            .strip_prefix("demo/")
            .expect("under the skill's folder");
        exported.push((in_skill.to_owned(), bytes));
    }
    let setup = &exported
        .iter()
        .find(|(p, _)| p == "refs/setup.md")
        .unwrap()
        .1;
    assert_eq!(setup, b"export GH=[REDACTED:github-token]\n");
    let originals: Vec<(String, Vec<u8>)> = before
        .iter()
        .filter(|(p, _)| p != "refs/setup.md")
        .cloned()
        .collect();
    let others: Vec<(String, Vec<u8>)> = exported
        .iter()
        .filter(|(p, _)| p != "refs/setup.md")
        .cloned()
        .collect();
    assert_eq!(others, originals, "every other file is exported as it is");
    assert_eq!(tree(&dir), before, "the skill on disk is untouched");
    assert_eq!(tree(&snapshot.files()), before, "and so is its snapshot");
}

#[test]
fn a_secret_in_a_binary_file_keeps_it_out_of_the_export_even_when_asked() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[]);
    fs::write(dir.join("blob.bin"), b"\0\xffAKIAIOSFODNN7EXAMPLE\0").unwrap();
    for unscanned in [Unscanned::LeaveOut, Unscanned::Include] {
        let packed = export::export_with(&dir, unscanned).unwrap();
        assert_eq!(packed.files, 1);
        let [(path, why)] = &packed.left_out[..] else {
            panic!("{:?}", packed.left_out)
        };
        assert_eq!(path, "blob.bin");
        assert_eq!(
            why.to_string(),
            "binary data holding what looks like a secret (aws-access-key), which cannot be removed from it safely"
        );
    }
}

#[test]
fn an_export_over_the_bound_is_refused_with_a_sentence() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[]);
    fs::write(dir.join("noise.bin"), incompressible(6 << 20)).unwrap();
    // Binary data is packed only when asked for.
    let error = export::export_with(&dir, Unscanned::Include).unwrap_err();
    assert!(
        matches!(error, ExportError::ArchiveTooLarge { .. }),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .contains("over the 5 MiB bound; nothing was written"),
        "{error}"
    );
}

/// Bytes a compressor cannot shrink, from a xorshift generator.
fn incompressible(len: usize) -> Vec<u8> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()[0]
        })
        .collect()
}
