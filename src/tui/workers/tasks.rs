//! The tasks a key asks for, each on a thread of its own: a skill's diff, a snapshot, an
//! accept, a restore, an export, and a folder listed for the import picker. Each answers with
//! one message: the result for the app, or a sentence saying why not.

use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::time::SystemTime;

use crate::bundle::browse;
use crate::operations::{self, JournalError};
use crate::roots::Machine;
use crate::snapshot::changes::{self, Baseline};
use crate::snapshot::diff::SkillDiff;
use crate::snapshot::export::{ExportError, Unscanned};
use crate::snapshot::restore::Restored;
use crate::snapshot::{Comparison, Snapshot, Store};

use super::{guarded, spawn};
use crate::text::sanitize;
use crate::text::{Unsafe, human};
use crate::tui::diff::{Against, DiffView};
use crate::tui::import::PlaceView;
use crate::tui::msg::Msg;

/// Diff the skill `name` at `dir` against its latest snapshot, else the untouched copy its
/// installer keeps at `pristine`.
pub fn diff(
    machine: &Machine,
    tx: Sender<Msg>,
    request: u64,
    name: String,
    dir: PathBuf,
    pristine: Option<PathBuf>,
) {
    let machine = machine.clone();
    spawn_diff(tx, request, move || {
        make_diff(&machine, &name, &dir, pristine.as_deref())
    });
}

/// A diff against `snapshot`, aged as of now.
pub fn against_snapshot(snapshot: &Snapshot) -> Against {
    Against::Snapshot {
        id: snapshot.id.clone(),
        age: SystemTime::now()
            .duration_since(snapshot.info.taken_at)
            .ok(),
    }
}

/// Make a diff on a thread of its own and answer with it: every diff the app shows, whatever
/// it is against, arrives as one [`Msg::Diff`].
pub fn spawn_diff(
    tx: Sender<Msg>,
    request: u64,
    make: impl FnOnce() -> Result<DiffView, String> + Send + 'static,
) {
    spawn("skilldeck-diff", tx, move |_| {
        let diff = guarded(make)
            .unwrap_or_else(|panic| Err(format!("The diff stopped: {panic}")))
            .map(Box::new);
        Msg::Diff { request, diff }
    });
}

/// The diff of one skill, as the app shows it.
pub fn make_diff(
    machine: &Machine,
    name: &str,
    dir: &Path,
    pristine: Option<&Path>,
) -> Result<DiffView, String> {
    let home = machine.home();
    let store = Store::open(&machine.env);
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
        Baseline::Snapshot(snapshot) => against_snapshot(snapshot),
        Baseline::Pristine(path) => Against::Pristine(human::path(path, home, Unsafe::Dropped)),
    };
    let diff = changes::diff_against(&baseline, dir).map_err(|e| failed(&e))?;
    Ok(diff_view(machine, name, dir, against, &diff))
}

/// `diff` of the skill `name` at `dir`, against `against`, as the app shows it.
pub fn diff_view(
    machine: &Machine,
    name: &str,
    dir: &Path,
    against: Against,
    diff: &SkillDiff,
) -> DiffView {
    let mut view = DiffView::new(
        name,
        dir.to_path_buf(),
        human::path(dir, machine.home(), Unsafe::Dropped),
        against,
    );
    view.push(None, diff);
    view
}

/// Snapshot the skill at `dir`; with `accept`, as its new baseline (the same, said so).
pub fn snapshot(machine: &Machine, tx: Sender<Msg>, name: String, dir: PathBuf, accept: bool) {
    let machine = machine.clone();
    spawn("skilldeck-snapshot", tx, move |tx| {
        let taken = guarded(|| {
            if accept {
                operations::snapshot::accept(&machine, &dir)
                    .map(|accepted| (accepted.taken, accepted.unjournalled))
            } else {
                let mut done = operations::snapshot::snapshot(&machine, vec![dir.clone()]);
                let unjournalled = done.unjournalled;
                match done.taken.pop() {
                    Some((_, taken)) => taken.map(|taken| (taken, unjournalled)),
                    None => Err(crate::snapshot::SnapshotError::NotSkill(dir.clone())),
                }
            }
        });
        let (text, unjournalled) = match taken {
            Err(panic) => return done(Err(format!("The snapshot stopped: {panic}")), false),
            Ok(Err(error)) => return done(Err(sanitize::line(&error.to_string())), false),
            Ok(Ok((taken, unjournalled))) => {
                let id = &taken.snapshot.id;
                let text = match (accept, taken.fresh) {
                    (true, true) => {
                        format!("Accepted {name} as it is now: that is its new baseline.")
                    }
                    (false, true) => format!("Kept snapshot {id} of {name}."),
                    (_, false) => format!(
                        "{name} already matches its latest snapshot, {id}; no copy was made."
                    ),
                };
                (text, unjournalled)
            }
        };
        // The skill matches its snapshot now, unless it changed meanwhile.
        if let Ok(Comparison::Same(_)) = Store::open(&machine.env).compare(&dir) {
            let _ = tx.send(Msg::Compared {
                dir: dir.clone(),
                change: None,
            });
        }
        done(Ok(sanitize::line(&with_journal(text, unjournalled))), false)
    });
}

