//! Gemini CLI: workspace over user over extensions; `.agents` beats `.gemini` in a tier.

use super::*;

const ME: AgentId = AgentId::GEMINI_CLI;

pub(super) static AGENT: Agent = Agent {
    id: "gemini-cli",
    name: "Gemini CLI",
    name_from: NameFrom::Frontmatter,
    on_same_name: OnSameName::OneWins,
    detect: &[Place::Home(".gemini")],
    evidence: Evidence::Docs("skill-format-and-roots.md §2"),
};

pub(super) static RULES: &[Rule] = &[
    row(
        ME,
        Project,
        Place::Project(".agents/skills", Start),
        Skills,
        0,
        "Gemini CLI workspace skills",
        Evidence::Docs("skill-format-and-roots.md §2.4"),
    ),
    installs(row(
        ME,
        Project,
        Place::Project(".gemini/skills", Start),
        Skills,
        1,
        "Gemini CLI workspace skills",
        Evidence::Docs("skill-format-and-roots.md §2.4"),
    )),
    row(
        ME,
        User,
        Place::Home(".agents/skills"),
        Skills,
        2,
        "Gemini CLI user skills",
        Evidence::Docs("skill-format-and-roots.md §2.4"),
    ),
    installs(row(
        ME,
        User,
        Place::Under(&GEMINI_DIR, "skills"),
        Skills,
        3,
        "Gemini CLI user skills",
        Evidence::Docs("skill-format-and-roots.md §2.4"),
    )),
    row(
        ME,
        Plugin,
        Place::Under(&GEMINI_DIR, "extensions"),
        Plugins {
            depth: 1,
            name_at: 0,
        },
        4,
        "Gemini CLI extensions",
        Evidence::Docs("skill-format-and-roots.md §2.4 (extension layout unconfirmed)"),
    ),
];
