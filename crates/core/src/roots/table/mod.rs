//! Every place an agent reads skills from, one row per agent and directory, each with the
//! evidence it rests on: the agent's own listing (checked again by the agreement suite in
//! `tests/it/agree/`), its documentation, or only the skills CLI's agent table.
//!
//! One module per agent that skilldeck models in full, each holding its [`AgentRules`] literal
//! (`agent_rules.rs` says how to add one); `catalog.rs` holds the agents known only from the
//! skills CLI, a project and a global folder each, one `listed` entry apiece.
//!
//! `rank` orders an agent's roots when two skills share a name: the lower rank wins. Within a
//! rank the nearer project level wins, then the earlier row. For agents that load roots one
//! after another and let the later one win (OpenCode, Goose), the rank is the reverse of their
//! load order.
//!
//! Left out on purpose: Cursor's plugin folders, Copilot's `skillDirectories`, nested project
//! roots below the start directory (agents load them lazily), and roots that only a
//! configuration file names (`skills.paths`, `--add-dir`).

mod agent_rules;
mod amp;
mod catalog;
mod claude_code;
mod codex;
mod copilot;
mod cursor;
mod gemini_cli;
#[cfg(test)]
mod golden;
mod goose;
mod markdown;
mod opencode;
mod windsurf;

use std::sync::LazyLock;

/// Where each agent keeps the settings that turn a skill off: the readers here and the
/// writers of `operations::switch` share these, so one place knows each agent's files.
pub(crate) mod switch_files {
    pub(crate) use super::claude_code::switches as claude_code;
    pub(crate) use super::codex::switches as codex;
    pub(crate) use super::copilot::switches as copilot;
    pub(crate) use super::gemini_cli::switches as gemini_cli;
    pub(crate) use super::opencode::switches as opencode;
}

/// Each agent's own folder, as the agent finds it for a run started in `project`: the one
/// place the variables that move them are read (the rows below them use the same places).
pub(crate) mod homes {
    use std::path::PathBuf;

    use super::{Environment, Place, ProjectDir as Project};

    fn first(place: &Place, env: &Environment, project: &Project) -> PathBuf {
        place
            .resolve(env, project)
            .into_iter()
            .next()
            .map_or_else(|| env.home().to_path_buf(), |located| located.path)
    }

    /// `$CODEX_HOME`, else `~/.codex`.
    pub(crate) fn codex(env: &Environment, project: &Project) -> PathBuf {
        first(&super::CODEX_HOME, env, project)
    }

    /// `$COPILOT_HOME`, else `~/.copilot`: where Copilot CLI keeps its settings and records
    /// (an empty variable is unset here; only its personal skills read it as set).
    pub(crate) fn copilot(env: &Environment, project: &Project) -> PathBuf {
        first(&super::COPILOT_HOME, env, project)
    }

    /// `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`.
    pub(crate) fn gemini_cli(env: &Environment, project: &Project) -> PathBuf {
        first(&super::GEMINI_DIR, env, project)
    }
}

/// The `${key}` substitution Gemini CLI makes in its extensions' skills.
pub use gemini_cli::hydration::{Contexts as HydrationContexts, Hydration};

/// Which of Gemini CLI's extensions its security settings let load.
pub(crate) use gemini_cli::extensions as gemini_extensions;

/// The folders `ignoredSkillsLocations` keeps Copilot CLI from reading.
pub(crate) use copilot::ignored as copilot_ignored;

pub use agent_rules::AgentRules;
use agent_rules::Rows;

pub(super) use super::agent::{
    AgentId, Effect, Evidence, Hiding, NameFrom, OnSameName, PromptListing, Selector, SessionLogs,
    SkillSwitch, TurnedOff,
};
pub(super) use super::env::Environment;
pub(super) use super::place::{Pick, Place, SystemPath};
/// The project skilldeck runs in: `Project` in the table is the scope.
pub(super) use super::project::Project as ProjectDir;
pub(super) use super::project::{Beyond, Markers, Walk};
pub(super) use super::trust::{Ignores, Trust};

use std::borrow::Cow;

use crate::skill::{Fallback, Field, File, Reader, Reading, Values};

pub use markdown::markdown;

/// Which kind of root a skill lives in; `Bundled` is what an agent writes for itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    Plugin,
    Organization,
    User,
    Project,
    Bundled,
}

