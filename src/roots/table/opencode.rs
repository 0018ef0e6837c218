//! OpenCode loads in order and the later wins: the ranks run backwards from its load order.

use super::*;

const ME: AgentId = AgentId::OPENCODE;

pub(super) static AGENT: Agent = Agent {
    id: "opencode",
    name: "OpenCode",
    name_from: NameFrom::Frontmatter,
    on_same_name: OnSameName::OneWins,
    detect: &[Place::Under(&XDG_CONFIG, "opencode")],
    evidence: Evidence::Docs("skill-format-and-roots.md §2"),
};

pub(super) static RULES: &[Rule] = &[
    row(
        ME,
        User,
        Place::Under(&OPENCODE_CONFIG_DIR, "skills"),
        Skills,
        0,
        "OpenCode config dir skills",
        Evidence::Docs("skill-format-and-roots.md §2.3 (3)"),
    ),
    row(
        ME,
        User,
        Place::Under(&OPENCODE_CONFIG_DIR, "skill"),
        Skills,
        0,
        "OpenCode config dir skills",
        Evidence::Docs("skill-format-and-roots.md §2.3 (3)"),
    ),
    row(
        ME,
        User,
        Place::Home(".opencode/skills"),
        Skills,
        1,
        "OpenCode home skills",
        Evidence::Docs("skill-format-and-roots.md §2.3 (3)"),
    ),
    row(
        ME,
        User,
        Place::Home(".opencode/skill"),
        Skills,
        1,
        "OpenCode home skills",
        Evidence::Docs("skill-format-and-roots.md §2.3 (3)"),
    ),
    installs(row(
        ME,
        Project,
        Place::Project(".opencode/skills", UpToRepository),
        Skills,
        2,
        "OpenCode project skills",
        Evidence::Docs("skill-format-and-roots.md §2.3 (3)"),
    )),
    row(
        ME,
        Project,
        Place::Project(".opencode/skill", UpToRepository),
        Skills,
        2,
        "OpenCode project skills",
        Evidence::Docs("skill-format-and-roots.md §2.3 (3)"),
    ),
    installs(row(
        ME,
        User,
        Place::Under(&XDG_CONFIG, "opencode/skills"),
        Skills,
        3,
        "OpenCode global skills",
        Evidence::Docs("skill-format-and-roots.md §2.3 (3)"),
    )),
    row(
        ME,
        User,
        Place::Under(&XDG_CONFIG, "opencode/skill"),
        Skills,
        3,
        "OpenCode global skills",
        Evidence::Docs("skill-format-and-roots.md §2.3 (3)"),
    ),
    unless(
        row(
            ME,
            Project,
            Place::Project(".agents/skills", UpToRepository),
            Skills,
            4,
            "OpenCode project compatibility skills",
            Evidence::Docs("skill-format-and-roots.md §2.3 (2)"),
        ),
        &["OPENCODE_DISABLE_EXTERNAL_SKILLS"],
    ),
    unless(
        row(
            ME,
            Project,
            Place::Project(".claude/skills", UpToRepository),
            Skills,
            5,
            "OpenCode project compatibility skills",
            Evidence::Docs("skill-format-and-roots.md §2.3 (2)"),
        ),
        &["OPENCODE_DISABLE_EXTERNAL_SKILLS"],
    ),
    unless(
        row(
            ME,
            User,
            Place::Home(".agents/skills"),
            Skills,
            6,
            "OpenCode global compatibility skills",
            Evidence::Docs("skill-format-and-roots.md §2.3 (1)"),
        ),
        &["OPENCODE_DISABLE_EXTERNAL_SKILLS"],
    ),
    unless(
        row(
            ME,
            User,
            Place::Home(".claude/skills"),
            Skills,
            7,
            "OpenCode global compatibility skills",
            Evidence::Docs("skill-format-and-roots.md §2.3 (1)"),
        ),
        &["OPENCODE_DISABLE_EXTERNAL_SKILLS"],
    ),
];
