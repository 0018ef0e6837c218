//! The layouts real repositories use, through the binary: category folders below `skills/`
//! (dot-named too), deeper layouts as the skills CLI walks them, Claude Code's plugins and
//! marketplaces, Codex's and Copilot's, Gemini CLI extensions — each class with more than one
//! case, from a folder and from a git repository. And every repository in
//! `shared/real-world/` (never committed) imported with `--dry-run`: each `SKILL.md` in it is
//! a skill found or is passed over with a reason.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::common::{Machine, write_files};
use serde_json::Value;

fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\n# {name}\n")
}

/// One layout: the files of a repository (a path ending in `/SKILL.md` with empty content
/// gets a valid manifest named after its folder), and the skills expected, as `origin`
/// (the skill's folder in the bundle) and `folder` (the folder it came from).
struct Case {
    class: &'static str,
    files: &'static [(&'static str, &'static str)],
    skills: &'static [(&'static str, &'static str)],
}

const CASES: &[Case] = &[
    Case {
        class: "categories below skills/",
        files: &[
            ("skills/documents/pdf/SKILL.md", ""),
            ("skills/documents/docx/SKILL.md", ""),
            ("skills/web/fetch/SKILL.md", ""),
            ("README.md", "x"),
        ],
        skills: &[
            ("skills/documents/docx", "skills/documents"),
            ("skills/documents/pdf", "skills/documents"),
            ("skills/web/fetch", "skills/web"),
        ],
    },
    Case {
        class: "categories below skills/",
        files: &[
            ("skills/top/SKILL.md", ""),
            ("skills/a/b/deep/SKILL.md", ""),
            ("skills/a/b/c/too-deep/SKILL.md", ""),
            ("skills/build/made/SKILL.md", ""),
        ],
        skills: &[("skills/a/b/deep", "skills/a/b"), ("skills/top", "skills")],
    },
    Case {
        class: "dot-named categories",
        files: &[
            ("skills/.curated/one/SKILL.md", ""),
            ("skills/.experimental/two/SKILL.md", ""),
            ("skills/.system/three/SKILL.md", ""),
        ],
        skills: &[
            ("skills/.curated/one", "skills/.curated"),
            ("skills/.experimental/two", "skills/.experimental"),
            ("skills/.system/three", "skills/.system"),
        ],
    },
    Case {
        class: "dot-named categories",
        files: &[
            ("skills/.category/name/SKILL.md", ""),
            ("skills/plain/SKILL.md", ""),
            ("skills/.hidden/SKILL.md", ""),
        ],
        skills: &[
            ("skills/.category/name", "skills/.category"),
            ("skills/plain", "skills"),
        ],
    },
    Case {
        class: "agents' project folders",
        files: &[
            (".agents/skills/one/SKILL.md", ""),
            (".github/skills/two/SKILL.md", ""),
            (".claude/skills/group/three/SKILL.md", ""),
        ],
        skills: &[
            (".agents/skills/one", ".agents/skills"),
            (".claude/skills/group/three", ".claude/skills/group"),
            (".github/skills/two", ".github/skills"),
        ],
    },
    Case {
        class: "agents' project folders",
        files: &[
            (".codex/skills/one/SKILL.md", ""),
            (".opencode/skills/two/SKILL.md", ""),
        ],
        skills: &[
            (".codex/skills/one", ".codex/skills"),
            (".opencode/skills/two", ".opencode/skills"),
        ],
    },
    Case {
        class: "deep search",
        files: &[("a/b/c/d/one/SKILL.md", ""), ("x/README.md", "x")],
        skills: &[("a/b/c/d/one", "a/b/c/d")],
    },
    Case {
        class: "deep search",
        files: &[
            ("packages/tools/lint/SKILL.md", ""),
            ("packages/tools/node_modules/dep/SKILL.md", ""),
            ("docs/guide.md", "x"),
        ],
        skills: &[("packages/tools/lint", "packages/tools")],
    },
    Case {
        class: "Claude Code marketplace",
        files: &[
            (
                ".claude-plugin/marketplace.json",
                r#"{"name": "m", "plugins": [
                    {"name": "docs", "source": "./plugins/docs"},
                    {"name": "listed", "source": "./", "skills": ["./extra/one", "./more"]},
                    {"name": "remote", "source": {"source": "github", "repo": "a/b"}}]}"#,
            ),
            ("plugins/docs/skills/pdf/SKILL.md", ""),
            ("extra/one/SKILL.md", ""),
            ("more/two/SKILL.md", ""),
        ],
        skills: &[
            ("extra/one", "extra"),
            ("more/two", "more"),
            ("plugins/docs/skills/pdf", "plugins/docs/skills"),
        ],
    },
    Case {
        class: "Claude Code marketplace",
        files: &[
            (
                ".claude-plugin/marketplace.json",
                r#"{"metadata": {"pluginRoot": "./plugins"}, "plugins": [
                    {"name": "a", "source": "a"}, {"name": "b", "source": "./b"}]}"#,
            ),
            (
                "plugins/a/.claude-plugin/plugin.json",
                r#"{"name": "a", "skills": ["./own"]}"#,
            ),
            ("plugins/a/own/x/SKILL.md", ""),
            ("plugins/b/skills/y/SKILL.md", ""),
        ],
        skills: &[
            ("plugins/a/own/x", "plugins/a/own"),
            ("plugins/b/skills/y", "plugins/b/skills"),
        ],
    },
    Case {
        class: "plugin at the top (Claude Code, Codex)",
        files: &[
            (
                ".claude-plugin/plugin.json",
                r#"{"name": "p", "skills": ["./lib"]}"#,
            ),
            ("lib/one/SKILL.md", ""),
            ("lib/two/SKILL.md", ""),
        ],
        skills: &[("lib/one", "lib"), ("lib/two", "lib")],
    },
    Case {
        class: "plugin at the top (Claude Code, Codex)",
        files: &[
            (
                ".codex-plugin/plugin.json",
                r#"{"name": "p", "skills": "./workflows/"}"#,
            ),
            ("workflows/plan/SKILL.md", ""),
        ],
        skills: &[("workflows/plan", "workflows")],
    },
    Case {
        class: "Codex and Copilot marketplaces",
        files: &[
            (
                ".agents/plugins/marketplace.json",
                r#"{"plugins": [{"name": "p", "source": {"source": "local", "path": "./plugins/p"}}]}"#,
            ),
            ("plugins/p/skills/one/SKILL.md", ""),
        ],
        skills: &[("plugins/p/skills/one", "plugins/p/skills")],
    },
    Case {
        class: "Codex and Copilot marketplaces",
        files: &[
            (
                ".github/plugin/marketplace.json",
                r#"{"plugins": [{"name": "p", "source": "./tools/p"}]}"#,
            ),
            ("tools/p/plugin.json", r#"{"name": "p", "skills": ["./s"]}"#),
            ("tools/p/s/one/SKILL.md", ""),
            ("tools/p/s/two/SKILL.md", ""),
        ],
        skills: &[
            ("tools/p/s/one", "tools/p/s"),
            ("tools/p/s/two", "tools/p/s"),
        ],
    },
    Case {
        class: "Gemini CLI extension",
        files: &[
            (
                "gemini-extension.json",
                r#"{"name": "e", "version": "1.0.0"}"#,
            ),
            ("skills/one/SKILL.md", ""),
            ("skills/two/SKILL.md", ""),
        ],
        skills: &[("skills/one", "skills"), ("skills/two", "skills")],
    },
    Case {
        class: "Gemini CLI extension",
        files: &[
            (
                "gemini-extension.json",
                r#"{"name": "e", "version": "1.0.0"}"#,
            ),
            ("skills/SKILL.md", ""),
            ("skills/references/a.md", "x"),
        ],
        skills: &[("skills", "")],
    },
];