/// How skills sit inside a root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `<root>/<name>/SKILL.md`.
    Skills,
    /// As `Skills`, and a folder holding `.claude-plugin/plugin.json` is a plugin whose skills
    /// are namespaced (Claude Code's skills-directory plugins, `<name>@skills-dir`).
    SkillsAndDirPlugins,
    /// Plugin folders below the root, loaded as the agent's own records say (which plugins
    /// are installed and enabled, which version, where they are read from); `crate::plugin`
    /// reads each agent's records.
    Plugins(Records),
    /// Claude Code's marketplace clones: kept on disk, never loaded (installed plugins are
    /// copied into the cache, which is loaded).
    Marketplaces,
}

/// Whose records decide which plugin folders below a plugin root load, and how their skills
/// are found and named. The meaning of each lives in `crate::plugin::<agent>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Records {
    /// `installed_plugins.json` beside the cache and `enabledPlugins` in `settings`
    /// (the user's) or the start directory's `.claude/settings.json` (project installs).
    ClaudeCode { settings: Place },
    /// `[plugins."P@M"] enabled = true` in `config.toml` two folders above the cache.
    Codex,
    /// `installedPlugins` in `config.json` and the local marketplaces of `settings.json`,
    /// beside `installed-plugins`.
    Copilot,
    /// `gemini-extension.json` in each extension, its install record, and
    /// `extension-enablement.json`.
    GeminiCli,
}

impl Layout {
    /// Whether the agent of the row loads the skills found this way.
    pub fn loaded(self) -> bool {
        !matches!(self, Layout::Marketplaces)
    }
}

/// How deep an agent looks for skills inside a skills root, and which of those it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finds {
    /// How many folders below the root a `SKILL.md` may sit: 1 is `<root>/<name>/SKILL.md`.
    pub depth: u8,
    /// What a `SKILL.md` directly in the root means.
    pub at_root: AtRoot,
    /// Whether skills inside another skill's folder are found too.
    pub inside_skills: bool,
    /// Whether folders whose names start with a dot are looked into.
    pub hidden: bool,
    /// Whether a skill whose own folder's name starts with a dot is kept (Amp looks into
    /// hidden folders for skills but drops such a skill).
    pub hidden_skills: bool,
    /// Whether a lower-case `skill.md` counts as well as `SKILL.md`.
    pub any_case: bool,
    /// Folders, by exact name, the agent never enters at any depth (hidden or not).
    pub skips: &'static [&'static str],
    /// What a skill's `SKILL.md` must hold for the agent to keep it.
    pub needs: Needs,
}

/// What an agent makes of a `SKILL.md` lying directly in a skills root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtRoot {
    /// Nothing: only folders below the root hold skills.
    Ignored,
    /// One more skill, named after the root's folder; the others stay.
    Also,
    /// The root becomes that one skill and nothing else in it is found (Copilot).
    Instead,
}

/// What an agent requires of a skill's frontmatter before it lists the skill, as the agent's
/// own [`Reader`](crate::skill::Reader) reads it (`Agent::reads`). Every agent needs a
/// `SKILL.md` it can read; one that reads the frontmatter at all drops a skill whose `name` or
/// `description` is there but is not text, as its reader sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    pub frontmatter: bool,
    /// What the `name` must be: without one that is required the skill is dropped, not named
    /// after its folder.
    pub name: Want,
    /// A `name` as the specification asks ([`spec_name`]).
    pub valid_name: bool,
    pub description: Want,
    /// The longest `name` it accepts, in characters.
    pub name_at_most: Option<usize>,
    /// The longest `description` it accepts, in characters.
    pub description_at_most: Option<usize>,
}

/// What an agent asks of one frontmatter key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// Anything, or nothing.
    Anything,
    /// Nothing, or text that is not empty.
    NotEmpty,
    /// Text, empty or not.
    Text,
    /// Text that is not empty.
    Filled,
}

impl Want {
    fn unmet_by(self, field: Field<'_>) -> bool {
        match (self, field) {
            (_, Field::NotText) => true,
            (Want::Text | Want::Filled, Field::Absent) => true,
            (Want::NotEmpty | Want::Filled, Field::Text(text)) => text.is_empty(),
            _ => false,
        }
    }
}

impl Needs {
    pub const NOTHING: Needs = Needs {
        frontmatter: false,
        name: Want::Anything,
        valid_name: false,
        description: Want::Anything,
        name_at_most: None,
        description_at_most: None,
    };

