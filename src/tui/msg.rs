//! What can happen to the app (`Msg`), what a key asks for (`Action`), and what `update` asks
//! the runtime to do in the world (`Effect`).

use std::path::PathBuf;
use std::time::SystemTime;

use crate::operations::update::Report;
use crate::scan::Progress;

use super::audit::{AuditView, RiskView};
use super::budget::UsageView;
use super::changes::ChangeView;
use super::diff::DiffView;
use super::editor::EditorFailed;
use super::failed::{
    ChangesFailed, HistoryFailed, ImportFailed, ListingFailed, PreviewFailed, ReadFailed, Stopped,
};
use super::failed::{DiffError, PlanError, TaskError};
use super::geometry::Laid;
use super::history::HistoryView;
use super::import::{
    BundleView, ConflictView, DestinationView, ImportedView, PlaceView, RefusalView,
};
use super::line::Edit;
use super::manage::{Batch, BatchEvent, Destination, PlanView, Target};
use super::model::Deck;
use super::updating::{Planned, Settled, UpdateFailure};
use super::upstreams::{CheckStopped, Upstreams};
use super::viewer::FileText;

/// What a key (or a mouse gesture) asks for; the keymap is the one place that says which key.
/// `Action::iter()` goes through them all (`Type` with the character `'\0'`), so the tests
/// that try every action cannot leave a new one out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::EnumIter)]
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
    /// The pane with the keyboard fills the screen, or shares it again.
    Zoom,
    /// Focus the `SKILL.md` preview.
    OpenPreview,
    /// Open the selected skill's files, to read any of them.
    OpenFiles,
    /// Open the skill's `SKILL.md`, or the file chosen, in the person's editor.
    OpenEditor,
    /// Copy the selected skill's folder path to the terminal's clipboard.
    CopyPath,
    StartSearch,
    /// A character typed into the search line, the picker's filter or a prompt.
    Type(char),
    Erase,
    /// Move the cursor of what is being typed, or erase part of it.
    Edit(Edit),
    /// Keep the search and go back to the list.
    AcceptSearch,
    CycleSource,
    /// The filters cycled the other way round.
    CycleSourceBack,
    CycleAgent,
    CycleAgentBack,
    /// Show every agent, or only the agents installed on this machine again.
    ToggleAllAgents,
    CycleState,
    CycleStateBack,
    CycleInstaller,
    CycleInstallerBack,
    /// Show only the skills whose files no longer match their record, or everything again.
    ToggleDrifted,
    CycleSort,
    ClearFilters,
    ShowSkills,
    ShowRoots,
    ShowChanged,
    ToggleHelp,
    Rescan,
    ToggleMouse,
    /// Open the diff of the selected skill.
    OpenDiff,
    NextHunk,
    PreviousHunk,
    NextFile,
    PreviousFile,
    /// Snapshot the selected skill.
    Snapshot,
    /// Accept the selected skill's content as its new baseline.
    Accept,
    /// Restore the selected skill's latest snapshot (asks first).
    Restore,
    /// Export the selected skill to an archive (asks where).
    Export,
    /// Open the import picker.
    Import,
    /// Go on with what is under the cursor: open a folder, read an archive, go to the next step.
    Choose,
    /// Go up to the folder above, in the picker.
    Parent,
    /// Show hidden folders (a leading dot) in the picker, or leave them out again.
    ToggleHidden,
    /// Take or leave the skill under the cursor, in an import's preview; replace or keep the
    /// skill shown, among those it would replace.
    ToggleSkill,
    /// Take every skill of an import's preview.
    TakeAll,
    /// Leave every skill of an import's preview.
    TakeNone,
    /// Say yes to what is asked.
    Confirm,
    /// Install a bundle the audit finds high findings in, the risk accepted.
    AcceptRisk,
    /// Mark the skill under the cursor, or unmark it: actions then apply to every marked skill.
    ToggleMark,
    ClearMarks,
    /// Remove the skills (asks first; each is snapshotted first).
    Remove,
    /// Turn the skills off for one agent, in its own settings (asks which).
    Disable,
    /// Turn the skills on again for one agent (asks which).
    Enable,
    /// Link the skills into another agent's root or scope (asks where).
    Link,
    /// Copy the skills into another agent's root or scope (asks where).
    CopyTo,
    /// Move the skills to another scope or root (asks where).
    MoveTo,
    /// Open every copy of the selected skill's name.
    ShowCopies,
    /// Revert the last operation (asks first).
    Undo,
    /// Show only the skills some agent's settings turn off, or everything again.
    ToggleDisabled,
    /// Open the selected skill's history: every snapshot of it.
    OpenHistory,
    /// Open the budget view: what each agent's listing of skills costs, and the skills in it.
    ShowBudget,
    /// Show only the skills not used in 7, 30, 90 days, or everything again.
    CycleUnused,
    /// Update the skills from their recorded upstream, keeping local edits (asks first).
    Update,
    /// Ask each recorded upstream whether it moved (the network, only when asked).
    CheckUpstreams,
    /// Settle the conflict under the cursor with upstream's version.
    TakeTheirs,
    /// Settle the conflict under the cursor with the version here.
    TakeOurs,
    /// Settle the conflict under the cursor keeping both sides.
    TakeBoth,
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
    /// A click on a row of the list shown (its index in what is shown).
    Select(usize),
    /// A click on a pane.
    Focus(Pane),
    /// The mouse wheel over a pane: rows down (positive) or up.
    Scroll(Pane, i32),
    /// The terminal changed size.
    Resized,
    /// Where a frame just drawn put each pane, and how much of it showed.
    Laid(Box<Laid>),
    ScanProgress(Progress),
    ScanDone(Box<Deck>),
    /// The skills that changed since their snapshots, found after a scan, or why they could
    /// not be compared.
    Changes(Result<Changes, ChangesFailed>),
    /// One skill compared again after a snapshot of it: its row, or none when it is unchanged.
    Compared {
        dir: PathBuf,
        change: Option<ChangeView>,
    },
    /// The text of a skill's `SKILL.md`, as display-safe lines, or why it could not be read.
    Preview {
        dir: PathBuf,
        text: Result<Vec<String>, PreviewFailed>,
    },
    /// A file of a skill read for the viewer, for the read asked for with `request`.
    FileRead {
        request: u64,
        file: Result<FileText, ReadFailed>,
    },
    /// The editor the person ran on a skill's file has ended, or why it did not run well.
    Edited(Result<(), EditorFailed>),
    /// A diff asked for with `request`, or why it could not be made.
    Diff {
        request: u64,
        diff: Result<Box<DiffView>, DiffError>,
    },
    /// A task the person asked for (snapshot, accept, restore, export, undo) is over: what it
    /// did, or why it did nothing, for a message. `rescan` when it changed skills on disk.
    TaskDone {
        result: Result<Told, TaskError>,
        rescan: bool,
    },
    /// An export did not happen: why, as a sentence, and what was typed, to ask again with.
    ExportFailed {
        name: String,
        dir: PathBuf,
        to: String,
        why: String,
    },
    /// A folder listed for the import picker, for the listing asked for with `request`.
    Listing {
        request: u64,
        place: Result<PlaceView, ListingFailed>,
    },
    /// News from an import's worker.
    Import {
        session: u64,
        event: ImportEvent,
    },
    /// News from the batch `id`.
    Batch {
        id: u64,
        event: BatchEvent,
    },
    /// The plans of a link, copy or move asked for with `request`: each skill's, or why it
    /// cannot go there.
    Planned {
        request: u64,
        to: Destination,
        plans: Vec<(Target, Result<PlanView, PlanError>)>,
    },
    /// A skill's history asked for with `request`, or why it could not be read.
    History {
        request: u64,
        history: Result<Box<HistoryView>, HistoryFailed>,
    },
    /// The skills' uses, read after a scan, or why they could not be.
    Usage(Result<Box<UsageView>, Stopped>),
    /// The audits asked for with `request`: each skill's, by its folder (a folder that could
    /// not be read is left out).
    Audited {
        request: u64,
        found: Vec<(PathBuf, AuditView)>,
    },
    /// News from an update's worker.
    Update {
        session: u64,
        event: UpdateEvent,
    },
    /// News of the skills' upstreams: the last check's answers, or a check's.
    Upstreams(UpstreamsEvent),
    /// Files changed on disk, as the watcher saw them: the skill folders they lie in, or the
    /// paths themselves when they lie in none (a folder made in a root, a settings file).
    Changed {
        dirs: Vec<PathBuf>,
    },
    /// The skills at `dirs` scanned again after they changed: the deck as it is now, each of
    /// them compared with its snapshots again, or why the rescan failed.
    Rescanned {
        dirs: Vec<PathBuf>,
        result: Result<Box<Rescan>, RescanError>,
    },
    /// The watch is in place: `told` folders by the system, `polled` looked at every few
    /// seconds instead, where the system's limit on watches ran out.
    Watched {
        told: usize,
        polled: usize,
    },
    /// The clock's time now, for the relative times drawn ("3 min ago").
    Tick(SystemTime),
    /// What an undo would revert now (a line per thing it puts back), nothing when the journal
    /// has nothing left to revert, or why the journal could not be read.
    UndoNext(Result<Option<Vec<String>>, TaskError>),
    /// Something failed that the person should be told: a worker stopped, the terminal refused a mode.
    Failed(String),
    /// The process was asked to stop (SIGTERM, SIGHUP, SIGINT): leave as on `q`.
    Signal(i32),
}

