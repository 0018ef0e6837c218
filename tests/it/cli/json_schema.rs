//! Every command's `--json` output, on a machine built here with skills of every kind (intact,
//! modified, someone else's, disabled, shadowed, imported from git and moved upstream), is
//! validated against its JSON Schema in docs/schema, and so is each command's refusal. The
//! schemas are closed (`additionalProperties: false`, every field `required`), so a field
//! renamed or retyped in the code fails here until docs/json.md and the schema follow it.
//! The git repositories are built with the `git` the unix tests use.

#![cfg(unix)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::common::git::{commit, git, repository};
use crate::common::{Machine, hex, write_files, write_skill};

/// docs/schema, where the schemas live.
fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schema")
}

/// The validator of `docs/schema/<name>.schema.json`, its relative `$ref`s followed to the
/// files beside it.
fn validator(name: &str) -> jsonschema::Validator {
    let path = schema_dir().join(format!("{name}.schema.json"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .with_base_uri(format!("file://{}", path.display()))
        .build(&schema)
        .unwrap_or_else(|e| panic!("{name}.schema.json does not compile: {e}"))
}

/// Every way `value` breaks the schema `name`, one line each; empty when it fits.
fn violations(name: &str, value: &Value) -> Vec<String> {
    validator(name)
        .iter_errors(value)
        .map(|error| format!("at {}: {error}", error.instance_path()))
        .collect()
}

/// Run `args` (which hold `--json`), insist on `code`, parse standard output and check it
/// against the schema `name`; the output, for the next step.
pub(crate) fn validated(machine: &Machine, args: &[&str], code: i32, name: &str) -> Value {
    let output = machine.run_expecting(args, code);
    let value: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?} printed no JSON ({e}):\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let broken = violations(name, &value);
    assert!(
        broken.is_empty(),
        "{args:?} does not fit {name}.schema.json:\n{}\n{value:#}",
        broken.join("\n")
    );
    value
}

/// A refusal: exit 1 and the refusal shape, with the code the contract gives it.
fn refused(machine: &Machine, args: &[&str], name: &str, code: &str) {
    let value = validated(machine, args, 1, name);
    assert_eq!(value["refused"]["code"], code, "{args:?}: {value:#}");
}

fn skill_md(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill, for tests.\n---\n{body}\n")
}

/// A machine with Claude Code installed and, in its user skills folder: `alpha` and `beta`
/// imported from a git repository (whose `alpha` then moves on), `beta` edited since, `kit`
/// installed by SkillKit, `plain` recorded by nobody and turned off for Claude Code, and `twin`
/// in both the user and the project folder, one shadowing the other. Codex is installed too,
/// with nothing of its own. Every skill has a snapshot.
struct World {
    machine: Machine,
    upstream: PathBuf,
}

fn world() -> World {
    let machine = Machine::new();
    fs::create_dir_all(machine.home.join(".codex")).unwrap();
    let upstream = machine.root().join("upstream");
    repository(
        &upstream,
        &[
            ("skills/alpha/SKILL.md", &skill_md("alpha", "one")),
            ("skills/beta/SKILL.md", &skill_md("beta", "one")),
        ],
    );
    git(&upstream, &["tag", "v1"]);
    let skills = machine.home.join(".claude/skills");
    machine.import_to(&upstream, &skills);
    write_files(
        &upstream,
        &[("skills/alpha/SKILL.md", &skill_md("alpha", "two"))],
    );
    commit(&upstream, "two");
    let beta = skills.join("beta/SKILL.md");
    let edited = fs::read_to_string(&beta).unwrap() + "mine\n";
    fs::write(&beta, edited).unwrap();

    let kit = skills.join("kit");
    write_skill(&kit, &[]);
    // SkillKit's checksum: SHA-256 of SKILL.md, 16 hex digits.
    let checksum = hex(&Sha256::digest(fs::read(kit.join("SKILL.md")).unwrap()))[..16].to_owned();
    let metadata = serde_json::json!({"name": "kit", "description": "", "source": "example/kit",
        "sourceType": "github", "subpath": "kit", "installedAt": "2026-01-01T00:00:00.000Z",
        "enabled": true, "checksum": checksum});
    write_files(&kit, &[(".skillkit.json", &metadata.to_string())]);

    write_skill(&skills.join("plain"), &[]);
    // A `name` that is not text, which may stop Amp's whole listing (`breaks-listing`).
    write_files(
        &skills,
        &[("numbered/SKILL.md", "---\nname: 12\ndescription: d\n---\n")],
    );
    write_skill(&skills.join("twin"), &[]);
    write_skill(&machine.repo.join(".claude/skills/twin"), &[]);
    machine.run_expecting(&["disable", "plain", "--agent", "claude-code"], 0);
    machine.run_expecting(&["snapshot"], 0);
    World { machine, upstream }
}

#[test]
fn reading_commands_fit_their_schemas() {
    let World { machine, .. } = world();
    let m = &machine;
    let list = validated(m, &["list", "--json"], 0, "list");
    let states: BTreeSet<&str> = list["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["state"].as_str())
        .collect();
    for state in ["intact", "modified", "unrecorded"] {
        assert!(states.contains(state), "no {state} skill listed: {list:#}");
    }
    let every = validated(
        m,
        &["list", "--json", "--all-agents", "--no-usage"],
        0,
        "list",
    );
    let effects: BTreeSet<&str> = every["skills"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["left_out"].as_array().unwrap())
        .filter_map(|l| l["effect"].as_str())
        .collect();
    assert!(effects.contains("breaks-listing"), "{every:#}");
    validated(m, &["check", "--json"], 1, "check");
    validated(m, &["check", "plain", "--json"], 0, "check");
    refused(m, &["check", "nosuch", "--json"], "check", "no_such_skill");
    validated(m, &["roots", "--json"], 0, "roots");
    validated(m, &["roots", "--json", "--all-agents"], 0, "roots");
    validated(m, &["context", "--json"], 0, "context");
    validated(m, &["context", "--json", "--agent", "codex"], 0, "context");
    validated(m, &["outdated", "--json"], 1, "outdated");
    validated(m, &["outdated", "--json", "--offline"], 1, "outdated");
    validated(m, &["snapshots", "--json"], 0, "snapshots");
    validated(m, &["snapshots", "alpha", "--json"], 0, "snapshots");
    refused(
        m,
        &["snapshots", "nosuch", "--json"],
        "snapshots",
        "no_such_skill",
    );
    validated(m, &["undo", "--list", "--json"], 0, "undo");
}

#[test]
fn lint_fits_its_schema() {
    let machine = Machine::new();
    let good = machine.root().join("lint/good");
    write_skill(&good, &[]);
    let bad = machine.root().join("lint/bad");
    write_files(&bad, &[("SKILL.md", "---\nname: Not Valid\n---\n")]);
    let good_arg = good.to_str().unwrap();
    let bad_arg = bad.to_str().unwrap();
    validated(&machine, &["lint", good_arg, "--json"], 0, "lint");
    validated(&machine, &["lint", good_arg, bad_arg, "--json"], 1, "lint");
}

#[test]
fn import_fits_its_schema_previewed_done_and_refused() {
    let World { machine, upstream } = world();
    let m = &machine;
    let source = upstream.to_str().unwrap();
    let codex = machine.home.join(".codex/skills");
    let to = codex.to_str().unwrap();
    validated(m, &["import", source, "--dry-run", "--json"], 0, "import");
    validated(
        m,
        &["import", source, "--dry-run", "--json", "--to", to],
        0,
        "import",
    );
    validated(m, &["import", source, "--json", "--to", to], 0, "import");
    let user = machine.home.join(".claude/skills");
    let value = validated(
        m,
        &["import", source, "--json", "--to", user.to_str().unwrap()],
        1,
        "import",
    );
    assert!(value["refused"]["code"].is_string(), "{value:#}");
    refused(
        m,
        &["import", "/nonexistent/source", "--json", "--to", to],
        "import",
        "unreadable_source",
    );
}

#[test]
fn update_fits_its_schema_previewed_done_and_refused() {
    let world = world();
    let m = &world.machine;
    validated(m, &["update", "alpha", "--dry-run", "--json"], 0, "update");
    validated(m, &["update", "alpha", "--json"], 0, "update");
    // beta was edited here; upstream edits the same line: a conflict stops the update.
    let World { upstream, .. } = &world;
    write_files(
        upstream,
        &[("skills/beta/SKILL.md", &skill_md("beta", "theirs"))],
    );
    commit(upstream, "beta");
    let value = validated(m, &["update", "beta", "--json"], 1, "update");
    assert_eq!(value["skills"][0]["status"], "conflict", "{value:#}");
    assert!(value["refused"]["code"].is_string(), "{value:#}");
    refused(
        m,
        &["update", "nosuch", "--json"],
        "update",
        "no_such_skill",
    );
}

#[test]
fn managing_commands_fit_their_schemas_and_undo_reverts_them() {
    let World { machine, .. } = world();
    let m = &machine;
    validated(
        m,
        &["disable", "kit", "--agent", "claude-code", "--json"],
        0,
        "disable",
    );
    validated(
        m,
        &["enable", "kit", "--agent", "claude-code", "--json"],
        0,
        "enable",
    );
    refused(
        m,
        &["disable", "nosuch", "--agent", "claude-code", "--json"],
        "disable",
        "no_such_skill",
    );
    let link = ["link", "alpha", "--agent", "codex", "--json"];
    validated(m, &[&link[..], &["--dry-run"]].concat(), 0, "link");
    validated(m, &link, 0, "link");
    // Codex keeps both copies of a name; only agents not installed here would shadow.
    let copy = ["copy", "kit", "--agent", "codex", "--json", "--all-agents"];
    let value = validated(m, &copy, 1, "copy");
    assert_eq!(value["refused"]["code"], "would_shadow", "{value:#}");
    validated(m, &[&copy[..], &["--force"]].concat(), 0, "copy");
    validated(
        m,
        &["move", "plain", "--scope", "project", "--json"],
        0,
        "move",
    );
    refused(
        m,
        &["link", "nosuch", "--agent", "codex", "--json"],
        "link",
        "no_such_skill",
    );
    // Two skills of the name: a usage error, told in the refusal shape.
    let value = validated(m, &["remove", "twin", "--json"], 2, "remove");
    assert_eq!(value["refused"]["code"], "usage", "{value:#}");
    let twin = machine.home.join(".claude/skills/twin");
    validated(
        m,
        &["remove", twin.to_str().unwrap(), "--json"],
        0,
        "remove",
    );
    refused(
        m,
        &["remove", "nosuch", "--json"],
        "remove",
        "no_such_skill",
    );
    validated(m, &["undo", "--json"], 0, "undo");
    validated(m, &["undo", "--list", "--json"], 0, "undo");

    let pruned = validated(
        m,
        &[
            "snapshots",
            "prune",
            "--dry-run",
            "--keep",
            "0",
            "--older-than",
            "0s",
            "--json",
        ],
        0,
        "snapshots-prune",
    );
    assert!(
        !pruned["removed"].as_array().unwrap().is_empty(),
        "{pruned:#}"
    );
    let snapshots = validated(m, &["snapshots", "--json"], 0, "snapshots");
    let id = snapshots["snapshots"][0]["id"].as_str().unwrap().to_owned();
    let skill = snapshots["snapshots"][0]["skill"]
        .as_str()
        .unwrap()
        .to_owned();
    validated(
        m,
        &["snapshots", "delete", &id, "--skill", &skill, "--json"],
        0,
        "snapshots-delete",
    );
    let value = validated(
        m,
        &["snapshots", "delete", "no-such-id", "--json"],
        1,
        "snapshots-delete",
    );
    assert!(value["refused"]["code"].is_string(), "{value:#}");
}

#[test]
fn sync_fits_its_schema_done_frozen_and_refused() {
    use crate::lock::sync::{Upstream, edit_lock, fresh_clone, locked_project};
    let machine = Machine::new();
    refused(&machine, &["sync", "--json"], "sync", "no_lock");
    let upstream = Upstream::new(&machine);
    locked_project(&machine, &upstream);
    let clone = fresh_clone(&machine);
    validated(&clone, &["sync", "--frozen", "--json"], 0, "sync");
    validated(&clone, &["sync", "--json"], 0, "sync");
    // The journal names the operation: `undo --list` shows the sync in its shape.
    let journal = validated(&clone, &["undo", "--list", "--json"], 0, "undo");
    assert_eq!(journal["entries"][0]["operation"], "sync", "{journal:#}");
    edit_lock(
        &clone.repo.join("skills-lock.json"),
        |name, locked| match name {
            "alpha" => skilldeck::lock::Locked {
                computed_hash: "ab".repeat(32),
                ..locked
            },
            _ => locked,
        },
    );
    let value = validated(&clone, &["sync", "--frozen", "--json"], 1, "sync");
    assert_eq!(value["clean"], false, "{value:#}");
}

#[test]
fn undo_with_nothing_to_undo_is_refused_in_its_shape() {
    let machine = Machine::new();
    let value = validated(&machine, &["undo", "--json"], 1, "undo");
    assert!(value["refused"]["code"].is_string(), "{value:#}");
}

/// The schemas catch what they are for: a field renamed, retyped or added where the shape is
/// closed breaks the listing's schema.
#[test]
fn a_renamed_or_retyped_field_breaks_the_schema() {
    let World { machine, .. } = world();
    let list = machine.list_json();
    assert!(violations("list", &list).is_empty());
    let mut renamed = list.clone();
    let skill = renamed["skills"][0].as_object_mut().unwrap();
    let state = skill.remove("state").unwrap();
    skill.insert("status".to_owned(), state);
    assert!(
        !violations("list", &renamed).is_empty(),
        "a renamed field passed"
    );
    let mut retyped = list.clone();
    retyped["skills"][0]["files"] = Value::from("3");
    assert!(
        !violations("list", &retyped).is_empty(),
        "a retyped field passed"
    );
    let mut unknown = list;
    unknown["skills"][0]["state"] = Value::from("pristine");
    assert!(
        !violations("list", &unknown).is_empty(),
        "an unknown state passed"
    );
}

/// Every schema is a draft 2020-12 schema, named in docs/json.md, and run by a test here.
#[test]
fn every_schema_is_valid_documented_and_tested() {
    let docs =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/json.md")).unwrap();
    let tests = include_str!("json_schema.rs");
    for entry in fs::read_dir(schema_dir()).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_str().unwrap().to_owned();
        let name = file
            .strip_suffix(".schema.json")
            .unwrap_or_else(|| panic!("docs/schema/{file} is not named <command>.schema.json"));
        let schema: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(
            schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{file}"
        );
        assert!(
            jsonschema::meta::is_valid(&schema),
            "{file} is not a valid schema"
        );
        validator(name);
        assert!(
            docs.contains(&format!("schema/{file}")),
            "docs/json.md does not link {file}"
        );
        if name != "common" && name != "refused" {
            assert!(
                tests.contains(&format!("\"{name}\")")) || tests.contains(&format!("\"{name}\",")),
                "no test validates output against {file}"
            );
        }
    }
}

#[test]
fn a_listing_with_lock_states_fits_its_schema() {
    use crate::lock::sync::{Upstream, locked_project};
    let machine = Machine::new();
    let upstream = Upstream::new(&machine);
    locked_project(&machine, &upstream);
    write_skill(&machine.repo.join(".agents/skills/newbie"), &[]);
    let list = validated(&machine, &["list", "--json"], 0, "list");
    let states: BTreeSet<&str> = list["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|skill| skill["lock"].as_str())
        .collect();
    assert!(states.contains("locked"), "{list:#}");
    assert!(states.contains("unlocked"), "{list:#}");
    let mut wrong = list.clone();
    wrong["skills"][0]["lock"] = Value::from("sealed");
    assert!(!violations("list", &wrong).is_empty());
}
