//! Where the skills of a bundle are: the one place that decides what a skill is in a bundle.
//!
//! A skill is a folder whose root holds `SKILL.md`. A bundle with `SKILL.md` at its top is that
//! one skill. Otherwise its skills are the folders at its top that hold one, and those under
//! `skills/<name>/` and `.claude/skills/<name>/`, and those `.claude-plugin/marketplace.json`
//! lists (what a Claude Code marketplace repository declares). When none is found at the top
//! and everything sits below one folder, that folder is a wrapper, as a repository archive
//! adds one (seed 000's rule), and the same search runs inside it. A skill found inside
//! another is part of it, not a second skill. Hidden folders are not searched for skills, as
//! agents skip them.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::members::{Kind, Member};
use super::refusal::Refusal;
use crate::plugin::{MARKETPLACE_FILE, parse_marketplace};
use crate::skill::SKILL_FILE;

type Parts = Vec<String>;

/// The skill folders of a bundle, and what the search noticed on the way.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Found {
    pub skills: Vec<Parts>,
    pub notes: Vec<String>,
}

/// Find the skills among `members`.
///
/// # Errors
/// [`Refusal::NoSkills`] when there are none, [`Refusal::MissingManifest`] when a marketplace
/// lists a folder that holds no skill.
pub fn find(members: &[Member]) -> Result<Found, Refusal> {
    let tree = Tree::new(members);
    let mut found = Found::default();
    let mut skills = tree.search(&[], &mut found.notes)?;
    if skills.is_empty()
        && let [wrapper] = tree.children(&[]).as_slice()
        && tree.is_folder(std::slice::from_ref(wrapper))
    {
        skills = tree.search(std::slice::from_ref(wrapper), &mut found.notes)?;
    }
    if skills.is_empty() {
        return Err(Refusal::NoSkills);
    }
    found.skills = skills;
    Ok(found)
}

/// The members by path, with every folder each implies.
struct Tree<'m> {
    by_path: HashMap<&'m [String], &'m Member>,
    children: BTreeMap<&'m [String], BTreeSet<&'m str>>,
}

impl<'m> Tree<'m> {
    fn new(members: &'m [Member]) -> Self {
        let mut by_path = HashMap::with_capacity(members.len());
        let mut children: BTreeMap<&[String], BTreeSet<&str>> = BTreeMap::new();
        for member in members {
            by_path.insert(member.parts.as_slice(), member);
            for (depth, part) in member.parts.iter().enumerate() {
                children
                    .entry(&member.parts[..depth])
                    .or_default()
                    .insert(part.as_str());
            }
        }
        Self { by_path, children }
    }

    fn children(&self, dir: &[String]) -> Vec<String> {
        self.children
            .get(dir)
            .map(|names| names.iter().map(|n| (*n).to_owned()).collect())
            .unwrap_or_default()
    }

    fn is_folder(&self, dir: &[String]) -> bool {
        self.children.contains_key(dir)
            || self
                .by_path
                .get(dir)
                .is_some_and(|m| m.kind == Kind::Folder)
    }

    fn has_manifest(&self, dir: &[String]) -> bool {
        self.by_path.contains_key(join(dir, SKILL_FILE).as_slice())
    }

    fn member(&self, path: &[String]) -> Option<&'m Member> {
        self.by_path.get(path).copied()
    }

    /// The visible folders right below `dir` that are skills.
    fn skill_children(&self, dir: &[String]) -> Vec<Parts> {
        self.children(dir)
            .into_iter()
            .filter(|name| !name.starts_with('.'))
            .map(|name| join(dir, &name))
            .filter(|child| self.is_folder(child) && self.has_manifest(child))
            .collect()
    }

    /// Every skill the layouts find with `base` as the bundle's top.
    fn search(&self, base: &[String], notes: &mut Vec<String>) -> Result<Vec<Parts>, Refusal> {
        if self.has_manifest(base) {
            return Ok(vec![base.to_vec()]);
        }
        let mut found: BTreeSet<Parts> = BTreeSet::new();
        found.extend(self.skill_children(base));
        found.extend(self.skill_children(&join(base, "skills")));
        found.extend(self.skill_children(&[base, &[".claude".into(), "skills".into()]].concat()));
        self.marketplace(base, &mut found, notes)?;
        // A skill inside another skill is one of its files, not a skill of its own.
        let all: Vec<Parts> = found.iter().cloned().collect();
        found.retain(|dir| {
            !all.iter()
                .any(|outer| outer.len() < dir.len() && dir.starts_with(outer))
        });
        Ok(found.into_iter().collect())
    }

    /// The skills `.claude-plugin/marketplace.json` at `base` lists: each local plugin's listed
    /// skills (each a skill, or a folder of skills), or its own `skills/` when it lists none.
    fn marketplace(
        &self,
        base: &[String],
        found: &mut BTreeSet<Parts>,
        notes: &mut Vec<String>,
    ) -> Result<(), Refusal> {
        let file_path: Parts = [base, &split(MARKETPLACE_FILE)].concat();
        let Some(Member {
            kind: Kind::File { content, .. },
            ..
        }) = self.member(&file_path)
        else {
            return Ok(());
        };
        let shown = file_path.join("/");
        let plugins = match parse_marketplace(content) {
            Ok(plugins) => plugins,
            Err(why) => {
                notes.push(format!("{shown} could not be read ({why}); its skills were looked for by the other layouts only"));
                return Ok(());
            }
        };
        for plugin in plugins {
            // A plugin from elsewhere (a repository, a URL) has no folder in the bundle.
            let Some(source) = plugin.local_source() else {
                continue;
            };
            let Some(plugin_dir) = inside(base, source) else {
                notes.push(format!(
                    "{shown} lists the plugin {} at {:?}, outside the bundle",
                    plugin.name, source
                ));
                continue;
            };
            if plugin.skills.is_empty() {
                if self.has_manifest(&plugin_dir) {
                    found.insert(plugin_dir.clone());
                }
                found.extend(self.skill_children(&join(&plugin_dir, "skills")));
                continue;
            }
            for listed in &plugin.skills {
                let Some(dir) = inside(&plugin_dir, listed) else {
                    notes.push(format!("{shown} lists {listed:?}, outside the bundle"));
                    continue;
                };
                if self.has_manifest(&dir) {
                    found.insert(dir);
                } else if self.is_folder(&dir) {
                    let skills = self.skill_children(&dir);
                    if skills.is_empty() {
                        return Err(Refusal::MissingManifest(dir.join("/")));
                    }
                    found.extend(skills);
                } else {
                    notes.push(format!(
                        "{shown} lists {listed}, which the bundle does not hold"
                    ));
                }
            }
        }
        Ok(())
    }
}

