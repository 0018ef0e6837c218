//! The terminal app: every skill on the machine, its source, ownership and drift, from the
//! keyboard.
//!
//! The shape is The Elm Architecture on one thread: input becomes an [`msg::Action`] through the
//! one [`keymap`] table; [`update::update`] turns messages into a new [`app::App`] and
//! [`msg::Effect`]s, with no I/O; the [`runtime`] carries the effects out on worker threads
//! and draws with [`view::draw`], which only reads the app and hands back where it put each
//! pane ([`geometry`]) as one more message for `update`. What is on top is decided once, by
//! [`app::App::layers`]: the screen, the [`views`] in the order they were opened, then the
//! flows and popups above them; the keys go to the top layer, the frame is drawn in that
//! order, and the wheel scrolls what is on top. Text from disk is sanitised once,
//! where the inventory becomes the [`model`] (and where the workers build the [`changes`],
//! [`diff`] and [`import`] models). This module never touches the file system itself: the
//! workers ask the domain (`scan`, `snapshot`, `bundle`, `install`, and `operations` for
//! what changes skills and settings: [`workers::manage`]) for everything; the managing flows'
//! own data (marks, batches, pickers, plans, summaries) is in [`manage`]; an update's plan and its
//! conflicts are in [`updating`], the upstreams' marks in [`upstreams`].
//!
//! The app stops the way `q` stops it on SIGTERM, SIGHUP and SIGINT too ([`signals`]), so the
//! terminal is restored and the demo's sandbox deleted; a panic on the UI thread restores the
//! terminal through the panic hook ([`session`]). Debug builds (never release builds) panic on
//! purpose when the key named by `SKILLDECK_DEBUG_PANIC_KEY` is pressed, so the end-to-end
//! test can check that the terminal survives a panic.

pub mod app;
pub mod audit;
pub mod budget;
pub mod changes;
pub mod diff;
pub mod editor;
pub mod failed;
pub mod geometry;
pub mod headless;
pub mod history;
pub mod import;
pub mod keymap;
pub mod line;
pub mod live;
pub mod manage;
pub mod model;
pub mod mouse;
pub mod msg;
pub mod offers;
pub mod runtime;
mod session;
mod signals;
pub mod theme;
pub mod update;
pub mod updating;
pub mod upstreams;
pub mod view;
pub mod viewer;
pub mod views;
pub mod workers;

use std::io::{self, IsTerminal};

use crate::roots::Machine;
use app::{App, Setup};
use runtime::Runtime;

/// What the app is opened on, and how.
#[derive(Clone, Debug)]
pub struct Options {
    pub machine: Machine,
    pub setup: Setup,
}

/// Why the app could not run.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(
        "the terminal app needs a terminal to draw on; `skilldeck list` prints the inventory for scripts"
    )]
    NotATerminal,
    #[error("the terminal could not be set up for the app: {0}")]
    Setup(io::Error),
    #[error("the terminal stopped working: {0}")]
    Terminal(io::Error),
}

/// How the app ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The person quit.
    Quit,
    /// A signal asked it to stop.
    Signal(i32),
}

/// Open the app on this terminal and run it until it is quit or told to stop by a signal. The
/// terminal is restored on every way out, a panic included.
///
/// # Errors
/// When standard input or output is not a terminal, or the terminal fails.
pub fn run(options: Options) -> Result<Ending, AppError> {
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        return Err(AppError::NotATerminal);
    }
    let (session, terminal) = session::Session::open().map_err(AppError::Setup)?;
    let mouse = session::MouseCapture::new(options.setup.mouse).map_err(AppError::Setup)?;
    let app = App::new(options.setup);
    let mut runtime = Runtime::new(terminal, app, options.machine, Box::new(mouse))
        .map_err(AppError::Setup)?
        .live()
        .map_err(AppError::Setup)?
        .with_outside(Box::new(session::Handover));
    let signals = signals::watch(runtime.sender()).map_err(AppError::Setup)?;
    let result = runtime
        .run(&mut debug_panic::events())
        .map_err(AppError::Terminal);
    let ending = match runtime.app().signal {
        Some(signal) => Ending::Signal(signal),
        None => Ending::Quit,
    };
    // The runtime owns the terminal and the mouse; both go before the session restores.
    drop(runtime);
    drop(session);
    // Without unix signals to watch the watcher holds nothing, and dropping it says only when.
    #[cfg_attr(not(unix), allow(clippy::drop_non_drop))]
    drop(signals);
    result.map(|()| ending)
}

/// Input from the terminal; in a debug build, with a key that panics on purpose.
#[cfg(not(debug_assertions))]
mod debug_panic {
    pub fn events() -> super::runtime::TerminalEvents {
        super::runtime::TerminalEvents
    }
}

/// Input from the terminal, with a panic on the UI thread when the key named by
/// `SKILLDECK_DEBUG_PANIC_KEY` is pressed: how the end-to-end test makes the app panic. Only
/// in debug builds; a release build has no such key.
#[cfg(debug_assertions)]
mod debug_panic {
    use std::io;
    use std::time::Duration;

    use ratatui::crossterm::event::{Event, KeyCode};

    use super::runtime::{Events, TerminalEvents};

    pub struct PanicKey(Option<char>);

    pub fn events() -> PanicKey {
        let key = std::env::var("SKILLDECK_DEBUG_PANIC_KEY")
            .ok()
            .and_then(|v| v.chars().next());
        PanicKey(key)
    }

    impl Events for PanicKey {
        fn next(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
            let event = TerminalEvents.next(timeout)?;
            if let (Some(key), Some(Event::Key(pressed))) = (self.0, &event)
                && pressed.code == KeyCode::Char(key)
            {
                panic!("the panic asked for by SKILLDECK_DEBUG_PANIC_KEY");
            }
            Ok(event)
        }
    }
}
