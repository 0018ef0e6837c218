//! Cursor: precedence is undocumented; project over user, as the agentskills.io guide has it.

use super::*;

const ME: AgentId = AgentId::CURSOR;

/// Cursor's answers to every question skilldeck asks about an agent.
pub(super) struct Agent;

impl AgentRules for Agent {
    fn id(&self) -> &'static str {
        "cursor"
    }

    fn name(&self) -> &'static str {
        "Cursor"
    }

    fn evidence(&self) -> Evidence {
        Evidence::Docs("skill-format-and-roots.md §2")
    }

    fn name_from(&self) -> NameFrom {
        NameFrom::Frontmatter
    }

    fn reads(&self) -> Reader {
        Reader::STRICT
    }

    fn listed_name<'a>(&self, name: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(name)
    }

    fn names_by_manifest(&self) -> bool {
        false
    }

    fn on_same_name(&self) -> OnSameName {
        OnSameName::OneWins
    }

    fn detect(&self) -> &'static [Place] {
        &[Place::Home(".cursor")]
    }

    fn builtin(&self) -> &'static [&'static str] {
        &[]
    }

    fn builtin_off(&self) -> &'static [&'static str] {
        &[]
    }

    fn builtin_off_by_settings(&self, _: &Environment, _: &ProjectDir) -> bool {
        false
    }

    fn builtin_plugins(&self) -> &'static [&'static str] {
        &[]
    }

    fn skills_enabled(&self) -> Option<Trust> {
        None
    }

    fn hides(&self) -> &'static [Hiding] {
        &[]
    }

    fn turned_off(&self, _: &Environment, _: &ProjectDir) -> Vec<TurnedOff> {
        Vec::new()
    }

    fn settings_variables(&self) -> &'static [&'static str] {
        &[]
    }

    // Every row names `ME`; the table's tests check that it is the `me` given.
    fn rows(&self, _: AgentId) -> Vec<Rule> {
        RULES.to_vec()
    }

    fn prompt_listing(&self) -> PromptListing {
        // skilldeck does not model its listing.
        PromptListing::Unknown
    }

    fn skill_switch(&self) -> SkillSwitch {
        // No documented setting turns one skill off (agent-controls-and-budgets.md, "Turning a
        // skill off", "Others": unconfirmed).
        SkillSwitch::NoSetting
    }

    fn session_logs(&self) -> SessionLogs {
        // skilldeck reads none of its session logs.
        SessionLogs::Unread
    }
}

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
