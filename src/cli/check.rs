//! `skilldeck check [SKILL]...`: verify every recorded skill (or those named) against its
//! installer's record, and exit 1 when any was modified; those whose record cannot be verified
//! are listed apart.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use crate::ownership::{Method, Owner};
use crate::record::State;
use crate::roots::Machine;
use crate::scan::{Inventory, Skill};
use crate::snapshot::Store;
use crate::snapshot::changes::{self, Baseline};
use crate::snapshot::diff::Status;

use super::agents::{AllAgents, Shown};
use super::json::{self, AgentsJson, SkillJson};
use super::{Failure, Outcome, target};
use crate::text::Unsafe;
use crate::text::human::{self, count};

const AFTER_HELP: &str = "\
A name checks every copy of that name on the machine; a folder checks that skill alone. A name
that matches no skill is refused (exit 1) with the closest names, before anything is checked.

Examples:
  skilldeck check
  skilldeck check pdf brand-guidelines
  skilldeck check ~/.claude/skills/pdf --json";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Skills to check, by name or folder [default: every recorded skill]
    #[arg(value_name = "SKILL")]
    skills: Vec<String>,
    /// Print JSON instead of sentences
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    agents: AllAgents,
}

#[derive(Serialize)]
struct CheckJson<'a> {
    recorded: usize,
    modified: Vec<SkillJson<'a>>,
    /// Recorded skills whose files could not be read far enough to check.
    unverified: Vec<SkillJson<'a>>,
    /// Recorded skills whose record cannot be checked against their files.
    unverifiable: Vec<SkillJson<'a>>,
    /// Skills named on the command line that carry no record to check them against (absent
    /// when none was named).
    #[serde(skip_serializing_if = "Option::is_none")]
    unrecorded: Option<Vec<SkillJson<'a>>>,
    problems: Vec<String>,
    #[serde(flatten)]
    agents: AgentsJson<'a>,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let inventory = super::scan(machine);
    let chosen = match named(&inventory, &args.skills) {
        Ok(chosen) => chosen,
        Err(failure) => return target::refuse(args.json, "no_such_skill", failure),
    };
    let recorded: Vec<&Skill> = chosen
        .iter()
        .copied()
        .filter(|s| s.owner.is_some())
        .collect();
    let unrecorded: Option<Vec<&Skill>> = (!args.skills.is_empty()).then(|| {
        chosen
            .iter()
            .copied()
            .filter(|s| s.owner.is_none())
            .collect()
    });
    let in_state = |state: State| -> Vec<&Skill> {
        recorded
            .iter()
            .copied()
            .filter(|s| s.state == state)
            .collect()
    };
    let modified = in_state(State::Modified);
    let unverified = in_state(State::Unreadable);
    let unverifiable = in_state(State::Unverifiable);
    let shown = Shown::new(&inventory.installed, &args.agents);
    if args.json {
        json::print(&CheckJson {
            recorded: recorded.len(),
            modified: listed(&modified, shown),
            unverified: listed(&unverified, shown),
            unverifiable: listed(&unverifiable, shown),
            unrecorded: unrecorded.as_deref().map(|skills| listed(skills, shown)),
            problems: inventory.problems.iter().map(ToString::to_string).collect(),
            agents: AgentsJson::new(shown),
        })?;
    } else {
        let home = machine.env.home();
        let mut out = String::new();
        let heading = |out: &mut String, label: &str, skill: &Skill| {
            let _ = writeln!(
                out,
                "{label}  {}  {}",
                skill.name,
                human::path(&skill.dir, home, Unsafe::Escaped)
            );
        };
        let store = Store::open(&machine.env);
        for skill in &modified {
            heading(&mut out, "modified", skill);
            let _ = writeln!(out, "          {}", how(skill, home));
            let _ = writeln!(out, "          {}", which_files(&store, skill));
        }
        for skill in &unverified {
            heading(&mut out, "unverified", skill);
            for problem in &skill.problems {
                let _ = writeln!(out, "          {problem}");
            }
        }
        for skill in &unverifiable {
            heading(&mut out, "unverifiable", skill);
            let _ = writeln!(out, "          {}", how(skill, home));
        }
        for skill in unrecorded.iter().flatten() {
            heading(&mut out, "unrecorded", skill);
            let _ = writeln!(out, "          no installer's record to check it against");
        }
        for problem in &inventory.problems {
            let _ = writeln!(out, "! {problem}");
        }
        let intact = recorded.len() - modified.len() - unverified.len() - unverifiable.len();
        let _ = match (recorded.len(), modified.len(), unverifiable.len()) {
            (0, _, _) => writeln!(
                out,
                "No skill carries an installer's record ({} {}).",
                count(chosen.len(), "skill"),
                if args.skills.is_empty() {
                    "found"
                } else {
                    "named"
                }
            ),
            (_, 0, 0) => writeln!(out, "{} intact.", count(intact, "recorded skill")),
            (all, 0, u) => writeln!(
                out,
                "{}: {intact} intact, {u} unverifiable.",
                count(all, "recorded skill")
            ),
            (all, n, u) => writeln!(
                out,
                "{n} of {} modified since installed{}.",
                count(all, "recorded skill"),
                if u > 0 {
                    format!("; {u} unverifiable")
                } else {
                    String::new()
                }
            ),
        };
        super::print(&out)?;
    }
    Ok(if modified.is_empty() {
        Outcome::Done
    } else {
        Outcome::Negative
    })
}

