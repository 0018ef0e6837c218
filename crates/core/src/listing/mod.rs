//! What each agent puts in its model's context for its skills: the listing of names and
//! descriptions, its size in characters (and an estimate in tokens), the budget the agent holds
//! it to where it has one, and for every skill it loads whether it is shown in full, shortened,
//! by name only or not at all — each agent by its own rules (`claude_code`, `codex`, `plain`).
//! Knows nothing of the terminal; the command line's `context` prints it.

mod claude_code;
mod codex;
mod plain;

use std::path::{Path, PathBuf};

use crate::roots::{AgentId, Environment, Project, PromptListing};
use crate::scan::{Inventory, Skill};

/// How one skill appears in an agent's listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    Full,
    Shortened,
    NameOnly,
    Omitted,
}

impl Shown {
    pub fn as_str(self) -> &'static str {
        match self {
            Shown::Full => "full",
            Shown::Shortened => "shortened",
            Shown::NameOnly => "name_only",
            Shown::Omitted => "omitted",
        }
    }
}

/// One skill's line in a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The name the agent lists it by.
    pub name: String,
    /// Its folder; `None` for a built-in shipped inside the agent.
    pub dir: Option<PathBuf>,
    /// Where the agent reads it, when not at `dir`: a link in one of the agent's roots to the
    /// folder `dir` names (found at both, the skill is `dir`, the real folder, for skilldeck).
    pub read_at: Option<PathBuf>,
    pub shown: Shown,
    /// The characters its line takes in the listing (0 when omitted).
    pub chars: usize,
    /// Of its description, the characters shown.
    pub description_shown: usize,
    /// The characters of its whole description (for Claude Code, with `when_to_use`).
    pub description_chars: usize,
    /// Whether its description was read: a built-in shipped inside the agent has none on disk,
    /// so its entry is counted from the length skilldeck measured for it (Claude Code), or by
    /// its name alone.
    pub description_known: bool,
}

/// The limit an agent holds its listing to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    pub limit: usize,
    pub unit: Unit,
    /// Where the number comes from, for people.
    pub from: String,
}

/// What a budget counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Characters,
    /// Codex's approximate tokens: UTF-8 bytes / 4, rounded up, per line.
    Tokens,
}

impl Unit {
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Characters => "characters",
            Unit::Tokens => "tokens",
        }
    }
}

/// One agent's listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    pub agent: AgentId,
    /// The model and context window assumed, for people ("default model, 200,000 tokens").
    pub model: String,
    pub context_tokens: u64,
    pub budget: Option<Budget>,
    /// The characters the skill lines take (without the agent's fixed text around them).
    pub chars: usize,
    /// In the budget's unit, what the lines cost (for a budget in characters, `chars`).
    pub used: usize,
    pub entries: Vec<Entry>,
    /// Rules skilldeck assumed where the agent's own could not be known (say, an order).
    pub assumptions: Vec<String>,
}

impl Listing {
    /// An estimate of the tokens the listing takes: characters / 4.
    pub fn estimated_tokens(&self) -> usize {
        self.chars.div_ceil(4)
    }
}

/// What the caller may fix instead of the agent's own defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Assume {
    /// The model's context window in tokens.
    pub context_tokens: Option<u64>,
    /// The time usage is weighed at (Claude Code ranks skills by uses that fade by the week);
    /// now when `None`.
    pub now: Option<std::time::SystemTime>,
}

/// A skill as a listing rule sees it.
#[derive(Clone, Debug)]
pub(crate) struct Item<'a> {
    pub name: String,
    pub description: String,
    pub skill: Option<&'a Skill>,
    /// Where the agent reads the skill, when not at its `dir`.
    pub read_at: Option<PathBuf>,
}

/// The variables the listing rules read, beyond those the scan does: a caller building its
/// environment from the process adds them.
pub const VARIABLES: &[&str] = &[claude_code::BUDGET_VAR];

