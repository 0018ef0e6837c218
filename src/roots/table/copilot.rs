//! GitHub Copilot: first found wins, project (and its parents) before personal before plugins.

use super::*;

const ME: AgentId = AgentId::COPILOT;

pub(super) static AGENT: Agent = Agent {
    id: "copilot",
    name: "GitHub Copilot",
    name_from: NameFrom::Frontmatter,
    on_same_name: OnSameName::OneWins,
    detect: &[Place::Home(".copilot")],
    evidence: Evidence::Docs("skill-format-and-roots.md §2"),
};

pub(super) static RULES: &[Rule] = &[
    installs(row(
        ME,
        Project,
        Place::Project(".github/skills", UpToRepository),
        Skills,
        0,
        "Copilot project skills",
        Evidence::Docs("skill-format-and-roots.md §2.5"),
    )),
    row(
        ME,
        Project,
        Place::Project(".agents/skills", UpToRepository),
        Skills,
        0,
        "Copilot project skills",
        Evidence::Docs("skill-format-and-roots.md §2.5"),
    ),
    row(
        ME,
        Project,
        Place::Project(".claude/skills", UpToRepository),
        Skills,
        0,
        "Copilot project skills",
        Evidence::Docs("skill-format-and-roots.md §2.5"),
    ),
    installs(row(
        ME,
        User,
        Place::Under(&COPILOT_HOME, "skills"),
        Skills,
        1,
        "Copilot personal skills",
        Evidence::Docs("skill-format-and-roots.md §2.5"),
    )),
    row(
        ME,
        User,
        Place::Home(".agents/skills"),
        Skills,
        1,
        "Copilot personal skills",
        Evidence::Docs("skill-format-and-roots.md §2.5"),
    ),
    row(
        ME,
        User,
        Place::Home(".claude/skills"),
        Skills,
        1,
        "Copilot personal skills",
        Evidence::Docs("skill-format-and-roots.md §2.5"),
    ),
    row(
        ME,
        Plugin,
        Place::Under(&COPILOT_HOME, "installed-plugins"),
        Plugins {
            depth: 2,
            name_at: 1,
        },
        2,
        "Copilot installed plugins",
        Evidence::Docs("skill-format-and-roots.md §2.5 (installed-plugins/<marketplace>/<plugin>)"),
    ),
];
