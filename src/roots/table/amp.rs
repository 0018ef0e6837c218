//! Amp: project `.agents/skills` and `.claude/skills`, user `~/.config/agents/skills`,
//! `~/.config/amp/skills` and `~/.claude/skills`; the nearer root wins.

use super::*;

const ME: AgentId = AgentId::AMP;

pub(super) static AGENT: Agent = Agent {
    id: "amp",
    name: "Amp",
    name_from: NameFrom::Frontmatter,
    on_same_name: OnSameName::OneWins,
    detect: &[Place::Under(&XDG_CONFIG, "amp")],
    evidence: Evidence::Docs("skill-format-and-roots.md §2.7"),
};

const DOCS: Evidence = Evidence::Docs("skill-format-and-roots.md §2.7");

pub(super) static RULES: &[Rule] = &[
    installs(row(
        ME,
        Project,
        Place::Project(".agents/skills", UpToRepository),
        Skills,
        0,
        "Amp project skills",
        DOCS,
    )),
    row(
        ME,
        Project,
        Place::Project(".claude/skills", UpToRepository),
        Skills,
        1,
        "Amp project skills",
        DOCS,
    ),
    installs(row(
        ME,
        User,
        Place::Under(&XDG_CONFIG, "agents/skills"),
        Skills,
        2,
        "Amp user skills",
        DOCS,
    )),
    row(
        ME,
        User,
        Place::Under(&XDG_CONFIG, "amp/skills"),
        Skills,
        3,
        "Amp user skills",
        DOCS,
    ),
    row(
        ME,
        User,
        Place::Home(".claude/skills"),
        Skills,
        4,
        "Amp user skills",
        DOCS,
    ),
];
