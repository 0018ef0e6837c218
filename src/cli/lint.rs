//! `skilldeck lint [PATH]...`: the Agent Skills specification's lint the app shows, for skill
//! authors and their CI, on any folder: a skill folder, or a folder of skills (each child that
//! holds a `SKILL.md`). Exit 0 when clean, 1 when any problem, 2 for a path that is not a
//! folder, 3 for a folder that cannot be read.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::skill::{LOWER_SKILL_FILE, SKILL_FILE, lint_dir};
use crate::text::human::count;

use super::json;
use super::{Failure, Outcome};

const AFTER_HELP: &str = "\
A PATH holding SKILL.md is one skill; any other folder is a folder of skills, each child
folder holding SKILL.md linted. With no PATH, the current folder is linted when it is a skill
or a folder of skills; otherwise, as with --project DIR, the project's skills are: every skill
in every agent's project skills folder (.claude/skills, .agents/skills, .github/skills, ...)
from the folder up to the repository's top. Problems are printed one a line, `PATH: problem`,
on standard output, and a summary on standard error.

Exit codes: 0 every skill follows the specification; 1 a problem was found (or a folder holds no
skill); 2 a PATH that is not a folder; 3 a folder that cannot be read.

Examples:
  skilldeck lint                     the skill, or the skills, in the current folder; at a
                                     project's root, the project's skills
  skilldeck --project . lint         the project's skills
  skilldeck lint skills/pdf skills/docx
  skilldeck lint skills --json";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Skill folders, or folders of skills [default: ., else the project's skills]
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Print JSON: every skill linted with its problems, and every problem with its path
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct LintJson {
    skills: Vec<SkillLintJson>,
    /// Every problem found, one per entry, each with the path it is about.
    problems: Vec<ProblemJson>,
}

#[derive(Serialize)]
struct SkillLintJson {
    path: String,
    problems: Vec<String>,
}

#[derive(Serialize)]
struct ProblemJson {
    path: String,
    message: String,
}

/// Lint `args`' paths; with none, the current folder's skills, or the project's (from
/// `project`, the global `--project`, when given).
pub fn run(args: &Args, project: Option<&Path>) -> Result<Outcome, Failure> {
    let here = PathBuf::from(".");
    let given = if !args.paths.is_empty() {
        args.paths.clone()
    } else if project.is_none() && !skills_at(&here)?.is_empty() {
        vec![here]
    } else {
        // No skill here: the project's, in every agent's project folders.
        let start = super::project_dir(project)?;
        let machine = crate::roots::Machine::from_process(&start)?;
        let found = crate::scan::project_skill_dirs(&machine.env, &machine.project);
        if found.is_empty() {
            return project_without_skills(args, &start);
        }
        found
    };
    // Every path judged before anything is printed: a wrong one is a usage error alone.
    let mut skills: Vec<PathBuf> = Vec::new();
    let mut problems: Vec<ProblemJson> = Vec::new();
    for path in &given {
        let found = skills_at(path)?;
        if found.is_empty() {
            problems.push(ProblemJson {
                path: path.display().to_string(),
                message: format!("holds no {SKILL_FILE}, and no folder in it does"),
            });
        }
        for skill in found {
            if !skills.contains(&skill) {
                skills.push(skill);
            }
        }
    }
    let mut linted = Vec::with_capacity(skills.len());
    for dir in &skills {
        let shown = dir.display().to_string();
        let found: Vec<String> = match lint_dir(dir, &dir_name(dir)) {
            Ok(lints) => lints.iter().map(ToString::to_string).collect(),
            Err(error) => vec![error.to_string()],
        };
        problems.extend(found.iter().map(|message| ProblemJson {
            path: shown.clone(),
            message: message.clone(),
        }));
        linted.push(SkillLintJson {
            path: shown,
            problems: found,
        });
    }
    let outcome = if problems.is_empty() {
        Outcome::Done
    } else {
        Outcome::Negative
    };
    if args.json {
        json::print(&LintJson {
            skills: linted,
            problems,
        })?;
        return Ok(outcome);
    }
    let mut out = String::new();
    for problem in &problems {
        let _ = writeln!(out, "{}: {}", problem.path, problem.message);
    }
    super::print(&out)?;
    let with_problems = linted.iter().filter(|s| !s.problems.is_empty()).count();
    super::eprint(&if linted.is_empty() {
        "No skill linted.\n".to_owned()
    } else if problems.is_empty() {
        format!(
            "{} linted: each follows the specification.\n",
            count(linted.len(), "skill")
        )
    } else {
        format!(
            "{}.\n",
            found_in(
                linted.len(),
                "linted",
                problems.len(),
                "problem",
                with_problems
            )
        )
    })?;
    Ok(outcome)
}

