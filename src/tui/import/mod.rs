//! The import flow in the app: pick a folder or an archive, see what the bundle holds (or why
//! it is refused), choose where its skills go, confirm any replacement after reading its diff,
//! accept the risk of a skill the audit finds high findings in, watch the progress, read the
//! result. Esc cancels at every step, and nothing is written
//! before the last confirmation; the reading, judging and writing all happen on a worker that
//! holds the bundle ([`crate::tui::workers`]), so what is installed is what was previewed.

pub mod picker;
pub mod preview;

use super::audit::RiskView;
use super::diff::DiffView;
use crate::operations::judged::Judged;
use crate::roots::AgentId;

pub use picker::{PickRow, Picker, PlaceView};
pub use preview::{
    BundleView, BundledSkillView, ConflictView, DestinationView, FileView, ImportedView,
    RefusalView, Shadowing,
};

/// One import, from the picker to its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    /// Tells this import's worker messages from those of an import cancelled before it.
    pub session: u64,
    pub step: Step,
    pub picker: Picker,
    /// The bundle read, once it is.
    pub bundle: Option<BundleView>,
    /// Which of the bundle's skills are to be installed, by their index.
    pub chosen: Vec<bool>,
    /// The skill under the cursor in the preview.
    pub cursor: usize,
    /// The preview's first line shown: it follows the cursor, and past the last skill goes on
    /// to the end (its files, the files left out).
    pub scroll: usize,
    /// Every agent's skills folder at each scope, as the worker found them.
    pub every_destination: Vec<DestinationView>,
    /// The destinations offered: see [`Import::show_destinations`].
    pub destinations: Vec<DestinationView>,
    /// Index into `destinations`.
    pub destination: usize,
    /// Why the destination last chosen cannot take skills (a file where a folder should be).
    pub refused: Option<String>,
}

/// Where the import is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Picking,
    /// The bundle is being read.
    Reading(String),
    Preview,
    Refused(RefusalView),
    Destination,
    /// The destination is being judged.
    Planning,
    /// Skills at the destination that the import would replace, with the diff of each.
    Replace {
        conflicts: Vec<ConflictView>,
        /// Which of `conflicts` are left as they are (not replaced); the rest still installs.
        skipped: Vec<bool>,
        diff: Box<DiffView>,
        scroll: usize,
    },
    /// The skills chosen hold a finding of high severity: nothing is installed until the
    /// person accepts the risk, naming it, with `force` and `skills` as the install was asked.
    Risky {
        risk: RiskView,
        force: bool,
        skills: Vec<String>,
    },
    Installing(Progress),
    Done(ImportedView),
    /// Why the install stopped, display-safe.
    Failed(String),
}

/// How far the install has got.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub files_done: usize,
    pub files_total: usize,
    pub skill: String,
    /// Esc was pressed: the install stops before any skill is put in place, if it still can.
    pub cancelling: bool,
}

impl Import {
    pub fn new(session: u64, picker: Picker) -> Self {
        Self {
            session,
            step: Step::Picking,
            picker,
            bundle: None,
            chosen: Vec::new(),
            cursor: 0,
            scroll: 0,
            every_destination: Vec::new(),
            destinations: Vec::new(),
            destination: 0,
            refused: None,
        }
    }

    /// Offer the folders of the agents shown (every agent, or those of `installed`; all when
    /// the deck does not say), each folder once, keeping the one under the cursor there. With
    /// about two dozen agents sharing `~/.agents/skills`, one row per agent would repeat it;
    /// each row names who reads it instead. A machine with none of its agents installed is
    /// offered every folder, so an import can still go somewhere.
    pub fn show_destinations(&mut self, all_agents: bool, installed: Option<&[AgentId]>) {
        let keep = self
            .destinations
            .get(self.destination)
            .map(|d| d.root.clone());
        let judged = Judged {
            installed,
            all: all_agents,
        };
        let shows = |agent: AgentId| judged.keeps(agent);
        let once = |rows: &mut Vec<DestinationView>, wanted: &dyn Fn(AgentId) -> bool| {
            for destination in &self.every_destination {
                if wanted(destination.agent) && !rows.iter().any(|r| r.root == destination.root) {
                    rows.push(destination.clone());
                }
            }
        };
        let mut rows = Vec::new();
        once(&mut rows, &shows);
        if rows.is_empty() {
            once(&mut rows, &|_| true);
        }
        self.destinations = rows;
        self.destination = keep
            .and_then(|root| self.destinations.iter().position(|d| d.root == root))
            .unwrap_or(0);
    }

    /// The names of the skills chosen, as the install is asked for them.
    pub fn chosen_names(&self) -> Vec<String> {
        let Some(bundle) = &self.bundle else {
            return Vec::new();
        };
        bundle
            .skills
            .iter()
            .zip(&self.chosen)
            .filter(|(_, chosen)| **chosen)
            .map(|(skill, _)| skill.name.clone())
            .collect()
    }

    /// The skill of `conflicts` whose part of the diff shows at `scroll`.
    pub fn conflict_at(conflicts: &[ConflictView], scroll: usize) -> Option<usize> {
        conflicts.iter().rposition(|c| c.row <= scroll).or(
            // Above the first heading, the first skill is the one shown.
            (!conflicts.is_empty()).then_some(0),
        )
    }

    /// Whether the worker is busy for this import, so the runtime should look for its answer
    /// soon.
    pub fn waiting(&self) -> bool {
        self.picker.loading
            || matches!(
                self.step,
                Step::Reading(_) | Step::Planning | Step::Installing(_)
            )
    }
}
