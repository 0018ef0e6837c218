//! `skilldeck remove`: a folder is snapshotted then removed, a link unlinked without touching
//! its target, a skills-CLI link offers its canonical copy, and plugins are refused.

use std::fs;

#[cfg(unix)]
use super::{agents_of, rich_skill, stdout, tree};
use super::{json, refused_changing_nothing, stderr};
#[cfg(unix)]
use crate::common::symlink;
use crate::common::{Machine, write_files, write_skill};

#[cfg(unix)]
#[test]
fn removing_a_folder_snapshots_it_first_and_unlinks_every_link_to_it() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/demo");
    rich_skill(&dir);
    let link = machine.home.join(".agents/skills/demo");
    symlink(&dir, &link);
    let output = machine.run_expecting(&["remove", "demo", "--json"], 0);
    let done = json(&output);
    let one = &done["removed"][0];
    assert_eq!(one["name"], "demo");
    let removed: Vec<&str> = one["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(removed, [link.to_str().unwrap(), dir.to_str().unwrap()]);
    assert!(one["kept"].is_string(), "{done}");
    assert_eq!(done["undo"], "skilldeck undo");
    assert!(fs::symlink_metadata(&dir).is_err());
    assert!(fs::symlink_metadata(&link).is_err());
    // Nothing is left beside the root either: the folder was renamed aside, then deleted.
    let beside: Vec<String> = fs::read_dir(machine.home.join(".claude"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(beside, ["skills"]);
    // The snapshot holds every file.
    let kept = one["kept"].as_str().unwrap();
    let snapshots = json(&machine.run_expecting(&["snapshots", "--json"], 0));
    assert!(
        snapshots["snapshots"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == kept && s["truncated"] == false),
        "{snapshots}"
    );
}

#[cfg(unix)]
#[test]
fn removing_a_link_by_its_path_leaves_the_folder_it_leads_to_untouched() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/demo");
    rich_skill(&dir);
    let link = machine.home.join(".agents/skills/demo");
    symlink(&dir, &link);
    let before = tree(&dir);
    let output = machine.run_expecting(&["remove", link.to_str().unwrap()], 0);
    assert!(
        stdout(&output).contains("link ~/.agents/skills/demo"),
        "{}",
        stdout(&output)
    );
    assert!(stdout(&output).contains("skilldeck undo"));
    assert!(fs::symlink_metadata(&link).is_err());
    assert_eq!(tree(&dir), before);
    let agents = agents_of(&machine, &dir);
    assert!(agents.iter().any(|a| a == "claude-code"), "{agents:?}");
    assert!(!agents.iter().any(|a| a == "codex"), "{agents:?}");
}

#[cfg(unix)]
#[test]
fn a_skill_linked_in_from_a_folder_in_no_root_loses_its_links_and_keeps_its_folder() {
    let machine = Machine::new();
    let mine = machine.root().join("src/mine");
    write_skill(&mine, &[]);
    let link = machine.home.join(".claude/skills/mine");
    symlink(&mine, &link);
    let done = json(&machine.run_expecting(&["remove", "mine", "--json"], 0));
    assert_eq!(done["removed"][0]["left_in_place"], mine.to_str().unwrap());
    assert!(done["removed"][0]["kept"].is_null());
    assert!(fs::symlink_metadata(&link).is_err());
    assert!(mine.join("SKILL.md").is_file());
}

#[cfg(unix)]
#[test]
fn removing_a_skills_cli_link_offers_the_canonical_copy_no_other_link_uses() {
    let machine = Machine::new();
    let canonical = machine.home.join(".agents/skills/tool");
    write_skill(&canonical, &[]);
    let lock = serde_json::json!({"version": 3, "skills": {"tool": {
        "source": "o/r", "sourceType": "github", "sourceUrl": "https://github.com/o/r.git",
        "skillPath": "skills/tool/SKILL.md", "skillFolderHash": "",
        "installedAt": "2026-11-29T00:00:00.000Z", "updatedAt": "2026-11-29T00:00:00.000Z"}}});
    write_files(
        &machine.home,
        &[(".agents/.skill-lock.json", &lock.to_string())],
    );
    let claude = machine.home.join(".claude/skills/tool");
    let copilot = machine.home.join(".copilot/skills/tool");
    symlink(std::path::Path::new("../../.agents/skills/tool"), &claude);
    symlink(std::path::Path::new("../../.agents/skills/tool"), &copilot);

    // Another link still uses it: no offer.
    let first = json(&machine.run_expecting(&["remove", claude.to_str().unwrap(), "--json"], 0));
    assert!(first["removed"][0]["unused_canonical"].is_null(), "{first}");
    assert!(canonical.join("SKILL.md").is_file());
    // The last link: the canonical copy is offered, and left.
    let output = machine.run_expecting(&["remove", copilot.to_str().unwrap()], 0);
    let text = stdout(&output);
    assert!(
        text.contains("no link uses its canonical copy ~/.agents/skills/tool"),
        "{text}"
    );
    assert!(canonical.join("SKILL.md").is_file());
    assert!(fs::symlink_metadata(&copilot).is_err());

    // Removing the canonical copy itself names the lock that still lists it.
    let last = json(&machine.run_expecting(&["remove", "tool", "--json"], 0));
    assert_eq!(
        last["removed"][0]["stale_locks"][0],
        machine
            .home
            .join(".agents/.skill-lock.json")
            .to_str()
            .unwrap(),
        "{last}"
    );
    assert!(fs::symlink_metadata(&canonical).is_err());
}

#[test]
fn a_plugins_skill_is_refused_with_how_to_uninstall_it_and_nothing_changes() {
    let machine = Machine::new();
    let home = &machine.home;
    let plugin = ".claude/plugins/cache/mkt/p1/1.0.0";
    write_skill(&home.join(plugin).join("skills/s1"), &[]);
    let installs = serde_json::json!({"version": 2, "plugins": {"p1@mkt": [{
        "scope": "user", "installPath": home.join(plugin), "version": "1.0.0"}]}});
    write_files(
        &home.join(".claude/plugins"),
        &[("installed_plugins.json", &installs.to_string())],
    );
    write_files(
        &home.join(".claude"),
        &[("settings.json", r#"{"enabledPlugins":{"p1@mkt":true}}"#)],
    );
    let output = refused_changing_nothing(&machine, &["remove", "p1:s1"], 1);
    let text = stderr(&output);
    assert!(text.contains("plugin"), "{text}");
    assert!(text.contains("skilldeck disable p1:s1"), "{text}");
    let output = refused_changing_nothing(&machine, &["remove", "p1:s1", "--json"], 1);
    assert_eq!(json(&output)["refused"]["code"], "refused");
}

#[test]
fn refusals_change_nothing() {
    let machine = Machine::new();
    write_skill(&machine.home.join(".claude/skills/twice"), &[]);
    write_skill(&machine.repo.join(".claude/skills/twice"), &[]);
    // An ambiguous name lists the candidates, with their folders, and is a usage error.
    let output = refused_changing_nothing(&machine, &["remove", "twice"], 2);
    let text = stderr(&output);
    assert!(text.contains("names 2 skills"), "{text}");
    assert!(text.contains("~/.claude/skills/twice"), "{text}");
    assert!(text.contains("claude-code"), "{text}");
    // No such skill: refused, and nothing of the other names is removed either.
    refused_changing_nothing(&machine, &["remove", "nothing-here"], 1);
    let single = machine.home.join(".codex/skills/single");
    write_skill(&single, &[]);
    refused_changing_nothing(&machine, &["remove", "single", "nothing-here"], 1);
    // What no snapshot keeps is never deleted.
    fs::create_dir_all(single.join(".git")).unwrap();
    fs::write(single.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    let output = refused_changing_nothing(&machine, &["remove", "single"], 1);
    assert!(stderr(&output).contains(".git"), "{}", stderr(&output));
}