    /// Why a skill whose frontmatter the agent reads as `reading` is not kept, or `None` when
    /// it is.
    pub fn unmet_by(self, reading: &Reading<'_>) -> Option<&'static str> {
        let name = reading.name_text();
        let name = name.as_deref();
        let longer = |most: Option<usize>, text: Option<&str>| {
            most.is_some_and(|most| text.is_some_and(|text| text.chars().count() > most))
        };
        if reading.file == File::Unreadable {
            Some("its SKILL.md cannot be read")
        } else if reading.file == File::LinkNotFollowed {
            Some("its SKILL.md is a symbolic link, which it does not follow")
        } else if !self.frontmatter {
            None
        } else if !reading.frontmatter {
            Some("its SKILL.md has no frontmatter it can read")
        } else if self.name.unmet_by(reading.name) {
            Some(match reading.name {
                Field::Absent => "its frontmatter has no name",
                Field::NotText => "its name is not text",
                Field::Text(_) => "its name is empty",
            })
        } else if self.valid_name && !name.is_none_or(spec_name) {
            Some("its name is not lower-case words of letters and digits joined by single hyphens")
        } else if self.description.unmet_by(reading.description) {
            Some(match reading.description {
                Field::Absent => "its frontmatter has no description",
                Field::NotText => "its description is not text",
                Field::Text(_) => "its description is empty",
            })
        } else if longer(self.name_at_most, name) {
            Some("its name is longer than it accepts")
        } else if longer(self.description_at_most, reading.description.text()) {
            Some("its description is longer than it accepts")
        } else {
            None
        }
    }
}

/// The specification's name: lower-case letters and digits in words joined by single hyphens,
/// none at either end (Amp refuses `-lead`, `trail-` and `dou--ble`: seeds 42, 50 and 56 of the
/// 500-seed sweep, case `amp-name-hyphens.txt`).
fn spec_name(name: &str) -> bool {
    name.split('-').all(|word| {
        !word.is_empty()
            && word
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    })
}

impl Finds {
    /// `<root>/<name>/SKILL.md` and nothing else, whatever it holds.
    pub const DIRECT: Finds = Finds {
        depth: 1,
        at_root: AtRoot::Ignored,
        inside_skills: false,
        hidden: false,
        hidden_skills: false,
        any_case: false,
        skips: &[],
        needs: Needs::NOTHING,
    };

    /// Whether a skill found at `spot` below the root, in the folder `below` (relative to the
    /// root), is one this agent finds, in a root that does (`root_skill`) or does not hold a
    /// `SKILL.md` of its own.
    pub fn reaches(self, spot: Spot, below: &std::path::Path, root_skill: bool) -> bool {
        if spot.lowercase && !self.any_case {
            return false;
        }
        if below
            .components()
            .any(|part| self.skips.iter().any(|skip| part.as_os_str() == *skip))
        {
            return false;
        }
        if spot.depth == 0 {
            return self.at_root != AtRoot::Ignored;
        }
        if root_skill && self.at_root == AtRoot::Instead {
            return false;
        }
        spot.depth <= self.depth
            && (self.hidden || !spot.hidden)
            && (self.hidden_skills || !spot.named_hidden)
            && (self.inside_skills || !spot.inside_skill)
    }
}

/// Where below its skills root a skill was found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spot {
    /// Folders between the root and the `SKILL.md`: 0 in the root itself.
    pub depth: u8,
    /// A folder on the way, its own included, has a name starting with a dot.
    pub hidden: bool,
    /// Its own folder's name starts with a dot.
    pub named_hidden: bool,
    /// A folder on the way below the root is itself a skill.
    pub inside_skill: bool,
    /// Its file is spelt `skill.md`.
    pub lowercase: bool,
}

/// One row: an agent reads skills laid out `layout` at `place`, with `scope`.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub agent: AgentId,
    pub scope: Scope,
    pub place: Place,
    pub layout: Layout,
    pub rank: u8,
    /// Switches the agent reads that turn this root off, any one of them.
    pub unless: &'static [&'static str],
    /// Whether an import for this agent and scope installs here (see [`install_rule`]).
    pub installs: bool,
    pub label: &'static str,
    pub evidence: Evidence,
    /// How skills are found inside a skills root (plugin roots ignore it).
    pub finds: Finds,
    /// Read only when the agent trusts the folder it starts in.
    pub trust: Option<Trust>,
    /// A setting that leaves out the row's folders it names by path.
    pub ignores: Option<Ignores>,
    /// The prefix the agent lists this row's skills under, `PREFIX:NAME` (Claude Code's
    /// synced skills).
    pub qualifier: Option<&'static str>,
}

