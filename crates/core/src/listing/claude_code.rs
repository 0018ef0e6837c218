//! Claude Code's listing ("The following skills are available for use with the Skill tool:",
//! one `- NAME: DESCRIPTION` entry per skill, `- NAME` once its description is dropped), by
//! the rules of `agent-controls-and-budgets.md` as Claude Code 2.1.332 applies them (checked by
//! `tests/it/agree/listing_claude_code.rs` against the request it sends):
//! - the budget is the context window × 4 × `skillListingBudgetFraction` (0.01) characters, or
//!   `SLASH_COMMAND_TOOL_CHAR_BUDGET` when set — in the environment or in the user settings'
//!   `env`, both of which it applies; `skillListingBudgetFraction` is read from the user
//!   settings too;
//! - what counts is the whole listing: every entry and the newlines between them, its own
//!   built-in skills' entries included;
//! - each description (with `when_to_use` after ` - `) is capped at 1,536 units, past which it
//!   is cut to 1,535 and an ellipsis (`skillListingMaxDescChars` in the user settings sets
//!   another cap); lengths are JavaScript's, in UTF-16 units (an emoji is 2);
//! - the listing's order is Claude Code's: each root in turn (managed, user, project nearest
//!   first, then plugins in the order of the merged `enabledPlugins`' keys), each root's or
//!   plugin's skills by JavaScript's `localeCompare` (ICU root collation), its built-ins last;
//! - an entry names the skill `NAME (FRONTMATTER-NAME)` when its frontmatter names it
//!   otherwise (`rBn`), and that longer name counts;
//! - a skill `skillOverrides` sets `name-only` is `- NAME` at a fixed cost, like a built-in;
//! - over budget, every skill keeps its name and the skills on disk are ranked by Claude
//!   Code's own usage counters (`usage::counters::score`: uses halved for each week since), the most
//!   used first and, among equals, in listing order (its sort is stable; in a home with no
//!   counters a description that does not fit is dropped while a later, shorter one that does
//!   is kept); each keeps its whole description when it still fits, else is listed by name
//!   alone; built-in skills keep theirs. Read from 2.1.332's own code (`q3n`: `skillUsage`,
//!   `usageCount × max(0.5^(days/7), 0.1)`) and checked by the same tests, with generated
//!   sets of 5, 31 and 150 skills at, one under and well under their boundary.

use std::collections::{HashMap, HashSet};
use std::time::SystemTime;

use feruca::{Collator, Locale, Tailoring};

use crate::roots::switch_files::claude_code::Override;
use crate::roots::{AgentId, Environment, Priority, Project, switch_files};
use crate::usage::{Use, counters};

use super::{Assume, Budget, Item, Listing, Shown, Unit, grouped};

/// The context window that gives Claude Code 2.1.332's default budget with its default model
/// (claude-opus-5-5): measured between 29,369 and 30,871 characters, so 30,000 is taken,
/// which is 750,000 tokens × 4 × 1 %.
const DEFAULT_CONTEXT: u64 = 750_000;
const DEFAULT_MODEL: &str = "claude-opus-5-5";
/// `skillListingMaxDescChars`'s default.
const MAX_DESCRIPTION: usize = 1_536;
pub(super) const BUDGET_VAR: &str = "SLASH_COMMAND_TOOL_CHAR_BUDGET";
const DEFAULT_FRACTION: f64 = 0.01;

/// The entries of Claude Code 2.1.332's built-in skills, in its order, with the characters
/// each took in the request it sent (their descriptions are inside the program, not on disk).
/// In a brand-new home `init` and `security-review` were sent once by name alone (6 and 17
/// characters), later always with their descriptions; the later form is taken.
const BUILTIN_CHARS: &[(&str, usize)] = &[
    ("dataviz", 1447),
    ("update-config", 707),
    ("keybindings-help", 248),
    ("code-review", 850),
    ("simplify", 188),
    ("fewer-permission-prompts", 191),
    ("loop", 344),
    ("claude-api", 1171),
    ("workflow-authoring", 252),
    ("run", 368),
    ("plugin-authoring", 275),
    ("init", 67),
    ("security-review", 90),
];

