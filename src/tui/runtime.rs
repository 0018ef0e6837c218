//! The loop that runs the app: input and worker messages in, `update`, effects out, and a
//! redraw only when something was handled. It is generic over the backend and the source of
//! events, so tests and the benchmark drive the same code with `TestBackend` and scripted keys.
//!
//! One thread reads input (`poll` with a timeout) and drains the workers' channel; no other
//! thread touches the terminal. While a worker's answer is awaited the poll is short, so a
//! preview shows up at once; otherwise the loop sleeps until a key arrives.
//!
//! Two effects need the terminal itself rather than a frame: the person's editor, which gets
//! the terminal for as long as it runs (the app steps off it and comes back, as lazygit does),
//! and the clipboard, reached with OSC 52. Both go through an [`Outside`], so a test's backend
//! runs the editor with no terminal to hand over.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant, SystemTime};

use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::{self, Event};

use super::app::App;
use super::editor::EditorFailed;
use super::keymap;
use super::mouse;
use super::msg::{Effect, Msg};
use super::update::update;
use super::view;
use super::views::View;
use super::workers::import::{ImportSession, spawn_import};
use super::workers::watch;
use super::workers::{self, history, manage, tasks};
use crate::live::Watcher;
use crate::operations::import::Request;
use crate::operations::paths;
use crate::operations::progress::Cancel;
use crate::roots::Machine;

/// The poll timeout while a worker's answer is awaited.
const WAITING: Duration = Duration::from_millis(15);
/// The poll timeout otherwise; nothing needs the loop until input arrives.
const IDLE: Duration = Duration::from_secs(5);
/// The poll timeout while the files are watched: the terminal's poll cannot be woken by the
/// watcher's message, so the loop looks for it this often (a wake-up costs microseconds).
const LIVE: Duration = Duration::from_millis(50);
/// How often a screen that shows relative times is drawn again with no key pressed.
const CLOCK: Duration = Duration::from_secs(1);
/// Input events handled before a frame is drawn, so a held key cannot starve the screen.
const BURST: usize = 64;

/// Where input comes from.
pub trait Events {
    /// The next event, waiting at most `timeout`.
    ///
    /// # Errors
    /// When the terminal cannot be read.
    fn next(&mut self, timeout: Duration) -> io::Result<Option<Event>>;
}

/// The terminal's own input.
pub struct TerminalEvents;

impl Events for TerminalEvents {
    fn next(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
        if event::poll(timeout)? {
            event::read().map(Some)
        } else {
            Ok(None)
        }
    }
}

/// Turning the terminal's mouse reporting on and off.
pub trait MouseSwitch {
    /// # Errors
    /// When the terminal refuses.
    fn set(&mut self, on: bool) -> io::Result<()>;
}

/// For a backend that has no mouse to switch.
pub struct NoMouse;

impl MouseSwitch for NoMouse {
    fn set(&mut self, _on: bool) -> io::Result<()> {
        Ok(())
    }
}

/// What the app asks of the terminal besides frames.
pub trait Outside {
    /// Run `command` in the foreground with the terminal handed to it, then take it back.
    ///
    /// # Errors
    /// When the command cannot be started, or the terminal cannot be taken back.
    fn run(&mut self, command: &mut Command) -> io::Result<ExitStatus>;

    /// Put `text` on the terminal's clipboard.
    ///
    /// # Errors
    /// When the terminal cannot be written to.
    fn copy(&mut self, text: &str) -> io::Result<()>;
}

/// For a backend with no terminal behind it: the command runs with nothing to read or write
/// to, and there is no clipboard to copy to.
pub struct Detached;

impl Outside for Detached {
    fn run(&mut self, command: &mut Command) -> io::Result<ExitStatus> {
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
    }

    fn copy(&mut self, _text: &str) -> io::Result<()> {
        Ok(())
    }
}

pub struct Runtime<B: Backend> {
    terminal: Terminal<B>,
    app: App,
    machine: Machine,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    previews: Sender<PathBuf>,
    mouse: Box<dyn MouseSwitch>,
    outside: Box<dyn Outside>,
    /// The import under way, if one is.
    import: Option<ImportSession>,
    /// The batch under way and the flag that stops it, if one is.
    batch: Option<(u64, Cancel)>,
    /// The update under way, if one is.
    update: Option<workers::update::UpdateSession>,
    /// The watch on the skills' files, when the app is live.
    watcher: Option<Watcher>,
    /// When the last frame was drawn.
    drawn: Instant,
}

