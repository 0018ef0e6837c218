//! The agents that send every skill they load with no budget, each entry an `<skill>` element
//! inside `<available_skills>`, entries joined by newlines (the fixed text around them is not
//! counted):
//! - Gemini CLI 0.61.0 (`renderAgentSkills` in its bundle): `<name>`, `<description>` and
//!   `<location>`; the names are repeated in the `activate_skill` tool's schema, not counted;
//! - OpenCode 1.18.33 (`SystemPrompt.skills`, the `verbose` form): the same three, sorted by
//!   name, once (the skill tool's description no longer repeats the list, as older versions
//!   did, #22236), leaving out a skill without a description.

use crate::roots::AgentId;

use super::{Assume, Item, Listing, Shown};

pub(super) fn gemini_cli(agent: AgentId, items: Vec<Item<'_>>, assume: Assume) -> Listing {
    unbounded(agent, items, assume, false)
}

pub(super) fn opencode(agent: AgentId, items: Vec<Item<'_>>, assume: Assume) -> Listing {
    unbounded(agent, items, assume, true)
}

/// One skill's element and the newline after it.
fn element(item: &Item<'_>) -> String {
    let location = item
        .dir()
        .map(|d| d.join("SKILL.md").to_string_lossy().into_owned())
        .unwrap_or_default();
    format!(
        "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{location}</location>\n  </skill>\n",
        item.name, item.description
    )
}

fn unbounded(
    agent: AgentId,
    mut items: Vec<Item<'_>>,
    assume: Assume,
    needs_description: bool,
) -> Listing {
    items.sort_by(|a, b| a.name.cmp(&b.name));
    let entries: Vec<_> = items
        .iter()
        .map(|item| {
            let whole = item.description.chars().count();
            if needs_description && whole == 0 && item.skill.is_some() {
                item.entry(Shown::Omitted, 0, 0)
            } else {
                item.entry(Shown::Full, element(item).chars().count(), whole)
            }
        })
        .collect();
    let chars = entries.iter().map(|e| e.chars).sum();
    Listing {
        agent,
        model: "no budget: every skill is sent whatever the model".to_owned(),
        context_tokens: assume.context_tokens.unwrap_or(0),
        budget: None,
        chars,
        used: chars,
        entries,
        assumptions: Vec::new(),
    }
}
