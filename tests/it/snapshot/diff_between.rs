//! Diffs that show everything (issue 14.4): two snapshots compared with each other, each
//! checked as a diff checks one (`diff::between_snapshots`, `skilldeck diff --snapshot A
//! --to B`), and added and removed text files shown with their lines, escaped when they come
//! from disk.

use std::fs;
use std::process::Output;

use crate::common::store::Bench;
use crate::common::{Machine, write_skill};
use skilldeck::snapshot::diff::{self, Body, LineKind, Status};
use skilldeck::snapshot::{COPY_BOUND, Damage, SnapshotError};

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Insist that `text` holds `needle` as a whole line, showing the text when it does not.
fn has_line(text: &str, needle: &str) {
    assert!(
        text.lines().any(|l| l == needle),
        "{needle:?} missing from:\n{text}"
    );
}

#[test]
fn two_snapshots_diff_as_the_older_against_the_later() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[("refs/a.md", "one\nold\n"), ("gone.md", "bye\n")]);
    let older = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    fs::write(dir.join("refs/a.md"), "one\nnew\n").unwrap();
    fs::remove_file(dir.join("gone.md")).unwrap();
    fs::write(dir.join("added.md"), "first\nsecond\n").unwrap();
    let later = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    // What is on disk now plays no part.
    fs::write(dir.join("refs/a.md"), "something else\n").unwrap();

    let model = diff::between_snapshots(&older, &later, &dir).unwrap();
    let paths: Vec<(&str, Status)> = model
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.status()))
        .collect();
    assert_eq!(
        paths,
        [
            ("added.md", Status::Added),
            ("gone.md", Status::Removed),
            ("refs/a.md", Status::Modified)
        ]
    );
    assert_eq!(model.counts(), (1 + 2, 1 + 1));
    assert!(!model.truncated);
    // The other way round, every change is the other way round.
    let back = diff::between_snapshots(&later, &older, &dir).unwrap();
    assert_eq!(back.counts(), (2, 3));
    assert!(
        diff::between_snapshots(&later, &later, &dir)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_damaged_snapshot_on_either_side_is_refused_as_damaged() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[("refs/a.md", "one\n")]);
    let older = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    fs::write(dir.join("refs/a.md"), "two\n").unwrap();
    let later = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    fs::write(later.files().join("refs/a.md"), "tampered\n").unwrap();
    for (old, new) in [(&older, &later), (&later, &older)] {
        let error = diff::between_snapshots(old, new, &dir).unwrap_err();
        assert!(
            matches!(
                &error,
                SnapshotError::Damaged { id, damage: Damage::Digest } if *id == later.id
            ),
            "{error}"
        );
    }
    // A snapshot of another folder is not one of this skill's.
    let other = bench.skill("other", &[]);
    let theirs = bench
        .store
        .take(&other, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    assert!(matches!(
        diff::between_snapshots(&older, &theirs, &dir),
        Err(SnapshotError::Damaged {
            damage: Damage::OtherFolder { .. },
            ..
        })
    ));
}

#[test]
fn a_truncated_snapshot_compares_only_skill_md_and_the_other_is_still_checked() {
    let bench = Bench::new();
    let dir = bench.skill("huge", &[("refs/a.md", "small\n")]);
    let older = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    let skill_md = fs::read_to_string(dir.join("SKILL.md")).unwrap();
    fs::write(dir.join("SKILL.md"), format!("{skill_md}A line added.\n")).unwrap();
    fs::write(dir.join("refs/a.md"), "edited, but not compared\n").unwrap();
    let big = fs::File::create(dir.join("data.bin")).unwrap();
    big.set_len(COPY_BOUND + 1).unwrap();
    drop(big);
    let later = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    assert!(later.info.truncated);

    let model = diff::between_snapshots(&older, &later, &dir).unwrap();
    assert!(model.truncated);
    let paths: Vec<&str> = model.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["SKILL.md"]);
    assert_eq!(model.counts(), (1, 0));
    // The whole snapshot beside the truncated one is still read against its digest.
    fs::write(older.files().join("refs/a.md"), "tampered\n").unwrap();
    assert!(matches!(
        diff::between_snapshots(&older, &later, &dir),
        Err(SnapshotError::Damaged {
            damage: Damage::Digest,
            ..
        })
    ));
}

#[test]
fn an_added_text_file_shows_its_lines_and_a_binary_one_is_summarised() {
    let bench = Bench::new();
    let dir = bench.skill("demo", &[("old.md", "going\n")]);
    let snapshot = bench
        .store
        .take(&dir, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    fs::write(dir.join("new.md"), "alpha\nbeta\ngamma").unwrap();
    fs::write(dir.join("image.bin"), [0u8, 159, 146, 150, 0]).unwrap();
    fs::write(dir.join("empty.md"), "").unwrap();
    fs::remove_file(dir.join("old.md")).unwrap();
    let model = diff::diff(&snapshot, &dir).unwrap();
    let file = |p: &str| model.files.iter().find(|f| f.path == p).unwrap();

    let new = file("new.md");
    let Body::Hunks(hunks) = &new.body else {
        panic!("{:?}", new.body)
    };
    let texts: Vec<&str> = hunks[0].lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["alpha", "beta", "gamma"]);
    assert!(hunks[0].lines.iter().all(|l| l.kind == LineKind::Added));
    assert!(hunks[0].lines[2].no_newline);
    assert_eq!(new.added, 3);
    assert_eq!(file("image.bin").body, Body::Binary);
    assert_eq!(file("empty.md").body, Body::Hunks(Vec::new()));
    let rows: Vec<String> = diff::rows(&model).iter().map(|r| r.text()).collect();
    let text = rows.join("\n");
    has_line(&text, "@@ -0,0 +1,3 @@");
    has_line(&text, "+alpha");
    has_line(&text, "-going");
    assert!(
        rows.iter()
            .any(|r| r.starts_with("new file: 5 bytes, sha256:") && r.ends_with(", binary")),
        "{text}"
    );
    assert!(
        rows.iter()
            .any(|r| r.starts_with("new file: 0 bytes") && r.ends_with(", 0 lines")),
        "{text}"
    );
}

