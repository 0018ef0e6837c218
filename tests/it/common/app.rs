//! The app driven as the tests see it: the library's headless driver (its real runtime, workers
//! included, on a `TestBackend`), failing the test where the driver reports an error, and the
//! demo machine and insta settings the screen tests share.

use std::ops::{Deref, DerefMut};

use ratatui::crossterm::event::KeyCode;

use skilldeck::demo::Sandbox;
use skilldeck::roots;
use skilldeck::tui::app::Setup;
use skilldeck::tui::headless::Headless;
use skilldeck::tui::msg::Msg;
use skilldeck::tui::theme::Theme;

pub use skilldeck::tui::headless::PATIENCE;

pub const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

pub fn settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    // One folder whichever area's file asserts (insta reads a relative path from the file's).
    settings.set_snapshot_path(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/it/tui/snapshots"
    ));
    settings.set_prepend_module_to_snapshot(false);
    settings.add_filter(r"skilldeck-demo-[A-Za-z0-9]{6}", "skilldeck-demo-XXXXXX");
    settings.add_filter(r"\.tmp[A-Za-z0-9]{6}", ".tmpXXXXXX");
    settings.add_filter(r"sha256:[0-9a-f]{12}", "sha256:[digest12]");
    // A snapshot's id is the time it was taken and the start of its digest.
    // (or its start, wherever the screen's edge cuts it)
    settings.add_filter(
        r"\d{8}-\d{6}-\d{3}-[0-9a-f]{0,6}|\d{8}-\d{0,6}(?:-\d{0,3})?",
        "[snapshot-id]",
    );
    settings.add_filter(r"[0-9a-f]{16,}", "[hex]");
    settings
}

/// The app on a machine, with its first scan and preview done.
pub struct Screen(Headless);

impl Screen {
    pub fn open(machine: roots::Machine, setup: Setup, size: (u16, u16)) -> Self {
        Self(Headless::open(machine, setup, size).unwrap())
    }

    /// Press each key in turn: a character, or `\t` Tab, `\n` Enter, `\x1b` Esc.
    pub fn press(&mut self, keys: &str) -> &mut Self {
        self.0.press(keys).unwrap();
        self
    }

    /// Press a key that is not a character (Backspace, an arrow).
    pub fn press_code(&mut self, code: KeyCode) -> &mut Self {
        self.0.press_code(code).unwrap();
        self
    }

    pub fn send(&mut self, msg: Msg) -> &mut Self {
        self.0.send(msg).unwrap();
        self
    }
}

impl Deref for Screen {
    type Target = Headless;

    fn deref(&self) -> &Headless {
        &self.0
    }
}

impl DerefMut for Screen {
    fn deref_mut(&mut self) -> &mut Headless {
        &mut self.0
    }
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
    let screen = Screen::open(sandbox.machine(), setup, size);
    (sandbox, screen)
}

/// Answer each audit among `effects` as its worker would of skills with nothing found, so an
/// app driven by messages alone is not left waiting for it.
pub fn audited(app: &mut skilldeck::tui::app::App, effects: Vec<skilldeck::tui::msg::Effect>) {
    for effect in effects {
        if let skilldeck::tui::msg::Effect::Audit { request, skills } = effect {
            let found = skills
                .into_iter()
                .map(|(_, dir)| (dir, Default::default()))
                .collect();
            skilldeck::tui::update::update(app, Msg::Audited { request, found });
        }
    }
}
