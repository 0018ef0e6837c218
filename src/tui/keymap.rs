//! The one table of keys: it decides what a key press does, and the footer and the help screen
//! are drawn from it, so what the app says and what it does cannot drift apart.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use strum::VariantArray;

use super::line::Edit;
use super::msg::Action;

/// Which keys apply: what has the keyboard. `Mode::VARIANTS` lists them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::VariantArray)]
pub enum Mode {
    Skills,
    Roots,
    Changed,
    Search,
    Diff,
    Picker,
    /// An import's preview of the bundle.
    Bundle,
    /// The sentence that says why a bundle is refused.
    Refused,
    Destination,
    /// An import's replacements, shown before they are confirmed.
    Replace,
    /// An import's question before installing skills with high findings.
    Risk,
    /// An import being read, judged or written.
    Busy,
    Imported,
    Confirm,
    Export,
    Help,
    /// An error message is open.
    Message,
    /// Every copy of one name, and which each agent runs.
    Copies,
    /// A skill's files, to choose one to read.
    Files,
    /// One file of a skill, being read.
    Reading,
    /// A small list asking which agent or which scope.
    Pick,
    /// A batch under way.
    Working,
    /// What a batch did and refused.
    Summary,
    /// Every snapshot of one skill.
    History,
    /// What each agent's listing of skills costs, and the skills in it.
    Budget,
    /// An update's conflicts, each settled in a diff before anything is written.
    Conflicts,
}

impl Mode {
    /// The heading of this mode's keys on the help screen.
    pub fn title(self) -> &'static str {
        match self {
            Mode::Skills => "Skill list",
            Mode::Roots => "Roots",
            Mode::Changed => "Changed skills",
            Mode::Search => "Search line",
            Mode::Diff => "Diff",
            Mode::Picker => "Import: choosing a folder or an archive",
            Mode::Bundle => "Import: what the bundle holds",
            Mode::Refused => "Import: a refused bundle",
            Mode::Destination => "Import: where the skills go",
            Mode::Replace => "Import: skills it would replace",
            Mode::Risk => "Import: high findings, the risk to accept",
            Mode::Busy => "Import: under way",
            Mode::Imported => "Import: done",
            Mode::Confirm => "Questions",
            Mode::Export => "Export: the archive's path",
            Mode::Help => "Help",
            Mode::Message => "Messages",
            Mode::Copies => "Copies of one name (shadowing)",
            Mode::Files => "A skill's files",
            Mode::Reading => "Reading a file of a skill",
            Mode::Pick => "Choosing an agent or a scope",
            Mode::Working => "An action under way",
            Mode::Summary => "What an action did",
            Mode::History => "History: a skill's snapshots",
            Mode::Budget => "Budget: what each agent's listing costs",
            Mode::Conflicts => "Update: settling its conflicts",
        }
    }

    /// The mode in a word or two, for saying where else a key applies.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Skills => "skill list",
            Mode::Roots => "roots",
            Mode::Changed => "changed",
            Mode::Search => "search",
            Mode::Diff => "diff",
            Mode::Picker => "picker",
            Mode::Bundle => "import preview",
            Mode::Refused => "refusal",
            Mode::Destination => "destination",
            Mode::Replace => "replacements",
            Mode::Risk => "risk",
            Mode::Busy => "import under way",
            Mode::Imported => "import result",
            Mode::Confirm => "question",
            Mode::Export => "export",
            Mode::Help => "help",
            Mode::Message => "message",
            Mode::Copies => "copies",
            Mode::Files => "files",
            Mode::Reading => "file",
            Mode::Pick => "choice",
            Mode::Working => "action under way",
            Mode::Summary => "summary",
            Mode::History => "history",
            Mode::Budget => "budget",
            Mode::Conflicts => "conflicts",
        }
    }

    /// Whether this is a step of the import flow.
    pub fn is_import(self) -> bool {
        matches!(
            self,
            Mode::Picker
                | Mode::Bundle
                | Mode::Refused
                | Mode::Destination
                | Mode::Replace
                | Mode::Risk
                | Mode::Busy
                | Mode::Imported
        )
    }

    /// Whether letters typed in this mode are text (a search, a filter, a path).
    pub fn types(self) -> bool {
        matches!(self, Mode::Search | Mode::Picker | Mode::Export)
    }
}

/// A key, as the table names it. Shift is never part of it: `G` is `G` however the terminal
/// reports the shift.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    code: KeyCode,
    ctrl: bool,
}

impl Key {
    const fn char(c: char) -> Self {
        Self {
            code: KeyCode::Char(c),
            ctrl: false,
        }
    }

    const fn ctrl(c: char) -> Self {
        Self {
            code: KeyCode::Char(c),
            ctrl: true,
        }
    }

    const fn code(code: KeyCode) -> Self {
        Self { code, ctrl: false }
    }

    fn matches(self, event: &KeyEvent) -> bool {
        let others = KeyModifiers::ALT | KeyModifiers::SUPER | KeyModifiers::META;
        if event.modifiers.intersects(others)
            || event.modifiers.contains(KeyModifiers::CONTROL) != self.ctrl
        {
            return false;
        }
        match (self.code, event.code) {
            (KeyCode::Char(want), KeyCode::Char(got)) if self.ctrl => {
                want.eq_ignore_ascii_case(&got)
            }
            (want, got) => want == got,
        }
    }

    /// How the key is written in the footer and on the help screen.
    pub fn name(self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_owned(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Up => "↑".to_owned(),
            KeyCode::Down => "↓".to_owned(),
            KeyCode::Left => "←".to_owned(),
            KeyCode::Right => "→".to_owned(),
            KeyCode::PageUp => "PgUp".to_owned(),
            KeyCode::PageDown => "PgDn".to_owned(),
            KeyCode::Home => "Home".to_owned(),
            KeyCode::End => "End".to_owned(),
            KeyCode::Tab => "Tab".to_owned(),
            KeyCode::BackTab => "Shift-Tab".to_owned(),
            KeyCode::Enter => "Enter".to_owned(),
            KeyCode::Esc => "Esc".to_owned(),
            KeyCode::Backspace => "Backspace".to_owned(),
            KeyCode::Delete => "Del".to_owned(),
            KeyCode::F(n) => format!("F{n}"),
            other => format!("{other:?}"),
        };
        if self.ctrl {
            format!("Ctrl-{base}")
        } else {
            base
        }
    }
}

/// One row of the table: these keys, in these modes, do this.
#[derive(Debug)]
pub struct Binding {
    pub modes: &'static [Mode],
    pub keys: &'static [Key],
    pub action: Action,
    /// What the key does, on the help screen.
    pub help: &'static str,
    /// Its word in the footer, for the keys worth showing there.
    pub hint: Option<&'static str>,
}

impl Binding {
    /// Where the binding applies besides the section it is listed under, when that is a
    /// few places (`also in changed, diff`); nothing for one that applies nearly everywhere.
    pub fn also_in(&self) -> Option<String> {
        let others: Vec<&str> = self.modes.iter().skip(1).map(|m| m.name()).collect();
        (!others.is_empty() && others.len() <= 5).then(|| format!("also in {}", others.join(", ")))
    }