const CLAUDE_HOME: Place = Place::EnvEvenEmpty {
    var: "CLAUDE_CONFIG_DIR",
    then: "",
    or: &Place::Home(".claude"),
};
const CLAUDE_PLUGINS: Place = Place::Env {
    var: "CLAUDE_CODE_PLUGIN_CACHE_DIR",
    then: "",
    or: &Place::Under(&CLAUDE_HOME, "plugins"),
};
const CODEX_HOME: Place = Place::Env {
    var: "CODEX_HOME",
    then: "",
    or: &Place::Home(".codex"),
};
/// Where Copilot CLI keeps `settings.json`, `config.json` and `installed-plugins`: an empty
/// `COPILOT_HOME` is unset here, as its listing shows (1.0.102: with `COPILOT_HOME=` it reads
/// `~/.copilot/settings.json` and `~/.copilot/config.json`, and `~/.agents/skills`; case
/// copilot-home-empty.txt, found by seed 247 of the sweep).
const COPILOT_HOME: Place = Place::Env {
    var: "COPILOT_HOME",
    then: "",
    or: &Place::Home(".copilot"),
};
/// The folder above Copilot CLI's personal `skills`: `COPILOT_HOME` even empty, which puts
/// them in `skills` of the start folder (case copilot-home-empty.txt, seed 63), the one
/// place it is read so.
const COPILOT_SKILLS_HOME: Place = Place::EnvEvenEmpty {
    var: "COPILOT_HOME",
    then: "",
    or: &Place::Home(".copilot"),
};
/// `GEMINI_CLI_HOME` replaces the home directory that holds `.gemini`.
const GEMINI_DIR: Place = Place::Env {
    var: "GEMINI_CLI_HOME",
    then: ".gemini",
    or: &Place::Home(".gemini"),
};
const XDG_CONFIG: Place = Place::Env {
    var: "XDG_CONFIG_HOME",
    then: "",
    or: &Place::Home(".config"),
};
const OPENCODE_CONFIG_DIR: Place = Place::Env {
    var: "OPENCODE_CONFIG_DIR",
    then: "",
    or: &Place::Nowhere,
};

/// What the agents skilldeck knows from their documentation alone (Cursor, Goose, Windsurf) rest
/// on as a whole: the folders each reads and how to tell it is installed are its own, in its
/// file; what their documentation does not say is not modelled ([`AgentRules::assumed`]).
const DOCUMENTED: Evidence = Evidence::Docs("skill-format-and-roots.md §2");

const fn row(
    agent: AgentId,
    scope: Scope,
    place: Place,
    layout: Layout,
    rank: u8,
    label: &'static str,
    evidence: Evidence,
) -> Rule {
    Rule {
        agent,
        scope,
        place,
        layout,
        rank,
        unless: &[],
        installs: false,
        label,
        evidence,
        finds: Finds::DIRECT,
        trust: None,
        ignores: None,
        qualifier: None,
    }
}

/// What the rows of an agent's skills folders share (the agent, the evidence, how skills are
/// found in them), all but where each folder is, which [`Rule::at`] gives.
const fn folders(agent: AgentId, evidence: Evidence, how: Finds) -> Rule {
    finds(
        row(agent, User, Place::Nowhere, Skills, 0, "", evidence),
        how,
    )
}

impl Rule {
    /// This row's kind of folder at another place, scope, rank and label.
    const fn at(self, scope: Scope, place: Place, rank: u8, label: &'static str) -> Rule {
        Rule {
            scope,
            place,
            rank,
            label,
            ..self
        }
    }

    /// This row's kind of folder at `~/<dir>`, a user root.
    const fn home(self, dir: &'static str, rank: u8, label: &'static str) -> Rule {
        self.at(User, Place::Home(dir), rank, label)
    }

    /// This row's kind of folder at `<base>/<dir>`, a user root.
    const fn under(
        self,
        base: &'static Place,
        dir: &'static str,
        rank: u8,
        label: &'static str,
    ) -> Rule {
        self.at(User, Place::Under(base, dir), rank, label)
    }

    /// This row's kind of folder at `<dir>` in each project directory `walk` visits.
    const fn project(self, dir: &'static str, walk: Walk, rank: u8, label: &'static str) -> Rule {
        self.at(Project, Place::Project(dir, walk), rank, label)
    }
}

const fn qualified(mut rule: Rule, qualifier: &'static str) -> Rule {
    rule.qualifier = Some(qualifier);
    rule
}

const fn ignorable(mut rule: Rule, ignores: Ignores) -> Rule {
    rule.ignores = Some(ignores);
    rule
}

