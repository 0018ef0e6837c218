//! Finding the skill folders in each root, by the root's layout, without reading any skill.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::fs::{Folder, Links, is_link_loop};
use crate::plugin::{self, ManifestProblem, Naming};
use crate::record::SkillFile;
use crate::roots::{
    AtRoot, Environment, Finds, Hydration, Layout, Records, Root, RootSet, RootState, Spot,
};
use crate::skill::{LOWER_SKILL_FILE, SKILL_FILE};

/// The most folders one skills root may cost a scan below its first level, as Codex bounds its
/// own walk (`MAX_SKILLS_DIRS_PER_ROOT` in codex-rs/core-skills/src/loader.rs).
const MAX_DIRS_PER_ROOT: usize = 2000;

/// How far a skills root is walked: as far as the farthest-reaching agent that reads it.
#[derive(Clone, Copy)]
struct Reach {
    depth: u8,
    at_root: bool,
    hidden: bool,
    any_case: bool,
    inside_skills: bool,
    dir_plugins: bool,
    /// Folders no agent reading the root enters (each agent's own are checked again when its
    /// claims are made).
    skips: &'static [&'static str],
}

impl Reach {
    /// How far the agents reading `root` as a skills root look into it; `None` when none does.
    fn of(root: &Root) -> Option<Reach> {
        let finds: Vec<Finds> = root
            .uses
            .iter()
            .filter(|u| matches!(u.rule.layout, Layout::Skills | Layout::SkillsAndDirPlugins))
            .map(|u| u.rule.finds)
            .collect();
        (!finds.is_empty()).then(|| Reach {
            depth: finds.iter().map(|f| f.depth).max().unwrap_or(1),
            at_root: finds.iter().any(|f| f.at_root != AtRoot::Ignored),
            hidden: finds.iter().any(|f| f.hidden),
            any_case: finds.iter().any(|f| f.any_case),
            inside_skills: finds.iter().any(|f| f.inside_skills),
            dir_plugins: root.has_layout(|l| l == Layout::SkillsAndDirPlugins),
            skips: match finds.split_first() {
                Some((first, rest)) if rest.iter().all(|f| f.skips == first.skips) => first.skips,
                _ => &[],
            },
        })
    }

    /// Whether no agent reading the root enters a folder of this name.
    fn skips(&self, name: &std::ffi::OsStr) -> bool {
        self.skips.iter().any(|skip| name == *skip)
    }
}

/// How far each root of a set is walked, worked out once per root rather than once per skill
/// asked about.
pub struct Reaches(Vec<Option<Reach>>);

impl Reaches {
    pub fn of(roots: &RootSet) -> Self {
        Self(roots.roots.iter().map(Reach::of).collect())
    }
}

/// The skills inside the folder of `outer`, a skill found in a skills root, told from the
/// files reading it listed: no folder is listed twice to find them. Only for roots whose
/// agents look inside skills, within their reach.
pub fn inner_skills(reaches: &Reaches, outer: &Found, files: &[SkillFile]) -> Vec<Found> {
    let Some(reach) = reaches.0[outer.root] else {
        return Vec::new();
    };
    if outer.via != Via::Direct || outer.spot.depth == 0 || !reach.inside_skills {
        return Vec::new();
    }
    let mut inner: Vec<Found> = Vec::new();
    for file in files {
        let name = file.path.file_name().and_then(|n| n.to_str());
        let lowercase = match name {
            Some(SKILL_FILE) => false,
            Some(LOWER_SKILL_FILE) if reach.any_case => true,
            _ => continue,
        };
        let Some(folder) = file.path.parent().filter(|p| !p.as_os_str().is_empty()) else {
            continue;
        };
        let steps = folder.components().count();
        let depth = usize::from(outer.spot.depth) + steps;
        let hidden = outer.spot.hidden
            || folder
                .components()
                .any(|c| c.as_os_str().to_string_lossy().starts_with('.'));
        if depth > usize::from(reach.depth) || (hidden && !reach.hidden) {
            continue;
        }
        let path = outer.path.join(folder);
        if lowercase && inner.iter().any(|f| f.path == path) {
            continue;
        }
        inner.retain(|f| !(f.path == path && f.spot.lowercase));
        inner.push(Found {
            root: outer.root,
            real: outer.real.as_ref().map(|real| real.join(folder)),
            ..Found::direct(
                path,
                false,
                None,
                None,
                Spot {
                    depth: u8::try_from(depth).unwrap_or(u8::MAX),
                    hidden,
                    named_hidden: folder
                        .file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with('.')),
                    inside_skill: true,
                    lowercase,
                },
            )
        });
    }
    inner
}

