//! What the app knows of the watch on the skills' files: whether a rescan of some of them is
//! under way, the changes seen meanwhile (rescanned when it ends, so none is lost and none
//! starts a second scan alongside), and how the folders are watched.

use std::collections::BTreeSet;
use std::path::PathBuf;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Live {
    /// A rescan of the skills that changed is under way.
    pub rescanning: bool,
    /// Changes seen while a scan was under way, to rescan when it ends.
    pub pending: BTreeSet<PathBuf>,
    /// How the watch stands, once it is in place.
    pub watch: Option<Watch>,
}

/// How the folders are watched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    /// Folders the system tells the app about.
    pub told: usize,
    /// Folders looked at every few seconds instead, as the system's limit on watches ran out.
    pub polled: usize,
}
