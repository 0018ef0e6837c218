//! Where the skills of a bundle are: the one place that decides what a skill is in a bundle.
//!
//! A skill is a folder whose root holds `SKILL.md`. A bundle with `SKILL.md` at its top is that
//! one skill. Otherwise the search follows the skills CLI 1.7.1 (`discoverSkills` and
//! `getPluginSkillPaths` in its published `dist/cli.mjs`), the widest reader of repositories of
//! skills, so that a repository it installs from is read the same way here:
//!
//! - the folders at the bundle's top that hold a `SKILL.md`;
//! - the containers [`CONTAINERS`] (`skills/`, its `.curated`, `.experimental` and `.system`,
//!   and every agent's project folder such as `.claude/skills/`) walked three folders deep: a
//!   folder holding a `SKILL.md` is a skill and is not walked further, any other folder is
//!   walked into, dot-named ones too (`skills/.category/NAME/SKILL.md`), except [`SKIP_DIRS`];
//! - the plugins of a marketplace (every file in [`MARKETPLACE_FILES`]: Claude Code's, Copilot's
//!   and Codex's, with `metadata.pluginRoot`), and a plugin whose manifest sits at the top (any
//!   of [`plugin::MANIFESTS`]: Claude Code, Codex, Copilot): the skills its entry or manifest
//!   lists, each a skill or a folder of skills, else the plugin's own `skills/` (a Gemini CLI
//!   extension's too; its `skills/SKILL.md` is a folder at the top holding one). The plugin
//!   manifests and marketplace files are read by `plugin`, which knows them for installed
//!   plugins too;
//! - when none of these finds one: when everything sits below one folder, that folder is a
//!   wrapper, as a repository archive adds one (seed 000's rule), and the search runs inside it;
//!   and when that finds none either, every folder down to [`DEEP_SEARCH_DEPTH`] below the top,
//!   as the skills CLI's `findSkillDirs` falls back to.
//!
//! Where skilldeck parts from the skills CLI, it is to install nothing an agent would not load:
//! a hidden folder is never a skill (agents skip them; the walk still goes through dot-named
//! categories), and a skill found inside another is one of its files, not a second skill. Every
//! `SKILL.md` not taken as a skill's is [`PassedOver`] with the reason.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::members::{Kind, Member};
use super::refusal::Refusal;
use crate::plugin::{
    self, MARKETPLACE_FILES, marketplace_plugin_root, parse_manifest, parse_marketplace,
};
use crate::skill::SKILL_FILE;

type Parts = Vec<String>;

/// The folders the skills CLI walks for skills, below the bundle's top (its
/// `prioritySearchDirs` after the top itself, in its order).
pub const CONTAINERS: [&str; 34] = [
    "skills",
    "skills/.curated",
    "skills/.experimental",
    "skills/.system",
    ".agents/skills",
    ".claude/skills",
    ".cline/skills",
    ".codebuddy/skills",
    ".codex/skills",
    ".commandcode/skills",
    ".continue/skills",
    ".factory/skills",
    ".github/skills",
    ".goose/skills",
    ".grok/skills",
    ".iflow/skills",
    ".junie/skills",
    ".kilo/skills",
    ".kilocode/skills",
    ".kimchi/skills",
    ".kiro/skills",
    ".minimax/skills",
    ".mux/skills",
    ".neovate/skills",
    ".opencode/skills",
    ".openhands/skills",
    ".pi/skills",
    ".posit/assistant/skills",
    ".qoder/skills",
    ".roo/skills",
    ".trae/skills",
    ".windsurf/skills",
    ".zcode/skills",
    ".zencoder/skills",
];

/// How many folders below a container the walk goes (the skills CLI's depth for its
/// containers; the top itself is looked at one folder deep).
const CONTAINER_DEPTH: usize = 3;

/// How deep below the top the last-resort search looks (the skills CLI's `findSkillDirs`).
pub const DEEP_SEARCH_DEPTH: usize = 5;

/// Folders the skills CLI never walks into: built or fetched copies, not sources.
pub const SKIP_DIRS: [&str; 5] = ["node_modules", ".git", "dist", "build", "__pycache__"];

/// The skill folders of a bundle, and what the search noticed on the way.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Found {
    pub skills: Vec<Parts>,
    pub notes: Vec<String>,
    /// Each `SKILL.md` that is not the manifest of a skill found, with why.
    pub passed_over: Vec<PassedOver>,
}

/// A `SKILL.md` the search did not take as a skill's, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassedOver {
    /// Its path in the bundle.
    pub path: String,
    pub why: String,
}

