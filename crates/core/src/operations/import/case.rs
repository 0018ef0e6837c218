//! The import as one use case: a [`Request`] for a bundle already read, and a typed answer —
//! the [`Preview`] of what installing would do, or the [`Report`] of what it did — that the
//! command line says in sentences or JSON and the app shows on its screen. Everything the two
//! say is decided here: which skills, which agents are judged, who would be shadowed, what
//! was left unrecorded.

use std::path::{Path, PathBuf};

use crate::bundle::{Bundle, BundledSkill, Refusal};
use crate::install::{Conflict, InstallError, Installed, Step};
use crate::roots::{AgentId, Machine};
use crate::snapshot::SnapshotError;

use super::super::journal::JournalError;
use super::super::judged::Judged;
use super::super::progress::{Cancel, Progress, Watching};
use super::super::shadow::WouldShadow;
use super::risk::{self, Risky};
use super::{Distrusting, FromGit, Read, Readers, Unrecorded};

/// What to install of a bundle, and how.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// The skills of the bundle by name; none: every skill.
    pub skills: Vec<String>,
    /// Replace a skill edited since it was installed, or installed by someone else.
    pub force: bool,
    /// Judge every agent that reads the destination, not only those installed here.
    pub all_agents: bool,
    /// Install even when the audit finds something of high severity in the skills chosen
    /// (see [`risk`](super::risk)); otherwise such a bundle is refused, with its findings.
    pub accept_risk: bool,
}

/// Who loads the skills installed at a destination: the agents that read it, and which of
/// them are judged (see [`Judged`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaders {
    pub root: PathBuf,
    /// Every agent that reads `root`, in table order.
    pub readers: Vec<AgentId>,
    /// The agents that read `root` only in a project they trust, and do not trust this one:
    /// not among `readers`, and told, since the skills put there will not reach them.
    pub distrusting: Vec<Distrusting>,
    /// The agents installed on the machine.
    pub installed: Vec<AgentId>,
    /// Every agent is judged, installed or not.
    pub all: bool,
}

impl Loaders {
    pub fn of(machine: &Machine, root: &Path, all: bool) -> Self {
        let readers = Readers::new(machine);
        Self {
            root: root.to_path_buf(),
            readers: readers.of_root(root),
            distrusting: readers.distrusting(root),
            installed: super::installed_agents(machine),
            all,
        }
    }

    /// The agents judged that will not load what goes to `root`, because they do not trust
    /// the project: one warning each.
    pub fn distrusting_judged(&self) -> Vec<&Distrusting> {
        let judged = self.judged();
        self.distrusting
            .iter()
            .filter(|d| judged.keeps(d.agent))
            .collect()
    }

    pub fn judged(&self) -> Judged<'_> {
        Judged::new(&self.installed, self.all)
    }

    /// The readers judged: who the skills there are said to be loaded by.
    pub fn shown(&self) -> Vec<AgentId> {
        self.judged().of(&self.readers)
    }
}

/// Why an import did not happen, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The skills asked for are not the bundle's.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The destination holds a skill this import may not replace; nothing was written.
    #[error(transparent)]
    Conflict(#[from] Conflict),
    /// The skills chosen hold a finding of high severity and the risk was not accepted;
    /// nothing was written.
    #[error(transparent)]
    Risky(#[from] Risky),
    /// Stopped as asked, before any skill was put in place.
    #[error("the import was stopped before any skill was put in place")]
    Cancelled,
    /// The install failed (each skill already in place stays, whole, and is journalled).
    #[error(transparent)]
    Install(InstallError),
}

impl From<InstallError> for ImportError {
    fn from(error: InstallError) -> Self {
        match error {
            InstallError::Conflict(conflict) => ImportError::Conflict(conflict),
            InstallError::Cancelled => ImportError::Cancelled,
            other => ImportError::Install(other),
        }
    }
}

/// What installing into a destination would do.
#[derive(Debug)]
pub struct Planned<'b> {
    pub steps: Vec<Step<'b>>,
    pub loaders: Loaders,
    /// Who would run which copy once the skills are there, among the agents judged.
    pub shadowing: Vec<(&'b BundledSkill, WouldShadow)>,
}

/// What an import would do, reading only.
#[derive(Debug)]
pub struct Preview<'b> {
    pub chosen: Vec<&'b BundledSkill>,
    /// What installing into the destination would do, when one was named.
    pub into: Option<Planned<'b>>,
}

