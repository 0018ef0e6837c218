//! What each agent's listing of skills costs its model's context, how it shows each skill, and
//! which skills were used and when, as the app shows them: plain, display-safe data that the
//! scan's worker builds from `listing::listing` and the usage worker from `usage::read`, so the
//! UI thread only looks things up. The budget view's cursor is here too.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::listing::{Listing, Shown, Unit};
use crate::roots::AgentId;
use crate::scan::Inventory;
use crate::text::sanitize;
use crate::usage::{Evidence, Usage};

/// Every installed agent's listing, and each skill's line in them.
#[derive(Clone, Debug, Default)]
pub struct Budgets {
    /// In the order of `listing::agents`.
    pub agents: Vec<AgentBudget>,
    /// By skill folder: how each agent that lists the skill shows it, in agent order.
    by_dir: HashMap<PathBuf, Vec<Listed>>,
}

/// One agent's listing, ready to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentBudget {
    pub agent: AgentId,
    /// `Claude Code`.
    pub name: String,
    /// The limit the agent holds its listing to; `None` for one that sends every description.
    pub budget: Option<Limit>,
    /// What the lines cost, in the budget's unit (characters when there is none).
    pub used: usize,
    /// The characters the lines take.
    pub chars: usize,
    /// An estimate of the tokens they take.
    pub tokens: usize,
    pub full: usize,
    pub shortened: usize,
    pub name_only: usize,
    pub omitted: usize,
    /// `default model claude-sonnet-4-5, 200,000 tokens`.
    pub model: String,
    /// Costliest first, then by name.
    pub entries: Vec<EntryView>,
}

/// An agent's budget, display-safe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limit {
    pub limit: usize,
    pub unit: Unit,
    /// Where the number comes from: `1% of a 200,000-token context window`.
    pub from: String,
}

/// One line of an agent's listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryView {
    pub name: String,
    /// The skill's folder; `None` for a built-in shipped inside the agent, which cannot be
    /// turned off or removed from here.
    pub dir: Option<PathBuf>,
    pub shown: Shown,
    /// The characters its line takes (0 when omitted).
    pub chars: usize,
}

/// How one agent lists one skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listed {
    pub agent: AgentId,
    pub shown: Shown,
    pub chars: usize,
}

/// A skill's cost in the list: the largest line any agent gives it, and whether some agent
/// shortens its description or leaves it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    pub chars: usize,
    pub cut: bool,
}

impl Budgets {
    /// The app's view of `listings`.
    pub fn of(listings: &[Listing]) -> Self {
        let mut by_dir: HashMap<PathBuf, Vec<Listed>> = HashMap::new();
        let agents = listings
            .iter()
            .map(|listing| {
                let mut entries: Vec<EntryView> = listing
                    .entries
                    .iter()
                    .map(|entry| EntryView {
                        name: sanitize::name(&entry.name),
                        dir: entry.dir.clone(),
                        shown: entry.shown,
                        chars: entry.chars,
                    })
                    .collect();
                entries.sort_by(|a, b| b.chars.cmp(&a.chars).then_with(|| a.name.cmp(&b.name)));
                for entry in &listing.entries {
                    if let Some(dir) = &entry.dir {
                        by_dir.entry(dir.clone()).or_default().push(Listed {
                            agent: listing.agent,
                            shown: entry.shown,
                            chars: entry.chars,
                        });
                    }
                }
                let count = |shown: Shown| entries.iter().filter(|e| e.shown == shown).count();
                AgentBudget {
                    agent: listing.agent,
                    name: listing.agent.display_name().to_owned(),
                    budget: listing.budget.as_ref().map(|b| Limit {
                        limit: b.limit,
                        unit: b.unit,
                        from: sanitize::line(&b.from),
                    }),
                    used: listing.used,
                    chars: listing.chars,
                    tokens: listing.estimated_tokens(),
                    full: count(Shown::Full),
                    shortened: count(Shown::Shortened),
                    name_only: count(Shown::NameOnly),
                    omitted: count(Shown::Omitted),
                    model: sanitize::line(&listing.model),
                    entries,
                }
            })
            .collect();
        Self { agents, by_dir }
    }

