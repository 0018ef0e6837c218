//! A worker that stopped on a panic: each worker catches its own, so a bug in one is a
//! sentence in the app instead of a terminal torn down.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::text::sanitize;
pub use crate::tui::failed::Stopped;

/// `job`'s result, or what stopped `work` when it panicked.
///
/// # Errors
/// [`Stopped`] when `job` panics.
pub fn guard<T>(work: &'static str, job: impl FnOnce() -> T) -> Result<T, Stopped> {
    catch_unwind(AssertUnwindSafe(job)).map_err(|panic| Stopped {
        work,
        panic: panic_text(&*panic),
    })
}

/// The message a panic carried, display-safe.
pub(super) fn panic_text(payload: &(dyn Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "an unexpected failure".to_owned());
    sanitize::line(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_text() {
        assert_eq!(panic_text(&"boom"), "boom");
        assert_eq!(panic_text(&String::from("bad\u{1b}[2J")), "bad");
        assert_eq!(panic_text(&42), "an unexpected failure");
    }

    #[test]
    fn a_panic_is_the_sentence_of_the_work_it_stopped() {
        let stopped = guard("Reading the history", || -> u8 {
            std::panic::panic_any(String::from("gone\u{7}"))
        })
        .unwrap_err();
        assert_eq!(stopped.to_string(), "Reading the history stopped: gone");
        assert_eq!(guard("Nothing", || 3), Ok(3));
    }
}
