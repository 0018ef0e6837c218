//! Cursor: precedence is undocumented; project over user, as the agentskills.io guide has it.

use super::*;

const ME: AgentId = AgentId::CURSOR;

/// Cursor: the folders its documentation names, and nothing it does not.
pub(super) static AGENT: AgentRules = AgentRules::assumed(
    "cursor",
    "Cursor",
    DOCUMENTED,
    &[Place::Home(".cursor")],
    Rows::Written(RULES),
);

/// A folder of skills the documentation names (skill-format-and-roots.md §2.6).
const FOLDER: Rule = folders(
    ME,
    Evidence::Docs("skill-format-and-roots.md §2.6"),
    Finds::DIRECT,
);

const PROJECT_LABEL: &str = "Cursor project skills";
const USER_LABEL: &str = "Cursor user skills";

/// A folder below the start directory.
const fn project(dir: &'static str) -> Rule {
    FOLDER.at(Project, Place::Project(dir, Start), 0, PROJECT_LABEL)
}

/// A folder below the home directory.
const fn user(dir: &'static str) -> Rule {
    FOLDER.at(User, Place::Home(dir), 1, USER_LABEL)
}

const RULES: &[Rule] = &[
    project(".agents/skills"),
    installs(project(".cursor/skills")),
    project(".claude/skills"),
    project(".codex/skills"),
    user(".agents/skills"),
    installs(user(".cursor/skills")),
    user(".claude/skills"),
    user(".codex/skills"),
];