/// Judge what installing `request`'s skills of `bundle` into `root` would do; with no root,
/// only which skills are chosen. Nothing is written.
///
/// # Errors
/// [`ImportError::Refused`] for skills the bundle does not hold, [`ImportError::Conflict`]
/// for a destination that holds what this import may not replace.
pub fn preview<'b>(
    machine: &Machine,
    bundle: &'b Bundle,
    request: &Request,
    root: Option<&Path>,
) -> Result<Preview<'b>, ImportError> {
    let chosen = bundle.select(&request.skills)?;
    let into = match root {
        Some(root) => {
            let steps = super::plan(root, &chosen, request.force)?;
            let loaders = Loaders::of(machine, root, request.all_agents);
            let shadowing = super::shadowing(machine, &chosen, &loaders);
            Some(Planned {
                steps,
                loaders,
                shadowing,
            })
        }
        None => None,
    };
    Ok(Preview { chosen, into })
}

/// What an import did: every field is something the user is told.
#[derive(Debug)]
pub struct Report<'b> {
    pub chosen: Vec<&'b BundledSkill>,
    /// Where the bundle was fetched from, when it came from a repository.
    pub from_git: Option<&'b FromGit>,
    pub installed: Vec<Installed>,
    pub loaders: Loaders,
    /// Who will run which copy now, among the agents judged (weighed before the install,
    /// whose copies would otherwise count as rivals of their own).
    pub shadowing: Vec<(&'b BundledSkill, WouldShadow)>,
    /// Installed without the baseline snapshot later diffs and restores start from.
    pub missed_baselines: Vec<SnapshotError>,
    /// The journal could not be told, so `undo` will not know of this import.
    pub unjournalled: Option<JournalError>,
    /// Installed, but where each came from could not be recorded.
    pub unrecorded: Vec<Unrecorded>,
    /// The project's `skills-lock.json` kept current, when it has one.
    pub lock: super::super::lock_upkeep::Upkeep,
    /// The high findings installed because the request accepted the risk: said again after.
    pub risk_accepted: Option<Risky>,
}

impl Report<'_> {
    /// Installed where no agent reads, even in a project it trusts: rarely what was meant.
    pub fn read_by_none(&self) -> bool {
        self.loaders.readers.is_empty() && self.loaders.distrusting.is_empty()
    }
}

/// Install `request`'s skills of the bundle `read` into `root` (see
/// [`install_from`](super::install_from)), telling `progress` of each file and stopping at
/// `cancel` while nothing is in place yet.
///
/// # Errors
/// [`ImportError`]: the skills are not the bundle's, a finding of high severity in them
/// while the risk is not accepted ([`ImportError::Risky`], judged before anything else), a
/// conflict found before anything was written, a cancel, or the write that failed.
pub fn run<'b>(
    machine: &Machine,
    read: &'b Read,
    request: &Request,
    root: &Path,
    progress: &mut dyn Progress,
    cancel: &Cancel,
) -> Result<Report<'b>, ImportError> {
    let chosen = read.bundle().select(&request.skills)?;
    // The one rule both front ends ask: what the skills would do is judged from the bytes
    // read, before anything is written, and a high finding needs the risk accepted.
    let risky = Risky::of(&risk::verdicts(&chosen));
    let risk_accepted = match risky {
        Some(risky) if !request.accept_risk => return Err(ImportError::Risky(risky)),
        accepted => accepted,
    };
    let loaders = Loaders::of(machine, root, request.all_agents);
    let shadowing = super::shadowing(machine, &chosen, &loaders);
    let mut watching = Watching { progress, cancel };
    let imported = super::install_from(
        machine,
        root,
        &chosen,
        request.force,
        &mut watching,
        read.from_git(),
    )?;
    Ok(Report {
        chosen,
        from_git: read.from_git(),
        installed: imported.installed,
        loaders,
        shadowing,
        missed_baselines: imported.missed_baselines,
        unjournalled: imported.unjournalled,
        unrecorded: imported.unrecorded,
        lock: imported.lock,
        risk_accepted,
    })
}
