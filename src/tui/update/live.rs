//! The watch on the skills' files: a change seen starts a rescan of the skills it lies in
//! (one at a time; what is seen meanwhile waits for it, or for the full scan under way), and
//! the deck the rescan brings replaces the one shown, the cursor, filters and marks kept.

use std::path::PathBuf;

use super::{changed, history, notify, skills};
use crate::text::sanitize;
use crate::tui::app::{App, Preview, Scan};
use crate::tui::live::Watch;
use crate::tui::msg::{Effect, Rescan, RescanError};

/// Files changed: rescan the skills they lie in, unless a scan is under way, which takes them
/// up when it ends.
pub(super) fn changed(app: &mut App, dirs: Vec<PathBuf>) -> Vec<Effect> {
    app.live.pending.extend(dirs);
    if app.live.rescanning || app.scan != Scan::Done {
        return Vec::new();
    }
    next(app)
}

/// A scan ended: the changes seen while it ran are rescanned now (it may have read those
/// skills before they changed).
pub(super) fn next(app: &mut App) -> Vec<Effect> {
    if app.live.pending.is_empty() || app.live.rescanning || app.scan != Scan::Done {
        return Vec::new();
    }
    app.live.rescanning = true;
    let dirs = std::mem::take(&mut app.live.pending).into_iter().collect();
    vec![Effect::Rescan { dirs }]
}

/// A rescan is back: its deck replaces the one shown, with the uses already read, and the
/// changed screen's rows of the skills rescanned follow.
pub(super) fn rescanned(
    app: &mut App,
    dirs: &[PathBuf],
    result: Result<Box<Rescan>, RescanError>,
) -> Vec<Effect> {
    app.live.rescanning = false;
    let rescan = match result {
        Ok(rescan) => *rescan,
        Err(why) => {
            app.messages.push(sanitize::line(&why.to_string()));
            return next(app);
        }
    };
    let Rescan { mut deck, compared } = rescan;
    // The uses are by folder, read after the last full scan; a new skill has none yet.
    deck.set_usage(std::mem::take(&mut app.deck.usage));
    app.replace_deck(deck);
    changed::compared(app, compared);
    // The preview of a skill that changed is read again.
    if let Preview::Text { dir, .. } | Preview::Failed { dir, .. } = &app.preview
        && dirs.iter().any(|changed| changed.starts_with(dir))
    {
        app.preview = Preview::Empty;
    }
    let mut effects = skills::follow_selection(app);
    effects.extend(history::reread(app));
    effects.extend(next(app));
    effects
}

/// The watch is in place; where the system's limit ran out, the status line says so once.
pub(super) fn watched(app: &mut App, watch: Watch) -> Vec<Effect> {
    let polled_before = app.live.watch.is_some_and(|w| w.polled > 0);
    app.live.watch = Some(watch);
    if watch.polled > 0 && !polled_before {
        let folders = format!(
            "{} {}",
            crate::text::human::count(watch.polled, "folder"),
            if watch.polled == 1 { "is" } else { "are" }
        );
        // What changes for the person first: the status line is cut at the terminal's edge.
        notify(
            app,
            &format!(
                "{folders} polled every {} s for changes: the system's limit on watches ran out (raise fs.inotify.max_user_watches to watch them all).",
                crate::live::POLL_EVERY.as_secs()
            ),
            false,
        );
    }
    Vec::new()
}
