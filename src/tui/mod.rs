//! The terminal app: every skill on the machine, its source, ownership and drift, from the
//! keyboard.
//!
//! The shape is The Elm Architecture on one thread: input becomes an [`msg::Action`] through the
//! one [`keymap`] table; [`update::update`] turns messages into a new [`app::App`] and
//! [`msg::Effect`]s, with no I/O; the [`runtime`] carries the effects out on worker threads
//! and draws with [`view::draw`], which only reads the app. Text from disk is sanitised once,
//! where the inventory becomes the [`model`]. This module never touches the file system itself:
//! the workers ask the domain (`scan`, `skill`) for everything.

pub mod app;
pub mod keymap;
pub mod model;
pub mod mouse;
pub mod msg;
pub mod runtime;
pub mod sanitize;
mod session;
pub mod theme;
pub mod update;
pub mod view;
pub mod view_state;
pub mod width;
pub mod workers;

use std::io::{self, IsTerminal};

use app::{App, Setup};
use runtime::{Runtime, TerminalEvents};
use workers::Target;

/// What the app is opened on, and how.
#[derive(Clone, Debug)]
pub struct Options {
    pub target: Target,
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

/// Open the app on this terminal and run it until it is quit. The terminal is restored on
/// every way out, a panic included.
///
/// # Errors
/// When standard input or output is not a terminal, or the terminal fails.
pub fn run(options: Options) -> Result<(), AppError> {
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        return Err(AppError::NotATerminal);
    }
    let (session, terminal) = session::Session::open().map_err(AppError::Setup)?;
    let mouse = session::MouseCapture::new(options.setup.mouse).map_err(AppError::Setup)?;
    let app = App::new(options.setup);
    let mut runtime =
        Runtime::new(terminal, app, options.target, Box::new(mouse)).map_err(AppError::Setup)?;
    let result = runtime.run(&mut TerminalEvents).map_err(AppError::Terminal);
    // The runtime owns the terminal and the mouse; both go before the session restores.
    drop(runtime);
    drop(session);
    result
}
