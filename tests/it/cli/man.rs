//! `skilldeck man [SUBCOMMAND]`: the manual page names every subcommand, and each subcommand
//! it refers to (`skilldeck-NAME(1)`) has a page of its own, so nothing it points to is
//! missing once installed; groff reads every page without a warning where it is installed.

use std::io::Write;
use std::process::{Command, Stdio};

use clap::CommandFactory;
use skilldeck::cli::Cli;

use crate::common::Machine;

fn subcommands() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect()
}

fn page(machine: &Machine, args: &[&str]) -> String {
    let output = machine.run_expecting(args, 0);
    assert!(output.stderr.is_empty(), "{args:?}: {:?}", output.stderr);
    String::from_utf8(output.stdout).unwrap()
}

/// What `groff -man -ww` warns of on `roff` (through preconv, `-k`, as man-db reads UTF-8
/// pages), or `None` (said on stderr) without groff.
fn groff_warnings(roff: &str) -> Option<String> {
    let child = Command::new("groff")
        .args(["-k", "-man", "-Tutf8", "-ww", "-z"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        crate::common::outside::say_skipped(
            "groff is not installed: the man pages were not rendered",
        );
        return None;
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(roff.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    Some(String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn the_page_names_every_subcommand() {
    let machine = Machine::new();
    let text = page(&machine, &["man"]);
    assert!(text.contains(".TH skilldeck 1"), "{text}");
    let names = subcommands();
    assert!(names.len() > 20, "{names:?}");
    for name in &names {
        assert!(
            text.contains(&format!("skilldeck\\-{name}(1)")),
            "{name} is not on the page"
        );
    }
    assert!(!text.contains("skilldeck\\-help(1)"), "help has no page");
    assert_eq!(groff_warnings(&text).unwrap_or_default(), "");
}

#[test]
fn every_subcommand_the_page_names_has_a_page_of_its_own() {
    let machine = Machine::new();
    let listed = page(&machine, &["man", "--list"]);
    assert_eq!(listed.lines().collect::<Vec<_>>(), subcommands());
    for name in listed.lines() {
        let text = page(&machine, &["man", name]);
        assert!(
            text.contains(&format!(".TH skilldeck-{name} 1")),
            "{name}: {text}"
        );
        assert!(
            text.contains(&format!("\\fBskilldeck {name}\\fR")),
            "{name}: the synopsis is not `skilldeck {name}`"
        );
        assert_eq!(groff_warnings(&text).unwrap_or_default(), "", "{name}");
    }
}

#[test]
fn an_unknown_subcommand_is_a_usage_error_pointing_to_the_list() {
    let machine = Machine::new();
    let output = machine.run_expecting(&["man", "lsit"], 2);
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "skilldeck: no subcommand lsit: `skilldeck man --list` names them\n"
    );
}

#[test]
fn the_help_says_where_to_install_the_pages() {
    let machine = Machine::new();
    let output = machine.run_expecting(&["man", "--help"], 0);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("~/.local/share/man/man1"), "{text}");
    assert!(text.contains("skilldeck man --list"), "{text}");
    assert!(text.contains("man -l -"), "{text}");
}
