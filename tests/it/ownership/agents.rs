//! Ownership of the plugins and extensions the agents' own installers put on a machine: real
//! record files written by `codex plugin add`, `copilot plugin install` and `gemini extensions
//! install` / `link`, committed under tests/fixtures/agent-records (see the READMEs there for
//! the commands). `list --json` must name the installer, upstream and version (`upstream.ref`:
//! these installers install by version and name no branch) of each of their skills, and a corrupt record file must be a problem sentence on the listing that loses no
//! skill.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::Machine;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The placeholder the fixtures hold where the installer wrote its temporary folder.
const ROOT: &str = "@ROOT@";

/// A machine holding the fixture of `agent`: its `home/` as the machine's home, the sources
/// beside it, every `@ROOT@` rewritten to the machine's folder.
fn machine_with(agent: &str) -> Machine {
    let machine = Machine::new();
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/agent-records")
        .join(agent);
    lay(&from, &machine.root(), &machine.root());
    machine
}

pub fn lay(from: &Path, to: &Path, root: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            lay(&entry.path(), &target, root);
        } else if entry.file_name() != "README.md" {
            let text = fs::read_to_string(entry.path()).unwrap();
            fs::write(&target, text.replace(ROOT, root.to_str().unwrap())).unwrap();
        }
    }
}

