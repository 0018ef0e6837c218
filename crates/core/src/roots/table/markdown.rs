//! The roots table as the README shows it: one row per agent with its project and user folders,
//! what tells it is installed, and what those facts rest on. Written from the table itself
//! (a test compares the README's copy), so the documentation cannot drift from the code.

use super::*;

/// The markdown table of every agent, in table order.
pub fn markdown() -> String {
    let mut out = String::from(
        "| agent | project folders | user folders | installed when | evidence |\n|---|---|---|---|---|\n",
    );
    for &agent in agents() {
        let id = AgentId::from_id(agent.id());
        let folders = |scope: Scope| -> String {
            let shown: Vec<String> = rules()
                .iter()
                .filter(|rule| Some(rule.agent) == id && rule.scope == scope)
                .map(|rule| {
                    let mut text = written(&rule.place);
                    if let Some(trust) = rule.trust.filter(|_| !text.is_empty()) {
                        text.push_str(", ");
                        text.push_str(trust.shown);
                    }
                    if !text.is_empty() && !rule.unless.is_empty() {
                        let switches: Vec<String> =
                            rule.unless.iter().map(|s| format!("`{s}`")).collect();
                        text.push_str(&format!(" (off with {})", switches.join(" or ")));
                    }
                    text
                })
                .filter(|text| !text.is_empty())
                .collect();
            if shown.is_empty() {
                "—".to_owned()
            } else {
                shown.join("<br>")
            }
        };
        let detect: Vec<String> = agent.detect().iter().map(written).collect();
        let installed = if detect.is_empty() {
            "never told".to_owned()
        } else {
            format!("{} exists", detect.join(" or "))
        };
        out.push_str(&format!(
            "| {} `{}` | {} | {} | {installed} | {} |\n",
            cell(agent.name()),
            agent.id(),
            folders(Project),
            folders(User),
            evidence(agent.evidence()),
        ));
    }
    out
}

/// How sure, then on what: `from its docs: skill-format-and-roots.md §2`.
fn evidence(evidence: Evidence) -> String {
    match evidence {
        Evidence::SkillsCli => cell(&evidence.describe()),
        _ => cell(&format!("{}: {}", evidence.strength(), evidence.describe())),
    }
}

/// A place as people write it: `~/.claude/skills`, `$CODEX_HOME/skills` (else
/// `~/.codex/skills`), `.claude/skills` up to the repository root.
fn written(place: &Place) -> String {
    let (windows, elsewhere): (Vec<String>, Vec<String>) = alternatives(place)
        .into_iter()
        .partition(|way| way.starts_with(ON_WINDOWS));
    let quoted = |ways: &[String]| {
        ways.iter()
            .map(|way| format!("`{}`", way.trim_start_matches(ON_WINDOWS)))
            .collect::<Vec<_>>()
            .join(", else ")
    };
    let mut text = quoted(&elsewhere);
    if !windows.is_empty() {
        text.push_str(&format!("; on Windows {}", quoted(&windows)));
    }
    if let Place::Project(_, walk) = innermost(place) {
        text.push_str(walked(walk));
    }
    text
}

/// How far up from where the agent starts a project folder is read.
fn walked(walk: &Walk) -> &'static str {
    match walk {
        Walk::Start => "",
        // Codex's default markers (`.git`) make the repository root its project's top; the
        // README's table tells of that default, and the prose of the markers that move it.
        Walk::UpToRepository | Walk::UpToMarkers(_) => " up to the repository root",
        Walk::UpToRepositoryElse(Beyond::BelowHome) => {
            " up to the repository root, else every folder below the home"
        }
        Walk::UpToRepositoryElse(Beyond::ToHome) => {
            " up to the repository root, else up to the home"
        }
        Walk::UpToRepositoryElse(Beyond::ToRoot) => " up to the repository root, else up to /",
        Walk::EveryParent => " in every folder above, repository or not",
        Walk::NotAtHome(inner) => match inner {
            Walk::UpToRepositoryElse(Beyond::ToHome) => {
                " up to the repository root, else up to (not in) the home"
            }
            _ => walked(inner),
        },
    }
}

/// The project walk a place ends in, if any.
fn innermost(place: &Place) -> &Place {
    match place {
        Place::Under(base, _) => innermost(base),
        other => other,
    }
}

/// What marks the paths of a place that only Windows reads, until [`written`] groups them.
const ON_WINDOWS: &str = "on Windows: ";

/// Each path a place can mean, the one its variable gives first.
fn alternatives(place: &Place) -> Vec<String> {
    match place {
        Place::Home(relative) => vec![joined("~", relative)],
        Place::Env { var, then, or } | Place::EnvEvenEmpty { var, then, or } => {
            let mut ways = vec![joined(&format!("${var}"), then)];
            ways.extend(alternatives(or));
            ways
        }
        Place::Under(base, relative) => alternatives(base)
            .into_iter()
            .map(|way| joined(&way, relative))
            .collect(),
        Place::EachIn(var) => vec![format!("each folder of ${var}")],
        Place::EachSplitIn { var, separator } => {
            vec![format!("each {separator:?}-separated folder of ${var}")]
        }
        Place::EachListedIn { file, key } => alternatives(file)
            .into_iter()
            .map(|way| format!("each folder of {key} in {way}"))
            .collect(),
        Place::Picked { base, shown, .. } => alternatives(base)
            .into_iter()
            .map(|way| joined(&way, shown))
            .collect(),
        Place::Nowhere => Vec::new(),
        Place::System(path) => vec![format!("/{}", path.linux)],
        Place::Project(relative, _) => vec![(*relative).to_owned()],
        Place::OnWindows { windows, elsewhere } => {
            let mut ways = alternatives(elsewhere);
            ways.extend(
                alternatives(windows)
                    .into_iter()
                    .map(|way| format!("{ON_WINDOWS}{way}")),
            );
            ways
        }
    }
}

fn joined(base: &str, relative: &str) -> String {
    if relative.is_empty() {
        base.to_owned()
    } else {
        format!("{base}/{relative}")
    }
}

/// Text safe inside a markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_read_as_people_write_them() {
        assert_eq!(
            written(&Place::Under(&CODEX_HOME, "skills")),
            "`$CODEX_HOME/skills`, else `~/.codex/skills`"
        );
        assert_eq!(
            written(&Place::Project(".claude/skills", Walk::UpToRepository)),
            "`.claude/skills` up to the repository root"
        );
        assert_eq!(written(&OPENCODE_CONFIG_DIR), "`$OPENCODE_CONFIG_DIR`");
    }

    #[test]
    fn the_table_has_a_row_per_agent() {
        let table = markdown();
        assert_eq!(table.lines().count(), 2 + agents().len());
        assert!(table.contains("| Cline `cline` | `.agents/skills` | `~/.agents/skills` | `~/.cline` exists | skills CLI 1.7.4 agent table |"), "{table}");
    }
}