    /// The keys, written for people: `j ↓`.
    pub fn key_names(&self) -> String {
        let names: Vec<String> = self.keys.iter().map(|k| k.name()).collect();
        names.join(" ")
    }
}

use KeyCode::{
    BackTab, Backspace, Delete, Down, End, Enter, Esc, F, Home, Left, PageDown, PageUp, Right, Tab,
    Up,
};
use Mode::{
    Budget, Bundle, Busy, Changed, Confirm, Conflicts, Copies, Destination, Diff, Export, Files,
    Help, History, Imported, Message, Pick, Picker, Reading, Refused, Replace, Risk, Roots, Search,
    Skills, Summary, Working,
};

/// The three screens.
const SCREENS: &[Mode] = &[Skills, Roots, Changed];
/// Where the cursor or the text moves with the vim keys as well as the arrows.
const LISTS: &[Mode] = &[
    Skills,
    Roots,
    Changed,
    Diff,
    Bundle,
    Destination,
    Replace,
    Imported,
    Help,
    Copies,
    Pick,
    History,
    Files,
    Reading,
    Budget,
    Conflicts,
];
/// Where letters are text, so only the arrows and paging keys move.
const TYPING_LISTS: &[Mode] = &[Search, Picker];
/// Where a line of text is edited like a shell's.
const EDITING: &[Mode] = &[Search, Export, Picker];
/// Where ← and Ctrl-U edit the line as well. The picker keeps ← for the folder above and
/// Ctrl-U for a page up, as its list had them before it took typed paths: its line is short
/// and typed at its end, Home, End, → and Ctrl-W move and erase in it, and a file manager's
/// ← going up is what a person browsing folders reaches for.
const EDITING_ALL_KEYS: &[Mode] = &[Search, Export];
/// Where a skill's files are read.
const READING: &[Mode] = &[Skills, Files, Reading];
/// The views of a diff.
const DIFFS: &[Mode] = &[Diff, Replace, Conflicts];
/// The steps of an import that Esc cancels.
const IMPORTING: &[Mode] = &[Picker, Bundle, Refused, Destination, Replace, Busy];

const fn bind(
    modes: &'static [Mode],
    keys: &'static [Key],
    action: Action,
    help: &'static str,
    hint: Option<&'static str>,
) -> Binding {
    Binding {
        modes,
        keys,
        action,
        help,
        hint,
    }
}

