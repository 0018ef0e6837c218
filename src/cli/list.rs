//! `skilldeck list`: every skill found, with source, agents, record, state and digest; or
//! only those an agent loads, of a source, whose name matches a glob, or that no agent used
//! lately. `--json` gives each skill's uses per agent (`usage`).

use std::fmt::Write as _;
use std::time::{Duration, SystemTime};

use globset::{Glob, GlobMatcher};

use crate::operations::lock_state::lock_states;
use crate::record::State;
use crate::roots::{AgentId, Effect, Machine, Source};
use crate::scan::{Builtin, Inventory, LeftOut, Skill};

use super::agent_args::agent_id;
use super::agents::{AllAgents, Shown};
use super::json::{self, AgentsJson, ListJson};
use super::{Failure, Outcome};
use crate::text::Unsafe;
use crate::text::human::{self, table};
use crate::usage::{self, Usage};

const AFTER_HELP: &str = "\
Filters combine: a skill is listed when it passes every filter given, and a filter given twice
passes either value. A plugin's skill matches --name by `plugin:skill` or by `skill` alone.
Exit 1 when filters are given and nothing matches them.

Usage (--json's `usage` and `last_used`, and --unused) comes from Claude Code's own counters,
from the session logs Claude Code, Codex and Gemini CLI keep (~/.claude/projects,
~/.codex/sessions, ~/.gemini/tmp/*/chats) and from OpenCode's session database
(~/.local/share/opencode/opencode.db), reading at most
the newest 2,000 logs, up to 64 MiB of each and 2 GiB in all. The first reading of a large
history takes seconds; what was read is cached in skilldeck's data folder, so later ones read
only the logs that changed. --no-usage reads none of it.

Examples:
  skilldeck list --agent claude-code --source user
  skilldeck list --name 'pdf*' --name 'docx' --json
  skilldeck list --source plugin --all-agents
  skilldeck list --unused 30";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Print JSON (the shape in docs/json.md) instead of a table
    #[arg(long)]
    json: bool,
    /// With --json, give each skill what `skilldeck audit` finds in it (`audit`: how many
    /// findings, the most severe); it reads every file of every skill, so it is asked for
    #[arg(long, requires = "json")]
    audit: bool,
    #[command(flatten)]
    agents: AllAgents,
    /// Only the skills this agent loads (an agent's id, as `claude-code` or `codex`)
    #[arg(long = "agent", value_name = "ID", value_parser = agent_id)]
    agent_filter: Vec<AgentId>,
    /// Only the skills of this source: plugin, organization, user, project, builtin or unknown
    #[arg(long = "source", value_name = "SOURCE", value_parser = source)]
    source_filter: Vec<Source>,
    /// Only the skills whose name matches this glob (`*`, `?`, `[abc]`, `{a,b}`)
    #[arg(long = "name", value_name = "GLOB", value_parser = name_glob)]
    name_filter: Vec<GlobMatcher>,
    /// Only the skills no agent used in the last DAYS days, never-used ones included (built-in
    /// skills are left out); the table shows when each was last used
    #[arg(long, value_name = "DAYS", conflicts_with = "no_usage")]
    unused: Option<u64>,
    /// Read no usage: no counters, no session logs (--json gives empty `usage`)
    #[arg(long)]
    no_usage: bool,
}

/// A `--source` that is none of the sources.
#[derive(Debug, thiserror::Error)]
#[error("no source {name:?}; the sources are {}", Source::ALL.map(|s| s.as_str()).join(", "))]
struct UnknownSource {
    name: String,
}

/// `--source`: one of the sources, by the name the listing shows.
fn source(name: &str) -> Result<Source, UnknownSource> {
    Source::ALL
        .into_iter()
        .find(|source| source.as_str() == name)
        .ok_or_else(|| UnknownSource {
            name: name.to_owned(),
        })
}

/// `--name`: a glob over the whole name.
fn name_glob(pattern: &str) -> Result<GlobMatcher, globset::Error> {
    Glob::new(pattern).map(|glob| glob.compile_matcher())
}

impl Args {
    fn filtered(&self) -> bool {
        !(self.agent_filter.is_empty()
            && self.source_filter.is_empty()
            && self.name_filter.is_empty()
            && self.unused.is_none())
    }

    /// The uses the listing needs: for `--json` and `--unused`, unless `--no-usage`.
    fn usage(&self, machine: &Machine) -> Option<Usage> {
        let needed = (self.json || self.unused.is_some()) && !self.no_usage;
        needed.then(|| {
            let cache = usage::cache_dir(&machine.env);
            usage::read(&machine.env, &crate::limits::USAGE, Some(&cache))
        })
    }

    /// `--unused DAYS`: the time before which a last use counts as none.
    fn unused_since(&self, now: SystemTime) -> Option<SystemTime> {
        let days = self.unused?;
        let ago = Duration::from_secs(days.saturating_mul(86_400));
        Some(now.checked_sub(ago).unwrap_or(SystemTime::UNIX_EPOCH))
    }

    fn name_matches(&self, name: &str, plugin: Option<&str>) -> bool {
        let bare = plugin
            .and_then(|plugin| name.strip_prefix(plugin))
            .and_then(|rest| rest.strip_prefix(':'));
        self.name_filter.is_empty()
            || self
                .name_filter
                .iter()
                .any(|glob| glob.is_match(name) || bare.is_some_and(|bare| glob.is_match(bare)))
    }

    fn keeps(&self, skill: &Skill) -> bool {
        (self.agent_filter.is_empty() || self.agent_filter.iter().any(|a| skill.agents.contains(a)))
            && (self.source_filter.is_empty() || self.source_filter.contains(&skill.source))
            && self.name_matches(&skill.name, skill.plugin.as_deref())
    }

    fn keeps_builtin(&self, builtin: &Builtin) -> bool {
        (self.agent_filter.is_empty() || self.agent_filter.contains(&builtin.agent))
            && (self.source_filter.is_empty() || self.source_filter.contains(&Source::Builtin))
            && self.name_matches(builtin.name, None)
    }
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let inventory = super::scan(machine);
    let usage = args.usage(machine);
    let since = args.unused_since(SystemTime::now());
    let unused = |skill: &Skill| match (since, &usage) {
        (Some(since), Some(usage)) => usage.unused_since(skill, since),
        _ => true,
    };
    let skills: Vec<&Skill> = inventory
        .skills
        .iter()
        .filter(|s| args.keeps(s) && unused(s))
        .collect();
    let builtins: Vec<&Builtin> = inventory
        .builtins
        .iter()
        .filter(|b| args.keeps_builtin(b) && since.is_none())
        .collect();
    // An agent asked for by name is shown in AGENTS, installed here or not.
    let mut agents = inventory.installed.clone();
    agents.extend(
        args.agent_filter
            .iter()
            .filter(|agent| !inventory.installed.contains(agent)),
    );
    let shown = Shown::new(&agents, &args.agents);
    // With --agent, only the agents named judge a skill shadowed or left out: another agent's
    // verdict is not what was asked about.
    let judged = if args.agent_filter.is_empty() {
        shown
    } else {
        Shown {
            installed: &args.agent_filter,
            all: false,
        }
    };
    if args.json {
        // What `audit` finds in each, when asked: it reads every file of every skill, which
        // the listing alone does not (issue 33; issue 35 keeps `list --json` near the floor).
        let audits = if args.audit {
            let requests: Vec<crate::audit::Request> = skills
                .iter()
                .map(|skill| crate::audit::Request {
                    skill: skill.name.clone(),
                    dir: skill.dir.clone(),
                })
                .collect();
            crate::audit::summaries(&requests)
        } else {
            Vec::new()
        };
        let locks = match lock_states(machine, &inventory) {
            Ok(locks) => locks,
            Err(error) => {
                super::eprint(&format!(
                    "skilldeck: {error}; the project skills' lock states are left out\n"
                ))?;
                None
            }
        };
        let mut list = ListJson::new(&inventory, &skills, &builtins, shown, usage.as_ref())
            .with_audits(&audits);
        list.agents = AgentsJson::new(Shown::new(&inventory.installed, &args.agents));
        list.skills.locks = locks.as_ref();
        json::print(&list)?;
    } else {
        let listing = Listing {
            inventory: &inventory,
            skills: &skills,
            builtins: &builtins,
            filtered: args.filtered(),
            last_used: usage.as_ref().filter(|_| since.is_some()),
        };
        super::print(&render(&listing, shown, judged, machine.env.home()))?;
    }
    Ok(
        if args.filtered() && skills.is_empty() && builtins.is_empty() {
            Outcome::Negative
        } else {
            Outcome::Done
        },
    )
}

/// What one listing shows: the skills and built-in skills its filters keep.
struct Listing<'a> {
    inventory: &'a Inventory,
    skills: &'a [&'a Skill],
    builtins: &'a [&'a Builtin],
    filtered: bool,
    /// With `--unused`: the uses, for a LAST USED column.
    last_used: Option<&'a Usage>,
}

/// The listing as text: `shown` are the agents the AGENTS column names, `judged` those whose
/// shadowing and leaving out are told (the `--agent` ones when given).
fn render(
    listing: &Listing<'_>,
    shown: Shown<'_>,
    judged: Shown<'_>,
    home: &std::path::Path,
) -> String {
    let inventory = listing.inventory;
    // Every path of the table and of the lines below it, said the one way.
    let path = |path: &std::path::Path| human::path(path, home, Unsafe::Escaped);
    if listing.skills.is_empty() {
        if listing.filtered {
            let mut out = format!(
                "No skill matches these filters (of {} found).\n",
                inventory.skills.len()
            );
            out.push_str(&builtins_line(listing.builtins, shown));
            return out;
        }
        let searched = inventory.roots.len();
        return format!(
            "No skills found in the {} searched (`skilldeck list --json` shows them).\n",
            human::count(searched, "root")
        );
    }
    let rows: Vec<Vec<String>> = listing
        .skills
        .iter()
        .map(|skill| {
            let shadowed = if shadowings(skill, judged).next().is_some() {
                " (shadowed)"
            } else {
                ""
            };
            let mut row = vec![
                format!("{}{shadowed}", skill.name),
                skill.source.to_string(),
                skill.state.to_string(),
                skill
                    .owner
                    .as_ref()
                    .map_or_else(|| "-".to_owned(), |o| o.installer.to_string()),
                shown.cell(&skill.agents),
            ];
            if let Some(usage) = listing.last_used {
                row.push(last_used_cell(usage, skill));
            }
            row.push(path(&skill.dir));
            row
        })
        .collect();
    let mut headers = vec!["NAME", "SOURCE", "STATE", "INSTALLER", "AGENTS"];
    if listing.last_used.is_some() {
        headers.push("LAST USED");
    }
    headers.push("DIR");
    let mut out = table(&headers, &rows);
    let shared = SharedNotes::of(listing.skills, judged);
    let own_left_out = |s| own_left_out(s, judged, &shared);
    let details: Vec<&Skill> = listing
        .skills
        .iter()
        .copied()
        .filter(|s| {
            !s.problems.is_empty()
                || shadowings(s, judged).next().is_some()
                || !own_left_out(s).is_empty()
                || s.unsettled_for.iter().any(|&agent| judged.keeps(agent))
                || note(s).is_some()
        })
        .collect();
    if !details.is_empty() {
        out.push('\n');
    }
    for skill in details {
        let _ = writeln!(out, "{} ({}):", skill.name, path(&skill.dir));
        for shadowing in shadowings(skill, judged) {
            let by = path(&shadowing.winner);
            let _ = writeln!(out, "  shadowed for {} by {by}", shadowing.agent);
        }
        for left in own_left_out(skill) {
            let _ = writeln!(out, "  {} {}: {}", how(left.effect), left.agent, left.why);
        }
        if !skill.unsettled_for.is_empty() {
            let agents: Vec<&str> = skill
                .unsettled_for
                .iter()
                .filter(|&&agent| judged.keeps(agent))
                .map(|agent| agent.id())
                .collect();
            if !agents.is_empty() {
                let _ = writeln!(
                    out,
                    "  {} loads one copy of this name, not always the same",
                    agents.join(", ")
                );
            }
        }
        if let Some(note) = note(skill) {
            let _ = writeln!(out, "  {}: {note}", skill.state);
        }
        for problem in &skill.problems {
            let _ = writeln!(out, "  ! {problem}");
        }
    }
    if !shared.0.is_empty() {
        out.push('\n');
    }
    for note in &shared.0 {
        let _ = writeln!(
            out,
            "{} {}, {} ({}): {}",
            capitalised(how(note.effect)),
            note.agent,
            human::count(note.skills.len(), "skill"),
            names_cut(&note.skills),
            note.why
        );
    }
    if !inventory.problems.is_empty() {
        out.push('\n');
    }
    for problem in &inventory.problems {
        let _ = writeln!(out, "! {problem}");
    }
    out.push('\n');
    out.push_str(&summary(listing, shown, judged));
    out
}

/// The day a skill was last used by any agent (UTC), or `never`.
fn last_used_cell(usage: &Usage, skill: &Skill) -> String {
    usage.last_used(skill).map_or_else(
        || "never".to_owned(),
        |at| json::time(at).chars().take(10).collect(),
    )
}

/// What a modified or unverifiable skill's record says about its state.
fn note(skill: &Skill) -> Option<&str> {
    let owner = skill.owner.as_ref()?;
    matches!(skill.state, State::Modified | State::Unverifiable)
        .then_some(owner.note.as_deref())
        .flatten()
}

/// How a left-out note begins: what the agent does with the skill.
fn how(effect: Effect) -> &'static str {
    match effect {
        Effect::Dropped => "not loaded by",
        Effect::FromModel => "kept from the model by",
        Effect::Disabled => "turned off for",
        Effect::BreaksListing => "may stop every skill loading for",
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// How many names a shared note spells out before it counts the rest.
const NAMES_IN_A_NOTE: usize = 5;

/// The first names, then how many more: `a, b, c, d, e and 25 more`.
fn names_cut(names: &[&str]) -> String {
    let shown = names[..names.len().min(NAMES_IN_A_NOTE)].join(", ");
    match names.len().saturating_sub(NAMES_IN_A_NOTE) {
        0 => shown,
        rest => format!("{shown} and {rest} more"),
    }
}

/// A left-out note several skills of the listing share (an agent that does not trust the
/// folder leaves out every skill of its workspace, for one reason): said once, with the skills
/// it is about, rather than under each skill.
struct SharedNote<'a> {
    agent: AgentId,
    effect: Effect,
    why: &'static str,
    skills: Vec<&'a str>,
}

struct SharedNotes<'a>(Vec<SharedNote<'a>>);

impl<'a> SharedNotes<'a> {
    /// The notes more than one of `skills` carries for the agents `judged`, in first order.
    fn of(skills: &[&'a Skill], judged: Shown<'_>) -> Self {
        let mut notes: Vec<SharedNote<'a>> = Vec::new();
        for skill in skills {
            for left in left_out(skill, judged) {
                let same = |n: &&mut SharedNote<'a>| {
                    n.agent == left.agent && n.effect == left.effect && n.why == left.why
                };
                match notes.iter_mut().find(same) {
                    Some(note) => note.skills.push(&skill.name),
                    None => notes.push(SharedNote {
                        agent: left.agent,
                        effect: left.effect,
                        why: left.why,
                        skills: vec![&skill.name],
                    }),
                }
            }
        }
        notes.retain(|n| n.skills.len() > 1);
        Self(notes)
    }

    fn holds(&self, left: &LeftOut) -> bool {
        self.0
            .iter()
            .any(|n| n.agent == left.agent && n.effect == left.effect && n.why == left.why)
    }
}

/// The notes of `skill`'s own: those no other skill of the listing shares.
fn own_left_out<'s>(
    skill: &'s Skill,
    judged: Shown<'s>,
    shared: &SharedNotes<'_>,
) -> Vec<&'s LeftOut> {
    left_out(skill, judged)
        .filter(|left| !shared.holds(left))
        .collect()
}

/// The agents shown that read the skill's folder and leave it out.
fn left_out<'s>(skill: &'s Skill, shown: Shown<'s>) -> impl Iterator<Item = &'s LeftOut> {
    skill
        .left_out
        .iter()
        .filter(move |left| shown.keeps(left.agent))
}

/// The agents shown that run another copy of the skill's name: a copy that wins only for an
/// agent this machine does not have changes nothing here.
fn shadowings<'s>(
    skill: &'s Skill,
    shown: Shown<'s>,
) -> impl Iterator<Item = &'s crate::scan::Shadowing> {
    skill
        .shadowed_by
        .iter()
        .filter(move |s| shown.keeps(s.agent))
}

fn summary(listing: &Listing<'_>, shown: Shown<'_>, judged: Shown<'_>) -> String {
    let skills = listing.skills;
    let count = |state: State| skills.iter().filter(|s| s.state == state).count();
    let states: Vec<String> = State::ALL
        .into_iter()
        .map(|state| (state, count(state)))
        .filter(|(_, n)| *n > 0)
        .map(|(state, n)| format!("{n} {state}"))
        .collect();
    let roots = if listing.filtered {
        let mut roots: Vec<usize> = skills
            .iter()
            .flat_map(|s| s.roots.iter().copied())
            .collect();
        roots.sort_unstable();
        roots.dedup();
        roots.len()
    } else {
        listing
            .inventory
            .roots
            .iter()
            .filter(|r| r.skills > 0)
            .count()
    };
    let shadowed = skills
        .iter()
        .filter(|s| shadowings(s, judged).next().is_some())
        .count();
    let with_problems = skills.iter().filter(|s| !s.problems.is_empty()).count();
    let of = if listing.filtered {
        format!(" (of {})", listing.inventory.skills.len())
    } else {
        String::new()
    };
    format!(
        "{}{of} in {}: {}; {shadowed} shadowed; {with_problems} with problems\n{}\n{}",
        human::count(skills.len(), "skill"),
        human::count(roots, "root"),
        states.join(", "),
        agents_line(listing.inventory, shown),
        builtins_line(listing.builtins, shown)
    )
}

/// How many skills each agent shown ships inside itself, which cost its context too.
fn builtins_line(builtins: &[&Builtin], shown: Shown<'_>) -> String {
    let mut counts: Vec<(AgentId, usize)> = Vec::new();
    for builtin in builtins.iter().filter(|b| shown.keeps(b.agent)) {
        match counts.iter_mut().find(|(agent, _)| *agent == builtin.agent) {
            Some((_, count)) => *count += 1,
            None => counts.push((builtin.agent, 1)),
        }
    }
    if counts.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|(agent, count)| format!("{agent} {count}"))
        .collect();
    format!(
        "Built into the agents, in no folder: {} (list --json names them).\n",
        parts.join(", ")
    )
}

/// Which agents the AGENTS column names, and how to see the others.
fn agents_line(inventory: &Inventory, shown: Shown<'_>) -> String {
    if shown.all {
        return "Agents: every agent that reads each skill.".to_owned();
    }
    let ids: Vec<&str> = inventory.installed.iter().map(|a| a.id()).collect();
    let installed = if ids.is_empty() {
        "none found".to_owned()
    } else {
        ids.join(", ")
    };
    format!("Agents installed here: {installed} (--all-agents shows every agent).")
}
