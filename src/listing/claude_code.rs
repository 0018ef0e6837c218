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
//! - each description (with `when_to_use` after ` - `) is capped at 1,536 characters;
//! - over budget, the skills on disk (first in the listing, by name) are taken in listing order
//!   and each keeps its whole description when it still fits, else is listed by name alone;
//!   built-in skills keep theirs (found by experiment in homes with no usage counts, where
//!   "least used first" leaves the listing's order: a description that does not fit is
//!   dropped while a later, shorter one that does is kept).

use std::path::PathBuf;

use crate::roots::{AgentId, Environment};
use crate::skill::{self, Frontmatter};

use super::{Assume, Budget, Item, Listing, Shown, Unit, grouped};

/// The context window that gives Claude Code 2.1.332's default budget with its default model
/// (claude-opus-5-5): measured between 29,369 and 30,871 characters, so 30,000 is taken,
/// which is 750,000 tokens × 4 × 1 %.
const DEFAULT_CONTEXT: u64 = 750_000;
const DEFAULT_MODEL: &str = "claude-opus-5-5";
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

pub(super) fn listing(items: Vec<Item<'_>>, env: &Environment, assume: Assume) -> Listing {
    let context = assume.context_tokens.unwrap_or(DEFAULT_CONTEXT);
    let model = match assume.context_tokens {
        Some(_) => "as given by --context".to_owned(),
        None => format!("default model {DEFAULT_MODEL}"),
    };
    let settings = user_settings(env);
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
    items.sort_by(|a, b| a.name.cmp(&b.name));
    let mut builtins = builtins;
    builtins.sort_by_key(|b| {
        BUILTIN_CHARS
            .iter()
            .position(|(name, _)| *name == b.name)
            .unwrap_or(usize::MAX)
    });
    let descriptions: Vec<String> = items.iter().map(description).collect();
    let full = |i: usize| line(&items[i].name, &descriptions[i]);
    let bare = |i: usize| line(&items[i].name, "");
    let builtin_chars: Vec<usize> = builtins.iter().map(|b| builtin_line(&b.name)).collect();
    let count = items.len() + builtins.len();
    // Every entry by name, then each description in listing order that still fits.
    let mut used: usize = (0..items.len()).map(bare).sum::<usize>()
        + builtin_chars.iter().sum::<usize>()
        + count.saturating_sub(1);
    let mut named_only = vec![true; items.len()];
    for (i, dropped) in named_only.iter_mut().enumerate() {
        let with = used - bare(i) + full(i);
        if with <= limit {
            used = with;
            *dropped = false;
        }
    }
    let mut entries: Vec<_> = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let whole = whole_description(item).chars().count();
            let mut entry = if named_only[i] {
                item.entry(Shown::NameOnly, bare(i), 0)
            } else {
                let shown = descriptions[i].chars().count();
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
        assumptions: Vec::new(),
    }
}

/// The user settings, `$CLAUDE_CONFIG_DIR/settings.json` (else `~/.claude/settings.json`), when
/// they parse.
fn user_settings(env: &Environment) -> Option<serde_json::Value> {
    let dir = env
        .var("CLAUDE_CONFIG_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| env.home().join(".claude"));
    let text = std::fs::read_to_string(dir.join("settings.json")).ok()?;
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

/// The characters of a built-in's entry as 2.1.332 sent it; by its name alone when unknown.
fn builtin_line(name: &str) -> usize {
    BUILTIN_CHARS
        .iter()
        .find(|(known, _)| *known == name)
        .map_or_else(|| line(name, ""), |(_, chars)| *chars)
}

/// The characters of `- NAME: DESCRIPTION` (`- NAME` without one).
fn line(name: &str, description: &str) -> usize {
    let name = name.chars().count();
    if description.is_empty() {
        2 + name
    } else {
        2 + name + 2 + description.chars().count()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_variable_wins_over_the_context_window() {
        let env = Environment::new("/nonexistent").with_var(BUDGET_VAR, "40");
        let listing = listing(Vec::new(), &env, Assume::default());
        assert_eq!(listing.budget.unwrap().limit, 40);
        let listing = listing_without_var(Some(100_000));
        assert_eq!(listing.budget.unwrap().limit, 4_000);
    }

    fn listing_without_var(context: Option<u64>) -> Listing {
        listing(
            Vec::new(),
            &Environment::new("/nonexistent"),
            Assume {
                context_tokens: context,
            },
        )
    }

    #[test]
    fn a_built_in_is_counted_by_its_measured_entry() {
        assert_eq!(builtin_line("dataviz"), 1447);
        assert_eq!(builtin_line("unknown-one"), 2 + 11);
    }
}
