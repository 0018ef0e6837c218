//! What `disable`, `enable` and `undo` do to a settings file's bytes and links, through the
//! real binary: every byte they were not asked to change stays (a byte-order mark, CRLF, LF
//! or mixed line endings, trailing spaces, no final newline), new lines take the file's line
//! ending; a link stays a link, a dangling one is written through rather than replaced, and
//! a project's file is never written through a link that leads out of the project.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{Machine, symlink, write_files, write_skill};

/// Every file and link below `dir`: a link as where it leads, a file as its bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| !e.file_type().is_dir())
        .map(|e| {
            let bytes = if e.path_is_symlink() {
                let to = fs::read_link(e.path()).unwrap();
                format!("link to {}", to.display()).into_bytes()
            } else {
                fs::read(e.path()).unwrap()
            };
            (e.path().to_path_buf(), bytes)
        })
        .collect()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The lines Codex's writer appends for a `path` entry, in the file's line ending `end`, after
/// `original` (whose lack of a final newline is kept).
fn with_entry(original: &str, skill_md: &Path, end: &str) -> String {
    let block = [
        String::new(),
        "[[skills.config]]".to_owned(),
        format!("path = \"{}\"", skill_md.display()),
        "enabled = false".to_owned(),
    ]
    .join(end);
    if original.ends_with('\n') {
        format!("{original}{block}{end}")
    } else {
        format!("{original}{end}{block}")
    }
}

#[test]
fn codex_config_keeps_its_mark_line_endings_and_spaces_through_disable_enable_and_undo() {
    // (what the file holds, the line ending new lines get)
    let cases = [
        (
            "\u{feff}model = \"o3\"  \r\n[t]\r\nk = 1 # mine  \r\n",
            "\r\n",
        ),
        (
            "model = \"o3\"\r\n\r\n[profiles.x]\r\nmodel = \"a\"",
            "\r\n",
        ),
        ("\u{feff}a = 1\nb = 2\r\nc = 3\r\n[t]\r\n", "\r\n"),
        ("a = 1 \t\nb = 2\r\nc = 3\n", "\n"),
        ("a = 1 # no final newline", "\n"),
    ];
    for (original, end) in cases {
        let machine = Machine::new();
        let dir = machine.home.join(".agents/skills/tex");
        write_skill(&dir, &[]);
        let config = machine.home.join(".codex/config.toml");
        write_files(&machine.home.join(".codex"), &[("config.toml", original)]);
        let skill_md = dir.join("SKILL.md");

        machine.run_expecting(&["disable", "tex", "--agent", "codex"], 0);
        let disabled = with_entry(original, &skill_md, end);
        assert_eq!(
            fs::read_to_string(&config).unwrap(),
            disabled,
            "{original:?}"
        );
        machine.run_expecting(&["enable", "tex", "--agent", "codex"], 0);
        assert_eq!(fs::read_to_string(&config).unwrap(), original);
        // The undo of the enable, then of the disable: each puts the bytes back.
        machine.run_expecting(&["undo"], 0);
        assert_eq!(fs::read_to_string(&config).unwrap(), disabled);
        machine.run_expecting(&["undo"], 0);
        assert_eq!(fs::read_to_string(&config).unwrap(), original);
    }
}

#[test]
fn json_settings_keep_a_mark_crlf_and_no_final_newline() {
    let cases = [
        (
            "\u{feff}{\r\n  \"model\": \"opus\"\r\n}",
            "\u{feff}{\r\n  \"model\": \"opus\",\r\n  \"skillOverrides\": {\r\n    \"pdf\": \"off\"\r\n  }\r\n}",
        ),
        (
            "{\r\n  \"model\": \"opus\", \t\r\n  \"a\": 1\n}\r\n",
            "{\r\n  \"model\": \"opus\", \t\r\n  \"a\": 1,\n  \"skillOverrides\": {\r\n    \"pdf\": \"off\"\r\n  }\r\n}\r\n",
        ),
        (
            "\u{feff}{\n\t\"model\": \"opus\"\n}",
            "\u{feff}{\n\t\"model\": \"opus\",\n\t\"skillOverrides\": {\n\t\t\"pdf\": \"off\"\n\t}\n}",
        ),
    ];
    for (original, disabled) in cases {
        let machine = Machine::new();
        write_skill(&machine.home.join(".claude/skills/pdf"), &[]);
        let settings = machine.home.join(".claude/settings.json");
        write_files(
            &machine.home.join(".claude"),
            &[("settings.json", original)],
        );
        let out = machine.run(&["disable", "pdf", "--agent", "claude-code"]);
        assert!(out.status.success(), "{original:?}: {}", stderr(&out));
        let text = fs::read_to_string(&settings).unwrap();
        assert_eq!(text, disabled, "{original:?}");
        machine.run_expecting(&["enable", "pdf", "--agent", "claude-code"], 0);
        assert_eq!(fs::read_to_string(&settings).unwrap(), original);
        machine.run_expecting(&["undo"], 0);
        machine.run_expecting(&["undo"], 0);
        assert_eq!(fs::read_to_string(&settings).unwrap(), original);
    }
}

