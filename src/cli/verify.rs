//! `skilldeck verify [--format text|json|sarif|github] [--fail-on SEVERITY]`: the project
//! against its `skills-lock.json` and APM's `apm.lock.yaml` (and, with `--fail-on`, what the
//! audit finds in the skills they name), for CI. Read-only; exit 0 clean, 1 findings, 2 could
//! not check.

use std::fmt::Write as _;

use serde_json::json;

use crate::operations::verify::{self, Finding, Problem, Verified};
use crate::roots::Machine;
use crate::text::human::count;

use super::{Failure, Outcome};

const AFTER_HELP: &str = "\
verify reads the project's skills-lock.json (at the repository root; `skilldeck lock` or the
skills CLI writes it) and the project's skill folders at that root (.agents/skills,
.claude/skills, .github/skills and the other agents'), and reports:
  skill-differs   a locked skill whose files do not hash to its computedHash, with the first
                  file that differs when a snapshot of the locked content is kept
  skill-missing   a locked skill the project does not have
  skill-unlocked  a project skill the lock does not name
Each finding names the agents that load the skill. The hash is the skills CLI's, over the skill
as it would install it: skilldeck's record in SKILL.md is left out. Nothing is written.

Where the project has APM's apm.lock.yaml (Microsoft's Agent Package Manager), each skill file
it records (below .agents/skills, .claude/skills, .github/skills and APM's other skill folders)
is checked against the SHA-256 it records, hashed as APM hashes it (CRLF counted as LF in text):
  apm-file-differs  a recorded skill file whose content does not match its SHA-256
  apm-file-missing  a recorded skill file that is not there
Either lock alone is enough; with both, both are checked.

With --fail-on SEVERITY (high, medium or low), each project skill a lock names is also audited
as `skilldeck audit` audits it, and each finding of that severity or more is a finding, under
its audit rule (remote-pipe-to-shell, exfil-environment, ...), with its file and line.

Exit codes: 0 clean; 1 findings; 2 a lock or a skill could not be read (nothing checked).

Formats: text (sentences), json, sarif (SARIF 2.1.0, for GitHub code scanning), github
(workflow annotations, `::error file=…,title=…::message`, shown on the pull request).

Examples:
  skilldeck verify
  skilldeck verify --format github
  skilldeck verify --format sarif > skills.sarif";

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Sarif,
    Github,
}

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// How to report what was found
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Also audit each skill a lock names, as `skilldeck audit` does, and report its findings
    /// of this severity or more (high, medium, low) as findings
    #[arg(long, value_enum, value_name = "SEVERITY")]
    fail_on: Option<super::audit::FailOn>,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let inventory = super::scan(machine);
    let audit_at = args.fail_on.map(super::audit::FailOn::severity);
    let verified = verify::verify(machine, &inventory, audit_at)
        .map_err(|error| Failure::Unchecked(format!("could not check: {error}")))?;
    match args.format {
        Format::Text => super::print(&text(&verified))?,
        Format::Json => super::json::print(&as_json(&verified))?,
        Format::Sarif => super::json::print(&sarif(&verified, audit_at.is_some()))?,
        Format::Github => super::write_exact(github(&verified).as_bytes())?,
    }
    Ok(if verified.findings.is_empty() {
        Outcome::Done
    } else {
        Outcome::Negative
    })
}

/// Where a finding points, relative to the lock's folder, and the line there.
fn location(verified: &Verified, finding: &Finding) -> (String, usize) {
    match (&finding.dir, &finding.problem) {
        (
            Some(dir),
            Problem::Differs {
                file: Some(file), ..
            },
        ) => (
            format!("{}/{file}", verify::relative(&verified.top, dir)),
            1,
        ),
        (Some(dir), Problem::ApmDiffers { file, .. } | Problem::ApmMissing { file }) => (
            format!("{}/{file}", verify::relative(&verified.top, dir)),
            1,
        ),
        // A finding about a whole file (a compiled program) is on line 0: its first line.
        (Some(dir), Problem::Audit(finding)) => (
            format!("{}/{}", verify::relative(&verified.top, dir), finding.file),
            finding.line.max(1),
        ),
        (Some(dir), _) => (
            format!("{}/SKILL.md", verify::relative(&verified.top, dir)),
            1,
        ),
        (None, _) => match &verified.lock_path {
            Some(lock_path) => (
                verify::relative(&verified.top, lock_path),
                lock_line(lock_path, &finding.name),
            ),
            None => (crate::lock::LOCK_FILE.to_owned(), 1),
        },
    }
}

/// The line of the lock where `name`'s entry opens, else 1.
fn lock_line(lock_path: &std::path::Path, name: &str) -> usize {
    let key = format!("{}: {{", serde_json::to_string(name).unwrap_or_default());
    std::fs::read_to_string(lock_path)
        .ok()
        .and_then(|text| {
            text.lines()
                .position(|line| line.trim_start().starts_with(&key))
        })
        .map_or(1, |i| i + 1)
}

