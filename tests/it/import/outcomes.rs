//! What `skilldeck import` says it did: a skill re-imported as it is there already is
//! "unchanged" (an edit to one file, or to one executable bit, is an update), and the lint
//! problems of each skill installed are shown as the dry run shows them.

use std::path::Path;

use crate::common::{Machine, snapshot, write_files, write_skill};
use serde_json::Value;

fn run(machine: &Machine, args: &[&str]) -> (Option<i32>, Value, String, String) {
    let output = machine.run(args);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), json, stdout, stderr)
}

fn actions(json: &Value) -> Vec<String> {
    json["installed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{} {}",
                s["action"].as_str().unwrap(),
                s["name"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn the_same_content_again_is_unchanged_and_left_alone_an_edit_is_an_update() {
    let machine = Machine::new();
    let source = machine.root().join("bundle");
    write_skill(&source.join("alpha"), &[("notes.md", "one")]);
    write_skill(&source.join("beta"), &[("run.sh", "#!/bin/sh\n")]);
    let root = machine.root().join("skills");
    let (source_arg, root_arg) = (source.to_str().unwrap(), root.to_str().unwrap());
    let args = ["import", source_arg, "--to", root_arg, "--json"];

    let (code, json, ..) = run(&machine, &args);
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(actions(&json), ["installed alpha", "installed beta"]);

    // Identical: said so, and nothing in the folder is rewritten.
    let before = snapshot(&root);
    let (code, json, ..) = run(&machine, &args);
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(actions(&json), ["unchanged alpha", "unchanged beta"]);
    assert_eq!(snapshot(&root), before);
    let (_, _, text, _) = run(&machine, &["import", source_arg, "--to", root_arg]);
    assert!(text.contains("unchanged alpha at "), "{text}");
    let (_, dry, ..) = run(
        &machine,
        &[
            "import",
            source_arg,
            "--to",
            root_arg,
            "--dry-run",
            "--json",
        ],
    );
    assert_eq!(dry["skills"][0]["action"], "unchanged", "{dry}");

    // One file of the bundle edited: that skill is updated, the other still unchanged.
    write_files(&source.join("alpha"), &[("notes.md", "two")]);
    let (code, json, ..) = run(&machine, &args);
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(actions(&json), ["updated alpha", "unchanged beta"]);
    assert_eq!(
        std::fs::read_to_string(root.join("alpha/notes.md")).unwrap(),
        "two"
    );

    // Only an executable bit differs: the content digest does not see it, the import does.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let script = source.join("beta/run.sh");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let (code, json, ..) = run(&machine, &args);
        assert_eq!(code, Some(0), "{json}");
        assert_eq!(actions(&json), ["unchanged alpha", "updated beta"]);
        let mode = std::fs::metadata(root.join("beta/run.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111);
    }
}

fn lint_bundle(machine: &Machine) -> std::path::PathBuf {
    let source = machine.root().join("linted");
    // The folder names the skill; the frontmatter's other name is a lint problem.
    write_files(
        &source.join("pdf-tools"),
        &[(
            "SKILL.md",
            "---\nname: pdf\ndescription: Reads PDFs.\n---\n",
        )],
    );
    write_skill(&source.join("clean"), &[]);
    source
}

const PDF_PROBLEM: &str = "directory name 'pdf-tools' must match skill name 'pdf'";

#[test]
fn an_install_shows_each_skills_lint_problems_as_the_dry_run_does() {
    let machine = Machine::new();
    let source = lint_bundle(&machine);
    let root = machine.root().join("skills");
    let (source_arg, root_arg) = (source.to_str().unwrap(), root.to_str().unwrap());

    let (_, _, dry, _) = run(&machine, &["import", source_arg, "--dry-run"]);
    assert!(dry.contains(&format!("  ! {PDF_PROBLEM}")), "{dry}");

    let (code, _, text, stderr) = run(&machine, &["import", source_arg, "--to", root_arg]);
    assert_eq!(code, Some(0), "{stderr}");
    let lines: Vec<&str> = text.lines().collect();
    let pdf = lines
        .iter()
        .position(|l| l.contains(" pdf-tools at "))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(lines[pdf + 1], format!("  ! {PDF_PROBLEM}"), "{text}");
    // The clean skill has none under it.
    let clean = lines.iter().position(|l| l.contains(" clean at ")).unwrap();
    assert!(
        lines.get(clean + 1).is_none_or(|l| !l.starts_with("  !")),
        "{text}"
    );

    // As JSON, on each skill installed (here the second import: unchanged, still said).
    let (code, json, ..) = run(
        &machine,
        &["import", source_arg, "--to", root_arg, "--json"],
    );
    assert_eq!(code, Some(0), "{json}");
    let problems = |name: &str| {
        json["installed"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()["problems"]
            .clone()
    };
    assert_eq!(problems("pdf-tools"), serde_json::json!([PDF_PROBLEM]));
    assert_eq!(problems("clean"), serde_json::json!([]));
    assert!(Path::new(&root).join("pdf-tools/SKILL.md").is_file());
}
