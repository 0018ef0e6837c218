//! A diff stays within its bounds (issue 11.10; `snapshot::diff::limits`): a file past one is
//! summarised by its size and digest on both sides, as a binary file is, and the rest of the
//! skill still diffs — in `skilldeck diff` and in the app's diff alike. Several shapes: one
//! huge file rewritten throughout, many medium files past the diff's total, many files
//! grown past its total of lines, one enormous line, a million short lines, and
//! binary files beside them. Nothing here is timed: each diff finishing is what is asserted.

use std::fs;
use std::path::PathBuf;

use crate::common::{Machine, write_skill};
use skilldeck::snapshot::diff::{Bound, LIMITS};
use skilldeck::tui::diff::{DiffView, FileMark, RowKind};
use skilldeck::tui::workers::tasks::make_diff;

/// `lines` numbered lines of about 64 bytes of text each.
fn text(lines: usize) -> String {
    (0..lines)
        .map(|i| format!("{i:06} The quick brown fox jumps over the lazy dog, line by line.\n"))
        .collect()
}

/// A skill `big` with `files`, snapshotted, then each file rewritten as `after` has it, and
/// `SKILL.md` edited too, so that the small change beside the large ones must still show.
struct Case {
    machine: Machine,
    dir: PathBuf,
}

impl Case {
    fn new(before: &[(String, Vec<u8>)], after: &[(String, Vec<u8>)]) -> Self {
        let machine = Machine::new();
        let dir = machine.home.join(".claude/skills/big");
        write_skill(&dir, &[]);
        for (path, bytes) in before {
            fs::write(dir.join(path), bytes).unwrap();
        }
        let snapshot = machine.run(&["snapshot", "big"]);
        assert!(snapshot.status.success(), "{snapshot:?}");
        let skill_md = fs::read_to_string(dir.join("SKILL.md")).unwrap();
        fs::write(dir.join("SKILL.md"), format!("{skill_md}A line added.\n")).unwrap();
        for (path, bytes) in after {
            fs::write(dir.join(path), bytes).unwrap();
        }
        Self { machine, dir }
    }

    /// `skilldeck diff big`: it finishes, says what changed (exit 1), and shows the line added
    /// to `SKILL.md`.
    fn cli(&self) -> String {
        let output = self.machine.run(&["diff", "big"]);
        let out = String::from_utf8_lossy(&output.stdout).into_owned();
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        assert!(
            out.contains("+A line added."),
            "SKILL.md's change is missing:\n{out}"
        );
        out
    }

    /// The app's diff of the skill: it finishes, and shows the line added to `SKILL.md`.
    fn app(&self) -> DiffView {
        let machine = skilldeck::roots::Machine::new(self.machine.env(), &self.machine.start);
        let view = make_diff(&machine, "big", &self.dir, None).unwrap();
        assert!(
            view.rows.iter().any(|r| r.kind == RowKind::Added
                && r.parts.iter().any(|(t, _)| t.contains("A line added."))),
            "SKILL.md's change is missing from the app's diff"
        );
        view
    }
}

/// The summary rows of the app's view, as text.
fn summaries(view: &DiffView) -> Vec<String> {
    view.rows
        .iter()
        .filter(|r| r.kind == RowKind::Summary)
        .map(|r| r.parts.iter().map(|(t, _)| t.as_str()).collect())
        .collect()
}

/// Both front ends summarise the file `path` as past `bound`, by size and digest both sides:
/// `out` is what `skilldeck diff` printed, `view` the app's diff.
fn summarised(out: &str, view: &DiffView, path: &str, bound: Bound) {
    let wanted = format!("too large to diff ({bound}): ");
    let at = out
        .find(&format!("+++ b/{path}\n"))
        .unwrap_or_else(|| panic!("{path} is not in the diff:\n{out}"));
    let summary = out[at..].lines().nth(1).unwrap();
    assert!(summary.starts_with(&wanted), "{path}: {summary}");
    assert_eq!(summary.matches("sha256:").count(), 2, "{summary}");
    assert!(summary.contains(" -> "), "{summary}");
    assert!(
        summaries(view).iter().any(|s| s == summary),
        "the app does not show {summary:?}: {:?}",
        summaries(view)
    );
    let file = view.files.iter().find(|f| f.path == path).unwrap();
    assert_eq!(file.mark, FileMark::Binary);
}

fn file(path: &str, bytes: impl Into<Vec<u8>>) -> (String, Vec<u8>) {
    (path.to_owned(), bytes.into())
}

#[test]
fn one_huge_file_rewritten_throughout_is_summarised_by_size_and_digest() {
    // 7.6 MiB, every line changed: the case that took 20 s and 1.7 GB.
    let before = text(120_800);
    let after = before.replace("quick", "slow");
    let case = Case::new(
        &[file("big.md", before), file("small.md", "one\ntwo\n")],
        &[file("big.md", after), file("small.md", "one\n2\n")],
    );
    let out = case.cli();
    summarised(&out, &case.app(), "big.md", Bound::FileBytes);
    assert!(out.contains(": 7.6 MiB, sha256:"), "{out}");
    // The small file beside it is still diffed line by line.
    assert!(out.contains("-two\n+2\n"), "{out}");
}

#[test]
fn a_huge_file_added_or_deleted_is_summarised_too() {
    let huge = text(40_000);
    let case = Case::new(&[file("gone.md", huge.clone())], &[file("new.md", huge)]);
    fs::remove_file(case.dir.join("gone.md")).unwrap();
    let out = case.cli();
    let bound = Bound::FileBytes;
    assert!(
        out.contains(&format!(
            "new file, too large to diff ({bound}): 2.5 MiB, sha256:"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "deleted file, too large to diff ({bound}): 2.5 MiB"
        )),
        "{out}"
    );
    let shown = summaries(&case.app());
    assert!(
        shown.iter().any(|s| s.starts_with("new file, too large")),
        "{shown:?}"
    );
}

