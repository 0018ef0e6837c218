//! The terminal for the length of the app: raw mode and the alternate screen through ratatui
//! (whose panic hook restores them), the mouse reporting the app may turn on, a panic hook
//! chained in front of ratatui's that also turns the mouse off, and what the app does on the
//! terminal outside its frames ([`Handover`]): stepping off it while the person's editor runs,
//! and the clipboard through OSC 52.
//!
//! A worker thread's panic is caught by the worker and shown in the app, so the hook lets it
//! pass without restoring the terminal or printing over the screen; only a panic on the UI
//! thread ends the session.

use std::io::{self, Stdout, Write, stdout};
use std::process::{Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, ThreadId};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{EnterAlternateScreen, enable_raw_mode};

use base64::Engine as _;

use super::runtime::{MouseSwitch, Outside};

/// Whether the app holds the terminal now.
static OPEN: AtomicBool = AtomicBool::new(false);

/// The terminal is set up for the app while this lives; dropping it restores the terminal, on
/// every path out.
pub struct Session(());

impl Session {
    /// The terminal in raw mode on the alternate screen, for the runtime to draw on.
    ///
    /// # Errors
    /// When the terminal cannot be put in raw mode or the alternate screen.
    pub fn open() -> io::Result<(Self, DefaultTerminal)> {
        match ratatui::try_init() {
            Ok(terminal) => {
                chain_panic_hook(thread::current().id());
                OPEN.store(true, Ordering::SeqCst);
                Ok((Self(()), terminal))
            }
            Err(error) => {
                ratatui::restore();
                Err(error)
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = execute!(stdout(), DisableMouseCapture);
        ratatui::restore();
        OPEN.store(false, Ordering::SeqCst);
    }
}

/// Restore the terminal from outside the UI thread, saying nothing: the terminal may be gone,
/// and a sentence written to it would fail (`ratatui::restore` would then panic in `eprintln!`).
/// Only the signal watcher does, and only unix has signals to watch.
#[cfg(unix)]
pub fn restore_from_elsewhere() {
    let _ = execute!(stdout(), DisableMouseCapture);
    let _ = ratatui::try_restore();
}

fn chain_panic_hook(ui_thread: ThreadId) {
    let ratatuis = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if OPEN.load(Ordering::SeqCst) && thread::current().id() != ui_thread {
            return;
        }
        let _ = execute!(stdout(), DisableMouseCapture);
        ratatuis(info);
    }));
}

/// The real terminal's outside: a program run in the foreground gets the terminal as the shell
/// would give it (the main screen, cooked mode), and the app takes it back after, whatever the
/// program did; the clipboard is written with OSC 52, which terminals honour over SSH and tmux
/// passes on with `set-clipboard`.
pub struct Handover;

impl Outside for Handover {
    fn run(&mut self, command: &mut Command) -> io::Result<ExitStatus> {
        ratatui::try_restore()?;
        let status = command.status();
        // Taken back even when the program could not start.
        enable_raw_mode()?;
        execute!(stdout(), EnterAlternateScreen)?;
        status
    }

    fn copy(&mut self, text: &str) -> io::Result<()> {
        let mut out = stdout();
        out.write_all(osc52(text).as_bytes())?;
        out.flush()
    }
}

/// The sequence that puts `text` on the clipboard: base64, so nothing in it reaches the
/// terminal as a control character.
fn osc52(text: &str) -> String {
    let payload = base64::engine::general_purpose::STANDARD.encode(text);
    format!("\x1b]52;c;{payload}\x07")
}

/// Mouse reporting on the real terminal, turned off again when dropped.
pub struct MouseCapture {
    out: Stdout,
    on: bool,
}

impl MouseCapture {
    /// # Errors
    /// When the terminal refuses the mouse.
    pub fn new(on: bool) -> io::Result<Self> {
        let mut capture = Self {
            out: stdout(),
            on: false,
        };
        capture.set(on)?;
        Ok(capture)
    }
}

impl MouseSwitch for MouseCapture {
    fn set(&mut self, on: bool) -> io::Result<()> {
        if on {
            execute!(self.out, EnableMouseCapture)?;
        } else {
            execute!(self.out, DisableMouseCapture)?;
        }
        self.on = on;
        Ok(())
    }
}

impl Drop for MouseCapture {
    fn drop(&mut self) {
        if self.on {
            let _ = execute!(self.out, DisableMouseCapture);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn the_clipboard_gets_base64_whatever_the_path_holds() {
        assert_eq!(osc52("/a b"), "\x1b]52;c;L2EgYg==\x07");
        let hostile = osc52("/x\x1b]0;pwned\x07/y");
        let payload = &hostile[7..hostile.len() - 1];
        assert!(
            payload
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+/=".contains(c)),
            "{hostile:?}"
        );
    }

    #[test]
    fn a_worker_panic_leaves_the_terminal_alone_and_a_ui_panic_restores_it() {
        let previous = std::panic::take_hook();
        // Stands in for ratatui's hook, which restores the terminal.
        let restored = Arc::new(AtomicUsize::new(0));
        let count = Arc::clone(&restored);
        std::panic::set_hook(Box::new(move |_| {
            count.fetch_add(1, Ordering::SeqCst);
        }));
        chain_panic_hook(thread::current().id());
        OPEN.store(true, Ordering::SeqCst);

        let worker = thread::spawn(|| panic!("a worker's bug")).join();
        let after_worker = restored.load(Ordering::SeqCst);
        let ui = std::panic::catch_unwind(|| panic!("a bug on the UI thread"));
        let after_ui = restored.load(Ordering::SeqCst);

        OPEN.store(false, Ordering::SeqCst);
        std::panic::set_hook(previous);
        assert!(worker.is_err() && ui.is_err());
        assert_eq!(after_worker, 0, "a worker's panic restored the terminal");
        assert_eq!(
            after_ui, 1,
            "a panic on the UI thread did not restore the terminal"
        );
    }
}
