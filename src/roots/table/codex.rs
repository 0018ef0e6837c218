//! Codex keeps every skill; ranks only document its sort order (repo, user, system, admin).

use super::*;

const ME: AgentId = AgentId::CODEX;

pub(super) static AGENT: Agent = Agent {
    id: "codex",
    name: "Codex",
    name_from: NameFrom::Frontmatter,
    on_same_name: OnSameName::KeepsAll,
    detect: &[CODEX_HOME],
    evidence: Evidence::Docs("skill-format-and-roots.md §2"),
};

pub(super) static RULES: &[Rule] = &[
    installs(row(
        ME,
        Project,
        Place::Project(".agents/skills", UpToRepository),
        Skills,
        0,
        "Codex project skills",
        Evidence::Docs("skill-format-and-roots.md §2.2 (4)"),
    )),
    row(
        ME,
        Project,
        Place::Project(".codex/skills", UpToRepository),
        Skills,
        0,
        "Codex project config skills",
        Evidence::Docs("skill-format-and-roots.md §2.2 (1)"),
    ),
    row(
        ME,
        User,
        Place::Under(&CODEX_HOME, "skills"),
        Skills,
        1,
        "Codex user skills (deprecated location)",
        Evidence::Docs("skill-format-and-roots.md §2.2 (1)"),
    ),
    installs(row(
        ME,
        User,
        Place::Home(".agents/skills"),
        Skills,
        1,
        "Codex user skills",
        Evidence::Docs("skill-format-and-roots.md §2.2 (1)"),
    )),
    row(
        ME,
        Plugin,
        Place::Under(&CODEX_HOME, "plugins/cache"),
        Plugins {
            depth: 3,
            name_at: 1,
        },
        1,
        "Codex plugin cache",
        Evidence::Docs("skill-format-and-roots.md §2.2 Plugins"),
    ),
    row(
        ME,
        Bundled,
        Place::Under(&CODEX_HOME, "skills/.system"),
        Skills,
        2,
        "Codex system skills",
        Evidence::Docs("skill-format-and-roots.md §2.2 (1)"),
    ),
    row(
        ME,
        Organization,
        Place::System(SystemPath {
            linux: "etc/codex/skills",
            macos: "etc/codex/skills",
            windows: "ProgramData/OpenAI/Codex/skills",
        }),
        Skills,
        3,
        "Codex admin skills",
        Evidence::Docs("skill-format-and-roots.md §2.2 (1)"),
    ),
];