/// How a skill folder was reached from its root, which decides which of the root's agents
/// load it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// An immediate folder of a skills root.
    Direct,
    /// A skill of a skills-directory plugin inside a skills root.
    DirPlugin,
    /// A skill of a plugin in a plugin root.
    Plugin,
    /// A skill of a plugin in a marketplace clone: kept on disk, not loaded.
    Marketplace,
    /// A skill of a plugin folder in a plugin root that the agent's records do not load (not
    /// installed, not enabled, another version): kept on disk, not loaded.
    Unloaded,
}

impl Via {
    /// Whether a root's row with `layout` loads a skill reached this way.
    pub fn loaded_by(self, layout: Layout) -> bool {
        match self {
            Via::Direct => matches!(layout, Layout::Skills | Layout::SkillsAndDirPlugins),
            Via::DirPlugin => layout == Layout::SkillsAndDirPlugins,
            Via::Plugin => matches!(layout, Layout::Plugins { .. }),
            Via::Marketplace | Via::Unloaded => false,
        }
    }
}

/// What is at a path that should be a skill folder but cannot be read as one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Broken {
    #[error("the folder is a symbolic link that leads back to itself (a link loop)")]
    LinkLoop,
    #[error("the folder is a symbolic link to something that does not exist")]
    DanglingLink,
    #[error("the folder could not be read: {0}")]
    Unreadable(String),
}

/// One skill folder as found in one root.
#[derive(Clone, Debug)]
pub struct Found {
    pub path: PathBuf,
    pub root: usize,
    pub via: Via,
    pub plugin: Option<String>,
    /// How the plugin's agent names the skill.
    pub naming: Naming,
    /// The skill is one of its plugin's own entries ([`plugin::Plugin::entries`]).
    pub own_entry: bool,
    /// The version folder of a cached plugin.
    pub version: Option<String>,
    /// Its plugin's place among those its agent lists ([`plugin::Plugin::order`]).
    pub plugin_order: usize,
    /// The folder entry itself is a symbolic link.
    pub is_link: bool,
    /// The folder with its links resolved, when discovery knows it without asking the system.
    pub real: Option<PathBuf>,
    pub broken: Option<Broken>,
    /// Where below its skills root it lies; plugin skills, which their own layout finds, are
    /// one folder down.
    pub spot: Spot,
    /// The name of a plugin manifest in a folder on the way from a plain skills root.
    pub namespace: Option<String>,
    /// Its plugin's `${key}` substitution ([`plugin::Plugin::hydration`]).
    pub hydration: Option<Arc<Hydration>>,
}

/// What a skill folder of a plugin takes from its plugin.
struct Member<'a> {
    plugin: &'a str,
    version: Option<String>,
    order: usize,
    via: Via,
    naming: Naming,
    own_entry: bool,
    hydration: Option<Arc<Hydration>>,
}

/// Something a root holds that is worth telling but is no skill.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RootNote {
    #[error("{0} is a file, not a directory, so no agent reads skills from it")]
    NotADirectory(String),
    #[error("the root could not be read: {0}")]
    Unreadable(String),
    #[error("{0} holds no SKILL.md, so it is not a skill")]
    NotASkill(String),
    #[error("{0}")]
    Manifest(ManifestProblem),
    /// An agent's plugin records, as a sentence (`crate::plugin`).
    #[error("{0}")]
    Plugin(String),
    /// The agent reads this root only in a folder it trusts, and it does not trust this one.
    #[error("{0}")]
    Distrusted(&'static str),
}

