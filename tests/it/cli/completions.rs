//! `skilldeck completions SHELL`: a script for each shell clap_complete knows, naming every
//! subcommand, that the shell loads without error and that completes subcommands and options
//! when the shell is asked to (bash always; zsh and fish where they are installed).

use std::path::Path;
use std::process::Command;

use clap::CommandFactory;
use skilldeck::cli::Cli;

use crate::common::Machine;

/// Each shell, with a line only its script holds.
const SHELLS: &[(&str, &str)] = &[
    ("bash", "complete -F _skilldeck"),
    ("zsh", "#compdef skilldeck"),
    ("fish", "complete -c skilldeck"),
    ("powershell", "Register-ArgumentCompleter"),
    ("elvish", "edit:completion:arg-completer[skilldeck]"),
];

fn subcommands() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect()
}

fn script(machine: &Machine, shell: &str) -> String {
    let output = machine.run_expecting(&["completions", shell], 0);
    assert!(output.stderr.is_empty(), "{shell}: {:?}", output.stderr);
    String::from_utf8(output.stdout).unwrap()
}

/// Whether `program` is on PATH; said on stderr when it is not, naming what did not run.
fn installed(program: &str, what: &str) -> bool {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        crate::common::outside::say_skipped(&format!(
            "{program} is not installed, so {what} did not run"
        ));
    }
    found
}

#[test]
fn every_shell_gets_a_script_naming_every_subcommand() {
    let machine = Machine::new();
    let names = subcommands();
    for expected in ["list", "check", "import", "completions", "man"] {
        assert!(names.iter().any(|n| n == expected), "{names:?}");
    }
    for (shell, marker) in SHELLS {
        let text = script(&machine, shell);
        assert!(text.contains(marker), "{shell}: no `{marker}`");
        for name in &names {
            assert!(
                text.contains(name.as_str()),
                "{shell}: {name} is not completed"
            );
        }
    }
}

/// What bash offers for the words typed, as its completion machinery would ask the script.
fn bash_offers(script: &Path, words: &[&str]) -> Vec<String> {
    let line = words.join(" ");
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let code = format!(
        "source {script} || exit 9\n\
         COMP_WORDS=({array}); COMP_CWORD={cword}; COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}\n\
         _skilldeck skilldeck '{current}' '{previous}'\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script = script.display(),
        array = quoted.join(" "),
        cword = words.len() - 1,
        current = words[words.len() - 1],
        previous = words[words.len() - 2],
    );
    let output = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &code])
        .output()
        .expect("bash runs");
    assert!(
        output.status.success() && output.stderr.is_empty(),
        "{words:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn bash_loads_the_script_and_completes_subcommands_and_options() {
    let machine = Machine::new();
    let file = machine.root().join("skilldeck.bash");
    std::fs::write(&file, script(&machine, "bash")).unwrap();
    let loaded = Command::new("bash")
        .args(["--norc", "--noprofile", "-c"])
        .arg(format!(
            "source {} && complete -p skilldeck",
            file.display()
        ))
        .output()
        .expect("bash runs");
    assert!(loaded.status.success(), "{loaded:?}");
    assert!(loaded.stderr.is_empty(), "{loaded:?}");
    assert!(
        String::from_utf8_lossy(&loaded.stdout).contains("-F _skilldeck skilldeck"),
        "{loaded:?}"
    );
    assert_eq!(bash_offers(&file, &["skilldeck", "comp"]), ["completions"]);
    assert_eq!(bash_offers(&file, &["skilldeck", "man", "--l"]), ["--list"]);
    let shells = bash_offers(&file, &["skilldeck", "completions", ""]);
    for (shell, _) in SHELLS {
        assert!(shells.iter().any(|s| s == shell), "{shells:?}");
    }
}

#[test]
fn zsh_and_fish_load_the_script_where_they_are_installed() {
    let machine = Machine::new();
    if installed("zsh", "the zsh completion load check") {
        let file = machine.root().join("_skilldeck");
        std::fs::write(&file, script(&machine, "zsh")).unwrap();
        let loaded = Command::new("zsh")
            .args(["-f", "-c"])
            .arg(format!(
                "autoload -U compinit && compinit -u && source {} && print -r -- $_comps[skilldeck]",
                file.display()
            ))
            .output()
            .expect("zsh runs");
        assert!(
            loaded.status.success() && loaded.stderr.is_empty(),
            "{loaded:?}"
        );
        assert_eq!(String::from_utf8_lossy(&loaded.stdout).trim(), "_skilldeck");
    }
    if installed("fish", "the fish completion load check") {
        let file = machine.root().join("skilldeck.fish");
        std::fs::write(&file, script(&machine, "fish")).unwrap();
        let offered = Command::new("fish")
            .args(["--no-config", "-c"])
            .arg(format!(
                "source {} && complete -C 'skilldeck comp'",
                file.display()
            ))
            .output()
            .expect("fish runs");
        assert!(
            offered.status.success() && offered.stderr.is_empty(),
            "{offered:?}"
        );
        assert!(
            String::from_utf8_lossy(&offered.stdout).starts_with("completions"),
            "{offered:?}"
        );
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error_naming_the_shells() {
    let machine = Machine::new();
    let output = machine.run_expecting(&["completions", "tcsh"], 2);
    assert!(output.stdout.is_empty());
    let text = String::from_utf8_lossy(&output.stderr);
    for (shell, _) in SHELLS {
        assert!(text.contains(shell), "{text}");
    }
}

#[test]
fn the_help_says_where_each_shell_looks_for_the_script() {
    let machine = Machine::new();
    let output = machine.run_expecting(&["completions", "--help"], 0);
    let text = String::from_utf8_lossy(&output.stdout);
    for place in [
        "~/.local/share/bash-completion/completions/skilldeck",
        "fpath=(~/.zfunc $fpath)",
        "~/.config/fish/completions/skilldeck.fish",
        "Invoke-Expression",
        "~/.config/elvish/rc.elv",
    ] {
        assert!(text.contains(place), "{place}: {text}");
    }
}
