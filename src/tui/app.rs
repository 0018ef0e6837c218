//! The app's state: what was found, what is shown of it (search, filters, sort, selection), what
//! has the keyboard, what is under way, and where the last frame put each pane. `update`
//! changes it; the views only read it.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::SystemTime;

use crate::operations::judged::Judged;
use crate::record::State;
use crate::roots::{AgentId, Source};

use crate::scan::Progress;

use super::budget::{BudgetView, UsageView, Uses};
use super::changes::ChangeView;
use super::diff::DiffView;
use super::geometry::{Geometry, WrappedPreview};
use super::history::{Clock, HistoryView, SnapshotRow};
use super::import::{Import, Step};
use super::keymap::Mode;
use super::line::LineEdit;
use super::manage::{Copies, Pick, Running, Summary, Target};
use super::model::{Deck, SkillView, Sort};
use super::msg::{Effect, Pane};
use super::theme::Theme;
use super::updating::Updating;
use super::upstreams::Upstreams;
use super::viewer::Viewer;

/// What the app is opened with.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    /// A line shown in the header about what is being looked at (the demo says it is one).
    pub banner: Option<String>,
    pub mouse: bool,
    pub theme: Theme,
    /// The folder the app works in, as shown (`~/src/app`): where an export goes unless
    /// another path is typed.
    pub work_dir: String,
}

/// Which screen is up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Screen {
    #[default]
    Skills,
    Roots,
    /// The skills that changed since their snapshots.
    Changed,
}

/// What is drawn over the screen. Messages are not among them: they have their own layer
/// above ([`App::messages`]), so one arriving never takes the place of what is open.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Overlay {
    #[default]
    None,
    Help,
    /// A question to answer before something is done.
    Confirm(Confirm),
    /// Where to export a skill to.
    Export(ExportPrompt),
    /// Which agent, or which scope, an action is for.
    Pick(Pick),
    /// What a batch did and what it refused.
    Summary(Summary),
}

/// A yes-or-no question; yes carries out `effect`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confirm {
    pub title: String,
    pub lines: Vec<String>,
    /// What the yes key does, in a word or two.
    pub yes: String,
    pub effect: Effect,
    /// A second question yes leads to, instead of `effect` (a plan that shadows asks again).
    pub then: Option<Box<Confirm>>,
}

/// The line where the archive to export a skill to is typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportPrompt {
    pub name: String,
    pub dir: PathBuf,
    pub text: LineEdit,
    /// The marked skills, when there are: the text is then a folder for their archives.
    pub batch: Vec<Target>,
}

/// Which skills are shown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub source: Option<Source>,
    pub agent: Option<AgentId>,
    pub state: Option<State>,
    pub installer: Option<By>,
    /// Only the skills some agent's settings turn off.
    pub disabled: bool,
    /// Only the skills not used in this many days (never used ones included).
    pub unused_days: Option<u64>,
}

/// Who installed the skills the installer filter shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum By {
    Installer(String),
    /// No installer's record at all.
    Nobody,
}

/// Something a worker is asked for, until it arrives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Loading<T> {
    #[default]
    Waiting,
    Ready(T),
    Failed(String),
}

/// The changed view's list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangeList {
    /// Sorted by name.
    pub skills: Loading<Vec<ChangeView>>,
    pub selected: usize,
    /// Skills that could not be compared (a file could not be read).
    pub unreadable: usize,
}

impl ChangeList {
    pub fn shown(&self) -> &[ChangeView] {
        match &self.skills {
            Loading::Ready(skills) => skills,
            _ => &[],
        }
    }

    pub fn selected(&self) -> Option<&ChangeView> {
        self.shown().get(self.selected)
    }
}

/// The diff view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffState {
    /// The diff asked for last; a diff for another request is dropped.
    pub request: u64,
    /// The skill, while its diff is made.
    pub name: String,
    /// Its folder, and its installer's untouched copy: what the diff is made from again after
    /// a restore or an accept.
    pub dir: PathBuf,
    pub pristine: Option<PathBuf>,
    pub view: Loading<Box<DiffView>>,
    /// The first row shown.
    pub scroll: usize,
}

/// The history view of one skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    /// The history asked for last; an answer to another request is dropped.
    pub request: u64,
    pub name: String,
    pub dir: PathBuf,
    pub shown_dir: String,
    pub view: Loading<Box<HistoryView>>,
    /// Index into the rows (newest first).
    pub selected: usize,
    /// The snapshot marked to be compared with another, by id.
    pub marked: Option<String>,
    /// The diff this view opened, by request, and the effect that makes it again after a task
    /// changed the skill.
    pub diffed: Option<(u64, Effect)>,
}

impl History {
    pub fn rows(&self) -> &[SnapshotRow] {
        match &self.view {
            Loading::Ready(view) => &view.rows,
            _ => &[],
        }
    }

