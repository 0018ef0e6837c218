//! Ctrl-C during a long command: the first one asks the operation to stop through its
//! [`Cancel`], at the next point where stopping leaves nothing half done (before a skill is
//! fetched or put in place), so the command ends by saying what it did and what it did not;
//! a second one stops the process at once, as Ctrl-C does anywhere.

use crate::operations::progress::Cancel;

/// A cancel that Ctrl-C (SIGINT) sets. Where the handler cannot be installed, Ctrl-C keeps
/// its default (the process stops), which loses nothing a journal entry would not recover.
pub fn cancel_on_interrupt() -> Cancel {
    let cancel = Cancel::new();
    #[cfg(unix)]
    {
        use signal_hook::consts::SIGINT;
        use signal_hook::flag;
        // Registered first, so it sees the flag as the earlier Ctrl-C left it: set, the
        // second one gets the default action.
        let _ = flag::register_conditional_default(SIGINT, cancel.flag())
            .and_then(|_| flag::register(SIGINT, cancel.flag()));
    }
    cancel
}