/// The table. Its order is the order of the footer and of the help screen, and the first key
/// of an action in a mode is the one sentences name (`q` quits, though Ctrl-c does too).
pub static BINDINGS: &[Binding] = &[
    bind(
        // Not where letters are text (the picker's filter, the search, the export path): a
        // `?` typed there is part of a name.
        &[
            Skills, Roots, Changed, Diff, History, Files, Reading, Budget, Conflicts,
        ],
        &[Key::char('?')],
        Action::ToggleHelp,
        "show this help",
        Some("help"),
    ),
    // Where every character is text, the help is the key terminals and programs keep for it.
    bind(
        &[Picker],
        &[Key::code(F(1))],
        Action::ToggleHelp,
        "show this help",
        Some("help"),
    ),
    bind(
        &[Skills],
        &[Key::char('q')],
        Action::Quit,
        "quit",
        Some("quit"),
    ),
    bind(
        &[Roots, Changed],
        &[Key::char('q')],
        Action::Back,
        "back to the skill list, as Esc does",
        Some("back"),
    ),
    bind(
        Mode::VARIANTS,
        &[Key::ctrl('c')],
        Action::Quit,
        "quit, from anywhere",
        None,
    ),
    bind(
        &[Skills],
        &[Key::char('/')],
        Action::StartSearch,
        "search names and descriptions as you type",
        Some("search"),
    ),
    bind(
        &[Skills],
        &[Key::char('z')],
        Action::Zoom,
        "zoom: the pane with the keyboard (list, detail or SKILL.md; Tab changes which) fills the screen, or shares it again",
        Some("zoom"),
    ),
    bind(
        &[Skills],
        &[Key::char('d')],
        Action::ToggleDrifted,
        "only modified skills (their files differ from their installer's record), or all again",
        Some("modified"),
    ),
    bind(
        &[Skills, Changed],
        &[Key::char('D')],
        Action::OpenDiff,
        "diff it against its latest snapshot, or else its installer's untouched copy",
        Some("diff"),
    ),
    bind(
        &[Changed],
        &[Key::code(Enter)],
        Action::OpenDiff,
        "diff it against its latest snapshot, or else its installer's untouched copy",
        None,
    ),
    bind(
        &[Skills, Changed, Diff],
        &[Key::char('h')],
        Action::OpenHistory,
        "its history: every snapshot, when and why it was taken; diff, restore or delete one",
        Some("history"),
    ),
    bind(
        &[Changed, Diff],
        &[Key::char('R')],
        Action::Restore,
        "restore its latest snapshot (asks first; what it holds now is snapshotted first)",
        Some("restore"),
    ),
    bind(
        &[Changed, Diff],
        &[Key::char('a')],
        Action::Accept,
        "accept what it holds now as its new baseline (a snapshot)",
        Some("accept"),
    ),
    bind(
        &[Skills, Changed, Diff],
        &[Key::char('s')],
        Action::Snapshot,
        "snapshot the skill as it is now",
        Some("snapshot"),
    ),
    bind(
        &[Skills, Changed, Diff],
        &[Key::char('e')],
        Action::Export,
        "export the skill to a .tar.gz, secrets removed (asks where)",
        Some("export"),
    ),
    bind(
        SCREENS,
        &[Key::char('i')],
        Action::Import,
        "import skills from a folder or an archive",
        Some("import"),
    ),
    bind(
        &[Roots, Changed],
        &[Key::char('1')],
        Action::ShowSkills,
        "the skills",
        Some("skills"),
    ),
    bind(
        &[Skills, Changed],
        &[Key::char('2')],
        Action::ShowRoots,
        "the roots: every folder an agent reads skills from",
        Some("roots"),
    ),
    bind(
        &[Skills, Roots],
        &[Key::char('3')],
        Action::ShowChanged,
        "the skills changed since their snapshots, and modified ones never snapshotted",
        Some("changed"),
    ),
    bind(
        &[Skills],
        &[Key::char('B')],
        Action::ShowBudget,
        "the budget: what each agent's listing of skills costs its model, and what it drops",
        Some("budget"),
    ),
    bind(
        &[Skills],
        &[Key::char(' ')],
        Action::ToggleMark,
        "mark or unmark the skill: remove, off, on, link, copy, move, snapshot, accept and export then apply to every marked skill",
        Some("mark"),
    ),
    bind(
        &[Skills],
        &[Key::char('f')],
        Action::CycleSource,
        "filter by source (where it is from): each one some skill has, then all",
        Some("source"),
    ),
    bind(
        &[Skills],
        &[Key::char('F')],
        Action::CycleSourceBack,
        "the source filter the other way round",
        None,
    ),
    bind(
        &[Skills],
        &[Key::char('a')],
        Action::CycleAgent,
        "filter by the agent that loads it (each agent shown that loads one), then all",
        Some("agent"),
    ),
    bind(
        &[Skills],
        &[Key::ctrl('a')],
        Action::CycleAgentBack,
        "the agent filter the other way round",
        None,
    ),
    bind(
        &[Skills, Roots, Destination],
        &[Key::char('A')],
        Action::ToggleAllAgents,
        "show every agent that reads a skill, or only those installed here (their config folder exists)",
        Some("all agents"),
    ),
    bind(
        &[Skills],
        &[Key::char('w')],
        Action::CycleInstaller,
        "filter by installer (who put it there): each one found, then none, then all",
        Some("installer"),
    ),
    bind(
        &[Skills],
        &[Key::char('W')],
        Action::CycleInstallerBack,
        "the installer filter the other way round",
        None,
    ),
    bind(
        &[Skills],
        &[Key::char('t')],
        Action::CycleState,
        "filter by state: each one some skill is in (intact, modified, …), then all",
        Some("state"),
    ),
    bind(
        &[Skills],
        &[Key::char('T')],
        Action::CycleStateBack,
        "the state filter the other way round",
        None,
    ),
    bind(
        &[Skills],
        &[Key::char('O')],
        Action::ToggleDisabled,
        "only skills an agent's own settings turn off, or all again",
        Some("turned off"),
    ),
    bind(
        &[Skills],
        &[Key::char('n')],
        Action::CycleUnused,
        "only skills not used in 7, 30 or 90 days (never used ones included), then all",
        None,
    ),
    bind(
        &[Skills],
        &[Key::char('o')],
        Action::CycleSort,
        "sort by name, source, state, recently modified, cost, last used",
        Some("sort"),
    ),
    bind(
        &[Skills, Budget],
        &[Key::char('C')],
        Action::ClearMarks,
        "clear the marks",
        None,
    ),
    bind(
        &[Skills, Copies],
        &[Key::char('x'), Key::code(Delete)],
        Action::Remove,
        "remove it (asks first; snapshotted first, so undo brings it back)",
        Some("remove"),
    ),
    bind(
        &[Skills, Copies],
        &[Key::char('-')],
        Action::Disable,
        "turn it off for one agent, in that agent's settings (asks which)",
        Some("off"),
    ),
    bind(
        &[Skills, Copies],
        &[Key::char('+'), Key::char('=')],
        Action::Enable,
        "turn it on again for one agent (asks which)",
        Some("on"),
    ),
    bind(
        &[Skills],
        &[Key::char('l')],
        Action::Link,
        "link it into another agent's root or scope (asks where, shows what it would shadow)",
        Some("link"),
    ),
    bind(
        &[Skills],
        &[Key::char('y')],
        Action::CopyTo,
        "copy it into another agent's root or scope (asks where, shows what it would shadow)",
        None,
    ),
    bind(
        &[Skills, Copies],
        &[Key::char('M')],
        Action::MoveTo,
        "move it to another scope or root (asks where, shows what it would shadow)",
        Some("move"),
    ),
    bind(
        &[Skills],
        &[Key::char('b')],
        Action::Accept,
        "accept what it holds now as its new baseline (a snapshot)",
        None,
    ),
    bind(
        &[Skills],
        &[Key::char('U')],
        Action::Update,
        "update it from the repository it was imported from, keeping your edits (a three-way merge; asks first, conflicts are settled in a diff; undo puts it back)",
        None,
    ),
    bind(
        &[Skills],
        &[Key::char('K')],
        Action::CheckUpstreams,
        "ask each recorded upstream whether it moved (the network, only when asked): ↑ marks the skills it moved past",
        None,
    ),
    bind(
        &[Conflicts],
        &[Key::char('t')],
        Action::TakeTheirs,
        "settle the file under the cursor with upstream's version (theirs; its deletion, where it deleted it)",
        Some("theirs"),
    ),
    bind(
        &[Conflicts],
        &[Key::char('o')],
        Action::TakeOurs,
        "settle it with the version here (ours, with your edits)",
        Some("ours"),
    ),
    bind(
        &[Conflicts],
        &[Key::char('b')],
        Action::TakeBoth,
        "keep both: the text with both sides between conflict markers, or the edited side of a deletion (never a binary file)",
        Some("both"),
    ),
    bind(
        &[Conflicts],
        &[Key::char('y')],
        Action::Confirm,
        "update with these choices, once every file is settled (asks first)",
        Some("update"),
    ),
    bind(
        &[Conflicts],
        &[Key::code(Esc), Key::char('q')],
        Action::Back,
        "stop the update; nothing is written",
        Some("stop"),
    ),
    bind(
        &[Skills],
        &[Key::char('S')],
        Action::ShowCopies,
        "every copy of its name: which agent runs which; disable, remove or move one",
        Some("copies"),
    ),
    bind(
        &[Budget],
        &[Key::code(Tab), Key::code(Right)],
        Action::NextPane,
        "the next agent",
        Some("agent"),
    ),
    bind(
        &[Budget],
        &[Key::code(BackTab), Key::code(Left)],
        Action::PreviousPane,
        "the previous agent",
        None,
    ),
    bind(
        &[Budget],
        &[Key::char(' ')],
        Action::ToggleMark,
        "mark or unmark the skill: remove, off and on then apply to every marked skill",
        Some("mark"),
    ),
    bind(
        &[Budget],
        &[Key::char('-')],
        Action::Disable,
        "turn it off for one agent, in that agent's settings (asks which)",
        Some("off"),
    ),
    bind(
        &[Budget],
        &[Key::char('+'), Key::char('=')],
        Action::Enable,
        "turn it on again for one agent (asks which)",
        None,
    ),
    bind(
        &[Budget],
        &[Key::char('x'), Key::code(Delete)],
        Action::Remove,
        "remove it (asks first; snapshotted first, so undo brings it back)",
        Some("remove"),
    ),
    bind(
        &[Budget],
        &[Key::code(Esc), Key::char('q')],
        Action::Back,
        "back to the skill list",
        Some("back"),
    ),
    bind(
        &[History],
        &[Key::code(Enter), Key::char('D')],
        Action::OpenDiff,
        "diff the snapshot against the files now; with another marked, the two (older → newer)",
        Some("diff"),
    ),
    bind(
        &[History],
        &[Key::char(' '), Key::char('c')],
        Action::ToggleMark,
        "mark the snapshot (or unmark it), to diff another against it",
        Some("mark"),
    ),
    bind(
        &[History],
        &[Key::char('R')],
        Action::Restore,
        "restore the skill to this snapshot (asks first; what it holds now is snapshotted first)",
        Some("restore"),
    ),
    bind(
        &[History],
        &[Key::char('x'), Key::code(Delete)],
        Action::Remove,
        "delete the snapshot (asks first; it is held aside, so undo brings it back)",
        Some("delete"),
    ),
    bind(
        &[History],
        &[Key::code(Esc), Key::char('q')],
        Action::Back,
        "close the history",
        Some("close"),
    ),
    bind(
        &[Skills, Roots, Changed, History, Budget, Summary],
        &[Key::char('u')],
        Action::Undo,
        "undo the last operation (asks first, saying what it puts back)",
        Some("undo"),
    ),
    bind(
        &[Skills],
        &[Key::char('c')],
        Action::ClearFilters,
        "clear the search and every filter",
        None,
    ),
    bind(
        &[Skills],
        &[Key::code(Tab)],
        Action::NextPane,
        "next pane: list, detail, SKILL.md",
        Some("pane"),
    ),
    bind(
        &[Skills],
        &[Key::code(BackTab)],
        Action::PreviousPane,
        "previous pane",
        None,
    ),
    bind(
        &[Skills],
        &[Key::code(Enter)],
        Action::OpenPreview,
        "read the SKILL.md",
        None,
    ),
    bind(
        &[Skills],
        &[Key::char('v')],
        Action::OpenFiles,
        "its files: choose one to read (text shown safely, a binary file by its size)",
        Some("files"),
    ),
    bind(
        READING,
        &[Key::char('E')],
        Action::OpenEditor,
        "open its SKILL.md (or the file chosen) in $VISUAL or $EDITOR, else vi; the app comes back when it ends",
        Some("edit"),
    ),
    bind(
        READING,
        &[Key::char('p')],
        Action::CopyPath,
        "copy its folder's path to the clipboard (OSC 52: over SSH, and in tmux with set-clipboard on)",
        Some("copy path"),
    ),
    bind(
        &[Files],
        &[Key::code(Enter), Key::char('l')],
        Action::Choose,
        "read the file under the cursor",
        Some("read"),
    ),
    bind(
        &[Files],
        &[Key::code(Esc), Key::char('q')],
        Action::Back,
        "close the files",
        Some("close"),
    ),
    bind(
        &[Reading],
        &[Key::char(']')],
        Action::NextFile,
        "the next file",
        Some("file"),
    ),
    bind(
        &[Reading],
        &[Key::char('[')],
        Action::PreviousFile,
        "the previous file",
        None,
    ),
    bind(
        &[Reading],
        &[Key::code(Esc), Key::char('q')],
        Action::Back,
        "back to the list of files",
        Some("back"),
    ),
    bind(
        DIFFS,
        &[Key::char('n')],
        Action::NextHunk,
        "next hunk",
        Some("hunk"),
    ),
    bind(
        DIFFS,
        &[Key::char('N')],
        Action::PreviousHunk,
        "previous hunk",
        None,
    ),
    bind(
        DIFFS,
        &[Key::char(']')],
        Action::NextFile,
        "next file",
        Some("file"),
    ),
    bind(
        DIFFS,
        &[Key::char('[')],
        Action::PreviousFile,
        "previous file",
        None,
    ),
    bind(
        LISTS,
        &[Key::char('k'), Key::code(Up)],
        Action::Up,
        "up (in the focused pane)",
        None,
    ),
    bind(
        LISTS,
        &[Key::char('j'), Key::code(Down)],
        Action::Down,
        "down",
        None,
    ),
    bind(
        LISTS,
        &[Key::code(PageUp), Key::ctrl('u')],
        Action::PageUp,
        "a page up",
        None,
    ),
    bind(
        LISTS,
        &[Key::code(PageDown), Key::ctrl('d')],
        Action::PageDown,
        "a page down",
        None,
    ),
    bind(
        LISTS,
        &[Key::char('g'), Key::code(Home)],
        Action::Top,
        "to the top",
        None,
    ),
    bind(
        LISTS,
        &[Key::char('G'), Key::code(End)],
        Action::Bottom,
        "to the bottom",
        None,
    ),
    bind(
        SCREENS,
        &[Key::char('r')],
        Action::Rescan,
        "scan every root again, and compare the skills with their snapshots",
        Some("rescan"),
    ),
    bind(
        SCREENS,
        &[Key::char('m')],
        Action::ToggleMouse,
        "mouse on or off (off lets the terminal select text)",
        None,
    ),
    bind(
        &[Skills, Roots, Changed, Diff, Help, Message, Copies, Pick],
        &[Key::code(Esc)],
        Action::Back,
        "close, or step back; in the skill list, leave the zoom, then clear the search, then the filters (q quits)",
        None,
    ),
    bind(
        &[Copies],
        &[Key::char('q')],
        Action::Back,
        "close the copies",
        Some("close"),
    ),
    bind(
        &[Pick],
        &[Key::code(Enter)],
        Action::Choose,
        "choose the one under the cursor",
        Some("choose"),
    ),
    bind(
        &[Working],
        &[Key::code(Esc)],
        Action::Back,
        "stop after the skill under way; what is done stays done",
        Some("stop"),
    ),
    bind(
        &[Summary],
        &[Key::code(Enter), Key::code(Esc), Key::char('q')],
        Action::Back,
        "close the summary",
        Some("close"),
    ),
    bind(
        &[Diff],
        &[Key::char('q')],
        Action::Back,
        "close the diff",
        Some("close"),
    ),
    bind(
        &[Help],
        &[Key::char('?'), Key::char('q')],
        Action::Back,
        "close the help",
        Some("close"),
    ),
    bind(
        &[Message],
        &[Key::code(Enter), Key::char('q')],
        Action::Back,
        "close the message",
        Some("close"),
    ),
    bind(
        &[Search],
        &[Key::code(Enter)],
        Action::AcceptSearch,
        "keep the search and go back to the list",
        Some("keep"),
    ),
    bind(
        &[Search],
        &[Key::code(Esc)],
        Action::Back,
        "cancel the search",
        Some("cancel"),
    ),
    bind(
        &[Search, Export],
        &[Key::code(Backspace)],
        Action::Erase,
        "erase a character",
        None,
    ),
    bind(
        EDITING_ALL_KEYS,
        &[Key::code(Left)],
        Action::Edit(Edit::Left),
        "move the cursor a character left",
        None,
    ),
    bind(
        EDITING,
        &[Key::code(Right)],
        Action::Edit(Edit::Right),
        "move the cursor a character right",
        None,
    ),
    bind(
        EDITING,
        &[Key::code(Home), Key::ctrl('a')],
        Action::Edit(Edit::Home),
        "move the cursor to the start",
        None,
    ),
    bind(
        EDITING,
        &[Key::code(End), Key::ctrl('e')],
        Action::Edit(Edit::End),
        "move the cursor to the end",
        None,
    ),
    bind(
        EDITING,
        &[Key::code(Delete)],
        Action::Edit(Edit::EraseForward),
        "erase the character under the cursor",
        None,
    ),
    bind(
        EDITING_ALL_KEYS,
        &[Key::ctrl('u')],
        Action::Edit(Edit::EraseToStart),
        "erase everything before the cursor",
        None,
    ),
    bind(
        EDITING,
        &[Key::ctrl('w')],
        Action::Edit(Edit::EraseWord),
        "erase the word before the cursor (a folder of a path)",
        None,
    ),
    bind(
        TYPING_LISTS,
        &[Key::code(Up)],
        Action::Up,
        "move up the matches",
        None,
    ),
    bind(
        TYPING_LISTS,
        &[Key::code(Down)],
        Action::Down,
        "move down the matches",
        None,
    ),
    bind(
        &[Picker],
        &[Key::code(PageUp), Key::ctrl('u')],
        Action::PageUp,
        "a page up",
        None,
    ),
    bind(
        &[Picker],
        &[Key::code(PageDown), Key::ctrl('d')],
        Action::PageDown,
        "a page down",
        None,
    ),
    bind(
        &[Picker],
        &[Key::code(Enter)],
        Action::Choose,
        "open the folder, or read the archive (or this folder) as a bundle",
        Some("open"),
    ),
    bind(
        &[Picker],
        &[Key::code(Left)],
        Action::Parent,
        "the folder above",
        Some("up"),
    ),
    bind(
        &[Picker],
        &[Key::code(Backspace)],
        Action::Erase,
        "erase a letter of the filter; with none, the folder above",
        None,
    ),
    bind(
        &[Picker],
        &[Key::ctrl('t')],
        Action::ToggleHidden,
        "show hidden folders and archives (a leading dot), or leave them out again",
        Some("hidden"),
    ),
    bind(
        &[Bundle],
        &[Key::char(' ')],
        Action::ToggleSkill,
        "take or leave the skill under the cursor",
        Some("take/leave"),
    ),
    bind(
        &[Bundle],
        &[Key::char('a')],
        Action::TakeAll,
        "take every skill",
        Some("all"),
    ),
    bind(
        &[Bundle],
        &[Key::char('n')],
        Action::TakeNone,
        "leave every skill",
        Some("none"),
    ),
    bind(
        &[Bundle],
        &[Key::code(Enter)],
        Action::Choose,
        "go on: choose where the skills go",
        Some("go on"),
    ),
    bind(
        &[Refused],
        &[Key::code(Enter)],
        Action::Choose,
        "back to the picker, to choose another",
        Some("pick another"),
    ),
    bind(
        &[Destination],
        &[Key::code(Enter)],
        Action::Choose,
        "install into the folder under the cursor",
        Some("install"),
    ),
    bind(
        &[Replace],
        &[Key::char('y')],
        Action::Confirm,
        "replace them (what each holds now is snapshotted first); those kept are left as they are",
        Some("replace"),
    ),
    bind(
        &[Replace],
        &[Key::char(' ')],
        Action::ToggleSkill,
        "keep the skill shown as it is, or replace it after all",
        Some("keep/replace"),
    ),
    bind(
        &[Risk],
        &[Key::char('!')],
        Action::AcceptRisk,
        "install anyway, the risk accepted (Enter and y do not: the risk is accepted by name)",
        Some("install anyway"),
    ),
    bind(
        &[Risk],
        &[Key::code(Esc)],
        Action::Back,
        "cancel the import; nothing is written",
        Some("cancel"),
    ),
    bind(
        IMPORTING,
        &[Key::code(Esc)],
        Action::Back,
        "cancel the import; nothing is written",
        Some("cancel"),
    ),
    bind(
        &[Imported],
        &[Key::code(Enter), Key::code(Esc), Key::char('q')],
        Action::Back,
        "close; the skills are scanned again",
        Some("close"),
    ),
    bind(
        &[Confirm],
        &[Key::char('y')],
        Action::Confirm,
        "yes",
        Some("yes"),
    ),
    bind(
        &[Confirm],
        &[Key::char('n'), Key::code(Esc), Key::char('q')],
        Action::Back,
        "no",
        Some("no"),
    ),
    bind(
        &[Export],
        &[Key::code(Enter)],
        Action::Choose,
        "export to the path typed (a folder: into it, under a free name; no file is replaced)",
        Some("export"),
    ),
    bind(
        &[Export],
        &[Key::code(Esc)],
        Action::Back,
        "cancel the export",
        Some("cancel"),
    ),
];