    pub fn selected(&self) -> Option<&SnapshotRow> {
        self.rows().get(self.selected)
    }

    pub fn row(&self, id: &str) -> Option<&SnapshotRow> {
        self.rows().iter().find(|r| r.id == id)
    }
}

/// The search line: names and descriptions that hold its text, whatever the case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Search {
    pub query: LineEdit,
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

/// The whole state of the app.
#[derive(Clone, Debug, Default)]
pub struct App {
    pub deck: Deck,
    /// Indexes into `deck.skills` of the skills shown, in the order shown.
    pub visible: Vec<usize>,
    /// The widest value of each of the list's columns among the skills shown, as the list
    /// view measured it, kept until they change: measuring 20,000 skills again on every frame
    /// took a millisecond of each. Cleared wherever `visible` is worked out again.
    pub list_widths: std::cell::Cell<Option<[usize; 4]>>,
    /// Index into `visible`.
    pub selected: usize,
    pub filter: Filter,
    /// Every agent is shown, not only those installed here.
    pub all_agents: bool,
    pub sort: Sort,
    pub search: Search,
    pub screen: Screen,
    pub focus: Pane,
    pub overlay: Overlay,
    /// What went wrong that the person should read before going on, the oldest first: drawn
    /// above everything else, each closed on its own, and what is under them stays as it was.
    pub messages: Vec<String>,
    pub root_selected: usize,
    pub detail_scroll: usize,
    pub preview_scroll: usize,
    pub help_scroll: usize,
    pub scan: Scan,
    pub preview: Preview,
    /// Counts the previews read, so a wrapped copy of an older one is never shown.
    pub preview_version: u64,
    /// The preview as the last frame wrapped it.
    pub wrapped: WrappedPreview,
    pub status: Option<Status>,
    pub mouse: bool,
    pub banner: Option<String>,
    pub theme: Theme,
    /// Where the last frame put each pane, and how much of it showed.
    pub panes: Geometry,
    pub running: bool,
    pub changes: ChangeList,
    pub diff: Option<DiffState>,
    pub import: Option<Import>,
    /// Where the last import picker was, to open there again.
    pub picker_dir: Option<PathBuf>,
    pub work_dir: String,
    /// Counts requests to workers, so an answer to an older one is told apart.
    pub requests: u64,
    /// Tasks (snapshot, accept, restore, export) under way.
    pub tasks: usize,
    /// The signal that stopped the app, if one did.
    pub signal: Option<i32>,
    /// The folders of the marked skills: what the actions apply to, when there are any.
    pub marked: BTreeSet<PathBuf>,
    /// The batch under way.
    pub batch: Option<Running>,
    /// The view of every copy of one name, when open.
    pub copies: Option<Copies>,
    /// The plan asked for last; a plan for another request is dropped.
    pub plan_request: u64,
    /// The note to show when the scan under way ends, instead of its summary: the result of
    /// the task that asked for the scan.
    pub after_scan: Option<Status>,
    /// The history of one skill, when open.
    pub history: Option<History>,
    /// The viewer of one skill's files, when open.
    pub viewer: Option<Viewer>,
    /// The budget view, when open.
    pub budget: Option<BudgetView>,
    /// The time relative times are drawn against, ticked before each frame.
    pub clock: Clock,
    /// The uses are read again after a rescan, the last ones shown meanwhile.
    pub usage_rereading: bool,
    /// The update under way, from reading its upstream to writing it.
    pub updating: Option<Updating>,
    /// Whether each skill's upstream moved, as last checked.
    pub upstreams: Upstreams,
    /// The watch on the skills' files, and the rescans of what changed.
    pub live: super::live::Live,
}

impl App {
    pub fn new(setup: Setup) -> Self {
        Self {
            banner: setup.banner,
            mouse: setup.mouse,
            theme: setup.theme,
            work_dir: setup.work_dir,
            running: true,
            ..Self::default()
        }
    }