fn write_case(dir: &Path, case: &Case) {
    for (path, content) in case.files {
        let content = match (path.strip_suffix("/SKILL.md"), *content) {
            (Some(folder), "") => skill_md(folder.rsplit('/').next().unwrap_or(folder)),
            _ => (*content).to_owned(),
        };
        write_files(dir, &[(path, &content)]);
    }
}

fn preview(machine: &Machine, args: &[&str]) -> Value {
    let output = machine.run_expecting(args, 0);
    serde_json::from_slice(&output.stdout).unwrap()
}

fn found(preview: &Value) -> Vec<(String, String)> {
    preview["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["origin"].as_str().unwrap().to_owned(),
                s["folder"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn expected(case: &Case) -> Vec<(String, String)> {
    case.skills
        .iter()
        .map(|(o, f)| ((*o).to_owned(), (*f).to_owned()))
        .collect()
}

#[test]
fn every_layout_class_from_a_folder() {
    let machine = Machine::new();
    let mut classes: Vec<&str> = Vec::new();
    for (i, case) in CASES.iter().enumerate() {
        let dir = machine.root().join(format!("case{i}"));
        write_case(&dir, case);
        let json = preview(
            &machine,
            &["import", dir.to_str().unwrap(), "--dry-run", "--json"],
        );
        assert_eq!(found(&json), expected(case), "{}: {json}", case.class);
        check_every_manifest(&dir, &json, case.class);
        classes.push(case.class);
    }
    for class in &classes {
        assert!(
            classes.iter().filter(|c| *c == class).count() > 1,
            "{class} has one case"
        );
    }
}

#[cfg(unix)]
#[test]
fn every_layout_class_from_a_git_repository() {
    use crate::common::git::{commit, git};
    let machine = Machine::new();
    for (i, case) in CASES.iter().enumerate() {
        let dir = machine.root().join(format!("repo{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        git(&dir, &["init", "--quiet"]);
        write_case(&dir, case);
        commit(&dir, "layout");
        let json = preview(
            &machine,
            &["import", dir.to_str().unwrap(), "--dry-run", "--json"],
        );
        assert_eq!(found(&json), expected(case), "{}: {json}", case.class);
        // Each skill's path in the repository is its origin, the repository's top being the
        // bundle's.
        assert_eq!(json["upstream"]["path"], "", "{}", case.class);
    }
}

#[test]
fn the_preview_groups_skills_by_the_folder_they_came_from() {
    let machine = Machine::new();
    let dir = machine.root().join("grouped");
    write_case(&dir, &CASES[0]);
    write_files(&dir, &[("skills/documents/pdf/forms/SKILL.md", "nested")]);
    let output = machine.run_expecting(&["import", dir.to_str().unwrap(), "--dry-run"], 0);
    let said = String::from_utf8_lossy(&output.stdout);
    let docs = said.find("in skills/documents/:\ndocx  ").expect(&said);
    let web = said.find("in skills/web/:\nfetch  ").expect(&said);
    assert!(docs < web, "{said}");
    assert!(
        said.contains(
            "not taken as skills: 1 SKILL.md file: skills/documents/pdf/forms/SKILL.md (inside the skill skills/documents/pdf, so one of its files)"
        ),
        "{said}"
    );
}

/// Each `SKILL.md` below `dir` (a folder) or in the listing of an archive is the manifest of a
/// skill the preview found, or passed over with a reason.
fn check_every_manifest(dir: &Path, json: &Value, what: &str) {
    let manifests: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.file_name() == "SKILL.md")
        .map(|e| {
            e.path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    check_manifests(&manifests, json, what);
}

fn check_manifests(manifests: &[String], json: &Value, what: &str) {
    let skills: BTreeSet<String> = json["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| match s["origin"].as_str().unwrap() {
            "" => "SKILL.md".to_owned(),
            origin => format!("{origin}/SKILL.md"),
        })
        .collect();
    let passed: Vec<(String, String)> = json["passed_over"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["path"].as_str().unwrap().to_owned(),
                p["why"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    for manifest in manifests {
        let is_skill = skills.contains(manifest);
        let reason = passed.iter().find(|(path, _)| path == manifest);
        assert!(
            is_skill != reason.is_some(),
            "{what}: {manifest} is {} a skill and {} passed over",
            if is_skill { "" } else { "not" },
            if reason.is_some() { "" } else { "not" }
        );
        if let Some((_, why)) = reason {
            assert!(
                !why.is_empty(),
                "{what}: {manifest} passed over without a reason"
            );
        }
    }
    assert_eq!(
        skills.len() + passed.len(),
        manifests.len(),
        "{what}: a skill or a passed-over file that is no SKILL.md of the source"
    );
}

/// The repositories of `shared/real-world/` (`$SKILLDECK_REAL_WORLD`), which must be there
/// under `CI=true`.
fn real_world() -> Vec<PathBuf> {
    let Some(dir) =
        crate::common::outside::real_world_folder("importing every real-world repository")
    else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    found.sort();
    assert!(!found.is_empty(), "{} is empty", dir.display());
    found
}

/// Every `SKILL.md` a repository holds, read without skilldeck: a folder walked, a tar (gzip
/// or not) with the tar crate, a zip with the zip crate.
fn manifests_in(source: &Path) -> Vec<String> {
    let is = |name: &str| name == "SKILL.md" || name.ends_with("/SKILL.md");
    if source.is_dir() {
        return walkdir::WalkDir::new(source)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| {
                e.file_type().is_file()
                    && e.file_name() == "SKILL.md"
                    && !e.path().components().any(|c| c.as_os_str() == ".git")
            })
            .map(|e| {
                e.path()
                    .strip_prefix(source)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
    }
    let name = source.to_string_lossy().to_ascii_lowercase();
    let bytes = std::fs::read(source).unwrap();
    if name.ends_with(".zip") || name.ends_with(".skill") {
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        return (0..archive.len())
            .map(|i| archive.by_index(i).unwrap().name().unwrap().into_owned())
            .filter(|n| is(n))
            .collect();
    }
    let reader: Box<dyn Read> = if name.ends_with(".gz") || name.ends_with(".tgz") {
        Box::new(flate2::read::GzDecoder::new(std::io::Cursor::new(bytes)))
    } else {
        Box::new(std::io::Cursor::new(bytes))
    };
    let mut tar = tar::Archive::new(reader);
    tar.entries()
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.header().entry_type() == tar::EntryType::Regular)
        .map(|e| String::from_utf8_lossy(&e.path_bytes()).into_owned())
        .filter(|n| is(n))
        .collect()
}

#[test]
fn every_skill_file_of_the_real_repositories_is_found_or_said_why() {
    let machine = Machine::new();
    for source in real_world() {
        let json = preview(
            &machine,
            &["import", source.to_str().unwrap(), "--dry-run", "--json"],
        );
        let manifests = manifests_in(&source);
        assert!(!manifests.is_empty(), "{}", source.display());
        check_manifests(&manifests, &json, &source.display().to_string());
        eprintln!(
            "{}: {} skills, {} SKILL.md files passed over",
            source.display(),
            json["skills"].as_array().unwrap().len(),
            json["passed_over"].as_array().unwrap().len()
        );
    }
}
