//! The watching thread's loop: it takes each plan and each event, gathers the changes until
//! the files have been quiet [`QUIET`] (or for [`LONGEST`] while they keep changing), and tells
//! them as one piece of news. It blocks while nothing happens: no timer wakes it.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::affected::{affected, is_change};
use super::watches::Watches;
use super::{Input, News};
use crate::scan::Watched;

/// How long the files must be quiet before what changed is told: an editor's save is a burst
/// of writes and renames, an install a longer one.
const QUIET: Duration = Duration::from_millis(40);
/// The longest a change waits to be told while the files keep changing.
const LONGEST: Duration = Duration::from_millis(250);

/// The watching thread: take each plan and each event, and tell what changed once the files
/// are quiet; block while nothing happens. It ends when told to stop, when its inputs are gone,
/// or when `tell` says nobody listens any more.
pub(super) fn watch(
    incoming: &Receiver<Input>,
    mut watches: Watches,
    tell: &mut impl FnMut(News) -> bool,
) {
    let mut plan = Watched::default();
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
    while let Ok(input) = incoming.recv() {
        if !take(input, &mut watches, &mut plan, &mut seen, tell) {
            return;
        }
        if seen.is_empty() {
            continue;
        }
        // Quiet is measured from the last change that matters: reads, and changes beside the
        // watched paths (a busy /tmp above a project's roots), do not hold the news back.
        let first = Instant::now();
        let mut last = first;
        loop {
            let until = (last + QUIET).min(first + LONGEST);
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            match incoming.recv_timeout(left) {
                Ok(input) => {
                    let before = seen.len();
                    if !take(input, &mut watches, &mut plan, &mut seen, tell) {
                        return;
                    }
                    if seen.len() > before {
                        last = Instant::now();
                    }
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        let dirs = std::mem::take(&mut seen).into_iter().collect();
        if !tell(News::Changed { dirs }) {
            return;
        }
    }
}

/// Take one input; whether to go on.
fn take(
    input: Input,
    watches: &mut Watches,
    plan: &mut Watched,
    seen: &mut BTreeSet<PathBuf>,
    tell: &mut impl FnMut(News) -> bool,
) -> bool {
    match input {
        Input::Stop => return false,
        Input::Plan(next) => {
            let (told, polled) = watches.place(&next);
            *plan = next;
            return tell(News::Watched { told, polled });
        }
        // The system dropped events (its queue overflowed): anything may have changed.
        Input::Event(Ok(event)) if event.need_rescan() => {
            seen.extend(plan.skills.iter().chain(&plan.folders).cloned());
        }
        Input::Event(Ok(event)) if is_change(&event.kind) => {
            seen.extend(event.paths.iter().filter_map(|path| affected(plan, path)));
        }
        // A watch the system could not add below a folder made meanwhile: `r` still sees it.
        Input::Event(_) => {}
    }
    true
}