/// What a task that is done tells the person, display-safe: a line for the status, and, when
/// its report holds more than one line can, every other field of it, each a line of the
/// result window.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Told {
    pub note: String,
    /// The result window's title (`Undone`), when there is more.
    pub title: String,
    pub more: Vec<String>,
}

impl From<String> for Told {
    fn from(note: String) -> Self {
        Self {
            note,
            ..Self::default()
        }
    }
}

/// What a rescan of a few skills found: the deck again (every skill decided again, only those
/// read again), and the changed screen's row of each skill rescanned (none when unchanged).
#[derive(Debug)]
pub struct Rescan {
    pub deck: Deck,
    pub compared: Vec<(PathBuf, Option<ChangeView>)>,
}

/// Why a rescan of a few skills brought no deck.
#[derive(Debug, thiserror::Error)]
pub enum RescanError {
    /// The live engine's rescan failed (the snapshots could not be read), with its sentence.
    #[error(transparent)]
    Live(#[from] crate::live::LiveError),
    /// The rescan's thread panicked ("Scanning the changed skills").
    #[error(transparent)]
    Stopped(Stopped),
}

/// The changed skills, and how many could not be compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub skills: Vec<ChangeView>,
    pub unreadable: usize,
}

/// What an import's worker reports.
#[derive(Debug)]
pub enum ImportEvent {
    /// The bundle read whole, with the places its skills can go, or why it is refused.
    Read(Result<(Box<BundleView>, Vec<DestinationView>), RefusalView>),
    /// Skills the import would replace; it waits for a forced install or a cancel.
    Conflicts {
        conflicts: Vec<ConflictView>,
        diff: Box<DiffView>,
    },
    /// The destination cannot take skills at all, said in one sentence; it waits for another.
    DestinationRefused(String),
    /// The import refused the skills asked for (`skills`, forced or not) for their high
    /// findings; it waits for the install asked again with the risk accepted, or a cancel.
    Risky {
        risk: RiskView,
        force: bool,
        skills: Vec<String>,
    },
    Progress {
        skill: String,
        files_done: usize,
        files_total: usize,
    },
    /// The install stopped, as asked, before any skill was put in place.
    Cancelled,
    Done(Result<ImportedView, ImportFailed>),
}