/// Everything discovery found.
#[derive(Debug, Default)]
pub struct Discovery {
    pub found: Vec<Found>,
    /// Per root, in the order of [`RootSet::roots`].
    pub notes: Vec<Vec<RootNote>>,
    /// Skills-directory plugin folders, which count as plugin roots for classification.
    pub plugin_dirs: Vec<PathBuf>,
    /// Per root: a `SKILL.md` lies directly in it.
    pub root_skill: Vec<bool>,
    /// The skills roots opened to be walked, kept for reading their skills.
    pub open_roots: OpenRoots,
}

/// The skills roots discovery opened, by root index: each of their entries is looked at, and
/// each skill in them opened, by its one name from the root's handle, so the system does not
/// look the root's own path up again from `/` for every skill (at 20,000 skills those
/// lookups were a tenth of the listing's time).
#[derive(Default)]
pub struct OpenRoots(Vec<Option<OpenRoot>>);

struct OpenRoot {
    path: PathBuf,
    folder: Folder,
}

impl OpenRoots {
    /// The opened root `found` lies directly in, with its name there; none for a skill
    /// anywhere else (deeper, in a plugin, the root itself), which is opened by its path.
    pub fn holding<'a>(&'a self, found: &'a Found) -> Option<(&'a Folder, &'a OsStr)> {
        let open = self.0.get(found.root)?.as_ref()?;
        if found.via != Via::Direct || found.spot.depth != 1 || found.spot.inside_skill {
            return None;
        }
        let name = found.path.file_name()?;
        (found.path.parent()? == open.path).then_some((&open.folder, name))
    }
}

impl std::fmt::Debug for OpenRoots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.0.iter().flatten().map(|open| &open.path))
            .finish()
    }
}

/// Every skill folder in every root of `roots`, with `env` for the plugin records that live
/// beside other roots (Claude Code's settings).
pub fn discover(roots: &RootSet, env: &Environment) -> Discovery {
    let mut discovery = Discovery {
        notes: vec![Vec::new(); roots.roots.len()],
        root_skill: vec![false; roots.roots.len()],
        open_roots: OpenRoots((0..roots.roots.len()).map(|_| None).collect()),
        ..Discovery::default()
    };
    for (index, root) in roots.roots.iter().enumerate() {
        for trust in root.uses.iter().filter_map(|u| u.distrusted) {
            let note = RootNote::Distrusted(trust.why);
            if !discovery.notes[index].contains(&note) {
                discovery.notes[index].push(note);
            }
        }
        match &root.state {
            // Records may name plugins read in place while the folder beside them was never
            // made: Copilot copies nothing for a local marketplace, so `installed-plugins`
            // can be absent. A missing plugin root is still asked, and stays quiet unless its
            // records load something.
            RootState::Missing => {
                let mut walker = RootWalker {
                    roots,
                    env,
                    index,
                    discovery: &mut discovery,
                };
                walker.missing_plugin_root(root);
                continue;
            }
            RootState::NotADirectory => {
                let path = root.path.display().to_string();
                discovery.notes[index].push(RootNote::NotADirectory(path));
                continue;
            }
            RootState::Unreadable(error) => {
                discovery.notes[index].push(RootNote::Unreadable(error.clone()));
                continue;
            }
            RootState::Directory => {}
        }
        let mut walker = RootWalker {
            roots,
            env,
            index,
            discovery: &mut discovery,
        };
        walker.walk(root);
    }
    discovery
}

struct RootWalker<'a> {
    roots: &'a RootSet,
    env: &'a Environment,
    index: usize,
    discovery: &'a mut Discovery,
}

