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

use super::budget::{UsageView, Uses};
use super::changes::ChangeView;
use super::geometry::{Geometry, WrappedPreview};
use super::history::Clock;
use super::import::{Import, Step};
use super::keymap::Mode;
use super::line::LineEdit;
use super::manage::{Pick, Running, Summary, Target};
use super::model::{Deck, SkillView, Sort};
use super::msg::{Effect, Pane};
use super::theme::Theme;
use super::updating::Updating;
use super::upstreams::Upstreams;
use super::views::{Loading, View, Views};

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

/// One layer of what is drawn (see [`App::layers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The screen the tabs choose: the skills, the roots, or what changed.
    Screen,
    /// A view opened over the screen.
    View(View),
    /// The import flow, from picking a bundle to what it did.
    Import,
    /// An update's conflicts, to settle before it is written.
    Conflicts,
    /// A batch's progress.
    Working,
    /// A question, a prompt, a picker, a summary or the help.
    Overlay,
    /// What went wrong that the person should read first.
    Message,
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
    /// Said by the app on its own (a scan's summary, the uses read, the watch's limit), not in
    /// answer to the person: another notice may take its place, an answer never gives it up.
    pub notice: bool,
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
    /// The pane with the keyboard fills the skill screen (a narrow terminal's whole names,
    /// a long detail).
    pub zoomed: bool,
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
    /// The latest notice that came while the status line held an answer: shown when the line
    /// is free again (the next key that says nothing of its own).
    pub notice: Option<Status>,
    pub mouse: bool,
    pub banner: Option<String>,
    pub theme: Theme,
    /// Where the last frame put each pane, and how much of it showed.
    pub panes: Geometry,
    pub running: bool,
    pub changes: ChangeList,
    /// The views opened over the screen, in the order opened.
    pub views: Views,
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
    /// The plan asked for last; a plan for another request is dropped.
    pub plan_request: u64,
    /// The note to show when the scan under way ends, instead of its summary: the result of
    /// the task that asked for the scan.
    pub after_scan: Option<Status>,
    /// The time relative times are drawn against, ticked before each frame.
    pub clock: Clock,
    /// The uses are read again after a rescan, the last ones shown meanwhile.
    pub usage_rereading: bool,
    /// The update under way, from reading its upstream to writing it.
    pub updating: Option<Updating>,
    /// Whether each skill's upstream moved, as last checked.
    pub upstreams: Upstreams,
    /// What the audit found in each skill, judged on a worker after the list is shown.
    pub audits: super::audit::Audits,
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

    /// What is drawn, bottom to top: the screen, the views in the order they were opened, then
    /// the flows and popups that are always above them, in a fixed order (an import or an
    /// update's conflicts over any view, a batch's progress over those, a question or the help
    /// over the progress, and a message over everything). The one place that decides what is
    /// on top: the keys go to the top layer ([`App::mode`]), the frame is drawn in this order,
    /// and the wheel scrolls what is on top.
    pub fn layers(&self) -> Vec<Layer> {
        let mut layers = vec![Layer::Screen];
        layers.extend(self.views.order().iter().copied().map(Layer::View));
        let above = [
            (self.import.is_some(), Layer::Import),
            (
                self.updating.as_ref().is_some_and(Updating::settling),
                Layer::Conflicts,
            ),
            (self.batch.is_some(), Layer::Working),
            (self.overlay != Overlay::None, Layer::Overlay),
            (!self.messages.is_empty(), Layer::Message),
        ];
        layers.extend(above.into_iter().filter(|(on, _)| *on).map(|(_, l)| l));
        layers
    }

    /// The layer on top.
    pub fn top(&self) -> Layer {
        self.layers().last().copied().unwrap_or(Layer::Screen)
    }

    /// The screen or the view that fills the body: the highest of them.
    pub fn body(&self) -> Layer {
        self.views.top().map_or(Layer::Screen, Layer::View)
    }

    /// Which keys apply now: those of the layer on top.
    pub fn mode(&self) -> Mode {
        match self.top() {
            Layer::Message => Mode::Message,
            Layer::Overlay => match &self.overlay {
                Overlay::Confirm(_) => Mode::Confirm,
                Overlay::Export(_) => Mode::Export,
                Overlay::Pick(_) => Mode::Pick,
                Overlay::Summary(_) => Mode::Summary,
                Overlay::Help | Overlay::None => Mode::Help,
            },
            Layer::Working => Mode::Working,
            Layer::Conflicts => Mode::Conflicts,
            Layer::Import => match self.import.as_ref().map(|i| &i.step) {
                Some(Step::Picking) => Mode::Picker,
                Some(Step::Preview) => Mode::Bundle,
                Some(Step::Refused(_)) => Mode::Refused,
                Some(Step::Destination) => Mode::Destination,
                Some(Step::Replace { .. }) => Mode::Replace,
                Some(Step::Risky { .. }) => Mode::Risk,
                Some(Step::Done(_) | Step::Failed(_)) => Mode::Imported,
                Some(Step::Reading(_) | Step::Planning | Step::Installing(_)) | None => Mode::Busy,
            },
            Layer::View(View::Diff) => Mode::Diff,
            Layer::View(View::Viewer) => match self.views.viewer() {
                Some(viewer) if viewer.open.is_some() => Mode::Reading,
                _ => Mode::Files,
            },
            Layer::View(View::History) => Mode::History,
            Layer::View(View::Copies) => Mode::Copies,
            Layer::View(View::Budget) => Mode::Budget,
            Layer::Screen => match self.screen {
                Screen::Roots => Mode::Roots,
                Screen::Changed => Mode::Changed,
                Screen::Skills if self.search.typing => Mode::Search,
                Screen::Skills => Mode::Skills,
            },
        }
    }

    /// Whether the screen or the view in the body is on top: nothing is drawn over it.
    pub fn is_uncovered(&self) -> bool {
        self.top() == self.body()
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
            || self.audits.waiting()
            || self.import.as_ref().is_some_and(Import::waiting)
            || self
                .views
                .diff()
                .is_some_and(|d| d.view == Loading::Waiting)
            || self
                .views
                .history()
                .is_some_and(|h| h.view == Loading::Waiting)
            || self
                .views
                .viewer()
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
        let Some(copies) = self.views.copies() else {
            return Vec::new();
        };
        (0..self.deck.skills.len())
            .filter(|&i| self.deck.skills[i].search_key == copies.key)
            .collect()
    }

    /// The copy under the cursor in the copies view.
    pub fn selected_copy(&self) -> Option<&SkillView> {
        let copies = self.views.copies()?;
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
        if let Some(copies) = self.views.copies_mut() {
            let rows = self
                .deck
                .skills
                .iter()
                .filter(|s| s.search_key == copies.key)
                .count();
            copies.selected = copies.selected.min(rows.saturating_sub(1));
            // One copy left (the others removed or moved away): nothing to resolve any more.
            if rows < 2 {
                self.views.close(View::Copies);
            }
        }
        if let Some(view) = self.views.budget_mut() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::views::samples::open;
    use strum::IntoEnumIterator;

    /// The keys of each view, written out here apart from `mode` so the two can disagree.
    fn keys_of(view: View) -> Mode {
        match view {
            View::Budget => Mode::Budget,
            View::Copies => Mode::Copies,
            View::History => Mode::History,
            View::Viewer => Mode::Files,
            View::Diff => Mode::Diff,
        }
    }

    fn running() -> Running {
        Running {
            id: 1,
            doing: "Removing".into(),
            done: 0,
            total: 2,
            current: None,
            stopping: false,
        }
    }

    /// Every two views in either order, under each of the layers always above them: the keys go
    /// to the top layer, the body shows the last view opened, and the screen is covered
    /// exactly when something is over the body.
    #[test]
    fn the_keys_go_to_the_top_layer_and_the_body_is_the_last_view_opened() {
        type Cover = (&'static str, fn(&mut App), Option<Mode>);
        let covers: [Cover; 4] = [
            ("nothing", |_| {}, None),
            (
                "a batch",
                |app| app.batch = Some(running()),
                Some(Mode::Working),
            ),
            (
                "the help",
                |app| app.overlay = Overlay::Help,
                Some(Mode::Help),
            ),
            (
                "a message over a batch",
                |app| {
                    app.batch = Some(running());
                    app.messages.push("x".into());
                },
                Some(Mode::Message),
            ),
        ];
        for (what, cover, covered) in covers {
            for below in View::iter() {
                for above in View::iter().filter(|v| *v != below) {
                    let mut app = App::default();
                    open(&mut app.views, below);
                    open(&mut app.views, above);
                    cover(&mut app);
                    let case = format!("{below:?} then {above:?} under {what}");
                    assert_eq!(app.body(), Layer::View(above), "{case}");
                    assert_eq!(app.mode(), covered.unwrap_or(keys_of(above)), "{case}");
                    assert_eq!(app.is_uncovered(), covered.is_none(), "{case}");
                    app.views.close(above);
                    assert_eq!(app.body(), Layer::View(below), "{case}, closed");
                    assert_eq!(app.mode(), covered.unwrap_or(keys_of(below)), "{case}");
                }
            }
        }
    }

    /// With nothing open the screen has the keys, and a message is always the top layer.
    #[test]
    fn the_screen_is_the_bottom_and_a_message_the_top() {
        let mut app = App::default();
        assert_eq!(app.layers(), [Layer::Screen]);
        assert_eq!(app.mode(), Mode::Skills);
        app.screen = Screen::Roots;
        assert_eq!(app.mode(), Mode::Roots);
        app.messages.push("x".into());
        app.overlay = Overlay::Help;
        open(&mut app.views, View::Diff);
        assert_eq!(
            app.layers(),
            [
                Layer::Screen,
                Layer::View(View::Diff),
                Layer::Overlay,
                Layer::Message
            ]
        );
        assert_eq!(app.top(), Layer::Message);
    }
}
