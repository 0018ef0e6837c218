//! The snapshot commands as a user runs them: `snapshot` (by name, by folder, from a
//! transcript), `snapshots --json`, `diff`, `restore` and `export`, with their exit codes.

use std::fs;
use std::process::Output;

use crate::common::{Machine, write_skill};
use serde_json::Value;

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn run(machine: &Machine, args: &[&str], code: i32) -> Output {
    machine.run_expecting(args, code)
}

/// Insist that `text` holds `needle`, showing the text when it does not.
fn contains(text: &str, needle: &str) {
    assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
}

fn snapshots(machine: &Machine) -> Vec<Value> {
    let output = run(machine, &["snapshots", "--json"], 0);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    json["snapshots"].as_array().unwrap().clone()
}

fn skills_root(machine: &Machine) -> std::path::PathBuf {
    machine.home.join(".claude/skills")
}

#[test]
fn snapshots_json_marks_a_changed_skill() {
    let machine = Machine::new();
    let edited = skills_root(&machine).join("edited");
    write_skill(&edited, &[("refs/a.md", "before\n")]);
    write_skill(&skills_root(&machine).join("kept"), &[]);
    let output = run(&machine, &["snapshot"], 0);
    contains(&stdout(&output), "2 new snapshots kept, 0 unchanged");
    // Nothing changed: no new copies.
    let output = run(&machine, &["snapshot"], 0);
    contains(&stdout(&output), "0 new snapshots kept, 2 unchanged");

    fs::write(edited.join("refs/a.md"), "after\n").unwrap();
    let list = snapshots(&machine);
    assert_eq!(list.len(), 2);
    let entry = |name: &str| list.iter().find(|s| s["skill"] == name).unwrap().clone();
    let changed = entry("edited");
    assert_eq!(changed["changed"], true);
    assert_eq!(entry("kept")["changed"], false);
    assert_eq!(changed["dir"], edited.to_str().unwrap());
    assert!(changed["digest"].as_str().unwrap().starts_with("sha256:"));
    assert!(changed["id"].as_str().unwrap().len() > 20);
    assert!(changed["taken_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(changed["truncated"], false);
    assert_eq!(changed["skipped_links"], 0);
    let table = stdout(&run(&machine, &["snapshots"], 0));
    assert!(table.contains("changed, latest"), "{table}");
    // When, said as the app and undo say it; the recorded stamp is for --json.
    let stamp = changed["taken_at"].as_str().unwrap();
    assert!(table.contains("just now"), "{table}");
    assert!(!table.contains(&stamp[..10]), "{stamp} in:\n{table}");
}

#[test]
fn diff_shows_the_edited_line_plain_when_piped_and_coloured_when_asked() {
    let machine = Machine::new();
    let dir = skills_root(&machine).join("demo");
    write_skill(&dir, &[("refs/a.md", "one\nold line\nthree\n")]);
    run(&machine, &["snapshot", "demo"], 0);
    let output = run(&machine, &["diff", "demo"], 0);
    contains(&stdout(&output), "matches snapshot");

    fs::write(dir.join("refs/a.md"), "one\nnew line\nthree\n").unwrap();
    let output = run(&machine, &["diff", "demo"], 1);
    let text = stdout(&output);
    for needle in [
        "--- a/refs/a.md",
        "+++ b/refs/a.md",
        "@@ -1,3 +1,3 @@",
        "-old line",
        "+new line",
        " one",
    ] {
        assert!(
            text.lines().any(|l| l == needle),
            "{needle} missing:\n{text}"
        );
    }
    assert!(!text.contains('\x1b'), "piped output is plain:\n{text}");

    let coloured = machine
        .command(&["diff", "demo"])
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    let text = stdout(&coloured);
    assert!(
        text.contains("\x1b[32m+"),
        "added lines are green:\n{text:?}"
    );
    assert!(
        text.contains("\x1b[7m"),
        "changed words are highlighted:\n{text:?}"
    );
    let no_color = machine
        .command(&["diff", "demo"])
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!stdout(&no_color).contains('\x1b'));
}

#[test]
fn restore_brings_the_digest_back_and_keeps_what_it_replaced() {
    let machine = Machine::new();
    let dir = skills_root(&machine).join("demo");
    write_skill(&dir, &[("refs/a.md", "original\n")]);
    run(&machine, &["snapshot", dir.to_str().unwrap()], 0);
    let original = snapshots(&machine)[0]["digest"]
        .as_str()
        .unwrap()
        .to_owned();

    fs::write(dir.join("refs/a.md"), "edited by an agent\n").unwrap();
    let output = run(&machine, &["restore", "demo"], 0);
    contains(&stdout(&output), "What it replaced is kept as snapshot");
    assert_eq!(
        fs::read_to_string(dir.join("refs/a.md")).unwrap(),
        "original\n"
    );
    run(&machine, &["diff", "demo"], 0);

    let list = snapshots(&machine);
    assert_eq!(
        list.len(),
        3,
        "original, what it replaced, the restored baseline"
    );
    assert_eq!(list[2]["digest"], original.as_str());
    assert_eq!(list[2]["changed"], false);
    let replaced = &list[1];
    assert_ne!(replaced["digest"], original.as_str());
    assert_eq!(replaced["changed"], true);
    // The replaced state's own files hold the edit.
    let store = machine.home.join(".local/share/skilldeck/snapshots");
    let kept = fs::read_dir(&store)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
        .join(replaced["id"].as_str().unwrap())
        .join("files/refs/a.md");
    assert_eq!(fs::read_to_string(kept).unwrap(), "edited by an agent\n");
}

#[test]
fn restore_and_diff_reach_a_deleted_skill_by_its_name() {
    let machine = Machine::new();
    let dir = skills_root(&machine).join("demo");
    write_skill(&dir, &[]);
    run(&machine, &["snapshot"], 0);
    fs::remove_dir_all(&dir).unwrap();
    let text = stdout(&run(&machine, &["diff", "demo"], 1));
    assert!(text.contains("+++ /dev/null"), "{text}");
    run(&machine, &["restore", "demo"], 0);
    assert!(dir.join("SKILL.md").is_file());
}

#[test]
fn snapshot_from_a_transcript_takes_every_folder_named_and_ignores_relative_ones() {
    let machine = Machine::new();
    let claude = skills_root(&machine).join("pdf");
    let opencode = machine.home.join(".config/opencode/skills/git release");
    write_skill(&claude, &[]);
    write_skill(&opencode, &[]);
    let relative = machine.start.join("skills/relative-one");
    write_skill(&relative, &[]);
    let claude_line = serde_json::json!({
        "type": "user",
        "isMeta": true,
        "message": {"role": "user", "content": format!("Base directory for this skill: {}\n\n# pdf", claude.display())}
    });
    let url = format!("file://{}", opencode.display()).replace(' ', "%20");
    let opencode_line = serde_json::json!({
        "type": "tool",
        "part": {"tool": "skill", "state": {"output": format!("<skill_content name=\"git release\">\n# Skill\n\nBase directory for this skill: {url}\nRelative paths are relative to this base directory.\n</skill_content>")}}
    });
    let relative_line = serde_json::json!({"message": {"content": "Base directory for this skill: skills/relative-one"}});
    let gone_line = serde_json::json!({"message": {"content": "Base directory for this skill: /tmp/claude-0/bundled-skills/1.0/gone"}});
    let transcript = machine.root().join("session.jsonl");
    fs::write(
        &transcript,
        format!("{claude_line}\n{{\"type\":\"assistant\"}}\n{opencode_line}\n{relative_line}\n{gone_line}\n{claude_line}\n"),
    )
    .unwrap();
    let output = run(
        &machine,
        &[
            "snapshot",
            "--from-transcript",
            transcript.to_str().unwrap(),
        ],
        0,
    );
    let text = stdout(&output);
    assert!(text.contains("2 new snapshots kept"), "{text}");
    assert!(
        text.contains("skipped    /tmp/claude-0/bundled-skills/1.0/gone: not a skill folder"),
        "{text}"
    );
    let dirs: Vec<String> = snapshots(&machine)
        .iter()
        .map(|s| s["dir"].as_str().unwrap().to_owned())
        .collect();
    assert!(dirs.contains(&claude.display().to_string()), "{dirs:?}");
    assert!(dirs.contains(&opencode.display().to_string()), "{dirs:?}");
    assert_eq!(dirs.len(), 2, "the relative folder is ignored: {dirs:?}");

    let missing = run(
        &machine,
        &["snapshot", "--from-transcript", "/nonexistent.jsonl"],
        2,
    );
    assert!(stderr(&missing).contains("no such file"));
}

#[test]
fn a_transcript_naming_more_folders_than_a_session_uses_is_refused_unread() {
    let machine = Machine::new();
    let real = skills_root(&machine).join("real");
    write_skill(&real, &[]);
    let most = skilldeck::limits::SESSION_SKILLS;
    let names = |range: std::ops::Range<usize>| -> String {
        range
            .map(|i| format!("Base directory for this skill: /s/skill-{i}\n"))
            .collect()
    };
    let line = |text: String| serde_json::json!({"message": {"content": text}}).to_string();
    let real_line = line(format!("Base directory for this skill: {}", real.display()));
    // All in one line, or spread over lines naming some again: one folder past the bound.
    let one = format!("{real_line}\n{}\n", line(names(0..most)));
    let spread: String = (0..most)
        .step_by(100)
        .map(|at| line(names(at.saturating_sub(50)..at + 100)) + "\n")
        .collect();
    let spread = format!("{real_line}\n{spread}");
    for (shape, text) in [("one line", one), ("spread", spread)] {
        let transcript = machine.root().join("hostile.jsonl");
        fs::write(&transcript, text).unwrap();
        let output = run(
            &machine,
            &[
                "snapshot",
                "--from-transcript",
                transcript.to_str().unwrap(),
            ],
            3,
        );
        contains(
            &stderr(&output),
            &format!("names more than {most} skill folders"),
        );
        assert!(snapshots(&machine).is_empty(), "{shape}: nothing is kept");
    }
}

#[test]
fn naming_nothing_exits_1_with_a_sentence() {
    let machine = Machine::new();
    write_skill(&skills_root(&machine).join("demo"), &[]);
    let output = run(&machine, &["snapshot", "nosuch"], 1);
    contains(&stderr(&output), "no skill is named nosuch");
    let output = run(&machine, &["diff", "nosuch"], 1);
    contains(&stderr(&output), "no skill is named nosuch");
    let output = run(&machine, &["diff", "demo"], 1);
    contains(&stderr(&output), "there is no snapshot of");
    contains(&stderr(&output), "take one with `skilldeck snapshot`");
    run(&machine, &["snapshot", "demo"], 0);
    let output = run(&machine, &["restore", "demo", "--snapshot", "nope"], 1);
    contains(&stderr(&output), "has the id nope");
}

/// A misspelt name is answered with the names close to it, by every command that takes one;
/// a name close to none gets no guess; and a snapshot of nothing sums nothing up.
#[test]
fn a_misspelt_name_gets_a_did_you_mean() {
    let machine = Machine::new();
    write_skill(&skills_root(&machine).join("brand-guidelines"), &[]);
    write_skill(&skills_root(&machine).join("pdf"), &[]);
    for args in [
        &["snapshot", "brand-guideline"][..],
        &["diff", "brand-guideline"],
        &["remove", "brand-guidlines"],
        &["export", "brandguidelines", "-o", "out.tar.gz"],
    ] {
        let output = run(&machine, args, 1);
        contains(&stderr(&output), "did you mean brand-guidelines?");
    }
    let output = run(&machine, &["snapshot", "zzzz"], 1);
    assert!(
        !stderr(&output).contains("did you mean"),
        "{}",
        stderr(&output)
    );
    assert!(
        !String::from_utf8_lossy(&output.stdout).contains("snapshots kept"),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

/// A misspelt subcommand's suggestions start with the likeliest, which clap puts last.
#[test]
fn a_misspelt_command_is_answered_likeliest_first() {
    let machine = Machine::new();
    for (typed, first, then) in [("remvoe", "remove", "restore"), ("rmove", "remove", "move")] {
        let output = run(&machine, &[typed], 2);
        contains(
            &stderr(&output),
            &format!("similar subcommands exist: '{first}', '{then}'"),
        );
    }
    let output = run(&machine, &["remov"], 2);
    contains(&stderr(&output), "a similar subcommand exists: 'remove'");
}

#[test]
fn one_changed_file_is_one_file_changed() {
    let machine = Machine::new();
    let dir = skills_root(&machine).join("demo");
    write_skill(&dir, &[]);
    run(&machine, &["snapshot", "demo"], 0);
    fs::write(dir.join("notes.md"), "a note\n").unwrap();
    let output = run(&machine, &["diff", "demo"], 1);
    let header = String::from_utf8_lossy(&output.stdout)
        .lines()
        .next()
        .unwrap()
        .to_owned();
    assert!(header.ends_with(": 1 file changed, +1 -0"), "{header}");
}

/// `-o` a folder exports into it under a name not taken; `-o` a name of another format is
/// refused in a sentence and writes nothing.
#[test]
fn export_into_a_folder_and_refuse_a_zip_name() {
    let machine = Machine::new();
    write_skill(&skills_root(&machine).join("demo"), &[]);
    let into = machine.root().join("exports");
    fs::create_dir_all(&into).unwrap();
    for expected in ["demo.tar.gz", "demo-2.tar.gz"] {
        let output = run(
            &machine,
            &["export", "demo", "-o", into.to_str().unwrap()],
            0,
        );
        let said = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(said.contains(expected), "{said}");
        assert!(into.join(expected).is_file(), "{said}");
    }
    let zip = machine.root().join("demo.zip");
    let output = run(
        &machine,
        &["export", "demo", "-o", zip.to_str().unwrap()],
        1,
    );
    contains(&stderr(&output), "is not a .tar.gz name");
    assert!(!zip.exists());
}

#[test]
fn a_name_shared_by_two_skills_must_be_given_as_a_folder() {
    let machine = Machine::new();
    write_skill(&skills_root(&machine).join("twin"), &[]);
    write_skill(&machine.home.join(".agents/skills/twin"), &[]);
    let output = run(&machine, &["diff", "twin"], 2);
    contains(&stderr(&output), "twin names 2 skills");
    let output = run(&machine, &["snapshot", "twin"], 0);
    contains(&stdout(&output), "2 new snapshots kept");
}

#[test]
fn export_twice_is_byte_identical_and_the_planted_token_only_leaves_the_archive() {
    let machine = Machine::new();
    let dir = skills_root(&machine).join("demo");
    let token = "sk-ant-api03-FAKEFAKEFAKEFAKEFAKEFAKEFAKE";
    write_skill(
        &dir,
        &[("refs/env.md", &format!("ANTHROPIC_API_KEY={token}\n"))],
    );
    let first = machine.root().join("first.tar.gz");
    let second = machine.root().join("second.tar.gz");
    let output = run(
        &machine,
        &["export", "demo", "-o", first.to_str().unwrap()],
        0,
    );
    contains(&stdout(&output), "refs/env.md: anthropic-key");
    run(
        &machine,
        &["export", "demo", "-o", second.to_str().unwrap()],
        0,
    );
    let archive = fs::read(&first).unwrap();
    assert_eq!(archive, fs::read(&second).unwrap());
    let text = unpacked_text(&archive);
    assert!(!text.contains(token));
    assert!(text.contains("[REDACTED:anthropic-key]"));
    assert!(
        fs::read_to_string(dir.join("refs/env.md"))
            .unwrap()
            .contains(token)
    );
}

#[test]
fn an_export_over_the_bound_writes_nothing() {
    let machine = Machine::new();
    let dir = skills_root(&machine).join("demo");
    write_skill(&dir, &[]);
    // Hashes of counters: bytes no compressor can shrink.
    let noise: Vec<u8> = (0..(6u32 << 20) / 32)
        .flat_map(|i| <sha2::Sha256 as sha2::Digest>::digest(i.to_le_bytes()))
        .collect();
    fs::write(dir.join("noise.bin"), noise).unwrap();
    let out = machine.root().join("out.tar.gz");
    // Binary data is packed only when asked for.
    let output = run(
        &machine,
        &[
            "export",
            "demo",
            "-o",
            out.to_str().unwrap(),
            "--include-unscanned",
        ],
        1,
    );
    contains(
        &stderr(&output),
        "over the 5 MiB bound; nothing was written",
    );
    assert!(!out.exists());
}

/// A file the exporting user cannot read fails the export: nothing unscanned leaves.
#[cfg(unix)]
#[test]
fn an_export_fails_closed_on_a_file_it_cannot_read() {
    use std::os::unix::fs::PermissionsExt;
    let machine = Machine::new();
    let dir = skills_root(&machine).join("demo");
    write_skill(&dir, &[("private.md", "mine\n")]);
    fs::set_permissions(dir.join("private.md"), fs::Permissions::from_mode(0o000)).unwrap();
    let out_dir = machine.root().join("out");
    fs::create_dir(&out_dir).unwrap();
    fs::set_permissions(&out_dir, fs::Permissions::from_mode(0o777)).unwrap();
    let out = out_dir.join("demo.tar.gz");
    let output = machine.run_unprivileged(&["export", "demo", "-o", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    contains(&stderr(&output), "private.md could not be read");
    assert!(!out.exists());
}

/// Every file of a .tar.gz, concatenated as text.
fn unpacked_text(archive: &[u8]) -> String {
    let mut text = String::new();
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(archive));
    for entry in tar.entries().unwrap() {
        let mut entry = entry.unwrap();
        std::io::Read::read_to_string(&mut entry, &mut text).unwrap();
    }
    text
}

/// With no `-o`, an export goes into the current folder as NAME-VERSION.tar.gz (the version
/// SKILL.md declares: `version`, else `metadata.version`; none, no `-VERSION`), every entry
/// under NAME/ so it imports as NAME whatever the file is called; what it says is a line for
/// each path, so it fits in 80 columns where the paths do.
#[test]
fn export_with_no_output_names_the_archive_after_the_skill_and_its_version() {
    let machine = Machine::new();
    let root = skills_root(&machine);
    let deep = "a-folder-of-skills-the-user-keeps";
    let cases = [
        ("meta", "metadata:\n  version: 1.2.0\n", "meta-1.2.0.tar.gz"),
        ("top", "version: 3\n", "top-3.tar.gz"),
        ("plain", "", "plain.tar.gz"),
        ("odd", "version: ../x\n", "odd.tar.gz"),
    ];
    for (name, front, file) in cases {
        let dir = root.join(deep).join(name);
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: d\n{front}---\nbody\n"),
        )
        .unwrap();
        fs::write(dir.join("notes.md"), "notes\n").unwrap();
        let output = run(&machine, &["export", dir.to_str().unwrap()], 0);
        let said = stdout(&output);
        contains(&said, &format!("./{file}"));
        assert!(
            said.lines().all(|line| line.chars().count() <= 80),
            "{said}"
        );
        let archive = fs::read(machine.start.join(file)).unwrap();
        let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(&archive[..]));
        let mut names: Vec<String> = tar
            .entries()
            .unwrap()
            .map(|e| e.unwrap().path().unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [format!("{name}/SKILL.md"), format!("{name}/notes.md")]
        );
        // Imported under the skill's name, not the file's.
        let into = machine.root().join("imported");
        let output = run(
            &machine,
            &["import", file, "--to", into.to_str().unwrap(), "--json"],
            0,
        );
        let json: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["installed"][0]["name"], name, "{json}");
        assert!(into.join(name).join("notes.md").is_file());
    }
}