/// Find the skills among `members`.
///
/// # Errors
/// [`Refusal::NoSkills`] when there are none, [`Refusal::MissingManifest`] when a marketplace
/// or a plugin manifest lists a folder that holds no skill.
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
        let mut deep = BTreeSet::new();
        tree.deep(&[], 0, &mut deep);
        skills = outermost(deep);
    }
    if skills.is_empty() {
        return Err(Refusal::NoSkills);
    }
    found.passed_over = tree.passed_over(&skills);
    found.skills = skills;
    Ok(found)
}

/// The folders of `found` that are not inside another of them.
fn outermost(found: BTreeSet<Parts>) -> Vec<Parts> {
    let all: Vec<Parts> = found.iter().cloned().collect();
    found
        .into_iter()
        .filter(|dir| {
            !all.iter()
                .any(|outer| outer.len() < dir.len() && dir.starts_with(outer))
        })
        .collect()
}

fn is_hidden(name: &str) -> bool {
    name.starts_with('.')
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

    fn file(&self, path: &[String]) -> Option<&'m [u8]> {
        match self.by_path.get(path) {
            Some(Member {
                kind: Kind::File { content, .. },
                ..
            }) => Some(content),
            _ => None,
        }
    }

    /// The skills below `dir`, `depth` folders deep: a folder holding a `SKILL.md` is a skill
    /// (a hidden one is not, and neither is walked into); any other folder is walked, hidden
    /// or not, except [`SKIP_DIRS`].
    fn walk(&self, dir: &[String], depth: usize, found: &mut BTreeSet<Parts>) {
        for name in self.children(dir) {
            let child = join(dir, &name);
            if !self.is_folder(&child) {
                continue;
            }
            if self.has_manifest(&child) {
                if !is_hidden(&name) {
                    found.insert(child);
                }
                continue;
            }
            if depth > 1 && !SKIP_DIRS.contains(&name.as_str()) {
                self.walk(&child, depth - 1, found);
            }
        }
    }

    /// Every folder down to [`DEEP_SEARCH_DEPTH`] below `dir` that holds a `SKILL.md`.
    fn deep(&self, dir: &[String], depth: usize, found: &mut BTreeSet<Parts>) {
        if depth > DEEP_SEARCH_DEPTH {
            return;
        }
        if self.has_manifest(dir) && dir.last().is_some_and(|name| !is_hidden(name)) {
            found.insert(dir.to_vec());
        }
        for name in self.children(dir) {
            let child = join(dir, &name);
            if self.is_folder(&child) && !SKIP_DIRS.contains(&name.as_str()) {
                self.deep(&child, depth + 1, found);
            }
        }
    }

    /// Every skill the layouts find with `base` as the bundle's top.
    fn search(&self, base: &[String], notes: &mut Vec<String>) -> Result<Vec<Parts>, Refusal> {
        if self.has_manifest(base) {
            return Ok(vec![base.to_vec()]);
        }
        let mut found: BTreeSet<Parts> = BTreeSet::new();
        self.walk(base, 1, &mut found);
        for container in CONTAINERS {
            self.walk(
                &[base, &split(container)].concat(),
                CONTAINER_DEPTH,
                &mut found,
            );
        }
        for file in MARKETPLACE_FILES {
            self.marketplace(base, file, &mut found, notes)?;
        }
        self.plugin(base, None, &mut found, notes)?;
        Ok(outermost(found))
    }

    /// The skills the marketplace `file` at `base` lists: each local plugin's listed skills
    /// (each a skill, or a folder of skills), or its own.
    fn marketplace(
        &self,
        base: &[String],
        file: &str,
        found: &mut BTreeSet<Parts>,
        notes: &mut Vec<String>,
    ) -> Result<(), Refusal> {
        let file_path: Parts = [base, &split(file)].concat();
        let Some(content) = self.file(&file_path) else {
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
        let root = match marketplace_plugin_root(content) {
            None => base.to_vec(),
            Some(root) => match inside(base, &root) {
                Some(root) => root,
                None => {
                    notes.push(format!(
                        "{shown} starts its plugins at {root:?}, outside the bundle"
                    ));
                    return Ok(());
                }
            },
        };
        for listed in plugins {
            // A plugin from elsewhere (a repository, a URL) has no folder in the bundle.
            let Some(source) = listed.local_path() else {
                continue;
            };
            let Some(plugin_dir) = inside(&root, source) else {
                notes.push(format!(
                    "{shown} lists the plugin {} at {:?}, outside the bundle",
                    listed.name, source
                ));
                continue;
            };
            let entry = (!listed.skills.is_empty()).then_some((shown.as_str(), &listed.skills));
            self.plugin(&plugin_dir, entry, found, notes)?;
        }
        Ok(())
    }

    /// The skills of the plugin at `plugin_dir`: those `listed` by the file named first, else
    /// those its own manifest lists, else its `skills/` folder; and the plugin's folder itself
    /// when it holds a `SKILL.md`.
    fn plugin(
        &self,
        plugin_dir: &[String],
        listed: Option<(&str, &Vec<String>)>,
        found: &mut BTreeSet<Parts>,
        notes: &mut Vec<String>,
    ) -> Result<(), Refusal> {
        if self.has_manifest(plugin_dir) {
            found.insert(plugin_dir.to_vec());
            return Ok(());
        }
        let own = plugin::MANIFESTS.iter().find_map(|manifest| {
            let path: Parts = [plugin_dir, &split(manifest)].concat();
            let content = self.file(&path)?;
            Some((path.join("/"), parse_manifest(content)))
        });
        let own = match own {
            Some((shown, Ok(manifest))) => Some((shown, manifest.skills)),
            Some((shown, Err(why))) => {
                notes.push(format!("{shown} could not be read ({why}); its plugin's skills were looked for in its skills/ folder"));
                None
            }
            None => None,
        };
        let lists: Option<(String, Vec<String>)> = match listed {
            Some((shown, skills)) => Some((shown.to_owned(), skills.clone())),
            None => own.filter(|(_, skills)| !skills.is_empty()),
        };
        let Some((shown, skills)) = lists else {
            self.walk(&join(plugin_dir, "skills"), CONTAINER_DEPTH, found);
            return Ok(());
        };
        for relative in &skills {
            let Some(dir) = inside(plugin_dir, relative) else {
                notes.push(format!("{shown} lists {relative:?}, outside the bundle"));
                continue;
            };
            if self.has_manifest(&dir) {
                found.insert(dir);
            } else if self.is_folder(&dir) {
                let mut below = BTreeSet::new();
                self.walk(&dir, CONTAINER_DEPTH, &mut below);
                if below.is_empty() {
                    return Err(Refusal::MissingManifest(dir.join("/")));
                }
                found.extend(below);
            } else {
                notes.push(format!(
                    "{shown} lists {relative}, which the bundle does not hold"
                ));
            }
        }
        Ok(())
    }

    /// Every `SKILL.md` of the tree that is not the manifest of one of `skills`, with why.
    fn passed_over(&self, skills: &[Parts]) -> Vec<PassedOver> {
        let mut out = Vec::new();
        for path in self.by_path.keys() {
            let Some((file, dir)) = path.split_last() else {
                continue;
            };
            if file != SKILL_FILE || skills.iter().any(|s| s.as_slice() == dir) {
                continue;
            }
            let why = if let Some(outer) = skills.iter().find(|s| dir.starts_with(s)) {
                format!("inside the skill {}, so one of its files", shown_dir(outer))
            } else if let Some(skipped) = dir.iter().find(|p| SKIP_DIRS.contains(&p.as_str())) {
                format!("below {skipped}/, which is never searched for skills")
            } else if let Some(hidden) = dir.last().filter(|name| is_hidden(name)) {
                format!("in the hidden folder {hidden}, which agents do not load as a skill")
            } else {
                "where the layouts do not look (skills folders are walked three folders down, the top one), and the deep search runs only when they find no skill".to_owned()
            };
            out.push(PassedOver {
                path: path.join("/"),
                why,
            });
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }
}

fn shown_dir(dir: &[String]) -> String {
    if dir.is_empty() {
        "at the bundle's top".to_owned()
    } else {
        dir.join("/")
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
        // Two folders at the top: nothing is unwrapped, and the deep search finds it.
        assert_eq!(skills(&["one/x/SKILL.md", "two/y.md"]).unwrap(), ["one/x"]);
    }

    #[test]
    fn category_folders_below_skills_and_agent_folders_are_walked_three_deep() {
        assert_eq!(
            skills(&[
                "skills/docs/pdf/SKILL.md",
                "skills/docs/pdf/inner/SKILL.md",
                "skills/.curated/one/SKILL.md",
                "skills/.experimental/a/b/two/SKILL.md",
                "skills/.category/three/SKILL.md",
                "skills/a/b/c/too-deep/SKILL.md",
                "skills/node_modules/dep/SKILL.md",
                "skills/.hidden-skill/SKILL.md",
                ".agents/skills/four/SKILL.md",
                ".github/skills/tools/five/SKILL.md",
                ".posit/assistant/skills/six/SKILL.md",
            ])
            .unwrap(),
            [
                ".agents/skills/four",
                ".github/skills/tools/five",
                ".posit/assistant/skills/six",
                "skills/.category/three",
                "skills/.curated/one",
                "skills/.experimental/a/b/two",
                "skills/docs/pdf",
            ]
        );
    }

    #[test]
    fn every_skill_file_left_out_is_said_why() {
        let members: Vec<Member> = [
            "skills/a/SKILL.md",
            "skills/a/templates/SKILL.md",
            "skills/node_modules/dep/SKILL.md",
            "skills/.hidden/SKILL.md",
            "skills/a/b/c/d/SKILL.md",
        ]
        .iter()
        .map(|p| file(p, "x"))
        .collect();
        let found = find(&members).unwrap();
        let why: Vec<(&str, &str)> = found
            .passed_over
            .iter()
            .map(|p| (p.path.as_str(), p.why.as_str()))
            .collect();
        assert_eq!(why.len(), 4, "{why:?}");
        assert!(why[0].1.contains("hidden folder .hidden"), "{why:?}");
        assert!(why[1].1.starts_with("inside the skill skills/a"), "{why:?}");
        assert!(why[2].1.starts_with("inside the skill skills/a"), "{why:?}");
        assert!(why[3].1.contains("node_modules/"), "{why:?}");
    }

    #[test]
    fn the_deep_search_comes_last_and_stops_five_folders_down() {
        assert_eq!(
            skills(&[
                "a/b/c/d/one/SKILL.md",
                "a/b/c/d/e/six/SKILL.md",
                "z/dist/built/SKILL.md",
                "z/README.md",
            ])
            .unwrap(),
            ["a/b/c/d/one"]
        );
        let members = vec![file("a/b/c/d/e/six/SKILL.md", "x"), file("b.md", "x")];
        assert_eq!(find(&members), Err(Refusal::NoSkills));
        // A skill the layouts find leaves the deep ones out, each said why.
        let members = vec![
            file("skills/one/SKILL.md", "x"),
            file("deep/er/x/SKILL.md", "x"),
        ];
        let found = find(&members).unwrap();
        assert_eq!(found.skills, [split("skills/one")]);
        assert!(
            found.passed_over[0]
                .why
                .starts_with("where the layouts do not look")
        );
    }

    #[test]
    fn a_plugin_at_the_top_lists_its_skills_in_any_agents_manifest() {
        for manifest in plugin::MANIFESTS {
            let members = vec![
                file(manifest, r#"{"name": "p", "skills": ["./extra", "./one"]}"#),
                file("extra/a/SKILL.md", "x"),
                file("extra/b/SKILL.md", "x"),
                file("one/SKILL.md", "x"),
                file("elsewhere/deep/c/SKILL.md", "x"),
            ];
            let found = find(&members).unwrap();
            let names: Vec<String> = found.skills.iter().map(|s| s.join("/")).collect();
            assert_eq!(names, ["extra/a", "extra/b", "one"], "{manifest}");
        }
        // Codex's form: one path, a folder of skills.
        let members = vec![
            file(
                ".codex-plugin/plugin.json",
                r#"{"name": "p", "skills": "./lib/"}"#,
            ),
            file("lib/x/SKILL.md", "x"),
        ];
        assert_eq!(find(&members).unwrap().skills, [split("lib/x")]);
    }

    #[test]
    fn copilot_and_codex_marketplaces_and_a_plugin_root() {
        let members = vec![
            file(
                ".github/plugin/marketplace.json",
                r#"{"plugins": [{"name": "a", "source": "./plugins/a"}]}"#,
            ),
            file("plugins/a/skills/one/SKILL.md", "x"),
            file(
                ".agents/plugins/marketplace.json",
                r#"{"plugins": [{"name": "b", "source": {"source": "local", "path": "./tools/b"}},
                                {"name": "c", "source": {"source": "url", "url": "https://x/c.git"}}]}"#,
            ),
            file(
                "tools/b/.codex-plugin/plugin.json",
                r#"{"name": "b", "skills": "./own/"}"#,
            ),
            file("tools/b/own/two/SKILL.md", "x"),
        ];
        let names: Vec<String> = find(&members)
            .unwrap()
            .skills
            .iter()
            .map(|s| s.join("/"))
            .collect();
        assert_eq!(names, ["plugins/a/skills/one", "tools/b/own/two"]);
        let members = vec![
            file(
                ".claude-plugin/marketplace.json",
                r#"{"metadata": {"pluginRoot": "./plugins"}, "plugins": [{"name": "a", "source": "a"}]}"#,
            ),
            file("plugins/a/skills/cat/one/SKILL.md", "x"),
        ];
        assert_eq!(
            find(&members).unwrap().skills,
            [split("plugins/a/skills/cat/one")]
        );
    }

    #[test]
    fn a_gemini_extension_skills_folder_may_be_one_skill() {
        let members = vec![
            file("gemini-extension.json", r#"{"name": "e", "version": "1"}"#),
            file("skills/SKILL.md", "x"),
            file("skills/refs/a.md", "x"),
        ];
        assert_eq!(find(&members).unwrap().skills, [split("skills")]);
        let members = vec![
            file("gemini-extension.json", r#"{"name": "e", "version": "1"}"#),
            file("skills/one/SKILL.md", "x"),
            file("skills/two/SKILL.md", "x"),
        ];
        assert_eq!(
            find(&members).unwrap().skills,
            [split("skills/one"), split("skills/two")]
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
