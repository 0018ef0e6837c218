//! A use case over many targets: the same use case, run on each in turn, with one outcome per
//! target in one report. Progress names the target under way; a cancel stops the batch
//! between two targets, never inside one.

use super::progress::{Cancel, Progress, Step};

/// What came of one target.
#[derive(Debug)]
pub enum Outcome<R, E> {
    Done(R),
    /// Refused or failed: the error says which.
    Failed(E),
    /// Not started: the batch was cancelled, or stopped at an earlier failure.
    NotReached,
}

/// What a batch does after a target fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFailure {
    /// Stop: the rest is not reached (a command that ends at its first failure).
    Stop,
    /// Go on with the rest.
    GoOn,
}

/// Run `one` on each of `targets`, named by `name` to `progress`, in order.
pub fn each<T, R, E>(
    targets: &[T],
    name: impl Fn(&T) -> String,
    on_failure: OnFailure,
    progress: &mut dyn Progress,
    cancel: &Cancel,
    mut one: impl FnMut(&T) -> Result<R, E>,
) -> Vec<Outcome<R, E>> {
    let mut outcomes = Vec::with_capacity(targets.len());
    let mut stopped = false;
    for (done, target) in targets.iter().enumerate() {
        if stopped || cancel.is_cancelled() {
            outcomes.push(Outcome::NotReached);
            continue;
        }
        progress.step(Step::Target {
            current: &name(target),
            done,
            total: targets.len(),
        });
        match one(target) {
            Ok(result) => outcomes.push(Outcome::Done(result)),
            Err(error) => {
                stopped = on_failure == OnFailure::Stop;
                outcomes.push(Outcome::Failed(error));
            }
        }
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(on_failure: OnFailure, cancel: &Cancel) -> (Vec<String>, Vec<Outcome<u8, u8>>) {
        let mut said = Vec::new();
        let outcomes = each(
            &[1u8, 2, 3],
            |n| n.to_string(),
            on_failure,
            &mut |step: Step<'_>| {
                if let Step::Target { current, done, .. } = step {
                    said.push(format!("{done}:{current}"));
                }
            },
            cancel,
            |&n| if n == 2 { Err(n) } else { Ok(n) },
        );
        (said, outcomes)
    }

    fn shape(outcomes: &[Outcome<u8, u8>]) -> String {
        outcomes
            .iter()
            .map(|o| match o {
                Outcome::Done(n) => format!("done {n}"),
                Outcome::Failed(n) => format!("failed {n}"),
                Outcome::NotReached => "not reached".to_owned(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    #[test]
    fn one_outcome_per_target_going_on_or_stopping_at_a_failure() {
        let (said, outcomes) = run(OnFailure::GoOn, &Cancel::new());
        assert_eq!(said, ["0:1", "1:2", "2:3"]);
        assert_eq!(shape(&outcomes), "done 1, failed 2, done 3");
        let (said, outcomes) = run(OnFailure::Stop, &Cancel::new());
        assert_eq!(said, ["0:1", "1:2"]);
        assert_eq!(shape(&outcomes), "done 1, failed 2, not reached");
    }

    #[test]
    fn a_cancelled_batch_reaches_no_target() {
        let cancel = Cancel::new();
        cancel.cancel();
        let (said, outcomes) = run(OnFailure::GoOn, &cancel);
        assert!(said.is_empty());
        assert_eq!(shape(&outcomes), "not reached, not reached, not reached");
    }
}
