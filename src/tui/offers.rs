//! Which keys the state on screen offers: one rule that the footer's hints and the keys both
//! follow, so every key the footer shows works there, and a key it leaves out says why.

use crate::tui::app::App;
use crate::tui::changes::is_gone;
use crate::tui::diff::Against;
use crate::tui::msg::Action;
use crate::tui::views::{DiffState, Loading};

/// Whether the diff view offers `action` as `state` stands, the one rule the footer's hints and
/// the keys both follow: restore only against a snapshot; accept, snapshot and export while the
/// skill is there (a diff that could not be made, for want of anything to compare with, still
/// has a skill to snapshot); the jumps only where there is somewhere to jump to. Every other
/// action of the mode is always offered.
pub fn diff(app: &App, state: &DiffState, action: Action) -> bool {
    let ready = match &state.view {
        Loading::Ready(view) => Some(view),
        _ => None,
    };
    match action {
        Action::Restore => ready.is_some_and(|v| matches!(v.against, Against::Snapshot { .. })),
        Action::Accept | Action::Snapshot | Action::Export => {
            state.view != Loading::Waiting && !is_gone(app.changes.shown(), &state.dir)
        }
        Action::NextHunk | Action::PreviousHunk => ready.is_some_and(|v| !v.hunks.is_empty()),
        Action::NextFile | Action::PreviousFile => {
            ready.is_some_and(|v| v.files.len() > 1 || v.files.first().is_some_and(|f| f.row > 0))
        }
        _ => true,
    }
}

/// Whether the conflict view offers `action`: keeping both only where both sides can be kept
/// (never a binary file), updating only once every file is settled, the jumps only where there
/// is somewhere to jump to.
pub fn conflicts(planned: &crate::tui::updating::Planned, action: Action) -> bool {
    let selected = planned.selected();
    match action {
        Action::TakeBoth => selected.is_some_and(|c| c.both),
        Action::Confirm => planned.all_settled(),
        Action::NextHunk | Action::PreviousHunk => {
            selected.is_some_and(|c| !c.diff.hunks.is_empty())
        }
        Action::NextFile | Action::PreviousFile => planned.conflicts.len() > 1,
        _ => true,
    }
}
