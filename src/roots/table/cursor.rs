//! Cursor: precedence is undocumented; project over user, as the agentskills.io guide has it.

use super::*;

const ME: AgentId = AgentId::CURSOR;

pub(super) static AGENT: Agent = Agent {
    id: "cursor",
    name: "Cursor",
    name_from: NameFrom::Frontmatter,
    reads: Reader::STRICT,
    name_fix: None,
    names_by_manifest: false,
    on_same_name: OnSameName::OneWins,
    detect: &[Place::Home(".cursor")],
    builtin: &[],
    builtin_off: &[],
    builtin_off_by_settings: None,
    builtin_plugins: &[],
    hides: &[],
    turned_off: None,
    settings_variables: &[],
    evidence: Evidence::Docs("skill-format-and-roots.md §2"),
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