const fn trusted(mut rule: Rule, trust: Trust) -> Rule {
    rule.trust = Some(trust);
    rule
}

const fn finds(mut rule: Rule, finds: Finds) -> Rule {
    rule.finds = finds;
    rule
}

const fn unless(mut rule: Rule, switches: &'static [&'static str]) -> Rule {
    rule.unless = switches;
    rule
}

const fn installs(mut rule: Rule) -> Rule {
    rule.installs = true;
    rule
}

/// The row an import for `agent` at `scope` installs into: one marked row per agent for the
/// user and the project scope.
///
/// The rule that marks them: the folder the agent's own documentation gives as its home for
/// skills at that scope, or the shared `.agents/skills` where the agent documents that one as
/// its home (Codex, whose `$CODEX_HOME/skills` is deprecated, and Goose's current docs).
/// Folders an agent reads only for compatibility with another agent are never chosen, so an
/// import for one agent does not land in another's folder by surprise.
pub fn install_rule(agent: AgentId, scope: Scope) -> Option<&'static Rule> {
    rules()
        .iter()
        .find(|rule| rule.installs && rule.agent == agent && rule.scope == scope)
}

/// The agent and scope whose install root an import offers first, when it is among those
/// offered: Claude Code's personal skills folder.
pub const PREFERRED_DESTINATION: (AgentId, Scope) = (AgentId::CLAUDE_CODE, Scope::User);

use Layout::{Marketplaces, Plugins, Skills, SkillsAndDirPlugins};
use Records::{ClaudeCode, Codex, Copilot, GeminiCli};
use Scope::{Bundled, Organization, Plugin, Project, User};
use Walk::{EveryParent, Start, UpToMarkers, UpToRepositoryElse};

/// Lists the agents modelled in full, in table order, each with the constant it is known by
/// and its `AgentRules`: the constants' values are their places in this one list, counted
/// by the compiler, so they cannot drift from it.
macro_rules! modelled {
    ($($constant:ident: $rules:path,)*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        enum Position {
            $($constant,)*
            Count,
        }

        impl AgentId {
            $(pub const $constant: AgentId = AgentId::at(Position::$constant as usize);)*
        }

        static MODELLED: [&AgentRules; Position::Count as usize] = [$(&$rules,)*];
    };
}

modelled! {
    CLAUDE_CODE: claude_code::AGENT,
    CODEX: codex::AGENT,
    OPENCODE: opencode::AGENT,
    GEMINI_CLI: gemini_cli::AGENT,
    COPILOT: copilot::AGENT,
    AMP: amp::AGENT,
    CURSOR: cursor::AGENT,
    GOOSE: goose::AGENT,
    WINDSURF: windsurf::AGENT,
}

/// Every agent: the modelled ones, then the catalogue's (which holds none of them: the test of
/// unique identifiers says so).
static AGENTS: LazyLock<Vec<&'static AgentRules>> =
    LazyLock::new(|| MODELLED.iter().copied().chain(catalog::CATALOG).collect());

/// Every agent's rows, in the order of its agents.
static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    AgentId::all()
        .flat_map(|agent| agent.agent().rows(agent))
        .collect()
});

/// Every agent, the checked ones first, in table order.
pub fn agents() -> &'static [&'static AgentRules] {
    &AGENTS
}

impl AgentId {
    /// Every agent, in table order.
    pub fn all() -> impl Iterator<Item = AgentId> + Clone {
        (0..agents().len()).map(AgentId::at)
    }

    pub fn agent(self) -> &'static AgentRules {
        agents()[self.index()]
    }

    pub fn id(self) -> &'static str {
        self.agent().id()
    }

    pub fn display_name(self) -> &'static str {
        self.agent().name()
    }

    /// The agent named by `id`, as [`AgentId::id`] spells it or as the skills CLI does
    /// (`github-copilot`).
    pub fn from_id(id: &str) -> Option<AgentId> {
        let id = if id == "github-copilot" {
            "copilot"
        } else {
            id
        };
        AgentId::all().find(|agent| agent.id() == id)
    }

    pub fn name_from(self) -> NameFrom {
        self.agent().name_from()
    }

    pub fn on_same_name(self) -> OnSameName {
        self.agent().on_same_name()
    }
}

