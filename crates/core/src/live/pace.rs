//! How often the live app rescans while the files keep changing. A rescan reads again only the
//! skills that changed, but still walks every root, decides every skill again and the front
//! end rebuilds what it shows (within the rescan: see `rescan`), so its cost grows with the
//! skills there are; folders made one after another for as long as someone likes (a slow
//! installer, a script, a hostile process) would keep a core busy rescanning, each rescan for
//! the few made since the last. So the next rescan waits [`PACE`] times as long
//! as the last one took: what changes meanwhile is gathered into it, rescanning takes at
//! most a third of one core, and the rescans in a span of changes are bounded by the span
//! over what one costs, not by the folders made. A change after a quiet moment is rescanned
//! at once.

use std::time::{Duration, Instant};

/// How many times as long as the last rescan took the next one waits after it.
pub const PACE: u32 = 2;

/// When the last rescan ended, and how long it took.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pace {
    last: Option<(Instant, Duration)>,
}

impl Pace {
    /// How long a rescan asked for at `now` waits before it begins.
    pub fn wait(&self, now: Instant) -> Duration {
        self.last.map_or(Duration::ZERO, |(ended, took)| {
            (ended + took * PACE).saturating_duration_since(now)
        })
    }

    /// A rescan begun at `started` ended at `ended`.
    pub fn done(&mut self, started: Instant, ended: Instant) {
        self.last = Some((ended, ended.saturating_duration_since(started)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rescans the app makes while changes come every `every` for `span`, each rescan
    /// taking `took`: one begins whenever changes wait and none runs, after its wait.
    fn rescans(span: Duration, every: Duration, took: Duration) -> usize {
        let start = Instant::now();
        let mut pace = Pace::default();
        let (mut now, mut count) = (start, 0);
        let mut pending_since = Some(start);
        while let Some(since) = pending_since {
            now = now.max(since);
            now += pace.wait(now);
            let started = now;
            now += took;
            pace.done(started, now);
            count += 1;
            // The first change after it began, if changes still come then.
            let next = start + every * ((started - start).as_nanos() / every.as_nanos() + 1) as u32;
            pending_since = (next < start + span).then_some(next);
        }
        count
    }

    // Counted on a made-up clock, not timed: the rescans a span of changes costs.
    #[test]
    fn the_rescans_grow_with_the_span_of_the_changes_over_what_one_costs() {
        let ms = Duration::from_millis;
        for (span, every, took) in [
            (ms(10_000), ms(1), ms(100)),
            (ms(10_000), ms(50), ms(100)),
            (ms(60_000), ms(100), ms(200)),
            (ms(10_000), ms(1), ms(10)),
        ] {
            let count = rescans(span, every, took);
            // Each takes `took` and is followed by twice that: a third of one core.
            let most = span.as_nanos() / (took * (1 + PACE)).as_nanos() + 2;
            assert!(
                count as u128 <= most,
                "{count} rescans over {span:?} of changes every {every:?}, each {took:?}"
            );
            // Without the wait: one after another, as long as changes come.
            let unpaced = span.as_nanos() / took.max(every).as_nanos();
            assert!(count as u128 * 2 < unpaced, "{count} against {unpaced}");
        }
    }

    #[test]
    fn after_a_quiet_moment_a_rescan_begins_at_once() {
        let mut pace = Pace::default();
        let start = Instant::now();
        assert_eq!(pace.wait(start), Duration::ZERO);
        let ended = start + Duration::from_millis(100);
        pace.done(start, ended);
        assert_eq!(pace.wait(ended), Duration::from_millis(200));
        assert_eq!(
            pace.wait(ended + Duration::from_millis(150)),
            Duration::from_millis(50)
        );
        assert_eq!(pace.wait(ended + Duration::from_secs(1)), Duration::ZERO);
    }
}
