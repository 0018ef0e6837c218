//! The agents that send every skill they load with no budget: Gemini CLI (each skill an
//! `<skill>` element with `<name>`, `<description>` and `<location>` inside
//! `<available_skills>`) and OpenCode (`- NAME: DESCRIPTION` lines, sent twice, #22236). The
//! fixed text around the entries is not counted.

use crate::roots::AgentId;

use super::{Assume, Item, Listing, Shown};

pub(super) fn gemini_cli(items: Vec<Item<'_>>, assume: Assume) -> Listing {
    unbounded(AgentId::GEMINI_CLI, items, assume, 1, |item| {
        let location = item
            .dir()
            .map(|d| d.join("SKILL.md").to_string_lossy().into_owned())
            .unwrap_or_default();
        format!(
            "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{location}</location>\n  </skill>\n",
            item.name, item.description
        )
    })
}

pub(super) fn opencode(items: Vec<Item<'_>>, assume: Assume) -> Listing {
    unbounded(AgentId::OPENCODE, items, assume, 2, |item| {
        format!("- {}: {}\n", item.name, item.description)
    })
}

fn unbounded(
    agent: AgentId,
    mut items: Vec<Item<'_>>,
    assume: Assume,
    times: usize,
    render: impl Fn(&Item<'_>) -> String,
) -> Listing {
    items.sort_by(|a, b| a.name.cmp(&b.name));
    let entries: Vec<_> = items
        .iter()
        .map(|item| {
            let whole = item.description.chars().count();
            item.entry(Shown::Full, render(item).chars().count() * times, whole)
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
