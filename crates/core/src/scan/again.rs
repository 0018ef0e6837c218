//! Scanning again after some files changed, as the app does while it watches: the same scan
//! decides every skill the same way, but a folder none of whose files changed is not read
//! again (its reading, digest included, is taken from the inventory before), and when every
//! change was inside skills' folders, who installed the others is not asked again either.
//! Also what to watch: the paths whose change can change an inventory.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::roots::{AgentId, Environment, RootSet, RootState, reading_settings};

use super::inspect::Inspection;
use super::{Inventory, Problem, Skill};

/// The inventory after the files at `changed` (files or folders, there or gone) changed, with
/// `previous` the inventory before: found and decided as [`super::scan`] would, reading again
/// only the skills a changed path lies in, and any skill not there before.
pub fn again(
    env: &Environment,
    project_start: &Path,
    previous: &Inventory,
    changed: &[PathBuf],
) -> Inventory {
    let keep = Keep::new(previous, changed);
    super::scan_keeping(env, project_start, &|_| {}, &keep)
}

/// What a scan again takes from the inventory before instead of reading it.
pub(super) struct Keep<'a> {
    /// The skills before that no changed path lies in, by the folder they resolve to.
    untouched: HashMap<&'a Path, &'a Skill>,
    /// Every change was inside a skill's folder, so the installers' files did not change and
    /// the untouched skills keep who installed them.
    attribution: bool,
}

impl<'a> Keep<'a> {
    /// Keep nothing: a whole scan.
    pub(super) fn nothing() -> Self {
        Self {
            untouched: HashMap::new(),
            attribution: false,
        }
    }

    fn new(previous: &'a Inventory, changed: &[PathBuf]) -> Self {
        let touched = super::touched(&previous.skills, changed);
        let untouched = previous
            .skills
            .iter()
            .zip(&touched.skills)
            .filter(|(_, touched)| !**touched)
            .map(|(skill, _)| (skill.real_dir.as_path(), skill))
            .collect();
        Self {
            untouched,
            attribution: touched.all_inside,
        }
    }

    /// The reading of the folder at `real_dir` as the scan before made it, if it did not
    /// change since.
    pub(super) fn inspection(&self, real_dir: &Path) -> Option<Inspection> {
        let skill = self.untouched.get(real_dir)?;
        Some(Inspection {
            declared: skill.declared.clone(),
            record: skill.record.clone(),
            state: Some(skill.read_state),
            digest: skill.digest.clone(),
            files: skill.files.clone(),
            modified: skill.modified,
            problems: skill
                .problems
                .iter()
                .filter(|problem| !matches!(problem, Problem::Record(_)))
                .cloned()
                .collect(),
        })
    }

    /// Give `skill` who installed it as the scan before found, when nothing it rests on
    /// changed; whether it did.
    pub(super) fn attribution(&self, skill: &mut Skill) -> bool {
        let before = match self.untouched.get(skill.real_dir.as_path()) {
            Some(before) if self.attribution && before.roots == skill.roots => before,
            _ => return false,
        };
        skill.owner.clone_from(&before.owner);
        skill.state = before.state;
        skill.problems.extend(
            before
                .problems
                .iter()
                .filter(|problem| matches!(problem, Problem::Record(_)))
                .cloned(),
        );
        true
    }
}

/// The paths whose change can change an inventory, by how they are watched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Watched {
    /// Skill folders, each with everything below it: any change there is a change of that
    /// skill. None lies inside another.
    pub skills: Vec<PathBuf>,
    /// Folders whose own entries decide which skills there are (the roots, and the folders
    /// between a root and its skills): a folder made or removed there may be a skill.
    pub folders: Vec<PathBuf>,
    /// Paths that may not exist yet, whose appearance, change or removal matters: the roots
    /// not made yet, and the agents' settings files that turn skills off.
    pub awaited: Vec<PathBuf>,
}

/// What to watch so that every change that can change `inventory` (scanned in `env` for a
/// run started in `project_start`) is seen.
pub fn watched(env: &Environment, project_start: &Path, inventory: &Inventory) -> Watched {
    let mut skills: Vec<PathBuf> = inventory
        .skills
        .iter()
        .filter(|skill| skill.real_dir.is_absolute())
        .map(|skill| skill.real_dir.clone())
        .collect();
    skills.sort();
    skills.dedup();
    // Sorted, a folder inside another comes right after it (or after another inside it).
    let mut outermost: Vec<PathBuf> = Vec::with_capacity(skills.len());
    for dir in skills {
        if !outermost.last().is_some_and(|outer| dir.starts_with(outer)) {
            outermost.push(dir);
        }
    }
    let mut folders: Vec<PathBuf> = Vec::new();
    let mut awaited: Vec<PathBuf> = Vec::new();
    for entry in &inventory.roots {
        match entry.root.state {
            RootState::Directory => folders.push(entry.root.path.clone()),
            _ => awaited.push(entry.root.path.clone()),
        }
    }
    for skill in &inventory.skills {
        for &root in &skill.roots {
            let Some(root) = inventory.roots.get(root).map(|entry| &entry.root.path) else {
                continue;
            };
            for at in &skill.reached_by {
                let between = at
                    .ancestors()
                    .skip(1)
                    .take_while(|dir| dir.starts_with(root));
                folders.extend(between.map(Path::to_path_buf));
            }
        }
    }
    folders.sort();
    folders.dedup();
    let project = RootSet::resolve(env, project_start).project;
    let ((), settings) = reading_settings(|| {
        for agent in AgentId::all().map(|agent| agent.agent()) {
            agent.turned_off(env, &project);
            agent.builtin_off_by_settings(env, &project);
        }
    });
    awaited.extend(settings);
    awaited.sort();
    awaited.dedup();
    Watched {
        skills: outermost,
        folders,
        awaited,
    }
}