    /// How each agent lists the skill in `dir`.
    pub fn listed(&self, dir: &Path) -> &[Listed] {
        self.by_dir.get(dir).map_or(&[], Vec::as_slice)
    }

    /// The skill's cost, when some agent lists it.
    pub fn cost(&self, dir: &Path) -> Option<Cost> {
        let listed = self.listed(dir);
        let chars = listed.iter().map(|l| l.chars).max()?;
        Some(Cost {
            chars,
            cut: listed.iter().any(|l| l.shown != Shown::Full),
        })
    }

    /// Whether any agent's listing is known.
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }
}

impl AgentBudget {
    /// What the listing takes of its budget, 0 to 1 (more when over it).
    pub fn ratio(&self) -> Option<f64> {
        let budget = self.budget.as_ref()?;
        Some(self.used as f64 / budget.limit.max(1) as f64)
    }

    /// Whether the agent shortens or drops some description, or leaves a skill out.
    pub fn cuts(&self) -> bool {
        self.shortened + self.name_only + self.omitted > 0
    }
}

/// How a listing shows a skill, in a few words.
pub fn shown_words(shown: Shown) -> &'static str {
    match shown {
        Shown::Full => "full",
        Shown::Shortened => "shortened",
        Shown::NameOnly => "name only",
        Shown::Omitted => "omitted",
    }
}

/// What the app knows of the skills' uses.
#[derive(Clone, Debug, Default)]
pub enum Uses {
    /// Nobody asked (a deck not made by a scan).
    #[default]
    Unknown,
    /// A worker is reading the agents' counters and session logs.
    Reading,
    Read(UsageView),
    Failed(String),
}

impl Uses {
    pub fn view(&self) -> Option<&UsageView> {
        match self {
            Uses::Read(view) => Some(view),
            _ => None,
        }
    }
}

/// Every skill's uses, by folder, and what was read to find them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UsageView {
    by_dir: HashMap<PathBuf, Vec<UseView>>,
    /// The session files whose uses count (read now or held unchanged in the cache).
    pub files: usize,
    /// Files found and left unread because a bound was reached.
    pub unread: usize,
    pub broken: usize,
}

/// One agent's uses of a skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UseView {
    pub agent: AgentId,
    pub count: u64,
    pub last: Option<SystemTime>,
    pub from: Evidence,
}

impl UsageView {
    /// The uses `usage` holds of every skill of `inventory`.
    pub fn of(usage: &Usage, inventory: &Inventory) -> Self {
        let by_dir = inventory
            .skills
            .iter()
            .map(|skill| {
                let uses = usage
                    .of(skill)
                    .into_iter()
                    .map(|u| UseView {
                        agent: u.agent,
                        count: u.uses.count,
                        last: u.uses.last,
                        from: u.from,
                    })
                    .collect::<Vec<_>>();
                (skill.dir.clone(), uses)
            })
            .filter(|(_, uses)| !uses.is_empty())
            .collect();
        Self {
            by_dir,
            files: usage.reading.sessions,
            unread: usage.reading.unread,
            broken: usage.reading.broken,
        }
    }

    /// A view holding `uses`, by folder, as if `files` were read: what the app's tests draw.
    pub fn from_uses(uses: Vec<(PathBuf, Vec<UseView>)>, files: usize) -> Self {
        Self {
            by_dir: uses.into_iter().collect(),
            files,
            ..Self::default()
        }
    }

    /// Every agent's uses of the skill in `dir`.
    pub fn uses(&self, dir: &Path) -> &[UseView] {
        self.by_dir.get(dir).map_or(&[], Vec::as_slice)
    }

    /// The latest use of the skill in `dir` by any agent.
    pub fn last(&self, dir: &Path) -> Option<SystemTime> {
        self.uses(dir).iter().filter_map(|u| u.last).max()
    }

    /// How many uses of the skill in `dir` the agents record.
    pub fn count(&self, dir: &Path) -> u64 {
        self.uses(dir).iter().map(|u| u.count).sum()
    }
}

/// The budget view's cursor: which agent, and which of its skills.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BudgetView {
    /// Index into `deck.budgets.agents`.
    pub agent: usize,
    /// Index into that agent's entries.
    pub selected: usize,
}
