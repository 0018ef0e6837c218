//! What can happen to the app (`Msg`), what a key asks for (`Action`), and what `update` asks
//! the runtime to do in the world (`Effect`).

use std::path::PathBuf;

use crate::scan::Progress;

use super::model::Deck;

/// What a key (or a mouse gesture) asks for; the keymap is the one place that says which key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Quit,
    /// Close what is open, or step back; quits from the skill list.
    Back,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    NextPane,
    PreviousPane,
    /// Focus the `SKILL.md` preview.
    OpenPreview,
    StartSearch,
    /// A character typed into the search line.
    Type(char),
    Erase,
    /// Keep the search and go back to the list.
    AcceptSearch,
    CycleSource,
    CycleAgent,
    CycleState,
    /// Show only the skills whose files no longer match their record, or everything again.
    ToggleDrifted,
    CycleSort,
    ClearFilters,
    ShowSkills,
    ShowRoots,
    ToggleHelp,
    Rescan,
    ToggleMouse,
}

/// One of the panes of the skill screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Pane {
    #[default]
    List,
    Detail,
    Preview,
}

/// Everything `update` reacts to.
#[derive(Debug)]
pub enum Msg {
    /// The app has just opened.
    Started,
    Action(Action),
    /// A click on a row of the skill list or the roots table (its index in what is shown).
    Select(usize),
    /// A click on a pane.
    Focus(Pane),
    /// The mouse wheel over a pane: rows down (positive) or up.
    Scroll(Pane, i32),
    /// The terminal changed size.
    Resized,
    ScanProgress(Progress),
    ScanDone(Box<Deck>),
    /// The text of a skill's `SKILL.md`, as display-safe lines, or why it could not be read.
    Preview {
        dir: PathBuf,
        text: Result<Vec<String>, String>,
    },
    /// Something failed that the person should be told: a worker stopped, the terminal refused a mode.
    Failed(String),
}

/// What `update` asks the runtime to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    StartScan,
    ReadPreview(PathBuf),
    SetMouse(bool),
}
