//! `AgentRules`: every question skilldeck asks about an agent, answered as data, one literal per
//! agent, read by the one implementation here.
//!
//! Each agent modelled in full has one module under `table/` (`claude_code/`, `codex/`, ...)
//! holding its literal; the agents known from their documentation alone (`cursor.rs`,
//! `goose.rs`, `windsurf.rs`) and those known only from the skills CLI (`catalog.rs`) are
//! literals too. The facts every agent must give (its identifier, its name, what the facts rest
//! on, how to tell it is installed, its rows) are the arguments of [`AgentRules::assumed`], so
//! none can be left out; every other answer a literal does not give is what skilldeck assumes
//! where the agent's evidence says nothing (the fields of `assumed` say what and why). Each
//! answer a literal gives keeps its evidence beside it (the agent's file and version, or the
//! agreement test that asks the agent).
//!
//! The questions of the modules above `roots` (which prompt-listing rule, which settings writer,
//! how session logs name a used skill) are answered with values defined here in `roots`
//! ([`PromptListing`], [`SkillSwitch`], [`SessionLogs`]), which those modules match without a
//! catch-all arm: `roots` depends on none of them, and nothing outside `roots` names a
//! particular agent (`tests/it/architecture.rs` fails when code does).
//!
//! To add an agent: write its module here with its rows and its literal, and add one line to
//! the `modelled!` list in `table/mod.rs`, which gives it its `AgentId` constant.
//!
//! The type sits in `table/` rather than `agent/` because it answers with the table's rows
//! ([`Rule`]), and `table/` already uses `agent/`'s types: the files of `roots` form no cycle.

use std::borrow::Cow;

use super::*;

/// Every question skilldeck asks about one agent, and that agent's answers.
pub struct AgentRules {
    /// The identifier used on the command line and in JSON.
    pub(super) id: &'static str,
    /// The agent's own name, for people.
    pub(super) name: &'static str,
    /// What the facts about the agent as a whole rest on.
    pub(super) evidence: Evidence,
    /// Where it takes the name it lists and matches a skill by.
    pub(super) name_from: NameFrom,
    /// How it reads a `SKILL.md`'s frontmatter where agents part ways (a byte-order mark, YAML
    /// that fails, values that are not text): what its `Needs` and its names go by.
    pub(super) reads: Reader,
    /// The name it lists a skill by, from the name `name_from` gives (Gemini CLI turns `:` and
    /// path characters into `-`).
    pub(super) listed_name: fn(&str) -> Cow<'_, str>,
    /// Whether a skill below a folder holding a plugin manifest, in a plain skills root, is
    /// named `<manifest name>:<name>` (Codex).
    pub(super) names_by_manifest: bool,
    /// What it does when two skills share a name.
    pub(super) on_same_name: OnSameName,
    /// The agent counts as installed when any of these folders exists (how the skills CLI
    /// tells, checked against its `detectInstalled`).
    pub(super) detect: &'static [Place],
    /// The skills it ships inside itself, in no folder skilldeck reads; they cost context all
    /// the same. Skills it ships as files are found through its `Bundled` rows.
    pub(super) builtin: &'static [&'static str],
    /// Switches (variables) that take the built-in skills away, but for those in
    /// `builtin_plugins`.
    pub(super) builtin_off: &'static [&'static str],
    /// Whether its settings do what `builtin_off` does; read once per scan.
    pub(super) builtin_off_by_settings: fn(&Environment, &ProjectDir) -> bool,
    /// Built-in skills that come as built-in plugins, which those switches leave.
    pub(super) builtin_plugins: &'static [&'static str],
    /// A setting that switches every skill of the agent off (Gemini CLI's `skills.enabled`),
    /// judged as folder trust is: where its check says no, each of the agent's roots is left
    /// out with its sentence.
    pub(super) skills_enabled: Option<Trust>,
    /// What keeps a skill it finds from its model, or from it altogether.
    pub(super) hides: &'static [Hiding],
    /// The skills its own settings turn off; read once per scan.
    pub(super) turned_off: fn(&Environment, &ProjectDir) -> Vec<TurnedOff>,
    /// Variables `turned_off` and `builtin_off_by_settings` read besides those of its rows'
    /// places.
    pub(super) settings_variables: &'static [&'static str],
    /// Its rows of the table.
    pub(super) rows: Rows,
    /// How it lists its skills to its model (`crate::listing`).
    pub(super) prompt_listing: PromptListing,
    /// Which settings writer turns one of its skills off (`crate::operations::switch`), or
    /// that it has no such setting.
    pub(super) skill_switch: SkillSwitch,
    /// How its session logs name a skill it used (`crate::usage`).
    pub(super) session_logs: SessionLogs,
}

