//! The import flow: picker, preview (or refusal), destination, replacements, progress, result.
//! Esc cancels at every step; nothing is written until a destination is chosen, a skill that
//! is there already is only replaced after its diff was shown and `y` pressed, and a bundle
//! the audit finds a high finding in is only installed once its risk is accepted (its own
//! key, never the plain confirm).

use super::{note, rows_of, step, warn};
use crate::roots::PREFERRED_DESTINATION;
use crate::tui::app::App;
use crate::tui::diff::jump;
use crate::tui::failed::ListingFailed;
use crate::tui::import::picker::Typed;
use crate::tui::import::{Import, PickRow, Picker, PlaceView, Progress, Step};
use crate::tui::keymap::{self, Mode};
use crate::tui::line::{Edit, LineEdit};
use crate::tui::msg::{Action, Effect, ImportEvent};

use crate::bundle::browse::FoundKind;

/// Open the picker where the last one was (or at the start folder).
pub(super) fn open(app: &mut App) -> Vec<Effect> {
    let session = app.next_request();
    let request = app.next_request();
    let picker = Picker {
        request,
        loading: true,
        ..Picker::default()
    };
    app.import = Some(Import::new(session, picker));
    vec![Effect::Browse {
        request,
        dir: app.picker_dir.clone(),
    }]
}

/// A folder listed for the picker.
pub(super) fn listed(app: &mut App, request: u64, place: Result<PlaceView, ListingFailed>) {
    let Some(import) = &mut app.import else {
        return;
    };
    let picker = &mut import.picker;
    if picker.request != request {
        return;
    }
    picker.loading = false;
    match place {
        Ok(place) => {
            app.picker_dir = Some(place.dir.clone());
            picker.place = Some(place);
            picker.error = None;
            // Kept until the folder is there: a path typed wrong can be corrected. Once it is,
            // what led there goes; what was typed while it was listed is for this folder.
            let since = picker
                .filter
                .text()
                .strip_prefix(picker.typed_before.as_str());
            let kept = since.map(str::to_owned).unwrap_or_default();
            picker.filter = LineEdit::new(kept);
            picker.typed_before.clear();
            picker.selected = first_entry(picker);
        }
        // The folder before stays shown, with the reason this one could not be.
        Err(why) => picker.error = Some(why.to_string()),
    }
}

/// The row of the first entry, or the first row when the folder holds none.
fn first_entry(picker: &Picker) -> usize {
    picker
        .rows()
        .iter()
        .position(|row| matches!(row, PickRow::Entry(_)))
        .unwrap_or(0)
}

pub(super) fn act(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(import) = &app.import else {
        return Vec::new();
    };
    if action == Action::Back {
        return back(app);
    }
    if let Some(rows) = rows_of(action, page_rows(app)) {
        return move_by(app, rows);
    }
    match &import.step {
        Step::Picking => picking(app, action),
        Step::Preview | Step::Refused(_) => preview(app, action),
        Step::Destination if action == Action::Choose => {
            let chosen = import.chosen_names();
            install(app, false, chosen, false)
        }
        Step::Risky { force, skills, .. } if action == Action::AcceptRisk => {
            let (force, skills) = (*force, skills.clone());
            install(app, force, skills, true)
        }
        Step::Destination if action == Action::ToggleAllAgents => {
            if let Some(import) = &mut app.import {
                import.refused = None;
            }
            super::toggle_all_agents(app)
        }
        Step::Destination => Vec::new(),
        Step::Replace { .. } => replacing(app, action),
        _ => Vec::new(),
    }
}

/// Esc: cancel the import. Reading writes nothing, so it is dropped at once; once the
/// destination is being judged or written, the worker is told to stop before anything is put
/// in place, and its answer says whether it still could.
fn back(app: &mut App) -> Vec<Effect> {
    let Some(import) = &mut app.import else {
        return Vec::new();
    };
    let session = import.session;
    match &mut import.step {
        Step::Done(_) | Step::Failed(_) => {
            app.import = None;
            return super::rescan(app);
        }
        Step::Planning => {
            import.step = Step::Installing(Progress {
                cancelling: true,
                ..Progress::default()
            });
            return vec![Effect::CancelImport { session }];
        }
        Step::Installing(progress) => {
            progress.cancelling = true;
            return vec![Effect::CancelImport { session }];
        }
        _ => {}
    }
    app.import = None;
    note(app, "Import cancelled; nothing was written.");
    vec![Effect::CancelImport { session }]
}

