//! skilldeck's `computedHash` against the one the real skills CLI (pinned in
//! scripts/install-agents) writes into `skills-lock.json`, over generated skill folders whose
//! paths sort differently under `localeCompare` and byte order, nested folders, links, `.git`
//! and `node_modules`, the files an operating system leaves (`.DS_Store`, `Thumbs.db`, `._*`)
//! and those the CLI hashes but does not copy (`metadata.json`, `__pycache__`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::outside::say_skipped;

/// The skills CLI's program, or `None` (said loudly; a failure in CI) when it is missing.
pub fn skills_cli() -> Option<PathBuf> {
    let program = crate::agree::agents_prefix().join("node_modules/.bin/skills");
    if program.is_file() {
        return Some(program);
    }
    let message = format!(
        "the skills CLI is not installed at {}: run scripts/install-agents and set SKILLDECK_AGENTS to the path it prints",
        program.display()
    );
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("{message}");
    }
    say_skipped(&format!(
        "{message} — the skills CLI hash checks did not run"
    ));
    None
}

/// Run the skills CLI in `dir` with a throw-away home, no telemetry.
pub fn run_skills(program: &Path, dir: &Path, home: &Path, args: &[&str]) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".state"))
        .env("DISABLE_TELEMETRY", "1")
        .env("DO_NOT_TRACK", "1")
        .env("CI", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "skills {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// The skills of the generated source: each one a case of the rule.
fn generate(src: &Path) -> Vec<&'static str> {
    let skill = |name: &str| {
        let dir = src.join("skills").join(name);
        write(
            &dir.join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: The {name} case.\n---\n# {name}\n"),
        );
        dir
    };
    // Names whose localeCompare order is not their byte order: `_` before `-` before `.`,
    // case after letters, accents after the plain letter, digits before letters.
    let dir = skill("collation");
    for name in [
        "notes.md",
        "_x.md",
        "a-b.md",
        "a_b.md",
        "a.b.md",
        "B.md",
        "a.md",
        "A.md",
        "ä.md",
        "10.md",
        "9.md",
        "Zeta.md",
        "zeta.md",
        "~tilde.md",
    ] {
        write(&dir.join(name), name);
    }
    // Nested folders sorting among files: `a/x.md` against `a.md`, `ab.md`, `a-b/`.
    let dir = skill("nested");
    for name in [
        "a/x.md",
        "a.md",
        "ab.md",
        "a-b/c.md",
        "references/Usage.md",
        "scripts/run.sh",
        "scripts/sub/deep/file.txt",
        "Scripts2/x.md",
    ] {
        write(&dir.join(name), name);
    }
    // What the hash leaves out: `.git` and `node_modules` at any depth, and links.
    let dir = skill("skipped");
    write(&dir.join("kept.md"), "kept");
    write(&dir.join(".git/HEAD"), "ref: refs/heads/main\n");
    write(&dir.join("node_modules/m/index.js"), "x");
    write(&dir.join("sub/node_modules/m/index.js"), "x");
    write(&dir.join(".hidden/kept.md"), "hidden files are hashed");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("kept.md", dir.join("link.md")).unwrap();
        std::os::unix::fs::symlink(".hidden", dir.join("linked-folder")).unwrap();
    }
    // What an operating system or a file manager leaves beside the files, which skilldeck's
    // imports and snapshots set aside: the CLI hashes (and copies) it like any file, so the
    // lock's hash counts it (skills 1.5.26 `dist/cli.mjs`, `computeSkillFolderHash` skips only
    // `.git` and `node_modules`).
    let dir = skill("os-metadata");
    for name in [
        ".DS_Store",
        "Thumbs.db",
        "._kept.md",
        "kept.md",
        "sub/.DS_Store",
        "__MACOSX/kept.md",
    ] {
        write(&dir.join(name), name);
    }
    // What the CLI hashes in the source but does not copy: the installed copy differs.
    let dir = skill("not-copied");
    write(&dir.join("metadata.json"), "{}");
    write(&dir.join("__pycache__/x.pyc"), "x");
    vec![
        "collation",
        "nested",
        "skipped",
        "os-metadata",
        "not-copied",
    ]
}