/// The listed skill at `dir`.
fn at(listing: &Value, dir: &Path) -> Value {
    listing["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["dir"] == dir.to_str().unwrap())
        .unwrap_or_else(|| panic!("{} is not listed: {listing:#}", dir.display()))
        .clone()
}

fn path(p: &Path) -> Value {
    Value::from(p.to_str().unwrap())
}

#[test]
fn codex_plugins_name_their_marketplace_and_version() {
    let machine = machine_with("codex");
    let cache = machine.home.join(".codex/plugins/cache/demo-mkt");
    let listing = machine.list_json();
    assert_eq!(listing["problems"].to_string(), "[]", "{listing:#}");

    let greet = at(&listing, &cache.join("alpha/1.2.3/skills/greet"));
    let record = &greet["record"];
    assert_eq!(record["installer"], "codex-plugin", "{greet:#}");
    assert_eq!(
        record["recorded_in"],
        path(&machine.home.join(".codex/config.toml"))
    );
    assert_eq!(
        record["upstream"]["repository"],
        path(&machine.root().join("mkt"))
    );
    assert_eq!(record["upstream"]["ref"], "1.2.3");
    // The local marketplace is read in place, at the version cached: the untouched copy.
    assert_eq!(greet["state"], "intact", "{greet:#}");
    assert_eq!(record["verified_by"], "marketplace-clone");
    assert_eq!(
        record["pristine"],
        path(&machine.root().join("mkt/plugins/alpha/skills/greet"))
    );

    // No manifest version: Codex caches it as `local`, and nothing says which revision.
    let tidy = at(&listing, &cache.join("beta/local/skills/tidy"));
    assert_eq!(tidy["record"]["installer"], "codex-plugin");
    assert_eq!(tidy["record"]["upstream"]["ref"], "local");
    assert_eq!(tidy["state"], "unverifiable", "{tidy:#}");

    fs::write(
        cache.join("alpha/1.2.3/skills/greet/SKILL.md"),
        "---\nname: greet\ndescription: Say hello.\n---\n\nSay goodbye.\n",
    )
    .unwrap();
    let greet = at(
        &machine.list_json(),
        &cache.join("alpha/1.2.3/skills/greet"),
    );
    assert_eq!(greet["state"], "modified", "{greet:#}");
}

#[test]
fn a_disabled_codex_plugin_is_still_codexs_but_not_loaded() {
    let machine = machine_with("codex");
    let config = machine.home.join(".codex/config.toml");
    let text = fs::read_to_string(&config).unwrap();
    let text = text.replacen("enabled = true", "enabled = false", 1);
    fs::write(&config, text).unwrap();
    let listing = machine.list_json();
    let greet = at(
        &listing,
        &machine
            .home
            .join(".codex/plugins/cache/demo-mkt/alpha/1.2.3/skills/greet"),
    );
    assert_eq!(greet["record"]["installer"], "codex-plugin");
    assert_eq!(greet["state"], "unverifiable");
    let note = greet["record"]["note"].as_str().unwrap();
    assert!(note.contains("alpha@demo-mkt disabled"), "{note}");
}

#[test]
fn a_codex_config_that_does_not_parse_is_a_problem_and_loses_nothing() {
    let machine = machine_with("codex");
    let config = machine.home.join(".codex/config.toml");
    fs::write(&config, "[plugins.\"alpha@demo-mkt\"\nenabled = tru\n").unwrap();
    let listing = machine.list_json();
    let problems = listing["problems"].to_string();
    assert!(
        problems.contains(&format!("{} could not be read", config.display())),
        "{problems}"
    );
    let cache = machine.home.join(".codex/plugins/cache/demo-mkt");
    for dir in ["alpha/1.2.3/skills/greet", "beta/local/skills/tidy"] {
        let skill = at(&listing, &cache.join(dir));
        assert!(skill["record"].is_null(), "{skill:#}");
        assert!(
            skill["problems"].to_string().contains("config.toml"),
            "{skill:#}"
        );
    }
}

#[test]
fn copilot_plugins_name_their_marketplace_and_version() {
    let machine = machine_with("copilot");
    let installed = machine.home.join(".copilot/installed-plugins");
    let listing = machine.list_json();
    assert_eq!(listing["problems"].to_string(), "[]", "{listing:#}");

    let sa = at(&listing, &installed.join("gitmkt/pa/skills/sa"));
    let record = &sa["record"];
    assert_eq!(record["installer"], "copilot-plugin", "{sa:#}");
    assert_eq!(
        record["recorded_in"],
        path(&machine.home.join(".copilot/config.json"))
    );
    assert_eq!(
        record["upstream"]["repository"],
        "http://127.0.0.1:18794/gitmkt.git"
    );
    assert_eq!(record["upstream"]["ref"], "1.2.3");
    assert_eq!(
        record["hash"],
        "3512de7c779606ed09f201c6eca8141c5d67e8bd902a2be22f33b7e8ac872117"
    );
    assert_eq!(sa["state"], "unverifiable");

    let sd = at(&listing, &installed.join("_direct/direct/skills/sd"));
    assert_eq!(sd["record"]["installer"], "copilot-plugin", "{sd:#}");
    assert_eq!(
        sd["record"]["upstream"]["repository"],
        path(&machine.root().join("direct"))
    );
    assert_eq!(sd["record"]["upstream"]["ref"], "0.9.0");
}

#[test]
fn a_corrupt_copilot_config_is_a_problem_and_loses_nothing() {
    let machine = machine_with("copilot");
    let config = machine.home.join(".copilot/config.json");
    fs::write(&config, "// managed\n{\"installedPlugins\": [").unwrap();
    let listing = machine.list_json();
    let problems = listing["problems"].to_string();
    assert!(
        problems.contains(&format!("{} could not be read", config.display())),
        "{problems}"
    );
    let installed = machine.home.join(".copilot/installed-plugins");
    for dir in ["gitmkt/pa/skills/sa", "_direct/direct/skills/sd"] {
        let skill = at(&listing, &installed.join(dir));
        assert!(skill["record"].is_null(), "{skill:#}");
        assert!(
            skill["problems"].to_string().contains("config.json"),
            "{skill:#}"
        );
    }
}

/// The Gemini fixture with the integrity hashes recomputed for the machine's paths, as Gemini
/// CLI computes them: SHA-256 over the install record, keys sorted, no spaces.
fn gemini_machine() -> Machine {
    let machine = machine_with("gemini-cli");
    let gemini = machine.home.join(".gemini");
    let file = gemini.join("extension_integrity.json");
    let mut integrity: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    for (name, kind) in [("ext-a", "local"), ("ext-b", "link")] {
        let source = machine.root().join("src").join(name);
        let stable = format!("{{\"source\":{},\"type\":\"{kind}\"}}", path(&source));
        let hash = crate::common::hex(&Sha256::digest(stable.as_bytes()));
        integrity["store"][name]["hash"] = Value::from(hash);
    }
    fs::write(&file, integrity.to_string()).unwrap();
    machine
}

fn extension_skill(machine: &Machine) -> PathBuf {
    machine
        .home
        .join(".gemini/extensions/ext-a/skills/ext-skill")
}

#[test]
fn gemini_extensions_name_their_source_and_version() {
    let machine = gemini_machine();
    let listing = machine.list_json();
    assert_eq!(listing["problems"].to_string(), "[]", "{listing:#}");
    let skill = at(&listing, &extension_skill(&machine));
    let record = &skill["record"];
    assert_eq!(record["installer"], "gemini-extension", "{skill:#}");
    assert_eq!(
        record["recorded_in"],
        path(
            &machine
                .home
                .join(".gemini/extensions/ext-a/.gemini-extension-install.json")
        )
    );
    assert_eq!(
        record["upstream"]["repository"],
        path(&machine.root().join("src/ext-a"))
    );
    assert_eq!(record["upstream"]["ref"], "1.2.3");
    // Gemini CLI hashes only the install record, never the files.
    assert_eq!(skill["state"], "unverifiable");
    let note = record["note"].as_str().unwrap();
    assert!(note.contains("records no hash"), "{note}");
    assert!(note.contains("which matches it"), "{note}");

    let install = machine
        .home
        .join(".gemini/extensions/ext-a/.gemini-extension-install.json");
    fs::write(
        &install,
        "{\"source\": \"/elsewhere\", \"type\": \"local\"}",
    )
    .unwrap();
    let skill = at(&machine.list_json(), &extension_skill(&machine));
    let note = skill["record"]["note"].as_str().unwrap();
    assert!(note.contains("has changed since"), "{note}");
    assert_eq!(skill["record"]["upstream"]["repository"], "/elsewhere");
}

#[test]
fn corrupt_gemini_records_are_problems_and_lose_nothing() {
    let machine = gemini_machine();
    let install = machine
        .home
        .join(".gemini/extensions/ext-a/.gemini-extension-install.json");
    fs::write(&install, "{\"source\": ").unwrap();
    let integrity = machine.home.join(".gemini/extension_integrity.json");
    fs::write(&integrity, "not json").unwrap();
    let listing = machine.list_json();
    let problems = listing["problems"].to_string();
    for file in [&install, &integrity] {
        assert!(
            problems.contains(&format!("{} could not be read", file.display())),
            "{problems}"
        );
    }
    let skill = at(&listing, &extension_skill(&machine));
    assert_eq!(
        skill["record"]["installer"], "gemini-extension",
        "{skill:#}"
    );
    assert_eq!(skill["record"]["upstream"]["ref"], "1.2.3");
    assert_eq!(skill["state"], "unverifiable");
    assert!(
        skill["problems"]
            .to_string()
            .contains(".gemini-extension-install.json"),
        "{skill:#}"
    );
}