#[test]
fn a_dangling_link_is_written_through_and_undo_leaves_it_dangling() {
    // The user's settings kept in a dotfiles folder not made yet, and a project's kept in a
    // folder of the project.
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/pdf"), &[]);
    let cases = [
        (
            machine.home.join(".claude/settings.json"),
            machine.home.join("dotfiles/claude.json"),
            "user",
        ),
        (
            machine.repo.join(".claude/settings.local.json"),
            machine.repo.join("config/claude.local.json"),
            "project",
        ),
    ];
    for (link, target, scope) in &cases {
        symlink(target, link);
        let before = tree(&machine.root());
        machine.run_expecting(
            &["disable", "pdf", "--agent", "claude-code", "--scope", scope],
            0,
        );
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(&fs::read_link(link).unwrap(), target);
        let value: serde_json::Value = serde_json::from_slice(&fs::read(target).unwrap()).unwrap();
        assert_eq!(value["skillOverrides"]["pdf"], "off", "{scope}");
        machine.run_expecting(&["undo"], 0);
        assert!(!target.exists(), "{scope}: undo left the file it made");
        assert_eq!(&fs::read_link(link).unwrap(), target, "{scope}");
        let mut after = tree(&machine.root());
        after.retain(|path, _| !path.starts_with(machine.home.join(".local")));
        let mut before = before;
        before.retain(|path, _| !path.starts_with(machine.home.join(".local")));
        assert_eq!(after, before, "{scope}");
    }
}

#[test]
fn a_link_inside_the_project_is_edited_where_it_leads_and_stays_a_link() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/pdf"), &[]);
    let cases = [
        // The file a link.
        (
            machine.repo.join(".claude/settings.local.json"),
            machine.repo.join("shared/claude.json"),
        ),
        // Its folder a link.
        (
            machine.repo.join(".claude"),
            machine.repo.join("tools/claude"),
        ),
    ];
    for (link, target) in &cases {
        let _ = fs::remove_dir_all(machine.repo.join(".claude"));
        let real = if link.ends_with(".claude") {
            write_files(target, &[("settings.local.json", "{\"a\": 1}\n")]);
            target.join("settings.local.json")
        } else {
            write_files(target.parent().unwrap(), &[("claude.json", "{\"a\": 1}\n")]);
            target.clone()
        };
        symlink(target, link);
        machine.run_expecting(
            &[
                "disable",
                "pdf",
                "--agent",
                "claude-code",
                "--scope",
                "project",
            ],
            0,
        );
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert!(
            fs::read_to_string(&real)
                .unwrap()
                .contains("\"pdf\": \"off\""),
            "{}",
            real.display()
        );
        machine.run_expecting(&["undo"], 0);
        assert_eq!(fs::read_to_string(&real).unwrap(), "{\"a\": 1}\n");
        assert_eq!(&fs::read_link(link).unwrap(), target);
    }
}

#[test]
fn a_project_file_leading_out_of_the_project_is_refused_naming_both() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/pdf"), &[]);
    write_skill(&machine.home.join(".gemini/skills/gem"), &[]);
    let outside = machine.root().join("elsewhere");
    write_files(&outside, &[("other.json", "{}\n")]);
    fs::create_dir_all(outside.join("claude")).unwrap();
    fs::create_dir_all(outside.join("gemini")).unwrap();
    // Gemini CLI reads a workspace's settings only in a folder it trusts.
    let trust = serde_json::json!({ machine.repo.to_str().unwrap(): "TRUST_FOLDER" });
    write_files(
        &machine.home.join(".gemini"),
        &[("trustedFolders.json", &trust.to_string())],
    );
    // (the link, where it leads, the file that leads out, the agent)
    let cases = [
        // The file a link to a file outside.
        (
            machine.repo.join(".claude/settings.local.json"),
            outside.join("other.json"),
            outside.join("other.json"),
            "claude-code",
            "pdf",
        ),
        // The file a dangling link to a file outside.
        (
            machine.repo.join(".claude/settings.local.json"),
            outside.join("new.json"),
            outside.join("new.json"),
            "claude-code",
            "pdf",
        ),
        // Its folder a link to a folder outside.
        (
            machine.repo.join(".claude"),
            outside.join("claude"),
            outside.join("claude/settings.local.json"),
            "claude-code",
            "pdf",
        ),
        (
            machine.start.join(".gemini"),
            outside.join("gemini"),
            outside.join("gemini/settings.json"),
            "gemini-cli",
            "gem",
        ),
    ];
    for (link, target, leads_to, agent, skill) in &cases {
        let _ = fs::remove_dir_all(machine.repo.join(".claude"));
        let _ = fs::remove_file(machine.repo.join(".claude"));
        symlink(target, link);
        let before = tree(&machine.root());
        let out = machine.run_expecting(
            &["disable", skill, "--agent", agent, "--scope", "project"],
            1,
        );
        let said = stderr(&out);
        assert!(
            said.contains(&leads_to.display().to_string()),
            "{}: {said}",
            link.display()
        );
        assert!(said.contains("outside"), "{said}");
        assert_eq!(tree(&machine.root()), before, "{}", link.display());
        fs::remove_file(link).unwrap();
    }
}
