//! The tasks a key asks for, each on a thread of its own: a skill's diff, a snapshot, an
//! accept, a restore, an export, and a folder listed for the import picker. Each answers with
//! one message: the result for the app, or a sentence saying why not.

use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::time::SystemTime;

use crate::bundle::browse;
use crate::snapshot::changes::{self, Baseline};
use crate::snapshot::export;
use crate::snapshot::restore::{self, Restored};
use crate::snapshot::{Comparison, Store};

use super::{Target, guarded, spawn};
use crate::tui::diff::{Against, DiffView};
use crate::tui::import::PlaceView;
use crate::tui::model::shown_path;
use crate::tui::msg::Msg;
use crate::tui::sanitize;

/// Diff the skill `name` at `dir` against its latest snapshot, else the untouched copy its
/// installer keeps at `pristine`.
pub fn diff(
    target: &Target,
    tx: Sender<Msg>,
    request: u64,
    name: String,
    dir: PathBuf,
    pristine: Option<PathBuf>,
) {
    let target = target.clone();
    spawn("skilldeck-diff", tx, move |_| {
        let diff = guarded(|| make_diff(&target, &name, &dir, pristine.as_deref()))
            .unwrap_or_else(|panic| Err(format!("The diff stopped: {panic}")))
            .map(Box::new);
        Msg::Diff { request, diff }
    });
}

/// The diff of one skill, as the app shows it.
pub fn make_diff(
    target: &Target,
    name: &str,
    dir: &Path,
    pristine: Option<&Path>,
) -> Result<DiffView, String> {
    let home = target.env.home();
    let store = Store::open(&target.env);
    let failed = |error: &dyn std::fmt::Display| sanitize::line(&error.to_string());
    let baseline = changes::baseline(&store, dir, pristine)
        .map_err(|e| failed(&e))?
        .ok_or_else(|| {
            sanitize::line(&format!(
                "No snapshot of {name} was taken, and its installer keeps no copy of it to compare with: {} takes a snapshot now, and later changes can be diffed against it.",
                crate::tui::keymap::key_for(
                    crate::tui::keymap::Mode::Diff,
                    crate::tui::msg::Action::Snapshot
                )
            ))
        })?;
    let against = match &baseline {
        Baseline::Snapshot(snapshot) => Against::Snapshot {
            id: snapshot.id.clone(),
            age: SystemTime::now()
                .duration_since(snapshot.info.taken_at)
                .ok(),
        },
        Baseline::Pristine(path) => Against::Pristine(shown_path(path, home)),
    };
    let diff = changes::diff_against(&baseline, dir).map_err(|e| failed(&e))?;
    let mut view = DiffView::new(name, dir.to_path_buf(), shown_path(dir, home), against);
    view.push(None, &diff);
    Ok(view)
}

/// Snapshot the skill at `dir`; with `accept`, as its new baseline (the same, said so).
pub fn snapshot(target: &Target, tx: Sender<Msg>, name: String, dir: PathBuf, accept: bool) {
    let target = target.clone();
    spawn("skilldeck-snapshot", tx, move |tx| {
        let store = Store::open(&target.env);
        let taken = guarded(|| {
            if accept {
                store.accept(&dir)
            } else {
                store.take(&dir)
            }
        });
        let text = match taken {
            Err(panic) => return done(Err(format!("The snapshot stopped: {panic}")), false),
            Ok(Err(error)) => return done(Err(sanitize::line(&error.to_string())), false),
            Ok(Ok(taken)) => {
                let id = &taken.snapshot.id;
                match (accept, taken.fresh) {
                    (true, true) => {
                        format!("Accepted {name} as it is now: that is its new baseline.")
                    }
                    (false, true) => format!("Kept snapshot {id} of {name}."),
                    (_, false) => format!(
                        "{name} already matches its latest snapshot, {id}; no copy was made."
                    ),
                }
            }
        };
        // The skill matches its snapshot now, unless it changed meanwhile.
        if let Ok(Comparison::Same(_)) = store.compare(&dir) {
            let _ = tx.send(Msg::Compared {
                dir: dir.clone(),
                change: None,
            });
        }
        done(Ok(sanitize::line(&text)), false)
    });
}