/// Every variable a row or an agent's detection reads.
pub(super) fn variables() -> Vec<&'static str> {
    let mut names = Vec::new();
    for rule in rules() {
        rule.place.variables(&mut names);
        names.extend(rule.unless);
        names.extend(rule.trust.iter().flat_map(|trust| trust.variables));
    }
    for agent in agents() {
        for place in agent.detect() {
            place.variables(&mut names);
        }
        names.extend(agent.builtin_off());
        names.extend(agent.settings_variables());
    }
    names
}

/// The table, in row order: the modelled agents' rows, then the catalogue's.
pub fn rules() -> &'static [Rule] {
    &RULES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_specification_name_is_words_joined_by_single_hyphens() {
        for name in ["x", "ok-name", "9start", "a-1-b", "pdf"] {
            assert!(spec_name(name), "{name}");
        }
        for name in [
            "-lead", "trail-", "dou--ble", "", "-", "Upper", "sp ace", "é",
        ] {
            assert!(!spec_name(name), "{name}");
        }
    }

    #[test]
    fn every_agent_has_a_project_root_and_all_but_two_a_user_root() {
        let scopes = |agent| -> Vec<Scope> {
            rules()
                .iter()
                .filter(|rule| rule.agent == agent)
                .map(|rule| rule.scope)
                .collect()
        };
        let mut without_user = Vec::new();
        for agent in AgentId::all() {
            assert!(
                scopes(agent).contains(&Project),
                "{agent} has no project root"
            );
            if !scopes(agent).contains(&User) {
                without_user.push(agent.id());
            }
        }
        // The skills CLI's table gives these two no global folder.
        assert_eq!(without_user, ["eve", "promptscript"]);
    }

    #[test]
    fn the_catalogue_adds_the_skills_clis_agents_once_each() {
        assert_eq!(AgentId::all().count(), 78);
        for id in [
            "cline",
            "warp",
            "kiro-cli",
            "zed",
            "junie",
            "roo",
            "trae",
            "qwen-code",
        ] {
            let agent = AgentId::from_id(id).unwrap_or_else(|| panic!("{id}"));
            assert_eq!(agent.agent().evidence(), Evidence::SkillsCli);
        }
    }

    #[test]
    fn every_agent_has_one_install_root_per_scope() {
        for agent in AgentId::all() {
            for scope in [User, Project] {
                if scope == User && ["eve", "promptscript"].contains(&agent.id()) {
                    continue;
                }
                let marked = rules()
                    .iter()
                    .filter(|r| r.installs && r.agent == agent && r.scope == scope)
                    .count();
                assert_eq!(marked, 1, "{agent} {scope:?}");
                assert!(install_rule(agent, scope).unwrap().layout.loaded());
            }
            assert!(install_rule(agent, Plugin).is_none());
        }
    }

    #[test]
    fn every_row_names_its_evidence() {
        for rule in rules() {
            assert!(!rule.evidence.describe().is_empty(), "{rule:?}");
            assert!(!rule.label.is_empty(), "{rule:?}");
        }
    }

    #[test]
    fn every_named_constant_is_the_agent_the_table_keeps_there() {
        let named = [
            (AgentId::CLAUDE_CODE, "claude-code"),
            (AgentId::CODEX, "codex"),
            (AgentId::OPENCODE, "opencode"),
            (AgentId::GEMINI_CLI, "gemini-cli"),
            (AgentId::COPILOT, "copilot"),
            (AgentId::AMP, "amp"),
            (AgentId::CURSOR, "cursor"),
            (AgentId::GOOSE, "goose"),
            (AgentId::WINDSURF, "windsurf"),
        ];
        for (agent, id) in named {
            assert_eq!(agent.id(), id);
        }
        assert_eq!(named.len(), MODELLED.len());
    }

    #[test]
    fn every_row_names_the_agent_whose_module_gives_it() {
        for agent in AgentId::all() {
            let rows = agent.agent().rows(agent);
            assert!(!rows.is_empty(), "{agent} has no rows");
            for row in rows {
                assert_eq!(
                    row.agent, agent,
                    "{agent} gives a row of {}: {row:?}",
                    row.agent
                );
            }
        }
    }

    #[test]
    fn every_agent_reads_back_from_its_id_and_ids_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for agent in AgentId::all() {
            assert!(seen.insert(agent.id()), "{} twice", agent.id());
            assert_eq!(AgentId::from_id(agent.id()), Some(agent));
            let json = serde_json::to_string(&agent).unwrap();
            assert_eq!(json, format!("\"{}\"", agent.id()));
        }
        assert_eq!(AgentId::from_id("github-copilot"), Some(AgentId::COPILOT));
        assert_eq!(AgentId::from_id("no-such-agent"), None);
    }
}
