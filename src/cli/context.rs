//! `skilldeck context`: what each agent puts in its model's context for its skills — its
//! budget, what the listing uses, and each skill's line as `full`, `shortened`, `name_only` or
//! `omitted` with its cost — from `listing`, as text and JSON.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::SystemTime;

use serde::Serialize;

use crate::limits;
use crate::listing::{self, Assume, Entry, Listing, Shown};
use crate::roots::{AgentId, Machine, Project, PromptListing};
use crate::scan::Inventory;
use crate::text::Unsafe;
use crate::text::human::{self, table};
use crate::usage::{self, AgentUse, Evidence, Usage};

use super::agent_args::agent_id;
use super::{Failure, Outcome};

const AFTER_HELP: &str = "\
Each agent by its own rules: Claude Code holds its listing to 1% of the context window in
characters (or SLASH_COMMAND_TOOL_CHAR_BUDGET) and drops whole descriptions past it; Codex to
2% in tokens, shortening descriptions first, then omitting skills; Gemini CLI and OpenCode send
everything. Tokens shown for a listing in characters are an estimate (characters / 4).
Installed agents whose listing is not known (Copilot CLI among them) are named, not costed.

Examples:
  skilldeck context
  skilldeck context --agent codex --context 272000
  skilldeck context --json | jq '.agents[] | {agent, used, budget}'";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Print JSON instead of tables
    #[arg(long)]
    json: bool,
    /// Only this agent (claude-code, codex, gemini-cli or opencode)
    #[arg(long = "agent", value_name = "ID", value_parser = agent_id)]
    agent: Vec<AgentId>,
    /// The model's context window in tokens, instead of the agent's default model's
    #[arg(long = "context", value_name = "TOKENS", value_parser = clap::value_parser!(u64).range(1..))]
    context: Option<u64>,
}

#[derive(Serialize)]
struct ContextJson<'a> {
    agents: Vec<AgentJson<'a>>,
    /// The agents installed here whose listing skilldeck cannot tell, so not in `agents`.
    not_known: Vec<AgentId>,
}

#[derive(Serialize)]
struct AgentJson<'a> {
    agent: AgentId,
    model: &'a str,
    context_tokens: u64,
    budget: Option<BudgetJson<'a>>,
    /// In the budget's unit.
    used: usize,
    chars: usize,
    estimated_tokens: usize,
    assumptions: &'a [String],
    skills: Vec<SkillJson<'a>>,
}

#[derive(Serialize)]
struct BudgetJson<'a> {
    limit: usize,
    unit: &'static str,
    from: &'a str,
}

#[derive(Serialize)]
struct SkillJson<'a> {
    name: &'a str,
    dir: Option<&'a Path>,
    /// Where the agent reads the skill when not at `dir`: a link to it in the agent's root.
    read_at: Option<&'a Path>,
    listed: &'static str,
    chars: usize,
    description_shown: usize,
    description_chars: usize,
    description_known: bool,
    /// The agent's uses of it, from its counters or session logs; 0 when none are recorded.
    uses: u64,
    last_used: Option<String>,
    /// Where `uses` comes from: `counter` (the agent's own) or `sessions` (its logs); null
    /// when none are recorded. Claude Code ranks its listing by its counters only.
    uses_from: Option<&'static str>,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let known = listing::agents();
    if let Some(other) = args.agent.iter().find(|a| !known.contains(a)) {
        let ids: Vec<&str> = known.iter().map(|a| a.id()).collect();
        return Err(Failure::Usage(format!(
            "--agent {}: skilldeck does not know how that agent lists its skills; it knows {}",
            other.id(),
            ids.join(", ")
        )));
    }
    let inventory = super::scan(machine);
    let mut env = machine.env.clone();
    for name in listing::VARIABLES {
        if let Some(value) = std::env::var_os(name).filter(|v| !v.is_empty()) {
            env = env.with_var(name, value);
        }
    }
    let assume = Assume {
        context_tokens: args.context,
        now: None,
    };
    let usage = usage::read(
        &machine.env,
        &limits::USAGE,
        Some(&usage::cache_dir(&machine.env)),
    );
    let project = Project::locate(&machine.project);
    let listings: Vec<Listing> = known
        .into_iter()
        .filter(|a| args.agent.is_empty() || args.agent.contains(a))
        .filter(|a| !args.agent.is_empty() || inventory.installed.contains(a))
        .filter_map(|a| listing::listing(&inventory, &env, &project, a, assume))
        .collect();
    let uses = Uses::new(&inventory, &usage);
    // Asked for by name, an agent is known (else refused above); all of them, the installed
    // ones skilldeck cannot tell are named.
    let not_known = if args.agent.is_empty() {
        listing::unknown(&inventory.installed)
    } else {
        Vec::new()
    };
    if args.json {
        super::json::print(&ContextJson {
            agents: listings.iter().map(|l| agent_json(l, &uses)).collect(),
            not_known,
        })?;
    } else {
        let mut text = render(&listings, &uses, machine.env.home());
        text.push_str(&not_known_line(&not_known));
        super::print(&text)?;
    }
    Ok(Outcome::Done)
}

