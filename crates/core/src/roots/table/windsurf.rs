//! Windsurf: workspace over global.

use super::documented::Documented;
use super::*;

const ME: AgentId = AgentId::WINDSURF;

/// Windsurf: the folders its documentation names, and nothing it does not.
pub(super) const AGENT: Documented = Documented {
    id: "windsurf",
    name: "Windsurf",
    detect: &[Place::Home(".codeium/windsurf")],
    rules: RULES,
};

/// A folder of skills the documentation names (skill-format-and-roots.md §2.9).
const fn folder(scope: Scope, place: Place, rank: u8, label: &'static str) -> Rule {
    row(
        ME,
        scope,
        place,
        Skills,
        rank,
        label,
        Evidence::Docs("skill-format-and-roots.md §2.9"),
    )
}

const PROJECT_LABEL: &str = "Windsurf workspace skills";
const USER_LABEL: &str = "Windsurf global skills";

pub(super) static RULES: &[Rule] = &[
    installs(folder(
        Project,
        Place::Project(".windsurf/skills", Start),
        0,
        PROJECT_LABEL,
    )),
    installs(folder(
        User,
        Place::Home(".codeium/windsurf/skills"),
        1,
        USER_LABEL,
    )),
];