impl RootWalker<'_> {
    fn walk(&mut self, root: &Root) {
        if let Some(reach) = Reach::of(root) {
            self.skills_root(&root.path, root.real_path.as_deref(), reach);
        }
        for layout in root.uses.iter().map(|u| u.rule.layout) {
            match layout {
                Layout::Plugins(records) => self.plugin_root(&root.path, records),
                Layout::Marketplaces => self.marketplaces(&root.path),
                Layout::Skills | Layout::SkillsAndDirPlugins => {}
            }
        }
    }

    fn note(&mut self, note: RootNote) {
        self.discovery.notes[self.index].push(note);
    }

    /// Every `SKILL.md` within `reach` of `root`, skipping hidden folders at every level
    /// unless an agent looks into them. A folder that is a root of its own (Claude Code's
    /// `~/.claude/skills/synced`) is walked here too: the agents that read this root deeper
    /// (OpenCode, Amp) load its skills as well (`agree::claude_home_deeper`), and
    /// a skill found from both roots is one skill with both roots' claims.
    fn skills_root(&mut self, root: &Path, root_real: Option<&Path>, reach: Reach) {
        if reach.at_root && root.join(SKILL_FILE).is_file() {
            let real = root_real.map(Path::to_path_buf);
            self.discovery.root_skill[self.index] = true;
            self.push(Found::direct(
                root.to_path_buf(),
                false,
                real,
                None,
                Spot::default(),
            ));
        }
        let mut budget = MAX_DIRS_PER_ROOT;
        // A root that cannot be opened here is still listed, and its entries asked, by path.
        let open = Folder::open(root).ok();
        let entries: Vec<fs::DirEntry> = sorted_entries(root, self)
            .into_iter()
            .filter(|entry| {
                let name = entry.file_name();
                let hidden = name.to_string_lossy().starts_with('.');
                (!hidden || reach.hidden) && !reach.skips(&name)
            })
            .collect();
        // What each entry is costs the system a look or two (a plugin's manifest, a
        // `SKILL.md`); a root of thousands is looked at on every core, then walked in order.
        let probes: Vec<Option<Probe>> = entries
            .par_iter()
            .map(|entry| {
                let path = entry.path();
                let name = entry.file_name();
                let manifest = || match &open {
                    Some(open) => plugin::has_claude_manifest_in(open, &name),
                    None => plugin::has_claude_manifest(&path),
                };
                if reach.dir_plugins && manifest() {
                    return None;
                }
                let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
                let at = open.as_ref().map(|open| (open, name.as_os_str()));
                Some(probe_at(at, &path, is_dir, reach.any_case))
            })
            .collect();
        if let Some(folder) = open {
            self.discovery.open_roots.0[self.index] = Some(OpenRoot {
                path: root.to_path_buf(),
                folder,
            });
        }
        for (entry, probed) in entries.into_iter().zip(probes) {
            let file_name = entry.file_name();
            let name = file_name.to_string_lossy().into_owned();
            let hidden = name.starts_with('.');
            let path = entry.path();
            // A skills-directory plugin, told by its manifest.
            let Some(probed) = probed else {
                self.discovery.plugin_dirs.push(path.clone());
                let before = self.discovery.found.len();
                self.plugin(&path, PluginOrigin::new(None, Via::DirPlugin), &[]);
                // The plugin folder's own SKILL.md is a plain skill named after its folder
                // (Claude Code 2.1.332's listing), not one of the plugin's.
                let theirs = self.discovery.found.split_off(before);
                self.discovery
                    .found
                    .extend(theirs.into_iter().filter(|found| found.path != path));
                if path.join(SKILL_FILE).is_file() {
                    let spot = Spot {
                        depth: 1,
                        ..Spot::default()
                    };
                    self.push(Found::direct(path.clone(), false, None, None, spot));
                }
                // The agents that walk this root deeper (OpenCode, Amp) know no plugins: they
                // read the skills inside it as plain skills (seed 5 of `agree::generate`, class
                // `claude-plugins`). A folder that is a skill itself has its inner skills told
                // from its files (`inner_skills`).
                if reach.depth > 1
                    && matches!(
                        probe(&path, true, reach.any_case),
                        Probe::FolderWithoutSkillFile
                    )
                {
                    let below = Spot {
                        depth: 2,
                        hidden,
                        ..Spot::default()
                    };
                    self.nested(&path, below, reach, &mut budget);
                }
                continue;
            };
            let kind = entry.file_type().ok();
            let is_link = kind.is_some_and(|t| t.is_symlink());
            let is_dir = kind.is_some_and(|t| t.is_dir());
            // A real folder in a resolved root is its own resolved path; only links need the
            // system to resolve them.
            let real = is_dir
                .then(|| root_real.map(|r| r.join(entry.file_name())))
                .flatten();
            let before = self.discovery.found.len();
            let spot = Spot {
                depth: 1,
                hidden,
                named_hidden: hidden,
                ..Spot::default()
            };
            let is_skill = match probed {
                found @ (Probe::Skill | Probe::LowerCaseSkill) => {
                    let spot = Spot {
                        lowercase: matches!(found, Probe::LowerCaseSkill),
                        ..spot
                    };
                    self.push(Found::direct(path.clone(), is_link, real, None, spot));
                    true
                }
                Probe::Broken(broken) => {
                    self.push(Found::direct(path, is_link, real, Some(broken), spot));
                    continue;
                }
                Probe::FolderWithoutSkillFile => false,
                Probe::File => continue,
            };
            // Skills inside a skill's folder are found from its file list once it is read
            // (see `inner_skills`), so only folders that are no skill are walked here.
            if reach.depth > 1 && !is_skill {
                let below = Spot {
                    depth: 2,
                    hidden,
                    ..Spot::default()
                };
                self.nested(&path, below, reach, &mut budget);
            }
            if self.discovery.found.len() == before {
                self.note(RootNote::NotASkill(name));
            }
        }
    }

    /// Skills in the folders of `dir`, which lies `spot.depth - 1` folders below a skills
    /// root, and deeper, down to the reach. Each folder costs one listing, which also tells
    /// whether it holds a `SKILL.md`, and one of `budget`, so a huge tree cannot stall the scan.
    fn nested(&mut self, dir: &Path, spot: Spot, reach: Reach, budget: &mut usize) {
        let entries = sorted_entries(dir, self);
        let namespace = namespace_in(dir, &entries);
        self.nested_in(entries, namespace.as_deref(), spot, reach, budget);
    }

    /// As [`Self::nested`], for a folder already listed as `entries`, below a plugin
    /// manifest's folder that names `namespace`.
    fn nested_in(
        &mut self,
        entries: Vec<fs::DirEntry>,
        namespace: Option<&str>,
        spot: Spot,
        reach: Reach,
        budget: &mut usize,
    ) {
        if spot.depth > reach.depth {
            return;
        }
        for entry in entries {
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            if hidden && !reach.hidden || reach.skips(&entry.file_name()) {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            // The listing says what a real folder is; only a link needs the system to ask.
            let is_link = kind.is_symlink();
            if !(kind.is_dir() || is_link && path.is_dir()) {
                continue;
            }
            if *budget == 0 {
                return;
            }
            *budget -= 1;
            let children = sorted_entries(&path, self);
            let holds = |name: &str| children.iter().any(|c| c.file_name() == name);
            let lowercase = !holds(SKILL_FILE) && reach.any_case && holds(LOWER_SKILL_FILE);
            let is_skill = holds(SKILL_FILE) || lowercase;
            let here = Spot {
                hidden: spot.hidden || hidden,
                named_hidden: hidden,
                lowercase,
                ..spot
            };
            if is_skill {
                self.push(Found {
                    namespace: namespace.map(str::to_owned),
                    ..Found::direct(path.clone(), is_link, None, None, here)
                });
                continue;
            }
            let below = Spot {
                depth: spot.depth + 1,
                named_hidden: false,
                ..here
            };
            let inner = namespace_in(&path, &children);
            let namespace = inner.as_deref().or(namespace);
            self.nested_in(children, namespace, below, reach, budget);
        }
    }

    /// The plugins the records of a plugin root that does not exist name, if any.
    fn missing_plugin_root(&mut self, root: &Root) {
        for use_ in &root.uses {
            if let Layout::Plugins(records) = use_.rule.layout {
                let listing = self.records(&root.path, records);
                if !listing.plugins.is_empty() {
                    self.plugin_listing(&root.path, listing);
                }
            }
        }
    }

    fn records(&self, root: &Path, records: Records) -> plugin::Listing {
        let context = plugin::Context {
            env: self.env,
            project: &self.roots.project,
        };
        plugin::in_root(records, root, &context)
    }

    /// The plugins below `root`, as the agent's records `records` say which load.
    fn plugin_root(&mut self, root: &Path, records: Records) {
        let listing = self.records(root, records);
        self.plugin_listing(root, listing);
    }

    fn plugin_listing(&mut self, root: &Path, listing: plugin::Listing) {
        for note in listing.notes {
            self.note(RootNote::Plugin(note));
        }
        for found in listing.plugins {
            // A plugin read in place (a local marketplace, a linked extension) lies outside
            // the root, and its folder still names the skills' source.
            if !found.dir.starts_with(root) {
                self.discovery.plugin_dirs.push(found.dir.clone());
            }
            let via = if found.loaded {
                Via::Plugin
            } else {
                Via::Unloaded
            };
            for skill_dir in found.skills {
                let own_entry = skill_dir == found.dir || found.entries.contains(&skill_dir);
                let member = Member {
                    plugin: &found.name,
                    version: found.version.clone(),
                    order: found.order,
                    via,
                    naming: found.naming,
                    own_entry,
                    hydration: found.hydration.clone(),
                };
                self.push_plugin_skill(skill_dir, member);
            }
        }
    }

    /// `<root>/<marketplace>/.claude-plugin/marketplace.json` and the plugins it holds.
    fn marketplaces(&mut self, root: &Path) {
        for entry in sorted_entries(root, self) {
            match plugin::read_listing(&entry.path()) {
                Ok(Some(plugins)) => {
                    for listed in plugins {
                        let Some(dir) = &listed.dir else { continue };
                        let origin = PluginOrigin::new(Some(listed.name.clone()), Via::Marketplace);
                        self.plugin(dir, origin, &listed.skills);
                    }
                }
                Ok(None) => {}
                Err(problem) => self.note(RootNote::Manifest(problem)),
            }
        }
    }

    fn plugin(&mut self, dir: &Path, origin: PluginOrigin, listed: &[String]) {
        let manifest = match plugin::read_manifest(dir) {
            Ok(manifest) => manifest.unwrap_or_default(),
            Err(problem) => {
                self.note(RootNote::Manifest(problem));
                plugin::Manifest::default()
            }
        };
        let naming = origin.naming();
        let name = manifest
            .name
            .or(origin.fallback_name)
            .unwrap_or_else(|| file_name(dir));
        let listed = if listed.is_empty() {
            &manifest.skills
        } else {
            listed
        };
        // A skills-directory plugin is Claude Code's, read by its rule.
        let found = if origin.via == Via::DirPlugin {
            plugin::claude_code_skills(dir, listed).unwrap_or_default()
        } else {
            plugin::ClaudeCodeFound {
                skills: plugin::skill_dirs(dir, listed),
                entries: vec![dir.to_path_buf()],
            }
        };
        for skill_dir in found.skills {
            let member = Member {
                plugin: &name,
                version: None,
                order: 0,
                via: origin.via,
                naming,
                own_entry: found.entries.contains(&skill_dir),
                hydration: None,
            };
            self.push_plugin_skill(skill_dir, member);
        }
    }

    /// One skill folder of a plugin.
    fn push_plugin_skill(&mut self, skill_dir: PathBuf, member: Member<'_>) {
        let Member {
            plugin: name,
            version,
            order,
            via,
            naming,
            own_entry,
            hydration,
        } = member;
        let is_link = skill_dir
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink());
        let broken = match probe(&skill_dir, false, false) {
            Probe::Broken(broken) => Some(broken),
            _ => None,
        };
        self.push(Found {
            own_entry,
            path: skill_dir,
            root: 0,
            via,
            plugin: Some(name.to_owned()),
            naming,
            version,
            plugin_order: order,
            is_link,
            real: None,
            broken,
            spot: Spot {
                depth: 1,
                ..Spot::default()
            },
            namespace: None,
            hydration,
        });
    }

    fn push(&mut self, found: Found) {
        self.discovery.found.push(Found {
            root: self.index,
            ..found
        });
    }
}

