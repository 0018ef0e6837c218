//! An update of skills from their upstream as the app shows it: what the worker planned for each
//! skill (every file's fate: took theirs, kept ours, merged), what another installer's record
//! would go stale, and the conflicts, each with the diff of the file here against upstream's
//! and the choice the person made for it. Built on the worker from `operations::update`'s
//! plans, display-safe; `update` only records the choices, and the worker applies them.

use std::path::PathBuf;

use crate::merge::{Clash, Resolution, Summary};

use super::diff::DiffView;

/// An update under way, from the key to the status line that says what it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Updating {
    /// The worker's session; news from another is dropped.
    pub session: u64,
    /// The skills, by name, for the status line.
    pub names: String,
    /// Their folders, as the list has them.
    pub dirs: Vec<PathBuf>,
    pub step: UpdateStep,
}

/// Where an update is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpdateStep {
    /// The upstream is being read (fetched, for a repository) and the merge planned.
    Reading,
    /// Planned: asked to confirm, or to settle the conflicts first.
    Planned(Box<Planned>),
    /// The merged files are being written.
    Applying,
}

impl Updating {
    /// Whether a worker's answer is awaited.
    pub fn waiting(&self) -> bool {
        matches!(self.step, UpdateStep::Reading | UpdateStep::Applying)
    }

    /// The plan, once it is made.
    pub fn planned(&self) -> Option<&Planned> {
        match &self.step {
            UpdateStep::Planned(planned) => Some(planned),
            _ => None,
        }
    }

    pub fn planned_mut(&mut self) -> Option<&mut Planned> {
        match &mut self.step {
            UpdateStep::Planned(planned) => Some(planned),
            _ => None,
        }
    }

    /// Whether the conflict view is open: a plan with conflicts.
    pub fn settling(&self) -> bool {
        self.planned().is_some_and(|p| !p.conflicts.is_empty())
    }
}

/// What the update would do to every skill asked for, and its conflicts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    pub skills: Vec<SkillPlan>,
    /// Every skill's conflicting files, in the skills' order, then by path.
    pub conflicts: Vec<ConflictFile>,
    /// The conflict under the cursor.
    pub selected: usize,
    /// The first row of its diff shown.
    pub scroll: usize,
}

/// One skill's part of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillPlan {
    pub name: String,
    pub dir: PathBuf,
    pub shown_dir: String,
    /// Upstream holds what the baseline does: nothing to write.
    pub up_to_date: bool,
    /// Every file something happens to (display-safe path), in path order; the unchanged left
    /// out.
    pub files: Vec<(String, Summary)>,
    /// Each record of another installer's the update would leave describing other files.
    pub stale: Vec<String>,
}

/// A file both sides changed in ways that cannot both be kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictFile {
    /// Index into [`Planned::skills`].
    pub skill: usize,
    /// The path as the merge has it, which the choice is passed back with; never shown as it is.
    pub path: String,
    pub shown_path: String,
    pub clash: Clash,
    /// Both sides can be kept (conflict markers, or the edited side of a deletion); never for
    /// a binary file.
    pub both: bool,
    /// The file here against upstream's, and with both kept, the file with conflict markers.
    pub diff: DiffView,
    /// What the person chose; `None` while it is unsettled.
    pub choice: Option<Resolution>,
}

/// One conflict's choice, as the worker is given it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    pub dir: PathBuf,
    pub path: String,
    pub resolution: Resolution,
}

impl Planned {
    pub fn selected(&self) -> Option<&ConflictFile> {
        self.conflicts.get(self.selected)
    }

    /// How many conflicts have a choice.
    pub fn settled(&self) -> usize {
        self.conflicts.iter().filter(|c| c.choice.is_some()).count()
    }

    /// Whether every conflict has a choice: only then can the update be applied.
    pub fn all_settled(&self) -> bool {
        self.settled() == self.conflicts.len()
    }

    /// The choices, for the worker.
    pub fn choices(&self) -> Vec<Settled> {
        self.conflicts
            .iter()
            .filter_map(|c| {
                Some(Settled {
                    dir: self.skills.get(c.skill)?.dir.clone(),
                    path: c.path.clone(),
                    resolution: c.choice?,
                })
            })
            .collect()
    }

    /// Every record that would go stale, over the skills that would be written.
    pub fn stale(&self) -> Vec<String> {
        self.skills
            .iter()
            .filter(|s| !s.up_to_date)
            .flat_map(|s| s.stale.iter().map(move |why| format!("{}: {why}", s.name)))
            .collect()
    }

    /// What the update would do, a line per skill and per file, the conflicts with their
    /// choices: the confirm dialog's lines.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (index, skill) in self.skills.iter().enumerate() {
            if skill.up_to_date {
                lines.push(format!(
                    "{} ({}) is up to date with its upstream.",
                    skill.name, skill.shown_dir
                ));
                continue;
            }
            lines.push(format!("{} ({}):", skill.name, skill.shown_dir));
            let width = skill
                .files
                .iter()
                .map(|(path, _)| crate::text::width::of(path))
                .max()
                .unwrap_or(0);
            for (path, summary) in &skill.files {
                let conflict = self
                    .conflicts
                    .iter()
                    .find(|c| c.skill == index && c.shown_path == *path);
                let what = match conflict {
                    Some(conflict) => conflict_words(conflict),
                    None => summary.words().to_owned(),
                };
                lines.push(format!(
                    "  {}  {what}",
                    crate::text::width::pad(path, width)
                ));
            }
        }
        lines
    }
}

/// A choice in a word: what the conflict view and the confirm dialog say of it.
pub fn choice_word(choice: Resolution) -> &'static str {
    match choice {
        Resolution::Theirs => "theirs",
        Resolution::Ours => "ours",
        Resolution::Both => "both",
    }
}

fn conflict_words(conflict: &ConflictFile) -> String {
    match conflict.choice {
        Some(Resolution::Theirs) => {
            format!("conflict ({}), took theirs", conflict.clash.describe())
        }
        Some(Resolution::Ours) => format!("conflict ({}), kept ours", conflict.clash.describe()),
        Some(Resolution::Both) => format!("conflict ({}), kept both", conflict.clash.describe()),
        None => format!("conflict: {}", conflict.clash.describe()),
    }
}