/// Each agent's uses of each skill it lists, by the skill's folder.
struct Uses<'a>(HashMap<(AgentId, &'a Path), AgentUse>);

impl<'a> Uses<'a> {
    fn new(inventory: &'a Inventory, usage: &Usage) -> Self {
        let mut uses = HashMap::new();
        for skill in &inventory.skills {
            for found in usage.of(skill) {
                uses.insert((found.agent, skill.dir.as_path()), found);
            }
        }
        Self(uses)
    }

    fn of(&self, agent: AgentId, entry: &Entry) -> Option<AgentUse> {
        let dir = entry.dir.as_deref()?;
        self.0.get(&(agent, dir)).copied()
    }
}

fn agent_json<'a>(listing: &'a Listing, uses: &Uses) -> AgentJson<'a> {
    AgentJson {
        agent: listing.agent,
        model: &listing.model,
        context_tokens: listing.context_tokens,
        budget: listing.budget.as_ref().map(|b| BudgetJson {
            limit: b.limit,
            unit: b.unit.as_str(),
            from: &b.from,
        }),
        used: listing.used,
        chars: listing.chars,
        estimated_tokens: listing.estimated_tokens(),
        assumptions: &listing.assumptions,
        skills: listing
            .entries
            .iter()
            .map(|e| skill_json(e, uses.of(listing.agent, e)))
            .collect(),
    }
}

fn skill_json(entry: &Entry, found: Option<AgentUse>) -> SkillJson<'_> {
    let uses = found.map(|f| f.uses);
    SkillJson {
        name: &entry.name,
        dir: entry.dir.as_deref(),
        read_at: entry.read_at.as_deref(),
        listed: entry.shown.as_str(),
        chars: entry.chars,
        description_shown: entry.description_shown,
        description_chars: entry.description_chars,
        description_known: entry.description_known,
        uses: uses.map_or(0, |u| u.count),
        last_used: uses
            .and_then(|u| u.last)
            .map(|t| humantime::format_rfc3339_seconds(t).to_string()),
        uses_from: found.map(|f| f.from.as_str()),
    }
}

/// The DIR cell: where the agent reads the skill, and for a link, the folder it leads to.
fn dir_cell(entry: &Entry, home: &Path) -> String {
    let path = |p: &Path| human::path(p, home, Unsafe::Escaped);
    match (&entry.read_at, &entry.dir) {
        (Some(read), Some(dir)) => format!("{} (a link to {})", path(read), path(dir)),
        (None, Some(dir)) => path(dir),
        (_, None) => "(built in)".to_owned(),
    }
}

/// Whether `listing` ranks its skills by the agent's own counters, so uses its session logs
/// alone show do not move a skill: Claude Code 2.1.332 scores a skill by `skillUsage` in its
/// config and nothing else (its binary's `Dmo`: `usageCount × max(0.5^(days/7), 0.1)`), and
/// writes that counter at most once a minute per skill (`Nbs = 60000`), so its transcripts
/// may show more uses than it ranks by.
fn ranks_by_counters(listing: &Listing) -> bool {
    matches!(
        listing.agent.agent().prompt_listing(),
        PromptListing::ClaudeCode
    )
}

/// The USES cell: the count, marked `(logs)` where the agent ranks by its counters and the
/// count comes from its logs alone.
fn uses_cell(found: Option<AgentUse>, ranked_by_counters: bool) -> String {
    match found {
        None => "0".to_owned(),
        Some(f) if ranked_by_counters && f.from == Evidence::Sessions => {
            format!("{} (logs)", f.uses.count)
        }
        Some(f) => f.uses.count.to_string(),
    }
}