impl Found {
    /// A folder of a skills root `depth` folders down (the root index is filled in when pushed).
    fn direct(
        path: PathBuf,
        is_link: bool,
        real: Option<PathBuf>,
        broken: Option<Broken>,
        spot: Spot,
    ) -> Self {
        Self {
            spot,
            path,
            root: 0,
            via: Via::Direct,
            plugin: None,
            naming: Naming::Qualified,
            own_entry: false,
            version: None,
            plugin_order: 0,
            is_link,
            real,
            broken,
            namespace: None,
            hydration: None,
        }
    }
}

/// How a plugin folder outside a plugin root was reached: the name to give it when its
/// manifest has none.
struct PluginOrigin {
    fallback_name: Option<String>,
    via: Via,
}

impl PluginOrigin {
    fn new(fallback_name: Option<String>, via: Via) -> Self {
        Self { fallback_name, via }
    }

    /// A skills-directory plugin is Claude Code's, which names a plugin skill by its folder
    /// (`<plugin>:<folder>` whatever its frontmatter says: seed 5 of `agree::generate`, class
    /// `claude-plugins`, 2.1.332); a marketplace clone loads for no agent.
    fn naming(&self) -> Naming {
        match self.via {
            Via::DirPlugin => Naming::QualifiedByFolder,
            _ => Naming::Qualified,
        }
    }
}

