//! Windsurf: workspace over global.

use super::*;

/// Windsurf: the folders its documentation names, and nothing it does not.
pub(super) static AGENT: AgentRules = AgentRules::assumed(
    "windsurf",
    "Windsurf",
    DOCUMENTED,
    &[Place::Home(".codeium/windsurf")],
    Rows::Written(RULES),
);

/// A folder of skills the documentation names (skill-format-and-roots.md §2.9).
const FOLDER: Rule = folders(
    AgentId::WINDSURF,
    Evidence::Docs("skill-format-and-roots.md §2.9"),
    Finds::DIRECT,
);

const RULES: &[Rule] = &[
    installs(FOLDER.at(
        Project,
        Place::Project(".windsurf/skills", Start),
        0,
        "Windsurf workspace skills",
    )),
    installs(FOLDER.at(
        User,
        Place::Home(".codeium/windsurf/skills"),
        1,
        "Windsurf global skills",
    )),
];
