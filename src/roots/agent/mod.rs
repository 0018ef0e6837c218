//! The shape of what skilldeck knows about an agent: its identity, how it names a skill and
//! settles two of one name, how to tell it is installed, and what that rests on. The facts
//! themselves, and the lookups by identifier, live in the roots table (`table/`).

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Serialize, Serializer};

use super::env::Environment;
use super::place::Place;
use super::project::Project;
use super::trust::Trust;
use crate::skill::{Declared, Reader};

/// One agent, by its index in [`agents`]. The agents checked against their own listings have
/// constants; the catalogue's are found by [`AgentId::from_id`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AgentId(u8);

/// Where an agent takes the name it lists and matches a skill by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameFrom {
    /// The skill's directory name.
    Directory,
    /// The frontmatter `name`, or the directory name when there is none.
    Frontmatter,
}

/// What an agent does when two skills share a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnSameName {
    /// One copy wins: the one from the root with the best priority in the table.
    OneWins,
    /// Both stay loaded.
    KeepsAll,
    /// One copy wins, but not always the same one (OpenCode reads its roots at once and
    /// keeps the copy it finishes last).
    Unpredictable,
    /// One copy wins: the one from the root with the best priority, but between copies in one
    /// root the order the file system lists its folders in decides, which no rule can tell
    /// (Amp: two copies in `~/.claude/skills` won by `zzz/cat` over `cat` and by `bee` over
    /// `aaa/bee`, where Copilot takes the first by path; `amp skill list --json`,
    /// 0.0.1790142911).
    OneWinsAcrossRoots,
}

/// What a fact about an agent rests on, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// The agent's own listing showed it: the version run and the agreement test that asks it
    /// again on every CI run.
    Listing {
        version: &'static str,
        test: &'static str,
    },
    /// The agent's documentation or source, named.
    Docs(&'static str),
    /// Only the skills CLI 1.7.4 agent table says so.
    SkillsCli,
}

impl Evidence {
    /// A short phrase for tables: how sure the fact is.
    pub fn strength(self) -> &'static str {
        match self {
            Evidence::Listing { .. } => "verified by the agent's own listing",
            Evidence::Docs(_) => "from its docs",
            Evidence::SkillsCli => "the skills CLI's table only",
        }
    }

    /// The whole evidence, for the README's table and `--help`.
    pub fn describe(self) -> String {
        match self {
            Evidence::Listing { version, test } => format!("{version}, test `{test}`"),
            Evidence::Docs(doc) => doc.to_owned(),
            Evidence::SkillsCli => "skills CLI 1.7.4 agent table".to_owned(),
        }
    }
}

/// An agent and the facts about it that are not about one root.
#[derive(Debug)]
pub struct Agent {
    /// The identifier used on the command line and in JSON.
    pub id: &'static str,
    /// The agent's own name, for people.
    pub name: &'static str,
    pub name_from: NameFrom,
    /// How it reads a `SKILL.md`'s frontmatter where agents part ways (a byte-order mark,
    /// YAML that fails, values that are not text): what its `Needs` and its names go by.
    pub reads: Reader,
    /// How it rewrites a name before listing it (Gemini CLI turns `:` and path characters
    /// into `-`).
    pub name_fix: Option<fn(&str) -> Cow<'_, str>>,
    /// Whether a skill below a folder holding a plugin manifest, in a plain skills root, is
    /// named `<manifest name>:<name>` (Codex).
    pub names_by_manifest: bool,
    pub on_same_name: OnSameName,
    /// The agent counts as installed when any of these folders exists (how the skills CLI
    /// tells, checked against its `detectInstalled`).
    pub detect: &'static [Place],
    /// The skills it ships inside itself, in no folder skilldeck reads; they cost context all
    /// the same. Skills it ships as files are found through its `Bundled` rows.
    pub builtin: &'static [&'static str],
    /// Switches that take the built-in skills away, but for those in `builtin_plugins`.
    pub builtin_off: &'static [&'static str],
    /// A setting that does what `builtin_off` does, read once per scan.
    pub builtin_off_by_settings: Option<fn(&Environment, &Project) -> bool>,
    /// Built-in skills that come as built-in plugins, which those switches leave.
    pub builtin_plugins: &'static [&'static str],
    /// A setting that switches every skill of the agent off (Gemini CLI's `skills.enabled`),
    /// judged as folder trust is: where its check says no, each of the agent's roots is left
    /// out with its sentence.
    pub skills_enabled: Option<Trust>,
    /// What keeps a skill it finds from its model, or from it altogether.
    pub hides: &'static [Hiding],
    /// The skills its own settings turn off, read once per scan.
    pub turned_off: Option<fn(&Environment, &Project) -> Vec<TurnedOff>>,
    /// Variables `turned_off` reads besides those of the table's places.
    pub settings_variables: &'static [&'static str],
    pub evidence: Evidence,
}