#[test]
fn many_medium_files_past_the_diffs_total_are_summarised_after_it() {
    // 1.5 MiB a side each, one line changed in each: the first five fit the 16 MiB total.
    let before = text(24_000);
    let after = before.replace("012000 The quick", "012000 The sleepy");
    let names: Vec<String> = (0..8).map(|i| format!("part-{i}.md")).collect();
    let case = Case::new(
        &names
            .iter()
            .map(|n| file(n, before.clone()))
            .collect::<Vec<_>>(),
        &names
            .iter()
            .map(|n| file(n, after.clone()))
            .collect::<Vec<_>>(),
    );
    let per_file = 2 * before.len() as u64;
    let fit = usize::try_from(LIMITS.diff_bytes / per_file).unwrap();
    assert!(fit < names.len());
    let out = case.cli();
    for (i, name) in names.iter().enumerate() {
        let at = out.find(&format!("+++ b/{name}\n")).unwrap();
        let next = out[at..].lines().nth(1).unwrap();
        if i < fit {
            assert!(next.starts_with("@@ "), "{name} should be diffed: {next}");
        } else {
            assert!(
                next.starts_with(&format!("too large to diff ({}): ", Bound::DiffBytes)),
                "{name}: {next}"
            );
        }
    }
    summarised(&out, &case.app(), &names[fit], Bound::DiffBytes);
}

#[test]
fn files_grown_past_the_diffs_total_of_lines_are_summarised_after_it() {
    // 29,000 lines added to each: 29,000 lines of hunks a file, 100,000 in all, so the fourth
    // does not fit. (Added lines cost little to diff, so no other bound is reached first.)
    let added = text(29_000);
    let names: Vec<String> = (0..5).map(|i| format!("part-{i}.md")).collect();
    let case = Case::new(
        &names.iter().map(|n| file(n, "start\n")).collect::<Vec<_>>(),
        &names
            .iter()
            .map(|n| file(n, format!("start\n{added}")))
            .collect::<Vec<_>>(),
    );
    let (out, view) = (case.cli(), case.app());
    summarised(&out, &view, "part-3.md", Bound::DiffLines);
    summarised(&out, &view, "part-4.md", Bound::DiffLines);
    let at = out.find("+++ b/part-2.md\n").unwrap();
    assert!(
        out[at..].contains("+028999 The quick brown fox"),
        "part-2.md is not diffed"
    );
}

#[test]
fn a_file_of_one_enormous_line_is_summarised() {
    let line = "word ".repeat(100_000);
    let case = Case::new(
        &[file("minified.js", format!("{line}\n"))],
        &[file(
            "minified.js",
            format!("{}\n", line.replace("word", "WORD")),
        )],
    );
    summarised(&case.cli(), &case.app(), "minified.js", Bound::LineBytes);
}

#[test]
fn a_file_of_a_million_short_lines_is_summarised() {
    let before = "x\n".repeat(1_000_000);
    let after = format!("{}y\n", "x\n".repeat(999_999));
    assert!(after.len() as u64 <= LIMITS.file_bytes);
    let case = Case::new(&[file("lines.txt", before)], &[file("lines.txt", after)]);
    summarised(&case.cli(), &case.app(), "lines.txt", Bound::FileLines);
}

#[test]
fn binary_files_beside_a_huge_one_are_summarised_as_binary() {
    let mut before = vec![0u8, 1, 2, 3];
    before.extend(std::iter::repeat_n(7u8, 5000));
    let mut after = before.clone();
    after[4] = 9;
    let huge = text(60_000);
    let case = Case::new(
        &[file("image.png", before), file("huge.md", huge.clone())],
        &[
            file("image.png", after),
            file("huge.md", huge.replace("lazy", "idle")),
        ],
    );
    let out = case.cli();
    assert!(
        out.contains("binary file changed: 4.9 KiB, sha256:"),
        "{out}"
    );
    summarised(&out, &case.app(), "huge.md", Bound::FileBytes);
}

#[test]
fn the_apps_diff_view_draws_the_summary_of_a_file_past_a_bound() {
    use skilldeck::tui::app::{App, Setup};
    use skilldeck::tui::headless::{self, Headless};
    use skilldeck::tui::msg::Msg;
    use skilldeck::tui::views::{DiffState, Loading};

    let before = text(48_000);
    let case = Case::new(
        &[
            file("big.md", before.clone()),
            file("small.md", "one\ntwo\n"),
        ],
        &[
            file("big.md", before.replace("quick", "slow")),
            file("small.md", "one\n2\n"),
        ],
    );
    let view = case.app();
    let machine = skilldeck::roots::Machine::new(case.machine.env(), &case.machine.start);
    for (width, height) in crate::common::app::SIZES {
        let mut app = App::new(Setup::default());
        app.views.open_diff(DiffState {
            request: 1,
            name: "big".to_owned(),
            dir: case.dir.clone(),
            pristine: None,
            view: Loading::Waiting,
            scroll: 0,
        });
        let mut screen =
            Headless::new(headless::test_terminal(width, height), app, machine.clone()).unwrap();
        screen
            .send(Msg::Diff {
                request: 1,
                diff: Ok(Box::new(view.clone())),
            })
            .unwrap();
        assert!(
            screen.text().contains("too large to diff"),
            "{}",
            screen.text()
        );
        crate::common::app::settings().bind(|| {
            insta::assert_snapshot!(format!("diff_too_large_{width}x{height}"), screen.backend());
        });
    }
}
