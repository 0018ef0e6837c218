//! Claude Code's listing ("The following skills are available …", one `- NAME: DESCRIPTION`
//! line per skill), by the rules in `agent-controls-and-budgets.md`: a budget in characters of
//! the context window × 4 × `skillListingBudgetFraction` (0.01), or
//! `SLASH_COMMAND_TOOL_CHAR_BUDGET` when set; each entry's description (with `when_to_use`)
//! capped at `skillListingMaxDescChars`, 1,536 characters; over budget, every name is kept and
//! whole descriptions are dropped, the least-used skills' first.

use crate::roots::{AgentId, Environment};
use crate::skill::{self, Frontmatter};

use super::{Assume, Budget, Item, Listing, Shown, Unit, grouped};

/// Claude Code's default model's context window.
const DEFAULT_CONTEXT: u64 = 200_000;
const FRACTION_PERCENT: u64 = 1;
const MAX_DESCRIPTION: usize = 1_536;
const BUDGET_VAR: &str = "SLASH_COMMAND_TOOL_CHAR_BUDGET";

/// Without usage counts skilldeck cannot know which skills are least used.
const ORDER: &str = "with no usage counts, descriptions are dropped from the last skill of the \
listing (by name) backwards";

pub(super) fn listing(items: Vec<Item<'_>>, env: &Environment, assume: Assume) -> Listing {
    let context = assume.context_tokens.unwrap_or(DEFAULT_CONTEXT);
    let model = match assume.context_tokens {
        Some(_) => "as given by --context".to_owned(),
        None => "default model".to_owned(),
    };
    let fixed = env
        .var(BUDGET_VAR)
        .and_then(|v| v.to_str())
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0);
    let (limit, from) = match fixed {
        Some(n) => (n, format!("{BUDGET_VAR}={n}")),
        None => (
            usize::try_from(context * 4 * FRACTION_PERCENT / 100).unwrap_or(usize::MAX),
            format!(
                "1% of a {}-token context window, × 4 characters",
                grouped(context)
            ),
        ),
    };
    let mut items = items;
    items.sort_by(|a, b| a.name.cmp(&b.name));
    let descriptions: Vec<String> = items.iter().map(description).collect();
    let full = |i: usize| line(&items[i].name, &descriptions[i]);
    let bare = |i: usize| line(&items[i].name, "");
    let mut named_only = vec![false; items.len()];
    let mut used: usize = (0..items.len()).map(full).sum();
    for i in (0..items.len()).rev() {
        if used <= limit {
            break;
        }
        if !descriptions[i].is_empty() {
            used = used - full(i) + bare(i);
            named_only[i] = true;
        }
    }
    let entries = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let whole = descriptions[i].chars().count();
            if named_only[i] {
                item.entry(Shown::NameOnly, bare(i), 0)
            } else {
                let shown = if whole < whole_description(item).chars().count() {
                    Shown::Shortened
                } else {
                    Shown::Full
                };
                let mut entry = item.entry(shown, full(i), whole);
                entry.description_chars = whole_description(item).chars().count();
                entry
            }
        })
        .collect::<Vec<_>>();
    Listing {
        agent: AgentId::CLAUDE_CODE,
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
        assumptions: vec![ORDER.to_owned()],
    }
}

/// The characters of `- NAME: DESCRIPTION` with its newline (`- NAME` without one).
fn line(name: &str, description: &str) -> usize {
    let name = name.chars().count();
    if description.is_empty() {
        2 + name + 1
    } else {
        2 + name + 2 + description.chars().count() + 1
    }
}

/// The description and `when_to_use` together, as Claude Code joins them.
fn whole_description(item: &Item<'_>) -> String {
    match when_to_use(item) {
        Some(when) if !item.description.is_empty() => format!("{} - {when}", item.description),
        Some(when) => when,
        None => item.description.clone(),
    }
}

/// The shown description: the whole one cut at the cap.
fn description(item: &Item<'_>) -> String {
    whole_description(item)
        .chars()
        .take(MAX_DESCRIPTION)
        .collect()
}

/// The frontmatter's `when_to_use`, read from the skill's `SKILL.md`.
fn when_to_use(item: &Item<'_>) -> Option<String> {
    let dir = &item.skill?.dir;
    let bytes = skill::read_manifest(dir).ok()?;
    let text = skill::manifest_text(&bytes).ok()?;
    Frontmatter::parse(text)
        .ok()?
        .text("when_to_use")
        .map(str::to_owned)
}