/// What the key does in `mode`, if anything. Where letters are text (the search line, the
/// picker's filter, a path) a character no binding takes is typed.
pub fn resolve(mode: Mode, event: &KeyEvent) -> Option<Action> {
    // While a field has focus a character is text, before anything the table says: a key
    // bound there by mistake is typed, not swallowed (a folder name with a `j` or a `?` in the
    // picker's filter); only keys that are not characters, or held with Ctrl or Alt, act.
    let plain = !event
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SUPER);
    if let (true, true, KeyCode::Char(c)) = (mode.types(), plain, event.code) {
        return Some(Action::Type(c));
    }
    BINDINGS
        .iter()
        .find(|b| b.modes.contains(&mode) && b.keys.iter().any(|k| k.matches(event)))
        .map(|b| b.action)
}

/// What a sentence says for a key the table does not have; a test finds every sentence that
/// asks for one.
pub const NO_KEY: &str = "(no key)";

/// The first key that does `action` in `mode`, as written for people: for the sentences that
/// name a key, so they say what the table says.
pub fn key_for(mode: Mode, action: Action) -> String {
    keys(mode, action)
        .next()
        .map_or_else(|| NO_KEY.to_owned(), Key::name)
}

/// Every key that does `action` in `mode`, in the table's order, as a sentence names them:
/// `n or Esc`, `Esc, Enter or q`.
pub fn keys_for(mode: Mode, action: Action) -> String {
    let names: Vec<String> = keys(mode, action).map(Key::name).collect();
    match names.as_slice() {
        [] => NO_KEY.to_owned(),
        [only] => only.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Whether a key does `action` in `mode`.
pub fn binds(mode: Mode, action: Action) -> bool {
    keys(mode, action).next().is_some()
}

fn keys(mode: Mode, action: Action) -> impl Iterator<Item = Key> {
    BINDINGS
        .iter()
        .filter(move |b| b.modes.contains(&mode) && b.action == action)
        .flat_map(|b| b.keys.iter().copied())
}

/// The footer's hints for `mode`: the first key of each binding with a hint, and its word.
pub fn hints(mode: Mode) -> Vec<(String, &'static str)> {
    hints_offered(mode, |_| true)
}

/// [`hints`], leaving out the actions the state on screen does not `offer`.
pub fn hints_offered(mode: Mode, offer: impl Fn(Action) -> bool) -> Vec<(String, &'static str)> {
    BINDINGS
        .iter()
        .filter(|b| b.modes.contains(&mode) && offer(b.action))
        .filter_map(|b| Some((b.keys.first()?.name(), b.hint?)))
        .collect()
}

/// The help screen's sections: each binding under the first mode it applies in, the bindings
/// that apply everywhere first.
pub fn help_sections() -> Vec<(&'static str, Vec<&'static Binding>)> {
    let everywhere: Vec<&Binding> = BINDINGS
        .iter()
        .filter(|b| b.modes.len() == Mode::VARIANTS.len())
        .collect();
    let mut sections = vec![("Everywhere", everywhere)];
    for &mode in Mode::VARIANTS {
        let rows: Vec<&Binding> = BINDINGS
            .iter()
            .filter(|b| b.modes.len() < Mode::VARIANTS.len() && b.modes.first() == Some(&mode))
            .collect();
        if !rows.is_empty() {
            sections.push((mode.title(), rows));
        }
    }
    sections
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventKind;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    fn plain(c: char) -> KeyEvent {
        key(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn keys_resolve_to_actions_by_mode() {
        let none = KeyModifiers::NONE;
        let shift = KeyModifiers::SHIFT;
        let ctrl = KeyModifiers::CONTROL;
        let cases: &[(Mode, KeyEvent, Option<Action>)] = &[
            (Skills, plain('j'), Some(Action::Down)),
            (Skills, key(Down, none), Some(Action::Down)),
            (Skills, plain('k'), Some(Action::Up)),
            (Skills, key(Up, none), Some(Action::Up)),
            (Skills, plain('g'), Some(Action::Top)),
            (Skills, key(KeyCode::Char('G'), shift), Some(Action::Bottom)),
            (Skills, plain('G'), Some(Action::Bottom)),
            (Skills, key(End, none), Some(Action::Bottom)),
            (
                Skills,
                key(KeyCode::Char('d'), ctrl),
                Some(Action::PageDown),
            ),
            (Skills, key(PageUp, none), Some(Action::PageUp)),
            (Skills, plain('d'), Some(Action::ToggleDrifted)),
            (Skills, plain('/'), Some(Action::StartSearch)),
            (Skills, plain('s'), Some(Action::Snapshot)),
            (Skills, plain('f'), Some(Action::CycleSource)),
            (Skills, plain('w'), Some(Action::CycleInstaller)),
            (Skills, plain('e'), Some(Action::Export)),
            (Skills, plain('i'), Some(Action::Import)),
            (
                Skills,
                key(KeyCode::Char('D'), shift),
                Some(Action::OpenDiff),
            ),
            (Skills, plain('3'), Some(Action::ShowChanged)),
            (Skills, plain('R'), None),
            (Skills, plain('a'), Some(Action::CycleAgent)),
            (Skills, plain('A'), Some(Action::ToggleAllAgents)),
            (Roots, plain('A'), Some(Action::ToggleAllAgents)),
            (Destination, plain('A'), Some(Action::ToggleAllAgents)),
            (Changed, plain('A'), None),
            (Skills, plain('t'), Some(Action::CycleState)),
            (
                Skills,
                key(KeyCode::Char('T'), shift),
                Some(Action::CycleStateBack),
            ),
            (Skills, plain('F'), Some(Action::CycleSourceBack)),
            (Skills, plain('W'), Some(Action::CycleInstallerBack)),
            (
                Skills,
                key(KeyCode::Char('a'), ctrl),
                Some(Action::CycleAgentBack),
            ),
            (Skills, plain('o'), Some(Action::CycleSort)),
            (Skills, plain('?'), Some(Action::ToggleHelp)),
            (Skills, plain('q'), Some(Action::Quit)),
            (Roots, plain('q'), Some(Action::Back)),
            (Changed, plain('q'), Some(Action::Back)),
            (Skills, key(Esc, none), Some(Action::Back)),
            (Skills, key(KeyCode::Char('c'), ctrl), Some(Action::Quit)),
            (Skills, key(Tab, none), Some(Action::NextPane)),
            (Skills, key(BackTab, shift), Some(Action::PreviousPane)),
            (Skills, plain('2'), Some(Action::ShowRoots)),
            (Skills, plain('1'), None),
            (Skills, plain('x'), Some(Action::Remove)),
            (Skills, key(Delete, none), Some(Action::Remove)),
            (Skills, plain(' '), Some(Action::ToggleMark)),
            (Skills, plain('C'), Some(Action::ClearMarks)),
            (Skills, plain('-'), Some(Action::Disable)),
            (Skills, plain('+'), Some(Action::Enable)),
            (Skills, plain('='), Some(Action::Enable)),
            (Skills, plain('l'), Some(Action::Link)),
            (Skills, plain('y'), Some(Action::CopyTo)),
            (Skills, plain('M'), Some(Action::MoveTo)),
            (Skills, plain('b'), Some(Action::Accept)),
            (Skills, plain('S'), Some(Action::ShowCopies)),
            (Skills, plain('u'), Some(Action::Undo)),
            (Skills, plain('O'), Some(Action::ToggleDisabled)),
            (Roots, plain('u'), Some(Action::Undo)),
            (Changed, plain('u'), Some(Action::Undo)),
            (Diff, plain('u'), None),
            (Skills, plain('h'), Some(Action::OpenHistory)),
            (Changed, plain('h'), Some(Action::OpenHistory)),
            (Diff, plain('h'), Some(Action::OpenHistory)),
            (Roots, plain('h'), None),
            (History, key(Enter, none), Some(Action::OpenDiff)),
            (History, plain('D'), Some(Action::OpenDiff)),
            (History, plain(' '), Some(Action::ToggleMark)),
            (History, plain('c'), Some(Action::ToggleMark)),
            (History, plain('R'), Some(Action::Restore)),
            (History, plain('x'), Some(Action::Remove)),
            (History, key(Delete, none), Some(Action::Remove)),
            (History, plain('u'), Some(Action::Undo)),
            (History, plain('j'), Some(Action::Down)),
            (History, key(End, none), Some(Action::Bottom)),
            (History, key(Esc, none), Some(Action::Back)),
            (History, plain('q'), Some(Action::Back)),
            (History, plain('?'), Some(Action::ToggleHelp)),
            (History, plain('h'), None),
            (History, plain('a'), None),
            (Copies, plain('x'), Some(Action::Remove)),
            (Copies, plain('-'), Some(Action::Disable)),
            (Copies, plain('M'), Some(Action::MoveTo)),
            (Copies, plain('j'), Some(Action::Down)),
            (Copies, plain('q'), Some(Action::Back)),
            (Copies, plain(' '), None),
            (Copies, plain('l'), None),
            (Pick, key(Enter, none), Some(Action::Choose)),
            (Pick, plain('k'), Some(Action::Up)),
            (Pick, key(Esc, none), Some(Action::Back)),
            (Pick, plain('x'), None),
            (Working, key(Esc, none), Some(Action::Back)),
            (Working, plain('j'), None),
            (Working, plain('q'), None),
            (Summary, key(Enter, none), Some(Action::Back)),
            (Summary, plain('q'), Some(Action::Back)),
            (Summary, plain('u'), Some(Action::Undo)),
            (Skills, plain('B'), Some(Action::ShowBudget)),
            (Skills, plain('n'), Some(Action::CycleUnused)),
            (Budget, key(Tab, none), Some(Action::NextPane)),
            (Budget, key(Right, none), Some(Action::NextPane)),
            (Budget, key(BackTab, shift), Some(Action::PreviousPane)),
            (Budget, key(Left, none), Some(Action::PreviousPane)),
            (Budget, plain('j'), Some(Action::Down)),
            (Budget, plain(' '), Some(Action::ToggleMark)),
            (Budget, plain('-'), Some(Action::Disable)),
            (Budget, plain('+'), Some(Action::Enable)),
            (Budget, plain('x'), Some(Action::Remove)),
            (Budget, plain('u'), Some(Action::Undo)),
            (Budget, key(Esc, none), Some(Action::Back)),
            (Budget, plain('q'), Some(Action::Back)),
            (Budget, plain('?'), Some(Action::ToggleHelp)),
            (Budget, plain('B'), None),
            (Budget, plain('l'), None),
            (Skills, key(KeyCode::Char('j'), KeyModifiers::ALT), None),
            (Roots, plain('1'), Some(Action::ShowSkills)),
            (Roots, plain('3'), Some(Action::ShowChanged)),
            (Roots, plain('s'), None),
            (Changed, key(Enter, none), Some(Action::OpenDiff)),
            (Changed, plain('D'), Some(Action::OpenDiff)),
            (
                Changed,
                key(KeyCode::Char('R'), shift),
                Some(Action::Restore),
            ),
            (Changed, plain('a'), Some(Action::Accept)),
            (Changed, plain('s'), Some(Action::Snapshot)),
            (Changed, plain('e'), Some(Action::Export)),
            (Changed, plain('1'), Some(Action::ShowSkills)),
            (Changed, plain('2'), Some(Action::ShowRoots)),
            (Changed, plain('3'), None),
            (Changed, plain('j'), Some(Action::Down)),
            (Changed, key(Esc, none), Some(Action::Back)),
            (Diff, plain('n'), Some(Action::NextHunk)),
            (Diff, plain('N'), Some(Action::PreviousHunk)),
            (Diff, plain(']'), Some(Action::NextFile)),
            (Diff, plain('['), Some(Action::PreviousFile)),
            (Diff, plain('R'), Some(Action::Restore)),
            (Diff, plain('a'), Some(Action::Accept)),
            (Diff, plain('q'), Some(Action::Back)),
            (Diff, key(PageDown, none), Some(Action::PageDown)),
            (Diff, plain('i'), None),
            // In the picker, letters filter; only the arrows move.
            (Picker, plain('j'), Some(Action::Type('j'))),
            (Picker, plain('q'), Some(Action::Type('q'))),
            (Picker, key(Down, none), Some(Action::Down)),
            (Picker, key(Enter, none), Some(Action::Choose)),
            (Picker, key(Left, none), Some(Action::Parent)),
            (Picker, key(Backspace, none), Some(Action::Erase)),
            (Picker, key(Esc, none), Some(Action::Back)),
            // Every character is typed there: `?` as much as `/`, `~` and `.` (a path).
            (Picker, plain('?'), Some(Action::Type('?'))),
            (Picker, key(F(1), none), Some(Action::ToggleHelp)),
            (Picker, plain('/'), Some(Action::Type('/'))),
            (Picker, plain('~'), Some(Action::Type('~'))),
            (
                Picker,
                key(KeyCode::Char('t'), ctrl),
                Some(Action::ToggleHidden),
            ),
            (Picker, key(Home, none), Some(Action::Edit(Edit::Home))),
            (Picker, key(Right, none), Some(Action::Edit(Edit::Right))),
            (
                Picker,
                key(KeyCode::Char('w'), ctrl),
                Some(Action::Edit(Edit::EraseWord)),
            ),
            // ← and Ctrl-U keep their picker meanings: the folder above, a page up.
            (Picker, key(KeyCode::Char('u'), ctrl), Some(Action::PageUp)),
            (Search, key(Left, none), Some(Action::Edit(Edit::Left))),
            // A skill's files: open them, edit, copy the path; read one, step through them.
            (Skills, plain('v'), Some(Action::OpenFiles)),
            (Skills, plain('E'), Some(Action::OpenEditor)),
            (Skills, plain('p'), Some(Action::CopyPath)),
            (Files, key(Enter, none), Some(Action::Choose)),
            (Files, plain('j'), Some(Action::Down)),
            (Files, plain('E'), Some(Action::OpenEditor)),
            (Files, plain('q'), Some(Action::Back)),
            (Reading, plain(']'), Some(Action::NextFile)),
            (Reading, key(PageDown, none), Some(Action::PageDown)),
            (Reading, plain('p'), Some(Action::CopyPath)),
            (Reading, key(Esc, none), Some(Action::Back)),
            (Reading, plain('x'), None),
            (Bundle, plain(' '), Some(Action::ToggleSkill)),
            (Bundle, key(Enter, none), Some(Action::Choose)),
            (Bundle, plain('j'), Some(Action::Down)),
            (Bundle, plain('a'), Some(Action::TakeAll)),
            (Bundle, plain('n'), Some(Action::TakeNone)),
            (Bundle, key(Esc, none), Some(Action::Back)),
            (Refused, key(Enter, none), Some(Action::Choose)),
            (Refused, plain(' '), None),
            (Destination, key(Enter, none), Some(Action::Choose)),
            (Destination, plain('k'), Some(Action::Up)),
            (Replace, plain('y'), Some(Action::Confirm)),
            (Replace, plain('n'), Some(Action::NextHunk)),
            (Replace, plain(' '), Some(Action::ToggleSkill)),
            (Replace, key(Esc, none), Some(Action::Back)),
            (Busy, key(Esc, none), Some(Action::Back)),
            (Busy, plain('q'), None),
            (Imported, key(Enter, none), Some(Action::Back)),
            (Confirm, plain('y'), Some(Action::Confirm)),
            (Confirm, plain('n'), Some(Action::Back)),
            (Confirm, key(Esc, none), Some(Action::Back)),
            (Confirm, plain('q'), Some(Action::Back)),
            (Export, plain('x'), Some(Action::Type('x'))),
            (Export, plain('/'), Some(Action::Type('/'))),
            (Export, key(Backspace, none), Some(Action::Erase)),
            (Export, key(Enter, none), Some(Action::Choose)),
            (Export, key(Esc, none), Some(Action::Back)),
            (Roots, plain('j'), Some(Action::Down)),
            (Roots, plain('d'), None),
            (Roots, key(Esc, none), Some(Action::Back)),
            // On the search line letters are text, even those bound elsewhere.
            (Search, plain('q'), Some(Action::Type('q'))),
            (Search, plain('j'), Some(Action::Type('j'))),
            (
                Search,
                key(KeyCode::Char('Q'), shift),
                Some(Action::Type('Q')),
            ),
            (Search, plain('漢'), Some(Action::Type('漢'))),
            (Search, key(Backspace, none), Some(Action::Erase)),
            (Search, key(Enter, none), Some(Action::AcceptSearch)),
            (Search, key(Esc, none), Some(Action::Back)),
            (Search, key(Down, none), Some(Action::Down)),
            (Search, key(KeyCode::Char('c'), ctrl), Some(Action::Quit)),
            (
                Search,
                key(KeyCode::Char('w'), ctrl),
                Some(Action::Edit(Edit::EraseWord)),
            ),
            (Search, key(KeyCode::Char('x'), ctrl), None),
            (Search, key(Left, none), Some(Action::Edit(Edit::Left))),
            (Export, key(Right, none), Some(Action::Edit(Edit::Right))),
            (Export, key(Home, none), Some(Action::Edit(Edit::Home))),
            (Export, key(End, none), Some(Action::Edit(Edit::End))),
            (
                Export,
                key(KeyCode::Char('u'), ctrl),
                Some(Action::Edit(Edit::EraseToStart)),
            ),
            (
                Export,
                key(Delete, none),
                Some(Action::Edit(Edit::EraseForward)),
            ),
            (Help, plain('q'), Some(Action::Back)),
            (Help, plain('?'), Some(Action::Back)),
            (Help, plain('j'), Some(Action::Down)),
            (Help, plain('/'), None),
            // Updating from the upstream, and its conflicts.
            (Skills, plain('U'), Some(Action::Update)),
            (Skills, plain('K'), Some(Action::CheckUpstreams)),
            (Conflicts, plain('t'), Some(Action::TakeTheirs)),
            (Conflicts, plain('o'), Some(Action::TakeOurs)),
            (Conflicts, plain('b'), Some(Action::TakeBoth)),
            (Conflicts, plain('y'), Some(Action::Confirm)),
            (Conflicts, plain('j'), Some(Action::Down)),
            (Conflicts, plain('n'), Some(Action::NextHunk)),
            (Conflicts, plain(']'), Some(Action::NextFile)),
            (Conflicts, key(PageDown, none), Some(Action::PageDown)),
            (Conflicts, key(Esc, none), Some(Action::Back)),
            (Conflicts, plain('q'), Some(Action::Back)),
            (Conflicts, plain('?'), Some(Action::ToggleHelp)),
            (Conflicts, plain('U'), None),
            (Conflicts, plain('u'), None),
            (Message, key(Enter, none), Some(Action::Back)),
            (Message, plain('j'), None),
            (
                Message,
                key(KeyCode::Char('C'), ctrl | shift),
                Some(Action::Quit),
            ),
        ];
        for (mode, event, want) in cases {
            assert_eq!(resolve(*mode, event), *want, "{mode:?} {event:?}");
        }
    }

    #[test]
    fn no_key_means_two_things_in_one_mode() {
        for &mode in Mode::VARIANTS {
            let mut seen: Vec<(Key, Action)> = Vec::new();
            for binding in BINDINGS.iter().filter(|b| b.modes.contains(&mode)) {
                for key in binding.keys {
                    if let Some((_, other)) = seen.iter().find(|(k, _)| k == key) {
                        panic!(
                            "{mode:?}: {} is bound to {other:?} and {:?}",
                            key.name(),
                            binding.action
                        );
                    }
                    seen.push((*key, binding.action));
                }
            }
        }
    }

    #[test]
    fn every_mode_can_be_left_and_every_binding_is_on_the_help_screen() {
        for &mode in Mode::VARIANTS {
            let leaves = BINDINGS.iter().any(|b| {
                b.modes.contains(&mode) && matches!(b.action, Action::Back | Action::Quit)
            });
            assert!(leaves, "{mode:?} has no way out");
        }
        let listed: usize = help_sections().iter().map(|(_, rows)| rows.len()).sum();
        assert_eq!(listed, BINDINGS.len());
    }

    #[test]
    fn the_footer_comes_from_the_table() {
        let skills = hints(Skills);
        assert_eq!(skills[0], ("?".to_owned(), "help"));
        assert!(skills.contains(&("d".to_owned(), "modified")));
        assert!(skills.contains(&("/".to_owned(), "search")));
        assert!(skills.contains(&("s".to_owned(), "snapshot")));
        assert!(skills.contains(&("f".to_owned(), "source")));
        assert!(!skills.iter().any(|(_, word)| *word == "skills"));
        assert_eq!(hints(Search)[0], ("Enter".to_owned(), "keep"));
        assert!(hints(Diff).contains(&("R".to_owned(), "restore")));
        assert_eq!(
            hints(Confirm),
            [("y".to_owned(), "yes"), ("n".to_owned(), "no")]
        );
        assert_eq!(key_for(Diff, Action::NextHunk), "n");
        assert_eq!(key_for(Changed, Action::OpenDiff), "D");
        assert_eq!(key_for(Skills, Action::Quit), "q");
        assert_eq!(key_for(Picker, Action::Quit), "Ctrl-c");
        assert_eq!(key_for(Skills, Action::Confirm), NO_KEY);
        assert!(!binds(Skills, Action::Confirm));
        assert_eq!(keys_for(Confirm, Action::Back), "n, Esc or q");
        assert_eq!(keys_for(Message, Action::Back), "Esc, Enter or q");
        assert_eq!(keys_for(Bundle, Action::ToggleSkill), "Space");
    }

    #[test]
    fn every_action_has_a_key_somewhere() {
        use strum::IntoEnumIterator;
        for action in Action::iter() {
            // Typing is every character no binding takes, where letters are text.
            if matches!(action, Action::Type(_)) {
                continue;
            }
            assert!(
                Mode::VARIANTS.iter().any(|&mode| binds(mode, action)),
                "{action:?} has no key"
            );
        }
    }

    #[test]
    fn the_managing_keys_reach_the_marked_skills_and_the_copies() {
        // What acts on the marked skills from the list, and on the copy under the cursor.
        for action in [
            Action::ToggleMark,
            Action::ClearMarks,
            Action::Remove,
            Action::Disable,
            Action::Enable,
            Action::Link,
            Action::CopyTo,
            Action::MoveTo,
            Action::Snapshot,
            Action::Accept,
            Action::Export,
            Action::ShowCopies,
            Action::Undo,
            Action::ToggleDisabled,
        ] {
            assert!(binds(Skills, action), "{action:?} in the skill list");
        }
        for action in [
            Action::Remove,
            Action::Disable,
            Action::Enable,
            Action::MoveTo,
            Action::Back,
        ] {
            assert!(binds(Copies, action), "{action:?} in the copies");
        }
        // The same key does the same thing in the list and in the copies.
        assert_eq!(
            key_for(Skills, Action::Remove),
            key_for(Copies, Action::Remove)
        );
        assert_eq!(
            key_for(Skills, Action::Disable),
            key_for(Copies, Action::Disable)
        );
        assert_eq!(key_for(Working, Action::Back), "Esc");
        assert!(hints(Skills).contains(&("Space".to_owned(), "mark")));
    }

    #[test]
    fn release_events_are_not_key_presses() {
        // The runtime only hands presses to `resolve`; this is the crossterm call it relies on.
        let release = KeyEvent::new_with_kind(
            KeyCode::Char('j'),
            KeyModifiers::NONE,
            KeyEventKind::Release,
        );
        let event = ratatui::crossterm::event::Event::Key(release);
        assert_eq!(event.as_key_press_event(), None);
    }
}
