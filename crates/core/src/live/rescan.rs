//! The rescan of the skills that changed: from the inventory the watcher keeps (a whole scan
//! when it keeps none), at the pace the last rescan set, and kept for the next one.

use std::path::PathBuf;
use std::thread;
use std::time::Instant;

use super::compare::{Rescanned, compare};
use super::{LiveError, Watcher};
use crate::roots::Machine;
use crate::scan;

/// Scan again the skills at `dirs` of `machine`, from the inventory `watcher` keeps (a whole
/// scan when there is no watcher, or it keeps none yet), and compare them with their snapshots
/// again. `show` makes of it what the front end shows (its deck, its rows), within the rescan:
/// the inventory is held meanwhile, so rescans and a full scan ending take turns on it, and the
/// time it takes counts in the pace of the next rescan.
///
/// # Errors
/// When the snapshots cannot be read; the inventory kept is then left as it was.
pub fn rescan<T>(
    machine: &Machine,
    watcher: Option<&Watcher>,
    dirs: &[PathBuf],
    show: impl FnOnce(&Rescanned) -> T,
) -> Result<T, LiveError> {
    let (env, project) = (&machine.env, &machine.project);
    let Some(watcher) = watcher else {
        let inventory = scan::scan(env, project, &|_| {});
        let rescanned = compare(machine, inventory, None, dirs)?;
        return Ok(show(&rescanned));
    };
    // Changes that keep coming wait, gathering, while the last rescan's pace runs.
    let wait = watcher.pace().wait(Instant::now());
    thread::sleep(wait);
    let started = Instant::now();
    let shown = from_kept(machine, watcher, dirs, show);
    watcher.pace().done(started, Instant::now());
    shown
}

fn from_kept<T>(
    machine: &Machine,
    watcher: &Watcher,
    dirs: &[PathBuf],
    show: impl FnOnce(&Rescanned) -> T,
) -> Result<T, LiveError> {
    let (env, project) = (&machine.env, &machine.project);
    // Held throughout, so rescans (and a full scan ending) take turns on the inventory.
    let mut kept = watcher.kept();
    let inventory = match kept.as_ref() {
        Some(previous) => scan::again(env, project, previous, dirs),
        None => scan::scan(env, project, &|_| {}),
    };
    let rescanned = compare(machine, inventory, kept.as_ref(), dirs)?;
    let shown = show(&rescanned);
    watcher.follow(machine, &rescanned.inventory);
    *kept = Some(rescanned.inventory);
    Ok(shown)
}
