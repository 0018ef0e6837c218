//! OpenCode: being written.
use super::plan::Plan;
use super::{Request, SwitchError, Turn};
use crate::roots::Machine;

pub(super) fn plan(
    _machine: &Machine,
    request: Request<'_>,
    _turn: Turn,
) -> Result<Plan, SwitchError> {
    Err(SwitchError::NoSetting {
        agent: request.agent,
        skill: request.skill.name.clone(),
    })
}