fn page_rows(app: &App) -> usize {
    match app.import.as_ref().map(|i| &i.step) {
        Some(Step::Picking) => app.panes.picker.page,
        Some(Step::Replace { .. }) => app.panes.diff.page,
        Some(Step::Destination) => app.panes.destination.page,
        Some(Step::Preview) => app.panes.bundle.page,
        _ => 1,
    }
}

/// Move the cursor of the step shown.
pub(super) fn move_by(app: &mut App, rows: i32) -> Vec<Effect> {
    let max = app.panes.diff.max;
    // Before the first frame, a page of one row.
    let page = app.panes.bundle.page.max(1);
    let Some(import) = &mut app.import else {
        return Vec::new();
    };
    match &mut import.step {
        Step::Picking => {
            let len = import.picker.rows().len();
            import.picker.selected = step(import.picker.selected, rows, len);
        }
        Step::Preview => {
            let Some(bundle) = &import.bundle else {
                return Vec::new();
            };
            let last = bundle.skills.len().saturating_sub(1);
            let furthest = bundle.furthest(page);
            if rows > 0 && (import.cursor == last || rows == i32::MAX) {
                // Past the last skill the preview scrolls on, to its files and the files left
                // out; the end itself for the last line key.
                import.cursor = last;
                let by = usize::try_from(rows).unwrap_or(usize::MAX);
                import.scroll = import.scroll.saturating_add(by).min(furthest);
                if rows < i32::MAX {
                    import.scroll = import
                        .scroll
                        .max(bundle.scroll_to(last, import.scroll, page));
                }
            } else {
                import.cursor = step(import.cursor, rows, bundle.skills.len());
                import.scroll = bundle.scroll_to(import.cursor, import.scroll.min(furthest), page);
            }
        }
        Step::Destination => {
            import.destination = step(import.destination, rows, import.destinations.len());
            import.refused = None;
        }
        Step::Replace { scroll, .. } => *scroll = step((*scroll).min(max), rows, max + 1),
        _ => {}
    }
    Vec::new()
}

