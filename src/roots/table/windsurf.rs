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

pub(super) static RULES: &[Rule] = &[
    installs(row(
        ME,
        Project,
        Place::Project(".windsurf/skills", Start),
        Skills,
        0,
        "Windsurf workspace skills",
        Evidence::Docs("skill-format-and-roots.md §2.9"),
    )),
    installs(row(
        ME,
        User,
        Place::Home(".codeium/windsurf/skills"),
        Skills,
        1,
        "Windsurf global skills",
        Evidence::Docs("skill-format-and-roots.md §2.9"),
    )),
];
