//! Why the person's editor, run on a skill's file, did not run well.

use crate::text::sanitize;

/// Why the person's editor did not run well; `editor` is the command as set, shown
/// display-safe.
#[derive(Debug, thiserror::Error)]
pub enum EditorFailed {
    #[error(
        "The editor ({}) could not be started: {source}. Set $VISUAL or $EDITOR to the editor you use.",
        sanitize::line(.editor)
    )]
    NotStarted {
        editor: String,
        source: std::io::Error,
    },
    #[error(
        "The editor ({}) could not be started: the shell found no such program. Set $VISUAL or $EDITOR to the editor you use.",
        sanitize::line(.editor)
    )]
    NotFound { editor: String },
    #[error(
        "The editor ({}) ended with {status}; the skill is scanned again all the same.",
        sanitize::line(.editor)
    )]
    Failed {
        editor: String,
        status: std::process::ExitStatus,
    },
}
