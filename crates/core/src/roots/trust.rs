//! Whether an agent trusts the folder it starts in, for the agents that read a workspace's
//! skills only there (Gemini CLI's verdict is `table::gemini_cli::folder_trust`).

use std::path::PathBuf;

use super::env::Environment;
use super::project::Project;

/// A rule that decides trust, for a table row that is read only in a trusted folder.
#[derive(Clone, Copy, Debug)]
pub struct Trust {
    /// Why a skill is left out in a folder the agent does not trust, and how to trust it.
    pub why: &'static str,
    /// When the row is read, as the README's table of roots says it after the folder.
    pub shown: &'static str,
    pub check: fn(&Environment, &Project) -> bool,
    /// The variables `check` reads.
    pub variables: &'static [&'static str],
}

/// A setting that leaves out some of a row's folders, told by their path rather than by the
/// start folder (Copilot's `ignoredSkillsLocations`): the row's folders at or below one of
/// `locations` are read as an untrusted folder is, their skills listed and left out with `why`.
#[derive(Clone, Copy, Debug)]
pub struct Ignores {
    pub why: &'static str,
    /// The folders it names, each as the agent compares it with its roots.
    pub locations: fn(&Environment, &Project) -> Vec<PathBuf>,
}

impl Ignores {
    /// The verdict on one folder, with the sentence that says why it is left out. Only `why`
    /// is read downstream; the check is never asked again.
    pub fn verdict(&self) -> Trust {
        Trust {
            why: self.why,
            shown: "unless a setting names it",
            check: |_, _| false,
            variables: &[],
        }
    }
}
