//! A progress line on standard error while a long scan runs, shown only on a terminal and only
//! once the work has taken long enough to be worth watching.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long work runs before a progress line appears, and how often it is redrawn.
const QUIET_FOR: Duration = Duration::from_millis(300);
const REDRAW_EVERY: Duration = Duration::from_millis(100);

pub struct Reporter {
    label: &'static str,
    started: Instant,
    /// When the line was last drawn; `None` while nothing is on screen.
    drawn: Mutex<Option<Instant>>,
    enabled: bool,
}

impl Reporter {
    pub fn on_stderr(label: &'static str) -> Self {
        Self {
            label,
            started: Instant::now(),
            drawn: Mutex::new(None),
            enabled: std::io::stderr().is_terminal(),
        }
    }

    pub fn update(&self, done: usize, total: usize) {
        if !self.enabled || self.started.elapsed() < QUIET_FOR {
            return;
        }
        let Ok(mut drawn) = self.drawn.lock() else {
            return;
        };
        if drawn.is_some_and(|at| at.elapsed() < REDRAW_EVERY) && done < total {
            return;
        }
        let _ = write!(std::io::stderr(), "\r\x1b[2K{} {done}/{total}", self.label);
        *drawn = Some(Instant::now());
    }

    /// Clear the line, so the output that follows starts clean.
    pub fn finish(&self) {
        if self.drawn.lock().is_ok_and(|drawn| drawn.is_some()) {
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
        }
    }
}