impl<B: Backend> Runtime<B> {
    /// # Errors
    /// When the `SKILL.md` reader thread cannot be started.
    pub fn new(
        terminal: Terminal<B>,
        app: App,
        machine: Machine,
        mouse: Box<dyn MouseSwitch>,
    ) -> io::Result<Self> {
        let (tx, rx) = mpsc::channel();
        let previews = workers::spawn_preview_reader(tx.clone())?;
        Ok(Self {
            terminal,
            app,
            machine,
            tx,
            rx,
            previews,
            mouse,
            outside: Box::new(Detached),
            import: None,
            batch: None,
            update: None,
            watcher: None,
            drawn: Instant::now(),
        })
    }

    /// The same runtime, live: the skills' files are watched, and a skill that changes is
    /// scanned again on its own. Before [`Runtime::start`], so the first scan is watched.
    ///
    /// # Errors
    /// When the watching thread cannot be started.
    pub fn live(mut self) -> io::Result<Self> {
        self.watcher = Some(watch::start(self.tx.clone())?);
        Ok(self)
    }

    /// The same runtime, with the editor and the clipboard going through `outside`.
    #[must_use]
    pub fn with_outside(mut self, outside: Box<dyn Outside>) -> Self {
        self.outside = outside;
        self
    }

    pub fn app(&self) -> &App {
        &self.app
    }

    /// Where messages to the app are sent from other threads (the signal watcher's).
    pub fn sender(&self) -> Sender<Msg> {
        self.tx.clone()
    }

    pub fn terminal(&self) -> &Terminal<B> {
        &self.terminal
    }

    /// Run until the app quits.
    ///
    /// # Errors
    /// When the terminal cannot be read or drawn on.
    pub fn run(&mut self, events: &mut impl Events) -> io::Result<()> {
        self.start();
        self.draw()?;
        while self.app.running {
            self.turn(events)?;
        }
        Ok(())
    }

    /// One turn of the loop: wait for input (no longer than what is awaited allows), handle
    /// it and the workers' messages, and draw if anything changed.
    ///
    /// # Errors
    /// When the terminal cannot be read or drawn on.
    pub fn turn(&mut self, events: &mut impl Events) -> io::Result<()> {
        let timeout = if self.app.waiting() {
            WAITING
        } else if self.watcher.is_some() {
            LIVE
        } else if self.app.views.is_open(View::History) {
            CLOCK
        } else {
            IDLE
        };
        let mut changed = false;
        if let Some(event) = events.next(timeout)? {
            changed |= self.handle(&event);
            for _ in 1..BURST {
                match events.next(Duration::ZERO)? {
                    Some(event) if self.app.running => changed |= self.handle(&event),
                    _ => break,
                }
            }
        }
        changed |= self.pump();
        // Relative times on screen ("3 min ago") age with no key pressed.
        changed |= self.app.views.is_open(View::History) && self.drawn.elapsed() >= CLOCK;
        if changed && self.app.running {
            self.draw()?;
        }
        Ok(())
    }

    /// Open the app: the scan starts.
    pub fn start(&mut self) {
        self.dispatch(Msg::Started);
    }

    /// Handle one input event; whether it meant anything.
    pub fn handle(&mut self, event: &Event) -> bool {
        let msg = match event {
            Event::Key(_) => event
                .as_key_press_event()
                .and_then(|key| keymap::resolve(self.app.mode(), &key))
                .map(Msg::Action),
            Event::Mouse(m) if self.app.mouse => mouse::translate(&self.app, m),
            Event::Resize(..) => Some(Msg::Resized),
            _ => None,
        };
        match msg {
            Some(msg) => {
                self.dispatch(msg);
                true
            }
            None => false,
        }
    }

    /// Handle every message the workers have sent; whether there was any.
    pub fn pump(&mut self) -> bool {
        let mut any = false;
        while let Ok(msg) = self.rx.try_recv() {
            self.dispatch(msg);
            any = true;
        }
        any
    }

