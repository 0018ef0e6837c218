//! The watch as the front end and its scan workers hold it: the inventory the last scan left
//! (a rescan starts from it), the pace of the rescans, and the way to the watching thread.

use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;

use super::pace::Pace;
use super::watches::{Watches, native};
use super::{Input, News, debounce};
use crate::roots::Machine;
use crate::scan::{self, Inventory};

/// The watch on the skills' files. Clones share one watching thread, which stops when the last
/// clone is let go.
#[derive(Clone)]
pub struct Watcher {
    shared: Arc<Shared>,
}

struct Shared {
    /// What the last scan or rescan found; none before the first scan ends.
    kept: Mutex<Option<Inventory>>,
    /// When the last rescan ended and how long it took: the next waits after it.
    pace: Mutex<Pace>,
    inputs: Sender<Input>,
}

impl Drop for Shared {
    fn drop(&mut self) {
        let _ = self.inputs.send(Input::Stop);
    }
}

impl Watcher {
    /// Start the watching thread; each piece of news goes to `tell`, which answers whether
    /// anyone still listens (the thread stops when nobody does).
    ///
    /// # Errors
    /// When the thread cannot be started.
    pub fn start(mut tell: impl FnMut(News) -> bool + Send + 'static) -> std::io::Result<Self> {
        let (inputs, incoming) = mpsc::channel();
        let feed = inputs.clone();
        thread::Builder::new()
            .name("skilldeck-watch".to_owned())
            .spawn(move || {
                let watches = Watches::new(feed, native);
                debounce::watch(&incoming, watches, &mut tell);
            })?;
        Ok(Self {
            shared: Arc::new(Shared {
                kept: Mutex::new(None),
                pace: Mutex::new(Pace::default()),
                inputs,
            }),
        })
    }

    /// Keep `inventory`, what a scan of `machine` just found: the next rescan starts from it,
    /// and the watch follows it.
    pub fn keep(&self, machine: &Machine, inventory: Inventory) {
        let mut kept = self.kept();
        self.follow(machine, &inventory);
        *kept = Some(inventory);
    }

    /// Watch what `inventory` needs watched.
    pub(super) fn follow(&self, machine: &Machine, inventory: &Inventory) {
        let plan = scan::watched(&machine.env, &machine.project, inventory);
        let _ = self.shared.inputs.send(Input::Plan(plan));
    }

    /// The inventory kept, held: rescans (and a full scan ending) take turns on it.
    pub(super) fn kept(&self) -> MutexGuard<'_, Option<Inventory>> {
        lock(&self.shared.kept)
    }

    /// The pace of the rescans.
    pub(super) fn pace(&self) -> MutexGuard<'_, Pace> {
        lock(&self.shared.pace)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
