//! `skilldeck undo [--list]`: revert the last journalled operation, or show the journal.

use std::path::Path;
use std::time::SystemTime;

use serde::Serialize;

use crate::operations::undo::{self, Listed};
use crate::operations::{Entry, Journal, upstream_record};
use crate::roots::Machine;
use crate::text::{Unsafe, human};

use super::{Failure, Outcome, json, target};

const AFTER_HELP: &str = "\
Every operation that changes a skill folder or an agent's settings file is journalled, with
the snapshot or backup that holds what was there before. `skilldeck undo` reverts the latest
one not yet undone (imports, restores, removals, links, copies, moves, disables, enables,
accepts, updates, snapshot deletes and prunes); run it again to go further back. Snapshots taken by
hand changed nothing and are passed over. Undoing an accept makes the baseline before it the
latest again; undoing a delete or a prune puts the snapshots back, unless a later prune
emptied the copies it held. skilldeck's record of where a skill came from in a git repository
goes back with the folder: undoing an import forgets it, undoing a removal or a move puts it
back where it was, undoing an update names the commit before.

An undo checks every folder first: when one changed since the operation (edited, replaced,
removed), the undo refuses and changes nothing, so no later work is overwritten. A folder the
undo removes is snapshotted first, so the undo can itself be undone by hand
(`skilldeck restore`).

  skilldeck undo --list      the journal, oldest first, with what was undone

Exit codes: 0 undone; 1 refused or nothing to undo; 3 an I/O failure stopped the work.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Show the journal instead, oldest first, marking what was undone
    #[arg(long)]
    list: bool,
    /// Print JSON instead of sentences
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct ListJson<'a> {
    entries: Vec<EntryJson<'a>>,
}

#[derive(Serialize)]
struct EntryJson<'a> {
    #[serde(flatten)]
    entry: &'a Entry,
    undone: bool,
}

#[derive(Serialize)]
struct UndoneJson<'a> {
    undone: &'a Entry,
    entry: &'a Entry,
    skipped: &'a [Entry],
    /// The other operations of its batch undone with it, latest first.
    also_undone: Vec<&'a Entry>,
    /// Why the rest of the batch was not undone.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    // Lines the journal holds but undo will not act on are said first, on the error stream.
    if let Ok(read) = Journal::of(machine).read() {
        for passed in read.passed_over() {
            super::eprint(&format!("skilldeck: {passed}\n"))?;
        }
    }
    if args.list {
        return list(args, machine);
    }
    match undo::undo(machine) {
        Ok(done) => {
            if args.json {
                json::print(&UndoneJson {
                    undone: &done.reverted,
                    entry: &done.entry,
                    skipped: &done.skipped,
                    also_undone: done.with.iter().map(|one| &one.reverted).collect(),
                    stopped: done.stopped.as_ref().map(ToString::to_string),
                })?;
            } else {
                let now = SystemTime::now();
                let mut text = String::new();
                for recovered in &done.recovered {
                    text.push_str(&format!(
                        "Recovered {}, which a crash stopped: {} of what it was about to do had been done, and is journalled so.\n",
                        recovered.in_words(now),
                        recovered.changes.len(),
                    ));
                }
                for skipped in &done.skipped {
                    let why = if undo::emptied(skipped) {
                        "a later prune emptied what it held"
                    } else {
                        "it changed no skill"
                    };
                    text.push_str(&format!("Passed over {}: {why}.\n", skipped.in_words(now)));
                }
                for one in std::iter::once(&done).chain(&done.with) {
                    text.push_str(&format!("Undid {}:\n", one.reverted.in_words(now)));
                    for change in &one.entry.changes {
                        text.push_str(&format!(
                            "  {}\n",
                            change.undone_in_words(&|path| short(machine, path), "->")
                        ));
                    }
                    for change in &one.entry.store {
                        text.push_str(&format!(
                            "  {}\n",
                            change.undone_in_words(&|path| short(machine, path))
                        ));
                    }
                    for change in &one.entry.upstream {
                        let dir = short(machine, &change.dir);
                        text.push_str(&format!(
                            "  {}\n",
                            upstream_record::undone_in_words(change, &dir)
                        ));
                    }
                    for file in &one.entry.settings {
                        text.push_str(&format!(
                            "  put back {}\n",
                            human::path(&file.file, machine.home(), Unsafe::Escaped)
                        ));
                    }
                }
                if let Some(stopped) = &done.stopped {
                    text.push_str(&format!(
                        "The rest of that batch was not undone: {stopped}\n"
                    ));
                }
                text.push_str("`skilldeck undo` again reverts the operation before it.\n");
                super::print(&text)?;
            }
            super::warn_unjournalled(done.unjournalled.as_ref())?;
            Ok(Outcome::Done)
        }
        Err(error) => target::refuse(
            args.json,
            match error {
                undo::UndoError::Nothing => "nothing_to_undo",
                undo::UndoError::ChangedSince { .. }
                | undo::UndoError::RecordChangedSince { .. } => "changed_since",
                _ => "refused",
            },
            target::failure(error.is_refusal(), &error),
        ),
    }
}

fn list(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let listed: Vec<Listed> =
        undo::list(machine).map_err(|e| target::failure(e.is_refusal(), &e))?;
    if args.json {
        return json::print(&ListJson {
            entries: listed
                .iter()
                .map(|l| EntryJson {
                    entry: &l.entry,
                    undone: l.undone,
                })
                .collect(),
        })
        .map(|()| Outcome::Done);
    }
    if listed.is_empty() {
        super::print("The journal is empty: nothing was done that undo could revert.\n")?;
        return Ok(Outcome::Done);
    }
    let now = SystemTime::now();
    let whens: Vec<String> = listed.iter().map(|l| l.entry.when(now)).collect();
    let width = whens.iter().map(|w| w.chars().count()).max().unwrap_or(0);
    let mut text = String::new();
    for (l, when) in listed.iter().zip(&whens) {
        let mark = if l.undone { "  (undone)" } else { "" };
        let dirs: Vec<String> = l
            .entry
            .changes
            .iter()
            .map(|c| short(machine, &c.dir))
            .chain(l.entry.settings.iter().map(|s| short(machine, &s.file)))
            .chain(
                l.entry
                    .store
                    .iter()
                    .map(|s| format!("snapshot {} of {}", s.id(), short(machine, s.dir()))),
            )
            .chain(
                l.entry
                    .upstream
                    .iter()
                    .map(|u| format!("where {} came from", short(machine, &u.dir))),
            )
            .collect();
        text.push_str(&format!(
            "{when:<width$}  {:<15} {}{mark}\n",
            name(&l.entry),
            dirs.join(", ")
        ));
    }
    super::print(&text)?;
    Ok(Outcome::Done)
}

fn short(machine: &Machine, path: &Path) -> String {
    human::path(path, machine.home(), Unsafe::Escaped)
}

/// The operation's name as the journal writes it: `import`, `remove`, `undo`, ...
fn name(entry: &Entry) -> String {
    serde_json::to_value(entry.operation)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}