#[test]
fn skilldecks_computed_hash_is_the_skills_clis() {
    let Some(program) = skills_cli() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let (src, project, home) = (
        tmp.path().join("src"),
        tmp.path().join("project"),
        tmp.path().join("home"),
    );
    fs::create_dir_all(&project).unwrap();
    fs::create_dir_all(&home).unwrap();
    let names = generate(&src);
    run_skills(&program, &project, &home, &["add", "../src", "--yes"]);
    let lock: serde_json::Value =
        serde_json::from_slice(&fs::read(project.join("skills-lock.json")).unwrap()).unwrap();
    for name in names {
        let recorded = lock["skills"][name]["computedHash"].as_str().unwrap();
        let ours = skilldeck::lock::computed_hash(&src.join("skills").join(name)).unwrap();
        assert_eq!(ours, recorded, "{name}: the source folder");
        // The installed copy hashes alike (the CLI copies neither .git nor links here).
        let installed = project.join(".agents/skills").join(name);
        if !["skipped", "not-copied"].contains(&name) {
            assert_eq!(
                skilldeck::lock::computed_hash(&installed).unwrap(),
                recorded,
                "{name}: the installed copy"
            );
        }
    }
}

/// A lock the skills CLI wrote, verified by skilldeck: what the CLI installed as it hashed it
/// passes; where the CLI's copy is not what it hashed (it hashes the source, copies links as
/// the files they point to, and leaves `metadata.json` and `__pycache__` out), skilldeck says
/// so.
#[test]
fn a_lock_the_skills_cli_writes_is_verified() {
    let Some(program) = skills_cli() else { return };
    let machine = crate::common::Machine::new();
    let src = machine.root().join("src");
    generate(&src);
    run_skills(
        &program,
        &machine.repo,
        &machine.home,
        &["add", "../../src", "--yes"],
    );
    let json = machine.run_json(&["verify", "--format", "json"], 1);
    let findings: Vec<(&str, &str)> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].as_str().unwrap(), f["skill"].as_str().unwrap()))
        .collect();
    // The files an OS leaves (`.DS_Store`, …) are hashed and copied alike: no finding.
    assert_eq!(
        findings,
        [
            ("skill-differs", "not-copied"),
            ("skill-differs", "skipped")
        ],
        "{json:#}"
    );
    assert_eq!(json["locked"], 5);
    // Once the links and what the CLI does not copy are gone from the source and the CLI
    // installs again, all is clean.
    let skipped = src.join("skills/skipped");
    fs::remove_file(skipped.join("link.md")).unwrap();
    fs::remove_file(skipped.join("linked-folder")).unwrap();
    let not_copied = src.join("skills/not-copied");
    fs::remove_file(not_copied.join("metadata.json")).unwrap();
    fs::remove_dir_all(not_copied.join("__pycache__")).unwrap();
    run_skills(
        &program,
        &machine.repo,
        &machine.home,
        &["add", "../../src", "--yes"],
    );
    machine.run_expecting(&["verify"], 0);
}

/// A lock skilldeck wrote for a skill it imported from a repository on disk is restored by
/// `skills experimental_install` and then verified by skilldeck.
#[test]
fn a_lock_skilldeck_writes_is_restored_by_the_skills_cli_and_verified() {
    let Some(program) = skills_cli() else { return };
    let machine = crate::common::Machine::new();
    let upstream = machine.root().join("upstream");
    crate::common::git::repository(
        &upstream,
        &[
            (
                "skills/alpha/SKILL.md",
                "---\nname: alpha\ndescription: Alpha.\n---\n# Alpha\n",
            ),
            ("skills/alpha/notes.md", "n"),
        ],
    );
    let to = machine.repo.join(".agents/skills");
    machine.run_expecting(
        &[
            "import",
            upstream.to_str().unwrap(),
            "--to",
            to.to_str().unwrap(),
        ],
        0,
    );
    machine.run_expecting(&["lock"], 0);
    fs::remove_dir_all(&to).unwrap();
    run_skills(
        &program,
        &machine.repo,
        &machine.home,
        &["experimental_install"],
    );
    assert!(to.join("alpha/SKILL.md").is_file());
    machine.run_expecting(&["verify"], 0);
}