/// What an update's worker reports.
#[derive(Debug)]
pub enum UpdateEvent {
    /// How the reading goes (git's fetch), for the status line.
    Progress(String),
    /// The plan, with something to write; the worker waits to be told to apply it.
    Planned(Box<Planned>),
    /// The update is over: its report (up to date included, or where it stopped), or why it
    /// stopped before, with nothing written.
    Done(Result<Box<Report>, UpdateFailure>),
    /// The session was stopped before anything was written.
    Cancelled,
}

/// What is heard of the skills' upstreams.
#[derive(Debug)]
pub enum UpstreamsEvent {
    /// What the last check kept, read after a scan; `None` when nothing was ever checked.
    Kept(Option<Box<Upstreams>>),
    /// How a check goes (the repository asked), for the status line.
    Progress(String),
    /// A check's answers, or why it stopped.
    Checked(Result<Box<Upstreams>, CheckStopped>),
}

/// What `update` asks the runtime to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    StartScan,
    /// Scan again the skills at `dirs` (and whatever else changed at those paths), after the
    /// watcher saw them change.
    Rescan {
        dirs: Vec<PathBuf>,
    },
    ReadPreview(PathBuf),
    /// Read the file `file` of the skill at `dir` for the viewer, within its bounds.
    ReadFile {
        request: u64,
        dir: PathBuf,
        file: PathBuf,
    },
    /// Hand the terminal to the person's editor on `file` (a skill's), and take it back when
    /// the editor ends.
    Edit(PathBuf),
    /// Put `text` on the terminal's clipboard (OSC 52).
    Copy(String),
    SetMouse(bool),
    /// Diff the skill at `dir` against its latest snapshot, else the installer's untouched
    /// copy at `pristine`.
    ComputeDiff {
        request: u64,
        name: String,
        dir: PathBuf,
        pristine: Option<PathBuf>,
    },
    TakeSnapshot {
        name: String,
        dir: PathBuf,
    },
    Accept {
        name: String,
        dir: PathBuf,
    },
    Restore {
        name: String,
        dir: PathBuf,
        snapshot: String,
    },
    /// Export the skill at `dir` to `to`, as typed (`~/` is the home folder; a relative path is
    /// taken from the folder the app works in).
    Export {
        name: String,
        dir: PathBuf,
        to: String,
        /// `to` is the name the app proposed: a file already there is not refused, the
        /// archive takes the first `NAME-2.tar.gz`, … free beside it.
        numbered: bool,
    },
    /// List a folder for the picker; the start folder when `None`.
    Browse {
        request: u64,
        dir: Option<PathBuf>,
    },
    /// Start an import session: read the bundle at `source`.
    ReadBundle {
        session: u64,
        source: PathBuf,
    },
    /// Install the chosen skills of the session's bundle into `root`.
    Install {
        session: u64,
        root: PathBuf,
        skills: Vec<String>,
        force: bool,
        /// Install even with findings of high severity: the person accepted the risk.
        accept_risk: bool,
    },
    /// Stop the session: drop its bundle, and stop its install before anything is put in place.
    CancelImport {
        session: u64,
    },
    /// Do one job on every skill of the batch, reporting progress.
    Run(Batch),
    /// Stop the batch `id` after the skill under way.
    StopBatch {
        id: u64,
    },
    /// Work out where each skill would go, and what that would shadow.
    Plan {
        request: u64,
        to: Destination,
        skills: Vec<Target>,
    },
    /// Read the history of the skill at `dir`, and how much the snapshot store holds.
    ReadHistory {
        request: u64,
        dir: PathBuf,
    },
    /// Diff the snapshot `old` of the skill at `dir` against `new`, another snapshot of it,
    /// or against the files now when `new` is `None`.
    DiffSnapshots {
        request: u64,
        name: String,
        dir: PathBuf,
        old: String,
        new: Option<String>,
    },
    /// Delete the snapshot `snapshot` of the skill at `dir` (held aside, so undo brings it back).
    DeleteSnapshot {
        name: String,
        dir: PathBuf,
        snapshot: String,
    },
    /// Start an update session: read the skills' upstreams and plan their merges.
    ReadUpdate {
        session: u64,
        skills: Vec<Target>,
    },
    /// Apply the session's plan, its conflicts settled as chosen; `yes` lets another
    /// installer's record go stale.
    ApplyUpdate {
        session: u64,
        settled: Vec<Settled>,
        yes: bool,
    },
    /// Stop the session, nothing written.
    CancelUpdate {
        session: u64,
    },
    /// Ask each recorded upstream where it is now.
    CheckUpstreams,
    /// Audit each skill `(name, folder)` on a worker, answering `request`.
    Audit {
        request: u64,
        skills: Vec<(String, PathBuf)>,
    },
    /// Find what an undo would revert now.
    AskUndo,
    Undo,
}