    /// Wait up to `timeout` for one worker message and handle it with any that follow.
    pub fn pump_waiting(&mut self, timeout: Duration) -> bool {
        match self.rx.recv_timeout(timeout) {
            Ok(msg) => {
                self.dispatch(msg);
                self.pump();
                true
            }
            Err(_) => false,
        }
    }

    /// Handle the workers' messages until no answer is awaited, or `limit` has passed; whether
    /// they all came.
    pub fn settle(&mut self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        while self.app.waiting() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            self.pump_waiting(left);
        }
        true
    }

    /// Draw a frame, and tell the app, as a message, where it put each pane.
    ///
    /// # Errors
    /// When the terminal cannot be drawn on.
    pub fn draw(&mut self) -> io::Result<()> {
        // The clock relative times are said against is the time of this frame.
        self.dispatch(Msg::Tick(SystemTime::now()));
        self.drawn = Instant::now();
        let app = &self.app;
        let mut laid = None;
        self.terminal
            .draw(|frame| laid = Some(view::draw(frame, app)))
            .map_err(|error| io::Error::other(error.to_string()))?;
        if let Some(laid) = laid {
            self.dispatch(Msg::Laid(Box::new(laid)));
        }
        Ok(())
    }

    /// Apply a message and carry out what it asks for.
    pub fn dispatch(&mut self, msg: Msg) {
        for effect in update(&mut self.app, msg) {
            self.carry_out(effect);
        }
    }

    fn carry_out(&mut self, effect: Effect) {
        let (machine, tx) = (&self.machine, self.tx.clone());
        match effect {
            Effect::StartScan => workers::spawn_scan(machine.clone(), tx, self.watcher.clone()),
            Effect::Rescan { dirs } => watch::rescan(machine, tx, self.watcher.clone(), dirs),
            Effect::ReadPreview(dir) => {
                let _ = self.previews.send(dir);
            }
            Effect::ReadFile { request, dir, file } => {
                workers::viewer::read(tx, request, dir, file);
            }
            Effect::Edit(file) => {
                let result = self.edit(&file);
                self.dispatch(Msg::Edited(result));
            }
            Effect::Copy(text) => {
                if let Err(error) = self.outside.copy(&text) {
                    let _ = tx.send(Msg::Failed(format!(
                        "The path could not be copied: the terminal refused it ({error})."
                    )));
                }
            }
            Effect::SetMouse(on) => {
                if let Err(error) = self.mouse.set(on) {
                    let _ = tx.send(Msg::Failed(format!(
                        "The terminal refused the mouse: {error}"
                    )));
                }
            }
            Effect::ComputeDiff {
                request,
                name,
                dir,
                pristine,
            } => tasks::diff(machine, tx, request, name, dir, pristine),
            Effect::TakeSnapshot { name, dir } => tasks::snapshot(machine, tx, name, dir, false),
            Effect::Accept { name, dir } => tasks::snapshot(machine, tx, name, dir, true),
            Effect::Restore {
                name,
                dir,
                snapshot,
            } => tasks::restore(machine, tx, name, dir, snapshot),
            Effect::Export {
                name,
                dir,
                to,
                numbered,
            } => tasks::export(machine, tx, name, dir, to, numbered),
            Effect::Browse { request, dir } => {
                // A path typed into the picker may start with `~/`.
                let dir = dir.map(|dir| paths::typed(machine, &dir));
                tasks::browse(machine, tx, request, dir);
            }
            Effect::ReadBundle { session, source } => {
                // The worker reads what was typed: a path from the project folder, or a
                // repository's name.
                // A session before this one is let go (and stopped) as it is replaced.
                self.import = Some(spawn_import(machine, tx, session, source));
            }
            Effect::Install {
                session,
                root,
                skills,
                force,
                accept_risk,
            } => {
                if let Some(import) = self.import.as_ref().filter(|i| i.session == session) {
                    // Whose shadowing is weighed: the agents the app shows.
                    let all_agents = self.app.all_agents;
                    let request = Request {
                        skills,
                        force,
                        all_agents,
                        accept_risk,
                    };
                    import.install(root, request);
                }
            }
            Effect::CancelImport { session } => {
                if self.import.as_ref().is_some_and(|i| i.session == session) {
                    self.import = None;
                }
            }
            Effect::Run(batch) => {
                let id = batch.id;
                self.batch = Some((id, manage::run(machine, tx, batch)));
            }
            Effect::StopBatch { id } => {
                if let Some((_, stop)) = self.batch.as_ref().filter(|(b, _)| *b == id) {
                    stop.cancel();
                }
            }
            Effect::Plan {
                request,
                to,
                skills,
            } => manage::plan(machine, tx, request, to, skills),
            Effect::ReadHistory { request, dir } => history::read(machine, tx, request, dir),
            Effect::DiffSnapshots {
                request,
                name,
                dir,
                old,
                new,
            } => history::diff(machine, tx, request, name, dir, (old, new)),
            Effect::DeleteSnapshot {
                name,
                dir,
                snapshot,
            } => history::delete(machine, tx, name, dir, snapshot),
            Effect::AskUndo => manage::ask_undo(machine, tx),
            Effect::Undo => manage::undo(machine, tx),
            Effect::ReadUpdate { session, skills } => {
                // A session before this one is let go (and stopped) as it is replaced.
                self.update = Some(workers::update::spawn_update(machine, tx, session, skills));
            }
            Effect::ApplyUpdate {
                session,
                settled,
                yes,
            } => {
                if let Some(update) = self.update.as_ref().filter(|u| u.session == session) {
                    update.apply(settled, yes);
                }
            }
            Effect::CancelUpdate { session } => {
                if self.update.as_ref().is_some_and(|u| u.session == session) {
                    self.update = None;
                }
            }
            Effect::CheckUpstreams => workers::update::check(machine, tx),
            Effect::Audit { request, skills } => workers::audit::spawn_audit(tx, request, skills),
        }
    }
}

