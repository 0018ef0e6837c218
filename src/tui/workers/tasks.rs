//! The tasks a key asks for, each on a thread of its own: a skill's diff, a snapshot, an
//! accept, a restore, an export, and a folder listed for the import picker. Each answers with
//! one message: the result for the app, or a sentence saying why not.

use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::time::SystemTime;

use crate::bundle::browse;
use crate::operations;
use crate::roots::Machine;
use crate::snapshot::changes::{self, Baseline};
use crate::snapshot::diff::SkillDiff;
use crate::snapshot::export::{ExportError, Unscanned};
use crate::snapshot::restore::Restored;
use crate::snapshot::{Comparison, Snapshot, Store};

use super::{guard, spawn};
use crate::text::sanitize;
use crate::text::{Unsafe, human};
use crate::tui::diff::{Against, DiffView};
use crate::tui::failed::ListingFailed;
use crate::tui::failed::{DiffError, TaskError};
use crate::tui::import::PlaceView;
use crate::tui::keymap::{self, Mode};
use crate::tui::manage::{exported_lines, taken_notes, with_journal};
use crate::tui::msg::{Action, Msg, Told};

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
    make: impl FnOnce() -> Result<DiffView, DiffError> + Send + 'static,
) {
    spawn("skilldeck-diff", tx, move |_| {
        let diff = guard("The diff", make)
            .unwrap_or_else(|stopped| Err(DiffError::Stopped(stopped)))
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
) -> Result<DiffView, DiffError> {
    let home = machine.home();
    let store = Store::open(&machine.env);
    let baseline =
        changes::baseline(&store, dir, pristine)?.ok_or_else(|| DiffError::NoBaseline {
            name: name.to_owned(),
            key: keymap::key_for(Mode::Diff, Action::Snapshot),
        })?;
    let against = match &baseline {
        Baseline::Snapshot(snapshot) => against_snapshot(snapshot),
        Baseline::Pristine(path) => Against::Pristine(human::path(path, home, Unsafe::Dropped)),
    };
    let diff = changes::diff_against(&baseline, dir)?;
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
        let work = if accept { "The accept" } else { "The snapshot" };
        let taken = guard(work, || {
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
            Err(stopped) => return done(Err(stopped.into()), false),
            Ok(Err(error)) => return done(Err(error.into()), false),
            Ok(Ok((taken, unjournalled))) => {
                let id = &taken.snapshot.id;
                let mut text = match (accept, taken.fresh) {
                    (true, true) => {
                        format!("Accepted {name} as it is now as its new baseline: snapshot {id}.")
                    }
                    (false, true) => format!("Kept snapshot {id} of {name}."),
                    (_, false) => format!(
                        "{name} already matches its latest snapshot, {id}; no copy was made."
                    ),
                };
                text.push_str(&taken_notes(&taken));
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
        let text = with_journal(text, unjournalled.as_ref());
        done(Ok(sanitize::line(&text).into()), false)
    });
}

/// Put the snapshot `id` of the skill at `dir` back.
pub fn restore(machine: &Machine, tx: Sender<Msg>, name: String, dir: PathBuf, id: String) {
    let machine = machine.clone();
    spawn("skilldeck-restore", tx, move |_| {
        let shown = human::path(&dir, machine.home(), Unsafe::Dropped);
        let result = guard("The restore", || {
            operations::restore::restore(&machine, &dir, Some(&id))
        });
        let text = match result {
            Err(stopped) => Err(stopped.into()),
            Ok(Err(source)) => Err(TaskError::Restore { name, source }),
            Ok(Ok(done)) => Ok(with_journal(
                restored_note(&name, &shown, &id, done.restored.as_ref()),
                done.unjournalled.as_ref(),
            )),
        };
        done(text.map(|t| sanitize::line(&t).into()), true)
    });
}

/// What a restore did, every field of its report said: what the folder held first, kept as
/// a snapshot (the line may be cut: that is what undo needs, so it comes first), the snapshot
/// put back and the one the restored content is; or that the folder was gone; or that it
/// already held it.
fn restored_note(name: &str, shown: &str, id: &str, restored: Option<&Restored>) -> String {
    let undo = keymap::key_for(Mode::Changed, Action::Undo);
    match restored {
        None => format!("{shown} already matches snapshot {id}; nothing to restore."),
        Some(Restored {
            replaced: Some(replaced),
            baseline,
        }) => format!(
            "What {name} held is kept as snapshot {}; it is back to snapshot {id}, and the restored content is snapshot {} ({undo} undoes that).",
            replaced.id, baseline.id
        ),
        Some(Restored {
            replaced: None,
            baseline,
        }) => format!(
            "Brought {name}, which was gone, back from snapshot {id}; the restored content is snapshot {} ({undo} undoes that).",
            baseline.id
        ),
    }
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
        let result = guard("The export", || {
            let typed = Path::new(&to);
            if numbered {
                operations::export::export_numbered(&machine, &dir, typed, Unscanned::LeaveOut)
            } else {
                operations::export::export(&machine, &dir, typed, false, Unscanned::LeaveOut)
            }
        });
        let shown = |path: &Path| human::path(path, home, Unsafe::Dropped);
        let why = match result {
            Err(stopped) => stopped.to_string(),
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
            Ok(Ok(exported)) => {
                let (note, more) = exported_lines(&name, &exported, home);
                let told = Told {
                    note: sanitize::line(&note),
                    title: sanitize::line(&format!("Exported {name}")),
                    more: more.iter().map(|line| sanitize::line(line)).collect(),
                };
                return done(Ok(told), false);
            }
        };
        Msg::ExportFailed {
            name,
            dir,
            to,
            why: sanitize::line(&why),
        }
    });
}

/// List `dir` (the picker's start folder when `None`) for the picker.
pub fn browse(machine: &Machine, tx: Sender<Msg>, request: u64, dir: Option<PathBuf>) {
    let machine = machine.clone();
    spawn("skilldeck-browse", tx, move |_| {
        let home = machine.home();
        let dir = dir.unwrap_or_else(|| browse::start_dir(&machine.env, &machine.project));
        let place = match guard("Listing the folder", || browse::browse(&dir)) {
            Err(stopped) => Err(stopped.into()),
            Ok(Err(source)) => Err(ListingFailed::Unlistable {
                shown: human::path(&dir, home, Unsafe::Dropped),
                source,
            }),
            Ok(Ok(place)) => Ok(PlaceView::new(place, home)),
        };
        Msg::Listing { request, place }
    });
}

fn done(result: Result<Told, TaskError>, rescan: bool) -> Msg {
    Msg::TaskDone { result, rescan }
}
