//! Which agents the listings show: by default only those installed on the machine (their config
//! folder exists, as the skills CLI tells), with `--all-agents` every agent of the table; and
//! who would load an import at its destination.

use serde_json::Value;

use crate::common::{Machine, listed, write_skill};

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

fn json(machine: &Machine, args: &[&str]) -> Value {
    let output = machine.run(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// A machine with Cline installed (`~/.cline`) and a skill in the shared `~/.agents/skills`,
/// and a project skill only Windsurf reads, which this machine lacks.
fn with_cline() -> Machine {
    let machine = Machine::new();
    std::fs::create_dir_all(machine.home.join(".cline")).unwrap();
    write_skill(&machine.home.join(".agents/skills/shared"), &[]);
    write_skill(&machine.start.join(".windsurf/skills/surfing"), &[]);
    machine
}

#[test]
fn cline_installed_shows_on_a_shared_skill_and_the_catalogue_only_with_all_agents() {
    let machine = with_cline();
    let listing = json(&machine, &["list", "--json"]);
    assert_eq!(strings(&listing["installed_agents"]), ["cline"]);
    assert_eq!(listing["all_agents"], false);
    assert_eq!(strings(&listed(&listing, "shared")["agents"]), ["cline"]);

    let every = json(&machine, &["list", "--json", "--all-agents"]);
    assert_eq!(every["all_agents"], true);
    assert_eq!(strings(&every["installed_agents"]), ["cline"]);
    let agents = strings(&listed(&every, "shared")["agents"]);
    for id in ["codex", "opencode", "cline", "warp"] {
        assert!(agents.contains(&id.to_owned()), "{id} in {agents:?}");
    }
    assert!(agents.len() > 10, "{agents:?}");
}

#[test]
fn a_skill_no_installed_agent_loads_is_still_listed_and_says_so() {
    let machine = with_cline();
    let listing = json(&machine, &["list", "--json"]);
    assert_eq!(
        strings(&listed(&listing, "surfing")["agents"]),
        Vec::<String>::new()
    );
    let every = json(&machine, &["list", "--json", "--all-agents"]);
    assert!(strings(&listed(&every, "surfing")["agents"]).contains(&"windsurf".to_owned()));

    let text = String::from_utf8(machine.run(&["list"]).stdout).unwrap();
    let row = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {text}"))
            .to_owned()
    };
    assert!(row("surfing").contains("none installed"), "{text}");
    assert!(row("shared").contains(" cline "), "{text}");
    assert!(!row("shared").contains("codex"), "{text}");
    assert!(text.contains("Agents installed here: cline"), "{text}");

    let text = String::from_utf8(machine.run(&["list", "--all-agents"]).stdout).unwrap();
    let shared = text.lines().find(|l| l.starts_with("shared")).unwrap();
    // Three ids, then how many more: the column stays readable with two dozen readers.
    assert!(shared.contains("codex,opencode,gemini-cli +"), "{text}");
}

#[test]
fn check_takes_all_agents_and_says_which_it_shows() {
    let machine = with_cline();
    let check = json(&machine, &["check", "--json"]);
    assert_eq!(strings(&check["installed_agents"]), ["cline"]);
    assert_eq!(check["all_agents"], false);
    let check = json(&machine, &["check", "--json", "--all-agents"]);
    assert_eq!(check["all_agents"], true);
}

#[test]
fn a_dry_run_names_who_would_load_the_skills_at_the_destination() {
    let machine = with_cline();
    let bundle = machine.root().join("bundle");
    write_skill(&bundle.join("alpha"), &[]);
    let bundle = bundle.to_str().unwrap();
    let preview = json(
        &machine,
        &["import", bundle, "--agent", "cline", "--dry-run", "--json"],
    );
    let destination = &preview["destination"];
    assert_eq!(
        destination["dir"],
        machine.home.join(".agents/skills").to_str().unwrap()
    );
    assert_eq!(strings(&destination["agents"]), ["cline"]);
    assert_eq!(strings(&destination["installed_agents"]), ["cline"]);
    let every = json(
        &machine,
        &[
            "import",
            bundle,
            "--agent",
            "cline",
            "--dry-run",
            "--json",
            "--all-agents",
        ],
    );
    let agents = strings(&every["destination"]["agents"]);
    assert!(agents.contains(&"codex".to_owned()), "{agents:?}");
    assert!(agents.contains(&"cline".to_owned()), "{agents:?}");

    let output = machine.run(&["import", bundle, "--agent", "cline", "--dry-run"]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("loaded there by cline ("), "{text}");
    assert!(text.contains("--all-agents names them"), "{text}");
    // Without a destination nothing is said about one.
    let plain = json(&machine, &["import", bundle, "--dry-run", "--json"]);
    assert!(plain.get("destination").is_none(), "{plain}");
}

#[test]
fn every_agent_id_is_a_destination_and_a_wrong_one_lists_them() {
    let machine = with_cline();
    let bundle = machine.root().join("bundle");
    write_skill(&bundle.join("alpha"), &[]);
    let bundle = bundle.to_str().unwrap();
    for id in ["warp", "github-copilot", "kiro-cli", "amp"] {
        let output = machine.run(&["import", bundle, "--agent", id, "--dry-run"]);
        assert_eq!(output.status.code(), Some(0), "{id}");
    }
    let output = machine.run(&["import", bundle, "--agent", "no-such-agent"]);
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8(output.stderr).unwrap();
    assert!(error.contains("the 78 known"), "{error}");
    assert!(error.contains("claude-code codex"), "{error}");
    assert!(error.contains("cline"), "{error}");
}
