//! Codex's listing, as Codex 0.171.0 renders it (checked line for line against
//! `codex debug prompt-input` by `tests/it/agree/listing_codex.rs`). The rules are those of
//! `codex-rs/core-skills/src/render.rs` in openai/codex: a budget of 2 % of the model's context
//! window in approximate tokens (`default_skill_metadata_budget`, bytes / 4 rounded up per
//! line with its newline); skills ordered by scope (system, admin, repo, user) then name; every
//! line in full when the sum fits (`render_skill_lines_from_lines`); else, when the lines
//! without descriptions fit, the room left is dealt out one description character at a time
//! across the skills in that order (`render_lines_with_description_budget`); else lines
//! without descriptions are kept in order while they fit and the rest omitted
//! (`render_minimum_skill_lines_until_budget`). 0.171.0 cuts every description at 1,024
//! characters first, and always writes paths as `rN/REL`
//! against a table of roots, and the table costs nothing against the budget (found by
//! experiment at seven context sizes).

use std::path::{Path, PathBuf};

use crate::roots::{AgentId, Environment, Project, Source};
use crate::scan::Inventory;

use super::{Assume, Budget, Entry, Item, Listing, Shown, Unit, grouped};

/// The context window of Codex 0.171.0's default model, `gpt-6.2-sol` (the first, priority 1,
/// of the model catalog the binary carries: `codex debug models`).
const DEFAULT_CONTEXT: u64 = 500_000;
const DEFAULT_MODEL: &str = "gpt-6.2-sol";
const PERCENT: u64 = 2;
/// Codex 0.171.0 keeps the first 1,024 characters of a description, whatever the budget
/// (found by experiment: every longer description reached the model cut there).
const MAX_DESCRIPTION: usize = 1_024;

pub(super) fn listing(
    agent: AgentId,
    items: Vec<Item<'_>>,
    inventory: &Inventory,
    env: &Environment,
    project: &Project,
    assume: Assume,
) -> Listing {
    let (context, model) = match (assume.context_tokens, configured_window(env, project)) {
        (Some(tokens), _) => (tokens, "as given by --context".to_owned()),
        (None, Some(tokens)) => (tokens, "model_context_window in config.toml".to_owned()),
        (None, None) => (DEFAULT_CONTEXT, format!("default model {DEFAULT_MODEL}")),
    };
    let limit =
        usize::try_from((context.saturating_mul(PERCENT) / 100).max(1)).unwrap_or(usize::MAX);
    let mut items = items;
    items.sort_by(|a, b| {
        rank(a)
            .cmp(&rank(b))
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.dir().cmp(&b.dir()))
    });
    let paths = aliased_paths(&items, inventory);
    let lines: Vec<Line<'_>> = items
        .iter()
        .zip(&paths)
        .map(|(item, path)| Line { item, path })
        .collect();
    let (entries, used) = render(&lines, limit);
    Listing {
        agent,
        model: format!("{model}, {} tokens", grouped(context)),
        context_tokens: context,
        budget: Some(Budget {
            limit,
            unit: Unit::Tokens,
            from: format!("2% of a {}-token context window", grouped(context)),
        }),
        chars: entries.iter().map(|e| e.chars).sum(),
        used,
        entries,
        assumptions: Vec::new(),
    }
}

/// `model_context_window` in `$CODEX_HOME/config.toml` (else `~/.codex/config.toml`).
fn configured_window(env: &Environment, project: &Project) -> Option<u64> {
    let home = crate::roots::homes::codex(env, project);
    let text = std::fs::read_to_string(home.join("config.toml")).ok()?;
    let table: toml::Table = toml::from_str(&text).ok()?;
    table
        .get("model_context_window")?
        .as_integer()
        .and_then(|n| u64::try_from(n).ok())
        .filter(|n| *n > 0)
}

/// Codex's `prompt_scope_rank`: system, admin, repo, user.
fn rank(item: &Item<'_>) -> u8 {
    match item.skill.map(|s| s.source) {
        None | Some(Source::Builtin) => 0,
        Some(Source::Organization) => 1,
        Some(Source::Project) => 2,
        Some(_) => 3,
    }
}

/// Each skill's `rN/REL/SKILL.md`, roots numbered in the order the listing first uses them.
fn aliased_paths(items: &[Item<'_>], inventory: &Inventory) -> Vec<String> {
    let mut roots: Vec<PathBuf> = Vec::new();
    items
        .iter()
        .map(|item| {
            let Some(skill) = item.skill else {
                return String::new();
            };
            let file = skill.dir.join("SKILL.md");
            let root = skill
                .roots
                .iter()
                .filter_map(|&i| inventory.roots.get(i))
                .map(|entry| entry.root.path.as_path())
                .find(|root| file.starts_with(root))
                .or_else(|| skill.dir.parent())
                .unwrap_or(Path::new("/"));
            let index = match roots.iter().position(|r| r == root) {
                Some(index) => index,
                None => {
                    roots.push(root.to_path_buf());
                    roots.len() - 1
                }
            };
            let rel = file.strip_prefix(root).unwrap_or(&file);
            format!("r{index}/{}", rel.to_string_lossy().replace('\\', "/"))
        })
        .collect()
}

struct Line<'a> {
    item: &'a Item<'a>,
    path: &'a str,
}

impl Line<'_> {
    /// The line with the first `chars` characters of the description.
    fn text(&self, chars: usize) -> String {
        let description: String = self
            .item
            .description
            .chars()
            .take(chars.min(MAX_DESCRIPTION))
            .collect();
        if description.is_empty() {
            format!("- {}: (file: {})", self.item.name, self.path)
        } else {
            format!("- {}: {description} (file: {})", self.item.name, self.path)
        }
    }

    /// The characters of the description Codex keeps.
    fn description_chars(&self) -> usize {
        self.item.description.chars().count().min(MAX_DESCRIPTION)
    }
}