/// A rule by which an agent leaves out a skill whose folder it reads.
#[derive(Debug)]
pub struct Hiding {
    /// Why, for people: the file and setting that does it.
    pub why: &'static str,
    pub effect: Effect,
    /// Whether the skill in this folder is left out, told from the folder, whether it holds a
    /// file (a path below it, `/`-separated) as its listing shows, and its frontmatter.
    pub applies: fn(&Path, Holds<'_>, &Declared) -> bool,
}

/// Whether a skill's folder holds a file, by its `/`-separated path below the folder.
pub type Holds<'a> = &'a dyn Fn(&str) -> bool;

/// A skill an agent's settings turn off, by the name it lists it by or by its `SKILL.md`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnedOff {
    pub selector: Selector,
    /// The setting that does it, for people.
    pub why: &'static str,
}

/// How a setting names the skill it turns off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    /// Every skill the agent lists by this name.
    Name(String),
    /// Every skill the agent lists by this name, matched without regard to case.
    NameAnyCase(String),
    /// The skill whose `SKILL.md` is this file.
    File(PathBuf),
    /// Every skill the agent lists by a name matching a wildcard pattern.
    Pattern(NamePattern),
    /// Entries applied in order, each turning what it selects on (`true`) or off: a skill is
    /// selected when the last entry that selects it turns it off (Codex's `[[skills.config]]`,
    /// where a later `path` entry turns on what an earlier `name` entry turned off).
    LastOf(Vec<(Selector, bool)>),
}

/// A wildcard pattern for names, with the exceptions later settings make to it (OpenCode's
/// `permission.skill` rules, where the last rule that matches a name decides).
#[derive(Clone, Debug)]
pub struct NamePattern {
    pub pattern: String,
    /// Names matching one of these are not selected.
    pub unless: Vec<String>,
    /// The agent's own wildcard syntax: whether a name matches a pattern.
    pub matches: fn(&str, &str) -> bool,
}

/// Two patterns are the same when their text is: each agent has one syntax, and functions
/// have no reliable identity to compare.
impl PartialEq for NamePattern {
    fn eq(&self, other: &Self) -> bool {
        self.pattern == other.pattern && self.unless == other.unless
    }
}

impl Eq for NamePattern {}

impl NamePattern {
    /// Whether the pattern selects a skill listed by `name`.
    pub fn selects(&self, name: &str) -> bool {
        (self.matches)(name, &self.pattern)
            && !self.unless.iter().any(|other| (self.matches)(name, other))
    }
}

/// How far a [`Hiding`] leaves a skill out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Listed and runnable by name, but not shown to the model.
    FromModel,
    /// Not loaded at all.
    Dropped,
    /// Listed by the agent as turned off by its settings, and not offered to its model.
    Disabled,
}

impl Agent {
    /// Whether this machine has the agent: one of its detection folders exists.
    pub fn is_installed(&self, env: &Environment, project: &Project) -> bool {
        self.detect.iter().any(|place| {
            place
                .resolve(env, project)
                .iter()
                .any(|located| located.path.is_dir())
        })
    }
}

impl AgentId {
    pub const CLAUDE_CODE: AgentId = AgentId(0);
    pub const CODEX: AgentId = AgentId(1);
    pub const OPENCODE: AgentId = AgentId(2);
    pub const GEMINI_CLI: AgentId = AgentId(3);
    pub const COPILOT: AgentId = AgentId(4);
    pub const AMP: AgentId = AgentId(5);
    pub const CURSOR: AgentId = AgentId(6);
    pub const GOOSE: AgentId = AgentId(7);
    pub const WINDSURF: AgentId = AgentId(8);

    /// The agent at `index` of the table's list of agents.
    pub(super) fn at(index: usize) -> AgentId {
        AgentId(u8::try_from(index).expect("the table holds fewer than 256 agents"))
    }

    /// Where the agent sits in the table's list of agents.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The agents whose constant the table must keep at that index, with their identifiers.
    pub const NAMED: [(AgentId, &'static str); 9] = [
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
}

impl fmt::Debug for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl fmt::Display for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for AgentId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}