fn message(verified: &Verified, finding: &Finding) -> String {
    let shown = finding
        .dir
        .as_deref()
        .map(|dir| verify::relative(&verified.top, dir))
        .unwrap_or_default();
    finding.sentence(&shown)
}

fn text(verified: &Verified) -> String {
    let mut out = String::new();
    for finding in &verified.findings {
        let _ = writeln!(
            out,
            "{}: {}",
            finding.problem.rule(),
            message(verified, finding)
        );
    }
    let mut checked = Vec::new();
    if let Some(lock_path) = &verified.lock_path {
        checked.push(format!(
            "{}: {}",
            verify::relative(&verified.top, lock_path),
            count(verified.locked, "locked skill")
        ));
    }
    if let Some(apm_lock_path) = &verified.apm_lock_path {
        checked.push(format!(
            "{}: {}",
            verify::relative(&verified.top, apm_lock_path),
            count(verified.apm_files, "recorded skill file")
        ));
    }
    let _ = writeln!(
        out,
        "{}, {}",
        checked.join("; "),
        count(verified.findings.len(), "finding")
    );
    out
}

fn as_json(verified: &Verified) -> serde_json::Value {
    let findings: Vec<serde_json::Value> = verified
        .findings
        .iter()
        .map(|finding| {
            let (file, line) = location(verified, finding);
            let (locked, now, differing) = match &finding.problem {
                Problem::Differs { locked, now, file } => {
                    (Some(locked.as_str()), Some(now.as_str()), file.as_deref())
                }
                Problem::ApmDiffers { file, locked, now } => (
                    Some(locked.as_str()),
                    Some(now.as_str()),
                    Some(file.as_str()),
                ),
                Problem::ApmMissing { file } => (None, None, Some(file.as_str())),
                _ => (None, None, None),
            };
            let severity = match &finding.problem {
                Problem::Audit(audited) => Some(audited.severity),
                _ => None,
            };
            json!({
                "rule": finding.problem.rule(),
                "severity": severity,
                "skill": finding.name,
                "file": file,
                "line": line,
                "differing_file": differing,
                "locked_hash": locked,
                "hash": now,
                "agents": finding.agents,
                "message": message(verified, finding),
            })
        })
        .collect();
    json!({
        "lock": verified.lock_path,
        "locked": verified.locked,
        "apm_lock": verified.apm_lock_path,
        "apm_files": verified.apm_files,
        "clean": verified.findings.is_empty(),
        "findings": findings,
    })
}

const RULES: [(&str, &str); 5] = [
    (
        "skill-differs",
        "A locked skill's files do not match the lock's computedHash",
    ),
    (
        "skill-missing",
        "A skill in skills-lock.json is not in the project",
    ),
    (
        "skill-unlocked",
        "A project skill is not in skills-lock.json",
    ),
    (
        "apm-file-differs",
        "A skill file does not match the SHA-256 apm.lock.yaml records",
    ),
    (
        "apm-file-missing",
        "A skill file apm.lock.yaml records is not in the project",
    ),
];

/// A finding's level: a lock's finding is an error; an audit's, its severity's level.
fn level(finding: &Finding) -> &'static str {
    match &finding.problem {
        Problem::Audit(audited) => super::audit::level(audited.severity),
        _ => "error",
    }
}

/// The findings as a SARIF 2.1.0 log, for code scanning; with `audited`, the audit's rules
/// are among the driver's.
fn sarif(verified: &Verified, audited: bool) -> serde_json::Value {
    let described = if audited {
        super::audit::sarif_rules()
    } else {
        Vec::new()
    };
    let rules: Vec<(&str, &str)> = RULES
        .iter()
        .copied()
        .chain(described.iter().map(|(id, text)| (*id, text.as_str())))
        .collect();
    let results: Vec<super::sarif::Result<'_>> = verified
        .findings
        .iter()
        .map(|finding| {
            let (uri, line) = location(verified, finding);
            super::sarif::Result {
                rule: finding.problem.rule(),
                level: level(finding),
                message: message(verified, finding),
                uri,
                line: Some(line),
            }
        })
        .collect();
    super::sarif::log(&rules, &results)
}

/// GitHub workflow annotations: one line per finding, `::error` (an audit's medium finding
/// `::warning`, its low one `::notice`).
fn github(verified: &Verified) -> String {
    let mut out = String::new();
    for finding in &verified.findings {
        let (file, line) = location(verified, finding);
        let command = match level(finding) {
            "warning" => "warning",
            "note" => "notice",
            _ => "error",
        };
        let _ = writeln!(
            out,
            "::{command} file={},line={line},title={}::{}",
            property(&file),
            finding.problem.rule(),
            data(&message(verified, finding))
        );
    }
    out
}

/// An annotation's message, escaped as the runner reads it (`%`, CR, LF).
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// An annotation's property value: its message's escapes, and `:` and `,`.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}