pub(super) fn listing(
    agent: AgentId,
    items: Vec<Item<'_>>,
    env: &Environment,
    project: &Project,
    assume: Assume,
) -> Listing {
    let context = assume.context_tokens.unwrap_or(DEFAULT_CONTEXT);
    let model = match assume.context_tokens {
        Some(_) => "as given by --context".to_owned(),
        None => format!("default model {DEFAULT_MODEL}"),
    };
    let settings = user_settings(env, project);
    let fixed = env
        .var(BUDGET_VAR)
        .and_then(|v| v.to_str())
        .map(str::to_owned)
        .or_else(|| settings_text(settings.as_ref(), &["env", BUDGET_VAR]))
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0);
    let fraction = settings
        .as_ref()
        .and_then(|s| s.get("skillListingBudgetFraction"))
        .and_then(serde_json::Value::as_f64)
        .filter(|f| *f > 0.0)
        .unwrap_or(DEFAULT_FRACTION);
    let (limit, from) = match fixed {
        Some(n) => (n, format!("{BUDGET_VAR}={n}")),
        None => (
            (context as f64 * 4.0 * fraction) as usize,
            format!(
                "{}% of a {}-token context window, × 4 characters",
                fraction * 100.0,
                grouped(context)
            ),
        ),
    };
    let (mut items, builtins): (Vec<Item<'_>>, Vec<Item<'_>>) =
        items.into_iter().partition(|item| item.skill.is_some());
    // Claude Code's order: its roots in turn (managed, user, project nearest first, then
    // plugins), each folder's skills by `localeCompare` (the loader's `.sort((z,Y)=>
    // z.skill.name.localeCompare(Y.skill.name))`, ICU's root collation: `_` before `-`
    // before `.` before digits before letters, case after accents).
    let mut collator = Collator::new(Tailoring::Cldr(Locale::Root), false, true);
    items.sort_by(|a, b| {
        place(agent, a)
            .cmp(&place(agent, b))
            .then_with(|| collator.collate(a.name.as_str(), b.name.as_str()))
    });
    let name_only: HashSet<String> = switch_files::claude_code::overrides(env, project)
        .into_iter()
        .filter(|(_, value)| *value == Override::NameOnly)
        .map(|(name, _)| name)
        .collect();
    let fixed: Vec<bool> = items
        .iter()
        .map(|item| name_only.contains(&item.name))
        .collect();
    let shown_names = shown_names(&items);
    let mut builtins = builtins;
    builtins.sort_by_key(|b| {
        BUILTIN_CHARS
            .iter()
            .position(|(name, _)| *name == b.name)
            .unwrap_or(usize::MAX)
    });
    let cap = settings
        .as_ref()
        .and_then(|s| s.get("skillListingMaxDescChars"))
        .and_then(serde_json::Value::as_u64)
        .filter(|n| *n > 0)
        .map_or(MAX_DESCRIPTION, |n| n as usize);
    let descriptions: Vec<String> = items.iter().map(|item| description(item, cap)).collect();
    // A skill set `name-only` is `- NAME` whatever fits; the others show their display name.
    let full = |i: usize| {
        if fixed[i] {
            line(&items[i].name, "")
        } else {
            line(&shown_names[i], &descriptions[i])
        }
    };
    let bare = |i: usize| {
        if fixed[i] {
            line(&items[i].name, "")
        } else {
            line(&shown_names[i], "")
        }
    };
    let builtin_chars: Vec<usize> = builtins
        .iter()
        .map(|b| builtin_line(&b.name, cap))
        .collect();
    let count = items.len() + builtins.len();
    // Every entry by name, then each description that still fits, the most used first; a
    // stable sort, so skills never used keep the listing's order.
    let mut used: usize = (0..items.len()).map(bare).sum::<usize>()
        + builtin_chars.iter().sum::<usize>()
        + count.saturating_sub(1);
    let now = assume.now.unwrap_or_else(SystemTime::now);
    // A lookup by name: a machine may have thousands of skills and as many counters.
    let counters: HashMap<String, Use> = counters::claude_code(env).into_iter().collect();
    let scores: Vec<f64> = items
        .iter()
        .map(|item| {
            counters
                .get(&item.name)
                .map_or(0.0, |uses| counters::score(*uses, now))
        })
        .collect();
    let mut ranked: Vec<usize> = (0..items.len()).filter(|i| !fixed[*i]).collect();
    ranked.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]));
    let mut named_only = vec![true; items.len()];
    for i in ranked {
        let with = used - bare(i) + full(i);
        if with <= limit {
            used = with;
            named_only[i] = false;
        }
    }
    let mut entries: Vec<_> = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let whole = length(&whole_description(item));
            // A `name-only` skill is never ranked, so stays named only.
            let mut entry = if named_only[i] {
                item.entry(Shown::NameOnly, bare(i), 0)
            } else {
                let shown = length(&descriptions[i]);
                let listed = if shown < whole {
                    Shown::Shortened
                } else {
                    Shown::Full
                };
                item.entry(listed, full(i), shown)
            };
            entry.description_chars = whole;
            entry
        })
        .collect();
    entries.extend(builtins.iter().zip(&builtin_chars).map(|(b, &chars)| {
        // Its description's length is known from the measured entry, not its text.
        let description = chars.saturating_sub(line(&b.name, "x") - 1);
        let mut entry = b.entry(Shown::Full, chars, description);
        entry.description_chars = description;
        entry
    }));
    Listing {
        agent,
        model: format!("{model}, {} tokens", grouped(context)),
        context_tokens: context,
        budget: Some(Budget {
            limit,
            unit: Unit::Characters,
            from,
        }),
        chars: used,
        used,
        entries,
        assumptions: Vec::new(),
    }
}