/// The agents whose listings skilldeck can tell (their `AgentRules` answer a known
/// [`PromptListing`]), by identifier.
pub fn agents() -> Vec<AgentId> {
    let mut known: Vec<AgentId> = AgentId::all()
        .filter(|agent| agent.agent().prompt_listing().is_known())
        .collect();
    known.sort_by_key(|agent| agent.id());
    known
}

/// The agents of `agents` whose listing skilldeck cannot tell, in their order: a budget view
/// names them rather than leave them out silently (Copilot CLI's listing and its budget, if
/// any, are documented nowhere; `agent-controls-and-budgets.md` has no rule for it).
pub fn unknown(agents: &[AgentId]) -> Vec<AgentId> {
    agents
        .iter()
        .copied()
        .filter(|agent| !agent.agent().prompt_listing().is_known())
        .collect()
}

/// `agent`'s listing of what `inventory` says it loads from `project`, or `None` for an agent whose rules
/// skilldeck does not know.
pub fn listing(
    inventory: &Inventory,
    env: &Environment,
    project: &Project,
    agent: AgentId,
    assume: Assume,
) -> Option<Listing> {
    let items = items(inventory, agent);
    match agent.agent().prompt_listing() {
        PromptListing::ClaudeCode => Some(claude_code::listing(agent, items, env, project, assume)),
        PromptListing::Codex => Some(codex::listing(
            agent, items, inventory, env, project, assume,
        )),
        PromptListing::GeminiCli => Some(plain::gemini_cli(agent, items, assume)),
        PromptListing::OpenCode => Some(plain::opencode(agent, items, assume)),
        PromptListing::Unknown => None,
    }
}

/// The skills `agent` shows its model: those it loads, not shadowed for it by another copy,
/// not turned off or hidden from the model; then its built-ins shipped inside it.
fn items(inventory: &Inventory, agent: AgentId) -> Vec<Item<'_>> {
    let mut items: Vec<Item<'_>> = inventory
        .skills
        .iter()
        .filter(|skill| skill.agents.contains(&agent))
        .filter(|skill| !skill.shadowed_by.iter().any(|s| s.agent == agent))
        .filter(|skill| !skill.left_out.iter().any(|left| left.agent == agent))
        .map(|skill| Item {
            name: skill.name_for(agent).into_owned(),
            description: skill.description_for(agent).into_owned(),
            skill: Some(skill),
            read_at: read_at(inventory, skill, agent),
        })
        .collect();
    items.extend(
        inventory
            .builtins
            .iter()
            .filter(|b| b.agent == agent && b.overridden_by.is_none())
            .map(|b| Item {
                name: b.name.to_owned(),
                description: String::new(),
                skill: None,
                read_at: None,
            }),
    );
    items
}

/// Where `agent` reads `skill` when not at its `dir`: the first path it was found at that lies
/// in a root `agent` loads from, when `dir` lies in none.
fn read_at(inventory: &Inventory, skill: &Skill, agent: AgentId) -> Option<PathBuf> {
    let agents_roots: Vec<&Path> = skill
        .roots
        .iter()
        .filter_map(|&i| inventory.roots.get(i))
        .filter(|entry| entry.root.agents().contains(&agent))
        .map(|entry| entry.root.path.as_path())
        .collect();
    let read = |path: &Path| agents_roots.iter().any(|root| path.starts_with(root));
    if read(&skill.dir) {
        return None;
    }
    skill.reached_by.iter().find(|path| read(path)).cloned()
}

impl Item<'_> {
    fn dir(&self) -> Option<PathBuf> {
        self.skill.map(|s| s.dir.clone())
    }

    fn entry(&self, shown: Shown, chars: usize, description_shown: usize) -> Entry {
        Entry {
            name: self.name.clone(),
            dir: self.dir(),
            read_at: self.read_at.clone(),
            shown,
            chars,
            description_shown,
            description_chars: self.description.chars().count(),
            description_known: self.skill.is_some(),
        }
    }
}

/// A count for people: 200000 → "200,000".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
