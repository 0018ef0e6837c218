//! `skilldeck update SKILL --from BUNDLE`: the three-way update of an installed skill, run as
//! the binary on throw-away machines, with the upstream versions as local bundle folders.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{Machine, listed, snapshot, write_skill};

const NOTES: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";

/// A skill `demo` skilldeck installed from upstream version 1, with `notes.md` and
/// `guide.md`.
struct Case {
    machine: Machine,
    skill: PathBuf,
}

impl Case {
    fn new() -> Self {
        Self::with(&[("notes.md", NOTES), ("guide.md", "guide\n")])
    }

    fn with(files: &[(&str, &str)]) -> Self {
        let machine = Machine::new();
        let v1 = machine.root().join("up/v1/demo");
        write_skill(&v1, files);
        let root = machine.home.join(".claude/skills");
        machine.import_to(&v1, &root);
        Self {
            skill: root.join("demo"),
            machine,
        }
    }

    /// A new upstream version: version 1's files, `changes` written over them and `removed`
    /// taken out; the folder that holds it, for `--from`.
    fn upstream(&self, version: &str, changes: &[(&str, &[u8])], removed: &[&str]) -> PathBuf {
        let from = self.machine.root().join("up/v1/demo");
        let to = self.machine.root().join(format!("up/{version}/demo"));
        crate::common::copy_tree(&from, &to);
        for (path, bytes) in changes {
            let path = to.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, bytes).unwrap();
        }
        for path in removed {
            fs::remove_file(to.join(path)).unwrap();
        }
        to.parent().unwrap().to_path_buf()
    }

    fn edit(&self, path: &str, bytes: &[u8]) {
        fs::write(self.skill.join(path), bytes).unwrap();
    }

    fn update(&self, from: &Path, more: &[&str], code: i32) -> std::process::Output {
        let mut args = vec!["update", "demo", "--from", from.to_str().unwrap()];
        args.extend_from_slice(more);
        self.machine.run_expecting(&args, code)
    }

    fn read(&self, path: &str) -> String {
        fs::read_to_string(self.skill.join(path)).unwrap()
    }

    fn state(&self) -> String {
        listed(&self.machine.list_json(), "demo")["state"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    fn snapshots(&self) -> usize {
        let output = self.machine.run_expecting(&["snapshots", "--json"], 0);
        let json: Value = serde_json::from_slice(&output.stdout).unwrap();
        json["snapshots"].as_array().unwrap().len()
    }
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn an_upstream_change_with_no_local_edit_is_taken_and_the_record_stays_intact() {
    let case = Case::new();
    let v2 = case.upstream("v2", &[("notes.md", b"new notes\n")], &[]);
    let output = case.update(&v2, &[], 0);
    assert!(
        stdout(&output).contains("notes.md  took theirs"),
        "{}",
        stdout(&output)
    );
    assert_eq!(case.read("notes.md"), "new notes\n");
    assert_eq!(case.state(), "intact");
    // As a fresh install of version 2 would have written it.
    let fresh = Machine::new();
    let root = fresh.home.join(".claude/skills");
    fresh.run_expecting(
        &[
            "import",
            v2.join("demo").to_str().unwrap(),
            "--to",
            root.to_str().unwrap(),
        ],
        0,
    );
    assert_eq!(
        fs::read(root.join("demo/SKILL.md")).unwrap(),
        fs::read(case.skill.join("SKILL.md")).unwrap()
    );
}

#[test]
fn a_local_edit_and_an_upstream_change_in_another_file_are_both_kept() {
    let case = Case::new();
    case.edit("guide.md", b"my guide\n");
    let v2 = case.upstream("v2", &[("notes.md", b"new notes\n")], &[]);
    let output = case.update(&v2, &[], 0);
    let said = stdout(&output);
    assert!(
        said.contains("guide.md  kept ours") && said.contains("`skilldeck undo`"),
        "{said}"
    );
    assert_eq!(case.read("guide.md"), "my guide\n");
    assert_eq!(case.read("notes.md"), "new notes\n");
    // The record describes the upstream as installed: the kept edit is what reads as modified.
    assert_eq!(case.state(), "modified");
}

#[test]
fn changes_to_one_file_in_lines_apart_merge() {
    let case = Case::new();
    case.edit("notes.md", NOTES.replace("1\n", "one, mine\n").as_bytes());
    let v2 = case.upstream(
        "v2",
        &[("notes.md", NOTES.replace("9\n", "nine\n").as_bytes())],
        &[],
    );
    let output = case.update(&v2, &[], 0);
    assert!(
        stdout(&output).contains("notes.md  merged"),
        "{}",
        stdout(&output)
    );
    assert_eq!(
        case.read("notes.md"),
        NOTES.replace("1\n", "one, mine\n").replace("9\n", "nine\n")
    );
}

#[test]
fn overlapping_changes_write_nothing_until_a_side_is_taken() {
    let case = Case::new();
    let mine = NOTES.replace("5\n", "five, mine\n");
    case.edit("notes.md", mine.as_bytes());
    let theirs = NOTES.replace("5\n", "five, theirs\n");
    let v2 = case.upstream(
        "v2",
        &[
            ("notes.md", theirs.as_bytes()),
            ("guide.md", b"new guide\n"),
        ],
        &[],
    );
    let before = snapshot(&case.skill);
    let snapshots = case.snapshots();
    let refused = case.update(&v2, &[], 1);
    let said = stderr(&refused);
    assert!(
        said.contains("notes.md (both sides changed the same lines)")
            && said.contains("nothing was written")
            && said.contains("--take theirs"),
        "{said}"
    );
    assert!(
        !said.contains("guide.md"),
        "only conflicts are named: {said}"
    );
    assert_eq!(snapshot(&case.skill), before);
    assert_eq!(
        case.snapshots(),
        snapshots,
        "a refused update keeps nothing"
    );

    case.update(&v2, &["--take", "ours"], 0);
    assert_eq!(case.read("notes.md"), mine);
    assert_eq!(case.read("guide.md"), "new guide\n");
}

#[test]
fn an_overlapping_conflict_taken_as_theirs_writes_upstream() {
    let case = Case::new();
    case.edit("notes.md", NOTES.replace("5\n", "five, mine\n").as_bytes());
    let theirs = NOTES.replace("5\n", "five, theirs\n");
    let v2 = case.upstream("v2", &[("notes.md", theirs.as_bytes())], &[]);
    let output = case.update(&v2, &["--take", "theirs"], 0);
    assert!(
        stdout(&output).contains("took theirs"),
        "{}",
        stdout(&output)
    );
    assert_eq!(case.read("notes.md"), theirs);
    assert_eq!(case.state(), "intact");
}

#[test]
fn an_upstream_deletion_of_a_locally_edited_file_is_a_conflict() {
    let case = Case::new();
    case.edit("guide.md", b"my guide\n");
    let v2 = case.upstream("v2", &[], &["guide.md"]);
    let refused = case.update(&v2, &[], 1);
    assert!(
        stderr(&refused).contains("guide.md (upstream deleted it, and it was edited here)"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(case.read("guide.md"), "my guide\n");
    case.update(&v2, &["--take", "theirs"], 0);
    assert!(!case.skill.join("guide.md").exists());
}

#[test]
fn an_upstream_deletion_of_an_unedited_file_and_an_added_file_are_taken() {
    let case = Case::new();
    case.edit("notes.md", b"mine\n");
    let v2 = case.upstream("v2", &[("scripts/new.md", b"added\n")], &["guide.md"]);
    case.update(&v2, &[], 0);
    assert!(!case.skill.join("guide.md").exists());
    assert_eq!(case.read("scripts/new.md"), "added\n");
    assert_eq!(case.read("notes.md"), "mine\n");
}

#[test]
fn a_binary_file_changed_on_both_sides_conflicts_and_on_one_side_is_clean() {
    let case = Case::with(&[("logo.bin", "\0base")]);
    case.edit("logo.bin", b"\0mine");
    let v2 = case.upstream("v2", &[("logo.bin", b"\0theirs")], &[]);
    let refused = case.update(&v2, &[], 1);
    assert!(
        stderr(&refused).contains("logo.bin (a binary file both sides changed)"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(fs::read(case.skill.join("logo.bin")).unwrap(), b"\0mine");

    let case = Case::with(&[("logo.bin", "\0base")]);
    let v2 = case.upstream("v2", &[("logo.bin", b"\0theirs")], &[]);
    case.update(&v2, &[], 0);
    assert_eq!(fs::read(case.skill.join("logo.bin")).unwrap(), b"\0theirs");
}

#[test]
fn undo_after_an_update_puts_back_the_files_and_the_baseline() {
    let case = Case::new();
    case.edit("guide.md", b"my guide\n");
    let before = snapshot(&case.skill);
    let v2 = case.upstream(
        "v2",
        &[("notes.md", NOTES.replace("9\n", "B\n").as_bytes())],
        &[],
    );
    case.update(&v2, &[], 0);
    assert_ne!(snapshot(&case.skill), before);
    let undone = case.machine.run_expecting(&["undo"], 0);
    assert!(stdout(&undone).contains("update"), "{}", stdout(&undone));
    assert_eq!(snapshot(&case.skill), before);
    // The baseline is version 1 again: version 2 merges against it as the first time did.
    let output = case.update(&v2, &["--json"], 0);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let files = json["skills"][0]["files"].as_array().unwrap();
    let notes = files.iter().find(|f| f["path"] == "notes.md").unwrap();
    assert_eq!(notes["summary"], "took_theirs");
}

#[test]
fn a_second_update_merges_against_the_first_upstream() {
    let case = Case::new();
    case.edit("notes.md", NOTES.replace("1\n", "one, mine\n").as_bytes());
    let v2 = case.upstream(
        "v2",
        &[("notes.md", NOTES.replace("9\n", "B\n").as_bytes())],
        &[],
    );
    case.update(&v2, &[], 0);
    // Version 3 changes the line version 2 changed: against version 1 it would overlap the
    // line the first update wrote; against version 2, the baseline now, it is upstream's alone.
    let v3 = case.upstream(
        "v3",
        &[("notes.md", NOTES.replace("9\n", "C\n").as_bytes())],
        &[],
    );
    case.update(&v3, &[], 0);
    assert_eq!(
        case.read("notes.md"),
        NOTES.replace("1\n", "one, mine\n").replace("9\n", "C\n")
    );
}

#[test]
fn a_skill_with_no_baseline_is_a_sentence_and_nothing_is_written() {
    let machine = Machine::new();
    let skill = machine.home.join(".claude/skills/demo");
    write_skill(&skill, &[("notes.md", NOTES)]);
    let up = machine.root().join("up/demo");
    write_skill(&up, &[("notes.md", "new\n")]);
    let before = snapshot(&skill);
    let refused = machine.run_expecting(
        &[
            "update",
            "demo",
            "--from",
            up.parent().unwrap().to_str().unwrap(),
        ],
        1,
    );
    assert!(
        stderr(&refused).contains("has no baseline to merge against"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(snapshot(&skill), before);
    let json = machine.run_expecting(
        &[
            "update",
            "demo",
            "--from",
            up.parent().unwrap().to_str().unwrap(),
            "--json",
        ],
        1,
    );
    let json: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["refused"]["code"], "no_baseline");
}

#[test]
fn a_dry_run_says_what_would_happen_as_json_and_writes_nothing() {
    let case = Case::new();
    case.edit("guide.md", b"my guide\n");
    let v2 = case.upstream("v2", &[("notes.md", b"new\n")], &[]);
    let before = snapshot(&case.skill);
    let output = case.update(&v2, &["--dry-run", "--json"], 0);
    assert_eq!(snapshot(&case.skill), before);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["dry_run"], true);
    assert_eq!(json["refused"], Value::Null);
    let skill = &json["skills"][0];
    assert_eq!(skill["name"], "demo");
    assert_eq!(skill["status"], "would_update");
    assert_eq!(skill["written"], false);
    assert!(skill["baseline"]["snapshot"].is_string(), "{skill}");
    let summary = |path: &str| {
        skill["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == path)
            .unwrap()["summary"]
            .clone()
    };
    assert_eq!(summary("notes.md"), "took_theirs");
    assert_eq!(summary("guide.md"), "kept_ours");
    assert_eq!(summary("SKILL.md"), "unchanged");

    let output = case.update(&v2, &["--json"], 0);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let skill = &json["skills"][0];
    assert_eq!(skill["status"], "updated");
    assert_eq!(skill["written"], true);
    assert!(
        skill["before"].is_string() && skill["new_baseline"].is_string(),
        "{skill}"
    );
    // Up to date now.
    let output = case.update(&v2, &["--json"], 0);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["skills"][0]["status"], "up_to_date");
}

#[test]
fn a_conflict_as_json_names_each_file_and_the_refusal() {
    let case = Case::new();
    case.edit("notes.md", b"mine\n");
    let v2 = case.upstream("v2", &[("notes.md", b"theirs\n")], &[]);
    let output = case.update(&v2, &["--json"], 1);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["refused"]["code"], "conflict");
    let skill = &json["skills"][0];
    assert_eq!(skill["status"], "conflict");
    let notes = skill["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "notes.md")
        .unwrap();
    assert_eq!(notes["summary"], "conflict");
    assert_eq!(notes["conflict"], "overlapping");
    assert_eq!(notes["resolution"], Value::Null);
}

#[test]
fn another_installers_record_going_stale_needs_yes() {
    let case = Case::new();
    // Another program's record in the frontmatter, as if it had installed the skill since.
    let manifest = case
        .read("SKILL.md")
        .replace("\"skilldeck\"", "\"othertool\"");
    case.edit("SKILL.md", manifest.as_bytes());
    let v2 = case.upstream("v2", &[("notes.md", b"new\n")], &[]);
    let refused = case.update(&v2, &[], 1);
    assert!(
        stderr(&refused).contains("othertool installed it") && stderr(&refused).contains("--yes"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(case.read("notes.md"), NOTES);
    case.update(&v2, &["--yes"], 0);
    assert_eq!(case.read("notes.md"), "new\n");
    assert!(
        case.read("SKILL.md").contains("othertool"),
        "its record is not rewritten"
    );
}

#[test]
fn a_bundle_without_the_skill_and_a_misspelt_name_are_sentences() {
    let case = Case::new();
    let other = case.machine.root().join("other/elsewhere");
    write_skill(&other, &[]);
    let refused = case.update(other.parent().unwrap(), &[], 1);
    assert!(
        stderr(&refused).contains("holds no skill named demo (it holds elsewhere)"),
        "{}",
        stderr(&refused)
    );
    let refused = case
        .machine
        .run_expecting(&["update", "dmeo", "--from", other.to_str().unwrap()], 1);
    assert!(
        stderr(&refused).contains("did you mean demo?"),
        "{}",
        stderr(&refused)
    );
}

#[test]
fn help_teaches_the_three_way_update_local_edits_and_undo() {
    let machine = Machine::new();
    let help = machine.run_expecting(&["update", "--help"], 0);
    let help = stdout(&help);
    for wanted in [
        "three-way",
        "Local edits are kept",
        "skilldeck undo",
        "--take",
        "--yes",
    ] {
        assert!(help.contains(wanted), "{wanted}: {help}");
    }
}

#[test]
fn a_folder_holding_what_no_snapshot_keeps_is_not_updated() {
    let case = Case::new();
    fs::create_dir_all(case.skill.join(".git")).unwrap();
    fs::write(case.skill.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    let v2 = case.upstream("v2", &[("notes.md", b"new\n")], &[]);
    let refused = case.update(&v2, &[], 1);
    assert!(
        stderr(&refused).contains("would lose what no snapshot keeps"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(case.read("notes.md"), NOTES);
}

#[test]
fn several_skills_are_updated_together_and_undone_together() {
    let machine = Machine::new();
    let root = machine.home.join(".claude/skills");
    for name in ["alpha", "beta"] {
        let v1 = machine.root().join(format!("up/v1/{name}"));
        write_skill(&v1, &[("notes.md", NOTES)]);
        machine.import_to(&v1, &root);
    }
    let before = snapshot(&root);
    for name in ["alpha", "beta"] {
        let v2 = machine.root().join(format!("up/v2/{name}"));
        write_skill(&v2, &[("notes.md", "new\n")]);
    }
    let from = machine.root().join("up/v2");
    machine.run_expecting(
        &["update", "alpha", "beta", "--from", from.to_str().unwrap()],
        0,
    );
    for name in ["alpha", "beta"] {
        assert_eq!(
            fs::read_to_string(root.join(name).join("notes.md")).unwrap(),
            "new\n"
        );
    }
    machine.run_expecting(&["undo"], 0);
    assert_eq!(snapshot(&root), before);
}

#[test]
fn one_skill_in_conflict_stops_the_others_too() {
    let machine = Machine::new();
    let root = machine.home.join(".claude/skills");
    for name in ["alpha", "beta"] {
        let v1 = machine.root().join(format!("up/v1/{name}"));
        write_skill(&v1, &[("notes.md", NOTES)]);
        machine.import_to(&v1, &root);
        let v2 = machine.root().join(format!("up/v2/{name}"));
        write_skill(&v2, &[("notes.md", "new\n")]);
    }
    fs::write(root.join("beta/notes.md"), "mine\n").unwrap();
    let before = snapshot(&root);
    let from = machine.root().join("up/v2");
    let refused = machine.run_expecting(
        &["update", "alpha", "beta", "--from", from.to_str().unwrap()],
        1,
    );
    assert!(
        stderr(&refused).contains("beta was not updated"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(
        snapshot(&root),
        before,
        "nothing was written, alpha neither"
    );
}

/// A Claude Code plugin skill, `tools:lint`, installed into the plugin cache from a
/// marketplace clone that keeps its untouched copy: the cached copy and the clone's.
fn claude_plugin(machine: &Machine) -> (PathBuf, PathBuf) {
    use crate::common::{copy_tree, write_files};
    let plugins = machine.home.join(".claude/plugins");
    let clone = plugins.join("marketplaces/mkt");
    let head = "1111111111111111111111111111111111111111";
    write_files(
        &clone,
        &[
            (
                ".claude-plugin/marketplace.json",
                r#"{"name": "mkt", "plugins": [{"name": "tools", "source": "./plugins/tools", "version": "1.0.0"}]}"#,
            ),
            (".git/HEAD", "ref: refs/heads/main\n"),
            (".git/refs/heads/main", &format!("{head}\n")),
            (
                "plugins/tools/.claude-plugin/plugin.json",
                r#"{"name": "tools"}"#,
            ),
        ],
    );
    let pristine = clone.join("plugins/tools/skills/lint");
    write_skill(&pristine, &[("rules.md", NOTES)]);
    let cached = plugins.join("cache/mkt/tools/1.0.0");
    copy_tree(&clone.join("plugins/tools"), &cached);
    let installed = r#"{"version": 2, "plugins": {"tools@mkt": [{"scope": "user",
        "installPath": "{path}", "version": "1.0.0", "installedAt": "2026-01-01T00:00:00.000Z",
        "lastUpdated": "2026-01-01T00:00:00.000Z", "gitCommitSha": "{head}"}]}}"#
        .replace("{path}", cached.to_str().unwrap())
        .replace("{head}", head);
    write_files(
        &plugins,
        &[
            (
                "known_marketplaces.json",
                r#"{"mkt": {"source": {"source": "github", "repo": "example/mkt"}, "installLocation": "", "lastUpdated": "2026-01-01T00:00:00.000Z"}}"#,
            ),
            ("installed_plugins.json", &installed),
        ],
    );
    (cached.join("skills/lint"), pristine)
}

#[test]
fn a_plugin_skill_merges_against_its_installers_untouched_copy_only_with_yes() {
    let machine = Machine::new();
    let (cached, pristine) = claude_plugin(&machine);
    fs::write(cached.join("rules.md"), NOTES.replace("1\n", "one, mine\n")).unwrap();
    let up = machine.root().join("up/lint");
    write_skill(&up, &[("rules.md", &NOTES.replace("9\n", "nine\n"))]);
    let from = up.parent().unwrap().to_str().unwrap();
    let skill = cached.to_str().unwrap();
    let refused = machine.run_expecting(&["update", skill, "--from", from, "--json"], 1);
    let json: Value = serde_json::from_slice(&refused.stdout).unwrap();
    assert_eq!(json["refused"]["code"], "would_go_stale", "{json}");
    let skill_json = &json["skills"][0];
    assert_eq!(skill_json["status"], "would_go_stale");
    assert_eq!(
        skill_json["baseline"]["pristine"],
        pristine.to_str().unwrap()
    );
    let stale = skill_json["stale"][0].as_str().unwrap();
    assert!(stale.contains("claude-plugin installed it"), "{stale}");
    assert_eq!(
        fs::read_to_string(cached.join("rules.md")).unwrap(),
        NOTES.replace("1\n", "one, mine\n")
    );

    machine.run_expecting(&["update", skill, "--from", from, "--yes"], 0);
    assert_eq!(
        fs::read_to_string(cached.join("rules.md")).unwrap(),
        NOTES.replace("1\n", "one, mine\n").replace("9\n", "nine\n")
    );
    // The installer's own copy is never touched.
    assert_eq!(
        fs::read_to_string(pristine.join("rules.md")).unwrap(),
        NOTES
    );
}
