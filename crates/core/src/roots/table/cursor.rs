//! Cursor: precedence is undocumented; project over user, as the agentskills.io guide has it.

use super::documented::Documented;
use super::*;

const ME: AgentId = AgentId::CURSOR;

/// Cursor: the folders its documentation names, and nothing it does not.
pub(super) const AGENT: Documented = Documented {
    id: "cursor",
    name: "Cursor",
    detect: &[Place::Home(".cursor")],
    rules: RULES,
};

/// A folder of skills the documentation names (skill-format-and-roots.md §2.6).
const fn folder(scope: Scope, place: Place, rank: u8, label: &'static str) -> Rule {
    row(
        ME,
        scope,
        place,
        Skills,
        rank,
        label,
        Evidence::Docs("skill-format-and-roots.md §2.6"),
    )
}

const PROJECT_LABEL: &str = "Cursor project skills";
const USER_LABEL: &str = "Cursor user skills";

/// A folder below the start directory.
const fn project(dir: &'static str) -> Rule {
    folder(Project, Place::Project(dir, Start), 0, PROJECT_LABEL)
}

pub(super) static RULES: &[Rule] = &[
    project(".agents/skills"),
    installs(project(".cursor/skills")),
    project(".claude/skills"),
    project(".codex/skills"),
    folder(User, Place::Home(".agents/skills"), 1, USER_LABEL),
    installs(folder(User, Place::Home(".cursor/skills"), 1, USER_LABEL)),
    folder(User, Place::Home(".claude/skills"), 1, USER_LABEL),
    folder(User, Place::Home(".codex/skills"), 1, USER_LABEL),
];
