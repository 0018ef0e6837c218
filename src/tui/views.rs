//! The views a person opens over a screen (a skill's history, its files, the diff, every copy
//! of a name, the listing budget), each with its state, kept in the order they were opened: the
//! last one opened is the one on top, drawn and given the keys, and closing it shows the one
//! under it again. The order lives here only; [`super::app::App::layers`] puts it among the
//! app's other layers.

use std::path::PathBuf;

use super::budget::BudgetView;
use super::diff::DiffView;
use super::history::{HistoryView, SnapshotRow};
use super::manage::Copies;
use super::msg::Effect;
use super::viewer::Viewer;

/// Which view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumIter)]
pub enum View {
    Budget,
    Copies,
    History,
    Viewer,
    Diff,
}

/// Something a worker is asked for, until it arrives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Loading<T> {
    #[default]
    Waiting,
    Ready(T),
    Failed(String),
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

/// The open views. Each is open at most once; a view's state is here exactly when it is in
/// `order`, which only the methods below change.
#[derive(Clone, Debug, Default)]
pub struct Views {
    /// Bottom to top.
    order: Vec<View>,
    budget: Option<BudgetView>,
    copies: Option<Copies>,
    history: Option<History>,
    viewer: Option<Viewer>,
    diff: Option<DiffState>,
}

/// Each view's state: reading it, changing it, opening it on top.
macro_rules! view_state {
    ($view:ident, $field:ident, $field_mut:ident, $open:ident, $state:ty) => {
        pub fn $field(&self) -> Option<&$state> {
            self.$field.as_ref()
        }

        pub fn $field_mut(&mut self) -> Option<&mut $state> {
            self.$field.as_mut()
        }

        /// Open it on top of what is open (brought up, when it was open already).
        pub fn $open(&mut self, state: $state) {
            self.$field = Some(state);
            self.raise(View::$view);
        }
    };
}

impl Views {
    view_state!(Budget, budget, budget_mut, open_budget, BudgetView);
    view_state!(Copies, copies, copies_mut, open_copies, Copies);
    view_state!(History, history, history_mut, open_history, History);
    view_state!(Viewer, viewer, viewer_mut, open_viewer, Viewer);
    view_state!(Diff, diff, diff_mut, open_diff, DiffState);

    /// The views open, bottom to top.
    pub fn order(&self) -> &[View] {
        &self.order
    }

    /// The view on top, if any is open.
    pub fn top(&self) -> Option<View> {
        self.order.last().copied()
    }

    pub fn is_open(&self, view: View) -> bool {
        self.order.contains(&view)
    }

    /// Close `view`, wherever it is in the order; the ones above it stay.
    pub fn close(&mut self, view: View) {
        self.order.retain(|v| *v != view);
        match view {
            View::Budget => self.budget = None,
            View::Copies => self.copies = None,
            View::History => self.history = None,
            View::Viewer => self.viewer = None,
            View::Diff => self.diff = None,
        }
    }

    /// The diff and the history together, for a diff the history opened.
    pub fn diff_and_history_mut(&mut self) -> (Option<&mut DiffState>, Option<&mut History>) {
        (self.diff.as_mut(), self.history.as_mut())
    }

    fn raise(&mut self, view: View) {
        self.order.retain(|v| *v != view);
        self.order.push(view);
    }
}

/// Views opened with made-up states, for the tests of what is on top.
#[cfg(test)]
pub(super) mod samples {
    use super::*;

    /// Open `view` on top of `views`.
    pub fn open(views: &mut Views, view: View) {
        match view {
            View::Budget => views.open_budget(BudgetView::default()),
            View::Copies => views.open_copies(Copies {
                key: "a".into(),
                name: "a".into(),
                selected: 0,
            }),
            View::History => views.open_history(History {
                request: 1,
                name: "a".into(),
                dir: PathBuf::from("/a"),
                shown_dir: "/a".into(),
                view: Loading::Waiting,
                selected: 0,
                marked: None,
                diffed: None,
            }),
            View::Viewer => views.open_viewer(Viewer {
                name: "a".into(),
                dir: PathBuf::from("/a"),
                shown_dir: "/a".into(),
                files: Vec::new(),
                selected: 0,
                open: None,
            }),
            View::Diff => views.open_diff(DiffState {
                request: 1,
                name: "a".into(),
                dir: PathBuf::from("/a"),
                pristine: None,
                view: Loading::Waiting,
                scroll: 0,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::samples::open;
    use super::*;
    use strum::IntoEnumIterator;

    fn state_present(views: &Views, view: View) -> bool {
        match view {
            View::Budget => views.budget().is_some(),
            View::Copies => views.copies().is_some(),
            View::History => views.history().is_some(),
            View::Viewer => views.viewer().is_some(),
            View::Diff => views.diff().is_some(),
        }
    }

    /// Every order of opening two views puts the second on top, and closing it shows the first.
    #[test]
    fn the_last_opened_is_on_top_and_closing_it_uncovers_the_one_below() {
        for below in View::iter() {
            for above in View::iter().filter(|v| *v != below) {
                let mut views = Views::default();
                open(&mut views, below);
                open(&mut views, above);
                assert_eq!(views.top(), Some(above), "{below:?} then {above:?}");
                views.close(above);
                assert_eq!(views.top(), Some(below), "{below:?} then {above:?}, closed");
                assert!(!state_present(&views, above));
                assert!(state_present(&views, below));
            }
        }
    }

    /// Opening a view that is open already brings it up once; closing one in the middle keeps
    /// the others' order; a view's state is there exactly when it is in the order.
    #[test]
    fn the_order_and_the_states_agree_through_any_sequence() {
        let all: Vec<View> = View::iter().collect();
        // Every sequence of 6 steps over the 5 views, open or close, from a seeded generator.
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..2_000 {
            let mut views = Views::default();
            let mut model: Vec<View> = Vec::new();
            for _ in 0..6 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let view = all[(seed % all.len() as u64) as usize];
                if seed & 0x100 == 0 {
                    open(&mut views, view);
                    model.retain(|v| *v != view);
                    model.push(view);
                } else {
                    views.close(view);
                    model.retain(|v| *v != view);
                }
                assert_eq!(views.order(), model.as_slice());
                for view in View::iter() {
                    assert_eq!(state_present(&views, view), model.contains(&view));
                }
            }
        }
    }
}