fn render(listings: &[Listing], uses: &Uses, home: &Path) -> String {
    let now = SystemTime::now();
    if listings.is_empty() {
        return "No agent whose listing skilldeck knows is installed here (--agent names one).\n"
            .to_owned();
    }
    let mut out = String::new();
    for (i, listing) in listings.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "{} ({})", listing.agent.id(), listing.model);
        match &listing.budget {
            Some(budget) => {
                let _ = writeln!(
                    out,
                    "  uses {} of {} {} ({}); {} characters, about {} tokens (an estimate)",
                    listing.used,
                    budget.limit,
                    budget.unit.as_str(),
                    budget.from,
                    listing.chars,
                    listing.estimated_tokens()
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "  no budget; {} characters, about {} tokens (an estimate)",
                    listing.chars,
                    listing.estimated_tokens()
                );
            }
        }
        for assumption in &listing.assumptions {
            let _ = writeln!(out, "  assumed: {assumption}");
        }
        if listing.entries.is_empty() {
            out.push_str("  no skills\n");
            continue;
        }
        let rows: Vec<Vec<String>> = listing
            .entries
            .iter()
            .map(|e| {
                let found = uses.of(listing.agent, e);
                vec![
                    e.name.clone(),
                    e.shown.as_str().to_owned(),
                    e.chars.to_string(),
                    uses_cell(found, ranks_by_counters(listing)),
                    found.and_then(|u| u.uses.last).map_or_else(
                        || "-".to_owned(),
                        |t| human::ago(now.duration_since(t).unwrap_or_default()),
                    ),
                    dir_cell(e, home),
                ]
            })
            .collect();
        for line in table(
            &["NAME", "LISTED", "CHARS", "USES", "LAST USED", "DIR"],
            &rows,
        )
        .lines()
        {
            let _ = writeln!(out, "  {line}");
        }
        if let Some(sentence) = cut_short(listing, logged_only(listing, uses)) {
            let _ = writeln!(out, "  {sentence}");
        }
    }
    out
}

/// The installed agents left out of the view, and why; nothing when there are none.
fn not_known_line(not_known: &[AgentId]) -> String {
    if not_known.is_empty() {
        return String::new();
    }
    let ids: Vec<&str> = not_known.iter().map(|a| a.id()).collect();
    format!(
        "\nNot shown: {} (skilldeck does not know how {} {} skills to the model, or what budget holds them).\n",
        ids.join(", "),
        if ids.len() == 1 {
            "it lists"
        } else {
            "they list"
        },
        if ids.len() == 1 { "its" } else { "their" },
    )
}

/// How many of the skills `listing` ranks by the agent's counters have uses only its logs show.
fn logged_only(listing: &Listing, uses: &Uses) -> usize {
    if !ranks_by_counters(listing) {
        return 0;
    }
    listing
        .entries
        .iter()
        .filter_map(|e| uses.of(listing.agent, e))
        .filter(|f| f.from == Evidence::Sessions)
        .count()
}

/// What the budget cost the skills, for people: nothing when every description is whole.
/// `logged_only` skills have uses the agent's ranking does not count, which is said.
fn cut_short(listing: &Listing, logged_only: usize) -> Option<String> {
    let count = |shown: Shown| listing.entries.iter().filter(|e| e.shown == shown).count();
    let parts: Vec<String> = [
        (Shown::Shortened, "shortened"),
        (Shown::NameOnly, "listed by name only"),
        (Shown::Omitted, "left out"),
    ]
    .into_iter()
    .filter(|(shown, _)| count(*shown) > 0)
    .map(|(shown, how)| format!("{} {how}", human::count(count(shown), "skill")))
    .collect();
    if parts.is_empty() {
        return None;
    }
    let rule = match listing.agent.agent().prompt_listing() {
        PromptListing::ClaudeCode if logged_only > 0 => format!(
            " (Claude Code keeps first the descriptions of the skills its own counters show most \
             used; the uses of {} marked (logs) are in its transcripts only, and it does not \
             rank by those)",
            human::count(logged_only, "skill")
        ),
        PromptListing::ClaudeCode => {
            " (Claude Code keeps the most used skills' descriptions first, by its own counters)"
                .to_owned()
        }
        PromptListing::Codex
        | PromptListing::GeminiCli
        | PromptListing::OpenCode
        | PromptListing::Unknown => String::new(),
    };
    Some(format!(
        "Past the budget: {}{rule}. Turn skills off with `skilldeck disable NAME --agent {}` to make room.",
        parts.join(", "),
        listing.agent.id()
    ))
}