/// A skill `demo` with two snapshots, the file `refs/a.md` edited and `added.md` added between
/// them; the ids, older first.
fn two_snapshots(machine: &Machine) -> (String, String) {
    let dir = machine.home.join(".claude/skills/demo");
    write_skill(&dir, &[("refs/a.md", "one\nold line\nthree\n")]);
    machine.run_expecting(&["snapshot", "demo"], 0);
    fs::write(dir.join("refs/a.md"), "one\nnew line\nthree\n").unwrap();
    fs::write(dir.join("added.md"), "an added line\n").unwrap();
    machine.run_expecting(&["snapshot", "demo"], 0);
    // The folder changes again: `--to` compares the snapshots, not the folder.
    fs::write(dir.join("refs/a.md"), "now\n").unwrap();
    let output = machine.run_expecting(&["snapshots", "--json"], 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut ids: Vec<(String, String)> = json["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["taken_at"].as_str().unwrap().to_owned(),
                s["id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    ids.sort();
    assert_eq!(ids.len(), 2, "{ids:?}");
    (ids[0].1.clone(), ids[1].1.clone())
}

#[test]
fn diff_to_compares_two_snapshots_and_names_both_in_its_header() {
    let machine = Machine::new();
    let (older, later) = two_snapshots(&machine);
    let output = machine.run_expecting(&["diff", "demo", "--snapshot", &older, "--to", &later], 1);
    let text = stdout(&output);
    let header = text.lines().next().unwrap();
    assert!(
        header.starts_with(&format!("snapshot {older} ("))
            && header.contains(&format!(") -> snapshot {later} ("))
            && header.ends_with("2 files changed, +2 -1"),
        "{header}"
    );
    for line in [
        "-old line",
        "+new line",
        "--- /dev/null",
        "+++ b/added.md",
        "+an added line",
    ] {
        has_line(&text, line);
    }
    assert!(!text.contains("+now"), "{text}");

    // By the start of its id, and the same snapshot on both sides: nothing differs.
    let output = machine.run_expecting(
        &[
            "diff",
            "demo",
            "--snapshot",
            &later,
            "--to",
            &later[..later.len() - 2],
        ],
        0,
    );
    let text = stdout(&output);
    assert!(
        text.starts_with(&format!("snapshot {later} (")) && text.contains(" holds what snapshot "),
        "{text}"
    );
}

#[test]
fn diff_to_needs_a_snapshot_and_an_id_that_exists() {
    let machine = Machine::new();
    let (older, _) = two_snapshots(&machine);
    let output = machine.run_expecting(&["diff", "demo", "--to", &older], 2);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("--snapshot"), "{said}");
    let output =
        machine.run_expecting(&["diff", "demo", "--snapshot", &older, "--to", "nosuch"], 1);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("no snapshot of") && said.contains("nosuch"),
        "{said}"
    );
}

#[test]
fn an_added_files_hostile_lines_are_escaped_in_the_diff() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/demo");
    write_skill(&dir, &[]);
    machine.run_expecting(&["snapshot", "demo"], 0);
    fs::write(
        dir.join("added.md"),
        "clear\x1b[2J\x1b]0;title\x07 here\nbidi \u{202e}desrever\u{202c} end\n",
    )
    .unwrap();
    let output = machine.run_expecting(&["diff", "demo"], 1);
    let text = stdout(&output);
    assert!(!text.contains('\x1b') && !text.contains('\x07'), "{text:?}");
    assert!(!text.contains('\u{202e}'), "{text:?}");
    assert!(text.contains("+clear"), "{text}");
    assert!(text.contains("+bidi "), "{text}");
    // Coloured, the styles are skilldeck's own; the file's sequences are still escaped.
    let coloured = machine
        .command(&["diff", "demo"])
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    let text = stdout(&coloured);
    assert!(
        !text.contains("\x1b[2J") && !text.contains("\x1b]0;"),
        "{text:?}"
    );
    assert!(!text.contains('\u{202e}'), "{text:?}");

    // The app draws the same rows through sanitize.
    let env_machine = skilldeck::roots::Machine::new(machine.env(), &machine.start);
    let view = skilldeck::tui::workers::tasks::make_diff(&env_machine, "demo", &dir, None).unwrap();
    let shown: String = view
        .rows
        .iter()
        .flat_map(|r| r.parts.iter().map(|(t, _)| t.as_str()))
        .collect();
    assert!(shown.contains("clear") && shown.contains("bidi"), "{shown}");
    assert!(
        !shown.contains('\x1b') && !shown.contains('\x07') && !shown.contains('\u{202e}'),
        "{shown:?}"
    );
}
