//! Where an update's new upstream comes from: the source the person names (any source
//! `import` reads), else the repository the skill was imported from, fetched again at the ref
//! it was imported at. The command line and the app both start an update here, so the two
//! read the same upstream the same way and record where each skill now stands.

use std::io;
use std::path::{Path, PathBuf};

use crate::bundle::{Bundle, Refusal};
use crate::operations::journal::{Entry, Journal, Operation};
use crate::operations::progress::Progress;
use crate::operations::upstream_record;
use crate::record::upstream::{self, Upstream};
use crate::roots::Machine;
use crate::scan::Skill;
use crate::source::Source;
use crate::source::git::Spec;

use super::{Plan, UpdateError, pick};
use crate::operations::import::{self, GitImportError};

/// Where one skill's new upstream is read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// What the person named, the same for every skill of the update.
    Given(Source),
    /// The repository the skill was imported from, at the ref it was imported at.
    Recorded(Spec),
}

impl Wanted {
    /// Where `dir`'s new upstream is: `given`, else its recorded upstream.
    ///
    /// # Errors
    /// [`UpstreamError::NoUpstream`] when nothing is given and skilldeck did not import it
    /// from a repository.
    pub fn of(
        machine: &Machine,
        dir: &Path,
        given: Option<&Source>,
    ) -> Result<Self, UpstreamError> {
        if let Some(given) = given {
            return Ok(Wanted::Given(given.clone()));
        }
        upstream::of(&machine.data_dir(), dir)
            .map(|recorded| Wanted::Recorded(Spec::recorded(&recorded)))
            .ok_or_else(|| UpstreamError::NoUpstream(dir.to_path_buf()))
    }
}

/// Why an update's upstream could not be read; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum UpstreamError {
    #[error(
        "skilldeck did not import {} from a git repository, so it does not know where to update it from; name the new upstream (a folder, an archive or a repository)",
        .0.display()
    )]
    NoUpstream(PathBuf),
    #[error(transparent)]
    Bundle(#[from] Refusal),
    #[error(transparent)]
    Git(#[from] GitImportError),
}

impl UpstreamError {
    /// The refusal code of the command-line contract.
    pub fn code(&self) -> &'static str {
        match self {
            UpstreamError::NoUpstream(_) => "no_upstream",
            UpstreamError::Bundle(refusal) => refusal.code(),
            UpstreamError::Git(error) => error.code(),
        }
    }
}

/// An upstream read: its bundle, and for a repository where it was fetched from.
pub struct Fetched {
    pub wanted: Wanted,
    /// How the source is named in a sentence.
    pub label: PathBuf,
    pub got: import::Read,
}

impl Fetched {
    /// Read (and for a repository, fetch into a temporary folder) what `wanted` names, saying
    /// how the fetch goes to `progress`.
    ///
    /// # Errors
    /// The bundle's refusal, or why the repository could not be fetched.
    pub fn read(wanted: Wanted, progress: &mut dyn Progress) -> Result<Self, UpstreamError> {
        let spec = match &wanted {
            Wanted::Given(Source::Local(path)) => {
                let bundle = import::read(path)?;
                return Ok(Fetched {
                    label: path.clone(),
                    wanted,
                    got: import::Read::Local(bundle),
                });
            }
            Wanted::Given(Source::Git(spec)) | Wanted::Recorded(spec) => spec.clone(),
        };
        let git = import::read_git(&spec, progress)?;
        Ok(Fetched {
            label: PathBuf::from(&spec.repository),
            wanted,
            got: import::Read::Git(git),
        })
    }

    pub fn bundle(&self) -> &Bundle {
        self.got.bundle()
    }

    /// Where the skill that updates `dir` sits upstream, when it came from a repository.
    pub fn upstream_of(&self, dir: &Path) -> Option<Upstream> {
        let git = self.got.from_git()?;
        let skill = pick(&git.bundle, &self.label, dir).ok()?;
        Some(git.upstream_of(skill))
    }

    /// What updating `skill` to this upstream would do ([`super::plan`]), recording where it
    /// now comes from when applied, in the update's own journal entry.
    ///
    /// # Errors
    /// As [`super::pick`] and [`super::plan`].
    pub fn plan(&self, machine: &Machine, skill: &Skill) -> Result<Plan, UpdateError> {
        let upstream = pick(self.bundle(), &self.label, &skill.real_dir)?;
        Ok(super::plan(machine, skill, upstream)?.recording(self.upstream_of(&skill.real_dir)))
    }

    /// Record the commit `dir` now matches (updated or already up to date), for the next
    /// update and `outdated`; nothing when the upstream is not a repository, or the record
    /// already says so (an applied [`Fetched::plan`] wrote it). A change is journalled as an
    /// update of its own, in `machine`'s batch: give the batch the update was applied in, so
    /// one undo puts back the files and the record together.
    ///
    /// # Errors
    /// When the data folder cannot be written.
    pub fn remember(&self, machine: &Machine, dir: &Path) -> io::Result<()> {
        let Some(upstream) = self.upstream_of(dir) else {
            return Ok(());
        };
        if let Some(change) = upstream_record::set(machine, dir, Some(&upstream))? {
            let mut entry = Entry::now(Operation::Update, Vec::new());
            entry.upstream.push(change);
            // Unjournalled, the record still holds: only undo would not know of it.
            let _ = Journal::record_entry(machine, entry);
        }
        Ok(())
    }
}