/// No skill in the current folder, nor in any project skills folder: said as a problem, as a
/// folder of skills that holds none is.
fn project_without_skills(args: &Args, start: &Path) -> Result<Outcome, Failure> {
    let message = format!(
        "holds no {SKILL_FILE}, and no folder in it does; nor does any agent's project skills folder (.claude/skills, .agents/skills, ...) from here to the repository's top"
    );
    if args.json {
        json::print(&LintJson {
            skills: Vec::new(),
            problems: vec![ProblemJson {
                path: start.display().to_string(),
                message,
            }],
        })?;
    } else {
        super::print(&format!("{}: {message}\n", start.display()))?;
        super::eprint("No skill linted.\n")?;
    }
    Ok(Outcome::Negative)
}

/// The skill folders `path` names: itself when it holds a `SKILL.md`, else each folder in it
/// that does, by name.
///
/// # Errors
/// [`Failure::Usage`] when `path` is not a folder, [`Failure::Stopped`] when it cannot be read.
pub(super) fn skills_at(path: &Path) -> Result<Vec<PathBuf>, Failure> {
    let shown = path.display();
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(Failure::Usage(format!(
                "{shown} is not a folder: name a skill folder or a folder of skills"
            )));
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(Failure::Usage(format!("{shown}: no such folder")));
        }
        Err(error) => return Err(Failure::Stopped(format!("{shown} cannot be read: {error}"))),
    }
    if holds_manifest(path) {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path)
        .map_err(|error| Failure::Stopped(format!("{shown} cannot be read: {error}")))?;
    let mut found: Vec<PathBuf> = Vec::new();
    for entry in entries {
        let entry =
            entry.map_err(|error| Failure::Stopped(format!("{shown} cannot be read: {error}")))?;
        let child = entry.path();
        if child.is_dir() && holds_manifest(&child) {
            found.push(child);
        }
    }
    found.sort();
    Ok(found)
}

/// Whether `dir` holds a `SKILL.md` (or the `skill.md` a few agents accept in its place).
fn holds_manifest(dir: &Path) -> bool {
    [SKILL_FILE, LOWER_SKILL_FILE]
        .iter()
        .any(|name| std::fs::symlink_metadata(dir.join(name)).is_ok())
}

/// The last line of `lint` and of `audit` when something was found: `3 skills linted: 2
/// problems in 1 skill`.
pub(super) fn found_in(
    skills: usize,
    done: &str,
    found: usize,
    noun: &str,
    in_skills: usize,
) -> String {
    format!(
        "{} {done}: {} in {}",
        count(skills, "skill"),
        count(found, noun),
        count(in_skills, "skill")
    )
}

/// The folder's own name, which its skill's `name` must be, as a scan names it; `.` is named
/// as it resolves (`audit` names a folder's findings by it too).
pub(super) fn dir_name(dir: &Path) -> String {
    dir.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .or_else(|| {
            let real = crate::fs::canonical(dir).ok()?;
            Some(real.file_name()?.to_string_lossy().into_owned())
        })
        .unwrap_or_default()
}