fn join(dir: &[String], name: &str) -> Parts {
    let mut path = dir.to_vec();
    path.push(name.to_owned());
    path
}

fn split(path: &str) -> Parts {
    path.split('/').map(str::to_owned).collect()
}

/// `base/relative` for a relative path a manifest writes, when it stays inside the bundle.
fn inside(base: &[String], relative: &str) -> Option<Parts> {
    if relative.starts_with('/') || relative.contains('\\') {
        return None;
    }
    let mut path = base.to_vec();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            part => path.push(part.to_owned()),
        }
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, content: &str) -> Member {
        Member {
            parts: split(path),
            kind: Kind::File {
                content: content.as_bytes().to_vec(),
                executable: false,
            },
        }
    }

    fn skills(paths: &[&str]) -> Result<Vec<String>, Refusal> {
        let members: Vec<Member> = paths.iter().map(|p| file(p, "x")).collect();
        find(&members).map(|f| f.skills.iter().map(|s| s.join("/")).collect())
    }

    #[test]
    fn a_manifest_at_the_top_is_one_skill() {
        assert_eq!(skills(&["SKILL.md", "a/SKILL.md"]).unwrap(), [""]);
    }

    #[test]
    fn folders_at_the_top_and_the_usual_layouts_are_skills() {
        assert_eq!(
            skills(&[
                "alpha/SKILL.md",
                "README.md",
                "skills/beta/SKILL.md",
                "skills/beta/nested/SKILL.md",
                ".claude/skills/gamma/SKILL.md",
                ".hidden/SKILL.md",
                "docs/guide.md",
            ])
            .unwrap(),
            [".claude/skills/gamma", "alpha", "skills/beta"]
        );
    }

    #[test]
    fn one_folder_holding_everything_is_a_wrapper() {
        assert_eq!(
            skills(&["repo-main/alpha/SKILL.md", "repo-main/beta/SKILL.md"]).unwrap(),
            ["repo-main/alpha", "repo-main/beta"]
        );
        assert_eq!(
            skills(&["repo-main/skills/alpha/SKILL.md", "repo-main/README.md"]).unwrap(),
            ["repo-main/skills/alpha"]
        );
        // A single folder with its own manifest is that skill, not a wrapper.
        assert_eq!(
            skills(&["demo/SKILL.md", "demo/a/SKILL.md"]).unwrap(),
            ["demo"]
        );
        // Two folders at the top: nothing is unwrapped.
        assert_eq!(
            skills(&["one/x/SKILL.md", "two/y.md"]),
            Err(Refusal::NoSkills)
        );
    }

    #[test]
    fn a_marketplace_lists_skills_and_folders_of_skills() {
        let marketplace = r#"{"plugins": [
            {"name": "docs", "source": "./", "skills": ["./tools/pdf", "./more", "./gone"]},
            {"name": "own", "source": "./plugins/own"},
            {"name": "remote", "source": {"source": "github", "repo": "a/b"}},
            {"name": "escape", "source": "../up"}
        ]}"#;
        let members = vec![
            file(".claude-plugin/marketplace.json", marketplace),
            file("tools/pdf/SKILL.md", "x"),
            file("more/one/SKILL.md", "x"),
            file("plugins/own/skills/two/SKILL.md", "x"),
        ];
        let found = find(&members).unwrap();
        let names: Vec<String> = found.skills.iter().map(|s| s.join("/")).collect();
        assert_eq!(names, ["more/one", "plugins/own/skills/two", "tools/pdf"]);
        assert_eq!(found.notes.len(), 2, "{:?}", found.notes);
        assert!(found.notes[0].contains("./gone"));
        assert!(found.notes[1].contains("outside the bundle"));
    }

    #[test]
    fn a_listed_folder_without_a_skill_is_a_missing_manifest() {
        let members = vec![
            file(
                ".claude-plugin/marketplace.json",
                r#"{"plugins": [{"name": "p", "source": "./", "skills": ["./empty"]}]}"#,
            ),
            file("empty/README.md", "x"),
            file("ok/SKILL.md", "x"),
        ];
        assert_eq!(
            find(&members),
            Err(Refusal::MissingManifest("empty".into()))
        );
    }

    #[test]
    fn nothing_that_looks_like_a_skill_is_no_skills() {
        assert_eq!(skills(&["README.md", "docs/a.md"]), Err(Refusal::NoSkills));
        assert_eq!(skills(&[]), Err(Refusal::NoSkills));
    }
}