enum Probe {
    Skill,
    /// A folder holding `skill.md` but no `SKILL.md`.
    LowerCaseSkill,
    FolderWithoutSkillFile,
    File,
    Broken(Broken),
}

/// What is at a path that may be a skill folder, following links; `known_dir` when the caller
/// already knows it is a real folder.
fn probe(path: &Path, known_dir: bool, any_case: bool) -> Probe {
    probe_at(None, path, known_dir, any_case)
}

/// [`probe`], the `SKILL.md` asked for through the opened folder `path` lies in, by the name
/// `path` has there, when `at` gives them.
fn probe_at(at: Option<(&Folder, &OsStr)>, path: &Path, known_dir: bool, any_case: bool) -> Probe {
    // Nothing is opened or followed in the last part: only whether a file of that name is
    // there (a link to nowhere counts, as agents then fail to read it and say so).
    let holds = |file: &str| -> io::Result<()> {
        match at {
            Some((folder, name)) => folder
                .kind_below(&Path::new(name).join(file), Links::Refuse)
                .map(drop),
            None => fs::symlink_metadata(path.join(file)).map(drop),
        }
    };
    let meta = if known_dir {
        Ok(None)
    } else {
        fs::metadata(path).map(Some)
    };
    match meta {
        Ok(Some(meta)) if !meta.is_dir() => Probe::File,
        Ok(_) => match holds(SKILL_FILE) {
            Ok(()) => Probe::Skill,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                if any_case && holds(LOWER_SKILL_FILE).is_ok() {
                    Probe::LowerCaseSkill
                } else {
                    Probe::FolderWithoutSkillFile
                }
            }
            Err(error) => Probe::Broken(Broken::Unreadable(error.to_string())),
        },
        Err(error) if is_link_loop(&error) => Probe::Broken(Broken::LinkLoop),
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            if path.symlink_metadata().is_ok() {
                Probe::Broken(Broken::DanglingLink)
            } else {
                Probe::File
            }
        }
        Err(error) => Probe::Broken(Broken::Unreadable(error.to_string())),
    }
}

/// The name a plugin manifest in `dir` (listed as `entries`) gives its skills, for the agents
/// that prefix the skills below such a folder even in a plain skills root (Codex).
fn namespace_in(dir: &Path, entries: &[fs::DirEntry]) -> Option<String> {
    let has_manifest = entries
        .iter()
        .any(|e| e.file_name() == ".codex-plugin" || e.file_name() == ".claude-plugin");
    if !has_manifest {
        return None;
    }
    plugin::read_manifest(dir).ok().flatten()?.name
}

/// A directory's entries sorted by name; a directory that cannot be listed is noted on the
/// root being walked.
fn sorted_entries(dir: &Path, walker: &mut RootWalker<'_>) -> Vec<fs::DirEntry> {
    match fs::read_dir(dir) {
        Ok(entries) => {
            let mut entries: Vec<fs::DirEntry> = entries.filter_map(Result::ok).collect();
            // Each entry's name is a new `OsString`: made once per entry, not twice per
            // comparison (a root of 5,000 skills made some 120,000 of them).
            entries.sort_by_cached_key(fs::DirEntry::file_name);
            entries
        }
        Err(error) => {
            walker.note(RootNote::Unreadable(format!("{}: {error}", dir.display())));
            Vec::new()
        }
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}
