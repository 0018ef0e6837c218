//! The agents skilldeck knows from their documentation alone (Cursor, Goose, Windsurf;
//! skill-format-and-roots.md §2): the folders each reads and how to tell it is installed are
//! its own, in its file. Every other question has one answer for all of them, here: what their
//! documentation does not say is not modelled (no built-ins, no settings that turn a skill off,
//! no listing budget, no session logs read), and their names come from frontmatter as the
//! specification says.

use super::*;

/// One documented agent: its names, how it is detected, and its rows.
pub(super) struct Documented {
    pub id: &'static str,
    pub name: &'static str,
    pub detect: &'static [Place],
    pub rules: &'static [Rule],
}

impl AgentRules for Documented {
    fn id(&self) -> &'static str {
        self.id
    }

    fn name(&self) -> &'static str {
        self.name
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
        self.detect
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

    // Every row names its agent; the table's tests check that it is the `me` given.
    fn rows(&self, _: AgentId) -> Vec<Rule> {
        self.rules.to_vec()
    }

    fn prompt_listing(&self) -> PromptListing {
        // skilldeck does not model its listing.
        PromptListing::Unknown
    }

    fn skill_switch(&self) -> SkillSwitch {
        // No documented setting of theirs turns one skill off (agent-controls-and-budgets.md,
        // "Turning a skill off", "Others": unconfirmed).
        SkillSwitch::NoSetting
    }

    fn session_logs(&self) -> SessionLogs {
        // skilldeck reads none of its session logs.
        SessionLogs::Unread
    }
}
