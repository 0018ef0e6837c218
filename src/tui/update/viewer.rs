//! A skill's files: the viewer's list and the file read in it, the editor run on the skill's
//! `SKILL.md` or on the file chosen, and its folder's path copied to the clipboard.

use std::path::{Path, PathBuf};

use super::{note, rows_of, shared, start_scan, step};
use crate::skill::SKILL_FILE;
use crate::text::sanitize;
use crate::tui::app::{App, Scan};
use crate::tui::editor::EditorFailed;
use crate::tui::msg::{Action, Effect};
use crate::tui::viewer::{FileText, Opened, Reading, Viewer};
use crate::tui::views::View;
use crate::tui::workers::viewer::ReadFailed;

/// Whether `action` is one of the viewer's, from the skill list.
pub(super) fn from_list(action: Action) -> bool {
    matches!(
        action,
        Action::OpenFiles | Action::OpenEditor | Action::CopyPath
    )
}

/// The skill list's keys for a skill's files: open them, edit its `SKILL.md`, copy its path.
pub(super) fn list_act(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(skill) = app.selected_skill() else {
        return Vec::new();
    };
    match action {
        Action::OpenFiles => {
            let viewer = Viewer::new(skill);
            if viewer.files.is_empty() {
                note(app, "The scan listed no file in this skill's folder.");
                return Vec::new();
            }
            app.views.open_viewer(viewer);
            Vec::new()
        }
        Action::OpenEditor => {
            let manifest = skill
                .manifest()
                .map_or_else(|| PathBuf::from(SKILL_FILE), Path::to_path_buf);
            edit(&skill.dir, &manifest)
        }
        Action::CopyPath => {
            let (dir, shown) = (skill.dir.clone(), skill.shown_dir.clone());
            copy(app, &dir, &shown)
        }
        _ => Vec::new(),
    }
}

/// The viewer's keys, in its list of files or in the file read.
pub(super) fn act(app: &mut App, action: Action) -> Vec<Effect> {
    if action == Action::ToggleHelp {
        return shared(app, action).unwrap_or_default();
    }
    let page = app.panes.viewer.page;
    let max = app.panes.viewer.max;
    let Some(viewer) = app.views.viewer_mut() else {
        return Vec::new();
    };
    if let Some(rows) = rows_of(action, page) {
        move_in(viewer, rows, max);
        return Vec::new();
    }
    match action {
        Action::Back if viewer.open.is_some() => {
            viewer.open = None;
            Vec::new()
        }
        Action::Back => {
            app.views.close(View::Viewer);
            Vec::new()
        }
        Action::Choose => {
            let index = viewer.selected;
            open(app, index)
        }
        Action::NextFile | Action::PreviousFile => {
            let Some(at) = viewer.open.as_ref().map(|o| o.index) else {
                return Vec::new();
            };
            let last = viewer.files.len().saturating_sub(1);
            let index = if action == Action::NextFile {
                (at + 1).min(last)
            } else {
                at.saturating_sub(1)
            };
            if index == at {
                return Vec::new();
            }
            viewer.selected = index;
            open(app, index)
        }
        Action::OpenEditor => {
            let Some(file) = viewer.current().map(|f| f.path.clone()) else {
                return Vec::new();
            };
            edit(&viewer.dir, &file)
        }
        Action::CopyPath => {
            let (dir, shown) = (viewer.dir.clone(), viewer.shown_dir.clone());
            copy(app, &dir, &shown)
        }
        _ => Vec::new(),
    }
}

/// The wheel, over the viewer.
pub(super) fn move_by(app: &mut App, rows: i32) -> Vec<Effect> {
    let max = app.panes.viewer.max;
    if let Some(viewer) = app.views.viewer_mut() {
        move_in(viewer, rows, max);
    }
    Vec::new()
}

fn move_in(viewer: &mut Viewer, rows: i32, max: usize) {
    match &mut viewer.open {
        Some(opened) => opened.scroll = step(opened.scroll.min(max), rows, max + 1),
        None => viewer.selected = step(viewer.selected, rows, viewer.files.len()),
    }
}

/// Ask for the file `index` of the viewer.
fn open(app: &mut App, index: usize) -> Vec<Effect> {
    let request = app.next_request();
    let Some(viewer) = app.views.viewer_mut() else {
        return Vec::new();
    };
    let Some(file) = viewer.files.get(index) else {
        return Vec::new();
    };
    let effect = Effect::ReadFile {
        request,
        dir: viewer.dir.clone(),
        file: file.path.clone(),
    };
    viewer.open = Some(Opened {
        request,
        index,
        text: Reading::Waiting,
        scroll: 0,
    });
    vec![effect]
}

/// A file read for the viewer; one for an older request is dropped.
pub(super) fn arrived(app: &mut App, request: u64, file: Result<FileText, ReadFailed>) {
    let Some(opened) = app.views.viewer_mut().and_then(|v| v.open.as_mut()) else {
        return;
    };
    if opened.request == request {
        opened.text = match file {
            Ok(text) => Reading::Ready(text),
            Err(failed) => Reading::Failed(failed.to_string()),
        };
    }
}

/// Hand the terminal to the editor on `file` of the skill at `dir`.
fn edit(dir: &std::path::Path, file: &std::path::Path) -> Vec<Effect> {
    // No note: the terminal is the editor's before another frame is drawn.
    vec![Effect::Edit(dir.join(file))]
}

/// Back from the editor: the skills are scanned again, so what the edit changed (drift) shows,
/// and the file open in the viewer is read again.
pub(super) fn edited(app: &mut App, result: Result<(), EditorFailed>) -> Vec<Effect> {
    let text = match result {
        Ok(()) => "Back from the editor; scanning again.".to_owned(),
        Err(failed) => {
            app.messages.push(failed.to_string());
            String::new()
        }
    };
    let mut effects = Vec::new();
    let reopen = app
        .views
        .viewer()
        .and_then(|v| v.open.as_ref())
        .map(|o| (o.index, o.scroll));
    if let Some((index, scroll)) = reopen {
        effects.extend(open(app, index));
        if let Some(opened) = app.views.viewer_mut().and_then(|v| v.open.as_mut()) {
            opened.scroll = scroll;
        }
    }
    if !matches!(app.scan, Scan::Running(_)) {
        effects.extend(start_scan(app));
    }
    if text.is_empty() {
        app.status = None;
    } else {
        note(app, &text);
        app.after_scan = app.status.clone();
    }
    effects
}

/// Copy the folder at `dir` (shown as `shown`) to the clipboard, saying what was copied.
fn copy(app: &mut App, dir: &std::path::Path, shown: &str) -> Vec<Effect> {
    let text = format!("Copied {} to the clipboard.", sanitize::line(shown));
    note(app, &text);
    vec![Effect::Copy(dir.to_string_lossy().into_owned())]
}