/// Codex's approximate tokens of a line with its newline.
fn cost(line: &str) -> usize {
    tokens(line.len() + 1)
}

fn tokens(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

/// The entries and the tokens they use, by Codex's three steps.
fn render(lines: &[Line<'_>], limit: usize) -> (Vec<Entry>, usize) {
    let full: usize = lines.iter().map(|l| cost(&l.text(usize::MAX))).sum();
    if full <= limit {
        let entries = lines
            .iter()
            .map(|l| entry(l, l.description_chars()))
            .collect();
        return (entries, full);
    }
    let minimum: usize = lines.iter().map(|l| cost(&l.text(0))).sum();
    if minimum <= limit {
        let allocation = share_descriptions(lines, limit - minimum);
        let entries: Vec<Entry> = lines
            .iter()
            .zip(allocation)
            .map(|(l, chars)| entry(l, chars))
            .collect();
        let used = lines
            .iter()
            .zip(&entries)
            .map(|(l, e)| cost(&l.text(e.description_shown)))
            .sum();
        return (entries, used);
    }
    let mut used = 0;
    let entries = lines
        .iter()
        .map(|l| {
            let line_cost = cost(&l.text(0));
            if used + line_cost <= limit {
                used += line_cost;
                entry(l, 0)
            } else {
                l.item.entry(Shown::Omitted, 0, 0)
            }
        })
        .collect();
    (entries, used)
}

/// Codex's `render_lines_with_description_budget`: the extra cost of each description prefix
/// is counted from the bare line's bytes plus one (its newline) plus the space and the prefix,
/// and characters are handed out one per skill per round while their extra cost fits.
fn share_descriptions(lines: &[Line<'_>], mut remaining: usize) -> Vec<usize> {
    let extra: Vec<Vec<usize>> = lines
        .iter()
        .map(|l| {
            let bare = l.text(0).len() + 1;
            let base = tokens(bare);
            let mut costs = vec![0];
            let mut prefix = 0;
            for c in l.item.description.chars().take(MAX_DESCRIPTION) {
                prefix += c.len_utf8();
                costs.push(tokens(bare + prefix + 1).saturating_sub(base));
            }
            costs
        })
        .collect();
    let mut given = vec![0usize; lines.len()];
    let mut current = vec![0usize; lines.len()];
    loop {
        let mut changed = false;
        for (i, costs) in extra.iter().enumerate() {
            if given[i] + 1 >= costs.len() {
                continue;
            }
            let next = costs[given[i] + 1];
            let delta = next.saturating_sub(current[i]);
            if delta <= remaining {
                given[i] += 1;
                current[i] = next;
                remaining -= delta;
                changed = true;
            }
        }
        if !changed {
            return given;
        }
    }
}

fn entry(line: &Line<'_>, description_shown: usize) -> Entry {
    let whole = line.item.description.chars().count();
    let shown = if description_shown >= whole && whole > 0 {
        Shown::Full
    } else if description_shown == 0 {
        if whole == 0 {
            Shown::Full
        } else {
            Shown::NameOnly
        }
    } else {
        Shown::Shortened
    };
    line.item.entry(
        shown,
        line.text(description_shown).chars().count() + 1,
        description_shown,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str, description: &str) -> Item<'static> {
        Item {
            name: name.to_owned(),
            description: description.to_owned(),
            skill: None,
            read_at: None,
        }
    }

    fn shown(items: &[Item<'_>], paths: &[&str], limit: usize) -> Vec<(Shown, usize)> {
        let lines: Vec<Line<'_>> = items
            .iter()
            .zip(paths)
            .map(|(item, path)| Line { item, path })
            .collect();
        render(&lines, limit)
            .0
            .into_iter()
            .map(|e| (e.shown, e.description_shown))
            .collect()
    }

    fn minimum(items: &[Item<'_>], paths: &[&str]) -> usize {
        items
            .iter()
            .zip(paths)
            .map(|(item, path)| cost(&Line { item, path }.text(0)))
            .sum()
    }

    // Codex's `budgeted_rendering_redistributes_unused_description_budget`, in tokens: the
    // short description takes what it needs and the long one the rest.
    #[test]
    fn room_a_short_description_leaves_goes_to_the_long_one() {
        let items = [
            item("long-skill", &"a".repeat(40)),
            item("short-skill", "x"),
        ];
        let paths = ["r0/long/SKILL.md", "r0/short/SKILL.md"];
        let limit = minimum(&items, &paths) + 6;
        let got = shown(&items, &paths, limit);
        assert_eq!(got[1], (Shown::Full, 1));
        assert_eq!(got[0].0, Shown::Shortened);
        assert!(got[0].1 > 1, "{got:?}");
    }

    // Codex's `budgeted_rendering_keeps_scanning_after_oversized_entry`: a line that does not
    // fit is omitted and the next one still tried.
    #[test]
    fn an_oversized_line_is_omitted_and_the_next_still_fits() {
        let items = [item(&"o".repeat(200), "d"), item("small", "d")];
        let paths = ["r0/o/SKILL.md", "r0/s/SKILL.md"];
        let small = cost(
            &Line {
                item: &items[1],
                path: paths[1],
            }
            .text(0),
        );
        let got = shown(&items, &paths, small);
        assert_eq!(got, [(Shown::Omitted, 0), (Shown::NameOnly, 0)]);
    }

    #[test]
    fn a_description_past_1024_characters_is_cut_even_under_budget() {
        let items = [item("big", &"b".repeat(1_500))];
        let got = shown(&items, &["r0/big/SKILL.md"], usize::MAX);
        assert_eq!(got, [(Shown::Shortened, 1_024)]);
    }
}
