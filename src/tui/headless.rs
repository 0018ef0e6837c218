//! The app with no one at the keyboard: its real runtime (scan, `SKILL.md` and task workers
//! included) on any backend, keys pressed one by one, and every worker's answer awaited before
//! the screen is read. The integration tests, the README's screenshots and the benchmarks all
//! drive the app through this one driver, so they drive the same app the same way; on a
//! `TestBackend` it also reads the screen back as text or as a buffer.

use std::io;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::{Backend, TestBackend};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use crate::roots::Machine;

use super::app::{App, Setup};
use super::msg::Msg;
use super::runtime::{NoMouse, Runtime};

/// How long the workers are waited for unless told otherwise: far longer than any answer takes,
/// so only a worker that hangs runs out of it.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// Why the driver could not go on.
#[derive(Debug, thiserror::Error)]
pub enum HeadlessError {
    #[error("the app could not be drawn: {0}")]
    Terminal(#[from] io::Error),
    #[error("the app's workers did not answer within {} seconds", .0.as_secs())]
    Unanswered(Duration),
}

/// The app on a backend of its own, driven key by key.
pub struct Headless<B: Backend = TestBackend> {
    /// The runtime itself, for what the driver does not do: a key handed over with no wait, a
    /// message sent between two draws, a frame timed.
    pub runtime: Runtime<B>,
    patience: Duration,
}

impl Headless<TestBackend> {
    /// The app on `machine`, in a `TestBackend` of `width` × `height`, with its first scan (and
    /// the preview that scan asks for) done and drawn.
    ///
    /// # Errors
    /// When the runtime cannot start, or the scan does not finish within [`PATIENCE`].
    pub fn open(
        machine: Machine,
        setup: Setup,
        (width, height): (u16, u16),
    ) -> Result<Self, HeadlessError> {
        let mut headless = Self::new(test_terminal(width, height), App::new(setup), machine)?;
        headless.start()?;
        Ok(headless)
    }

    pub fn backend(&self) -> &TestBackend {
        self.runtime.terminal().backend()
    }

    /// The last frame, cell by cell, colours included.
    pub fn buffer(&self) -> &Buffer {
        self.backend().buffer()
    }

    /// The last frame as text, one quoted line per row.
    pub fn text(&self) -> String {
        self.backend().to_string()
    }
}

impl<B: Backend> Headless<B> {
    /// The app in `terminal`, not started: nothing is scanned until [`Headless::start`].
    ///
    /// # Errors
    /// When the runtime's `SKILL.md` reader cannot be started.
    pub fn new(terminal: Terminal<B>, app: App, machine: Machine) -> io::Result<Self> {
        Ok(Self {
            runtime: Runtime::new(terminal, app, machine, Box::new(NoMouse))?,
            patience: PATIENCE,
        })
    }

    /// The app live, as a person runs it: the skills' files watched, a skill that changes
    /// scanned again (see [`Runtime::live`]). Before [`Headless::start`].
    ///
    /// # Errors
    /// When the watching thread cannot be started.
    pub fn live(self) -> io::Result<Self> {
        Ok(Self {
            runtime: self.runtime.live()?,
            patience: self.patience,
        })
    }

    /// Wait up to `limit` for the workers, rather than [`PATIENCE`].
    #[must_use]
    pub fn patience(mut self, limit: Duration) -> Self {
        self.patience = limit;
        self
    }

    pub fn app(&self) -> &App {
        self.runtime.app()
    }

    /// Open the app as a person would: its scan, awaited, and the first full frame.
    ///
    /// # Errors
    /// When the scan does not finish in time, or the frame cannot be drawn.
    pub fn start(&mut self) -> Result<&mut Self, HeadlessError> {
        self.runtime.start();
        self.settle()
    }

    /// Press each key in turn, each one's work awaited, then draw: a character, or `\t` Tab,
    /// `\n` Enter, `\x1b` Esc.
    ///
    /// # Errors
    /// When a worker does not answer in time, or the frame cannot be drawn.
    pub fn press(&mut self, keys: &str) -> Result<&mut Self, HeadlessError> {
        for c in keys.chars() {
            let code = match c {
                '\t' => KeyCode::Tab,
                '\n' => KeyCode::Enter,
                '\u{1b}' => KeyCode::Esc,
                c => KeyCode::Char(c),
            };
            self.handle_key(code);
            self.wait()?;
        }
        self.draw()
    }

    /// Press a key that is not a character (Backspace, an arrow), await its work and draw.
    ///
    /// # Errors
    /// When a worker does not answer in time, or the frame cannot be drawn.
    pub fn press_code(&mut self, code: KeyCode) -> Result<&mut Self, HeadlessError> {
        self.handle_key(code);
        self.settle()
    }

    /// Hand one key to the app, and nothing more: no wait for its work, no frame. Whether it
    /// meant anything in the mode the app is in.
    pub fn handle_key(&mut self, code: KeyCode) -> bool {
        self.runtime.handle(&key(code))
    }

    /// Give the app a message, as a worker or the signal watcher would, and draw.
    ///
    /// # Errors
    /// When the frame cannot be drawn.
    pub fn send(&mut self, msg: Msg) -> Result<&mut Self, HeadlessError> {
        self.runtime.dispatch(msg);
        self.draw()
    }

    /// Take in every answer the app waits for, then draw.
    ///
    /// # Errors
    /// When a worker does not answer in time, or the frame cannot be drawn.
    pub fn settle(&mut self) -> Result<&mut Self, HeadlessError> {
        self.wait()?;
        self.draw()
    }

    /// Draw a frame.
    ///
    /// # Errors
    /// When the terminal cannot be drawn on.
    pub fn draw(&mut self) -> Result<&mut Self, HeadlessError> {
        self.runtime.draw()?;
        Ok(self)
    }

    fn wait(&mut self) -> Result<(), HeadlessError> {
        if self.runtime.settle(self.patience) {
            Ok(())
        } else {
            Err(HeadlessError::Unanswered(self.patience))
        }
    }
}

/// A key pressed with no modifier, as the terminal reports it.
pub fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// A `TestBackend` terminal of `width` × `height`.
pub fn test_terminal(width: u16, height: u16) -> Terminal<TestBackend> {
    match Terminal::new(TestBackend::new(width, height)) {
        Ok(terminal) => terminal,
        Err(never) => match never {},
    }
}
