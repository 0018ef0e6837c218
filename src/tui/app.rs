//! The app's state: what was found, what is shown of it (search, filters, sort, selection), what
//! has the keyboard, and what is under way. `update` changes it; the views only read it.

use std::path::PathBuf;

use crate::record::State;
use crate::roots::{AgentId, Source};

use crate::scan::Progress;

use super::keymap::Mode;
use super::model::{Deck, SkillView, Sort};
use super::msg::Pane;
use super::theme::Theme;

/// What the app is opened with.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    /// A line shown in the header about what is being looked at (the demo says it is one).
    pub banner: Option<String>,
    pub mouse: bool,
    pub theme: Theme,
}

/// Which screen is up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Screen {
    #[default]
    Skills,
    Roots,
}

/// What is drawn over the screen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Overlay {
    #[default]
    None,
    Help,
    /// Something went wrong that the person should read before going on.
    Message(String),
}

/// Which skills are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub source: Option<Source>,
    pub agent: Option<AgentId>,
    pub state: Option<State>,
}

/// The search line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Search {
    pub query: String,
    /// The line has the keyboard.
    pub typing: bool,
    /// The query before typing began, put back when the search is cancelled.
    pub before: String,
}

/// Where the scan is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scan {
    #[default]
    NotStarted,
    Running(Progress),
    Done,
}

/// The `SKILL.md` shown in the preview pane.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Preview {
    #[default]
    Empty,
    Loading(PathBuf),
    Text {
        dir: PathBuf,
        lines: Vec<String>,
    },
    Failed {
        dir: PathBuf,
        reason: String,
    },
}

/// A short note in the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    pub warning: bool,
}

/// How much of each pane the last frame showed, which paging and scrolling need. The runtime
/// copies it from the view after each draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Viewport {
    pub list_rows: usize,
    pub roots_rows: usize,
    pub detail_rows: usize,
    /// The furthest the pane can scroll with its text and width.
    pub detail_max: usize,
    pub preview_rows: usize,
    pub preview_max: usize,
    pub help_rows: usize,
    pub help_max: usize,
}

/// The whole state of the app.
#[derive(Clone, Debug, Default)]
pub struct App {
    pub deck: Deck,
    /// Indexes into `deck.skills` of the skills shown, in the order shown.
    pub visible: Vec<usize>,
    /// Index into `visible`.
    pub selected: usize,
    pub filter: Filter,
    pub sort: Sort,
    pub search: Search,
    pub screen: Screen,
    pub focus: Pane,
    pub overlay: Overlay,
    pub root_selected: usize,
    pub detail_scroll: usize,
    pub preview_scroll: usize,
    pub help_scroll: usize,
    pub scan: Scan,
    pub preview: Preview,
    /// Counts the previews read, so a wrapped copy of an older one is never shown.
    pub preview_version: u64,
    pub status: Option<Status>,
    pub mouse: bool,
    pub banner: Option<String>,
    pub theme: Theme,
    pub viewport: Viewport,
    pub running: bool,
}

impl App {
    pub fn new(setup: Setup) -> Self {
        Self {
            banner: setup.banner,
            mouse: setup.mouse,
            theme: setup.theme,
            running: true,
            ..Self::default()
        }
    }

    /// Which keys apply now.
    pub fn mode(&self) -> Mode {
        match (&self.overlay, self.screen) {
            (Overlay::Message(_), _) => Mode::Message,
            (Overlay::Help, _) => Mode::Help,
            (Overlay::None, Screen::Roots) => Mode::Roots,
            (Overlay::None, Screen::Skills) if self.search.typing => Mode::Search,
            (Overlay::None, Screen::Skills) => Mode::Skills,
        }
    }

    /// The skill under the cursor.
    pub fn selected_skill(&self) -> Option<&SkillView> {
        self.visible
            .get(self.selected)
            .map(|&index| &self.deck.skills[index])
    }

    /// Whether a worker's answer is awaited, so the runtime should look for it soon.
    pub fn waiting(&self) -> bool {
        matches!(self.scan, Scan::Running(_)) || matches!(self.preview, Preview::Loading(_))
    }

    /// Whether anything narrows the list.
    pub fn is_narrowed(&self) -> bool {
        self.filter != Filter::default() || !self.search.query.is_empty()
    }

    /// Take the deck of a new scan, keeping the selected skill selected when it is still there.
    pub fn replace_deck(&mut self, deck: Deck) {
        let keep = self.selected_skill().map(|s| s.dir.clone());
        self.deck = deck;
        self.refresh_keeping(keep);
        self.root_selected = self
            .root_selected
            .min(self.deck.roots.len().saturating_sub(1));
    }

    /// Work out `visible` again after the search, a filter or the sort changed, keeping the
    /// selected skill selected when it is still shown.
    pub fn refresh(&mut self) {
        let keep = self.selected_skill().map(|s| s.dir.clone());
        self.refresh_keeping(keep);
    }

    fn refresh_keeping(&mut self, keep: Option<PathBuf>) {
        let query = self.search.query.to_lowercase();
        let filter = self.filter;
        let skills = &self.deck.skills;
        // The deck comes ordered every way already (on the scan worker), so no key sorts.
        self.visible = self
            .deck
            .order(self.sort)
            .iter()
            .copied()
            .filter(|&i| shows(&skills[i], &filter, &query))
            .collect();
        self.selected = keep
            .and_then(|dir| {
                self.visible
                    .iter()
                    .position(|&i| self.deck.skills[i].dir == dir)
            })
            .unwrap_or(0);
    }
}

fn shows(skill: &SkillView, filter: &Filter, query: &str) -> bool {
    filter.source.is_none_or(|s| skill.source == s)
        && filter.state.is_none_or(|s| skill.state == s)
        && filter.agent.is_none_or(|a| skill.agents.contains(&a))
        && (query.is_empty() || skill.search_key.contains(query))
}