/// An agent's rows of the table.
#[derive(Clone, Copy)]
pub(super) enum Rows {
    /// Written out in its module, each naming the agent (the table's tests check that it is
    /// the agent that gives them).
    Written(&'static [Rule]),
    /// The skills CLI's table (`skills` 1.7.4, `dist/`): one folder relative to each project
    /// directory the agent reads, and one global folder where it gives one; nothing there was
    /// checked against the agent itself, and every row says so.
    SkillsCli {
        project: &'static str,
        global: Option<Place>,
    },
}

impl AgentRules {
    /// An agent of which skilldeck knows only the facts given: every other answer is what
    /// skilldeck assumes where the agent's evidence says nothing, the common case of the agents
    /// it models, and nothing it cannot tell.
    pub(super) const fn assumed(
        id: &'static str,
        name: &'static str,
        evidence: Evidence,
        detect: &'static [Place],
        rows: Rows,
    ) -> AgentRules {
        AgentRules {
            id,
            name,
            evidence,
            // As the specification says.
            name_from: NameFrom::Frontmatter,
            reads: Reader::STRICT,
            listed_name: |name| Cow::Borrowed(name),
            names_by_manifest: false,
            on_same_name: OnSameName::OneWins,
            detect,
            // No built-ins, hidings or settings that turn a skill off are modelled where the
            // agent's evidence names none.
            builtin: &[],
            builtin_off: &[],
            builtin_off_by_settings: |_, _| false,
            builtin_plugins: &[],
            skills_enabled: None,
            hides: &[],
            turned_off: |_, _| Vec::new(),
            settings_variables: &[],
            rows,
            // skilldeck does not model its listing.
            prompt_listing: PromptListing::Unknown,
            // skilldeck knows no setting of its that turns one skill off: none is named for it
            // in agent-controls-and-budgets.md, "Turning a skill off" ("Others": unconfirmed
            // for Cursor, Goose and Windsurf), and the skills CLI's table names none.
            skill_switch: SkillSwitch::NoSetting,
            // skilldeck reads none of its session logs.
            session_logs: SessionLogs::Unread,
        }
    }

    pub fn id(&self) -> &'static str {
        self.id
    }

    pub fn name(&self) -> &'static str {
        self.name
    }

    pub fn evidence(&self) -> Evidence {
        self.evidence
    }

    pub fn name_from(&self) -> NameFrom {
        self.name_from
    }

    pub fn reads(&self) -> Reader {
        self.reads
    }

    pub fn listed_name<'a>(&self, name: &'a str) -> Cow<'a, str> {
        (self.listed_name)(name)
    }

    pub fn names_by_manifest(&self) -> bool {
        self.names_by_manifest
    }

    pub fn on_same_name(&self) -> OnSameName {
        self.on_same_name
    }

    pub fn detect(&self) -> &'static [Place] {
        self.detect
    }

    pub fn builtin(&self) -> &'static [&'static str] {
        self.builtin
    }

    pub fn builtin_off(&self) -> &'static [&'static str] {
        self.builtin_off
    }

    pub fn builtin_off_by_settings(&self, env: &Environment, project: &ProjectDir) -> bool {
        (self.builtin_off_by_settings)(env, project)
    }

    pub fn builtin_plugins(&self) -> &'static [&'static str] {
        self.builtin_plugins
    }

    pub fn skills_enabled(&self) -> Option<Trust> {
        self.skills_enabled
    }

    pub fn hides(&self) -> &'static [Hiding] {
        self.hides
    }

    pub fn turned_off(&self, env: &Environment, project: &ProjectDir) -> Vec<TurnedOff> {
        (self.turned_off)(env, project)
    }

    pub fn settings_variables(&self) -> &'static [&'static str] {
        self.settings_variables
    }

    /// Its rows of the table, each naming `me`, the identifier the table gives it.
    pub fn rows(&self, me: AgentId) -> Vec<Rule> {
        match self.rows {
            Rows::Written(rows) => rows.to_vec(),
            Rows::SkillsCli { project, global } => {
                let folder = installs(folders(me, Evidence::SkillsCli, Finds::DIRECT));
                let project =
                    folder.project(project, Start, 0, "project skills (skills CLI table)");
                let global = global
                    .map(|place| folder.at(User, place, 1, "global skills (skills CLI table)"));
                std::iter::once(project).chain(global).collect()
            }
        }
    }

    pub fn prompt_listing(&self) -> PromptListing {
        self.prompt_listing
    }

    pub fn skill_switch(&self) -> SkillSwitch {
        self.skill_switch
    }

    pub fn session_logs(&self) -> SessionLogs {
        self.session_logs
    }

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