/// Put the snapshot `id` of the skill at `dir` back.
pub fn restore(machine: &Machine, tx: Sender<Msg>, name: String, dir: PathBuf, id: String) {
    let machine = machine.clone();
    spawn("skilldeck-restore", tx, move |_| {
        let shown = human::path(&dir, machine.home(), Unsafe::Dropped);
        let result = guarded(|| operations::restore::restore(&machine, &dir, Some(&id)));
        let text = match result {
            Err(panic) => Err(format!("The restore stopped: {panic}")),
            Ok(Err(error)) => Err(sanitize::line(&format!("{name} was not restored: {error}"))),
            Ok(Ok(done)) => Ok(with_journal(
                match done.restored {
                    None => format!("{shown} already matches snapshot {id}; nothing to restore."),
                    Some(Restored {
                        replaced: Some(replaced),
                        ..
                    // What it held first: the line may be cut, and that is what undo needs.
                    }) => format!(
                        "What {name} held is kept as snapshot {}; it is back to snapshot {id} ({} undoes that).",
                        replaced.id,
                        crate::tui::keymap::key_for(
                            crate::tui::keymap::Mode::Changed,
                            crate::tui::msg::Action::Undo
                        )
                    ),
                    Some(Restored { replaced: None, .. }) => {
                        format!("Brought {name} back from snapshot {id}.")
                    }
                },
                done.unjournalled,
            )),
        };
        done(text.map(|t| sanitize::line(&t)), true)
    });
}

/// Export the skill at `dir` to `to`, as typed (`~/` is the home folder, a relative path is
/// taken from the folder the app works in). A file already there is never replaced; the name
/// the app proposed (`numbered`) is numbered instead. A failure says so in a sentence that
/// names the path as the person sees it, and hands back what was typed.
pub fn export(
    machine: &Machine,
    tx: Sender<Msg>,
    name: String,
    dir: PathBuf,
    to: String,
    numbered: bool,
) {
    let machine = machine.clone();
    spawn("skilldeck-export", tx, move |_| {
        let home = machine.home();
        let result = guarded(|| {
            let typed = Path::new(&to);
            if numbered {
                operations::export::export_numbered(&machine, &dir, typed, Unscanned::LeaveOut)
            } else {
                operations::export::export(&machine, &dir, typed, false, Unscanned::LeaveOut)
            }
        });
        let shown = |path: &Path| human::path(path, home, Unsafe::Dropped);
        let why = match result {
            Err(panic) => format!("The export stopped: {panic}"),
            Ok(Err(ExportError::Exists(path))) => format!(
                "There is already a file at {}, so {name} was not exported; type another name, or a folder to export into.",
                shown(&path)
            ),
            Ok(Err(ExportError::NoFolder(folder))) => format!(
                "There is no folder {}, so {name} was not exported; create it first, or type a folder that exists.",
                shown(&folder)
            ),
            Ok(Err(ExportError::NotTarGz(path))) => format!(
                "{} is not a .tar.gz name, so {name} was not exported; end it with .tar.gz, or type a folder to export into.",
                shown(&path)
            ),
            Ok(Err(ExportError::Write { path, source })) => format!(
                "{} could not be written ({}), so {name} was not exported.",
                shown(&path),
                source.kind()
            ),
            Ok(Err(error)) => format!("{name} was not exported: {error}"),
            Ok(Ok(exported)) => return done(Ok(exported_note(&name, &exported, home)), false),
        };
        Msg::ExportFailed {
            name,
            dir,
            to,
            why: sanitize::line(&why),
        }
    });
}

/// What an export that happened says: where it went, what it left out, and why.
fn exported_note(name: &str, exported: &operations::export::Exported, home: &Path) -> String {
    let secrets = match exported.package.redacted.len() {
        0 => "no secrets found".to_owned(),
        1 => "1 secret removed".to_owned(),
        n => format!("{n} secrets removed"),
    };
    // The app has no way to ask for them, so it says how to get them.
    let left_out = match exported.package.left_out.len() {
        0 => String::new(),
        n => format!(
            " {} left out that could not be scanned or hold secrets; `skilldeck export` lists them.",
            if n == 1 {
                "1 file".to_owned()
            } else {
                format!("{n} files")
            }
        ),
    };
    sanitize::line(&format!(
        "Exported {name} ({} files, {} bytes) to {}; {secrets}.{left_out}",
        exported.package.files,
        exported.package.archive.len(),
        human::path(&exported.path, home, Unsafe::Dropped)
    ))
}

/// `text`, and that the journal missed it when it did.
pub(super) fn with_journal(text: String, unjournalled: Option<JournalError>) -> String {
    match unjournalled {
        Some(error) => format!("{text} But {error}, so undo will not know of it."),
        None => text,
    }
}

/// List `dir` (the picker's start folder when `None`) for the picker.
pub fn browse(machine: &Machine, tx: Sender<Msg>, request: u64, dir: Option<PathBuf>) {
    let machine = machine.clone();
    spawn("skilldeck-browse", tx, move |_| {
        let home = machine.home();
        let dir = dir.unwrap_or_else(|| browse::start_dir(&machine.env, &machine.project));
        let place = match guarded(|| browse::browse(&dir)) {
            Err(panic) => Err(format!("Listing the folder stopped: {panic}")),
            Ok(Err(error)) => Err(sanitize::line(&format!(
                "{} cannot be listed: {error}",
                human::path(&dir, home, Unsafe::Dropped)
            ))),
            Ok(Ok(place)) => Ok(PlaceView::new(place, home)),
        };
        Msg::Listing { request, place }
    });
}

fn done(result: Result<String, String>, rescan: bool) -> Msg {
    Msg::TaskDone { result, rescan }
}