/// The skills `args` name, each name resolved as other commands resolve it (every copy of a
/// name, or the skill whose folder it is), or every skill when none is named.
///
/// # Errors
/// [`Failure::Refused`] for the first name that matches nothing, with the closest names.
fn named<'a>(inventory: &'a Inventory, args: &[String]) -> Result<Vec<&'a Skill>, Failure> {
    if args.is_empty() {
        return Ok(inventory.skills.iter().collect());
    }
    let mut chosen: Vec<&Skill> = Vec::new();
    for arg in args {
        let found = target::matching(inventory, arg);
        if found.is_empty() {
            return Err(Failure::Refused(format!(
                "no skill is named {arg}, and no skill folder is at that path{}",
                target::did_you_mean(inventory, arg)
            )));
        }
        for skill in found {
            if !chosen.iter().any(|c| std::ptr::eq(*c, skill)) {
                chosen.push(skill);
            }
        }
    }
    Ok(chosen)
}

fn listed<'a>(skills: &[&'a Skill], shown: Shown<'_>) -> Vec<SkillJson<'a>> {
    skills.iter().map(|s| SkillJson::new(s, shown)).collect()
}

/// How a skill another installer recorded stands against that record.
fn how_peer(state: State, owner: &Owner, home: &Path) -> String {
    let from = owner
        .upstream
        .as_ref()
        .and_then(|u| u.repository.as_deref())
        .map_or_else(String::new, |repository| format!(" from {repository}"));
    let pristine = owner
        .pristine
        .as_deref()
        .map_or_else(String::new, |p| human::path(p, home, Unsafe::Escaped));
    let note = owner.note.as_deref().unwrap_or("");
    let said = match (state, owner.method) {
        (State::Modified, Some(Method::MarketplaceClone)) => {
            format!("the cached copy differs from the marketplace clone's, {pristine}")
        }
        (State::Modified, Some(Method::SourceFolder)) => {
            format!(
                "it differs from {pristine}, the source folder its recorded hash was computed over"
            )
        }
        (State::Modified, Some(method)) if method != Method::ChangedSinceInstall => {
            let hash = owner.hash.as_deref().unwrap_or("");
            let aside = if note.is_empty() {
                String::new()
            } else {
                format!(" ({note})")
            };
            format!("its files no longer hash to the recorded {hash}{aside}")
        }
        _ => note.to_owned(),
    };
    format!("installed by {}{from}; {said}", owner.installer)
}

/// Which files of a modified skill changed, when something keeps what it was (its latest
/// snapshot, or its installer's untouched copy; a record keeps only a digest of them all), and
/// the command that shows how.
fn which_files(store: &Store, skill: &Skill) -> String {
    let pristine = skill.owner.as_ref().and_then(|o| o.pristine.as_deref());
    let diff_it = format!("`skilldeck diff {}` shows how", skill.name);
    let baseline = match changes::baseline(store, &skill.real_dir, pristine) {
        Ok(Some(baseline)) => baseline,
        _ => {
            return format!(
                "the record keeps no copy to say which files changed; `skilldeck snapshot {}` keeps one from now on",
                skill.name
            );
        }
    };
    let since = match &baseline {
        Baseline::Snapshot(snapshot) => format!("its snapshot {}", snapshot.id),
        Baseline::Pristine(_) => "the installer's untouched copy".to_owned(),
    };
    match changes::diff_against(&baseline, &skill.real_dir) {
        Ok(diff) if diff.is_empty() => {
            format!("its files match {since}; the record is what differs")
        }
        Ok(diff) => {
            let files: Vec<String> = diff
                .files
                .iter()
                .map(|file| {
                    let mark = match file.status() {
                        Status::Added => 'A',
                        Status::Removed => 'D',
                        Status::Modified => 'M',
                    };
                    format!("{mark} {}", file.path)
                })
                .collect();
            format!(
                "{} changed since {since}: {}; {diff_it}",
                count(files.len(), "file"),
                files.join(", ")
            )
        }
        Err(error) => format!("compared with {since}: {error}"),
    }
}

/// How a modified or unverifiable skill stands against its record.
fn how(skill: &Skill, home: &Path) -> String {
    let Some(record) = &skill.record else {
        return skill
            .owner
            .as_ref()
            .map_or_else(String::new, |owner| how_peer(skill.state, owner, home));
    };
    let installed = format!(
        "installed by {} {}",
        record.installed_by, record.installed_version
    );
    match &skill.digest {
        Some(now) => format!(
            "{installed}; its files digest to {now}, the record says {}",
            record.content_digest
        ),
        None => {
            let reasons: Vec<String> = skill.problems.iter().map(ToString::to_string).collect();
            format!("{installed}; {}", reasons.join("; "))
        }
    }
}
