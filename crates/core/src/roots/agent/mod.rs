//! The shape of what skilldeck knows about an agent: how it names a skill and settles two of
//! one name, what hides or turns a skill off, which rule of the modules above `roots` applies
//! to it (`above`), and what that rests on. Each agent answers in its own module of the roots
//! table, as one `AgentRules` literal (`table/agent_rules.rs`), which also says how to add
//! one; the lookups by identifier live there too.

mod above;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Serialize, Serializer};

use crate::skill::Declared;

pub use above::{PromptListing, SessionLogs, SkillSwitch};

/// One agent, by its place in the table's list of agents. The agents modelled in full have
/// constants, derived from that list (`table/mod.rs`); the catalogue's are found by
/// [`AgentId::from_id`].
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
    /// Loaded, but its being there may make the agent's whole listing fail: then no skill of
    /// that agent is loaded, this one or any other.
    BreaksListing,
}

impl AgentId {
    /// The agent at `index` of the table's list of agents.
    pub(super) const fn at(index: usize) -> AgentId {
        assert!(index < 256, "the table holds fewer than 256 agents");
        AgentId(index as u8)
    }

    /// Where the agent sits in the table's list of agents.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
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