/// Where the skill's root comes in Claude Code's order: plugins after every folder of skills,
/// in the order of `enabledPlugins`' keys; the others by the table's rank and distance
/// (managed, user, project nearest first).
fn place(agent: AgentId, item: &Item<'_>) -> (bool, usize, Option<Priority>) {
    let Some(skill) = item.skill else {
        return (true, 0, None);
    };
    let claim = skill
        .claims
        .iter()
        .filter(|claim| claim.agent == agent)
        .min_by_key(|claim| claim.priority);
    match claim {
        Some(claim) if skill.plugin.is_some() && !claim.plain => {
            (true, skill.plugin_order(), Some(claim.priority))
        }
        Some(claim) => (false, 0, Some(claim.priority)),
        None => (false, 0, None),
    }
}

/// Each skill's name as its entry shows it: `NAME (FRONTMATTER-NAME)` when its frontmatter
/// names it otherwise (`PLUGIN:NAME (PLUGIN:FRONTMATTER-NAME)` for a plugin's), that name is
/// made of letters, marks, digits, `_`, `:`, `.` and `-` (at most 256), and it leads back to
/// this skill: no other skill is called so and no earlier one has it (2.1.332's `rBn`:
/// `${e.name} (${o})` unless `!DSt(o) || $s(o,n)?.name!==e.name`).
fn shown_names(items: &[Item<'_>]) -> Vec<String> {
    // Sets, not lists searched once per skill: the live app works this out on every rescan,
    // and a list search made it quadratic in the skills (seconds at 10,000).
    let names: HashSet<&str> = items.iter().map(|item| item.name.as_str()).collect();
    let mut claimed: HashSet<String> = HashSet::new();
    items
        .iter()
        .map(|item| {
            let Some(declared) = item.skill.and_then(|s| s.declared.name.as_deref()) else {
                return item.name.clone();
            };
            let shown = match item.name.split_once(':') {
                Some((plugin, _)) if item.skill.is_some_and(|s| s.plugin.is_some()) => {
                    format!("{plugin}:{declared}")
                }
                _ => declared.to_owned(),
            };
            let valid = length(&shown) <= 256
                && !shown.is_empty()
                && shown
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'));
            let unique = !names.contains(shown.as_str());
            let first = claimed.insert(shown.clone());
            if shown == item.name
                || item.name.ends_with(&format!(":{shown}"))
                || !valid
                || !unique
                || !first
            {
                item.name.clone()
            } else {
                format!("{} ({shown})", item.name)
            }
        })
        .collect()
}

/// The user settings, where Claude Code keeps them, when they parse.
fn user_settings(env: &Environment, project: &Project) -> Option<serde_json::Value> {
    let file = switch_files::claude_code::user_file(env, project)?;
    let text = std::fs::read_to_string(file).ok()?;
    serde_json::from_str(&text).ok()
}

fn settings_text(settings: Option<&serde_json::Value>, path: &[&str]) -> Option<String> {
    let mut value = settings?;
    for key in path {
        value = value.get(key)?;
    }
    match value {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The characters of a built-in's entry as 2.1.332 sent it, its description held to `cap`
/// as every other; by its name alone when unknown.
fn builtin_line(name: &str, cap: usize) -> usize {
    let Some((_, chars)) = BUILTIN_CHARS.iter().find(|(known, _)| *known == name) else {
        return line(name, "");
    };
    let head = line(name, "x") - 1;
    let description = chars.saturating_sub(head);
    if description > cap {
        head + cap
    } else {
        *chars
    }
}

/// The characters of `- NAME: DESCRIPTION` (`- NAME` without one).
fn line(name: &str, description: &str) -> usize {
    let name = length(name);
    if description.is_empty() {
        2 + name
    } else {
        2 + name + 2 + length(description)
    }
}

/// A length as Claude Code measures it, in JavaScript's UTF-16 units: a character outside the
/// Basic Multilingual Plane (most emoji) counts twice.
fn length(text: &str) -> usize {
    text.encode_utf16().count()
}

/// The description and `when_to_use` together, as Claude Code joins them.
fn whole_description(item: &Item<'_>) -> String {
    match when_to_use(item) {
        Some(when) if !item.description.is_empty() => format!("{} - {when}", item.description),
        Some(when) => when,
        None => item.description.clone(),
    }
}

/// The shown description: the whole one, or past the cap its first units and an ellipsis
/// making up the cap.
fn description(item: &Item<'_>, cap: usize) -> String {
    let whole = whole_description(item);
    if length(&whole) <= cap {
        return whole;
    }
    let mut cut = String::new();
    let mut units = 0;
    for c in whole.chars() {
        units += c.len_utf16();
        if units > cap - 1 {
            break;
        }
        cut.push(c);
    }
    cut.push('\u{2026}');
    cut
}

/// The frontmatter's `when_to_use`, as the scan read it.
fn when_to_use(item: &Item<'_>) -> Option<String> {
    item.skill?.declared.when_to_use.clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_budget_variable_wins_over_the_context_window() {
        let env = Environment::new("/nonexistent").with_var(BUDGET_VAR, "40");
        let listing = listing(
            AgentId::CLAUDE_CODE,
            Vec::new(),
            &env,
            &Project::locate(Path::new("/nonexistent")),
            Assume::default(),
        );
        assert_eq!(listing.budget.unwrap().limit, 40);
        let listing = listing_without_var(Some(100_000));
        assert_eq!(listing.budget.unwrap().limit, 4_000);
    }

    fn listing_without_var(context: Option<u64>) -> Listing {
        listing(
            AgentId::CLAUDE_CODE,
            Vec::new(),
            &Environment::new("/nonexistent"),
            &Project::locate(Path::new("/nonexistent")),
            Assume {
                context_tokens: context,
                now: None,
            },
        )
    }

    #[test]
    fn a_built_in_is_counted_by_its_measured_entry() {
        assert_eq!(builtin_line("dataviz", MAX_DESCRIPTION), 1447);
        assert_eq!(builtin_line("dataviz", 100), 2 + 7 + 2 + 100);
        assert_eq!(builtin_line("unknown-one", MAX_DESCRIPTION), 2 + 11);
    }
}
