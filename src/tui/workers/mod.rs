//! The threads that do the slow work so the UI thread never waits: the scan (reporting
//! progress, a few times a second at most, then comparing the skills with their snapshots),
//! the `SKILL.md` reader (which serves only the latest request, so holding `j` down reads one
//! file, not hundreds), the tasks a key asks for ([`tasks`]: a diff, a snapshot, a restore, an
//! export, a folder for the picker), a skill's history ([`history`]: reading it, diffing and
//! deleting its snapshots), an import's session ([`import`]), an update's session and the check
//! of the upstreams ([`update`]) and the managing operations ([`manage`]: batches, plans, undo). After a scan the same worker works out each installed
//! agent's listing (`listing`), another reads the skills' uses (`usage`), and [`audit`] judges
//! each skill as `skilldeck audit` does, once the list is shown. Each catches its own
//! panic and reports it as a message, so a bug in a worker is shown in the app instead of
//! tearing the terminal down. While the app is live, [`watch`] turns the news of the live
//! engine (`live`: the watch on the skills' files, and the rescan of only those that changed)
//! into messages and decks. They do their work by asking the domain (`scan`, `snapshot`,
//! `bundle`, `install`, `live`); the app itself touches no file.

pub mod audit;
pub mod history;
pub mod import;
pub mod manage;
mod stopped;
pub mod tasks;
pub mod update;
pub mod viewer;
pub mod watch;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::{self, Sender};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use crate::limits;
use crate::listing::{self, Assume};
use crate::operations::lock_state::lock_states;
use crate::roots::{Machine, Project};
use crate::scan::{self, Inventory};
use crate::skill;
use crate::snapshot::Store;
use crate::snapshot::changes::{self, Subject};
use crate::usage;

use super::budget::{Budgets, UsageView, Uses};
use super::changes::views;
use super::model::Deck;
use super::msg::{Changes, Msg};
use crate::text::sanitize;

pub use crate::tui::failed::{ChangesFailed, PreviewFailed};
pub use stopped::{Stopped, guard};

/// How often the scan reports progress at most.
const PROGRESS_EVERY: Duration = Duration::from_millis(50);

/// Scan `machine` on a new thread; progress, then the deck (or the failure), then the skills
/// that changed since their snapshots arrive on `tx`. A `watcher` keeps what was found, to
/// watch it and rescan from it.
pub fn spawn_scan(machine: Machine, tx: Sender<Msg>, watcher: Option<crate::live::Watcher>) {
    spawn("skilldeck-scan", tx, move |tx| {
        let (deck, inventory) = match guard("The scan", || scan_deck(&machine, tx)) {
            Ok(scanned) => scanned,
            Err(stopped) => return Msg::Failed(stopped.to_string()),
        };
        // What the last check of the upstreams said, before the list is shown with its marks.
        let kept = update::kept(&machine);
        let _ = tx.send(Msg::Upstreams(super::msg::UpstreamsEvent::Kept(kept)));
        if let Some(watcher) = &watcher {
            watcher.keep(&machine, inventory.clone());
        }
        let _ = tx.send(Msg::ScanDone(Box::new(deck)));
        spawn_usage(machine.clone(), inventory.clone(), tx.clone());
        let changes = guard("Comparing the skills", || {
            find_changes(&machine, &inventory)
        })
        .unwrap_or_else(|stopped| Err(stopped.into()));
        Msg::Changes(changes)
    });
}

/// Run `job` on a new thread named `name`; the message it returns is sent on `tx`.
pub(crate) fn spawn(
    name: &str,
    tx: Sender<Msg>,
    job: impl FnOnce(&Sender<Msg>) -> Msg + Send + 'static,
) {
    let spawned = thread::Builder::new().name(name.to_owned()).spawn({
        let tx = tx.clone();
        move || {
            let msg = job(&tx);
            let _ = tx.send(msg);
        }
    });
    if let Err(error) = spawned {
        let _ = tx.send(Msg::Failed(format!(
            "A worker thread could not start: {error}"
        )));
    }
}

fn scan_deck(machine: &Machine, tx: &Sender<Msg>) -> (Deck, Inventory) {
    let last_sent: Mutex<Option<Instant>> = Mutex::new(None);
    let inventory = scan::scan(&machine.env, &machine.project, &|progress| {
        let Ok(mut last) = last_sent.lock() else {
            return;
        };
        if last.is_some_and(|at| at.elapsed() < PROGRESS_EVERY) {
            return;
        }
        *last = Some(Instant::now());
        let _ = tx.send(Msg::ScanProgress(progress));
    });
    let mut deck = deck_of(machine, &inventory);
    deck.set_usage(Uses::Reading);
    (deck, inventory)
}