    /// Which keys apply now: a message's, else the overlay's, else a batch's, else an update's
    /// conflicts, else the import's step, else the diff's (a diff opened from the history is
    /// over it), else the history's, else the screen's.
    pub fn mode(&self) -> Mode {
        if !self.messages.is_empty() {
            return Mode::Message;
        }
        match &self.overlay {
            Overlay::Confirm(_) => return Mode::Confirm,
            Overlay::Export(_) => return Mode::Export,
            Overlay::Help => return Mode::Help,
            Overlay::Pick(_) => return Mode::Pick,
            Overlay::Summary(_) => return Mode::Summary,
            Overlay::None => {}
        }
        if self.batch.is_some() {
            return Mode::Working;
        }
        if self.updating.as_ref().is_some_and(Updating::settling) {
            return Mode::Conflicts;
        }
        if let Some(import) = &self.import {
            return match import.step {
                Step::Picking => Mode::Picker,
                Step::Preview => Mode::Bundle,
                Step::Refused(_) => Mode::Refused,
                Step::Destination => Mode::Destination,
                Step::Replace { .. } => Mode::Replace,
                Step::Reading(_) | Step::Planning | Step::Installing(_) => Mode::Busy,
                Step::Done(_) => Mode::Imported,
            };
        }
        if self.diff.is_some() {
            return Mode::Diff;
        }
        if let Some(viewer) = &self.viewer {
            return if viewer.open.is_some() {
                Mode::Reading
            } else {
                Mode::Files
            };
        }
        if self.history.is_some() {
            return Mode::History;
        }
        if self.copies.is_some() {
            return Mode::Copies;
        }
        if self.budget.is_some() {
            return Mode::Budget;
        }
        match self.screen {
            Screen::Roots => Mode::Roots,
            Screen::Changed => Mode::Changed,
            Screen::Skills if self.search.typing => Mode::Search,
            Screen::Skills => Mode::Skills,
        }
    }

    /// Whether nothing, an overlay or a message, is drawn over the screen.
    pub fn is_uncovered(&self) -> bool {
        self.overlay == Overlay::None && self.messages.is_empty()
    }

    /// The skill under the cursor.
    pub fn selected_skill(&self) -> Option<&SkillView> {
        self.visible
            .get(self.selected)
            .map(|&index| &self.deck.skills[index])
    }

    /// Whether a worker's answer is awaited, so the runtime should look for it soon.
    pub fn waiting(&self) -> bool {
        matches!(self.scan, Scan::Running(_))
            || (self.scan == Scan::Done && self.changes.skills == Loading::Waiting)
            || matches!(self.preview, Preview::Loading(_))
            || matches!(self.deck.usage, Uses::Reading)
            || self.usage_rereading
            || self.live.rescanning
            || self.tasks > 0
            || self.batch.is_some()
            || self.updating.as_ref().is_some_and(Updating::waiting)
            || self.upstreams.checking
            || self.import.as_ref().is_some_and(Import::waiting)
            || self
                .diff
                .as_ref()
                .is_some_and(|d| d.view == Loading::Waiting)
            || self
                .history
                .as_ref()
                .is_some_and(|h| h.view == Loading::Waiting)
            || self
                .viewer
                .as_ref()
                .and_then(|v| v.open.as_ref())
                .is_some_and(|o| o.text == super::viewer::Reading::Waiting)
    }

    /// A new request number.
    pub fn next_request(&mut self) -> u64 {
        self.requests += 1;
        self.requests
    }

    /// Whether `agent` is shown: every agent is, or it is installed here (or the deck does not
    /// say which are).
    pub fn shows_agent(&self, agent: AgentId) -> bool {
        self.judged().keeps(agent)
    }