fn picking(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(import) = &mut app.import else {
        return Vec::new();
    };
    let picker = &mut import.picker;
    match action {
        Action::Type(c) => {
            picker.filter.insert(c);
            picker.selected = first_entry(picker);
            Vec::new()
        }
        Action::Erase if !picker.filter.is_empty() => {
            picker.filter.apply(Edit::EraseBack);
            picker.selected = first_entry(picker);
            Vec::new()
        }
        Action::Edit(edit) => {
            if picker.filter.apply(edit) {
                picker.selected = first_entry(picker);
            }
            Vec::new()
        }
        Action::ToggleHidden => {
            picker.hidden = !picker.hidden;
            picker.selected = first_entry(picker);
            let hidden = picker.hidden_count();
            let text = match (picker.hidden, hidden) {
                (true, 0) => "Hidden entries shown; this folder has none.".to_owned(),
                (true, n) => format!("Hidden entries shown: {n} here."),
                (false, _) => "Hidden entries left out again.".to_owned(),
            };
            note(app, &text);
            Vec::new()
        }
        Action::ToggleHelp => super::shared(app, action).unwrap_or_default(),
        Action::Choose if picker.typed_path().is_some() => match picker.typed_path() {
            Some(Typed::Archive(path)) => {
                let shown = crate::text::sanitize::line(picker.filter.text());
                read(app, path, shown)
            }
            Some(Typed::Folder(path)) => browse(app, path),
            Some(Typed::Repository(text)) => {
                let shown = crate::text::sanitize::line(&text);
                read(app, std::path::PathBuf::from(text), shown)
            }
            None => Vec::new(),
        },
        Action::Erase | Action::Parent => {
            match picker.place.as_ref().and_then(|p| p.parent.clone()) {
                Some(parent) => browse(app, parent),
                None => Vec::new(),
            }
        }
        Action::Choose => {
            let Some(place) = &picker.place else {
                return Vec::new();
            };
            match picker.selected_row() {
                Some(PickRow::ThisFolder) => {
                    let (dir, shown) = (place.dir.clone(), place.shown_dir.clone());
                    read(app, dir, shown)
                }
                Some(PickRow::Up) => match place.parent.clone() {
                    Some(parent) => browse(app, parent),
                    None => Vec::new(),
                },
                Some(PickRow::Entry(i)) => {
                    let entry = &place.entries[i];
                    let (path, name) = (entry.path.clone(), entry.name.clone());
                    match entry.kind {
                        FoundKind::Folder => browse(app, path),
                        FoundKind::Archive { .. } => read(app, path, name),
                    }
                }
                None => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// List `dir` in the picker.
fn browse(app: &mut App, dir: std::path::PathBuf) -> Vec<Effect> {
    let request = app.next_request();
    let Some(import) = &mut app.import else {
        return Vec::new();
    };
    let picker = &mut import.picker;
    picker.request = request;
    picker.loading = true;
    picker.typed_before = picker.filter.text().to_owned();
    vec![Effect::Browse {
        request,
        dir: Some(dir),
    }]
}

/// Read the bundle at `source`.
fn read(app: &mut App, source: std::path::PathBuf, shown: String) -> Vec<Effect> {
    let Some(import) = &mut app.import else {
        return Vec::new();
    };
    import.step = Step::Reading(shown);
    vec![Effect::ReadBundle {
        session: import.session,
        source,
    }]
}

fn preview(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(import) = &mut app.import else {
        return Vec::new();
    };
    match (&import.step, action) {
        // After a refusal, Enter goes back to pick another bundle.
        (Step::Refused(_), Action::Choose) => {
            import.step = Step::Picking;
            Vec::new()
        }
        (Step::Preview, Action::ToggleSkill) => {
            if let Some(chosen) = import.chosen.get_mut(import.cursor) {
                *chosen = !*chosen;
            }
            Vec::new()
        }
        (Step::Preview, Action::TakeAll | Action::TakeNone) => {
            import.chosen.fill(action == Action::TakeAll);
            Vec::new()
        }
        (Step::Preview, Action::Choose) => {
            if import.chosen.iter().any(|c| *c) {
                import.step = Step::Destination;
            } else {
                let key = keymap::key_for(Mode::Bundle, Action::ToggleSkill);
                warn(
                    app,
                    &format!("No skill is taken: {key} takes the one under the cursor."),
                );
            }
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// Among the skills it would replace: keep one as it is (or replace it after all), replace
/// the rest, or move through their diff.
fn replacing(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(Step::Replace {
        conflicts,
        skipped,
        scroll,
        ..
    }) = app.import.as_mut().map(|i| &mut i.step)
    else {
        return Vec::new();
    };
    match action {
        Action::ToggleSkill => {
            let Some(at) = Import::conflict_at(conflicts, *scroll) else {
                return Vec::new();
            };
            if conflicts[at].forcible {
                skipped[at] = !skipped[at];
            } else {
                warn(
                    app,
                    "That is not a skill folder, so it is kept as it is: move it away to install there.",
                );
            }
            Vec::new()
        }
        Action::Confirm => {
            let kept: Vec<String> = conflicts
                .iter()
                .zip(skipped.iter())
                .filter(|(_, skipped)| **skipped)
                .map(|(c, _)| c.skill.clone())
                .collect();
            let in_the_way = conflicts
                .iter()
                .zip(skipped.iter())
                .any(|(c, skipped)| !c.forcible && !*skipped);
            if in_the_way {
                warn(
                    app,
                    "Something that is not a skill folder is in the way; move it away first.",
                );
                return Vec::new();
            }
            let rest: Vec<String> = app
                .import
                .as_ref()
                .map(Import::chosen_names)
                .unwrap_or_default()
                .into_iter()
                .filter(|name| !kept.contains(name))
                .collect();
            if rest.is_empty() {
                app.import = None;
                note(app, "Every skill was kept as it is; nothing was written.");
                return Vec::new();
            }
            install(app, true, rest, false)
        }
        Action::NextHunk | Action::PreviousHunk | Action::NextFile | Action::PreviousFile => {
            jump_in_replacements(app, action);
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// Install `skills` into the destination under the cursor; `force` replaces the skills there
/// that were shown, `accept_risk` installs skills with high findings (the person's answer to
/// the import's question).
fn install(app: &mut App, force: bool, skills: Vec<String>, accept_risk: bool) -> Vec<Effect> {
    let Some(import) = &mut app.import else {
        return Vec::new();
    };
    let Some(destination) = import.destinations.get(import.destination) else {
        return Vec::new();
    };
    let root = destination.root.clone();
    // What was said of the destination chosen before is no longer the question.
    import.refused = None;
    import.step = if force {
        Step::Installing(Progress::default())
    } else {
        Step::Planning
    };
    vec![Effect::Install {
        session: import.session,
        root,
        skills,
        force,
        accept_risk,
    }]
}

fn jump_in_replacements(app: &mut App, action: Action) {
    let Some(import) = &mut app.import else {
        return;
    };
    let Step::Replace { diff, scroll, .. } = &mut import.step else {
        return;
    };
    let target = match action {
        Action::NextHunk => jump(diff.hunks.iter().copied(), *scroll, true),
        Action::PreviousHunk => jump(diff.hunks.iter().copied(), *scroll, false),
        Action::NextFile => jump(diff.files.iter().map(|f| f.row), *scroll, true),
        _ => jump(diff.files.iter().map(|f| f.row), *scroll, false),
    };
    // Kept past the furthest the diff scrolls, as the diff view keeps it (`tui::diff::jump`).
    if let Some(row) = target {
        *scroll = row;
    }
}

/// News from this import's worker; news from one cancelled before is dropped.
pub(super) fn event(app: &mut App, session: u64, event: ImportEvent) -> Vec<Effect> {
    let (all_agents, installed) = (app.all_agents, app.deck.installed.clone());
    let Some(import) = &mut app.import else {
        return Vec::new();
    };
    if import.session != session {
        return Vec::new();
    }
    let cancelling = matches!(&import.step, Step::Installing(p) if p.cancelling);
    match event {
        ImportEvent::Read(Ok((bundle, destinations))) => {
            import.chosen = vec![true; bundle.skills.len()];
            import.cursor = 0;
            import.every_destination = destinations;
            import.show_destinations(all_agents, installed.as_deref());
            import.destination = import
                .destinations
                .iter()
                .position(|d| (d.agent, d.scope) == PREFERRED_DESTINATION)
                .unwrap_or(0);
            import.bundle = Some(*bundle);
            import.step = Step::Preview;
        }
        ImportEvent::Read(Err(refusal)) => import.step = Step::Refused(refusal),
        ImportEvent::Conflicts { .. } if cancelling => return cancelled(app),
        ImportEvent::Conflicts { conflicts, diff } => {
            // What may not be replaced, and the person's own edits, are kept from the start,
            // so `y` installs the rest; an edit is replaced only when picked.
            let skipped = conflicts.iter().map(|c| !c.forcible || c.edited).collect();
            import.step = Step::Replace {
                conflicts,
                skipped,
                diff,
                scroll: 0,
            };
        }
        ImportEvent::Risky { .. } if cancelling => return cancelled(app),
        ImportEvent::Risky {
            risk,
            force,
            skills,
        } => {
            import.step = Step::Risky {
                risk,
                force,
                skills,
            };
        }
        ImportEvent::DestinationRefused(_) if cancelling => return cancelled(app),
        ImportEvent::DestinationRefused(why) => {
            import.step = Step::Destination;
            import.refused = Some(why.clone());
            warn(app, &why);
        }
        ImportEvent::Progress {
            skill,
            files_done,
            files_total,
        } => {
            import.step = Step::Installing(Progress {
                files_done,
                files_total,
                skill,
                cancelling,
            });
        }
        ImportEvent::Cancelled => return cancelled(app),
        ImportEvent::Done(Ok(done)) => import.step = Step::Done(done),
        ImportEvent::Done(Err(failed)) => import.step = Step::Failed(failed.to_string()),
    }
    Vec::new()
}

fn cancelled(app: &mut App) -> Vec<Effect> {
    app.import = None;
    note(app, "Import cancelled; nothing was written.");
    Vec::new()
}
