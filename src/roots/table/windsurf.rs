//! Windsurf: workspace over global.

use super::*;

const ME: AgentId = AgentId::WINDSURF;

pub(super) static AGENT: Agent = Agent {
    id: "windsurf",
    name: "Windsurf",
    name_from: NameFrom::Frontmatter,
    reads: Reader::STRICT,
    name_fix: None,
    names_by_manifest: false,
    on_same_name: OnSameName::OneWins,
    detect: &[Place::Home(".codeium/windsurf")],
    builtin: &[],
    builtin_off: &[],
    builtin_off_by_settings: None,
    builtin_plugins: &[],
    skills_enabled: None,
    hides: &[],
    turned_off: None,
    settings_variables: &[],
    evidence: Evidence::Docs("skill-format-and-roots.md §2"),
};

pub(super) static RULES: &[Rule] = &[
    installs(row(
        ME,
        Project,
        Place::Project(".windsurf/skills", Start),
        Skills,
        0,
        "Windsurf workspace skills",
        Evidence::Docs("skill-format-and-roots.md §2.9"),
    )),
    installs(row(
        ME,
        User,
        Place::Home(".codeium/windsurf/skills"),
        Skills,
        1,
        "Windsurf global skills",
        Evidence::Docs("skill-format-and-roots.md §2.9"),
    )),
];
