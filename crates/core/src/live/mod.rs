//! The live engine: the watch on the skills' files, and the rescans it asks for. One thread
//! owns the system's watches (inotify, FSEvents, ReadDirectoryChangesW, through `notify`):
//! every skill folder with all below it, the folders whose entries decide which skills there
//! are, and the nearest folder there is above each root not made yet and each settings file
//! that turns skills off. Where the system's limit on watches runs out, the rest are polled
//! instead, and the front end is told so. Changes are gathered until the files have been quiet
//! a moment, mapped to the skill folders they lie in, and told as one [`News::Changed`]; the
//! thread blocks while nothing happens, so an idle app costs nothing. What the app itself only
//! reads (a scan, a preview) is no change.
//!
//! A rescan reads again only the skills that changed (`scan::again`), from the inventory the
//! last scan left with the [`Watcher`], at the pace the last rescan set (`pace`), and compares them
//! with their snapshots again. What the front end shows of it is its own business: this module
//! knows nothing of a terminal.

mod affected;
mod compare;
mod debounce;
mod error;
mod pace;
mod rescan;
mod watcher;
mod watches;

use std::path::PathBuf;
use std::time::Duration;

use crate::scan::Watched;

pub use compare::Rescanned;
pub use error::LiveError;
pub use rescan::rescan;
pub use watcher::Watcher;

/// How often a folder the system cannot watch is looked at for changes.
pub const POLL_EVERY: Duration = Duration::from_secs(2);

/// What the watch tells the front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum News {
    /// Files changed on disk: the skill folders they lie in, or the paths themselves when they
    /// lie in none (a folder made in a root, a settings file).
    Changed { dirs: Vec<PathBuf> },
    /// The watch is in place: `told` folders by the system, `polled` looked at every
    /// [`POLL_EVERY`] instead, where the system's limit on watches ran out.
    Watched { told: usize, polled: usize },
}

/// What the watching thread is told: by the [`Watcher`], and by the system's watchers.
enum Input {
    /// Watch what this inventory needs watched, instead of what the last one did.
    Plan(Watched),
    Event(notify::Result<notify::Event>),
    Stop,
}
