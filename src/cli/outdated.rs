//! `skilldeck outdated`: for every skill imported from a git repository, whether upstream has
//! moved past the commit it was installed from, and whether the local copy was edited — asking
//! each repository (`git ls-remote`) only when run, or showing the last answers with
//! `--offline`.

use std::time::SystemTime;

use serde::Serialize;

use crate::operations::outdated::{self, Checked, Outdated};
use crate::roots::Machine;
use crate::text::Unsafe;
use crate::text::human::{self, table};

use super::{Failure, Outcome};

const AFTER_HELP: &str = "\
Only skills skilldeck imported from a git repository know their upstream (the repository, the
ref they were imported at, and the commit). Each repository is asked where that ref is now with
your own git (`git ls-remote`: no contents are fetched); a commit id never moves. The answers
are kept with their time: --offline shows the last ones without asking again.

`skilldeck update NAME` then merges the new upstream into the skill, keeping your edits.

Exit codes: 0 every skill is up to date; 1 some upstream has moved, or could not be asked.

Examples:
  skilldeck outdated
  skilldeck outdated --json | jq '.skills[] | select(.moved) | .name'";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Print JSON instead of a table
    #[arg(long)]
    json: bool,
    /// Show the answers the last run kept, asking no repository
    #[arg(long)]
    offline: bool,
}

#[derive(Serialize)]
struct OutdatedJson<'a> {
    checked_at: String,
    skills: Vec<CheckedJson<'a>>,
}

#[derive(Serialize)]
struct CheckedJson<'a> {
    name: &'a str,
    dir: &'a std::path::Path,
    repository: &'a str,
    #[serde(rename = "ref")]
    reference: Option<&'a str>,
    commit: &'a str,
    latest: Option<&'a str>,
    /// `null` when the repository could not be asked, or the ref is a commit id.
    moved: Option<bool>,
    pinned: bool,
    edited: bool,
    error: Option<&'a str>,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let outdated = if args.offline {
        match outdated::last(machine) {
            Some(last) => last,
            None => {
                return Err(Failure::Refused(
                    "no answers are kept yet; run `skilldeck outdated` once to ask the repositories"
                        .to_owned(),
                ));
            }
        }
    } else {
        let inventory = super::scan(machine);
        let mut progress = |said: &str| {
            let _ = super::eprint(&format!("skilldeck: {said}\n"));
        };
        outdated::check(machine, &inventory, &mut progress)
    };
    if args.json {
        super::json::print(&OutdatedJson {
            checked_at: humantime::format_rfc3339_seconds(outdated.checked_at).to_string(),
            skills: outdated.skills.iter().map(checked_json).collect(),
        })?;
    } else {
        super::print(&render(&outdated, machine))?;
    }
    let behind = outdated
        .skills
        .iter()
        .any(|c| c.moved() != Some(false) && !c.pinned);
    Ok(if behind {
        Outcome::Negative
    } else {
        Outcome::Done
    })
}

fn checked_json(checked: &Checked) -> CheckedJson<'_> {
    CheckedJson {
        name: &checked.name,
        dir: &checked.dir,
        repository: &checked.upstream.repository,
        reference: checked.upstream.reference.as_deref(),
        commit: &checked.upstream.commit,
        latest: checked.latest.as_deref(),
        moved: checked.moved(),
        pinned: checked.pinned,
        edited: checked.edited,
        error: checked.error.as_deref(),
    }
}

fn render(outdated: &Outdated, machine: &Machine) -> String {
    let home = machine.env.home();
    let age = SystemTime::now()
        .duration_since(outdated.checked_at)
        .unwrap_or_default();
    if outdated.skills.is_empty() {
        return "No skill here was imported from a git repository, so none knows its upstream \
                (`skilldeck import OWNER/REPO` records it).\n"
            .to_owned();
    }
    let rows: Vec<Vec<String>> = outdated
        .skills
        .iter()
        .map(|c| {
            let status = match (c.moved(), c.pinned) {
                (_, true) => "pinned".to_owned(),
                (Some(true), _) => format!(
                    "moved: {} → {}",
                    short(&c.upstream.commit),
                    short(c.latest.as_deref().unwrap_or_default())
                ),
                (Some(false), _) => "up to date".to_owned(),
                (None, _) => "not asked".to_owned(),
            };
            let upstream = match &c.upstream.reference {
                Some(r) => format!("{}@{r}", c.upstream.repository),
                None => c.upstream.repository.clone(),
            };
            vec![
                c.name.clone(),
                status,
                if c.edited { "yes" } else { "no" }.to_owned(),
                upstream,
                human::path(&c.dir, home, Unsafe::Escaped),
            ]
        })
        .collect();
    // Printed through `cli::print`, which makes every character from disk safe to show.
    let mut out = table(&["NAME", "UPSTREAM", "EDITED", "FROM", "DIR"], &rows);
    for c in &outdated.skills {
        if let Some(error) = &c.error {
            out.push_str(&format!("{}: {error}\n", c.name));
        }
    }
    out.push_str(&format!(
        "Asked {}. `skilldeck update NAME` merges a moved upstream, keeping local edits.\n",
        human::ago(age)
    ));
    out
}

/// A commit as people read it: its first 12 characters.
fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}
