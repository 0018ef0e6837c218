//! The app's side of the live engine (`crate::live`): its news become the app's messages, and
//! a rescan of the skills that changed becomes the deck again with the changed screen's rows of
//! those skills.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::time::SystemTime;

use super::{deck_of, guard, spawn};
use crate::live::{self, News, Rescanned, Watcher};
use crate::roots::Machine;
use crate::tui::changes::{ChangeView, views};
use crate::tui::msg::{Msg, Rescan, RescanError};

/// Start the watch on the skills' files; what changes arrives on `tx`.
///
/// # Errors
/// When the watching thread cannot be started.
pub fn start(tx: Sender<Msg>) -> std::io::Result<Watcher> {
    Watcher::start(move |news| tx.send(msg_of(news)).is_ok())
}

fn msg_of(news: News) -> Msg {
    match news {
        News::Changed { dirs } => Msg::Changed { dirs },
        News::Watched { told, polled } => Msg::Watched { told, polled },
    }
}

/// Scan again the skills at `dirs` on a new thread, from the inventory `watcher` keeps (a
/// whole scan when it keeps none); the deck arrives on `tx` as [`Msg::Rescanned`].
pub fn rescan(machine: &Machine, tx: Sender<Msg>, watcher: Option<Watcher>, dirs: Vec<PathBuf>) {
    let machine = machine.clone();
    spawn("skilldeck-rescan", tx, move |_| {
        let result = guard("Scanning the changed skills", || {
            live::rescan(&machine, watcher.as_ref(), &dirs, |rescanned| {
                Box::new(Rescan {
                    deck: deck_of(&machine, &rescanned.inventory),
                    compared: rows(&machine, rescanned),
                })
            })
            .map_err(RescanError::from)
        })
        .unwrap_or_else(|stopped| Err(RescanError::Stopped(stopped)));
        Msg::Rescanned { dirs, result }
    });
}

/// The changed screen's row of each skill rescanned, then of each gone (none when unchanged).
fn rows(machine: &Machine, rescanned: &Rescanned) -> Vec<(PathBuf, Option<ChangeView>)> {
    let rows = views(
        &rescanned.found.changed,
        &rescanned.inventory.skills,
        machine.home(),
        SystemTime::now(),
    );
    // Each row found by its folder (the first for a folder, as the list has it), not searched
    // for among all of them once per skill.
    let mut by_dir: HashMap<&Path, &ChangeView> = HashMap::new();
    for row in &rows {
        by_dir.entry(row.dir.as_path()).or_insert(row);
    }
    rescanned
        .rescanned
        .iter()
        .chain(&rescanned.gone)
        .map(|dir| {
            (
                dir.clone(),
                by_dir.get(dir.as_path()).map(|row| (*row).clone()),
            )
        })
        .collect()
}
