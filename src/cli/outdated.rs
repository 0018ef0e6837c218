//! `skilldeck outdated`: for every skill whose upstream a record names (skilldeck's own, the
//! skills CLI's locks, gh skill's metadata, Claude Code's plugin installs, ...), whether
//! upstream has moved past what was recorded, and whether the local copy was edited — asking
//! each repository only when run, or showing the last answers with `--offline`.

use std::time::SystemTime;

use serde::Serialize;

use crate::operations::outdated::{self, Checked, Compares, Outdated, Status};
use crate::operations::progress::Step;
use crate::roots::Machine;
use crate::text::Unsafe;
use crate::text::human::{self, table};

use super::{Failure, Outcome};

const AFTER_HELP: &str = "\
A skill knows its upstream when a record names it: skilldeck's own, for what it imported from a
git repository (the repository, the ref, the commit); the skills CLI's locks and gh skill's
metadata (the repository, the ref, and the git tree of the skill's folder); Claude Code's plugin
installs and SkillPort (the commit). Each repository is asked with your own git: where the ref
is now (`git ls-remote`, no contents fetched) for a commit, the folder's tree (a shallow fetch
of trees, no file contents) for a tree id, so a tree moves only when the skill's own files do.
A commit id or a gh skill pin never moves. Codex, Copilot and Gemini CLI record only the version
they installed, and SkillKit and OpenSkills neither commit nor hash: their skills are listed
with what cannot be told. EDITED is the skill against that same record (`?` when it cannot be
checked). The answers are kept with their time: --offline shows the last ones without asking.

`skilldeck update NAME` then merges the new upstream into a skill skilldeck imported, keeping
your edits.

Exit codes: 0 no upstream has moved; 1 some upstream has moved, or could not be asked.

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
    /// `null` when the record names no commit.
    commit: Option<&'a str>,
    latest: Option<&'a str>,
    /// `null` when the repository could not be asked, the ref is a commit id, or the record
    /// holds nothing to compare.
    moved: Option<bool>,
    pinned: bool,
    edited: bool,
    error: Option<&'a str>,
    record: &'a str,
    /// The skill's folder in the repository; `null` for its top, or when the record says none.
    path: Option<&'a str>,
    compares: Compares,
    recorded: Option<&'a str>,
    edits_known: bool,
    /// The ref moved, but not the skill's own folder.
    folder_same: bool,
    note: Option<&'a str>,
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
        let mut progress = |step: Step<'_>| {
            if let Step::Said(said) = step {
                let _ = super::eprint(&format!("skilldeck: {said}\n"));
            }
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
    Ok(if outdated.behind() {
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
        commit: Some(checked.upstream.commit.as_str()).filter(|c| !c.is_empty()),
        latest: checked.latest.as_deref(),
        moved: checked.moved(),
        pinned: checked.pinned,
        edited: checked.edited,
        error: checked.error.as_deref(),
        record: &checked.record,
        path: Some(checked.upstream.path.as_str()).filter(|p| !p.is_empty()),
        compares: checked.compares,
        recorded: checked.recorded.as_deref(),
        edits_known: checked.edits_known,
        folder_same: checked.folder_same,
        note: checked.note.as_deref(),
    }
}

fn render(outdated: &Outdated, machine: &Machine) -> String {
    let home = machine.env.home();
    let age = SystemTime::now()
        .duration_since(outdated.checked_at)
        .unwrap_or_default();
    if outdated.skills.is_empty() {
        return "No skill here knows its upstream: none was imported from a git repository \
                (`skilldeck import OWNER/REPO` records it) or installed by a tool that records one.\n"
            .to_owned();
    }
    let rows: Vec<Vec<String>> = outdated
        .skills
        .iter()
        .map(|c| {
            let status = match c.status() {
                Status::Pinned => "pinned".to_owned(),
                Status::Moved => format!("moved: {}", c.change()),
                Status::UpToDate if c.folder_same => {
                    "up to date (its folder is unchanged)".to_owned()
                }
                Status::UpToDate => "up to date".to_owned(),
                Status::CannotTell => "cannot tell".to_owned(),
                // The error is said below the table.
                Status::Failed | Status::NotAsked => "not asked".to_owned(),
            };
            let edited = match c.edits() {
                None => "?",
                Some(true) => "yes",
                Some(false) => "no",
            };
            let upstream = match &c.upstream.reference {
                Some(r) => format!("{}@{r}", c.upstream.repository),
                None => c.upstream.repository.clone(),
            };
            vec![
                c.name.clone(),
                status,
                edited.to_owned(),
                c.record.clone(),
                upstream,
                human::path(&c.dir, home, Unsafe::Escaped),
            ]
        })
        .collect();
    // Printed through `cli::print`, which makes every character from disk safe to show.
    let mut out = table(
        &["NAME", "UPSTREAM", "EDITED", "RECORD", "FROM", "DIR"],
        &rows,
    );
    for c in &outdated.skills {
        if let Some(said) = c.error.as_ref().or(c.note.as_ref()) {
            out.push_str(&format!("{}: {said}\n", c.name));
        }
    }
    out.push_str(&format!(
        "Asked {}. `skilldeck update NAME` merges a moved upstream, keeping local edits.\n",
        human::ago(age)
    ));
    out
}
