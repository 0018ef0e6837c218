//! Claude Code: enterprise over personal over project; plugin skills are namespaced.

use super::*;

const ME: AgentId = AgentId::CLAUDE_CODE;

pub(super) static AGENT: Agent = Agent {
    id: "claude-code",
    name: "Claude Code",
    name_from: NameFrom::Directory,
    on_same_name: OnSameName::OneWins,
    detect: &[CLAUDE_HOME],
    evidence: Evidence::Docs("skill-format-and-roots.md §2"),
};

pub(super) static RULES: &[Rule] = &[
    unless(
        row(
            ME,
            Organization,
            Place::System(SystemPath {
                linux: "etc/claude-code/.claude/skills",
                macos: "Library/Application Support/ClaudeCode/.claude/skills",
                windows: "Program Files/ClaudeCode/.claude/skills",
            }),
            Skills,
            0,
            "Claude Code managed skills",
            Evidence::Docs("skill-format-and-roots.md §2.1 Organization"),
        ),
        &["CLAUDE_CODE_DISABLE_POLICY_SKILLS"],
    ),
    installs(row(
        ME,
        User,
        Place::Under(&CLAUDE_HOME, "skills"),
        SkillsAndDirPlugins,
        1,
        "Claude Code personal skills",
        Evidence::Docs("skill-format-and-roots.md §2.1 User"),
    )),
    installs(row(
        ME,
        Project,
        Place::Project(".claude/skills", UpToRepository),
        SkillsAndDirPlugins,
        2,
        "Claude Code project skills",
        Evidence::Docs("skill-format-and-roots.md §2.1 Project"),
    )),
    row(
        ME,
        User,
        Place::Under(&CLAUDE_HOME, "skills/synced"),
        Skills,
        3,
        "Claude Code skills synced from claude.ai",
        Evidence::Docs("skill-format-and-roots.md §2.1 User (synced; local sources win)"),
    ),
    row(
        ME,
        Plugin,
        Place::Under(&CLAUDE_PLUGINS, "cache"),
        Plugins {
            depth: 3,
            name_at: 1,
        },
        4,
        "Claude Code plugin cache",
        Evidence::Docs(
            "skill-format-and-roots.md §2.1 Plugin (cache/<marketplace>/<plugin>/<version>)",
        ),
    ),
    row(
        ME,
        Plugin,
        Place::Under(&Place::EachIn("CLAUDE_CODE_PLUGIN_SEED_DIR"), "cache"),
        Plugins {
            depth: 3,
            name_at: 1,
        },
        5,
        "Claude Code plugin seed cache",
        Evidence::Docs("skill-format-and-roots.md §2.1 Plugin (CLAUDE_CODE_PLUGIN_SEED_DIR)"),
    ),
    row(
        ME,
        Plugin,
        Place::Under(&CLAUDE_PLUGINS, "marketplaces"),
        Marketplaces,
        6,
        "Claude Code marketplace clones (not loaded)",
        Evidence::Docs("skill-format-and-roots.md §2.1 Plugin (marketplaces/<name>)"),
    ),
];