/// Put the snapshot `id` of the skill at `dir` back.
pub fn restore(target: &Target, tx: Sender<Msg>, name: String, dir: PathBuf, id: String) {
    let target = target.clone();
    spawn("skilldeck-restore", tx, move |_| {
        let store = Store::open(&target.env);
        let shown = shown_path(&dir, target.env.home());
        let result = guarded(|| {
            let snapshot = store
                .find(&dir, Some(&id))
                .map_err(restore::RestoreError::from)?;
            restore::restore(&store, &snapshot)
        });
        let text = match result {
            Err(panic) => Err(format!("The restore stopped: {panic}")),
            Ok(Err(error)) => Err(sanitize::line(&format!("{name} was not restored: {error}"))),
            Ok(Ok(None)) => Ok(format!(
                "{shown} already matches snapshot {id}; nothing to restore."
            )),
            Ok(Ok(Some(Restored {
                replaced: Some(replaced),
                ..
            }))) => Ok(format!(
                "Restored {name} to snapshot {id}; what it held is kept as snapshot {}.",
                replaced.id
            )),
            Ok(Ok(Some(Restored { replaced: None, .. }))) => {
                Ok(format!("Brought {name} back from snapshot {id}."))
            }
        };
        done(text.map(|t| sanitize::line(&t)), true)
    });
}

/// Export the skill at `dir` to `to`, as typed: `~/` is the home folder, a relative path is
/// taken from the folder the app works in. A file already there is never replaced.
pub fn export(target: &Target, tx: Sender<Msg>, name: String, dir: PathBuf, to: String) {
    let target = target.clone();
    spawn("skilldeck-export", tx, move |_| {
        let home = target.env.home();
        let path = match to.strip_prefix("~/") {
            Some(rest) => home.join(rest),
            None => target.project.join(&to),
        };
        let shown = shown_path(&path, home);
        if path.symlink_metadata().is_ok() {
            return done(
                Err(format!(
                    "There is already a file at {shown}; nothing was exported. Export again and give another name."
                )),
                false,
            );
        }
        let result = guarded(|| {
            let packed = export::export(&dir)?;
            packed.write_to(&path)?;
            Ok::<_, export::ExportError>(packed)
        });
        let text = match result {
            Err(panic) => Err(format!("The export stopped: {panic}")),
            Ok(Err(error)) => Err(sanitize::line(&format!("{name} was not exported: {error}"))),
            Ok(Ok(packed)) => {
                let secrets = match packed.redacted.len() {
                    0 => "no secrets found".to_owned(),
                    1 => "1 secret removed".to_owned(),
                    n => format!("{n} secrets removed"),
                };
                Ok(sanitize::line(&format!(
                    "Exported {name} ({} files, {} bytes) to {shown}; {secrets}.",
                    packed.files,
                    packed.archive.len()
                )))
            }
        };
        done(text, false)
    });
}

/// List `dir` (the picker's start folder when `None`) for the picker.
pub fn browse(target: &Target, tx: Sender<Msg>, request: u64, dir: Option<PathBuf>) {
    let target = target.clone();
    spawn("skilldeck-browse", tx, move |_| {
        let home = target.env.home();
        let dir = dir.unwrap_or_else(|| browse::start_dir(&target.env, &target.project));
        let place = match guarded(|| browse::browse(&dir)) {
            Err(panic) => Err(format!("Listing the folder stopped: {panic}")),
            Ok(Err(error)) => Err(sanitize::line(&format!(
                "{} cannot be listed: {error}",
                shown_path(&dir, home)
            ))),
            Ok(Ok(place)) => Ok(PlaceView::new(place, home)),
        };
        Msg::Listing { request, place }
    });
}

fn done(result: Result<String, String>, rescan: bool) -> Msg {
    Msg::TaskDone { result, rescan }
}