/// The deck the app shows of `inventory`, with what each installed agent's listing costs.
fn deck_of(machine: &Machine, inventory: &Inventory) -> Deck {
    let listings: Vec<_> = listing::agents()
        .into_iter()
        .filter(|agent| inventory.installed.contains(agent))
        .filter_map(|agent| {
            listing::listing(
                inventory,
                &machine.env,
                &Project::locate(&machine.project),
                agent,
                Assume::default(),
            )
        })
        .collect();
    // A lock that cannot be read or trusted shows no states; `skilldeck verify` and `list`
    // say why.
    let locks = lock_states(machine, inventory).ok().flatten();
    Deck::new(inventory, machine.env.home(), SystemTime::now())
        .with_no_switch(manage::without_switch())
        .with_budgets(Budgets::of(&listings))
        .with_lock_states(locks.as_ref())
}

/// Read the skills' uses from the agents' counters and session logs on a thread of its own,
/// after the scan: on a machine with years of sessions it takes seconds, and the list is
/// usable meanwhile. What was read is cached beside skilldeck's data, so the next read skips
/// the files unchanged since.
fn spawn_usage(machine: Machine, inventory: Inventory, tx: Sender<Msg>) {
    spawn("skilldeck-usage", tx, move |_| {
        let cache = usage::cache_dir(&machine.env);
        let read = guard("Reading the skills' uses", || {
            let usage = usage::read(&machine.env, &limits::USAGE, Some(&cache));
            UsageView::of(&usage, &inventory)
        });
        Msg::Usage(read.map(Box::new))
    });
}

/// The skills of `inventory` that changed since their snapshots (or since installed).
fn find_changes(machine: &Machine, inventory: &Inventory) -> Result<Changes, ChangesFailed> {
    let store = Store::open(&machine.env);
    let found = changes::changes(&store, &subjects(&inventory.skills))?;
    Ok(Changes {
        skills: views(
            &found.changed,
            &inventory.skills,
            machine.env.home(),
            SystemTime::now(),
        ),
        unreadable: found.problems.len(),
    })
}

/// What the comparison with the snapshots needs of each of `skills`.
fn subjects<'a>(skills: impl IntoIterator<Item = &'a scan::Skill>) -> Vec<Subject<'a>> {
    skills.into_iter().map(Subject::of).collect()
}

/// Start the `SKILL.md` reader; send it skill folders, and their text arrives on `tx`.
///
/// # Errors
/// When the thread cannot be started.
pub fn spawn_preview_reader(tx: Sender<Msg>) -> std::io::Result<Sender<PathBuf>> {
    let (requests, incoming) = mpsc::channel::<PathBuf>();
    thread::Builder::new()
        .name("skilldeck-preview".to_owned())
        .spawn(move || {
            while let Ok(mut dir) = incoming.recv() {
                // Only the latest request matters; the ones before it were passed by.
                while let Ok(newer) = incoming.try_recv() {
                    dir = newer;
                }
                let text = guard("Reading it", || read_preview(&dir))
                    .unwrap_or_else(|stopped| Err(PreviewFailed::Stopped(stopped)));
                if tx.send(Msg::Preview { dir, text }).is_err() {
                    break;
                }
            }
        })?;
    Ok(requests)
}

/// A skill's `SKILL.md` as display-safe lines, or why it cannot be shown.
fn read_preview(dir: &Path) -> Result<Vec<String>, PreviewFailed> {
    let bytes = skill::read_manifest(dir)?;
    let text = skill::manifest_text(&bytes)?;
    Ok(sanitize::lines(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_is_read_sanitised_or_refused() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(
            tmp.path().join("SKILL.md"),
            "---\nname: x\n---\n\u{1b}[31mred\u{1b}[0m\tcell\r\n",
        )
        .unwrap();
        assert_eq!(
            read_preview(tmp.path()).unwrap(),
            ["---", "name: x", "---", "red cell", ""]
        );
        std::fs::write(tmp.path().join("SKILL.md"), b"bin\0ary").unwrap();
        assert_eq!(
            read_preview(tmp.path()).unwrap_err().to_string(),
            "SKILL.md is a binary file, not text"
        );
    }

    #[test]
    fn the_reader_answers_the_latest_request() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("SKILL.md"), "hello").unwrap();
        let (tx, rx) = mpsc::channel();
        let reader = spawn_preview_reader(tx).unwrap();
        reader.send(tmp.path().to_path_buf()).unwrap();
        match rx.recv_timeout(Duration::from_secs(10)).unwrap() {
            Msg::Preview { dir, text } => {
                assert_eq!(dir, tmp.path());
                assert_eq!(text.unwrap(), ["hello"]);
            }
            other => panic!("{other:?}"),
        }
    }
}
