//! Goose loads in order and the later wins; project `.agents` is highest.

use super::*;

const ME: AgentId = AgentId::GOOSE;

/// Goose's config folder: `~/.config/goose` on Linux and macOS (XDG_CONFIG_HOME moves it),
/// `%APPDATA%\Block\goose\config` on Windows (etcetera's Windows strategy, which reads no XDG
/// variable); goose's configuration guide gives both ("macOS/Linux: ~/.config/goose/config.yaml
/// - Windows: %APPDATA%\Block\goose\config\config.yaml").
const CONFIG: Place = Place::OnWindows {
    windows: &Place::Env {
        var: "APPDATA",
        then: "Block/goose/config",
        or: &Place::Home("AppData/Roaming/Block/goose/config"),
    },
    elsewhere: &Place::Under(&XDG_CONFIG, "goose"),
};

/// Goose's answers to every question skilldeck asks about an agent.
pub(super) struct Agent;

impl AgentRules for Agent {
    fn id(&self) -> &'static str {
        "goose"
    }

    fn name(&self) -> &'static str {
        "Goose"
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
        &[CONFIG]
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
        // skilldeck knows no setting of its that turns one skill off (none is named in
        // agent-controls-and-budgets.md, "Turning a skill off").
        SkillSwitch::NoSetting
    }

    fn session_logs(&self) -> SessionLogs {
        // skilldeck reads none of its session logs.
        SessionLogs::Unread
    }
}

pub(super) static RULES: &[Rule] = &[
    installs(row(
        ME,
        Project,
        Place::Project(".agents/skills", Start),
        Skills,
        0,
        "Goose project skills",
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    )),
    row(
        ME,
        Project,
        Place::Project(".goose/skills", Start),
        Skills,
        1,
        "Goose project skills",
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    ),
    row(
        ME,
        Project,
        Place::Project(".claude/skills", Start),
        Skills,
        2,
        "Goose project skills",
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    ),
    row(
        ME,
        User,
        Place::Under(&CONFIG, "skills"),
        Skills,
        3,
        "Goose config skills",
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    ),
    installs(row(
        ME,
        User,
        Place::Home(".agents/skills"),
        Skills,
        4,
        "Goose global skills",
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    )),
    row(
        ME,
        User,
        Place::Home(".claude/skills"),
        Skills,
        5,
        "Goose global skills",
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    ),
];