impl<B: Backend> Runtime<B> {
    /// Hand the terminal to the person's editor on `file` and take it back: the mouse is let
    /// go while the editor runs, and the whole screen is drawn again after it. An editor that
    /// does not start is a sentence; the terminal comes back either way.
    fn edit(&mut self, file: &Path) -> Result<(), EditorFailed> {
        let editor = editor();
        let mut command = editor_command(&editor, file);
        if self.app.mouse {
            let _ = self.mouse.set(false);
        }
        let ran = self.outside.run(&mut command);
        if self.app.mouse {
            let _ = self.mouse.set(true);
        }
        // What the editor drew is on the screen the app draws on: all of it is drawn again.
        let _ = self.terminal.clear();
        match ran {
            Err(source) => Err(EditorFailed::NotStarted { editor, source }),
            // The shell's own code for a command it cannot find or run.
            Ok(status) if matches!(status.code(), Some(126 | 127)) => {
                Err(EditorFailed::NotFound { editor })
            }
            Ok(status) if !status.success() => Err(EditorFailed::Failed { editor, status }),
            Ok(_) => Ok(()),
        }
    }
}

/// The person's editor: `$VISUAL`, else `$EDITOR`, else `vi`, as git and lazygit choose it.
fn editor() -> String {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.trim().is_empty())
        .unwrap_or_else(|| "vi".to_owned())
}

/// The editor run on `file` through the shell, as git runs it, so an editor set with its
/// arguments (`code --wait`) works; the file is an argument, never part of the shell's text.
fn editor_command(editor: &str, file: &Path) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("{editor} \"$@\""))
        .arg(editor)
        .arg(file);
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_editor_that_failed_is_named_display_safe() {
        let missing = EditorFailed::NotFound {
            editor: "vi\u{1b}[2J --x".to_owned(),
        };
        assert_eq!(
            missing.to_string(),
            "The editor (vi --x) could not be started: the shell found no such program. Set $VISUAL or $EDITOR to the editor you use."
        );
        let unstarted = EditorFailed::NotStarted {
            editor: "ed".to_owned(),
            source: io::Error::other("no shell"),
        };
        assert!(
            unstarted
                .to_string()
                .starts_with("The editor (ed) could not be started: no shell."),
            "{unstarted}"
        );
    }
}
