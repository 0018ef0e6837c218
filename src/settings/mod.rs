//! The agents' own settings files, edited as the user would: in place, every byte not being
//! changed kept, atomically, the previous bytes kept for `undo`.

use crate::operations::SettingsChange;
use crate::roots::Machine;

/// Why a settings file was not put back; it is as it was.
#[derive(Debug, thiserror::Error)]
pub enum RevertError {
    #[error("putting settings files back is being built (issue 13)")]
    Unbuilt,
}

impl RevertError {
    /// Whether skilldeck refused (the file changed since), rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        true
    }
}

/// Put the file `change` edited back as it was before, when it still holds what the change
/// left in it; what it holds now is kept first. The change the revert made is returned, for
/// the undo's own journal entry.
///
/// # Errors
/// [`RevertError`] says why not; the file is as it was.
pub fn revert(machine: &Machine, change: &SettingsChange) -> Result<SettingsChange, RevertError> {
    let _ = (machine, change);
    Err(RevertError::Unbuilt)
}
