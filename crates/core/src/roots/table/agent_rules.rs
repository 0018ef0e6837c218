//! `AgentRules`: every question skilldeck asks about an agent, answered in one place per agent.
//!
//! Each agent modelled in full has one module under `table/` (`claude_code/`, `codex.rs`, ...)
//! that implements this trait once; the agents known only from the skills CLI share one impl
//! (`catalog.rs`). No method has a default body, so a new agent, or a new question, cannot
//! be left to fall through to another agent's answer: the compiler asks for it. Each answer
//! keeps its evidence beside it (the agent's file and version, or the agreement test that asks
//! the agent).
//!
//! The questions of the modules above `roots` (which prompt-listing rule, which settings writer,
//! how session logs name a used skill) are answered with values defined here in `roots`
//! ([`PromptListing`], [`SkillSwitch`], [`SessionLogs`]), which those modules match without a
//! catch-all arm: `roots` depends on none of them, and nothing outside `roots` names a
//! particular agent (`tests/it/architecture.rs` fails when code does).
//!
//! To add an agent: write its module here with its rows and its `impl AgentRules`, and add one
//! line to the `modelled!` list in `table/mod.rs`, which gives it its `AgentId` constant.
//!
//! The trait sits in `table/` rather than `agent/` because it answers with the table's rows
//! ([`Rule`]), and `table/` already uses `agent/`'s types: the files of `roots` form no cycle.

use std::borrow::Cow;

use super::*;

/// Every question skilldeck asks about one agent. Implemented once per agent module.
pub trait AgentRules: Sync {
    /// The identifier used on the command line and in JSON.
    fn id(&self) -> &'static str;

    /// The agent's own name, for people.
    fn name(&self) -> &'static str;

    /// What the facts about the agent as a whole rest on.
    fn evidence(&self) -> Evidence;

    /// Where it takes the name it lists and matches a skill by.
    fn name_from(&self) -> NameFrom;

    /// How it reads a `SKILL.md`'s frontmatter where agents part ways (a byte-order mark, YAML
    /// that fails, values that are not text): what its `Needs` and its names go by.
    fn reads(&self) -> Reader;

    /// The name it lists a skill by, from the name [`AgentRules::name_from`] gives (Gemini CLI
    /// turns `:` and path characters into `-`).
    fn listed_name<'a>(&self, name: &'a str) -> Cow<'a, str>;

    /// Whether a skill below a folder holding a plugin manifest, in a plain skills root, is
    /// named `<manifest name>:<name>` (Codex).
    fn names_by_manifest(&self) -> bool;

    /// What it does when two skills share a name.
    fn on_same_name(&self) -> OnSameName;

    /// The agent counts as installed when any of these folders exists (how the skills CLI tells,
    /// checked against its `detectInstalled`).
    fn detect(&self) -> &'static [Place];

    /// The skills it ships inside itself, in no folder skilldeck reads; they cost context all
    /// the same. Skills it ships as files are found through its `Bundled` rows.
    fn builtin(&self) -> &'static [&'static str];

    /// Switches (variables) that take the built-in skills away, but for those in
    /// [`AgentRules::builtin_plugins`].
    fn builtin_off(&self) -> &'static [&'static str];

    /// Whether its settings do what [`AgentRules::builtin_off`] does; read once per scan.
    fn builtin_off_by_settings(&self, env: &Environment, project: &ProjectDir) -> bool;

    /// Built-in skills that come as built-in plugins, which those switches leave.
    fn builtin_plugins(&self) -> &'static [&'static str];

    /// A setting that switches every skill of the agent off (Gemini CLI's `skills.enabled`),
    /// judged as folder trust is: where its check says no, each of the agent's roots is left out
    /// with its sentence.
    fn skills_enabled(&self) -> Option<Trust>;

    /// What keeps a skill it finds from its model, or from it altogether.
    fn hides(&self) -> &'static [Hiding];

    /// The skills its own settings turn off; read once per scan.
    fn turned_off(&self, env: &Environment, project: &ProjectDir) -> Vec<TurnedOff>;

    /// Variables [`AgentRules::turned_off`] and [`AgentRules::builtin_off_by_settings`] read
    /// besides those of its rows' places.
    fn settings_variables(&self) -> &'static [&'static str];

    /// Its rows of the table, each naming `me`, the identifier the table gives it.
    fn rows(&self, me: AgentId) -> Vec<Rule>;

    /// How it lists its skills to its model (`crate::listing`).
    fn prompt_listing(&self) -> PromptListing;

    /// Which settings writer turns one of its skills off (`crate::operations::switch`), or that
    /// it has no such setting.
    fn skill_switch(&self) -> SkillSwitch;

    /// How its session logs name a skill it used (`crate::usage`).
    fn session_logs(&self) -> SessionLogs;
}

/// What follows from the answers, the same for every agent (so no impl can answer it apart).
impl dyn AgentRules {
    /// Whether this machine has the agent: one of its detection folders exists.
    pub fn is_installed(&self, env: &Environment, project: &ProjectDir) -> bool {
        self.detect().iter().any(|place| {
            place
                .resolve(env, project)
                .iter()
                .any(|located| located.path.is_dir())
        })
    }
}
