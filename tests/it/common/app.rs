//! The app driven as the tests and the screenshots see it: its real runtime (scan, SKILL.md
//! and task workers included) on a `TestBackend`, keys pressed one by one, every worker's
//! answer awaited before the screen is read.

use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use skilldeck::demo::Sandbox;
use skilldeck::roots;
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::msg::Msg;
use skilldeck::tui::runtime::{NoMouse, Runtime};
use skilldeck::tui::theme::Theme;

pub const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];
pub const PATIENCE: Duration = Duration::from_secs(30);

pub fn settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots/tui");
    settings.set_prepend_module_to_snapshot(false);
    settings.add_filter(r"skilldeck-demo-[A-Za-z0-9]{6}", "skilldeck-demo-XXXXXX");
    settings.add_filter(r"\.tmp[A-Za-z0-9]{6}", ".tmpXXXXXX");
    settings.add_filter(r"sha256:[0-9a-f]{12}", "sha256:[digest12]");
    // A snapshot's id is the time it was taken and the start of its digest.
    settings.add_filter(r"\d{8}-\d{6}-\d{3}-[0-9a-f]{6}", "[snapshot-id]");
    settings.add_filter(r"[0-9a-f]{16,}", "[hex]");
    settings
}

/// The app on a machine, with its first scan and preview done.
pub struct Screen {
    pub runtime: Runtime<TestBackend>,
}

impl Screen {
    pub fn open(machine: roots::Machine, setup: Setup, (width, height): (u16, u16)) -> Self {
        let terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        let app = App::new(setup);
        let mut runtime = Runtime::new(terminal, app, machine, Box::new(NoMouse)).unwrap();
        runtime.start();
        assert!(runtime.settle(PATIENCE), "the scan did not finish");
        runtime.draw().unwrap();
        Self { runtime }
    }

    /// Press each key in turn: a character, or `\t` Tab, `\n` Enter, `\x1b` Esc.
    pub fn press(&mut self, keys: &str) -> &mut Self {
        for c in keys.chars() {
            let code = match c {
                '\t' => KeyCode::Tab,
                '\n' => KeyCode::Enter,
                '\u{1b}' => KeyCode::Esc,
                c => KeyCode::Char(c),
            };
            self.runtime
                .handle(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
            assert!(self.runtime.settle(PATIENCE), "a worker did not answer");
        }
        self.runtime.draw().unwrap();
        self
    }

    /// Press a key that is not a character (Backspace, an arrow).
    pub fn press_code(&mut self, code: KeyCode) -> &mut Self {
        self.runtime
            .handle(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        assert!(self.runtime.settle(PATIENCE), "a worker did not answer");
        self.runtime.draw().unwrap();
        self
    }

    pub fn send(&mut self, msg: Msg) -> &mut Self {
        self.runtime.dispatch(msg);
        self.runtime.draw().unwrap();
        self
    }

    pub fn backend(&self) -> &TestBackend {
        self.runtime.terminal().backend()
    }

    pub fn buffer(&self) -> &Buffer {
        self.backend().buffer()
    }

    pub fn text(&self) -> String {
        self.backend().to_string()
    }
}

pub fn demo_machine(sandbox: &Sandbox) -> roots::Machine {
    sandbox.machine()
}

pub fn demo(size: (u16, u16)) -> (Sandbox, Screen) {
    demo_with(size, Theme::colored())
}

pub fn demo_with(size: (u16, u16), theme: Theme) -> (Sandbox, Screen) {
    let sandbox = Sandbox::create().unwrap();
    let setup = Setup {
        banner: Some(sandbox.banner()),
        mouse: false,
        theme,
        work_dir: "~/src/acme-app".to_owned(),
    };
    let screen = Screen::open(demo_machine(&sandbox), setup, size);
    (sandbox, screen)
}
