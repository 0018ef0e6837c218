//! The README's pictures of the app, drawn by the app's own code on the demo machine: each is
//! the `TestBackend` buffer after a few keys, turned into SVG and rasterised to PNG by resvg
//! with the DejaVu Sans Mono shipped in `fonts/` beside it (so the pictures are the same on
//! every machine and need no system fonts).
//!
//! Run: `cargo run --release -p screenshots`
//! It writes the repository's `screenshots/*.png`.

mod svg;

use std::error::Error;
use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

use resvg::{tiny_skia, usvg};

use skilldeck::demo::Sandbox;
use skilldeck::roots::Machine;
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::headless::{self, Headless};
use skilldeck::tui::theme::Theme;

const WIDTH: u16 = 120;
const HEIGHT: u16 = 36;
/// How long the demo's workers are waited for: a release build on a slow machine included.
const PATIENCE: Duration = Duration::from_secs(60);
/// Pixels per SVG unit, for a sharp picture on high-density screens.
const SCALE: f32 = 1.5;

/// Each picture: its file name and the keys pressed before it is taken (`\n` is Enter).
const SHOTS: &[(&str, &str)] = &[
    // The cursor on pdf-forms: an installer's record that matches, scripts that are executable.
    ("list", "jjjjjjjjj"),
    ("drifted", "d"),
    ("help", "?"),
    ("roots", "2"),
    // Who installed what: the plugin's skills, the edited one's untouched copy.
    ("installer", "ww"),
    ("changed", "3"),
    // code-review since its snapshot: a changed word in SKILL.md, two in checklist.md.
    ("diff", "3\n"),
    // code-review's history: three snapshots, the second selected.
    ("history", "3hj"),
    ("import", "i"),
    ("import-preview", "iteam\n"),
    // The import would replace the user's code-review: its diff first, y to go on.
    ("import-replace", "iteam\n\n\n"),
    // The two copies of code-review: which agent runs which, and the keys to resolve it.
    ("copies", "S"),
    // pdf-forms and release-notes marked with Space, and the one question removing both asks.
    ("batch", "jjjjjjjjj  x"),
    // release-notes, which Claude Code's settings turn off.
    ("turned-off", "O"),
    // pdf-forms's files, and its script read in the viewer.
    ("files", "jjjjjjjjjv"),
    ("reading", "jjjjjjjjjvj\n"),
    // A search that reads descriptions (no name says 'pull'): the query in the list's title.
    ("search", "/pull\n"),
    // What each agent's listing costs, Claude Code's budget cut so it drops the descriptions
    // of the skills it never used ([`over_budget`]); two of those marked with Space.
    ("budget", "Bjjjjjjjjjjjjjjj  "),
];

/// The Claude Code budget the budget picture is taken with, in characters: below what the
/// demo's listing takes, so Claude Code drops the descriptions of its least-used skills.
const BUDGET: &str = "5800";

/// The demo machine as the budget picture shows it: Claude Code's budget cut by its own
/// variable, and its usage counters saying which skills it ran and when (the ones it keeps
/// the descriptions of when over budget).
fn over_budget(machine: &mut Machine) -> Result<(), Box<dyn Error>> {
    let now = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH)?;
    let ago = |days: u64| (now.as_secs() - days * 86_400) * 1_000;
    let counters = format!(
        r#"{{"skillUsage": {{"code-review": {{"usageCount": 41, "lastUsedAt": {}}}, "pdf-forms": {{"usageCount": 6, "lastUsedAt": {}}}, "deploy-staging": {{"usageCount": 2, "lastUsedAt": {}}}}}}}"#,
        ago(1),
        ago(9),
        ago(45)
    );
    fs::write(machine.env.home().join(".claude.json"), counters)?;
    machine.env = machine
        .env
        .clone()
        .with_var("SLASH_COMMAND_TOOL_CHAR_BUDGET", BUDGET);
    Ok(())
}

const REGULAR: &[u8] = include_bytes!("../fonts/DejaVuSansMono.ttf");
const BOLD: &[u8] = include_bytes!("../fonts/DejaVuSansMono-Bold.ttf");

fn main() -> Result<(), Box<dyn Error>> {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../screenshots");
    fs::create_dir_all(&out)?;
    for (name, keys) in SHOTS {
        let sandbox = Sandbox::create()?;
        let setup = Setup {
            banner: Some("demo sandbox, deleted on exit".to_owned()),
            mouse: false,
            theme: Theme::colored(),
            work_dir: "~/src/acme-app".to_owned(),
        };
        let mut machine = sandbox.machine();
        if *name == "budget" {
            over_budget(&mut machine)?;
        }
        let mut screen = Headless::new(
            headless::test_terminal(WIDTH, HEIGHT),
            App::new(setup),
            machine,
        )?
        .patience(PATIENCE);
        screen.start()?.press(keys)?;
        let svg = svg::from_buffer(screen.buffer());
        let path = out.join(format!("{name}.png"));
        fs::write(&path, rasterise(&svg)?)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn rasterise(svg: &str) -> Result<Vec<u8>, Box<dyn Error>> {
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_font_data(REGULAR.to_vec());
    fonts.load_font_data(BOLD.to_vec());
    fonts.set_monospace_family(svg::FONT_FAMILY);
    options.font_family = svg::FONT_FAMILY.to_owned();
    let tree = usvg::Tree::from_str(svg, &options)?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(SCALE)
        .ok_or("the picture has no size")?;
    let mut pixmap =
        tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("the picture is too large")?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(SCALE, SCALE),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap.encode_png()?)
}
