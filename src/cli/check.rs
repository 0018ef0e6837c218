//! `skilldeck check`: verify every recorded skill against the digest in its record, and exit 1
//! when any was modified.

use std::fmt::Write as _;

use serde::Serialize;

use crate::record::State;
use crate::scan::Skill;

use super::human::{count, tilde};
use super::json::{self, SkillJson};
use super::{Context, Failure, Outcome};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON instead of sentences
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct CheckJson<'a> {
    recorded: usize,
    modified: Vec<SkillJson<'a>>,
    unverified: Vec<SkillJson<'a>>,
}

pub fn run(args: &Args, context: &Context) -> Result<Outcome, Failure> {
    let inventory = context.scan();
    let recorded: Vec<&Skill> = inventory
        .skills
        .iter()
        .filter(|s| s.record.is_some())
        .collect();
    let modified: Vec<&Skill> = recorded
        .iter()
        .copied()
        .filter(|s| s.state == State::Modified)
        .collect();
    let unverified: Vec<&Skill> = recorded
        .iter()
        .copied()
        .filter(|s| s.state == State::Unreadable)
        .collect();
    if args.json {
        json::print(&CheckJson {
            recorded: recorded.len(),
            modified: modified.iter().map(|s| SkillJson::new(s)).collect(),
            unverified: unverified.iter().map(|s| SkillJson::new(s)).collect(),
        })?;
    } else {
        let home = context.env.home();
        let mut out = String::new();
        for skill in &modified {
            let _ = writeln!(out, "modified  {}  {}", skill.name, tilde(&skill.dir, home));
            let _ = writeln!(out, "          {}", how(skill));
        }
        for skill in &unverified {
            let _ = writeln!(
                out,
                "unverified  {}  {}",
                skill.name,
                tilde(&skill.dir, home)
            );
            for problem in &skill.problems {
                let _ = writeln!(out, "          {problem}");
            }
        }
        let intact = recorded.len() - modified.len() - unverified.len();
        let _ = match (recorded.len(), modified.len()) {
            (0, _) => writeln!(
                out,
                "No skill carries an installer's record ({} found).",
                count(inventory.skills.len(), "skill")
            ),
            (_, 0) => writeln!(out, "{} intact.", count(intact, "recorded skill")),
            (all, n) => writeln!(
                out,
                "{n} of {} modified since installed.",
                count(all, "recorded skill")
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

/// How a modified skill differs from its record.
fn how(skill: &Skill) -> String {
    let Some(record) = &skill.record else {
        return String::new();
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
