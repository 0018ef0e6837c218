//! The signals that ask the app to stop — SIGTERM (`kill`), SIGHUP (the terminal went away),
//! SIGINT (`kill -INT`; Ctrl-C is a key in raw mode) — become a message, so the app leaves the
//! way `q` leaves: the loop ends, the terminal is restored and the demo's sandbox deleted.
//!
//! The UI thread may be waiting for input when a signal comes. crossterm's input wait already
//! listens for SIGWINCH (it reports a resize), so the watcher raises SIGWINCH after sending the
//! message: the wait ends at once, and the message is read. A second signal of a kind that
//! stops a process means the first was not heeded: the terminal is restored from here and the
//! process ends as the signal asks.
//!
//! A terminal that went away can leave the UI thread no way out: crossterm 0.29 reads a hung-up
//! terminal again and again inside its input wait, never returning even past its timeout
//! (crossterm-rs/crossterm#793). So once a signal is heard, the app has [`GRACE`] to end as `q`
//! ends; still here after that, it is stuck there, and the terminal is restored from here and
//! the process ended as the signal asks.
//!
//! signal-hook is the crate crossterm itself uses for SIGWINCH (already in the tree); it runs
//! the handler that only records the signal, and hands it to a thread where anything may be done.

use std::io;
use std::sync::mpsc::Sender;
#[cfg(unix)]
use std::time::Duration;

use super::msg::Msg;

/// How long the app has to end after a signal before the watcher ends it.
#[cfg(unix)]
pub const GRACE: Duration = Duration::from_secs(3);

/// Watches for the signals while it lives.
pub struct Watcher {
    #[cfg(unix)]
    handle: signal_hook::iterator::Handle,
    #[cfg(unix)]
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Watch for SIGTERM, SIGHUP and SIGINT, and send each to the app on `tx`.
///
/// # Errors
/// When the handlers cannot be installed or the thread started.
#[cfg(unix)]
pub fn watch(tx: Sender<Msg>) -> io::Result<Watcher> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGWINCH};
    use signal_hook::iterator::Signals;
    use signal_hook::low_level;

    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT])?;
    let handle = signals.handle();
    let thread = std::thread::Builder::new()
        .name("skilldeck-signals".to_owned())
        .spawn(move || {
            let Some(first) = signals.forever().next() else {
                return;
            };
            let _ = tx.send(Msg::Signal(first));
            let _ = low_level::raise(SIGWINCH);
            // The app ends and closes the handle; a second signal, or the grace running out,
            // means it will not.
            let since = std::time::Instant::now();
            let mut unheeded = None;
            while unheeded.is_none() && !signals.is_closed() {
                unheeded = signals.pending().next();
                if since.elapsed() >= GRACE {
                    unheeded = Some(first);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            if let Some(signal) = unheeded {
                super::session::restore_from_elsewhere();
                let _ = low_level::emulate_default_handler(signal);
            }
        })?;
    Ok(Watcher {
        handle,
        thread: Some(thread),
    })
}

/// No signals to watch on this platform.
#[cfg(not(unix))]
pub fn watch(_tx: Sender<Msg>) -> io::Result<Watcher> {
    Ok(Watcher {})
}

#[cfg(unix)]
impl Drop for Watcher {
    fn drop(&mut self) {
        self.handle.close();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