    /// The agents judged and shown, by the one rule the command line follows too.
    pub fn judged(&self) -> Judged<'_> {
        Judged {
            installed: self.deck.installed.as_deref(),
            all: self.all_agents,
        }
    }

    /// The agents shown, in table order: what the agent filter cycles through.
    pub fn shown_agents(&self) -> Vec<AgentId> {
        AgentId::all().filter(|a| self.shows_agent(*a)).collect()
    }

    /// The agents of `agents` that are shown.
    pub fn shown_of(&self, agents: &[AgentId]) -> Vec<AgentId> {
        self.judged().of(agents)
    }

    /// Indexes into `deck.roots` of the roots shown: with only the installed agents shown, a
    /// root none of them has a use for is left out, unless it holds skills.
    pub fn shown_roots(&self) -> Vec<usize> {
        self.deck
            .roots
            .iter()
            .enumerate()
            .filter(|(_, root)| {
                crate::roots::root_shown(
                    root.skills,
                    &root.owners,
                    root.presence == super::model::Presence::BuiltIn,
                    |agent| self.shows_agent(agent),
                )
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// The root under the cursor on the roots screen.
    pub fn selected_root(&self) -> Option<&super::model::RootView> {
        self.shown_roots()
            .get(self.root_selected)
            .map(|&i| &self.deck.roots[i])
    }

    /// The skills an action applies to: the marked ones in the list's order of names, else
    /// the one under the cursor.
    pub fn targets(&self) -> Vec<Target> {
        if self.marked.is_empty() {
            return self
                .selected_skill()
                .map(SkillView::target)
                .into_iter()
                .collect();
        }
        self.deck
            .skills
            .iter()
            .filter(|s| self.marked.contains(&s.dir))
            .map(SkillView::target)
            .collect()
    }

    /// The skill whose folder is `dir`.
    pub fn skill_at(&self, dir: &std::path::Path) -> Option<&SkillView> {
        self.deck.skills.iter().find(|s| s.dir == dir)
    }

    /// Indexes into `deck.skills` of every copy of the name the copies view is open on.
    pub fn copy_rows(&self) -> Vec<usize> {
        let Some(copies) = &self.copies else {
            return Vec::new();
        };
        (0..self.deck.skills.len())
            .filter(|&i| self.deck.skills[i].search_key == copies.key)
            .collect()
    }

    /// The copy under the cursor in the copies view.
    pub fn selected_copy(&self) -> Option<&SkillView> {
        let copies = self.copies.as_ref()?;
        self.copy_rows()
            .get(copies.selected)
            .map(|&i| &self.deck.skills[i])
    }

    /// Whether anything narrows the list.
    pub fn is_narrowed(&self) -> bool {
        self.filter != Filter::default() || !self.search.query.is_empty()
    }

    /// Take the deck of a new scan, keeping the selected skill selected when it is still there.
    pub fn replace_deck(&mut self, deck: Deck) {
        let keep = self.selected_skill().map(|s| s.dir.clone());
        let before = std::mem::replace(&mut self.deck, deck);
        // The uses read for the last scan stand until this one's are read: they are by folder.
        if matches!(self.deck.usage, Uses::Reading) && matches!(before.usage, Uses::Read(_)) {
            self.deck.set_usage(before.usage);
            self.usage_rereading = true;
        }
        // A skill gone since (removed, moved) is no longer marked.
        let dirs: BTreeSet<&PathBuf> = self.deck.skills.iter().map(|s| &s.dir).collect();
        self.marked.retain(|dir| dirs.contains(dir));
        if let Some(copies) = &mut self.copies {
            let rows = self
                .deck
                .skills
                .iter()
                .filter(|s| s.search_key == copies.key)
                .count();
            copies.selected = copies.selected.min(rows.saturating_sub(1));
            // One copy left (the others removed or moved away): nothing to resolve any more.
            if rows < 2 {
                self.copies = None;
            }
        }
        if let Some(view) = &mut self.budget {
            let agents = &self.deck.budgets.agents;
            view.agent = view.agent.min(agents.len().saturating_sub(1));
            let rows = agents.get(view.agent).map_or(0, |a| a.entries.len());
            view.selected = view.selected.min(rows.saturating_sub(1));
        }
        self.refresh_keeping(keep);
        self.root_selected = self
            .root_selected
            .min(self.shown_roots().len().saturating_sub(1));
    }

    /// Work out `visible` again after the search, a filter or the sort changed, keeping the
    /// selected skill selected when it is still shown.
    pub fn refresh(&mut self) {
        let keep = self.selected_skill().map(|s| s.dir.clone());
        self.refresh_keeping(keep);
    }

    fn refresh_keeping(&mut self, keep: Option<PathBuf>) {
        self.list_widths.set(None);
        let query = self.search.query.text().to_lowercase();
        let filter = &self.filter;
        let skills = &self.deck.skills;
        // Used since this moment, a skill is left out by the "not used in N days" filter.
        let since = filter.unused_days.map(|days| {
            self.clock
                .0
                .checked_sub(std::time::Duration::from_secs(days * 86_400))
                .unwrap_or(std::time::UNIX_EPOCH)
        });
        let usage = self.deck.usage.view();
        // The deck comes ordered every way already (on the scan worker), so no key sorts.
        self.visible = self
            .deck
            .order(self.sort)
            .iter()
            .copied()
            .filter(|&i| shows(&skills[i], filter, &query))
            .filter(|&i| since.is_none_or(|since| !used_since(usage, &skills[i].dir, since)))
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
        && (!filter.disabled || !skill.disabled_for.is_empty())
        && filter
            .installer
            .as_ref()
            .is_none_or(|by| installed_by(skill, by))
        && matches(skill, query)
}

/// Whether the skill's name or description holds `query` (already in lower case).
fn matches(skill: &SkillView, query: &str) -> bool {
    query.is_empty()
        || skill.search_key.contains(query)
        || skill
            .description
            .as_deref()
            .is_some_and(|d| d.to_lowercase().contains(query))
}

/// Whether the skill in `dir` was used at `since` or later; while the uses are being read
/// nothing is known to have been, so the filter leaves every skill in.
fn used_since(usage: Option<&UsageView>, dir: &std::path::Path, since: SystemTime) -> bool {
    usage.is_some_and(|view| view.last(dir).is_some_and(|last| last >= since))
}

fn installed_by(skill: &SkillView, by: &By) -> bool {
    match (by, &skill.owner) {
        (By::Installer(name), Some(owner)) => owner.installer == *name,
        (By::Nobody, None) => true,
        _ => false,
    }
}
