//! How a use case tells its caller how far it has got, and how the caller stops it: the one
//! interface the command line (a line on standard error) and the app's workers (messages to
//! the screen) both implement, so no operation knows which front end runs it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::install::{self, Watch};

/// One step of a use case under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    /// A line of news from a program it runs (git's fetch).
    Said(&'a str),
    /// A file of `skill` was written: `done` of `total` files so far.
    Files {
        skill: &'a str,
        done: usize,
        total: usize,
    },
    /// The target `current` of a batch is under way, after `done` of `total`.
    Target {
        current: &'a str,
        done: usize,
        total: usize,
    },
}

/// Where a use case's steps go.
pub trait Progress {
    fn step(&mut self, step: Step<'_>);
}

/// A closure hears every step (`&mut |_| {}` hears none).
impl<F: FnMut(Step<'_>)> Progress for F {
    fn step(&mut self, step: Step<'_>) {
        self(step);
    }
}

/// A request to stop, shared between the front end that asks and the use case that looks:
/// an operation stops at the next point where stopping leaves nothing half done (before any
/// skill is put in place; between two targets of a batch).
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// The flag a cancel sets, for what can only set a flag to ask (a signal handler).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}

/// An install watched through [`Progress`] and stopped through [`Cancel`].
pub(super) struct Watching<'a> {
    pub progress: &'a mut dyn Progress,
    pub cancel: &'a Cancel,
}

impl Watch for Watching<'_> {
    fn wrote(&mut self, progress: install::Progress<'_>) {
        self.progress.step(Step::Files {
            skill: progress.skill,
            done: progress.files_done,
            total: progress.files_total,
        });
    }

    fn carry_on(&mut self) -> bool {
        !self.cancel.is_cancelled()
    }
}
