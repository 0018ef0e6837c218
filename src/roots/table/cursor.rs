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

pub(super) static RULES: &[Rule] = &[
    row(
        ME,
        Project,
        Place::Project(".agents/skills", Start),
        Skills,
        0,
        "Cursor project skills",
        Evidence::Docs("skill-format-and-roots.md §2.6"),
    ),
    installs(row(
        ME,
        Project,
        Place::Project(".cursor/skills", Start),
        Skills,
        0,
        "Cursor project skills",
        Evidence::Docs("skill-format-and-roots.md §2.6"),
    )),
    row(
        ME,
        Project,
        Place::Project(".claude/skills", Start),
        Skills,
        0,
        "Cursor project skills",
        Evidence::Docs("skill-format-and-roots.md §2.6"),
    ),
    row(
        ME,
        Project,
        Place::Project(".codex/skills", Start),
        Skills,
        0,
        "Cursor project skills",
        Evidence::Docs("skill-format-and-roots.md §2.6"),
    ),
    row(
        ME,
        User,
        Place::Home(".agents/skills"),
        Skills,
        1,
        "Cursor user skills",
        Evidence::Docs("skill-format-and-roots.md §2.6"),
    ),
    installs(row(
        ME,
        User,
        Place::Home(".cursor/skills"),
        Skills,
        1,
        "Cursor user skills",
        Evidence::Docs("skill-format-and-roots.md §2.6"),
    )),
    row(
        ME,
        User,
        Place::Home(".claude/skills"),
        Skills,
        1,
        "Cursor user skills",
        Evidence::Docs("skill-format-and-roots.md §2.6"),
    ),
    row(
        ME,
        User,
        Place::Home(".codex/skills"),
        Skills,
        1,
        "Cursor user skills",
        Evidence::Docs("skill-format-and-roots.md §2.6"),
    ),
];
